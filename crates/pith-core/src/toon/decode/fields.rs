//! Object fields: the lines of an object, each `key: value`, `key:` opening
//! a nested object, or a header, and the entries they add (duplicate keys
//! refused in strict mode, last write wins in lenient mode).

use super::header::{BadHeader, Class, Header, Key};
use super::object::{KeyMeta, Obj, fingerprint};
use super::{Fault, Parser, R, expand, show};
use crate::{ErrorKind, Map, Value};

impl Parser<'_> {
    /// The fields at depth `field_depth` of the object at nesting level
    /// `object_level`.
    pub(super) fn fields(
        &mut self,
        field_depth: usize,
        object_level: usize,
        obj: &mut Obj,
    ) -> R<()> {
        while let Some(line) = self.lines.peek()? {
            if line.depth < field_depth {
                break;
            }
            if line.depth > field_depth {
                return Err(self.misplaced(line, field_depth));
            }
            self.consume(line)?;
            let class = self.classify(line.start, line.end)?;
            self.field(class, line.start, line.end, field_depth, object_level, obj)?;
        }
        Ok(())
    }

    /// One field, content `[s, e)`, standing at depth `field_depth` in the
    /// object at nesting level `object_level`.
    pub(super) fn field(
        &mut self,
        class: Class,
        s: usize,
        e: usize,
        field_depth: usize,
        object_level: usize,
        obj: &mut Obj,
    ) -> R<()> {
        match class {
            Class::KeyValue {
                a,
                b,
                quoted: false,
                rest,
            } => {
                let tok = self.tok;
                let (va, vb) = tok.trim(rest, e);
                if va < vb && &self.src[va..vb] != b"[]" {
                    // The common line `key: value`: no key string or value is moved.
                    let print = fingerprint(&self.src[a..b]);
                    let slot = self.slot(obj, tok.s(a, b), print, a, false)?;
                    return tok.value_into(va, vb, slot);
                }
                let key = self.key(a, b, false)?;
                self.key_value(key, rest, e, field_depth, object_level, obj)
            }
            Class::KeyValue { a, b, rest, .. } => {
                let key = self.key(a, b, true)?;
                self.key_value(key, rest, e, field_depth, object_level, obj)
            }
            Class::Header(bracket) => match self.header(s, e, bracket)? {
                Ok(header) => self.header_field(header, s, e, field_depth, object_level, obj),
                Err(bad) => self.fall_through(bad, s, e, field_depth, object_level, obj),
            },
            Class::Bare => Err(self.missing_colon(s, e)),
        }
    }

    /// A field whose line is a header: `key[N]…:`.
    pub(super) fn header_field(
        &mut self,
        mut header: Header,
        s: usize,
        e: usize,
        field_depth: usize,
        object_level: usize,
        obj: &mut Obj,
    ) -> R<()> {
        let Some(key) = header.key.take() else {
            let fault = Fault::new(
                ErrorKind::Structure,
                s,
                "expected a key before '[': a header without a key is only valid \
                 as the document root or right after '- '",
            );
            let colon = header.colon;
            return self.fall_through(
                BadHeader { fault, colon },
                s,
                e,
                field_depth,
                object_level,
                obj,
            );
        };
        self.reserve(obj, &key)?;
        let v = self.array(header, field_depth, object_level + 1, key.at)?;
        self.put(obj, key, v);
        Ok(())
    }

    /// A malformed header: an error in strict mode, otherwise a key-value
    /// line whose key is the literal text before the first unquoted colon.
    pub(super) fn fall_through(
        &mut self,
        bad: BadHeader,
        s: usize,
        e: usize,
        field_depth: usize,
        object_level: usize,
        obj: &mut Obj,
    ) -> R<()> {
        let BadHeader { fault, colon } = bad;
        if self.strict {
            return Err(fault);
        }
        let (a, b) = self.tok.trim(s, colon);
        let key = Key::new(self.tok.s(a, b).to_owned(), false, s);
        self.demoted = Some((e, fault.0.msg));
        self.key_value(key, colon + 1, e, field_depth, object_level, obj)
    }

    /// `key: value`, `key: []`, or `key:` opening a nested object.
    fn key_value(
        &mut self,
        key: Key,
        rest: usize,
        e: usize,
        field_depth: usize,
        object_level: usize,
        obj: &mut Obj,
    ) -> R<()> {
        let (a, b) = self.tok.trim(rest, e);
        if a < b && &self.src[a..b] != b"[]" {
            let tok = self.tok;
            return tok.value_into(
                a,
                b,
                self.slot(obj, &key.name, key.print, key.at, key.quoted)?,
            );
        }
        self.reserve(obj, &key)?;
        let v = if a == b {
            self.check_depth(object_level + 1, key.at)?;
            let mut child = self.stack.open(object_level + 1);
            if let Some(next) = self.lines.peek()?
                && next.depth > field_depth
            {
                let child_depth = self.content_depth(field_depth)?;
                self.fields(child_depth, object_level + 1, &mut child)?;
            }
            Value::Object(self.finish(child, object_level + 1)?)
        } else {
            self.check_depth(object_level + 1, a)?;
            Value::Array(Vec::new())
        };
        self.put(obj, key, v);
        Ok(())
    }

    /// In strict mode, the key must be new to the object (§14.3).
    #[inline]
    pub(super) fn reserve(&self, obj: &Obj, key: &Key) -> R<()> {
        if self.strict && self.stack.find(obj, &key.name, key.print).is_some() {
            return Err(duplicate(&key.name, key.at));
        }
        Ok(())
    }

    /// The slot for a field's value, to be filled by the caller: a new entry,
    /// or in lenient mode the existing entry of a duplicate key.
    #[inline]
    fn slot<'o>(
        &mut self,
        obj: &'o mut Obj,
        name: &str,
        print: u64,
        at: usize,
        quoted: bool,
    ) -> R<&'o mut Value> {
        let meta = KeyMeta { quoted, at };
        match self.stack.find(obj, name, print) {
            None => Ok(self.stack.push_slot(obj, name, print, meta)),
            Some(_) if self.strict => Err(duplicate(name, at)),
            Some(i) => Ok(self.stack.slot_at(obj, i, meta)),
        }
    }

    /// Adds a field: strict mode has checked the key with [`Parser::reserve`];
    /// lenient mode lets the last write win.
    #[inline]
    pub(super) fn put(&mut self, obj: &mut Obj, key: Key, v: Value) {
        let meta = KeyMeta {
            quoted: key.quoted,
            at: key.at,
        };
        if !self.strict
            && let Some(i) = self.stack.find(obj, &key.name, key.print)
        {
            self.stack.set(obj, i, v, meta);
            return;
        }
        self.stack.push(obj, key.name, key.print, v, meta);
    }

    /// The object's entries as a map, its dotted keys expanded when path
    /// expansion is on; `level` is the object's nesting level.
    pub(super) fn finish(&mut self, obj: Obj, level: usize) -> R<Map> {
        match self.stack.close(obj) {
            (entries, Some(meta)) => {
                expand::expand_object(entries, meta, level, self.max_depth, self.strict)
            }
            (entries, None) => Ok(Map::from_unique_entries(entries)),
        }
    }
}

#[cold]
fn duplicate(name: &str, at: usize) -> Fault {
    Fault::new(
        ErrorKind::DuplicateKey,
        at,
        format!(
            "expected distinct keys in an object, found {} again",
            show(name)
        ),
    )
}
