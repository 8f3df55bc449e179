//! Derived columns (`docs/notation.md` §9): a column with one value in every
//! row, declared once (`state=open`), and a string column that is a
//! template over sibling cells (``url=`https://x.org/i/${number}` ``),
//! kept only when it re-expands exactly in every row.

use super::Writer;
use super::table::{Col, Kind};
use crate::{Map, Value};

/// Fewer rows than this never get a derived column: a value shared by a
/// handful of rows is as likely chance as rule, and would read as a rule.
pub(super) const MIN_ROWS: usize = 8;
/// A template has at most this many fields.
const MAX_FIELDS: usize = 4;

/// How a derived column's value is made.
#[derive(Clone)]
pub(super) enum Rule {
    /// The same value in every row.
    Constant(Value),
    /// Text with fields put in.
    Template(Vec<Piece>),
}

#[derive(Clone)]
pub(super) enum Piece {
    Text(String),
    Field(String),
}

impl Rule {
    /// Writes the rule after the column's `=`.
    pub(super) fn write(&self, out: &mut String, w: &Writer<'_, '_, '_>) {
        match self {
            // A string starting with a backtick would read as a template.
            Rule::Constant(Value::String(s)) if s.starts_with('`') => {
                let mut b = Vec::with_capacity(s.len() + 2);
                crate::toon::encode::quote::write_quoted(&mut b, s);
                out.push_str(&String::from_utf8_lossy(&b));
            }
            // Under TOON's rules as they are: the field list's `}:` follows.
            Rule::Constant(v) => w.value_in(out, v, super::Context::Toon),
            Rule::Template(pieces) => {
                out.push('`');
                for p in pieces {
                    match p {
                        Piece::Text(t) => {
                            for ch in t.chars() {
                                if matches!(ch, '`' | '\\' | '$') {
                                    out.push('\\');
                                }
                                out.push(ch);
                            }
                        }
                        Piece::Field(f) => {
                            out.push_str("${");
                            out.push_str(f);
                            out.push('}');
                        }
                    }
                }
                out.push('`');
            }
        }
    }
}

/// What the table's census found of one column, over all its rows.
pub(super) struct Facts {
    /// Every row holds a string.
    pub(super) strings: bool,
    /// Every row holds a value that puts text into a template ([`has_text`]).
    pub(super) texts: bool,
}

/// Turns the columns of `rows` that are constants or templates into
/// derived columns; `facts` holds what the census found of each. Every row
/// is an object here (the caller checks). Returns whether it turned any.
pub(super) fn apply(cols: &mut [Col<'_>], rows: &[&Map], facts: &[Facts]) -> bool {
    if rows.len() < MIN_ROWS {
        return false;
    }
    let mut turned = false;
    // Column `i`'s key is looked for at position `i` of each row first.
    // Constants first: a template's fields are cells that stay.
    for (i, c) in cols.iter_mut().enumerate() {
        if c.optional || !matches!(c.kind, Kind::Leaf) {
            continue;
        }
        let first = get(rows[0], c.key, i);
        match first {
            Some(v) if v.is_primitive() && rows.iter().all(|r| get(r, c.key, i) == Some(v)) => {
                c.kind = Kind::Derived(Rule::Constant(v.clone()));
                turned = true;
            }
            _ => {}
        }
    }
    // Sibling cells a template may use: present in every row, strings or
    // numbers, whose text is not empty (with their columns' positions).
    let fields: Vec<(&str, usize)> = cols
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.optional && matches!(c.kind, Kind::Leaf))
        .filter(|&(i, _)| facts.get(i).is_some_and(|f| f.texts))
        .map(|(i, c)| (c.key, i))
        .collect();
    let mut used_as_field: Vec<&str> = Vec::new();
    for i in 0..cols.len() {
        let c = &cols[i];
        if c.optional
            || !matches!(c.kind, Kind::Leaf)
            || used_as_field.contains(&c.key)
            || !facts.get(i).is_some_and(|f| f.strings)
        {
            continue;
        }
        let key = c.key;
        // Fields that are still cells: not this column, nor one that has
        // become a template.
        let candidates: Vec<(&str, usize)> = fields
            .iter()
            .copied()
            .filter(|(f, _)| *f != key)
            .filter(|(f, _)| {
                cols.iter()
                    .any(|c| c.key == *f && matches!(c.kind, Kind::Leaf))
            })
            .collect();
        if let Some((pieces, names)) = template((key, i), &candidates, rows) {
            used_as_field.extend(names);
            cols[i].kind = Kind::Derived(Rule::Template(pieces));
            turned = true;
        }
    }
    turned
}

/// Turns every derived column of `cols` back into a column of cells.
pub(super) fn undo(cols: &mut [Col<'_>]) {
    for c in cols {
        match &mut c.kind {
            Kind::Derived(_) => c.kind = Kind::Leaf,
            Kind::Group(sub) => undo(sub),
            _ => {}
        }
    }
}

/// Whether `v` puts text into a template: a string that is not empty, or a
/// number (whose canonical text never is); what [`text_of`] tells, without
/// writing the text.
pub(super) fn has_text(v: &Value) -> bool {
    match v {
        Value::String(s) => !s.is_empty(),
        Value::Number(_) => true,
        _ => false,
    }
}

/// The text a field puts into a template: a string as it is, a number in
/// its canonical form.
fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => {
            let mut b = Vec::new();
            n.write_to(&mut b);
            String::from_utf8(b).ok()
        }
        _ => None,
    }
}

/// A template for column `key` (with its position) over `fields` (each with
/// its column's position) that re-expands in every row.
fn template<'k>(
    key: (&str, usize),
    fields: &[(&'k str, usize)],
    rows: &[&Map],
) -> Option<(Vec<Piece>, Vec<&'k str>)> {
    let Some(Value::String(s0)) = rows[0].get(key.0) else {
        return None;
    };
    // Fields whose text occurs in the first row's value, longest first.
    let mut found: Vec<(&str, String)> = fields
        .iter()
        .filter_map(|&(f, _)| {
            let t = rows[0].get(f).and_then(text_of)?;
            s0.contains(t.as_str()).then_some((f, t))
        })
        .collect();
    found.sort_by_key(|(_, t)| std::cmp::Reverse(t.len()));
    found.truncate(MAX_FIELDS);
    while !found.is_empty() {
        if let Some(pieces) = build(s0, &found) {
            // Where each piece's field stands in a row.
            let hints: Vec<usize> = pieces
                .iter()
                .map(|p| match p {
                    Piece::Field(f) => fields.iter().find(|(x, _)| x == f).map_or(0, |&(_, i)| i),
                    Piece::Text(_) => 0,
                })
                .collect();
            if rows.iter().all(|r| expands(&pieces, &hints, r, key)) {
                let names = pieces
                    .iter()
                    .filter_map(|p| match p {
                        Piece::Field(f) => fields.iter().map(|&(x, _)| x).find(|x| x == f),
                        Piece::Text(_) => None,
                    })
                    .collect();
                return Some((pieces, names));
            }
        }
        found.pop();
    }
    None
}

/// Cuts `s` at the last occurrence of each field's text (longest first,
/// never overlapping).
fn build(s: &str, found: &[(&str, String)]) -> Option<Vec<Piece>> {
    let mut spans: Vec<(usize, usize, &str)> = Vec::new();
    for (f, t) in found {
        let hit = s
            .rmatch_indices(t.as_str())
            .map(|(a, m)| (a, a + m.len()))
            .find(|&(a, b)| spans.iter().all(|&(x, y, _)| b <= x || a >= y));
        if let Some((a, b)) = hit {
            spans.push((a, b, f));
        }
    }
    if spans.is_empty() {
        return None;
    }
    spans.sort_by_key(|&(a, _, _)| a);
    let mut pieces = Vec::new();
    let mut at = 0;
    for (a, b, f) in spans {
        if a > at {
            pieces.push(Piece::Text(s[at..a].to_owned()));
        }
        pieces.push(Piece::Field(f.to_owned()));
        at = b;
    }
    if at < s.len() {
        pieces.push(Piece::Text(s[at..].to_owned()));
    }
    Some(pieces)
}

/// Whether `pieces` (their fields looked for at `hints`) re-expand to the
/// value of `key` (looked for at its position) in `row`.
fn expands(pieces: &[Piece], hints: &[usize], row: &Map, key: (&str, usize)) -> bool {
    let Some(Value::String(want)) = get(row, key.0, key.1) else {
        return false;
    };
    let want = want.as_bytes();
    let mut at = 0;
    // A number's text is written into one buffer, reused for every field.
    let mut digits = Vec::new();
    for (p, &hint) in pieces.iter().zip(hints) {
        let part: &[u8] = match p {
            Piece::Text(t) => t.as_bytes(),
            Piece::Field(f) => match get(row, f, hint) {
                Some(Value::String(s)) => s.as_bytes(),
                Some(Value::Number(n)) => {
                    digits.clear();
                    n.write_to(&mut digits);
                    &digits
                }
                _ => return false,
            },
        };
        if !want[at..].starts_with(part) {
            return false;
        }
        at += part.len();
    }
    at == want.len()
}

/// `row[key]`, looked for at position `hint` first: where a row keeps its
/// table's column order, that is where the key stands.
#[inline]
fn get<'m>(row: &'m Map, key: &str, hint: usize) -> Option<&'m Value> {
    let i = row.index_of_from(key, hint)?;
    row.get_index(i).map(|(_, v)| v)
}
