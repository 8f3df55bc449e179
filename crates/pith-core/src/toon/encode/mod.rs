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
//!
//! The writer's state, the root and the layout of lines are here; objects
//! (and key folding) are written in [`fields`], arrays and list items in
//! [`list`], tables in [`rows`] with the shapes [`table`] finds, and every
//! token with the quoting rules of [`quote`].

mod fields;
mod list;
pub(crate) mod quote;
mod rows;
mod table;

use self::quote::{Quoting, write_key, write_quoted};
use self::rows::Rows;
use self::table::{Group, Tables};
use super::fold::is_path;
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
