//! TOON written straight from an [`input`](crate::input) tape, without
//! building a [`pith::Value`] tree.
//!
//! Building the tree costs more than writing the TOON: a 50,000-row table
//! is half a million small allocations, made and freed for one text. For
//! the layouts whose rules are simple (objects of fields, arrays of
//! primitives written inline, and tables whose cells are primitives and
//! whose rows share the first row's keys in its order) this writer lays
//! the text out as [`pith::toon::encode`] does, with the library's own
//! quoting ([`Tokens`]) and numbers ([`write_f64`], [`Number::write_to`]).
//!
//! Anything else gives up ([`write`] returns `None`) and the caller takes
//! the library's path: list items, keyed tables and nested field groups,
//! rows in another key order, objects whose keys could make them look like
//! one of pith's own table encodings (which `format: "toon"` wraps), a
//! string root that starts with a byte order mark or is the notation's
//! marker `%pith` (which pith's TOON forms quote), deep nesting, and any
//! tape the reader would refuse (the library's path then says why). So
//! what this writer gives is always what the library would have written,
//! and the tests compare the two on every dataset and on values made to
//! sit at each rule's edge.

use crate::input::{Cursor, SHAPE, STRING};
use crate::number::write_f64;
use crate::op::{ARRAY, FALSE, NULL, NUMBER, OBJECT, TRUE};
use crate::options::Plan;
use pith::Number;
use pith::select::Form;
use pith::select::WRAPPER_TAG;
use pith::table::hoisted::ENCODING_SUFFIX;
use pith::toon::{Delimiter, KeyFolding, Spec, Tokens};
use std::io::Write;

/// Nesting beyond this is left to the library, which knows its limit.
const MAX_DEPTH: usize = 64;

/// Shapes with more keys than this are left to the library (the tape
/// reader checks them for repeated keys).
const MAX_KEYS: usize = 64;

/// The layout of one document.
#[derive(Clone, Copy)]
pub struct Layout {
    /// Spaces per level.
    pub indent: usize,
    /// Between cells and inline items.
    pub delimiter: Delimiter,
}

/// The layout `plan` writes when it is `format="toon"` (spec 4.x, no key
/// folding) without a budget: the one case this writer is for.
pub fn layout(plan: &Plan) -> Option<Layout> {
    let toon = &plan.select.toon;
    (plan.fit.is_none()
        && plan.select.form == Form::Toon
        && toon.spec == Spec::V4
        && toon.key_folding == KeyFolding::Off)
        .then_some(Layout {
            indent: toon.indent,
            delimiter: toon.delimiter,
        })
}

/// The TOON text of the tape `ops`, `nums`, `strs`, or `None` when the
/// library must write it.
pub fn write(ops: &[u32], nums: &[f64], strs: &str, layout: Layout) -> Option<String> {
    let mut w = Writer {
        c: Cursor::new(ops, nums, strs),
        shapes: Vec::new(),
        tokens: Tokens::new(layout.delimiter),
        delimiter: match layout.delimiter {
            Delimiter::Comma => b',',
            Delimiter::Tab => b'\t',
            Delimiter::Pipe => b'|',
        },
        indent: layout.indent,
        started: false,
        out: Vec::with_capacity(strs.len() + nums.len() * 8 + ops.len()),
    };
    w.root()?;
    if !w.c.done() {
        return None;
    }
    String::from_utf8(w.out).ok()
}

/// An object's keys, as the tape defined them.
struct Shape<'a> {
    keys: Vec<&'a str>,
    /// Whether an object of these keys could be one `format: "toon"`
    /// wraps: a columnar table's `cols`, a hoisted pair's `…_encoding`, the
    /// wrapper's tag.
    look_alike: bool,
}

/// The head of a value: its tag and payload, shape definitions read.
#[derive(Clone, Copy)]
struct Head {
    tag: u32,
    payload: usize,
}

/// Where an array is written, which decides how its first line starts.
#[derive(Clone, Copy)]
enum Place<'a> {
    /// The root: `[N]…`.
    Root,
    /// An object's field: `key[N]…`.
    Field(&'a str),
    /// The first field of an object in a list: `- key[N]…`.
    First(&'a str),
    /// An item of a list: `- [N]…`.
    Item,
}

/// A place in the tape and the text, to come back to.
#[derive(Clone)]
struct Mark<'a> {
    c: Cursor<'a>,
    out: usize,
    started: bool,
    shapes: usize,
}

struct Writer<'a> {
    c: Cursor<'a>,
    shapes: Vec<Shape<'a>>,
    tokens: Tokens,
    delimiter: u8,
    indent: usize,
    started: bool,
    out: Vec<u8>,
}

impl<'a> Writer<'a> {
    fn next(&mut self) -> Option<(u32, usize)> {
        self.c.operation().ok()
    }

    /// The next value's head, after the shapes defined before it.
    fn head(&mut self) -> Option<Head> {
        loop {
            let (tag, payload) = self.next()?;
            if tag != SHAPE {
                return Some(Head { tag, payload });
            }
            if payload > MAX_KEYS {
                return None;
            }
            let mut keys = Vec::with_capacity(payload);
            for _ in 0..payload {
                let (tag, len) = self.next()?;
                if tag != STRING {
                    return None;
                }
                let k = self.string(len)?;
                if keys.contains(&k) {
                    return None;
                }
                keys.push(k);
            }
            let look_alike = keys
                .iter()
                .any(|k| *k == "cols" || *k == WRAPPER_TAG || k.ends_with(ENCODING_SUFFIX));
            self.shapes.push(Shape { keys, look_alike });
        }
    }

    fn string(&mut self, units: usize) -> Option<&'a str> {
        self.c.string(units).ok()
    }

    /// The keys of shape `id`, when objects of it are for this writer.
    fn keys(&self, id: usize) -> Option<&[&'a str]> {
        let shape = self.shapes.get(id)?;
        (!shape.look_alike).then_some(shape.keys.as_slice())
    }

    /// Where the tape and the text are now, to come back to.
    fn mark(&self) -> Mark<'a> {
        Mark {
            c: self.c.clone(),
            out: self.out.len(),
            started: self.started,
            shapes: self.shapes.len(),
        }
    }

    /// Goes back to `m`: what was read after it is read again.
    fn back(&mut self, m: Mark<'a>) {
        self.c = m.c;
        self.out.truncate(m.out);
        self.started = m.started;
        self.shapes.truncate(m.shapes);
    }

    fn root(&mut self) -> Option<()> {
        let h = self.head()?;
        match h.tag {
            OBJECT => {
                let n = self.keys(h.payload)?.len();
                let all_objects = self.fields(h.payload, 0, 0)?;
                // An object of two or more objects may be a keyed table.
                (n < 2 || !all_objects).then_some(())
            }
            ARRAY => self.array(Place::Root, h.payload, 0),
            _ => {
                self.line(0);
                if h.tag == STRING {
                    let s = self.string(h.payload)?;
                    // The library quotes a leading byte order mark, and the
                    // notation's marker line (`select`'s TOON forms).
                    if s.starts_with('\u{feff}') || s == pith::notation::MARKER {
                        return None;
                    }
                    self.tokens.string(&mut self.out, s);
                    Some(())
                } else {
                    self.primitive(h)
                }
            }
        }
    }

    /// The fields of an object of shape `id` from the `from`th, at
    /// indentation `depth`; says whether every one was a non-empty object.
    fn fields(&mut self, id: usize, from: usize, depth: usize) -> Option<bool> {
        if depth > MAX_DEPTH {
            return None;
        }
        let n = self.keys(id)?.len();
        let mut all_objects = true;
        for j in from..n {
            let k = self.shapes[id].keys[j];
            let h = self.head()?;
            match h.tag {
                ARRAY => {
                    all_objects = false;
                    self.array(Place::Field(k), h.payload, depth)?;
                }
                OBJECT => {
                    let inner = self.keys(h.payload)?.len();
                    all_objects &= inner > 0;
                    self.line(depth);
                    self.tokens.key(&mut self.out, k);
                    self.out.push(b':');
                    self.nested(h.payload, inner, depth + 1)?;
                }
                _ => {
                    all_objects = false;
                    self.line(depth);
                    self.tokens.key(&mut self.out, k);
                    self.out.extend_from_slice(b": ");
                    self.primitive(h)?;
                }
            }
        }
        Some(all_objects)
    }

    /// The fields of a nested object of shape `id` with `n` keys, at
    /// `depth`, its key already written; an object of two or more objects
    /// may be a keyed table, which is left to the library.
    fn nested(&mut self, id: usize, n: usize, depth: usize) -> Option<()> {
        let all_objects = self.fields(id, 0, depth)?;
        (n < 2 || !all_objects).then_some(())
    }

    /// An array of `n` items at `place`, its first line at indentation
    /// `depth`: inline when every item is a primitive, a table when every
    /// item is a row of the first one's keys, else a list of items.
    fn array(&mut self, place: Place<'a>, n: usize, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.line(depth);
        match place {
            Place::Root => {}
            Place::Field(k) => self.tokens.key(&mut self.out, k),
            Place::First(k) => {
                self.out.extend_from_slice(b"- ");
                self.tokens.key(&mut self.out, k);
            }
            Place::Item => self.out.extend_from_slice(b"- "),
        }
        if n == 0 {
            match place {
                Place::Root => self.out.extend_from_slice(b"[]"),
                Place::Field(_) | Place::First(_) => self.out.extend_from_slice(b": []"),
                // An empty array in a list is an inline one.
                Place::Item => {
                    self.count(0);
                    self.out.extend_from_slice(b"]:");
                }
            }
            return Some(());
        }
        // Items and rows go one level below the line, or two below a hyphen
        // line's first field.
        let inner = depth
            + if matches!(place, Place::First(_)) {
                2
            } else {
                1
            };
        let start = self.mark();
        let first = self.head()?;
        let written = match first.tag {
            ARRAY => false,
            // Arrays in a list are never tables.
            OBJECT if matches!(place, Place::Item) => false,
            OBJECT => {
                self.back(start.clone());
                self.table(n, inner)?
            }
            _ => self.inline(first, n),
        };
        if !written {
            self.back(start);
            self.count(n);
            self.out.extend_from_slice(b"]:");
            for _ in 0..n {
                self.item(inner)?;
            }
        }
        Some(())
    }

    /// `[N]: a,b,c` for `n` items, the first one's head `first` read; says
    /// whether every item was a primitive.
    fn inline(&mut self, first: Head, n: usize) -> bool {
        self.count(n);
        self.out.extend_from_slice(b"]: ");
        if self.primitive(first).is_none() {
            return false;
        }
        for _ in 1..n {
            match self.head() {
                Some(h) if !matches!(h.tag, ARRAY | OBJECT) => {
                    self.out.push(self.delimiter);
                    if self.primitive(h).is_none() {
                        return false;
                    }
                }
                _ => return false,
            }
        }
        true
    }

    /// One list item at indentation `depth`.
    fn item(&mut self, depth: usize) -> Option<()> {
        let h = self.head()?;
        match h.tag {
            ARRAY => self.array(Place::Item, h.payload, depth),
            OBJECT => self.object_item(h.payload, depth),
            _ => {
                self.line(depth);
                self.out.extend_from_slice(b"- ");
                self.primitive(h)
            }
        }
    }

    /// An object of shape `id` as a list item: its first field on the
    /// hyphen line, the others one level deeper.
    fn object_item(&mut self, id: usize, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let Some(&k) = self.keys(id)?.first() else {
            self.line(depth);
            self.out.push(b'-');
            return Some(());
        };
        let h = self.head()?;
        match h.tag {
            ARRAY => self.array(Place::First(k), h.payload, depth)?,
            OBJECT => {
                let inner = self.keys(h.payload)?.len();
                self.line(depth);
                self.out.extend_from_slice(b"- ");
                self.tokens.key(&mut self.out, k);
                self.out.push(b':');
                self.nested(h.payload, inner, depth + 2)?;
            }
            _ => {
                self.line(depth);
                self.out.extend_from_slice(b"- ");
                self.tokens.key(&mut self.out, k);
                self.out.extend_from_slice(b": ");
                self.primitive(h)?;
            }
        }
        self.fields(id, 1, depth + 1).map(|_| ())
    }

    /// `[N` and the delimiter when it is not a comma.
    fn count(&mut self, n: usize) {
        self.out.push(b'[');
        // Writing to a vector cannot fail.
        let _ = write!(self.out, "{n}");
        if self.delimiter != b',' {
            self.out.push(self.delimiter);
        }
    }

    /// `n` rows as a table, its header on the line begun and its rows at
    /// `depth`, when the first row's cells are all primitives and every
    /// row has its keys in its order; `Some(false)` (nothing written, the
    /// tape where it was) when they are not rows of a table. A first row
    /// with objects among its cells could head nested field groups, which
    /// are left to the library.
    fn table(&mut self, n: usize, depth: usize) -> Option<bool> {
        let start = self.mark();
        let h = self.head()?;
        let id = h.payload;
        let width = self.keys(id)?.len();
        if width == 0 {
            return Some(false);
        }
        // The first row's cells: an array or an empty object anywhere makes
        // it no table; any other object may make it one with groups.
        let mut groups = false;
        for _ in 0..width {
            let cell = self.head()?;
            match cell.tag {
                ARRAY => return self.no_table(start),
                OBJECT => {
                    let inner = self.keys(cell.payload)?.len();
                    if inner == 0 {
                        return self.no_table(start);
                    }
                    groups = true;
                    for _ in 0..inner {
                        self.skip(1)?;
                    }
                }
                _ => self.primitive(cell)?,
            }
        }
        if groups {
            return None;
        }
        let keys = self.shapes[id].keys.clone();
        self.back(start.clone());
        self.count(n);
        self.out.extend_from_slice(b"]{");
        for (j, k) in keys.iter().enumerate() {
            if j > 0 {
                self.out.push(self.delimiter);
            }
            self.tokens.key(&mut self.out, k);
        }
        self.out.extend_from_slice(b"}:");
        for _ in 0..n {
            let h = self.head()?;
            if h.tag != OBJECT {
                return self.no_table(start);
            }
            if h.payload != id {
                // The first row's keys in another order still make a row,
                // its cells taken by name: left to the library.
                let other = self.keys(h.payload)?;
                if other.len() == keys.len() && other.iter().all(|k| keys.contains(k)) {
                    return None;
                }
                return self.no_table(start);
            }
            self.line(depth);
            for j in 0..width {
                let h = self.head()?;
                if matches!(h.tag, ARRAY | OBJECT) {
                    return self.no_table(start);
                }
                if j > 0 {
                    self.out.push(self.delimiter);
                }
                self.primitive(h)?;
            }
        }
        Some(true)
    }

    /// Goes back to `start`, where rows turned out not to be a table.
    fn no_table(&mut self, start: Mark<'a>) -> Option<bool> {
        self.back(start);
        Some(false)
    }

    /// Reads past one value, `depth` levels in (what it writes is taken
    /// back by the caller's [`Writer::back`]).
    fn skip(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let h = self.head()?;
        match h.tag {
            ARRAY => (0..h.payload).try_for_each(|_| self.skip(depth + 1)),
            OBJECT => {
                let n = self.keys(h.payload)?.len();
                (0..n).try_for_each(|_| self.skip(depth + 1))
            }
            _ => self.primitive(h),
        }
    }

    /// A primitive whose head `h` is read.
    fn primitive(&mut self, h: Head) -> Option<()> {
        match h.tag {
            NULL => self.out.extend_from_slice(b"null"),
            FALSE => self.out.extend_from_slice(b"false"),
            TRUE => self.out.extend_from_slice(b"true"),
            NUMBER if h.payload == 0 => {
                let f = self.c.double().ok()?;
                if !write_f64(f, &mut self.out) {
                    return None;
                }
            }
            NUMBER => {
                let (tag, len) = self.next()?;
                if tag != STRING {
                    return None;
                }
                let text = self.string(len)?;
                Number::parse(text).ok()?.write_to(&mut self.out);
            }
            STRING => {
                let s = self.string(h.payload)?;
                self.tokens.string(&mut self.out, s);
            }
            _ => return None,
        }
        Some(())
    }

    /// Starts a line at indentation `depth`.
    fn line(&mut self, depth: usize) {
        if self.started {
            self.out.push(b'\n');
        }
        self.started = true;
        let end = self.out.len() + depth * self.indent;
        self.out.resize(end, b' ');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::from_f64;
    use crate::op::ESCAPE;
    use pith::Value;
    use pith::select::{self, Form};
    use pith::toon::EncodeOptions;

    /// The tape `index.js` writes for `v`: numbers that a double holds
    /// exactly as doubles, others spelled.
    #[derive(Default)]
    struct Tape {
        ops: Vec<u32>,
        nums: Vec<f64>,
        strs: String,
        shapes: Vec<Vec<String>>,
    }

    impl Tape {
        fn of(v: &Value) -> Tape {
            let mut t = Tape::default();
            t.value(v);
            t
        }

        fn sized(&mut self, tag: u32, n: usize) {
            if n < ESCAPE as usize {
                self.ops.push(tag | (n as u32) << 3);
            } else {
                self.ops.push(tag | ESCAPE << 3);
                self.ops.push(n as u32);
            }
        }

        fn string(&mut self, s: &str) {
            self.strs.push_str(s);
            self.sized(STRING, s.encode_utf16().count());
        }

        fn value(&mut self, v: &Value) {
            match v {
                Value::Null => self.sized(NULL, 0),
                Value::Bool(b) => self.sized(if *b { TRUE } else { FALSE }, 0),
                Value::Number(n) => match v.as_f64().filter(|f| from_f64(*f).as_ref() == Some(n)) {
                    Some(f) => {
                        self.sized(NUMBER, 0);
                        self.nums.push(f);
                    }
                    None => {
                        self.sized(NUMBER, 1);
                        self.string(&n.to_string());
                    }
                },
                Value::String(s) => self.string(s),
                Value::Array(a) => {
                    self.sized(ARRAY, a.len());
                    a.iter().for_each(|x| self.value(x));
                }
                Value::Object(m) => {
                    let keys: Vec<String> = m.keys().map(|k| k.to_string()).collect();
                    let id = match self.shapes.iter().position(|s| *s == keys) {
                        Some(id) => id,
                        None => {
                            self.sized(SHAPE, keys.len());
                            keys.iter().for_each(|k| self.string(k));
                            self.shapes.push(keys);
                            self.shapes.len() - 1
                        }
                    };
                    self.sized(OBJECT, id);
                    m.values().for_each(|x| self.value(x));
                }
            }
        }
    }

    /// What the library writes for the value the tape stands for.
    fn library(t: &Tape, layout: Layout) -> String {
        let v = crate::input::read(&t.ops, &t.nums, &t.strs).unwrap();
        let opts = select::Options::default().form(Form::Toon).toon(
            EncodeOptions::default()
                .indent(layout.indent)
                .delimiter(layout.delimiter),
        );
        select::encode(&v, &opts).unwrap().text
    }

    const LAYOUTS: [Layout; 3] = [
        Layout {
            indent: 2,
            delimiter: Delimiter::Comma,
        },
        Layout {
            indent: 4,
            delimiter: Delimiter::Tab,
        },
        Layout {
            indent: 1,
            delimiter: Delimiter::Pipe,
        },
    ];

    /// Checks that the writer gives the library's text when it writes, and
    /// that it writes exactly when `direct` says it should.
    fn check(json: &str, direct: bool) {
        let t = Tape::of(&pith::json::parse(json).unwrap());
        for layout in LAYOUTS {
            let mine = write(&t.ops, &t.nums, &t.strs, layout);
            assert_eq!(mine.is_some(), direct, "{json}");
            if let Some(mine) = mine {
                assert_eq!(mine, library(&t, layout), "{json}");
            }
        }
    }

    #[test]
    fn writes_what_the_library_writes_for_simple_layouts() {
        for json in [
            r#"{"rows":[{"id":1,"name":"a b","price":9.5,"ok":true,"at":"2025-01-01T00:00:00Z","x":null}]}"#,
            r#"{"rows":[{"a":1,"b":"x,y"},{"a":-2.25,"b":"x|y"},{"a":1e300,"b":"x\ty"}]}"#,
            r#"[{"a":"","b":"true"},{"a":"05","b":"-"},{"a":" pad ","b":"é😀"}]"#,
            r#"{"a":[],"b":[1,"two",null,false],"c":{},"d":{"e":{"f":"g"},"h":1}}"#,
            r#"{"only":{"x":1,"y":2},"n":3}"#,
            r#"{"k y":1,"":2,"1a":3,"a.b":[{"c d":1}],"q\"":"line\nbreak"}"#,
            r#"{"big":123456789012345678901234567890,"small":1.000000000000000000001,"e":-0}"#,
            r#"[]"#,
            r#"[1,2,3]"#,
            r#""plain""#,
            r#""needs: quotes""#,
            r#"-12.5"#,
            r#"{}"#,
            r#"{"cols_x":1,"encoding":2,"value":3}"#,
            // Lists: mixed items, nested arrays, rows of other keys, objects
            // whose first field is an array or an object, empty items.
            r#"{"a":[1,{"b":2}],"b":[[1],[2,[3,{}]],[]],"c":[{}],"d":[1,[]]}"#,
            r#"{"a":[{"x":1},{"y":1}],"b":[{"x":[1]},{"x":[2]}],"c":[{"x":1},5]}"#,
            r#"[{"t":[1,2],"u":1},{"t":[],"u":{"v":1}},{"t":[{"a":1},{"a":2}]}]"#,
            r#"[{"t":[{"a":1},{"b":2}]},{"t":{"k":1,"m":[1]}},{"t":{}},["x",{"y":[]}]]"#,
            r#"{"items":[{"id":1,"owner":{"id":2,"login":"x"},"tags":["a","b"]},{"id":2,"owner":{"id":3,"login":"y"},"tags":[]}]}"#,
            r#"[[{"a":1},{"a":2}],[[{"a":1}]]]"#,
            r#"[{"x":1,"y":2},{"z":3},{"y":2,"x":1}]"#,
            r#"{"x":[{"a":{},"b":1}],"y":[{"a":1,"b":[]},{"a":2,"b":[]}]}"#,
        ] {
            check(json, true);
        }
    }

    #[test]
    fn leaves_every_other_layout_to_the_library() {
        for json in [
            // Rows of the first row's keys in another order.
            r#"{"a":[{"x":1,"y":2},{"y":2,"x":1}]}"#,
            r#"[{"x":1,"y":2},{"y":2,"x":1},{"z":3}]"#,
            // Nested field groups and keyed tables.
            r#"{"a":[{"x":{"y":1}},{"x":{"y":2}}]}"#,
            r#"{"p":{"x":1},"q":{"x":2}}"#,
            r#"{"top":{"p":{"x":1},"q":{"x":2}}}"#,
            // Look-alikes of pith's own encodings, which the library wraps.
            r#"{"cols":[],"dict":[],"rows":[]}"#,
            r#"{"a":[],"a_encoding":{"json_columns":[]}}"#,
            r#"{"$pith":"toon","value":1}"#,
            // A leading byte order mark.
            "\"\u{feff}x\"",
            // The notation's marker line, which the library quotes.
            "\"%pith\"",
        ] {
            check(json, false);
        }
        let deep = format!("{}1{}", r#"{"a":"#.repeat(100), "}".repeat(100));
        check(&deep, false);
    }

    #[test]
    fn refuses_tapes_the_reader_refuses() {
        let t = Tape::of(&pith::json::parse(r#"{"a":"xy"}"#).unwrap());
        let layout = LAYOUTS[0];
        assert!(write(&t.ops, &t.nums, "ax", layout).is_none());
        assert!(write(&t.ops, &t.nums, "axyz", layout).is_none());
        assert!(write(&t.ops[..3], &t.nums, &t.strs, layout).is_none());
        // "\uD83D" and "\uDE00" as two strings of one unit each.
        let split = [ARRAY | 2 << 3, STRING | 1 << 3, STRING | 1 << 3];
        assert!(write(&split, &[], "😀", layout).is_none());
    }

    #[test]
    fn writes_what_the_library_writes_for_every_dataset() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets");
        let Ok(dirs) = std::fs::read_dir(&root) else {
            panic!("{} is missing", root.display());
        };
        let mut direct = 0;
        for dir in dirs.flatten().filter(|d| d.path().is_dir()) {
            for file in std::fs::read_dir(dir.path()).unwrap().flatten() {
                let path = file.path();
                if path.extension().is_none_or(|e| e != "json") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let t = Tape::of(&pith::json::parse(&text).unwrap());
                for layout in LAYOUTS {
                    if let Some(mine) = write(&t.ops, &t.nums, &t.strs, layout) {
                        assert_eq!(mine, library(&t, layout), "{}", path.display());
                        direct += 1;
                    }
                }
            }
        }
        // gen-flat-50k, gen-nested-10k and more, in each layout.
        assert!(direct >= 30, "only {direct} texts were written directly");
    }
}
