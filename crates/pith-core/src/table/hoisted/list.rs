//! The list-cell syntax of the compact form: primitives separated by single
//! spaces, strings bare where they read back as themselves, else quoted.
use crate::{Error, ErrorKind, Number, Result, Value};

/// Appends the list cell of `items` (all primitives) to `out`.
pub fn write_list(items: &[Value], out: &mut String) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match item {
            Value::String(s) if bare(s) => out.push_str(s),
            Value::String(s) => {
                let mut q = Vec::with_capacity(s.len() + 2);
                crate::json::write_str_into(s, &mut q);
                out.push_str(&String::from_utf8_lossy(&q));
            }
            Value::Number(n) => out.push_str(&n.to_string()),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Null => out.push_str("null"),
            // Callers pass primitives only; a container has no list syntax.
            Value::Array(_) | Value::Object(_) => debug_assert!(false, "container in a list cell"),
        }
    }
}

/// Reads a list cell written by [`write_list`].
///
/// # Errors
///
/// [`ErrorKind::Syntax`](crate::ErrorKind::Syntax) for a cell that is not items separated by single
/// spaces, or that holds a malformed quoted item.
pub fn read_list(cell: &str) -> Result<Vec<Value>> {
    read_list_inner(cell)
        .map_err(|(at, msg)| Error::at_offset(ErrorKind::Syntax, cell.as_bytes(), at, msg))
}

/// Whether a string list item may be written without quotes.
fn bare(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('"')
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
        && !reads_as_other(s)
}

/// Whether a bare item `s` reads as something other than the string `s`.
fn reads_as_other(s: &str) -> bool {
    matches!(s, "true" | "false" | "null") || number(s).is_some()
}

fn number(s: &str) -> Option<Number> {
    let first = *s.as_bytes().first()?;
    if first != b'-' && !first.is_ascii_digit() {
        return None;
    }
    Number::parse(s).ok()
}

fn read_list_inner(cell: &str) -> std::result::Result<Vec<Value>, (usize, String)> {
    let b = cell.as_bytes();
    let mut items = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if i > 0 {
            if b[i] != b' ' {
                return Err((
                    i,
                    format!(
                        "expected a space between list items, found {:?}",
                        char_at(cell, i)
                    ),
                ));
            }
            i += 1;
        }
        match b.get(i) {
            None | Some(b' ') => {
                return Err((
                    i,
                    "expected a list item after the space, found none".to_owned(),
                ));
            }
            Some(b'"') => {
                let end = closing_quote(b, i).ok_or((
                    i,
                    "expected a closing quote, found the end of the cell".to_owned(),
                ))?;
                let v = crate::json::parse(&cell[i..=end])
                    .map_err(|e| (i, format!("malformed quoted item: {}", e.message())))?;
                items.push(v);
                i = end + 1;
            }
            Some(_) => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c == b' ')
                    .map_or(b.len(), |p| i + p);
                let token = &cell[i..end];
                items.push(match token {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    "null" => Value::Null,
                    _ => {
                        number(token).map_or_else(|| Value::String(token.to_owned()), Value::Number)
                    }
                });
                i = end;
            }
        }
    }
    Ok(items)
}

/// The index of the `"` closing the JSON string that opens at `open`.
fn closing_quote(b: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

fn char_at(s: &str, i: usize) -> char {
    s.get(i..).and_then(|t| t.chars().next()).unwrap_or(' ')
}
