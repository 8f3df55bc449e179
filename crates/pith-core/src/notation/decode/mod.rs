//! The notation's strict reader: text to [`Value`], exactly as
//! `docs/notation.md` specifies it.
//!
//! # How it works
//!
//! One pass over the bytes after three checks of the whole input (the
//! marker line, UTF-8, no CR). [`lines`] yields content lines with one line
//! of lookahead and refuses what a single line can break (blank lines,
//! trailing spaces, comments, indentation that is not a whole number of
//! units); text blocks read their lines raw. Definitions come first and go
//! into a map from name to value; every `*name` clones its value. The body
//! is read scope by scope, recursing once per level of nesting with the
//! depth checked before each step down; flow values ([`flow`]) and field
//! lists ([`table`]) never nest deeper than [`DecodeOptions::max_depth`]
//! either. Primitives are TOON's own tokens (`toon::decode::token`), so a
//! number, a literal or a quoted string means exactly what it means in TOON.
//! A declared `[N]` never sizes an allocation.
//!
//! Every error names the line and column of the offending byte and says
//! what was expected and what was found.
//!
//! # Readings of the spec
//!
//! Where `docs/notation.md` leaves a choice, the reader takes the stricter
//! one (and the spec says so in place):
//!
//! * an unquoted key (object keys, header keys, field names, entry names,
//!   flow keys) matches `[A-Za-z0-9_$@/][A-Za-z0-9_$@/.+-]*`; any other key
//!   is quoted;
//! * `key: value` has exactly one space after the colon, an inline array
//!   exactly one after its header; cells have no spaces around them; a
//!   field list has no spaces;
//! * an empty cell is refused wherever no `?` column or group allows it
//!   (inline arrays included), and so is a cell of spaces only, and a bare
//!   cell holding `"`, `[`, `]`, `{` or `}`;
//! * a keyed header writes its colon before the delimiter, `[N:|]`, as TOON
//!   does;
//! * a row is never empty: a field list or a group without a field that
//!   takes a cell is refused, and so is a blank row line; a row of a
//!   tab-delimited table may start with its delimiter (its first cell
//!   empty), where anywhere else a tab after the indentation is refused;
//! * a list item holds what a cell may hold, an object, or a `[N]…:`
//!   header;
//! * `~` makes null the outermost group it is the first cell of whose other
//!   cells are all empty;
//! * a text block opened by the first field of a list item (`- key: """`)
//!   is indented one unit deeper than that field, which stands one unit
//!   deeper than the hyphen;
//! * the root of the body is an object, an array header or a primitive: a
//!   flow value or a reference never stands alone at the root;
//! * a template names a sibling column that takes a cell, by its name as
//!   written between `${` and `}`; a bare constant that starts with a
//!   backtick is a template, never a string;
//! * a control character is U+0000–U+001F or U+007F;
//! * what references expand to is bounded ([`EXPANSION_FACTOR`] times the
//!   input, at least [`EXPANSION_FLOOR`] bytes), so a few lines cannot
//!   demand gigabytes.
//!
//! # Lenient mode
//!
//! With `strict: false`, as TOON's lenient decoder does: declared lengths
//! `[N]` are not checked, and every item, row and entry present is kept (a
//! length never truncates; the rows of a table are then all the lines at
//! its row depth); and blank lines outside text blocks are skipped.
//! Everything else stays an error, since no other reading keeps every fact:
//! duplicate keys and names, unused or unknown names, wrong widths, and all
//! the rest of `docs/notation.md` §10.

mod arrays;
mod flow;
mod lines;
mod table;

use self::lines::{Line, Lines};
use self::table::Place;
use super::{EXPANSION_FACTOR, EXPANSION_FLOOR, MARKER, expansion_weight, short_fraction};
use crate::toon::DecodeOptions;
use crate::toon::decode::Fault;
use crate::toon::decode::object::{KeyIndex, SMALL};
use crate::toon::decode::show;
use crate::toon::decode::token::{Tok, scan_unquoted};
use crate::{Error, ErrorKind, Key, Map, Result, Value};
use std::collections::HashMap;

/// Decodes a notation document.
///
/// The text must start with the marker line `%pith` (see
/// [`MARKER`](super::MARKER)); `opts.indent`, `opts.max_depth` and
/// `opts.strict` apply as for TOON (see the module docs for what lenient
/// mode relaxes); `opts.spec` and `opts.expand_paths` do not apply.
///
/// ```
/// use pith::toon::DecodeOptions;
/// let text = "%pith\n&ada: {login:ada,id:1}\n[2]{n,user}:\n1,*ada\n2,*ada";
/// let v = pith::notation::decode(text.as_bytes(), &DecodeOptions::default()).unwrap();
/// assert_eq!(
///     pith::json::stringify(&v),
///     r#"[{"n":1,"user":{"login":"ada","id":1}},{"n":2,"user":{"login":"ada","id":1}}]"#
/// );
/// ```
///
/// # Errors
///
/// Every refusal of `docs/notation.md` §10, with the line and column of the
/// offending byte, and a document whose references would expand to more
/// than 64 times its length (at least 64 MiB) is refused, as excess depth
/// is: [`ErrorKind::Syntax`] for malformed text,
/// [`ErrorKind::InvalidUtf8`], [`ErrorKind::DuplicateKey`] for keys and
/// names given twice, [`ErrorKind::CountMismatch`] and
/// [`ErrorKind::WidthMismatch`] for counts and rows, [`ErrorKind::Header`]
/// for table headers, [`ErrorKind::Structure`] for misplaced lines, cells
/// and names (and for the expansion bound), [`ErrorKind::Type`] for template fields whose value is not
/// text, [`ErrorKind::DepthLimit`] and TOON's errors for its tokens.
pub fn decode(text: &[u8], opts: &DecodeOptions) -> Result<Value> {
    let start = marker(text)?;
    let Ok(s) = std::str::from_utf8(text) else {
        return Err(invalid_utf8(text));
    };
    if let Some(cr) = text.iter().position(|&b| b == b'\r') {
        return Err(carriage_return(text, cr));
    }
    let mut p = Parser {
        tok: Tok { text: s, src: text },
        src: text,
        lines: Lines::new(text, start, opts.indent, opts.strict),
        strict: opts.strict,
        indent: opts.indent.max(1),
        max_depth: crate::depth_limit(opts.max_depth),
        defs: Vec::new(),
        names: HashMap::new(),
        in_prelude: true,
        budget: text
            .len()
            .saturating_mul(EXPANSION_FACTOR)
            .max(EXPANSION_FLOOR),
        cells: Vec::new(),
        filled: Vec::new(),
    };
    p.document().map_err(|f| f.into_error(text))
}

/// Checks the marker line; returns the offset of the line after it.
fn marker(text: &[u8]) -> Result<usize> {
    let want = MARKER.as_bytes();
    let first_line = &text[..text.iter().position(|&b| b == b'\n').unwrap_or(text.len())];
    for (i, &m) in want.iter().enumerate() {
        if text.get(i) != Some(&m) {
            let shown = String::from_utf8_lossy(&first_line[..first_line.len().min(40)]);
            return Err(Error::at_offset(
                ErrorKind::Syntax,
                text,
                i,
                format!(
                    "expected the marker line `{MARKER}` first in a notation document, found `{}`",
                    shown.escape_debug()
                ),
            ));
        }
    }
    match text.get(want.len()) {
        Some(b'\n') => Ok(want.len() + 1),
        // The last line's line feed may be left out: the empty body.
        None => Ok(want.len()),
        Some(b'\r') => Err(carriage_return(text, want.len())),
        Some(_) => Err(Error::at_offset(
            ErrorKind::Syntax,
            text,
            want.len(),
            format!(
                "expected the marker line to be exactly `{MARKER}`, found more on it: `{}`",
                String::from_utf8_lossy(&first_line[..first_line.len().min(40)]).escape_debug()
            ),
        )),
    }
}

/// The error for the carriage return at `at`.
fn carriage_return(text: &[u8], at: usize) -> Error {
    Error::at_offset(
        ErrorKind::Syntax,
        text,
        at,
        "expected lines that end with a line feed alone, found a carriage return (a \
         notation document holds no CR; a string holds it as the escape \\r)",
    )
}

fn invalid_utf8(bytes: &[u8]) -> Error {
    let e = match std::str::from_utf8(bytes) {
        Err(e) => e,
        Ok(_) => return Error::new(ErrorKind::InvalidUtf8, "expected UTF-8 text"),
    };
    let at = e.valid_up_to();
    let msg = match (e.error_len(), bytes.get(at)) {
        (Some(_), Some(b)) => format!("expected UTF-8 text, found the ill-formed byte 0x{b:02X}"),
        _ => "expected UTF-8 text, found a sequence cut off by the end of the input".to_owned(),
    };
    Error::at_offset(ErrorKind::InvalidUtf8, bytes, at, msg)
}

type R<T> = std::result::Result<T, Fault>;

/// The primitive an unquoted or quoted token `[a, e)` spells: TOON's
/// reading, and the notation's short-form numbers (`.5`, `-.25`; §6).
fn scalar(tok: &Tok<'_>, a: usize, e: usize) -> R<Value> {
    if matches!(tok.src[a], b'.' | b'-')
        && let Some(n) = short_fraction(&tok.src[a..e])
    {
        return Ok(Value::Number(n));
    }
    tok.value_token(a, e)
}

#[cold]
fn fault(kind: ErrorKind, at: usize, msg: impl Into<String>) -> Fault {
    Fault::new(kind, at, msg)
}

/// A byte for a message: quoted, or named when it is not printable.
fn show_byte(b: u8) -> String {
    match b {
        b'\t' => "a tab".to_owned(),
        b' ' => "a space".to_owned(),
        0x21..=0x7e => format!("'{}'", b as char),
        _ if b >= 0x80 => "a non-ASCII character".to_owned(),
        _ => format!("U+{b:04X}"),
    }
}

/// The end of the unquoted key ([`KEY_PATTERN`](super::KEY_PATTERN))
/// starting at `p` (`p` itself when none starts there).
fn identifier_end(src: &[u8], p: usize, e: usize) -> usize {
    span_end(src, p, e, super::is_key_start, super::is_key_byte)
}

/// The end of the name (§7) starting at `p` (`p` itself when none starts there).
fn name_end(src: &[u8], p: usize, e: usize) -> usize {
    span_end(
        src,
        p,
        e,
        |b| b.is_ascii_alphanumeric() || b == b'_',
        |b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/' | b'~'),
    )
}

/// The end of a run within `[p, e)` of a byte that `first` takes, then
/// bytes that `rest` takes (`p` itself when `first` does not take `p`'s).
#[inline]
fn span_end(
    src: &[u8],
    p: usize,
    e: usize,
    first: impl Fn(u8) -> bool,
    rest: impl Fn(u8) -> bool,
) -> usize {
    if p >= e || !src.get(p).is_some_and(|&b| first(b)) {
        return p;
    }
    let mut q = p + 1;
    while q < e && rest(src[q]) {
        q += 1;
    }
    q
}

/// The members of an object under construction, each key once; past
/// [`SMALL`] keys a hash index answers the duplicate checks.
pub(super) struct Members {
    entries: Vec<(Key, Value)>,
    index: Option<KeyIndex>,
}

impl Members {
    fn new() -> Members {
        Members {
            entries: Vec::new(),
            index: None,
        }
    }

    /// Adds a member; a key already present is a [`ErrorKind::DuplicateKey`] at `at`.
    fn insert(&mut self, name: String, at: usize, v: Value) -> R<()> {
        let found = match &self.index {
            Some(ix) => ix.find(self.entries.as_slice(), &name),
            None => self.entries.iter().position(|(k, _)| *k == name),
        };
        if found.is_some() {
            return Err(fault(
                ErrorKind::DuplicateKey,
                at,
                format!(
                    "expected distinct keys in an object, found {} again",
                    show(&name)
                ),
            ));
        }
        self.entries.push((name.into(), v));
        let n = self.entries.len();
        match &mut self.index {
            Some(ix) => ix.insert(self.entries.as_slice(), n - 1),
            None if n > SMALL => self.index = Some(KeyIndex::build(self.entries.as_slice(), n)),
            None => {}
        }
        Ok(())
    }

    fn into_map(self) -> Map {
        Map::from_unique_entries(self.entries)
    }
}

/// A definition (§7).
struct Def {
    /// Offset of its `&`.
    at: usize,
    value: Value,
    /// [`Value::depth`] of the value.
    depth: usize,
    /// What one use of it costs the expansion budget.
    weight: usize,
    used: bool,
}

/// One cell of a row (§4), with the offset it starts at.
#[derive(Debug)]
pub(super) enum Cell {
    Empty,
    Null,
    Value(Value),
}

/// What a line in a value position holds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// A key then `:` or `[`: an object's field.
    Field,
    /// A value standing alone.
    Value,
}

/// The reader's state over one document.
pub(super) struct Parser<'a> {
    tok: Tok<'a>,
    src: &'a [u8],
    lines: Lines<'a>,
    strict: bool,
    indent: usize,
    max_depth: usize,
    defs: Vec<Def>,
    names: HashMap<String, usize>,
    /// Definitions are being read (an unknown name may be defined below).
    in_prelude: bool,
    /// Bytes that references may still expand to.
    budget: usize,
    /// Reused buffer of one row's cells.
    cells: Vec<(Cell, usize)>,
    /// Reused buffer: for each cell of a row, the first filled cell from it on.
    filled: Vec<usize>,
}

impl<'a> Parser<'a> {
    fn document(&mut self) -> R<Value> {
        while let Some(line) = self.lines.peek()? {
            if line.depth != 0 || self.src[line.start] != b'&' {
                break;
            }
            self.lines.advance();
            self.definition(line)?;
        }
        self.in_prelude = false;
        let body = self.body()?;
        if let Some(d) = self.defs.iter().find(|d| !d.used) {
            let e = name_end(self.src, d.at + 1, self.src.len());
            return Err(fault(
                ErrorKind::Structure,
                d.at,
                format!(
                    "expected every definition to be used, found `&{}` used nowhere",
                    self.tok.s(d.at + 1, e)
                ),
            ));
        }
        Ok(body)
    }

    /// `&name: value` (§7).
    fn definition(&mut self, line: Line) -> R<()> {
        let (s, e) = (line.start, line.end);
        let src = self.src;
        let ne = name_end(src, s + 1, e);
        if ne == s + 1 {
            return Err(fault(
                ErrorKind::Syntax,
                s + 1,
                format!(
                    "expected a name (letters, digits, '_', then also '-', '.', '/', '~') after \
                     '&', found {}",
                    src.get(s + 1)
                        .filter(|_| s + 1 < e)
                        .map_or("the end of the line".to_owned(), |&b| show_byte(b))
                ),
            ));
        }
        let name = self.tok.s(s + 1, ne);
        if src.get(ne) != Some(&b':') || ne >= e {
            return Err(fault(
                ErrorKind::Syntax,
                ne,
                format!(
                    "expected ': ' and a value after the name of a definition, found {}",
                    if ne >= e {
                        "the end of the line".to_owned()
                    } else {
                        show_byte(src[ne])
                    }
                ),
            ));
        }
        self.unique(name, s + 1)?;
        let a = self.after_colon(ne, e, "a definition's value")?;
        let value = if self.is_block(a, e) {
            Value::String(self.text_block(1, a)?)
        } else {
            self.value(a, e, 0)?
        };
        let name = name.to_owned();
        self.give(name, s, value);
        Ok(())
    }

    /// Refuses a name given before.
    fn unique(&self, name: &str, at: usize) -> R<()> {
        if let Some(&first) = self.names.get(name) {
            let pos = crate::Position::at(self.src, self.defs[first].at);
            return Err(fault(
                ErrorKind::DuplicateKey,
                at,
                format!(
                    "expected each name given once, found `{name}` again (first given on line {})",
                    pos.line
                ),
            ));
        }
        Ok(())
    }

    /// Records the name given at `at` (a definition or an anchor).
    fn give(&mut self, name: String, at: usize, value: Value) {
        let depth = value.depth();
        let weight = expansion_weight(&value);
        self.names.insert(name, self.defs.len());
        self.defs.push(Def {
            at,
            value,
            depth,
            weight,
            used: false,
        });
    }

    /// The anchor `&name value` at `a` (§7): reads the name and the space,
    /// then the primitive with `read` (from where it starts), names it, and
    /// returns it with the offset after it.
    pub(super) fn anchor(
        &mut self,
        a: usize,
        e: usize,
        read: impl FnOnce(&mut Self, usize) -> R<(Value, usize)>,
    ) -> R<(Value, usize)> {
        let src = self.src;
        let ne = name_end(src, a + 1, e);
        if ne == a + 1 {
            return Err(fault(
                ErrorKind::Syntax,
                a + 1,
                format!(
                    "expected a name after '&' (an anchor, `&name value`), found {}",
                    if a + 1 >= e {
                        "the end of the value".to_owned()
                    } else {
                        show_byte(src[a + 1])
                    }
                ),
            ));
        }
        if ne >= e || src[ne] != b' ' {
            return Err(fault(
                ErrorKind::Syntax,
                ne,
                format!(
                    "expected one space and a value after the anchor's name, found {}",
                    if ne >= e {
                        "the end of the value".to_owned()
                    } else {
                        show_byte(src[ne])
                    }
                ),
            ));
        }
        let v = ne + 1;
        if v >= e || matches!(src[v], b' ' | b'&' | b'*' | b'[' | b'{') {
            return Err(fault(
                ErrorKind::Syntax,
                v,
                "expected a primitive after an anchor's name (an anchor names a string, number, \
                 boolean or null; arrays and objects are defined in the prelude)",
            ));
        }
        let name = self.tok.s(a + 1, ne).to_owned();
        self.unique(&name, a + 1)?;
        let (value, end) = read(self, v)?;
        if !value.is_primitive() {
            return Err(fault(
                ErrorKind::Syntax,
                v,
                "expected a primitive after an anchor's name, found an array or an object",
            ));
        }
        self.give(name, a, value.clone());
        Ok((value, end))
    }

    /// Checks `: ` and a value after the colon at `colon`; returns where the value starts.
    fn after_colon(&self, colon: usize, e: usize, what: &str) -> R<usize> {
        let src = self.src;
        if colon + 1 >= e {
            return Err(fault(
                ErrorKind::Syntax,
                colon + 1,
                format!("expected ': ' and {what}, found the end of the line"),
            ));
        }
        if src[colon + 1] != b' ' {
            return Err(fault(
                ErrorKind::Syntax,
                colon + 1,
                format!(
                    "expected one space after ':' and then {what}, found {}",
                    show_byte(src[colon + 1])
                ),
            ));
        }
        if colon + 2 >= e || src[colon + 2] == b' ' {
            return Err(fault(
                ErrorKind::Syntax,
                colon + 2,
                format!("expected {what} after exactly one space, found more spaces"),
            ));
        }
        Ok(colon + 2)
    }

    /// The body (§2): an object, an array or a primitive.
    fn body(&mut self) -> R<Value> {
        let Some(line) = self.lines.peek()? else {
            self.level(1, self.src.len())?;
            return Ok(Value::Object(Map::new()));
        };
        if line.depth != 0 {
            return Err(fault(
                ErrorKind::Indentation,
                line.start,
                format!(
                    "expected the body to start at indentation 0, found depth {}",
                    line.depth
                ),
            ));
        }
        let (s, e) = (line.start, line.end);
        match self.src[s] {
            b'[' => {
                if !self.looks_like_header(s, e) {
                    return Err(fault(
                        ErrorKind::Structure,
                        s,
                        "expected an array header `[N]…:` at the root, found a flow value: the \
                         root of a notation document is an object, an array header or a primitive",
                    ));
                }
                self.lines.advance();
                let v = self.header_value(s, e, 0, 1, Place::Root)?;
                if let Some(next) = self.lines.peek()? {
                    return Err(fault(
                        ErrorKind::TrailingContent,
                        next.start,
                        format!(
                            "expected the end of the document after the root {}, found {}",
                            if matches!(v, Value::Object(_)) {
                                "keyed table"
                            } else {
                                "array"
                            },
                            self.tok.snippet(next.start, next.end)
                        ),
                    ));
                }
                Ok(v)
            }
            b'{' | b'*' => Err(fault(
                ErrorKind::Structure,
                s,
                format!(
                    "expected an object's lines, an array header or a primitive at the root, found {}: \
                     a flow value or a reference stands only where a value is named or listed",
                    if self.src[s] == b'*' {
                        "a reference"
                    } else {
                        "a flow value"
                    }
                ),
            )),
            _ => match self.classify(s, e) {
                Class::Field => {
                    self.level(1, s)?;
                    let mut obj = Members::new();
                    self.fields(0, 1, &mut obj)?;
                    Ok(Value::Object(obj.into_map()))
                }
                Class::Value => {
                    self.lines.advance();
                    let v = self.primitive(s, e)?;
                    if let Some(next) = self.lines.peek()? {
                        return Err(fault(
                            ErrorKind::TrailingContent,
                            next.start,
                            format!(
                                "expected the end of the document after a root primitive, found {}",
                                self.tok.snippet(next.start, next.end)
                            ),
                        ));
                    }
                    Ok(v)
                }
            },
        }
    }

    /// Whether `[s, e)` starts with a bracket segment `[N…]` followed by `{`
    /// or `:`: a header, not a flow value.
    fn looks_like_header(&self, s: usize, e: usize) -> bool {
        let src = self.src;
        let mut q = s + 1;
        let digits = q;
        while q < e && src[q].is_ascii_digit() {
            q += 1;
        }
        if q == digits {
            return false;
        }
        if q < e && src[q] == b':' {
            q += 1;
        }
        if q < e && matches!(src[q], b'\t' | b'|') {
            q += 1;
        }
        q + 1 < e && src[q] == b']' && matches!(src[q + 1], b':' | b'{')
    }

    /// Whether a line in a value position (`[s, e)`) is an object's field
    /// or a value: a field starts with a key followed by `:` or `[`, and a
    /// line with an unquoted colon is taken for one, as TOON does.
    pub(super) fn classify(&self, s: usize, e: usize) -> Class {
        let src = self.src;
        match src[s] {
            b'"' => match self.tok.closing_quote(s, e) {
                Some(q) if q + 1 < e && matches!(src[q + 1], b':' | b'[') => Class::Field,
                _ => Class::Value,
            },
            b'[' | b'{' | b'*' => Class::Value,
            _ => match scan_unquoted(src, s, e, |i, b| (b == b':').then_some(i)) {
                Some(_) => Class::Field,
                None => Class::Value,
            },
        }
    }

    /// The fields at depth `d` of the object at level `level`.
    fn fields(&mut self, d: usize, level: usize, obj: &mut Members) -> R<()> {
        while let Some(line) = self.lines.peek()? {
            if line.depth < d {
                break;
            }
            if line.depth > d {
                return Err(self.misplaced(line, d));
            }
            self.lines.advance();
            self.field(line.start, line.end, d, level, obj)?;
        }
        Ok(())
    }

    /// The key at `s` (quoted, or an identifier): its name and the offset after it.
    fn key(&self, s: usize, e: usize) -> R<(String, usize)> {
        let src = self.src;
        if src[s] == b'"' {
            return self.tok.quoted(s, e);
        }
        let end = identifier_end(src, s, e);
        if end == s {
            let msg = if src[s] == b'&' {
                "expected a key, found '&': definitions come before the body, and a key that \
                 starts with '&' is quoted"
                    .to_owned()
            } else {
                format!(
                    "expected a key (`{}` or a quoted string), found {}",
                    super::KEY_PATTERN,
                    self.tok.snippet(s, e)
                )
            };
            return Err(fault(ErrorKind::Syntax, s, msg));
        }
        Ok((self.tok.s(s, end).to_owned(), end))
    }

    /// One field, content `[s, e)`, standing at depth `d` in the object at level `level`.
    fn field(&mut self, s: usize, e: usize, d: usize, level: usize, obj: &mut Members) -> R<()> {
        let src = self.src;
        let (name, k) = self.key(s, e)?;
        let v = match src.get(k).filter(|_| k < e) {
            Some(b':') if k + 1 == e => {
                self.level(level + 1, s)?;
                let mut child = Members::new();
                if let Some(next) = self.lines.peek()?
                    && next.depth > d
                {
                    self.fields(d + 1, level + 1, &mut child)?;
                }
                Value::Object(child.into_map())
            }
            Some(b':') => {
                let a = self.after_colon(k, e, "a value")?;
                if self.is_block(a, e) {
                    Value::String(self.text_block(d + 1, a)?)
                } else {
                    self.value(a, e, level)?
                }
            }
            Some(b'[') => self.header_value(k, e, d, level + 1, Place::Field)?,
            found => {
                let found = found.map_or("the end of the line".to_owned(), |&b| show_byte(b));
                let hint = if src[s] == b'"' {
                    String::new()
                } else {
                    format!(
                        " (an unquoted key matches `{}`; any other key is quoted)",
                        super::KEY_PATTERN
                    )
                };
                return Err(fault(
                    ErrorKind::Syntax,
                    k,
                    format!(
                        "expected ':' or '[' after the key {}, found {found}{hint}",
                        show(&name)
                    ),
                ));
            }
        };
        obj.insert(name, s, v)
    }

    /// Whether the value `[a, e)` opens a text block.
    fn is_block(&self, a: usize, e: usize) -> bool {
        &self.src[a..e] == b"\"\"\""
    }

    /// A value after `key: ` or `&name: ` or `- ` (a flow value, a
    /// reference or a primitive), spanning `[a, e)`, as a member of a
    /// container at level `parent`.
    fn value(&mut self, a: usize, e: usize, parent: usize) -> R<Value> {
        let (v, end) = match self.src[a] {
            b'[' | b'{' => self.flow(a, e, parent, true)?,
            b'*' => self.reference(a, e, parent)?,
            b'&' => self.anchor(a, e, |p, v| Ok((p.primitive(v, e)?, e)))?,
            _ => return self.primitive(a, e),
        };
        if end != e {
            return Err(fault(
                ErrorKind::Syntax,
                end,
                format!(
                    "expected the end of the line after the {}, found {}",
                    if self.src[a] == b'*' {
                        "reference"
                    } else if self.src[a] == b'&' {
                        "anchored value"
                    } else {
                        "flow value"
                    },
                    self.tok.snippet(end, e)
                ),
            ));
        }
        Ok(v)
    }

    /// A primitive token `[a, e)` under TOON's rules and the notation's four
    /// more quoted strings (§6).
    fn primitive(&self, a: usize, e: usize) -> R<Value> {
        let src = self.src;
        if let Some(why) = self.needs_quotes(a, e) {
            return Err(fault(
                ErrorKind::Syntax,
                a,
                format!("expected a value, found {} {why}", self.tok.snippet(a, e)),
            ));
        }
        if src[a] == b'"' && src[a..e].starts_with(b"\"\"\"") {
            return Err(fault(
                ErrorKind::Syntax,
                a,
                "expected a quoted string or a text block, found '\"\"\"' followed by more: a text \
                 block's '\"\"\"' stands alone after `key: ` or `&name: `",
            ));
        }
        scalar(&self.tok, a, e)
    }

    /// Why an unquoted token `[a, e)` cannot be a string of the notation.
    fn needs_quotes(&self, a: usize, e: usize) -> Option<&'static str> {
        match self.src[a] {
            b'&' => Some("(a string that starts with '&' is quoted in the notation)"),
            b'*' => Some("(a string that starts with '*' is quoted in the notation)"),
            b'[' | b'{' => Some("(a string that starts with '[' or '{' is quoted in the notation)"),
            b'~' if e == a + 1 => Some(
                "(the string `~` is quoted in the notation; `~` alone marks a null group in a cell)",
            ),
            _ => None,
        }
    }

    /// The reference `*name` at `a`, as a member of a container at level
    /// `parent`: its value, and the offset after the name.
    fn reference(&mut self, a: usize, e: usize, parent: usize) -> R<(Value, usize)> {
        let end = name_end(self.src, a + 1, e);
        if end == a + 1 {
            return Err(fault(
                ErrorKind::Syntax,
                a + 1,
                format!(
                    "expected a name after '*', found {}",
                    if a + 1 >= e {
                        "the end of the value".to_owned()
                    } else {
                        show_byte(self.src[a + 1])
                    }
                ),
            ));
        }
        let name = self.tok.s(a + 1, end);
        let Some(&i) = self.names.get(name) else {
            return Err(self.unknown(name, a));
        };
        let def = &mut self.defs[i];
        if parent + def.depth > self.max_depth {
            return Err(fault(
                ErrorKind::DepthLimit,
                a,
                format!(
                    "expected nesting at most {} levels deep, found `*{name}` nesting deeper where it is used",
                    self.max_depth
                ),
            ));
        }
        if def.weight > self.budget {
            return Err(fault(
                ErrorKind::Structure,
                a,
                format!(
                    "expected references to expand to at most {EXPANSION_FACTOR} times the input \
                     (or {} MiB), found `*{name}` expanding beyond it",
                    EXPANSION_FLOOR >> 20
                ),
            ));
        }
        self.budget -= def.weight;
        def.used = true;
        Ok((def.value.clone(), end))
    }

    #[cold]
    fn unknown(&self, name: &str, at: usize) -> Fault {
        if self.in_prelude {
            // Defined further down? Look for its definition line.
            let src = self.src;
            let mut p = self.lines.pos();
            while p < src.len() {
                let e = src[p..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(src.len(), |n| p + n);
                if src[p] == b'&'
                    && name_end(src, p + 1, e) == p + 1 + name.len()
                    && &src[p + 1..p + 1 + name.len()] == name.as_bytes()
                {
                    return fault(
                        ErrorKind::Structure,
                        at,
                        format!(
                            "expected `*{name}` to name a definition above it, found it defined \
                             below, on line {}",
                            crate::Position::at(src, p).line
                        ),
                    );
                }
                p = e + 1;
            }
        }
        fault(
            ErrorKind::Structure,
            at,
            format!("expected a defined name after '*', found `*{name}`, which is not defined"),
        )
    }

    /// A text block (§8) whose `"""` is at `open`, its lines indented
    /// `depth` units.
    fn text_block(&mut self, depth: usize, open: usize) -> R<String> {
        let src = self.src;
        let width = depth.saturating_mul(self.indent);
        let mut out = String::new();
        let mut first = true;
        while let Some((s, e)) = self.lines.raw() {
            let spaces = src[s..e]
                .iter()
                .take(width)
                .take_while(|&&b| b == b' ')
                .count();
            if spaces == width && &src[s + width..e] == b"\"\"\"" {
                return Ok(out);
            }
            if !first {
                out.push('\n');
            }
            first = false;
            if s == e {
                continue;
            }
            if spaces < width {
                return Err(fault(
                    ErrorKind::Indentation,
                    s + spaces,
                    format!(
                        "expected a text block line indented by {width} spaces (or an empty line), \
                         found {spaces}: the block ends with '\"\"\"' at its indentation"
                    ),
                ));
            }
            if let Some(c) = src[s + width..e]
                .iter()
                .position(|&b| (b < 0x20 && b != b'\t') || b == 0x7f)
            {
                return Err(fault(
                    ErrorKind::Syntax,
                    s + width + c,
                    format!(
                        "expected text without control characters in a text block, found U+{:04X}",
                        src[s + width + c]
                    ),
                ));
            }
            out.push_str(self.tok.s(s + width, e));
        }
        Err(fault(
            ErrorKind::Syntax,
            src.len(),
            format!(
                "expected the closing line '\"\"\"' at indentation {width} of the text block opened \
                 on line {}, found the end of the document",
                crate::Position::at(src, open).line
            ),
        ))
    }

    /// A list (`key[N]:` and `- ` items at depth `d + 1`) at level `level`.
    fn list(&mut self, count: table::Count<'_>, d: usize, level: usize) -> R<Value> {
        let mut items = Vec::new();
        while let Some(line) = self.lines.peek()? {
            if line.depth <= d {
                break;
            }
            if line.depth != d + 1 {
                return Err(self.misplaced(line, d + 1));
            }
            let c = &self.src[line.start..line.end];
            if !(c == b"-" || c.starts_with(b"- ")) {
                return Err(fault(
                    ErrorKind::Structure,
                    line.start,
                    format!(
                        "expected a list item '- …' at depth {}, found {}",
                        d + 1,
                        self.tok.snippet(line.start, line.end)
                    ),
                ));
            }
            if self.strict && items.len() == count.length {
                return Err(count.surplus(line.start, "list item", "list items"));
            }
            self.lines.advance();
            let v = self.item(line, level)?;
            items.push(v);
        }
        if self.strict && items.len() != count.length {
            return Err(count.mismatch("list item", "list items", items.len()));
        }
        Ok(Value::Array(items))
    }

    /// One list item of an array at level `level`.
    fn item(&mut self, line: Line, level: usize) -> R<Value> {
        let (s, e, d) = (line.start, line.end, line.depth);
        if e - s == 1 {
            self.level(level + 1, s)?;
            return Ok(Value::Object(Map::new()));
        }
        let a = s + 2;
        let src = self.src;
        if src[a] == b' ' {
            return Err(fault(
                ErrorKind::Syntax,
                a,
                "expected the item right after '- ', found another space",
            ));
        }
        if src[a] == b'[' && self.looks_like_header(a, e) {
            return self.header_value(a, e, d, level + 1, Place::Item);
        }
        match self.classify(a, e) {
            Class::Field => {
                self.level(level + 1, a)?;
                let mut obj = Members::new();
                self.field(a, e, d + 1, level + 1, &mut obj)?;
                self.fields(d + 1, level + 1, &mut obj)?;
                Ok(Value::Object(obj.into_map()))
            }
            Class::Value => self.value(a, e, level),
        }
    }

    /// A line at a depth where no open scope takes it.
    fn misplaced(&self, line: Line, expected: usize) -> Fault {
        let msg = if line.depth > expected {
            format!(
                "expected depth {expected}, found an over-indented line at depth {}: the previous \
                 line opens no scope this deep",
                line.depth
            )
        } else {
            format!(
                "expected depth {expected}, found depth {}, where no open scope takes the line",
                line.depth
            )
        };
        fault(ErrorKind::Structure, line.start, msg)
    }

    /// The end of the bare token (a cell, a constant, a flow primitive)
    /// starting at `p`: the first byte `stop` accepts, or `e`. A byte that
    /// `quoted` accepts is refused (such a string is quoted), and so is a
    /// space before the end. `what` names the token, `next` what ends it.
    fn bare_end(
        &self,
        p: usize,
        e: usize,
        stop: impl Fn(u8) -> bool,
        quoted: impl Fn(u8) -> bool,
        (kind, what, next): (ErrorKind, &str, &str),
    ) -> R<usize> {
        let src = self.src;
        let mut q = p;
        while q < e && !stop(src[q]) {
            if quoted(src[q]) {
                return Err(fault(
                    kind,
                    q,
                    format!(
                        "expected {what} without {} (quote it), found one",
                        show_byte(src[q])
                    ),
                ));
            }
            q += 1;
        }
        if q > p && src[q - 1] == b' ' {
            let mut first = q - 1;
            while first > p && src[first - 1] == b' ' {
                first -= 1;
            }
            return Err(fault(
                kind,
                first,
                format!(
                    "expected {next} right after {what}, found a space (no spaces stand around \
                     cells, constants and flow members)"
                ),
            ));
        }
        Ok(q)
    }

    /// Refuses a container at nesting level `level` beyond the depth limit.
    fn level(&self, level: usize, at: usize) -> R<()> {
        if level > self.max_depth {
            return Err(crate::toon::decode::too_deep(self.max_depth, at));
        }
        Ok(())
    }
}
