//! JSON paths as errors and violations print them: `todoPhases[1].tasks[1].status`.

use pith_core::value::Value;
use std::fmt::Write as _;

/// A path under construction: push a segment before descending, pop after.
#[derive(Debug, Clone, Default)]
pub(crate) struct Path {
    segments: Vec<Segment>,
}

#[derive(Debug, Clone)]
enum Segment {
    Key(String),
    Index(usize),
}

impl Path {
    pub(crate) fn new() -> Path {
        Path::default()
    }

    pub(crate) fn push_key(&mut self, key: &str) {
        self.segments.push(Segment::Key(key.to_owned()));
    }

    pub(crate) fn push_index(&mut self, i: usize) {
        self.segments.push(Segment::Index(i));
    }

    pub(crate) fn pop(&mut self) {
        self.segments.pop();
    }

    /// The path with one more key, without changing `self`.
    pub(crate) fn with_key(&self, key: &str) -> String {
        let mut p = self.clone();
        p.push_key(key);
        p.render()
    }

    /// `a.b[2]["odd key"]`; the empty string for the root.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        for seg in &self.segments {
            match seg {
                Segment::Key(k) => pith_core::path::push_key(&mut out, k),
                Segment::Index(i) => pith_core::path::push_index(&mut out, *i),
            }
        }
        out
    }
}

/// Appends `s` as a JSON string literal, escaped as the JSON writer escapes it.
pub(crate) fn push_json_string(out: &mut String, s: &str) {
    let mut quoted = Vec::with_capacity(s.len() + 2);
    pith_core::json::write_str_into(s, &mut quoted);
    out.push_str(&String::from_utf8_lossy(&quoted));
}

/// Compact JSON text of `v` for messages, cut short past `limit` characters
/// and below a fixed nesting depth, so a message stays one readable line.
pub(crate) fn short_json(v: &Value, limit: usize) -> String {
    let mut out = String::new();
    write_json(&mut out, v, 0);
    if out.chars().count() > limit {
        let cut: String = out.chars().take(limit).collect();
        format!("{cut}…")
    } else {
        out
    }
}

fn write_json(out: &mut String, v: &Value, depth: usize) {
    // Messages never need the inside of deep values; this also bounds recursion.
    if depth > 16 || out.len() > 4096 {
        out.push('…');
        return;
    }
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => push_json_string(out, s),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(out, x, depth + 1);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_string(out, k);
                out.push(':');
                write_json(out, x, depth + 1);
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_keys_and_indices() {
        let mut p = Path::new();
        assert_eq!(p.render(), "");
        p.push_key("todoPhases");
        p.push_index(1);
        p.push_key("tasks");
        p.push_index(1);
        p.push_key("status");
        assert_eq!(p.render(), "todoPhases[1].tasks[1].status");
        p.push_key("model?");
        assert_eq!(p.render(), "todoPhases[1].tasks[1].status[\"model?\"]");
        let mut q = Path::new();
        q.push_index(0);
        q.push_key("$type");
        assert_eq!(q.render(), "[0].$type");
    }

    #[test]
    fn short_json_cuts_long_text() {
        let v = Value::from("x".repeat(100));
        assert_eq!(short_json(&v, 10), format!("\"{}…", "x".repeat(9)));
        assert_eq!(short_json(&Value::from("a\"b"), 40), r#""a\"b""#);
    }
}
