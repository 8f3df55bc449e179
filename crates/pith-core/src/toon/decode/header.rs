//! Line classification (§5.2) and the header grammar (§6): keys, bracket
//! segments with lengths, keyed markers and delimiters, field lists with
//! nested field groups.
//!
//! A line that looks like a header but breaks its grammar is reported as a
//! [`BadHeader`] with the fault kept aside: strict decoding raises it,
//! lenient decoding reads the line as a key-value line instead.

use super::object::{KeyIndex, Keys, SMALL, fingerprint};
use super::token::scan_unquoted;
use super::{Fault, Parser};
use crate::ErrorKind;
use crate::toon::scan;

/// What a content line is, outside list and row positions
/// ([`scan::Class`]). Cheap to compute and to move: keys and headers are
/// decoded only by the code that uses them.
pub(super) use crate::toon::scan::Class;

/// A header-shaped line that breaks the header grammar; `colon` is the
/// line's first unquoted colon.
pub(super) struct BadHeader {
    pub(super) fault: Fault,
    pub(super) colon: usize,
}

/// An object key as written.
pub(super) struct Key {
    pub(super) name: String,
    pub(super) quoted: bool,
    /// Offset of the key's first byte.
    pub(super) at: usize,
    /// See [`fingerprint`].
    pub(super) print: u64,
}

impl Key {
    pub(super) fn new(name: String, quoted: bool, at: usize) -> Key {
        Key {
            print: fingerprint(name.as_bytes()),
            name,
            quoted,
            at,
        }
    }
}

/// A parsed header line.
pub(super) struct Header {
    pub(super) key: Option<Key>,
    /// Declared length or entry count (saturating: a length no input can hold stays unmatched).
    pub(super) length: usize,
    /// Offset of the length digits.
    pub(super) length_at: usize,
    /// Active delimiter: `,`, tab or `|`.
    pub(super) delim: u8,
    /// `[N:]`: a keyed tabular object (§9.5).
    pub(super) keyed: bool,
    pub(super) fields: Option<Fields>,
    /// Inline values after the colon, trimmed.
    pub(super) inline: Option<(usize, usize)>,
    /// Offset of the header's colon.
    pub(super) colon: usize,
}

/// A field list, ready for building rows.
pub(super) struct Fields {
    /// Fields in header order with duplicates resolved (last definition
    /// wins, first position kept); leaves name the cell they take.
    pub(super) plan: Vec<Field>,
    /// Cells per row: the leaf count of the header as written.
    pub(super) leaf_count: usize,
    /// No nested groups and no duplicates: field `k` takes cell `k`.
    pub(super) flat: bool,
    /// How many levels nested groups add below a row object.
    pub(super) group_depth: usize,
}

/// One field of a field list.
pub(super) struct Field {
    pub(super) name: String,
    pub(super) quoted: bool,
    pub(super) at: usize,
    pub(super) kind: FieldKind,
}

pub(super) enum FieldKind {
    /// Takes the cell at this index.
    Leaf(usize),
    /// A nested field group.
    Group(Vec<Field>),
}

impl Keys for [Field] {
    fn key(&self, i: usize) -> &str {
        &self[i].name
    }
}

/// A field entry as written, before duplicates are resolved.
struct RawField {
    name: String,
    quoted: bool,
    at: usize,
    children: Option<Vec<RawField>>,
}

impl<'a> Parser<'a> {
    /// Classifies the content `[s, e)` of a line in object-field, list-item
    /// or root position. Always inlined: returning the class through memory
    /// costs a store-forwarding stall on every line.
    #[inline(always)]
    pub(super) fn classify(&self, s: usize, e: usize) -> Result<Class, Fault> {
        scan::classify(self.src, s, e).map_err(|p| {
            Fault::new(
                ErrorKind::Syntax,
                p,
                "expected ':' after the quoted key, found other characters",
            )
        })
    }

    /// The key token `[a, b)` of a key-value line, decoded.
    #[inline]
    pub(super) fn key(&self, a: usize, b: usize, quoted: bool) -> Result<Key, Fault> {
        if quoted {
            return Ok(Key::new(self.tok.quoted(a, b)?.0, true, a));
        }
        // The fingerprint reads the source, not the string just copied from it.
        Ok(Key {
            name: self.tok.s(a, b).to_owned(),
            quoted: false,
            at: a,
            print: fingerprint(&self.src[a..b]),
        })
    }

    /// Parses `[s, e)` as a header whose bracket segment opens at `bracket`:
    /// the header, or why the line is no header. The outer error is for
    /// faults that no reading of the line avoids.
    pub(super) fn header(
        &self,
        s: usize,
        e: usize,
        bracket: usize,
    ) -> Result<Result<Header, BadHeader>, Fault> {
        Ok(self
            .header_parts(s, e, bracket)?
            .map_err(|fault| BadHeader {
                fault,
                colon: self.tok.find_unquoted(s, e, b':').unwrap_or(e),
            }))
    }

    /// The header, or the fault that makes the line no header; the outer
    /// error is for faults that no reading of the line avoids.
    fn header_parts(
        &self,
        s: usize,
        e: usize,
        bracket: usize,
    ) -> Result<Result<Header, Fault>, Fault> {
        let src = self.src;
        let key = if bracket == s {
            None
        } else if src[s] == b'"' {
            let (name, _) = self.tok.quoted(s, e)?;
            Some(Key::new(name, true, s))
        } else {
            if matches!(src[bracket - 1], b' ' | b'\t') {
                let mut w = bracket;
                while w > s && matches!(src[w - 1], b' ' | b'\t') {
                    w -= 1;
                }
                return Ok(Err(header_fault(
                    w,
                    "expected '[' right after the key, found whitespace",
                )));
            }
            Some(Key::new(self.tok.s(s, bracket).to_owned(), false, s))
        };

        let Some(close) = self.tok.find_unquoted(bracket + 1, e, b']') else {
            return Ok(Err(header_fault(
                bracket,
                "expected ']' to close the bracket segment",
            )));
        };
        let lo = bracket + 1;
        let mut hi = close;
        let mut delim = b',';
        if hi > lo && matches!(src[hi - 1], b'\t' | b'|') {
            delim = src[hi - 1];
            hi -= 1;
        }
        let mut keyed = false;
        if hi > lo && src[hi - 1] == b':' {
            if !self.v4 {
                return Ok(Err(header_fault(
                    hi - 1,
                    "expected a length in '[…]', found a keyed marker '[N:]', which is spec 4 syntax, not 3.3",
                )));
            }
            keyed = true;
            hi -= 1;
        }
        let digits = &src[lo..hi];
        if digits.is_empty()
            || !digits.iter().all(u8::is_ascii_digit)
            || (digits.len() > 1 && digits[0] == b'0')
        {
            return Ok(Err(header_fault(
                lo,
                if lo == close {
                    "expected a length in the bracket segment, found an empty '[]'".to_owned()
                } else if digits.iter().all(u8::is_ascii_digit) {
                    format!(
                        "expected a length without leading zeros in the bracket segment, found {}",
                        self.tok.snippet(lo, close)
                    )
                } else {
                    format!(
                        "expected a length (the digits of a count) in the bracket segment, found {}",
                        self.tok.snippet(lo, close)
                    )
                },
            )));
        }
        let length = digits.iter().fold(0usize, |n, &d| {
            n.saturating_mul(10).saturating_add(usize::from(d - b'0'))
        });

        let mut p = close + 1;
        let mut fields = None;
        // `key[N]: …` is the common shape; only otherwise look for a field list
        // (scanning the inline values for '{' would cost a pass per line).
        let (brace, colon) = if src.get(p) == Some(&b':') {
            (None, Some(p))
        } else {
            (
                self.tok.find_unquoted(p, e, b'{'),
                self.tok.find_unquoted(p, e, b':'),
            )
        };
        if let (Some(open), Some(colon)) = (brace, colon)
            && open < colon
        {
            if open != p {
                return Ok(Err(gap_fault(self, p, open, "'{'")));
            }
            let Some(end) = self.matching_brace(open, e) else {
                return Ok(Err(header_fault(
                    open,
                    "expected '}' to close the field list",
                )));
            };
            match self.field_list(open + 1, end, delim)? {
                Ok(f) => fields = Some(f),
                Err(fault) => return Ok(Err(fault)),
            }
            p = end + 1;
        }
        let Some(colon) = self.tok.find_unquoted(p, e, b':') else {
            return Ok(Err(header_fault(
                p,
                "expected ':' after the header, found none",
            )));
        };
        if colon != p {
            return Ok(Err(gap_fault(self, p, colon, "':'")));
        }
        let (a, b) = self.tok.trim(colon + 1, e);
        let inline = (a < b).then_some((a, b));
        if keyed && fields.is_none() {
            return Ok(Err(header_fault(
                colon,
                "expected a field list '{…}' after a keyed bracket segment '[N:]'",
            )));
        }
        if fields.is_some() && inline.is_some() {
            return Ok(Err(header_fault(
                a,
                format!(
                    "expected nothing after the colon of a header with a field list, found {}",
                    self.tok.snippet(a, b)
                ),
            )));
        }
        Ok(Ok(Header {
            key,
            length,
            length_at: lo,
            delim,
            keyed,
            fields,
            inline,
            colon,
        }))
    }

    /// The `}` matching the `{` at `open`, skipping quoted names.
    fn matching_brace(&self, open: usize, to: usize) -> Option<usize> {
        scan::matching_brace(self.src, open, to)
    }

    /// Parses the field list between the braces `[lo, hi)`.
    fn field_list(&self, lo: usize, hi: usize, delim: u8) -> Result<Result<Fields, Fault>, Fault> {
        for other in [b',', b'\t', b'|'] {
            if other == delim {
                continue;
            }
            if let Some(at) = self.tok.find_unquoted(lo, hi, other) {
                return Ok(Err(header_fault(
                    at,
                    format!(
                        "expected fields separated by {}, the delimiter of the bracket segment, found {}",
                        delim_name(delim),
                        delim_name(other)
                    ),
                )));
            }
        }
        let raw = match self.field_entries(lo, hi, delim, 1)? {
            Ok(raw) => raw,
            Err(fault) => return Ok(Err(fault)),
        };
        let mut leaf_count = 0;
        let mut group_depth = 0;
        let (plan, duplicates) = match self.plan(raw, &mut leaf_count, 0, &mut group_depth) {
            Ok(p) => p,
            Err(fault) => return Ok(Err(fault)),
        };
        let flat = !duplicates && group_depth == 0;
        Ok(Ok(Fields {
            plan,
            leaf_count,
            flat,
            group_depth,
        }))
    }

    /// The entries of a field list or nested group `[lo, hi)`; `level` counts
    /// group nesting, which is bounded by the depth limit.
    fn field_entries(
        &self,
        lo: usize,
        hi: usize,
        delim: u8,
        level: usize,
    ) -> Result<Result<Vec<RawField>, Fault>, Fault> {
        if level > self.max_depth {
            return Err(Fault::new(
                ErrorKind::DepthLimit,
                lo,
                format!(
                    "expected field groups nested at most {} levels deep, found deeper ones",
                    self.max_depth
                ),
            ));
        }
        let src = self.src;
        let mut out = Vec::new();
        let mut i = lo;
        loop {
            let end = self.entry_end(i, hi, delim);
            let (a, b) = self.tok.trim(i, end);
            if a == b {
                return Ok(Err(header_fault(
                    a.min(hi),
                    "expected a field name, found an empty entry",
                )));
            }
            match self.tok.find_unquoted(a, b, b'{') {
                Some(open) => {
                    if !self.v4 {
                        return Ok(Err(header_fault(
                            open,
                            "expected a plain field name, found a nested field group, which is spec 4 syntax, not 3.3",
                        )));
                    }
                    if open == a {
                        return Ok(Err(header_fault(a, "expected a field name before '{'")));
                    }
                    if src[open - 1] == b' ' {
                        return Ok(Err(header_fault(
                            open - 1,
                            "expected '{' right after the field name, found whitespace",
                        )));
                    }
                    let Some(close) = self.matching_brace(open, b) else {
                        return Ok(Err(header_fault(
                            open,
                            "expected '}' to close the nested field group",
                        )));
                    };
                    if close + 1 != b {
                        return Ok(Err(header_fault(
                            close + 1,
                            "expected a delimiter or '}' after a nested field group, found more characters",
                        )));
                    }
                    let children = match self.field_entries(open + 1, close, delim, level + 1)? {
                        Ok(c) => c,
                        Err(f) => return Ok(Err(f)),
                    };
                    let (name, quoted) = match self.field_name(a, open) {
                        Ok(n) => n,
                        Err(f) => return Ok(Err(f)),
                    };
                    out.push(RawField {
                        name,
                        quoted,
                        at: a,
                        children: Some(children),
                    });
                }
                None => {
                    if let Some(at) = self.tok.find_unquoted(a, b, b'}') {
                        return Ok(Err(header_fault(
                            at,
                            "expected a field name, found an unmatched '}'",
                        )));
                    }
                    let (name, quoted) = match self.field_name(a, b) {
                        Ok(n) => n,
                        Err(f) => return Ok(Err(f)),
                    };
                    out.push(RawField {
                        name,
                        quoted,
                        at: a,
                        children: None,
                    });
                }
            }
            if end >= hi {
                return Ok(Ok(out));
            }
            i = end + 1;
        }
    }

    /// The end of the field entry starting at `i`: the next delimiter outside
    /// quotes and nested groups, or `hi`.
    fn entry_end(&self, i: usize, hi: usize, delim: u8) -> usize {
        let mut depth = 0usize;
        scan_unquoted(self.src, i, hi, |j, b| {
            match b {
                b'{' => depth += 1,
                b'}' => depth = depth.saturating_sub(1),
                _ if b == delim && depth == 0 => return Some(j),
                _ => {}
            }
            None
        })
        .unwrap_or(hi)
    }

    /// A field name `[a, b)`: a quoted key (unescaped) or a literal token.
    fn field_name(&self, a: usize, b: usize) -> Result<(String, bool), Fault> {
        if self.src[a] == b'"' {
            let (name, after) = self.tok.quoted(a, b)?;
            if after != b {
                return Err(Fault::new(
                    ErrorKind::Syntax,
                    after,
                    "expected a delimiter after the quoted field name, found more characters",
                ));
            }
            return Ok((name, true));
        }
        Ok((self.tok.s(a, b).to_owned(), false))
    }

    /// Numbers the leaves depth-first and resolves duplicate names per level:
    /// an error in strict mode, the last definition in lenient mode. Returns
    /// the fields and whether any duplicate was resolved.
    fn plan(
        &self,
        raw: Vec<RawField>,
        next_cell: &mut usize,
        level: usize,
        group_depth: &mut usize,
    ) -> Result<(Vec<Field>, bool), Fault> {
        let mut out: Vec<Field> = Vec::with_capacity(raw.len());
        let mut index: Option<KeyIndex> = None;
        let mut duplicates = false;
        for f in raw {
            let kind = match f.children {
                None => {
                    *next_cell += 1;
                    FieldKind::Leaf(*next_cell - 1)
                }
                Some(children) => {
                    *group_depth = (*group_depth).max(level + 1);
                    let (plan, d) = self.plan(children, next_cell, level + 1, group_depth)?;
                    duplicates |= d;
                    FieldKind::Group(plan)
                }
            };
            let field = Field {
                name: f.name,
                quoted: f.quoted,
                at: f.at,
                kind,
            };
            let existing = match &index {
                Some(ix) => ix.find(out.as_slice(), &field.name),
                None => out.iter().position(|g| g.name == field.name),
            };
            match existing {
                Some(i) => {
                    if self.strict {
                        return Err(Fault::new(
                            ErrorKind::DuplicateKey,
                            field.at,
                            format!(
                                "expected distinct field names, found {} twice in one field list",
                                show(&field.name)
                            ),
                        ));
                    }
                    duplicates = true;
                    out[i] = field;
                }
                None => {
                    out.push(field);
                    let n = out.len();
                    match &mut index {
                        Some(ix) => ix.insert(out.as_slice(), n - 1),
                        None if n > SMALL => index = Some(KeyIndex::build(out.as_slice(), n)),
                        None => {}
                    }
                }
            }
        }
        Ok((out, duplicates))
    }
}

/// A decoded name for a message: backquoted, escaped, shortened when long.
pub(crate) fn show(name: &str) -> String {
    let shown: String = name.chars().take(40).collect();
    let more = if shown.len() < name.len() { "…" } else { "" };
    format!("`{}{more}`", shown.escape_debug())
}

fn header_fault(at: usize, msg: impl Into<String>) -> Fault {
    Fault::new(ErrorKind::Header, at, msg)
}

/// The fault for characters between two parts of a header.
fn gap_fault(p: &Parser<'_>, from: usize, to: usize, next: &str) -> Fault {
    let (a, b) = p.tok.trim(from, to);
    if a == b {
        header_fault(
            from,
            format!("expected {next} right after the previous header part, found whitespace"),
        )
    } else {
        header_fault(
            a,
            format!(
                "expected {next} right after the previous header part, found {}",
                p.tok.snippet(a, b)
            ),
        )
    }
}

fn delim_name(d: u8) -> &'static str {
    match d {
        b'\t' => "tabs",
        b'|' => "'|'",
        _ => "','",
    }
}
