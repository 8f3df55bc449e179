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
//! Two measures run through the parser: a line's *depth* is its
//! indentation in levels (`header_depth`, `field_depth`, `item_depth`), and
//! a value's *level* is how deeply it is nested, the root's being 1 (what
//! the depth limit bounds: `object_level`, `list_level`, `row_level`).
//!
//! The parser's state, the root forms and the scope rules are here; an
//! object's lines are read in [`fields`], what a header opens in [`array`]
//! (inline values), [`list`] (list items) and [`table`] (rows and entry
//! rows), over the line classes and header grammar of [`header`] and the
//! tokens of [`token`].
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

mod array;
mod expand;
mod fields;
mod header;
mod lines;
mod list;
pub(crate) mod object;
mod table;
pub(crate) mod token;

use self::header::Class;
pub(crate) use self::header::show;
use self::lines::{Line, Lines, NO_BLANK};
use self::object::{Obj, Stack};
use self::token::Tok;
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

    /// The depth of the scope whose parent line stands at `parent_depth`,
    /// from its first line: one level deeper, or in lenient and 3.3 mode
    /// wherever that first line is (§8).
    fn content_depth(&mut self, parent_depth: usize) -> R<usize> {
        match self.lines.peek()? {
            Some(first) if first.depth > parent_depth + 1 => {
                if self.v4 && self.strict {
                    Err(Fault::new(
                        ErrorKind::Indentation,
                        first.start,
                        format!(
                            "expected depth {} for the first line of a nested scope, found depth {}",
                            parent_depth + 1,
                            first.depth
                        ),
                    ))
                } else {
                    Ok(first.depth)
                }
            }
            _ => Ok(parent_depth + 1),
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

    /// Refuses a value at nesting `level` beyond the depth limit, naming
    /// the byte `at`.
    fn check_depth(&self, level: usize, at: usize) -> R<()> {
        if level > self.max_depth {
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
mod tests;
