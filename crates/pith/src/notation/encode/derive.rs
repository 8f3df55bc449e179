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
            Rule::Constant(v) => w.primitive(out, v),
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

/// Turns the columns of `rows` that are constants or templates into
/// derived columns. Every row is an object here (the caller checks).
pub(super) fn apply(cols: &mut [Col<'_>], rows: &[&Map]) {
    if rows.len() < MIN_ROWS {
        return;
    }
    // Constants first: a template's fields are cells that stay.
    for c in cols.iter_mut() {
        if c.optional || !matches!(c.kind, Kind::Leaf) {
            continue;
        }
        let first = rows[0].get(c.key);
        match first {
            Some(v) if v.is_primitive() && rows.iter().all(|r| r.get(c.key) == Some(v)) => {
                c.kind = Kind::Derived(Rule::Constant(v.clone()));
            }
            _ => {}
        }
    }
    // Sibling cells a template may use: present in every row, strings or
    // numbers, whose text is not empty.
    let fields: Vec<&str> = cols
        .iter()
        .filter(|c| !c.optional && matches!(c.kind, Kind::Leaf))
        .filter(|c| {
            rows.iter().all(|r| {
                r.get(c.key)
                    .and_then(text_of)
                    .is_some_and(|t| !t.is_empty())
            })
        })
        .map(|c| c.key)
        .collect();
    let mut used_as_field: Vec<&str> = Vec::new();
    for i in 0..cols.len() {
        let c = &cols[i];
        if c.optional
            || !matches!(c.kind, Kind::Leaf)
            || used_as_field.contains(&c.key)
            || !rows
                .iter()
                .all(|r| matches!(r.get(c.key), Some(Value::String(_))))
        {
            continue;
        }
        let key = c.key;
        // Fields that are still cells: not this column, nor one that has
        // become a template.
        let candidates: Vec<&str> = fields
            .iter()
            .copied()
            .filter(|f| *f != key)
            .filter(|f| {
                cols.iter()
                    .any(|c| c.key == *f && matches!(c.kind, Kind::Leaf))
            })
            .collect();
        if let Some((pieces, names)) = template(key, &candidates, rows) {
            used_as_field.extend(names);
            cols[i].kind = Kind::Derived(Rule::Template(pieces));
        }
    }
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

/// A template for column `key` over `fields` that re-expands in every row.
fn template<'k>(
    key: &str,
    fields: &[&'k str],
    rows: &[&Map],
) -> Option<(Vec<Piece>, Vec<&'k str>)> {
    let Some(Value::String(s0)) = rows[0].get(key) else {
        return None;
    };
    // Fields whose text occurs in the first row's value, longest first.
    let mut found: Vec<(&str, String)> = fields
        .iter()
        .filter_map(|&f| {
            let t = rows[0].get(f).and_then(text_of)?;
            s0.contains(t.as_str()).then_some((f, t))
        })
        .collect();
    found.sort_by_key(|(_, t)| std::cmp::Reverse(t.len()));
    found.truncate(MAX_FIELDS);
    while !found.is_empty() {
        if let Some(pieces) = build(s0, &found)
            && rows.iter().all(|r| expands(&pieces, r, key))
        {
            let names = pieces
                .iter()
                .filter_map(|p| match p {
                    Piece::Field(f) => fields.iter().copied().find(|x| x == f),
                    Piece::Text(_) => None,
                })
                .collect();
            return Some((pieces, names));
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

fn expands(pieces: &[Piece], row: &Map, key: &str) -> bool {
    let Some(Value::String(want)) = row.get(key) else {
        return false;
    };
    let mut at = 0;
    for p in pieces {
        let part = match p {
            Piece::Text(t) => t.clone(),
            Piece::Field(f) => match row.get(f).and_then(text_of) {
                Some(t) => t,
                None => return false,
            },
        };
        if !want[at..].starts_with(part.as_str()) {
            return false;
        }
        at += part.len();
    }
    at == want.len()
}
