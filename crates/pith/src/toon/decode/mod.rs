//! The TOON decoder: text to [`Value`], strict or lenient, spec 4.x or 3.3.
//!
//! # How it works
//!
//! One pass over the bytes. [`lines`] yields content lines (comments and
//! blank lines consumed, indentation measured) with one line of lookahead;
//! the parser descends scope by scope, recursing once per level of nesting
//! and never deeper than [`DecodeOptions::max_depth`]. Tokens are byte
//! ranges of the source until their value is built, so an unquoted string is
//! copied once and a plain number is read without allocating. Declared
//! lengths are checked, never trusted with an allocation.
//!
//! Errors carry the line and column (in characters) of the offending token;
//! positions are computed only when an error is returned.
//!
//! # Spec 3.3
//!
//! With [`Spec::V3`], `#` lines are content (there are no comment lines),
//! keyed headers `[N:]` and nested field groups are header errors, and a
//! scope's first line may sit more than one level deeper than its parent (it
//! sets the scope's depth), as in 3.3. Path expansion
//! ([`ExpandPaths::Safe`], 3.3 only, ignored under [`Spec::V4`]) turns
//! unquoted dotted keys whose segments are identifiers into nested objects;
//! conflicts are a [`ErrorKind::PathConflict`] error in strict mode and last
//! write wins in lenient mode. Lines indented into no scope and content after
//! a root array are errors here too, where the 3.3 reference decoder drops
//! them silently.
//!
//! In both editions one byte-order mark (a second is content) and a CR
//! before each line feed are removed before anything else.
//!
//! # Lenient mode
//!
//! With `strict: false`:
//!
//! * declared lengths are not checked, and every item, row and entry present
//!   is kept (a length never truncates);
//! * duplicate keys, entry keys and field names resolve last write wins,
//!   keeping the first key's position;
//! * blank lines inside arrays are skipped;
//! * depth is `floor(spaces / indent)`, and every tab in the indentation
//!   counts as one level; a scope's first line may jump levels;
//! * a header that breaks the grammar (bad length or keyed marker, content
//!   between its parts, delimiter mismatch, empty or unmatched braces,
//!   values after a header with a field list, a keyless header away from the
//!   root or a `- ` marker) is read as a `key: value` line whose key is the
//!   literal text before the first unquoted colon (so it opens no scope, and
//!   an over-indented line right after it names the header's fault);
//! * a line without a colon among keyed entry rows is skipped.
//!
//! These stay errors in both modes, because no reading of the text keeps
//! every fact: bad escapes and unterminated strings, text after a closing
//! quote, a missing colon, a row with the wrong number of cells, lines
//! indented into no scope, content after a root array or keyed root, a bare
//! value among fields, an exponent beyond ±[`MAX_EXPONENT`], nesting beyond
//! the depth limit, and ill-formed UTF-8.
//!
//! [`MAX_EXPONENT`]: crate::number::MAX_EXPONENT

mod expand;
mod header;
mod lines;
pub(crate) mod object;
pub(crate) mod token;

pub(crate) use self::header::show;
use self::header::{BadHeader, Class, Field, FieldKind, Fields, Header, Key};
use self::lines::{Line, Lines, NO_BLANK};
use self::object::{EMPTY_ENTRY, KeyMeta, Obj, Stack, fingerprint};
use self::token::{Tok, fill};
use super::{DecodeOptions, ExpandPaths, Spec};
use crate::{Error, ErrorKind, Map, Result, Value};

/// Decodes TOON text.
///
/// ```
/// use pith::toon::{decode, DecodeOptions};
/// let v = decode("users[2]{id,name}:\n  1,Ada\n  2,Bob", &DecodeOptions::default()).unwrap();
/// assert_eq!(v.get("users").unwrap().as_array().unwrap().len(), 2);
/// ```
pub fn decode(text: &str, opts: &DecodeOptions) -> Result<Value> {
    decode_unmarked(text.strip_prefix('\u{FEFF}').unwrap_or(text), opts)
}

/// Decodes text whose one byte-order mark, if any, is already removed: a
/// second one is content.
fn decode_unmarked(text: &str, opts: &DecodeOptions) -> Result<Value> {
    Parser::new(text, opts)
        .document()
        .map_err(|f| f.into_error(text.as_bytes()))
}

/// Whether the first content line of `text` (its byte-order mark removed)
/// is a header without a key, `[N]…:`, the one way a TOON document that is
/// no JSON text starts with `[`. The rest of the document is not read.
pub(crate) fn opens_with_root_header(text: &str, opts: &DecodeOptions) -> bool {
    let mut p = Parser::new(text, opts);
    let Ok(Some(first)) = p.lines.peek() else {
        return false;
    };
    let (s, e) = (first.start, first.end);
    first.depth == 0
        && matches!(p.classify(s, e), Ok(Class::Header(bracket))
            if bracket == s && matches!(p.header(s, e, bracket), Ok(Ok(h)) if h.key.is_none()))
}

/// Decodes TOON bytes, which must be well-formed UTF-8: ill-formed bytes are
/// an [`ErrorKind::InvalidUtf8`] error at their line and column, never
/// replaced.
pub fn decode_bytes(bytes: &[u8], opts: &DecodeOptions) -> Result<Value> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => decode_unmarked(text, opts),
        Err(e) => {
            let at = e.valid_up_to();
            let msg = match (e.error_len(), bytes.get(at)) {
                (Some(_), Some(b)) => {
                    format!("expected UTF-8 text, found the ill-formed byte 0x{b:02X}")
                }
                _ => "expected UTF-8 text, found a sequence cut off by the end of the input"
                    .to_owned(),
            };
            Err(Error::at_offset(ErrorKind::InvalidUtf8, bytes, at, msg))
        }
    }
}

/// An error before its position is computed: a kind, a byte offset and a
/// message. Boxed, so that the decoder's `Result`s stay one word wide on the
/// happy path.
#[derive(Debug)]
pub(crate) struct Fault(Box<FaultData>);

#[derive(Debug)]
pub(crate) struct FaultData {
    pub(crate) kind: ErrorKind,
    pub(crate) at: usize,
    pub(crate) msg: String,
}

impl Fault {
    #[cold]
    pub(crate) fn new(kind: ErrorKind, at: usize, msg: impl Into<String>) -> Fault {
        Fault(Box::new(FaultData {
            kind,
            at,
            msg: msg.into(),
        }))
    }

    /// The error, with its line and column in `src`.
    pub(crate) fn into_error(self, src: &[u8]) -> Error {
        let FaultData { kind, at, msg } = *self.0;
        Error::at_offset(kind, src, at, msg)
    }
}

impl std::ops::Deref for Fault {
    type Target = FaultData;
    fn deref(&self) -> &FaultData {
        &self.0
    }
}

type R<T> = std::result::Result<T, Fault>;

/// The decoder's state over one document.
pub(super) struct Parser<'a> {
    tok: Tok<'a>,
    src: &'a [u8],
    lines: Lines<'a>,
    strict: bool,
    v4: bool,
    expand: bool,
    max_depth: usize,
    /// Arrays whose first item, row or entry has been read and which are not
    /// finished: a blank line consumed while any is open is inside a span.
    spans: usize,
    /// Reused cell buffer for rows with nested groups or duplicate fields.
    cells: Vec<Value>,
    /// Entries of the objects under construction.
    stack: Stack,
    /// In lenient mode, the end of the last malformed header read as a
    /// `key: value` line, and why it was malformed: an over-indented line
    /// right after it says so, since that is why nothing opened a scope.
    demoted: Option<(usize, String)>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, opts: &DecodeOptions) -> Parser<'a> {
        let v4 = opts.spec == Spec::V4;
        Parser {
            tok: Tok {
                text,
                src: text.as_bytes(),
            },
            src: text.as_bytes(),
            lines: Lines::new(text.as_bytes(), opts.indent, opts.strict, v4),
            strict: opts.strict,
            v4,
            expand: !v4 && opts.expand_paths == ExpandPaths::Safe,
            max_depth: crate::depth_limit(opts.max_depth),
            spans: 0,
            cells: Vec::new(),
            stack: Stack::new(!v4 && opts.expand_paths == ExpandPaths::Safe),
            demoted: None,
        }
    }

    /// Root form discovery (§5).
    fn document(&mut self) -> R<Value> {
        let Some(first) = self.lines.peek()? else {
            self.check_depth(1, 0)?;
            return Ok(Value::Object(Map::new()));
        };
        if first.depth != 0 {
            return Err(self.misplaced(first, 0));
        }
        let (s, e) = (first.start, first.end);
        if &self.src[s..e] == b"[]" {
            self.consume(first)?;
            self.check_depth(1, s)?;
            self.expect_end("an empty root array")?;
            return Ok(Value::Array(Vec::new()));
        }
        match self.classify(s, e)? {
            Class::Header(bracket) => match self.header(s, e, bracket)? {
                Ok(h) if h.key.is_none() => {
                    self.consume(first)?;
                    let what = if h.keyed {
                        "a keyed root object"
                    } else {
                        "a root array"
                    };
                    let v = self.array(h, 0, 1, s)?;
                    self.expect_end(what)?;
                    Ok(v)
                }
                Ok(h) => self.root_object(first, |p, obj| p.header_field(h, s, e, 0, 1, obj)),
                Err(bad) => self.root_object(first, |p, obj| p.fall_through(bad, s, e, 0, 1, obj)),
            },
            Class::Bare => {
                self.consume(first)?;
                match self.lines.peek()? {
                    None => self.tok.value_token(s, e),
                    Some(next)
                        if next.depth == 0
                            && self.tok.find_unquoted(next.start, next.end, b':').is_none() =>
                    {
                        Err(Fault::new(
                            ErrorKind::Structure,
                            next.start,
                            format!(
                                "expected 'key: value' lines in a document of several lines, \
                                 found a second bare value {}",
                                self.tok.snippet(next.start, next.end)
                            ),
                        ))
                    }
                    Some(_) => Err(self.missing_colon(s, e)),
                }
            }
            class => self.root_object(first, |p, obj| p.field(class, s, e, 0, 1, obj)),
        }
    }

    /// A root object whose first field `first_field` reads.
    fn root_object(
        &mut self,
        first: Line,
        first_field: impl FnOnce(&mut Self, &mut Obj) -> R<()>,
    ) -> R<Value> {
        self.check_depth(1, first.start)?;
        self.consume(first)?;
        let mut obj = self.stack.open(1);
        first_field(self, &mut obj)?;
        self.fields(0, 1, &mut obj)?;
        Ok(Value::Object(self.finish(obj, 1)?))
    }

    /// The fields at depth `cd` of the object at value depth `od`.
    fn fields(&mut self, cd: usize, od: usize, obj: &mut Obj) -> R<()> {
        while let Some(line) = self.lines.peek()? {
            if line.depth < cd {
                break;
            }
            if line.depth > cd {
                return Err(self.misplaced(line, cd));
            }
            self.consume(line)?;
            let class = self.classify(line.start, line.end)?;
            self.field(class, line.start, line.end, cd, od, obj)?;
        }
        Ok(())
    }

    /// One field, content `[s, e)`, standing at depth `fd` in the object at
    /// value depth `od`.
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
                self.key_value(key, rest, e, fd, od, obj)
            }
            Class::KeyValue { a, b, rest, .. } => {
                let key = self.key(a, b, true)?;
                self.key_value(key, rest, e, fd, od, obj)
            }
            Class::Header(bracket) => match self.header(s, e, bracket)? {
                Ok(h) => self.header_field(h, s, e, fd, od, obj),
                Err(bad) => self.fall_through(bad, s, e, fd, od, obj),
            },
            Class::Bare => Err(self.missing_colon(s, e)),
        }
    }

    /// A field whose line is a header: `key[N]…:`.
    fn header_field(
        &mut self,
        mut h: Header,
        s: usize,
        e: usize,
        fd: usize,
        od: usize,
        obj: &mut Obj,
    ) -> R<()> {
        let Some(key) = h.key.take() else {
            let fault = Fault::new(
                ErrorKind::Structure,
                s,
                "expected a key before '[': a header without a key is only valid \
                 as the document root or right after '- '",
            );
            let colon = h.colon;
            return self.fall_through(BadHeader { fault, colon }, s, e, fd, od, obj);
        };
        self.reserve(obj, &key)?;
        let v = self.array(h, fd, od + 1, key.at)?;
        self.put(obj, key, v);
        Ok(())
    }

    /// A malformed header: an error in strict mode, otherwise a key-value
    /// line whose key is the literal text before the first unquoted colon.
    fn fall_through(
        &mut self,
        bad: BadHeader,
        s: usize,
        e: usize,
        fd: usize,
        od: usize,
        obj: &mut Obj,
    ) -> R<()> {
        let BadHeader { fault, colon } = bad;
        if self.strict {
            return Err(fault);
        }
        let (a, b) = self.tok.trim(s, colon);
        let key = Key::new(self.tok.s(a, b).to_owned(), false, s);
        self.demoted = Some((e, fault.0.msg));
        self.key_value(key, colon + 1, e, fd, od, obj)
    }

    /// `key: value`, `key: []`, or `key:` opening a nested object.
    fn key_value(
        &mut self,
        key: Key,
        rest: usize,
        e: usize,
        fd: usize,
        od: usize,
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
            self.check_depth(od + 1, key.at)?;
            let mut child = self.stack.open(od + 1);
            if let Some(next) = self.lines.peek()?
                && next.depth > fd
            {
                let cd = self.content_depth(fd)?;
                self.fields(cd, od + 1, &mut child)?;
            }
            Value::Object(self.finish(child, od + 1)?)
        } else {
            self.check_depth(od + 1, a)?;
            Value::Array(Vec::new())
        };
        self.put(obj, key, v);
        Ok(())
    }

    /// The value a header opens: inline array, list, table or keyed table.
    /// `base` is the depth of the line the header stands on (as a field),
    /// `vd` the value depth of the array or keyed object.
    fn array(&mut self, h: Header, base: usize, vd: usize, at: usize) -> R<Value> {
        self.check_depth(vd, at)?;
        let Header {
            fields,
            inline,
            keyed,
            length,
            length_at,
            delim,
            ..
        } = h;
        let digits = self.src[length_at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let count = Count {
            length,
            length_at,
            written: self.tok.s(length_at, length_at + digits),
        };
        match (fields, inline) {
            (Some(f), _) if keyed => self.keyed_table(&f, count, delim, base, vd),
            (Some(f), _) => self.table(&f, count, delim, base, vd),
            (None, Some((a, b))) => self.inline(a, b, count, delim),
            (None, None) => self.list(count, base, vd),
        }
    }

    /// Values on the header line (§9.1).
    fn inline(&mut self, a: usize, b: usize, count: Count, delim: u8) -> R<Value> {
        // Bounded by what the line can hold, whatever the header declares.
        let mut items = Vec::with_capacity(count.length.min(b - a + 1));
        let mut surplus = None;
        let tok = self.tok;
        let mut i = a;
        loop {
            if items.len() == count.length && surplus.is_none() {
                surplus = Some(i);
            }
            let n = items.len();
            items.push(Value::Null);
            let j = tok.cell_into(i, b, delim, &mut items[n])?;
            if j >= b {
                break;
            }
            i = j + 1;
        }
        if self.strict {
            if let Some(at) = surplus {
                let (at, _) = self.tok.trim(at, b);
                return Err(count.mismatch(at, VALUES, items.len()));
            }
            if items.len() != count.length {
                return Err(count.mismatch(count.length_at, VALUES, items.len()));
            }
        }
        Ok(Value::Array(items))
    }

    /// List items under a header (§9.2, §9.4).
    fn list(&mut self, count: Count, base: usize, vd: usize) -> R<Value> {
        let item_depth = self.content_depth(base)?;
        // Lists and tables grow as items arrive: a declared length is never
        // trusted with an allocation, and reserving a large exact size makes
        // glibc trim and refault the heap around every decode (measured: 70×
        // the page faults on a 10,000-item list).
        let mut items = Vec::new();
        let mut started = false;
        while let Some(line) = self.lines.peek()? {
            if line.depth <= base {
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
            self.item(line, item_depth, vd + 1, &mut items[n])?;
        }
        if started {
            self.spans -= 1;
        }
        if self.strict && items.len() != count.length {
            return Err(count.mismatch(count.length_at, ITEMS, items.len()));
        }
        Ok(Value::Array(items))
    }

    /// One list item at depth `d`, with value depth `vd`.
    fn item(&mut self, line: Line, d: usize, vd: usize, out: &mut Value) -> R<()> {
        let (s, e) = (line.start, line.end);
        if e - s == 1 {
            self.check_depth(vd, s)?;
            fill(out, Value::Object(Map::new()));
            return Ok(());
        }
        let mut a = s + 2;
        while a < e && self.src[a] == b' ' {
            a += 1;
        }
        if &self.src[a..e] == b"[]" {
            self.check_depth(vd, a)?;
            fill(out, Value::Array(Vec::new()));
            return Ok(());
        }
        let v = match self.classify(a, e)? {
            Class::Header(bracket) => match self.header(a, e, bracket)? {
                Ok(h) if h.key.is_none() && !h.keyed && h.fields.is_none() => {
                    self.array(h, d, vd, a)?
                }
                Ok(h) if h.key.is_none() => {
                    let fault = Fault::new(
                        ErrorKind::Structure,
                        a,
                        "expected '[N]:' after '- ', found a keyless header with a field list, \
                         which is only valid as the document root",
                    );
                    let bad = BadHeader {
                        fault,
                        colon: h.colon,
                    };
                    self.item_object(a, d, vd, |p, obj| p.fall_through(bad, a, e, d + 1, vd, obj))?
                }
                Ok(h) => {
                    self.item_object(a, d, vd, |p, obj| p.header_field(h, a, e, d + 1, vd, obj))?
                }
                Err(bad) => {
                    self.item_object(a, d, vd, |p, obj| p.fall_through(bad, a, e, d + 1, vd, obj))?
                }
            },
            Class::Bare => return self.tok.value_into(a, e, out),
            class => self.item_object(a, d, vd, |p, obj| p.field(class, a, e, d + 1, vd, obj))?,
        };
        fill(out, v);
        Ok(())
    }

    /// A list item that is an object whose first field stands on the hyphen
    /// line: that field is at depth `d + 1`, like the fields after it (§10).
    fn item_object(
        &mut self,
        a: usize,
        d: usize,
        vd: usize,
        first_field: impl FnOnce(&mut Self, &mut Obj) -> R<()>,
    ) -> R<Value> {
        self.check_depth(vd, a)?;
        let mut obj = self.stack.open(vd);
        first_field(self, &mut obj)?;
        self.fields(d + 1, vd, &mut obj)?;
        Ok(Value::Object(self.finish(obj, vd)?))
    }

    /// Rows of a tabular array (§9.3).
    fn table(&mut self, f: &Fields, count: Count, delim: u8, base: usize, vd: usize) -> R<Value> {
        let row_depth = self.content_depth(base)?;
        let mut rows = Vec::new();
        let mut started = false;
        while let Some(line) = self.lines.peek()? {
            if line.depth <= base {
                break;
            }
            if line.depth != row_depth {
                return Err(self.misplaced(line, row_depth));
            }
            if !self.is_row(line, delim) {
                break;
            }
            if self.strict && rows.len() == count.length {
                return Err(count.surplus(line.start, ROWS));
            }
            self.consume(line)?;
            if !started {
                started = true;
                self.spans += 1;
                self.check_depth(vd + 1 + f.group_depth, line.start)?;
            }
            rows.push(Value::Object(self.row(
                line.start,
                line.end,
                f,
                delim,
                vd + 1,
            )?));
        }
        if started {
            self.spans -= 1;
        }
        if self.strict && rows.len() != count.length {
            return Err(count.mismatch(count.length_at, ROWS, rows.len()));
        }
        Ok(Value::Array(rows))
    }

    /// Entry rows of a keyed tabular object (§9.5).
    fn keyed_table(
        &mut self,
        f: &Fields,
        count: Count,
        delim: u8,
        base: usize,
        od: usize,
    ) -> R<Value> {
        let entry_depth = self.content_depth(base)?;
        let mut obj = self.stack.open(od);
        let mut entries = 0usize;
        let mut started = false;
        while let Some(line) = self.lines.peek()? {
            if line.depth <= base {
                break;
            }
            if line.depth != entry_depth {
                return Err(self.misplaced(line, entry_depth));
            }
            let Some(colon) = self.tok.find_unquoted(line.start, line.end, b':') else {
                if self.strict {
                    return Err(Fault::new(
                        ErrorKind::Syntax,
                        line.start,
                        format!(
                            "expected an entry row 'key: cells', found {} without ':'",
                            self.tok.snippet(line.start, line.end)
                        ),
                    ));
                }
                self.lines.advance();
                continue;
            };
            if self.strict && entries == count.length {
                return Err(count.surplus(line.start, ENTRIES));
            }
            self.consume(line)?;
            if !started {
                started = true;
                self.spans += 1;
                self.check_depth(od + 1 + f.group_depth, line.start)?;
            }
            let key = self.entry_key(line.start, colon)?;
            self.reserve(&obj, &key)?;
            let (a, b) = self.tok.trim(colon + 1, line.end);
            if a == b {
                return Err(narrow(a, 0, f.leaf_count));
            }
            let v = Value::Object(self.row(a, b, f, delim, od + 1)?);
            self.put(&mut obj, key, v);
            entries += 1;
        }
        if started {
            self.spans -= 1;
        }
        if self.strict && entries != count.length {
            return Err(count.mismatch(count.length_at, ENTRIES, entries));
        }
        Ok(Value::Object(self.finish(obj, od)?))
    }

    /// The entry key before the first unquoted colon at `colon`.
    fn entry_key(&self, s: usize, colon: usize) -> R<Key> {
        if self.src[s] == b'"' {
            let (name, after) = self.tok.quoted(s, colon)?;
            let (a, _) = self.tok.trim(after, colon);
            if a != colon {
                return Err(Fault::new(
                    ErrorKind::Syntax,
                    after,
                    "expected ':' after the quoted entry key, found other characters",
                ));
            }
            return Ok(Key::new(name, true, s));
        }
        let (a, b) = self.tok.trim(s, colon);
        Ok(Key::new(self.tok.s(a, b).to_owned(), false, s))
    }

    /// Whether a line at row depth is a row rather than a key-value line
    /// (§9.3): its first unquoted delimiter comes before its first unquoted
    /// colon, or it has no unquoted colon.
    fn is_row(&self, line: Line, delim: u8) -> bool {
        token::scan_unquoted(self.src, line.start, line.end, |_, b| {
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

    /// The cells `[a, b)` of one row as an object of the header's fields.
    fn row(&mut self, a: usize, b: usize, f: &Fields, delim: u8, rd: usize) -> R<Map> {
        let n = f.leaf_count;
        if f.flat && !self.expand {
            let tok = self.tok;
            let mut entries: Vec<(crate::Key, Value)> = Vec::with_capacity(n);
            let mut i = a;
            loop {
                let k = entries.len();
                let Some(field) = f.plan.get(k) else {
                    return Err(wide(tok.trim(i, b).0, n));
                };
                entries.push(EMPTY_ENTRY);
                let entry = &mut entries[k];
                entry.0 = crate::Key::from(field.name.as_str());
                let j = tok.cell_into(i, b, delim, &mut entry.1)?;
                if j >= b {
                    break;
                }
                i = j + 1;
            }
            if entries.len() < n {
                return Err(narrow(a, entries.len(), n));
            }
            return Ok(Map::from_unique_entries(entries));
        }
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        let built = self
            .row_cells(a, b, delim, n, &mut cells)
            .and_then(|()| self.build_row(&f.plan, &mut cells, rd));
        self.cells = cells;
        built
    }

    fn row_cells(&self, a: usize, b: usize, delim: u8, n: usize, cells: &mut Vec<Value>) -> R<()> {
        let mut i = a;
        loop {
            let k = cells.len();
            if k == n {
                return Err(wide(self.tok.trim(i, b).0, n));
            }
            cells.push(Value::Null);
            let j = self.tok.cell_into(i, b, delim, &mut cells[k])?;
            if j >= b {
                break;
            }
            i = j + 1;
        }
        if cells.len() < n {
            return Err(narrow(a, cells.len(), n));
        }
        Ok(())
    }

    /// A row object from its cells, walking the field plan (§9.3).
    fn build_row(&self, plan: &[Field], cells: &mut [Value], rd: usize) -> R<Map> {
        let mut entries = Vec::with_capacity(plan.len());
        let mut meta = self.expand.then(|| Vec::with_capacity(plan.len()));
        for field in plan {
            let v = match &field.kind {
                FieldKind::Leaf(i) => cells.get_mut(*i).map(std::mem::take).unwrap_or_default(),
                FieldKind::Group(sub) => Value::Object(group(sub, cells)),
            };
            entries.push((crate::Key::from(field.name.as_str()), v));
            if let Some(m) = &mut meta {
                m.push(KeyMeta {
                    quoted: field.quoted,
                    at: field.at,
                });
            }
        }
        match meta {
            Some(m) => expand::expand_object(entries, m, rd, self.max_depth, self.strict),
            None => Ok(Map::from_unique_entries(entries)),
        }
    }

    /// The depth of the scope whose parent line stands at `base`, from its
    /// first line: one level deeper, or in lenient and 3.3 mode wherever
    /// that first line is (§8).
    fn content_depth(&mut self, base: usize) -> R<usize> {
        match self.lines.peek()? {
            Some(l) if l.depth > base + 1 => {
                if self.v4 && self.strict {
                    Err(Fault::new(
                        ErrorKind::Indentation,
                        l.start,
                        format!(
                            "expected depth {} for the first line of a nested scope, found depth {}",
                            base + 1,
                            l.depth
                        ),
                    ))
                } else {
                    Ok(l.depth)
                }
            }
            _ => Ok(base + 1),
        }
    }

    /// Consumes the peeked line, refusing a blank line inside an array span
    /// in strict mode (§12).
    #[inline]
    fn consume(&mut self, line: Line) -> R<()> {
        self.lines.advance();
        if self.spans > 0 && line.blank_before != NO_BLANK && self.strict {
            return Err(Fault::new(
                ErrorKind::BlankLine,
                line.blank_before,
                "expected the items, rows or entries of an array without blank lines between them, \
                 found a blank line",
            ));
        }
        Ok(())
    }

    /// In strict mode, the key must be new to the object (§14.3).
    #[inline]
    fn reserve(&self, obj: &Obj, key: &Key) -> R<()> {
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
    fn put(&mut self, obj: &mut Obj, key: Key, v: Value) {
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

    fn finish(&mut self, obj: Obj, depth: usize) -> R<Map> {
        match self.stack.close(obj) {
            (entries, Some(meta)) => {
                expand::expand_object(entries, meta, depth, self.max_depth, self.strict)
            }
            (entries, None) => Ok(Map::from_unique_entries(entries)),
        }
    }

    fn check_depth(&self, depth: usize, at: usize) -> R<()> {
        if depth > self.max_depth {
            return Err(too_deep(self.max_depth, at));
        }
        Ok(())
    }

    /// A root form that must end the document (§5).
    fn expect_end(&mut self, what: &str) -> R<()> {
        match self.lines.peek()? {
            None => Ok(()),
            Some(line) => Err(Fault::new(
                ErrorKind::TrailingContent,
                line.start,
                format!(
                    "expected the end of the document after {what}, found {}",
                    self.tok.snippet(line.start, line.end)
                ),
            )),
        }
    }

    /// A line at a depth where no open scope takes it (§8, §14.2).
    fn misplaced(&self, line: Line, expected: usize) -> Fault {
        let msg = if line.depth > expected {
            let mut msg = format!(
                "expected depth {expected}, found an over-indented line at depth {}: \
                 the previous line opens no scope this deep",
                line.depth
            );
            // Only blank lines between the demoted header and this line.
            if let Some((end, why)) = &self.demoted
                && let Some(between) = self.src.get(*end..line.start)
                && between.iter().all(u8::is_ascii_whitespace)
            {
                msg.push_str(&format!(
                    " (lenient mode read it as a `key: value` line because its header is malformed: {why})"
                ));
            }
            msg
        } else {
            format!(
                "expected depth {expected}, found depth {}, where no open scope takes the line",
                line.depth
            )
        };
        Fault::new(ErrorKind::Structure, line.start, msg)
    }

    /// The error for a field line without an unquoted colon.
    fn missing_colon(&self, s: usize, e: usize) -> Fault {
        if self.src[s] == b'"' {
            return match self.tok.quoted(s, e) {
                Err(f) => f,
                Ok((_, after)) => Fault::new(
                    ErrorKind::Syntax,
                    after,
                    "expected ':' after the quoted key, found none",
                ),
            };
        }
        Fault::new(
            ErrorKind::Syntax,
            s,
            format!(
                "expected a 'key: value' line, found {} without ':'",
                self.tok.snippet(s, e)
            ),
        )
    }
}

/// A declared length, where it was written, and its digits as written
/// (a length beyond `usize` is held as `usize::MAX`, which no input
/// reaches, and named in messages as written).
#[derive(Clone, Copy)]
struct Count<'a> {
    length: usize,
    length_at: usize,
    written: &'a str,
}

impl Count<'_> {
    fn mismatch(self, at: usize, what: Noun, found: usize) -> Fault {
        Fault::new(
            ErrorKind::CountMismatch,
            at,
            format!(
                "expected {} {} as the header declares, found {found}",
                self.written,
                what.of(self.length)
            ),
        )
    }

    fn surplus(self, at: usize, what: Noun) -> Fault {
        Fault::new(
            ErrorKind::CountMismatch,
            at,
            format!(
                "expected {} {} as the header declares, found more",
                self.written,
                what.of(self.length)
            ),
        )
    }
}

/// A noun in its singular and plural forms, for messages.
#[derive(Clone, Copy)]
struct Noun(&'static str, &'static str);

impl Noun {
    fn of(self, n: usize) -> &'static str {
        if n == 1 { self.0 } else { self.1 }
    }
}

const VALUES: Noun = Noun("value", "values");
const ITEMS: Noun = Noun("list item", "list items");
const ROWS: Noun = Noun("row", "rows");
const ENTRIES: Noun = Noun("entry", "entries");
const CELLS: Noun = Noun("cell", "cells");

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

fn wide(at: usize, n: usize) -> Fault {
    Fault::new(
        ErrorKind::WidthMismatch,
        at,
        format!(
            "expected {n} {} per row as the header declares, found more",
            CELLS.of(n)
        ),
    )
}

fn narrow(at: usize, found: usize, n: usize) -> Fault {
    Fault::new(
        ErrorKind::WidthMismatch,
        at,
        format!(
            "expected {n} {} per row as the header declares, found {found}",
            CELLS.of(n)
        ),
    )
}

/// The object of a nested field group, taking its cells.
fn group(plan: &[Field], cells: &mut [Value]) -> Map {
    let entries = plan
        .iter()
        .map(|field| {
            let v = match &field.kind {
                FieldKind::Leaf(i) => cells.get_mut(*i).map(std::mem::take).unwrap_or_default(),
                FieldKind::Group(sub) => Value::Object(group(sub, cells)),
            };
            (crate::Key::from(field.name.as_str()), v)
        })
        .collect();
    Map::from_unique_entries(entries)
}

/// The error for a container nested deeper than `max_depth`, at `at`: the
/// same words from the TOON reader and the notation's.
pub(crate) fn too_deep(max_depth: usize, at: usize) -> Fault {
    Fault::new(
        ErrorKind::DepthLimit,
        at,
        format!("expected nesting at most {max_depth} levels deep, found deeper nesting"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Number;

    /// Expected values, written as JSON (read exactly, keys in order).
    fn json(text: &str) -> Value {
        crate::json::parse(text).expect("test JSON")
    }

    fn with(strict: bool, spec: Spec, expand: bool) -> DecodeOptions {
        DecodeOptions {
            strict,
            spec,
            expand_paths: if expand {
                ExpandPaths::Safe
            } else {
                ExpandPaths::Off
            },
            ..DecodeOptions::default()
        }
    }

    fn same(cases: &[(&str, &str)], opts: &DecodeOptions) {
        for (toon, want) in cases {
            match decode(toon, opts) {
                Ok(v) => assert_eq!(v, json(want), "{toon:?}"),
                Err(e) => panic!("{toon:?}: {}", e.render(toon)),
            }
        }
    }

    #[test]
    fn forms_of_spec_4() {
        same(
            &[
                ("", "{}"),
                ("# only a comment\n\n", "{}"),
                ("[]", "[]"),
                ("[0]:", "[]"),
                ("a: []\nb[0]:\nc:", r#"{"a":[],"b":[],"c":{}}"#),
                ("x", r#""x""#),
                ("\"a:b\"", r#""a:b""#),
                ("- a", r#""- a""#),
                ("- a: 1", r#"{"- a":1}"#),
                ("k: a: b", r#"{"k":"a: b"}"#),
                ("k:  x  ", r#"{"k":"x"}"#),
                ("k: \u{a0}x", "{\"k\":\"\u{a0}x\"}"),
                ("\u{feff}a: 1", r#"{"a":1}"#),
                ("a:\r\n  b: 1\r\n", r#"{"a":{"b":1}}"#),
                ("a: \"x\\ry\"\r", r#"{"a":"x\ry"}"#),
                (
                    "i[4]:\n  -\n  - []\n  - [2|]: a|b\n  - [1]:\n    - x",
                    r#"{"i":[{},[],["a","b"],["x"]]}"#,
                ),
                (
                    "o[2]{id,c{n,geo{x,y}},t}:\n  1,Ada,1.5,2,x\n  2,Bob,3,4,y",
                    r#"{"o":[{"id":1,"c":{"n":"Ada","geo":{"x":1.5,"y":2}},"t":"x"},
                            {"id":2,"c":{"n":"Bob","geo":{"x":3,"y":4}},"t":"y"}]}"#,
                ),
                (
                    "l[2]:\n  - t[1]{a}:\n      1\n    s: x\n  - k[1:]{v}:\n      z: 2",
                    r#"{"l":[{"t":[{"a":1}],"s":"x"},{"k":{"z":{"v":2}}}]}"#,
                ),
                ("[1:]{v}:\n  \"a b\": \"c,d\"", r#"{"a b":{"v":"c,d"}}"#),
                (
                    "t[2]{a}:\n  \"x:y\"\n  'q",
                    r#"{"t":[{"a":"x:y"},{"a":"'q"}]}"#,
                ),
                ("c[2]: a\"b,c\"d,e", r#"{"c":["a\"b,c\"d","e"]}"#),
            ],
            &DecodeOptions::default(),
        );
    }

    #[test]
    fn numbers_follow_the_grammar_exactly() {
        let cases: &[(&str, &[&str])] = &[
            (
                "0,-0,1.50,-0.0,1e2,-1E-2,0e9,2.5e+3",
                &["0", "0", "1.5", "0", "100", "-0.01", "0", "2500"],
            ),
            (
                "123456789012345678,1234567890123456789,-9223372036854775809",
                &[
                    "123456789012345678",
                    "1234567890123456789",
                    "-9223372036854775809",
                ],
            ),
            (
                "0.123456789012345678,1.0000000000000000001,1e-400,-1.5e400",
                &[
                    "0.123456789012345678",
                    "1.0000000000000000001",
                    "1e-400",
                    "-1.5e400",
                ],
            ),
        ];
        let strings: &[(&str, &[&str])] = &[
            (
                "05,-05,.5,1.,+1,0x1",
                &["05", "-05", ".5", "1.", "+1", "0x1"],
            ),
            (
                "Infinity,NaN,1_0,-,1e,1e+",
                &["Infinity", "NaN", "1_0", "-", "1e", "1e+"],
            ),
        ];
        let opts = DecodeOptions::default();
        // The cells of the inline array `n[len]: cells`.
        let decoded = |cells: &str, len: usize| -> Vec<Value> {
            let v = decode(&format!("n[{len}]: {cells}"), &opts).unwrap();
            v.get("n").unwrap().as_array().unwrap().clone()
        };
        for (cells, want) in cases {
            let got = decoded(cells, want.len());
            let got: Vec<&Number> = got.iter().map(|x| x.as_number().unwrap()).collect();
            let want: Vec<Number> = want.iter().map(|w| Number::parse(w).unwrap()).collect();
            assert!(
                got.iter().zip(&want).all(|(g, w)| *g == w),
                "{cells}: {got:?}"
            );
        }
        for (cells, want) in strings {
            let got = decoded(cells, want.len());
            let got: Vec<&str> = got.iter().map(|x| x.as_str().unwrap()).collect();
            assert_eq!(&got, want);
        }
        let v = decode("a: true\nb: null\nc: False", &opts).unwrap();
        assert_eq!(v, json(r#"{"a":true,"b":null,"c":"False"}"#));
    }

    #[test]
    fn lenient_mode_keeps_what_it_finds_and_lets_the_last_write_win() {
        same(
            &[
                // Lengths are not checked and never truncate.
                (
                    "a[1]: x,y\nb[3]:\n  - 1\nc[1]{v}:\n  1\n  2",
                    r#"{"a":["x","y"],"b":[1],"c":[{"v":1},{"v":2}]}"#,
                ),
                ("m[5:]{v}:\n  a: 1", r#"{"m":{"a":{"v":1}}}"#),
                // Duplicates: last value, first position.
                ("a: 1\nb: 2\na: 3", r#"{"a":3,"b":2}"#),
                ("t[1]{a,b,a}:\n  1,2,3", r#"{"t":[{"a":3,"b":2}]}"#),
                ("t[1]{a,a{x}}:\n  1,2", r#"{"t":[{"a":{"x":2}}]}"#),
                ("m[2:]{v}:\n  a: 1\n  a: 2", r#"{"m":{"a":{"v":2}}}"#),
                // Blank lines inside arrays are skipped.
                ("l[2]:\n  - a\n\n  - b", r#"{"l":["a","b"]}"#),
                // Depth is floor(spaces / indent); tabs are one level each; jumps open the scope.
                (
                    "a:\n   b: 1\n   c:\n     d: 2",
                    r#"{"a":{"b":1,"c":{"d":2}}}"#,
                ),
                ("a:\n\tb: 1\n \tc: 2", r#"{"a":{"b":1,"c":2}}"#),
                ("a:\n      b: 1\n      c: 2", r#"{"a":{"b":1,"c":2}}"#),
                // Malformed headers read as key-value lines with a literal key.
                ("foo[1][bar]: 10", r#"{"foo[1][bar]":10}"#),
                ("key[]: 1,2", r#"{"key[]":"1,2"}"#),
                ("foo [2]: a", r#"{"foo [2]":"a"}"#),
                ("a[2|]{x,y}: 1|2", r#"{"a[2|]{x,y}":"1|2"}"#),
                ("t[1]{a}: x", r#"{"t[1]{a}":"x"}"#),
                ("t[1]{}:", r#"{"t[1]{}":{}}"#),
                ("x:\n  [2]: a,b", r#"{"x":{"[2]":"a,b"}}"#),
                ("l[1]:\n  - [1]{a}: z", r#"{"l":[{"[1]{a}":"z"}]}"#),
                // A line without a colon among entry rows is skipped.
                ("u[2:]{x}:\n  a: 1\n  boom", r#"{"u":{"a":{"x":1}}}"#),
            ],
            &with(false, Spec::V4, false),
        );
    }

    #[test]
    fn spec_3_3_mode() {
        let v3 = with(true, Spec::V3, false);
        same(
            &[
                ("# x", r##""# x""##),
                ("a: 1\n\"# b\": 2", r##"{"a":1,"# b":2}"##),
                ("a:\n      b: 1\n      c: 2", r#"{"a":{"b":1,"c":2}}"#),
                ("t[1]:\n    - 1", r#"{"t":[1]}"#),
                ("a.b: 1", r#"{"a.b":1}"#),
            ],
            &v3,
        );
        same(
            &[
                (
                    "a.b.c: 1\na.b.d: 2\na.e: 3",
                    r#"{"a":{"b":{"c":1,"d":2},"e":3}}"#,
                ),
                ("\"a.b\": 1\nc.d: 2", r#"{"a.b":1,"c":{"d":2}}"#),
                (
                    "a-b.c: 1\na..b: 2\n_x.y1: 3",
                    r#"{"a-b.c":1,"a..b":2,"_x":{"y1":3}}"#,
                ),
                ("a.b: 1\na:\n  c: 2", r#"{"a":{"b":1,"c":2}}"#),
                (
                    "l[1]:\n  - a.b: 1\n    a.c[1]: 2",
                    r#"{"l":[{"a":{"b":1,"c":[2]}}]}"#,
                ),
                (
                    "t[1]{a.b,\"c.d\"}:\n  1,2",
                    r#"{"t":[{"a":{"b":1},"c.d":2}]}"#,
                ),
                ("a.b.c:", r#"{"a":{"b":{"c":{}}}}"#),
            ],
            &with(true, Spec::V3, true),
        );
        same(
            &[
                ("a.b: 1\na: 2", r#"{"a":2}"#),
                ("a: 1\na.b: 2", r#"{"a":{"b":2}}"#),
                ("a.b: 1\na.b.c: 2\nz: 0", r#"{"a":{"b":{"c":2}},"z":0}"#),
            ],
            &with(false, Spec::V3, true),
        );
        // Expansion belongs to 3.3: under 4.x a dotted key stays literal.
        same(&[("a.b: 1", r#"{"a.b":1}"#)], &with(true, Spec::V4, true));
    }

    #[test]
    fn lenient_3_3_says_why_a_keyed_header_opened_no_scope() {
        let text = "x: 1\nm[2:]{v}:\n\n  a: 1\n  b: 2";
        let e = decode(text, &with(false, Spec::V3, false)).unwrap_err();
        assert_eq!((e.line(), e.column()), (4, 3));
        assert_eq!(
            e.message(),
            "expected depth 0, found an over-indented line at depth 1: the previous line \
             opens no scope this deep (lenient mode read it as a `key: value` line because \
             its header is malformed: expected a length in '[…]', found a keyed marker \
             '[N:]', which is spec 4 syntax, not 3.3)"
        );
        // Strict mode stops at the header itself.
        let e = decode(text, &with(true, Spec::V3, false)).unwrap_err();
        assert_eq!((e.line(), e.column()), (2, 4));
        // A demoted header further up does not colour an unrelated error.
        let text = "m[2:]{v}: 1\nz:\n  y: 2\n      w: 3";
        let e = decode(text, &with(false, Spec::V3, false)).unwrap_err();
        assert_eq!((e.line(), e.column()), (4, 7));
        assert!(
            e.message()
                .ends_with("the previous line opens no scope this deep"),
            "{}",
            e.message()
        );
    }

    #[test]
    fn large_objects_stay_linear() {
        let n = 50_000;
        let mut keyed = format!("m[{n}:]{{v}}:\n");
        let mut plain = String::new();
        for i in 0..n {
            keyed.push_str(&format!("  k{i}: {i}\n"));
            plain.push_str(&format!("k{i}: {i}\n"));
        }
        for opts in [with(true, Spec::V4, false), with(false, Spec::V4, false)] {
            let v = decode(&keyed, &opts).unwrap();
            assert_eq!(v.get("m").unwrap().as_object().unwrap().len(), n);
            assert_eq!(decode(&plain, &opts).unwrap().as_object().unwrap().len(), n);
        }
        // Half duplicates, resolved last-write-wins through the index.
        let mut dup = String::new();
        for i in 0..n {
            dup.push_str(&format!("k{}: {i}\n", i % (n / 2)));
        }
        let v = decode(&dup, &with(false, Spec::V4, false)).unwrap();
        let m = v.as_object().unwrap();
        assert_eq!(m.len(), n / 2);
        assert_eq!(m.get("k7"), Some(&Value::from(n / 2 + 7)));
        assert_eq!(m.get_index(7).unwrap().0, "k7");
        let e = decode(&dup, &DecodeOptions::default()).unwrap_err();
        assert_eq!((e.kind(), e.line()), (ErrorKind::DuplicateKey, n / 2 + 1));
    }

    #[test]
    fn declared_lengths_never_size_allocations() {
        for text in [
            "a[4294967295]{x}:\n  1",
            "a[18446744073709551615]:\n  - 1",
            "a[99999999999999999999999]: 1",
            "a[4294967295:]{x}:\n  k: 1",
        ] {
            let e = decode(text, &DecodeOptions::default()).unwrap_err();
            assert_eq!(
                (e.kind(), e.line(), e.column()),
                (ErrorKind::CountMismatch, 1, 3),
                "{text}"
            );
            let v = decode(text, &with(false, Spec::V4, false)).unwrap();
            assert!(v.get("a").is_some());
        }
    }

    #[test]
    fn long_lines_and_long_tokens() {
        let s = "x".repeat(10_000_000);
        let v = decode(&format!("a: {s}"), &DecodeOptions::default()).unwrap();
        assert_eq!(v.get("a").unwrap().as_str().unwrap().len(), s.len());
        let digits = "7".repeat(100_000);
        let v = decode(&format!("n: {digits}"), &DecodeOptions::default()).unwrap();
        let n = v.get("n").unwrap().as_number().unwrap();
        assert!(*n == Number::parse(&digits).unwrap());
    }

    #[test]
    fn default_depth_fits_a_test_thread_stack() {
        // 255 nested list items and 255 nested objects, decoded on a 2 MiB test thread.
        let mut list = String::from("a[1]:\n");
        let mut objects = String::new();
        for i in 1..254 {
            list.push_str(&" ".repeat(2 * i));
            list.push_str("- [1]:\n");
        }
        list.push_str(&" ".repeat(2 * 254));
        list.push_str("- x");
        for i in 0..255 {
            objects.push_str(&"  ".repeat(i));
            objects.push_str("k:\n");
        }
        assert_eq!(
            decode(&list, &DecodeOptions::default()).unwrap().depth(),
            255
        );
        assert_eq!(
            decode(&objects, &DecodeOptions::default()).unwrap().depth(),
            256
        );
    }
}
