//! TOON text read into a flat list of events, without building a value.
//!
//! A package that builds its language's objects from a decoded document
//! pays twice when it goes through [`pith::Value`]: once for the tree (a
//! 50,000-row table is half a million small allocations, and as many
//! frees) and once for its own objects. [`read`] reads the text into
//! [`Events`] instead: one flat vector in document order, whose strings are
//! byte ranges of the text (or of one buffer for the few with escapes),
//! whose numbers are already machine integers or doubles, and whose object
//! keys are numbered once per distinct key, so that a package makes each
//! key's string once and each table row's keys not at all.
//!
//! It reads the documents pith and the TOON reference encoder write,
//! exactly as the library's reader in strict mode reads them: objects,
//! inline arrays, lists, list items that are objects or arrays, tables
//! and keyed tables (nested field groups too), quoted keys and strings,
//! comment lines. On anything else it returns `None` and the caller reads
//! the text with the library, which gives the same value or the
//! positioned error: a document the library refuses (even leniently: a
//! `None` never says why), a root that is a single value or `[]` (which
//! JSON reads too), tabs in the indentation, nesting beyond the depth
//! limit, keys that [`pith::select::decode`] would restore (a wrapper's
//! `$pith`, a columnar table's `cols`, a hoisted table's `…_encoding`),
//! text that is JSON or the notation, options other than spec 4, or more
//! than 4 GiB of text.
//!
//! A document the strict reader accepts reads the same leniently, so
//! [`read`] serves both modes. Tests compare its events, as a value, with
//! the library's on the spec's fixtures, every dataset file in every form
//! and mutated texts.

mod header;
mod token;

use self::token::KeyHasher;
use pith::toon::scan::{Class, find_unquoted, line_end, scan_unquoted, trim};
use pith::toon::{DecodeOptions, Spec};
use pith::{Map, Number, Value};
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

/// One event of a document, in document order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A whole number within `i64` (TOON writes `1.0` as `1`: a whole
    /// number is an integer, however it is written).
    Int(i64),
    /// Any other number whose text has at most 18 digits and no exponent,
    /// as the double nearest it.
    Float(f64),
    /// A number kept exactly: the index of [`Events::number`]. Numbers with
    /// an exponent or more than 18 digits, and, when [`read`] is asked to
    /// keep them, every number that is not an `Int`.
    Exact(u32),
    /// A string: `len` bytes of the text from `start`.
    Text {
        /// Offset in the text.
        start: u32,
        /// Length in bytes.
        len: u32,
    },
    /// A string with escapes, unescaped: `len` bytes of the buffer of
    /// unescaped strings from `start` (see [`Events::str`]).
    Unescaped {
        /// Offset in the buffer.
        start: u32,
        /// Length in bytes.
        len: u32,
    },
    /// An array; its `n` values follow.
    Array(u32),
    /// An object; its `n` members follow, each a [`Event::Key`] and a value.
    Object(u32),
    /// A member's key: the index of [`Events::key`].
    Key(u32),
    /// An object with the fields of table header `h` ([`Events::fields`]),
    /// in their order, a group's fields in an object of their own; one
    /// value per leaf field follows, in the same order.
    Row(u32),
}

/// One field of a table header, in header order, each group before its
/// own fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// A field that takes a cell: the number of its key.
    Leaf(u32),
    /// A nested field group: an object of the `fields` fields that follow
    /// (each with its own, if a group).
    Group {
        /// The number of its key.
        key: u32,
        /// How many fields it has.
        fields: u32,
    },
}

/// A document read by [`read`].
#[derive(Debug)]
pub struct Events<'a> {
    text: &'a str,
    events: Vec<Event>,
    /// The distinct keys, one after another, and where each ends.
    key_text: String,
    key_ends: Vec<u32>,
    /// Unescaped strings, one after another.
    unescaped: String,
    numbers: Vec<Number>,
    /// The fields of every table header, one after another, and where
    /// each header ends.
    fields: Vec<Field>,
    field_ends: Vec<u32>,
}

impl<'a> Events<'a> {
    /// The events, in document order: the root value's first.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// How many distinct keys the document has.
    pub fn key_count(&self) -> usize {
        self.key_ends.len()
    }

    /// The key numbered `id`.
    pub fn key(&self, id: u32) -> &str {
        let id = id as usize;
        let start = if id == 0 {
            0
        } else {
            self.key_ends[id - 1] as usize
        };
        &self.key_text[start..self.key_ends[id] as usize]
    }

    /// How many table headers the document has.
    pub fn header_count(&self) -> usize {
        self.field_ends.len()
    }

    /// The fields of header `h`, in order.
    pub fn fields(&self, h: u32) -> &[Field] {
        let h = h as usize;
        let start = if h == 0 {
            0
        } else {
            self.field_ends[h - 1] as usize
        };
        &self.fields[start..self.field_ends[h] as usize]
    }

    /// The number of an [`Event::Exact`].
    pub fn number(&self, i: u32) -> &Number {
        &self.numbers[i as usize]
    }

    /// The string of an [`Event::Text`] or [`Event::Unescaped`].
    pub fn str(&self, event: Event) -> Option<&str> {
        let (from, start, len) = match event {
            Event::Text { start, len } => (self.text, start, len),
            Event::Unescaped { start, len } => (self.unescaped.as_str(), start, len),
            _ => return None,
        };
        from.get(start as usize..(start + len) as usize)
    }

    /// The value the events stand for: what [`crate::decode::decode`] gives
    /// for the same text.
    pub fn to_value(&self) -> Value {
        let mut at = 0;
        self.value_at(&mut at)
    }

    fn value_at(&self, at: &mut usize) -> Value {
        let Some(&event) = self.events.get(*at) else {
            return Value::Null;
        };
        *at += 1;
        match event {
            Event::Null | Event::Key(_) => Value::Null,
            Event::Bool(b) => Value::Bool(b),
            Event::Int(v) => Value::from(v),
            Event::Float(f) => crate::number::from_f64(f).map_or(Value::Null, Value::Number),
            Event::Exact(i) => Value::Number(self.number(i).clone()),
            Event::Text { .. } | Event::Unescaped { .. } => {
                Value::String(self.str(event).unwrap_or_default().to_owned())
            }
            Event::Array(n) => Value::Array((0..n).map(|_| self.value_at(at)).collect()),
            Event::Object(n) => {
                let mut map = Map::with_capacity(n as usize);
                for _ in 0..n {
                    let key = match self.events.get(*at) {
                        Some(Event::Key(id)) => self.key(*id),
                        _ => "",
                    };
                    *at += 1;
                    map.insert(key, self.value_at(at));
                }
                Value::Object(map)
            }
            Event::Row(h) => {
                let fields = self.fields(h);
                let mut next = 0;
                self.group(fields, &mut next, fields.len(), at)
            }
        }
    }

    /// The object of the `n` fields from `fields[*next]`, taking cells
    /// from the events at `at`.
    fn group(&self, fields: &[Field], next: &mut usize, n: usize, at: &mut usize) -> Value {
        let mut map = Map::new();
        let mut taken = 0;
        while taken < n && *next < fields.len() {
            let field = fields[*next];
            *next += 1;
            taken += 1;
            match field {
                Field::Leaf(key) => {
                    map.insert(self.key(key), self.value_at(at));
                }
                Field::Group { key, fields: count } => {
                    let v = self.group(fields, next, count as usize, at);
                    map.insert(self.key(key), v);
                }
            }
        }
        Value::Object(map)
    }

    /// How many fields after `fields[j]` are its own, at any depth.
    fn nested_len(&self, j: usize) -> usize {
        match self.fields[j] {
            Field::Leaf(_) => 0,
            Field::Group { fields, .. } => {
                let mut k = j + 1;
                for _ in 0..fields {
                    k += 1 + self.nested_len(k);
                }
                k - j - 1
            }
        }
    }
}

/// Reads `bytes` (UTF-8 TOON) into events, or `None` when the text is not
/// one of the documents described in the module docs, for the library to
/// read. With `exact`, every number that is not an [`Event::Int`] is kept
/// exactly ([`Event::Exact`]), for callers that hand numbers' text on.
pub fn read<'a>(bytes: &'a [u8], opts: &DecodeOptions, exact: bool) -> Option<Events<'a>> {
    if opts.spec != Spec::V4 || opts.indent == 0 || u32::try_from(bytes.len()).is_err() {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    // One byte-order mark, as the library removes it (a second is content).
    let body = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let offset = text.len() - body.len();
    // What `select` reads as JSON or as the notation.
    let first = body
        .bytes()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
    if first == Some(b'{') || body.starts_with(pith::notation::MARKER) {
        return None;
    }
    let mut r = Reader {
        src: text.as_bytes(),
        pos: offset,
        next: None,
        peeked: false,
        indent: opts.indent,
        max_depth: pith::depth_limit(opts.max_depth),
        spans: 0,
        exact,
        bracket_first: first == Some(b'['),
        out: Events {
            text,
            events: Vec::with_capacity(text.len() / 8),
            key_text: String::new(),
            key_ends: Vec::new(),
            unescaped: String::new(),
            numbers: Vec::new(),
            fields: Vec::new(),
            field_ends: Vec::new(),
        },
        index: HashMap::default(),
        recent: Vec::new(),
        members: Vec::new(),
        scratch: Vec::new(),
        digits: Vec::new(),
    };
    r.document().ok()?;
    Some(r.out)
}

/// The text is not for this reader: the library reads it.
struct Bail;

type R<T> = Result<T, Bail>;

/// A content line: its content `[start, end)` (indentation, trailing
/// spaces and a final CR excluded), its depth, and whether blank lines
/// came before it.
#[derive(Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    depth: usize,
    blank: bool,
}

/// A key as written: a range of the text, or unescaped bytes.
enum KeyText {
    Src(usize, usize),
    Own(Vec<u8>),
}

/// A parsed header line.
struct Header {
    key: Option<KeyText>,
    length: usize,
    delim: u8,
    keyed: bool,
    /// The field list.
    fields: Option<Plan>,
    /// Values after the colon, trimmed.
    inline: Option<(usize, usize)>,
}

/// A header's field list.
#[derive(Clone, Copy)]
struct Plan {
    /// Its number.
    header: u32,
    /// Cells per row.
    leaves: usize,
    /// How many levels its nested groups add below a row.
    group_depth: usize,
}

/// An open object: where its count goes and where its keys start.
struct Obj {
    event: usize,
    members: usize,
    /// Its keys, once it has more than [`SMALL`]: duplicates are found by
    /// looking them up rather than by a scan.
    big: Option<HashSet<u32, BuildHasherDefault<KeyHasher>>>,
}

/// Objects up to this many keys find duplicates by a scan.
const SMALL: usize = 16;

struct Reader<'a> {
    src: &'a [u8],
    /// The next raw line not yet scanned.
    pos: usize,
    next: Option<Line>,
    peeked: bool,
    indent: usize,
    max_depth: usize,
    /// Arrays whose first item has been read and which are not finished:
    /// a blank line before a line then is an error.
    spans: usize,
    exact: bool,
    /// The text's first non-blank byte is `[`: only a root header may
    /// start it (otherwise the text is read as JSON).
    bracket_first: bool,
    out: Events<'a>,
    index: HashMap<Box<[u8]>, u32, BuildHasherDefault<KeyHasher>>,
    /// The key last met at each position of an object at each depth: the
    /// items of a list repeat their keys in order, so most keys are found
    /// here by one comparison.
    recent: Vec<Vec<u32>>,
    /// The keys of the open objects, innermost last.
    members: Vec<u32>,
    /// Scratch for an unescaped key.
    scratch: Vec<u8>,
    /// Scratch for a number's digits.
    digits: Vec<u8>,
}

impl Reader<'_> {
    // ---- lines -------------------------------------------------------

    #[inline]
    fn peek(&mut self) -> R<Option<Line>> {
        if !self.peeked {
            self.next = self.scan()?;
            self.peeked = true;
        }
        Ok(self.next)
    }

    /// Takes the peeked line; a blank line before it inside an array is
    /// an error.
    #[inline]
    fn consume(&mut self, line: Line) -> R<()> {
        self.peeked = false;
        if self.spans > 0 && line.blank {
            return Err(Bail);
        }
        Ok(())
    }

    fn scan(&mut self) -> R<Option<Line>> {
        let src = self.src;
        let mut blank = false;
        loop {
            let start = self.pos;
            if start >= src.len() {
                return Ok(None);
            }
            let newline = line_end(src, start);
            self.pos = newline + 1;
            let mut end = newline;
            if end > start && src[end - 1] == b'\r' {
                end -= 1;
            }
            let mut i = start;
            while i < end && src[i] == b' ' {
                i += 1;
            }
            if i == end {
                blank = true;
                continue;
            }
            if src[i] == b'\t' {
                return Err(Bail);
            }
            while src[end - 1] == b' ' {
                end -= 1;
            }
            if src[i] == b'#' {
                continue;
            }
            let spaces = i - start;
            if !spaces.is_multiple_of(self.indent) {
                return Err(Bail);
            }
            return Ok(Some(Line {
                start: i,
                end,
                depth: spaces / self.indent,
                blank,
            }));
        }
    }

    /// The depth of the scope whose parent line stands at `base`: one level
    /// deeper, and its first line may not sit deeper still.
    fn content_depth(&mut self, base: usize) -> R<usize> {
        match self.peek()? {
            Some(l) if l.depth > base + 1 => Err(Bail),
            _ => Ok(base + 1),
        }
    }

    fn check_depth(&self, depth: usize) -> R<()> {
        if depth > self.max_depth {
            return Err(Bail);
        }
        Ok(())
    }

    // ---- structure ---------------------------------------------------

    fn document(&mut self) -> R<()> {
        let Some(first) = self.peek()? else {
            self.check_depth(1)?;
            self.out.events.push(Event::Object(0));
            return Ok(());
        };
        let (s, e) = (first.start, first.end);
        if first.depth != 0 || &self.src[s..e] == b"[]" {
            return Err(Bail);
        }
        match self.classify(s, e)? {
            Class::Header(bracket) => {
                let h = self.header(s, e, bracket)?;
                if h.key.is_none() {
                    self.consume(first)?;
                    self.array(h, 0, 1)?;
                    return match self.peek()? {
                        None => Ok(()),
                        Some(_) => Err(Bail),
                    };
                }
                self.root_object(first, |r, obj| r.header_field(h, 0, 1, obj))
            }
            Class::Bare => Err(Bail),
            class => self.root_object(first, |r, obj| r.field(class, s, e, 0, 1, obj)),
        }
    }

    fn root_object(
        &mut self,
        first: Line,
        first_field: impl FnOnce(&mut Self, &mut Obj) -> R<()>,
    ) -> R<()> {
        if self.bracket_first {
            return Err(Bail);
        }
        self.check_depth(1)?;
        self.consume(first)?;
        let mut obj = self.open();
        first_field(self, &mut obj)?;
        self.fields(0, 1, &mut obj)?;
        self.close(obj);
        Ok(())
    }

    /// The fields at depth `cd` of the object at value depth `od`.
    fn fields(&mut self, cd: usize, od: usize, obj: &mut Obj) -> R<()> {
        while let Some(line) = self.peek()? {
            if line.depth < cd {
                break;
            }
            if line.depth > cd {
                return Err(Bail);
            }
            self.consume(line)?;
            let class = self.classify(line.start, line.end)?;
            self.field(class, line.start, line.end, cd, od, obj)?;
        }
        Ok(())
    }

    /// One field `[s, e)` at depth `fd` of the object at value depth `od`.
    fn field(
        &mut self,
        class: Class,
        s: usize,
        e: usize,
        fd: usize,
        od: usize,
        obj: &mut Obj,
    ) -> R<()> {
        match class {
            Class::KeyValue { a, b, quoted, rest } => {
                let (va, vb) = trim(self.src, rest, e);
                let id = self.member_key(a, b, quoted, od, obj)?;
                self.out.events.push(Event::Key(id));
                if va < vb && &self.src[va..vb] != b"[]" {
                    return self.value(va, vb);
                }
                self.check_depth(od + 1)?;
                if va < vb {
                    self.out.events.push(Event::Array(0));
                    return Ok(());
                }
                let mut child = self.open();
                if let Some(next) = self.peek()?
                    && next.depth > fd
                {
                    let cd = self.content_depth(fd)?;
                    self.fields(cd, od + 1, &mut child)?;
                }
                self.close(child);
                Ok(())
            }
            Class::Header(bracket) => {
                let h = self.header(s, e, bracket)?;
                self.header_field(h, fd, od, obj)
            }
            Class::Bare => Err(Bail),
        }
    }

    /// A field whose line is a header `key[N]…:`.
    fn header_field(&mut self, mut h: Header, fd: usize, od: usize, obj: &mut Obj) -> R<()> {
        let id = match h.key.take() {
            None => return Err(Bail),
            Some(KeyText::Src(a, b)) => {
                let src = self.src;
                self.add_key(&src[a..b], od, obj)?
            }
            Some(KeyText::Own(bytes)) => self.add_key(&bytes, od, obj)?,
        };
        self.out.events.push(Event::Key(id));
        self.array(h, fd, od + 1)
    }

    /// The value a header opens, at value depth `vd`; `base` is the depth
    /// of the header's line.
    fn array(&mut self, h: Header, base: usize, vd: usize) -> R<()> {
        self.check_depth(vd)?;
        match (h.fields, h.inline) {
            (Some(f), _) if h.keyed => self.keyed_table(f, h.length, h.delim, base, vd),
            (Some(f), _) => self.table(f, h.length, h.delim, base, vd),
            (None, Some((a, b))) => self.inline(a, b, h.length, h.delim),
            (None, None) => self.list(h.length, base, vd),
        }
    }

    /// The values on a header's line.
    fn inline(&mut self, a: usize, b: usize, length: usize, delim: u8) -> R<()> {
        let at = self.out.events.len();
        self.out.events.push(Event::Array(0));
        let mut n = 0usize;
        let mut i = a;
        loop {
            let j = self.cell(i, b, delim)?;
            n += 1;
            if j >= b {
                break;
            }
            i = j + 1;
        }
        if n != length {
            return Err(Bail);
        }
        self.out.events[at] = Event::Array(n as u32);
        Ok(())
    }

    /// The items of a list.
    fn list(&mut self, length: usize, base: usize, vd: usize) -> R<()> {
        let item_depth = self.content_depth(base)?;
        let at = self.out.events.len();
        self.out.events.push(Event::Array(0));
        let mut n = 0usize;
        while let Some(line) = self.peek()? {
            if line.depth <= base {
                break;
            }
            let c = &self.src[line.start..line.end];
            if line.depth != item_depth || !(c == b"-" || c.starts_with(b"- ")) || n == length {
                return Err(Bail);
            }
            self.consume(line)?;
            if n == 0 {
                self.spans += 1;
            }
            self.item(line, item_depth, vd + 1)?;
            n += 1;
        }
        self.end_span(n, length)?;
        self.out.events[at] = Event::Array(n as u32);
        Ok(())
    }

    /// One list item at depth `d`, value depth `vd`.
    fn item(&mut self, line: Line, d: usize, vd: usize) -> R<()> {
        let (s, e) = (line.start, line.end);
        if e - s == 1 {
            self.check_depth(vd)?;
            self.out.events.push(Event::Object(0));
            return Ok(());
        }
        let mut a = s + 2;
        while a < e && self.src[a] == b' ' {
            a += 1;
        }
        if &self.src[a..e] == b"[]" {
            self.check_depth(vd)?;
            self.out.events.push(Event::Array(0));
            return Ok(());
        }
        match self.classify(a, e)? {
            Class::Header(bracket) => {
                let h = self.header(a, e, bracket)?;
                match h.key {
                    None if !h.keyed && h.fields.is_none() => self.array(h, d, vd),
                    None => Err(Bail),
                    Some(_) => self.item_object(d, vd, |r, obj| r.header_field(h, d + 1, vd, obj)),
                }
            }
            Class::Bare => self.value(a, e),
            class => self.item_object(d, vd, |r, obj| r.field(class, a, e, d + 1, vd, obj)),
        }
    }

    /// A list item that is an object, its first field on the hyphen line.
    fn item_object(
        &mut self,
        d: usize,
        vd: usize,
        first_field: impl FnOnce(&mut Self, &mut Obj) -> R<()>,
    ) -> R<()> {
        self.check_depth(vd)?;
        let mut obj = self.open();
        first_field(self, &mut obj)?;
        self.fields(d + 1, vd, &mut obj)?;
        self.close(obj);
        Ok(())
    }

    /// The rows of a table.
    fn table(&mut self, h: Plan, length: usize, delim: u8, base: usize, vd: usize) -> R<()> {
        let row_depth = self.content_depth(base)?;
        let at = self.out.events.len();
        self.out.events.push(Event::Array(0));
        let mut n = 0usize;
        while let Some(line) = self.peek()? {
            if line.depth <= base {
                break;
            }
            if line.depth != row_depth {
                return Err(Bail);
            }
            if !self.is_row(line, delim) {
                break;
            }
            if n == length {
                return Err(Bail);
            }
            self.consume(line)?;
            if n == 0 {
                self.spans += 1;
                self.check_depth(vd + 1 + h.group_depth)?;
            }
            self.row(line.start, line.end, h, delim)?;
            n += 1;
        }
        self.end_span(n, length)?;
        self.out.events[at] = Event::Array(n as u32);
        Ok(())
    }

    /// Ends an array of `n` items, rows or entries declared `length` long.
    fn end_span(&mut self, n: usize, length: usize) -> R<()> {
        if n > 0 {
            self.spans -= 1;
        }
        if n != length {
            return Err(Bail);
        }
        Ok(())
    }

    /// The entry rows `key: cells` of a keyed table, an object at value
    /// depth `od`.
    fn keyed_table(&mut self, h: Plan, length: usize, delim: u8, base: usize, od: usize) -> R<()> {
        let entry_depth = self.content_depth(base)?;
        let mut obj = self.open();
        let mut n = 0usize;
        while let Some(line) = self.peek()? {
            if line.depth <= base {
                break;
            }
            let colon = find_unquoted(self.src, line.start, line.end, b':');
            let (Some(colon), true) = (colon, line.depth == entry_depth) else {
                return Err(Bail);
            };
            if n == length {
                return Err(Bail);
            }
            self.consume(line)?;
            if n == 0 {
                self.spans += 1;
                self.check_depth(od + 1 + h.group_depth)?;
            }
            let id = self.entry_key(line.start, colon, od, &mut obj)?;
            self.out.events.push(Event::Key(id));
            let (a, b) = trim(self.src, colon + 1, line.end);
            if a == b {
                return Err(Bail);
            }
            self.row(a, b, h, delim)?;
            n += 1;
        }
        self.end_span(n, length)?;
        self.close(obj);
        Ok(())
    }

    /// The key of an entry row, before its first unquoted colon.
    fn entry_key(&mut self, s: usize, colon: usize, od: usize, obj: &mut Obj) -> R<u32> {
        let src = self.src;
        if src[s] != b'"' {
            let (a, b) = trim(src, s, colon);
            return self.add_key(&src[a..b], od, obj);
        }
        let (key, after) = self.quoted_key(s, colon)?;
        if trim(src, after, colon).0 != colon {
            return Err(Bail);
        }
        match key {
            KeyText::Src(a, b) => self.add_key(&src[a..b], od, obj),
            KeyText::Own(bytes) => self.add_key(&bytes, od, obj),
        }
    }

    /// Whether a line at row depth is a row: its first unquoted delimiter
    /// comes before its first unquoted colon, or it has no unquoted colon.
    fn is_row(&self, line: Line, delim: u8) -> bool {
        scan_unquoted(self.src, line.start, line.end, |_, b| {
            if b == delim {
                Some(true)
            } else if b == b':' {
                Some(false)
            } else {
                None
            }
        })
        .unwrap_or(true)
    }

    /// The cells `[a, b)` of one row of header `h`.
    fn row(&mut self, a: usize, b: usize, h: Plan, delim: u8) -> R<()> {
        let width = h.leaves;
        self.out.events.push(Event::Row(h.header));
        let mut n = 0;
        let mut i = a;
        loop {
            if n == width {
                return Err(Bail);
            }
            let j = self.cell(i, b, delim)?;
            n += 1;
            if j >= b {
                break;
            }
            i = j + 1;
        }
        if n < width {
            return Err(Bail);
        }
        Ok(())
    }

    // ---- objects and keys --------------------------------------------

    fn open(&mut self) -> Obj {
        let event = self.out.events.len();
        self.out.events.push(Event::Object(0));
        Obj {
            event,
            members: self.members.len(),
            big: None,
        }
    }

    fn close(&mut self, obj: Obj) {
        let n = self.members.len() - obj.members;
        self.out.events[obj.event] = Event::Object(n as u32);
        self.members.truncate(obj.members);
    }

    /// The number of the key token `[a, b)` of a member of `obj`.
    fn member_key(&mut self, a: usize, b: usize, quoted: bool, od: usize, obj: &mut Obj) -> R<u32> {
        let src = self.src;
        if !quoted {
            return self.add_key(&src[a..b], od, obj);
        }
        match self.quoted_key(a, b)?.0 {
            KeyText::Src(a, b) => self.add_key(&src[a..b], od, obj),
            KeyText::Own(bytes) => self.add_key(&bytes, od, obj),
        }
    }

    /// The key `name` of the next member of `obj`, an object at value depth
    /// `od`: numbered, and new to the object.
    fn add_key(&mut self, name: &[u8], od: usize, obj: &mut Obj) -> R<u32> {
        let position = self.members.len() - obj.members;
        let recent = self
            .recent
            .get(od)
            .and_then(|keys| keys.get(position))
            .copied()
            .filter(|&id| self.out.key(id).as_bytes() == name);
        let id = match recent {
            Some(id) => id,
            None => {
                let id = self.intern(name)?;
                if self.recent.len() <= od {
                    self.recent.resize_with(od + 1, Vec::new);
                }
                let keys = &mut self.recent[od];
                if position < keys.len() {
                    keys[position] = id;
                } else if position == keys.len() {
                    keys.push(id);
                }
                id
            }
        };
        let mine = &self.members[obj.members..];
        match &mut obj.big {
            Some(set) => {
                if !set.insert(id) {
                    return Err(Bail);
                }
            }
            None if mine.len() < SMALL => {
                if mine.contains(&id) {
                    return Err(Bail);
                }
            }
            None => {
                let mut set: HashSet<u32, BuildHasherDefault<KeyHasher>> =
                    mine.iter().copied().collect();
                if !set.insert(id) {
                    return Err(Bail);
                }
                obj.big = Some(set);
            }
        }
        self.members.push(id);
        Ok(id)
    }

    /// The number of key `name`, numbering it if it is new. Keys that
    /// `select::decode` would restore are not for this reader.
    fn intern(&mut self, name: &[u8]) -> R<u32> {
        if let Some(&id) = self.index.get(name) {
            return Ok(id);
        }
        if name == pith::select::WRAPPER_TAG.as_bytes()
            || name == b"cols"
            || name.ends_with(pith::table::hoisted::ENCODING_SUFFIX.as_bytes())
        {
            return Err(Bail);
        }
        let name_str = std::str::from_utf8(name).map_err(|_| Bail)?;
        let id = self.out.key_ends.len() as u32;
        self.out.key_text.push_str(name_str);
        self.out.key_ends.push(self.out.key_text.len() as u32);
        self.index.insert(name.into(), id);
        Ok(id)
    }
}
