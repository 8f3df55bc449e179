//! The pith notation: TOON grown for nested records, written down in
//! `docs/notation.md` (sparse tables, nested field groups, list columns,
//! record lists, flow values, text blocks, named references and derived
//! columns).
//!
//! A notation document starts with the line [`MARKER`]; text without it is
//! TOON and means what TOON says.

/// The first line of every notation document.
pub const MARKER: &str = "%pith";

/// Whether `text` is a notation document, as every reader of pith's tells
/// one from TOON and JSON: after at most one byte-order mark, its first
/// line is [`MARKER`], the text's end or a line break after it
/// (`docs/notation.md` §1). A carriage return there makes it a notation
/// document that the notation's reader then refuses, never TOON to read
/// past it.
///
/// ```
/// assert!(pith::notation::is_document(b"%pith\na: 1"));
/// assert!(pith::notation::is_document(b"%pith"));
/// assert!(!pith::notation::is_document(b"%pithy"));
/// assert!(!pith::notation::is_document(b"a: 1"));
/// ```
pub fn is_document(text: &[u8]) -> bool {
    let body = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    body.strip_prefix(MARKER.as_bytes())
        .is_some_and(|rest| matches!(rest.first(), None | Some(b'\n' | b'\r')))
}

/// How to read the notation, for a model: place it once where a model sees
/// it before the documents (an MCP server's instructions, a system prompt).
/// 117 o200k tokens.
pub const PRIMER: &str = "%pith text is JSON as TOON lines. k[N]{a,b?,c{x,y},d[]}: heads N rows \
of cells: empty b? = key absent; c{x,y} spreads object c (~ = null); d[] = space-separated list, \
d[]{x,y} = objects [x,y][x,y]. [a,b], {k:v} = JSON minus quotes. &n v or &n: v names v, *n \
repeats it. Header k=v: every row has it; k=`x${f}` fills in f.";

mod decode;
pub(crate) mod encode;

/// The pattern an unquoted key matches (§1): TOON's identifiers, and also
/// the keys that API replies are full of and that read the same bare —
/// `dist-tags`, `@babel/core`, `$ref`, `/users`, `0.14.0`, `200`. Its
/// characters are none of the notation's own (the colon, comma, brackets,
/// braces, `?`, `=`, `|`, quote, `&`, `*`, `~`, `%`, space and tab), and
/// it does not start with `-`, which opens a list item.
pub(crate) const KEY_PATTERN: &str = "[A-Za-z0-9_$@/][A-Za-z0-9_$@/.+-]*";

/// Whether `b` may start an unquoted key (see [`KEY_PATTERN`]).
#[inline]
pub(crate) fn is_key_start(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'@' | b'/')
}

/// Whether `b` may continue an unquoted key (see [`KEY_PATTERN`]).
#[inline]
pub(crate) fn is_key_byte(b: u8) -> bool {
    is_key_start(b) || matches!(b, b'.' | b'+' | b'-')
}

/// Whether the notation writes `key` without quotes: it matches
/// [`KEY_PATTERN`].
pub(crate) fn is_bare_key(key: &str) -> bool {
    match key.as_bytes().split_first() {
        Some((&f, rest)) => is_key_start(f) && rest.iter().all(|&b| is_key_byte(b)),
        None => false,
    }
}

/// What a document's references may expand to, as a multiple of its
/// length: a reader's bound (`docs/notation.md` §7).
pub(crate) const EXPANSION_FACTOR: usize = 64;
/// What any document's references may expand to, whatever its length, as
/// [`expansion_weight`] weighs them: the writer names no more than this,
/// so that every reader that keeps the bound reads what it writes.
pub(crate) const EXPANSION_FLOOR: usize = 64 << 20;

/// What one use of a name standing for `v` costs a reader's expansion
/// bound: roughly the bytes a clone of `v` occupies.
pub(crate) fn expansion_weight(v: &crate::Value) -> usize {
    use crate::Value;
    let mut n = 0usize;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        n = n.saturating_add(std::mem::size_of::<Value>());
        match v {
            Value::String(s) => n = n.saturating_add(s.len()),
            Value::Array(items) => stack.extend(items),
            Value::Object(m) => {
                for (k, c) in m.iter() {
                    n = n.saturating_add(std::mem::size_of::<String>() + k.len());
                    stack.push(c);
                }
            }
            _ => {}
        }
    }
    n
}

pub use self::decode::decode;
pub use self::encode::{Notation, encode};
pub(crate) use self::encode::{Shared, encode_shared};

use crate::tokens::TokenizerKind;
use crate::toon::Delimiter;
use crate::{DEFAULT_MAX_DEPTH, Number};

/// The number a notation token spells in the short form of §6, `-?\.[0-9]+`
/// (`.5` is 0.5, `-.25` is −0.25), or `None` when `t` is not in that form.
pub(crate) fn short_fraction(t: &[u8]) -> Option<Number> {
    let neg = t.first() == Some(&b'-');
    let digits = t.get(usize::from(neg) + 1..)?;
    if t[usize::from(neg)] != b'.' || digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if digits.len() <= 18 {
        let mant = digits
            .iter()
            .fold(0i64, |m, &c| m * 10 + i64::from(c - b'0'));
        return Some(Number::from_scaled(
            if neg { -mant } else { mant },
            digits.len() as u32,
        ));
    }
    let mut long = String::with_capacity(t.len() + 1);
    if neg {
        long.push('-');
    }
    long.push('0');
    long.push_str(std::str::from_utf8(&t[usize::from(neg)..]).ok()?);
    Number::parse(&long).ok()
}

/// Options for [`encode`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Name repeated subtrees and long repeated strings (§7; scores 4).
    pub references: bool,
    /// Declare constant and template columns (§9; scores 4).
    pub derived: bool,
    /// Spaces per indentation level (default 2).
    pub indent: usize,
    /// Cell delimiter of tables and inline arrays (default comma).
    pub delimiter: Delimiter,
    /// Values nested deeper than this are refused.
    pub max_depth: usize,
    /// The tokenizer whose counts choose between two layouts of a value.
    pub tokenizer: TokenizerKind,
}

impl Default for Options {
    /// No references or derived columns (readability 5), indent 2, comma,
    /// o200k counts.
    fn default() -> Options {
        Options {
            references: false,
            derived: false,
            indent: 2,
            delimiter: Delimiter::Comma,
            max_depth: DEFAULT_MAX_DEPTH,
            tokenizer: TokenizerKind::ALL[0],
        }
    }
}

impl Options {
    /// The options that allow what a readability floor of `min` admits:
    /// 5 neither references nor derived columns, 4 one of them (`refs`
    /// chooses which), 3 or lower both.
    pub fn for_readability(min: u8, refs: bool) -> Options {
        let (references, derived) = match min {
            5.. => (false, false),
            4 => (refs, !refs),
            _ => (true, true),
        };
        Options {
            references,
            derived,
            ..Options::default()
        }
    }
}
