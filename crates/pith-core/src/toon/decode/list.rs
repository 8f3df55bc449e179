//! List items (§9.2, §9.4, §10): `- ` lines under a header, each a value,
//! an array, or an object whose first field stands on the hyphen line.

use super::array::{Count, ITEMS};
use super::header::{BadHeader, Class};
use super::lines::Line;
use super::object::Obj;
use super::token::fill;
use super::{Fault, Parser, R};
use crate::{ErrorKind, Map, Value};

impl Parser<'_> {
    /// List items under a header (§9.2, §9.4).
    pub(super) fn list(
        &mut self,
        count: Count,
        header_depth: usize,
        list_level: usize,
    ) -> R<Value> {
        let item_depth = self.content_depth(header_depth)?;
        // Lists and tables grow as items arrive: a declared length is never
        // trusted with an allocation, and reserving a large exact size makes
        // glibc trim and refault the heap around every decode (measured: 70×
        // the page faults on a 10,000-item list).
        let mut items = Vec::new();
        let mut started = false;
        while let Some(line) = self.lines.peek()? {
            if line.depth <= header_depth {
                break;
            }
            if line.depth != item_depth {
                return Err(self.misplaced(line, item_depth));
            }
            let c = &self.src[line.start..line.end];
            if !(c == b"-" || c.starts_with(b"- ")) {
                return Err(Fault::new(
                    ErrorKind::Structure,
                    line.start,
                    format!(
                        "expected a list item '- …' at item depth, found {}",
                        self.tok.snippet(line.start, line.end)
                    ),
                ));
            }
            if self.strict && items.len() == count.length {
                return Err(count.surplus(line.start, ITEMS));
            }
            self.consume(line)?;
            if !started {
                started = true;
                self.spans += 1;
            }
            let n = items.len();
            items.push(Value::Null);
            self.item(line, item_depth, list_level + 1, &mut items[n])?;
        }
        if started {
            self.spans -= 1;
        }
        if self.strict && items.len() != count.length {
            return Err(count.mismatch(count.length_at, ITEMS, items.len()));
        }
        Ok(Value::Array(items))
    }

    /// One list item at depth `item_depth`, itself at nesting level
    /// `item_level`.
    fn item(&mut self, line: Line, item_depth: usize, item_level: usize, out: &mut Value) -> R<()> {
        let (s, e) = (line.start, line.end);
        if e - s == 1 {
            self.check_depth(item_level, s)?;
            fill(out, Value::Object(Map::new()));
            return Ok(());
        }
        let mut a = s + 2;
        while a < e && self.src[a] == b' ' {
            a += 1;
        }
        if &self.src[a..e] == b"[]" {
            self.check_depth(item_level, a)?;
            fill(out, Value::Array(Vec::new()));
            return Ok(());
        }
        let v = match self.classify(a, e)? {
            Class::Header(bracket) => match self.header(a, e, bracket)? {
                Ok(header) if header.key.is_none() && !header.keyed && header.fields.is_none() => {
                    self.array(header, item_depth, item_level, a)?
                }
                Ok(header) if header.key.is_none() => {
                    let fault = Fault::new(
                        ErrorKind::Structure,
                        a,
                        "expected '[N]:' after '- ', found a keyless header with a field list, \
                         which is only valid as the document root",
                    );
                    let bad = BadHeader {
                        fault,
                        colon: header.colon,
                    };
                    self.item_object(a, item_depth, item_level, |p, obj| {
                        p.fall_through(bad, a, e, item_depth + 1, item_level, obj)
                    })?
                }
                Ok(header) => self.item_object(a, item_depth, item_level, |p, obj| {
                    p.header_field(header, a, e, item_depth + 1, item_level, obj)
                })?,
                Err(bad) => self.item_object(a, item_depth, item_level, |p, obj| {
                    p.fall_through(bad, a, e, item_depth + 1, item_level, obj)
                })?,
            },
            Class::Bare => return self.tok.value_into(a, e, out),
            class => self.item_object(a, item_depth, item_level, |p, obj| {
                p.field(class, a, e, item_depth + 1, item_level, obj)
            })?,
        };
        fill(out, v);
        Ok(())
    }

    /// A list item that is an object whose first field stands on the hyphen
    /// line: that field is at depth `item_depth + 1`, like the fields after
    /// it (§10).
    fn item_object(
        &mut self,
        a: usize,
        item_depth: usize,
        object_level: usize,
        first_field: impl FnOnce(&mut Self, &mut Obj) -> R<()>,
    ) -> R<Value> {
        self.check_depth(object_level, a)?;
        let mut obj = self.stack.open(object_level);
        first_field(self, &mut obj)?;
        self.fields(item_depth + 1, object_level, &mut obj)?;
        Ok(Value::Object(self.finish(obj, object_level)?))
    }
}
