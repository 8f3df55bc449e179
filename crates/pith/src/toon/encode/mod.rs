//! The TOON writer.
//!
//! One recursive walk over the value writes straight into a byte buffer: no
//! line strings, no per-value allocation. Layout follows spec 4.x exactly as
//! `@toon-format/toon` 4.4.0 lays it out ([`Spec::V4`]), or spec 3.3 as
//! `@toon-format/toon` 2.3.1 does ([`Spec::V3`]), byte for byte:
//!
//! * objects: `key: value` lines, nested objects indented under `key:`;
//! * arrays of primitives inline, `key[N]: a,b,c`; empty arrays `key: []`;
//! * arrays of objects with one key set and primitive cells as tables,
//!   `key[N]{f1,f2}:` and one row per element; in 4.x a column of uniform
//!   objects becomes a nested field group, `f{x,y}`, and an object of at least
//!   two uniform objects a keyed table, `key[N:]{f1,f2}:` with `name: cells` rows;
//! * everything else as a list of `- ` items.
//!
//! Table rows take the header's field order, which comes from the first row.
//!
//! Nesting is bounded by [`EncodeOptions::max_depth`]: a value whose
//! [`Value::depth`] exceeds it is refused with [`ErrorKind::DepthLimit`] and the
//! JSON path of the first container too deep, and the writer never recurses
//! further than that.

pub(crate) mod quote;
mod table;

use self::quote::{Quoting, write_key, write_quoted};
use self::table::{Group, Tables, cell};
use super::fold::{Collisions, is_path, try_fold};
use super::{Delimiter, EncodeOptions, KeyFolding, Spec};
use crate::{Error, ErrorKind, Map, Result, Value};
use std::io::Write;

/// Encodes `value` as TOON text.
///
/// # Errors
///
/// [`ErrorKind::DepthLimit`] for a value nested deeper than
/// [`EncodeOptions::max_depth`] (with its JSON path),
/// [`ErrorKind::Indentation`] for an indent of 0, and
/// [`ErrorKind::Unrepresentable`] for key folding with [`Spec::V4`] (4.x
/// readers take dotted keys literally, so folding would change the value).
///
/// ```
/// use pith::toon::{encode, EncodeOptions};
/// use pith::Value;
///
/// let rows: Vec<Value> = (1..=2)
///     .map(|i| Value::Object([("id", Value::from(i)), ("ok", Value::from(i == 1))].into_iter().collect()))
///     .collect();
/// let doc = Value::Object([("rows", Value::Array(rows))].into_iter().collect());
/// assert_eq!(encode(&doc, &EncodeOptions::default())?, "rows[2]{id,ok}:\n  1,true\n  2,false");
/// # Ok::<(), pith::Error>(())
/// ```
pub fn encode(value: &Value, opts: &EncodeOptions) -> Result<String> {
    let mut out = Vec::new();
    encode_into(value, opts, &mut out)?;
    String::from_utf8(out)
        .map_err(|_| Error::new(ErrorKind::InvalidUtf8, "encoder produced invalid utf-8"))
}

/// Encodes `value` as TOON text into `writer`, in chunks of about 64 KiB, and
/// flushes it. Memory use stays at one chunk plus the longest line.
///
/// Errors are those of [`encode`] and [`ErrorKind::Io`]; what was written
/// before an error stays written.
pub fn encode_to<W: Write>(value: &Value, opts: &EncodeOptions, mut writer: W) -> Result<()> {
    let mut buf = Vec::with_capacity(CHUNK + CHUNK / 4);
    Encoder::new(value, opts, &mut buf, Stream(&mut writer))?.run()?;
    writer.write_all(&buf).map_err(Error::io)?;
    writer.flush().map_err(Error::io)
}

/// Appends the TOON text of `value` to `out`. On error `out` is left as it was.
pub fn encode_into(value: &Value, opts: &EncodeOptions, out: &mut Vec<u8>) -> Result<()> {
    let len = out.len();
    let result = Encoder::new(value, opts, out, Buffer).and_then(Encoder::run);
    if result.is_err() {
        out.truncate(len);
    }
    result
}

/// TOON's tokens as [`encode`] writes them in spec 4.x without key folding:
/// string values quoted only when the rules require it, keys bare only when
/// identifier-like. For writers that lay TOON out from values held
/// elsewhere than a [`Value`] tree (pith's language bindings), so that every
/// token follows the one set of rules.
#[doc(hidden)]
pub struct Tokens {
    q: Quoting,
}

impl Tokens {
    /// The rules for documents whose delimiter is `delimiter`.
    pub fn new(delimiter: super::Delimiter) -> Tokens {
        let d = match delimiter {
            super::Delimiter::Comma => b',',
            super::Delimiter::Tab => b'\t',
            super::Delimiter::Pipe => b'|',
        };
        Tokens {
            q: Quoting::new(d, super::Spec::V4),
        }
    }

    /// Appends the string value `s`.
    #[inline]
    pub fn string(&self, out: &mut Vec<u8>, s: &str) {
        self.q.string(out, s);
    }

    /// Appends the key `k`.
    #[inline]
    pub fn key(&self, out: &mut Vec<u8>, k: &str) {
        write_key(out, k);
    }
}

/// The key an array or a table is written under.
#[derive(Clone, Copy)]
enum Key<'k> {
    /// None: the value is the root.
    Root,
    /// A key of the value.
    Literal(&'k str),
    /// A folded key, `a.b.c`, there for path expansion to split.
    Folded(&'k str),
}

impl Key<'_> {
    fn is_root(self) -> bool {
        matches!(self, Key::Root)
    }
}

/// A line break and the indentation of most lines.
const LINE_START: [u8; 32] = {
    let mut b = [b' '; 32];
    b[0] = b'\n';
    b
};

/// How much [`encode_to`] buffers before writing.
const CHUNK: usize = 64 * 1024;

/// Where finished bytes go: nowhere until the end ([`Buffer`]) or to a writer
/// whenever a chunk is full ([`Stream`]). Called only at points where the
/// bytes so far never change again.
trait Sink {
    /// Whether tables may be written before they are known to be tables and
    /// taken back on a row that does not fit. That reads each row once
    /// instead of twice, but needs the whole table in the buffer.
    const SPECULATE: bool;
    fn drain(&mut self, out: &mut Vec<u8>) -> Result<()>;
}

struct Buffer;

impl Sink for Buffer {
    const SPECULATE: bool = true;
    #[inline(always)]
    fn drain(&mut self, _: &mut Vec<u8>) -> Result<()> {
        Ok(())
    }
}

struct Stream<W>(W);

impl<W: Write> Sink for Stream<W> {
    const SPECULATE: bool = false;
    #[inline]
    fn drain(&mut self, out: &mut Vec<u8>) -> Result<()> {
        if out.len() >= CHUNK {
            self.0.write_all(out).map_err(Error::io)?;
            out.clear();
        }
        Ok(())
    }
}

/// Key-folding context of an object's fields (spec 3.3 only).
#[derive(Clone, Copy)]
struct Scope<'a> {
    /// The root object, while the fields lie on a path of objects from the
    /// root (no array between) and the root has dotted keys to avoid; the
    /// path so far is then in `Encoder::prefix`.
    root: Option<&'a Map>,
    /// Segments a folded key may still have.
    flatten: usize,
}

static NULL: Value = Value::Null;

/// The rows of a table.
#[derive(Clone, Copy)]
enum Rows<'a> {
    /// The elements of an array, all objects.
    Array(&'a [Value]),
    /// The entries of an object, all objects: a keyed table.
    Keyed(&'a Map),
}

impl<'a> Rows<'a> {
    fn len(self) -> usize {
        match self {
            Rows::Array(a) => a.len(),
            Rows::Keyed(m) => m.len(),
        }
    }

    fn first(self) -> Option<&'a Map> {
        match self {
            Rows::Array(a) => a.first(),
            Rows::Keyed(m) => m.values().next(),
        }
        .and_then(Value::as_object)
    }
}

struct Encoder<'a, 'o, S> {
    out: &'o mut Vec<u8>,
    sink: S,
    q: Quoting,
    indent: usize,
    delimiter: u8,
    v4: bool,
    fold: bool,
    flatten: usize,
    max_depth: usize,
    root: &'a Value,
    /// Whether a line has been started (lines are joined by `\n`, no final newline).
    started: bool,
    tables: Tables<'a>,
    /// Dotted path from the root object to the fields being written, for
    /// folding's collision check against the root's dotted keys.
    prefix: String,
}

impl<'a, 'o, S: Sink> Encoder<'a, 'o, S> {
    fn new(
        root: &'a Value,
        opts: &EncodeOptions,
        out: &'o mut Vec<u8>,
        sink: S,
    ) -> Result<Encoder<'a, 'o, S>> {
        if opts.indent == 0 {
            return Err(Error::new(
                ErrorKind::Indentation,
                "indent must be at least 1 space, found 0",
            ));
        }
        let fold = opts.key_folding == KeyFolding::Safe;
        if fold && opts.spec == Spec::V4 {
            return Err(Error::new(
                ErrorKind::Unrepresentable,
                "key folding needs spec 3.3: spec 4.x decoders read dotted keys literally",
            ));
        }
        let delimiter = match opts.delimiter {
            Delimiter::Comma => b',',
            Delimiter::Tab => b'\t',
            Delimiter::Pipe => b'|',
        };
        Ok(Encoder {
            out,
            sink,
            q: Quoting::new(delimiter, opts.spec),
            indent: opts.indent,
            delimiter,
            v4: opts.spec == Spec::V4,
            fold,
            flatten: opts.flatten_depth,
            max_depth: crate::depth_limit(opts.max_depth),
            root,
            started: false,
            tables: Tables::default(),
            prefix: String::new(),
        })
    }

    fn run(mut self) -> Result<()> {
        let root = self.root;
        match root {
            Value::Array(a) => {
                self.enter(1)?;
                self.array(Key::Root, a, 0, 1)
            }
            Value::Object(m) => {
                self.enter(1)?;
                if self.keyed_candidate(m) && self.table(Key::Root, false, Rows::Keyed(m), 0, 2)? {
                    return Ok(());
                }
                let dotted = self.fold && m.keys().any(|k| k.contains('.'));
                let scope = Scope {
                    root: dotted.then_some(m),
                    flatten: self.flatten,
                };
                self.fields(m, 0, 1, false, scope)
            }
            Value::String(s) if self.v4 && s.starts_with('\u{feff}') => {
                // A leading byte order mark would be stripped by readers.
                self.line(0)?;
                write_quoted(self.out, s);
                Ok(())
            }
            primitive => {
                self.line(0)?;
                self.q.primitive(self.out, primitive);
                Ok(())
            }
        }
    }

    /// The fields of object `m` (at nesting `level`), one `key: value` each,
    /// at indentation `depth`; `skip_first` leaves out the first field, which
    /// a list item writes on its hyphen line.
    fn fields(
        &mut self,
        m: &'a Map,
        depth: usize,
        level: usize,
        skip_first: bool,
        scope: Scope<'a>,
    ) -> Result<()> {
        for (k, v) in m.iter().skip(usize::from(skip_first)) {
            self.field(k, v, depth, level + 1, m, scope)?;
        }
        Ok(())
    }

    /// One field `key: value`; `level` is the nesting level of `v`.
    fn field(
        &mut self,
        k: &'a str,
        v: &'a Value,
        depth: usize,
        level: usize,
        siblings: &'a Map,
        scope: Scope<'a>,
    ) -> Result<()> {
        match v {
            Value::Array(a) => {
                self.enter(level)?;
                self.array(Key::Literal(k), a, depth, level)
            }
            Value::Object(o) => {
                if self.fold && self.folded(k, v, depth, level, siblings, scope)? {
                    return Ok(());
                }
                self.enter(level)?;
                if self.keyed_candidate(o)
                    && self.table(Key::Literal(k), false, Rows::Keyed(o), depth, level + 1)?
                {
                    return Ok(());
                }
                self.line(depth)?;
                self.key(k);
                self.out.push(b':');
                if o.is_empty() {
                    return Ok(());
                }
                if scope.root.is_some() {
                    let mark = self.prefix.len();
                    if mark > 0 {
                        self.prefix.push('.');
                    }
                    self.prefix.push_str(k);
                    let r = self.fields(o, depth + 1, level, false, scope);
                    self.prefix.truncate(mark);
                    r
                } else {
                    self.fields(o, depth + 1, level, false, scope)
                }
            }
            primitive => {
                self.line(depth)?;
                self.key(k);
                self.out.extend_from_slice(b": ");
                self.q.primitive(self.out, primitive);
                Ok(())
            }
        }
    }

    /// Writes `k: v` with a folded key if folding is safe; says whether it did.
    fn folded(
        &mut self,
        k: &'a str,
        v: &'a Value,
        depth: usize,
        level: usize,
        siblings: &'a Map,
        scope: Scope<'a>,
    ) -> Result<bool> {
        let avoid = Collisions {
            siblings,
            root: scope.root.map(|r| (r, self.prefix.as_str())),
        };
        let Some(fold) = try_fold(k, v, level, scope.flatten, self.max_depth, &avoid) else {
            return Ok(false);
        };
        match fold.leaf {
            Value::Array(a) => {
                self.enter(fold.leaf_level)?;
                self.array(Key::Folded(&fold.key), a, depth, fold.leaf_level)?;
            }
            Value::Object(o) => {
                self.enter(fold.leaf_level)?;
                self.line(depth)?;
                write_key(self.out, &fold.key);
                self.out.push(b':');
                if fold.has_remainder() {
                    let inner = Scope {
                        root: scope.root,
                        flatten: scope.flatten - fold.segments,
                    };
                    let mark = self.prefix.len();
                    if scope.root.is_some() {
                        if mark > 0 {
                            self.prefix.push('.');
                        }
                        self.prefix.push_str(&fold.key);
                    }
                    let r = self.fields(o, depth + 1, fold.leaf_level, false, inner);
                    self.prefix.truncate(mark);
                    r?;
                }
            }
            primitive => {
                self.line(depth)?;
                write_key(self.out, &fold.key);
                self.out.extend_from_slice(b": ");
                self.q.primitive(self.out, primitive);
            }
        }
        Ok(true)
    }

    /// An array under `key` (or at the root), itself at nesting `level`.
    fn array(&mut self, key: Key<'_>, a: &'a [Value], depth: usize, level: usize) -> Result<()> {
        if a.is_empty() {
            self.line(depth)?;
            if key.is_root() {
                self.out.extend_from_slice(b"[]");
            } else {
                self.name(key);
                self.out.extend_from_slice(b": []");
            }
            return Ok(());
        }
        let (primitives, objects) = kinds(a);
        if primitives {
            self.line(depth)?;
            self.name(key);
            return self.inline(a);
        }
        if objects && self.table(key, false, Rows::Array(a), depth, level + 1)? {
            return Ok(());
        }
        self.line(depth)?;
        self.name(key);
        self.header(a.len(), false, None);
        self.items(a, depth + 1, level + 1)
    }

    /// `[N]: a,b,c` (or `[0]:`) for an array of primitives.
    fn inline(&mut self, a: &'a [Value]) -> Result<()> {
        self.header(a.len(), false, None);
        let mut sep = b' ';
        for v in a {
            self.sink.drain(self.out)?;
            self.out.push(sep);
            sep = self.delimiter;
            self.q.primitive(self.out, v);
        }
        Ok(())
    }

    /// The elements of a list, as `- ` items at `depth`, each at nesting `level`.
    fn items(&mut self, a: &'a [Value], depth: usize, level: usize) -> Result<()> {
        for (i, v) in a.iter().enumerate() {
            if i % AHEAD == 0 {
                read_ahead(a.get(i + AHEAD..).unwrap_or_default());
            }
            self.item(v, depth, level)?;
        }
        Ok(())
    }

    /// One list item.
    fn item(&mut self, v: &'a Value, depth: usize, level: usize) -> Result<()> {
        match v {
            Value::Array(inner) => {
                self.enter(level)?;
                self.line(depth)?;
                self.out.extend_from_slice(b"- ");
                if kinds(inner).0 {
                    self.inline(inner)
                } else {
                    self.header(inner.len(), false, None);
                    self.items(inner, depth + 1, level + 1)
                }
            }
            Value::Object(o) => {
                self.enter(level)?;
                self.object_item(o, depth, level)
            }
            primitive => {
                self.line(depth)?;
                self.out.extend_from_slice(b"- ");
                self.q.primitive(self.out, primitive);
                Ok(())
            }
        }
    }

    /// An object as a list item: its first field on the hyphen line, the
    /// others one level deeper.
    fn object_item(&mut self, o: &'a Map, depth: usize, level: usize) -> Result<()> {
        let Some((k, v)) = o.get_index(0) else {
            self.line(depth)?;
            self.out.push(b'-');
            return Ok(());
        };
        let scope = Scope {
            root: None,
            flatten: self.flatten,
        };
        match v {
            Value::Array(a) if !a.is_empty() && kinds(a).1 => {
                self.enter(level + 1)?;
                if self.table(Key::Literal(k), true, Rows::Array(a), depth, level + 2)? {
                    return self.fields(o, depth + 1, level, true, scope);
                }
            }
            Value::Object(inner) if self.keyed_candidate(inner) => {
                self.enter(level + 1)?;
                if self.table(Key::Literal(k), true, Rows::Keyed(inner), depth, level + 2)? {
                    return self.fields(o, depth + 1, level, true, scope);
                }
            }
            _ => {}
        }
        match v {
            Value::Array(a) => {
                self.enter(level + 1)?;
                self.line(depth)?;
                self.out.extend_from_slice(b"- ");
                self.key(k);
                if a.is_empty() {
                    self.out.extend_from_slice(b": []");
                } else if kinds(a).0 {
                    self.inline(a)?;
                } else {
                    self.header(a.len(), false, None);
                    self.items(a, depth + 2, level + 2)?;
                }
            }
            Value::Object(inner) => {
                self.enter(level + 1)?;
                self.line(depth)?;
                self.out.extend_from_slice(b"- ");
                self.key(k);
                self.out.push(b':');
                self.fields(inner, depth + 2, level + 1, false, scope)?;
            }
            primitive => {
                self.line(depth)?;
                self.out.extend_from_slice(b"- ");
                self.key(k);
                self.out.extend_from_slice(b": ");
                self.q.primitive(self.out, primitive);
            }
        }
        self.fields(o, depth + 1, level, true, scope)
    }

    /// Whether an object may be a keyed table (§9.5, 4.x only): at least two
    /// entries, each a non-empty object. Whether they form a table is up to
    /// [`Self::table`].
    fn keyed_candidate(&self, m: &Map) -> bool {
        self.v4
            && m.len() >= 2
            && m.values()
                .all(|v| matches!(v, Value::Object(o) if !o.is_empty()))
    }

    /// Writes `rows` as a table when they form one: the header
    /// `key[N]{fields}:` (`[N:]` for a keyed table) at indentation `depth`,
    /// after `- ` when `hyphen`, and the rows below it (one level deeper, two
    /// on a hyphen line). The row objects are at nesting `level`. Returns
    /// `false`, having written nothing, when the rows do not form a table.
    fn table(
        &mut self,
        key: Key<'_>,
        hyphen: bool,
        rows: Rows<'a>,
        depth: usize,
        level: usize,
    ) -> Result<bool> {
        let Some(first) = rows.first() else {
            return Ok(false);
        };
        let Some(g) = self.tables.shape(first, level, self.max_depth, self.v4) else {
            return Ok(false);
        };
        let rows_depth = depth + 1 + usize::from(hyphen);
        if S::SPECULATE {
            let (mark, started) = (self.out.len(), self.started);
            self.table_header(key, hyphen, rows, g, depth)?;
            let written = self.rows_checked(rows, g, rows_depth)?;
            if !written {
                self.out.truncate(mark);
                self.started = started;
            }
            self.tables.release(g);
            return Ok(written);
        }
        let mut aligned = true;
        let fits = match rows {
            Rows::Array(a) => a
                .iter()
                .all(|v| matches!(v, Value::Object(o) if self.tables.matches(o, g, &mut aligned))),
            Rows::Keyed(m) => m
                .values()
                .all(|v| matches!(v, Value::Object(o) if self.tables.matches(o, g, &mut aligned))),
        };
        if fits {
            self.table_header(key, hyphen, rows, g, depth)?;
            match rows {
                Rows::Array(a) => {
                    for v in a {
                        self.line(rows_depth)?;
                        self.row(v.as_object(), g, aligned, &mut true);
                    }
                }
                Rows::Keyed(m) => {
                    for (k, v) in m {
                        self.line(rows_depth)?;
                        self.key(k);
                        self.out.extend_from_slice(b": ");
                        self.row(v.as_object(), g, aligned, &mut true);
                    }
                }
            }
        }
        self.tables.release(g);
        Ok(fits)
    }

    fn table_header(
        &mut self,
        key: Key<'_>,
        hyphen: bool,
        rows: Rows<'a>,
        g: Group,
        depth: usize,
    ) -> Result<()> {
        self.line(depth)?;
        if hyphen {
            self.out.extend_from_slice(b"- ");
        }
        self.name(key);
        self.header(rows.len(), matches!(rows, Rows::Keyed(_)), Some(g));
        Ok(())
    }

    /// Writes the rows while checking that each fits the shape; `false` at
    /// the first that does not.
    fn rows_checked(&mut self, rows: Rows<'a>, g: Group, depth: usize) -> Result<bool> {
        match rows {
            Rows::Array(a) => {
                for v in a {
                    self.line(depth)?;
                    let Value::Object(o) = v else {
                        return Ok(false);
                    };
                    if !self.row_checked(o, g, &mut true) {
                        return Ok(false);
                    }
                }
            }
            Rows::Keyed(m) => {
                for (k, v) in m {
                    self.line(depth)?;
                    self.key(k);
                    self.out.extend_from_slice(b": ");
                    let Value::Object(o) = v else {
                        return Ok(false);
                    };
                    if !self.row_checked(o, g, &mut true) {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// The leaf cells of a row that fits the shape, nested groups depth first.
    fn row(&mut self, row: Option<&'a Map>, g: Group, aligned: bool, first: &mut bool) {
        for j in 0..g.len {
            let f = self.tables.fields[g.start + j];
            let v = row
                .and_then(|m| {
                    if aligned {
                        m.get_index(j).map(|(_, v)| v)
                    } else {
                        m.get(f.name)
                    }
                })
                .unwrap_or(&NULL);
            if let Some(kids) = f.kids {
                self.row(v.as_object(), kids, aligned, first);
            } else {
                if !*first {
                    self.out.push(self.delimiter);
                }
                *first = false;
                self.q.primitive(self.out, v);
            }
        }
    }

    /// Like [`Self::row`] for a row not yet checked: `false` as soon as it
    /// does not fit the shape (what was written is then discarded).
    fn row_checked(&mut self, row: &'a Map, g: Group, first: &mut bool) -> bool {
        if row.len() != g.len {
            return false;
        }
        for j in 0..g.len {
            let f = self.tables.fields[g.start + j];
            let Some(v) = cell(row, j, f.name, &mut true) else {
                return false;
            };
            match (f.kids, v) {
                (Some(kids), Value::Object(o)) => {
                    if !self.row_checked(o, kids, first) {
                        return false;
                    }
                }
                (None, v) if v.is_primitive() => {
                    if !*first {
                        self.out.push(self.delimiter);
                    }
                    *first = false;
                    self.q.primitive(self.out, v);
                }
                _ => return false,
            }
        }
        true
    }

    /// Appends a literal key: bare where §7.3 allows, and quoted while
    /// folding when path expansion would split it (`"a.b"`), so that it
    /// reads back as the one key it is. Folded keys are written directly.
    #[inline]
    fn key(&mut self, k: &str) {
        if self.fold && is_path(k) {
            write_quoted(self.out, k);
        } else {
            write_key(self.out, k);
        }
    }

    /// Appends the key an array or table is written under, if any.
    #[inline]
    fn name(&mut self, key: Key<'_>) {
        match key {
            Key::Root => {}
            Key::Literal(k) => self.key(k),
            Key::Folded(k) => write_key(self.out, k),
        }
    }

    /// `[N]:`, `[N:]`, with the delimiter when it is not a comma, and the
    /// field list when given.
    fn header(&mut self, n: usize, keyed: bool, fields: Option<Group>) {
        self.out.push(b'[');
        let mut buf = itoa::Buffer::new();
        self.out.extend_from_slice(buf.format(n).as_bytes());
        if keyed {
            self.out.push(b':');
        }
        if self.delimiter != b',' {
            self.out.push(self.delimiter);
        }
        self.out.push(b']');
        if let Some(g) = fields {
            self.out.push(b'{');
            self.field_names(g);
            self.out.push(b'}');
        }
        self.out.push(b':');
    }

    fn field_names(&mut self, g: Group) {
        for i in g.start..g.start + g.len {
            let f = self.tables.fields[i];
            if i > g.start {
                self.out.push(self.delimiter);
            }
            self.key(f.name);
            if let Some(kids) = f.kids {
                self.out.push(b'{');
                self.field_names(kids);
                self.out.push(b'}');
            }
        }
    }

    /// Starts a line at indentation `depth`.
    #[inline]
    fn line(&mut self, depth: usize) -> Result<()> {
        self.sink.drain(self.out)?;
        let spaces = depth
            .checked_mul(self.indent)
            .ok_or_else(|| Error::new(ErrorKind::Indentation, "indentation overflows"))?;
        let newline = usize::from(self.started);
        self.started = true;
        let end = self.out.len() + newline + spaces;
        if spaces < LINE_START.len() {
            // A fixed-size store cut to length: no `memset` call per line.
            if newline == 1 {
                self.out.extend_from_slice(&LINE_START);
            } else {
                self.out.extend_from_slice(&[b' '; LINE_START.len()]);
            }
            self.out.truncate(end);
        } else {
            if newline == 1 {
                self.out.push(b'\n');
            }
            self.out.resize(end, b' ');
        }
        Ok(())
    }

    /// Refuses a container at nesting `level` beyond the limit.
    #[inline]
    fn enter(&self, level: usize) -> Result<()> {
        if level > self.max_depth {
            Err(too_deep(self.root, self.max_depth))
        } else {
            Ok(())
        }
    }
}

/// List items read ahead at a time (see [`read_ahead`]).
const AHEAD: usize = 8;

/// Reads the first entry of each of the next [`AHEAD`] object items, and
/// throws the result away.
///
/// In a document larger than the cache, each list item's entries sit in a
/// heap block of their own, at an address no hardware prefetcher predicts:
/// written one after the other, every item starts with a stall on that
/// miss. Reading a batch of them ahead lets
/// their misses overlap, and the writer finds them in cache. (A prefetch
/// instruction would do it without the read, but none is safe to call.)
/// Table rows do without: read in order, theirs are already prefetched,
/// and reading ahead only slowed them down.
#[inline(never)]
fn read_ahead(rows: &[Value]) {
    let mut acc = 0;
    for v in rows.iter().take(AHEAD) {
        if let Value::Object(m) = v {
            acc ^= m.keys().next().map_or(0, |k| k.len());
        }
    }
    std::hint::black_box(acc);
}

/// Whether all elements are primitives, and whether all are objects.
#[inline]
fn kinds(a: &[Value]) -> (bool, bool) {
    let (mut primitives, mut objects) = (true, true);
    for v in a {
        match v {
            Value::Array(_) => return (false, false),
            Value::Object(_) => primitives = false,
            _ => objects = false,
        }
        if !primitives && !objects {
            break;
        }
    }
    (primitives, objects)
}

/// The depth-limit error, naming the first container (in document order)
/// nested deeper than `max_depth`. Runs only on the error path.
#[cold]
fn too_deep(root: &Value, max_depth: usize) -> Error {
    // Each frame: a container and the index of its next child to visit.
    let mut stack: Vec<(&Value, usize)> = vec![(root, 0)];
    if max_depth > 0 {
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            let child = match v {
                Value::Array(a) => a.get(i),
                Value::Object(m) => m.get_index(i).map(|(_, c)| c),
                _ => None,
            };
            let Some(child) = child else {
                stack.pop();
                continue;
            };
            top.1 += 1;
            if matches!(child, Value::Array(_) | Value::Object(_)) {
                stack.push((child, 0));
                if stack.len() > max_depth {
                    break;
                }
            }
        }
    }
    let mut path = String::new();
    for w in stack.windows(2) {
        let (parent, next) = w[0];
        match parent {
            Value::Object(m) => {
                let key = m.get_index(next - 1).map_or("", |(k, _)| k.as_str());
                crate::path::push_key(&mut path, key);
            }
            _ => crate::path::push_index(&mut path, next - 1),
        }
    }
    if path.is_empty() {
        path.push('$');
    }
    Error::at_path(
        ErrorKind::DepthLimit,
        path,
        format!("expected at most {max_depth} levels of nesting, found more"),
    )
}

#[cfg(test)]
mod tests;
