//! The JSON writer: straight into a byte buffer, nesting kept on an
//! explicit stack so that no value is too deep to write.

use super::read::skip_plain;
use crate::{Error, Map, Result, Value};
use std::convert::Infallible;
use std::io::Write;

/// Compact JSON, byte for byte what `JSON.stringify(value)` writes for any
/// value whose numbers an `f64` holds exactly and are no integers of 1e21
/// or more (other numbers are written exactly, in the same layout; such an
/// integer as its digits, see [`Number::write_json_to`](crate::Number::write_json_to)).
/// It cannot fail; for any `Serialize` type, serde_json's name,
/// [`json::to_string`](super::to_string), gives the same text.
///
/// ```
/// let v = pith::json::parse(r#"{ "a": [1, 2.50, "x\u0001"] }"#)?;
/// assert_eq!(pith::json::stringify(&v), r#"{"a":[1,2.5,"x\u0001"]}"#);
/// # Ok::<(), pith::Error>(())
/// ```
pub fn stringify(value: &Value) -> String {
    let mut out = Vec::with_capacity(128);
    write_into(value, &mut out);
    into_string(out)
}

/// Indented JSON, byte for byte what `JSON.stringify(value, null, indent)`
/// writes: one member per line, `": "` after keys, empty arrays and objects
/// as `[]` and `{}`. As in JavaScript, an indent above 10 counts as 10 and
/// an indent of 0 gives compact JSON.
///
/// ```
/// let v = pith::json::parse(r#"{"a":[1],"b":{}}"#)?;
/// assert_eq!(pith::json::stringify_pretty(&v, 2), "{\n  \"a\": [\n    1\n  ],\n  \"b\": {}\n}");
/// # Ok::<(), pith::Error>(())
/// ```
pub fn stringify_pretty(value: &Value, indent: usize) -> String {
    let mut out = Vec::with_capacity(128);
    let Ok(()) = write_value(value, &mut out, clamp(indent), &mut Keep);
    into_string(out)
}

/// Writes `value` to `writer`, compact (`pretty: None`) or indented as
/// [`stringify_pretty`] does, and flushes it.
///
/// Output goes out in chunks of a few kilobytes as it is made, so writing a
/// large value does not hold all of its text in memory. The only errors are
/// the writer's, as [`ErrorKind::Io`](crate::ErrorKind::Io).
pub fn write_to<W: Write>(value: &Value, writer: W, pretty: Option<usize>) -> Result<()> {
    let mut sink = Stream(writer);
    let mut out = Vec::with_capacity(CHUNK + 1024);
    write_value(value, &mut out, pretty.map_or(0, clamp), &mut sink).map_err(Error::io)?;
    sink.0.write_all(&out).map_err(Error::io)?;
    sink.0.flush().map_err(Error::io)
}

/// Appends the compact JSON of `value` to `out` (see [`stringify`](fn@stringify)).
pub fn write_into(value: &Value, out: &mut Vec<u8>) {
    let Ok(()) = write_value(value, out, 0, &mut Keep);
}

/// Appends `s` to `out` as one quoted JSON string, escaped as
/// `JSON.stringify` escapes it.
///
/// ```
/// let mut out = Vec::new();
/// pith::json::write_str_into("tab\there \"é\" \u{1}", &mut out);
/// assert_eq!(String::from_utf8(out).unwrap(), r#""tab\there \"é\" \u0001""#);
/// ```
pub fn write_str_into(s: &str, out: &mut Vec<u8>) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut i = 0;
    loop {
        let j = skip_plain(bytes, i);
        out.extend_from_slice(bytes.get(i..j).unwrap_or_default());
        let Some(&b) = bytes.get(j) else { break };
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 0xF)]);
            }
        }
        i = j + 1;
    }
    out.push(b'"');
}

/// Compact JSON, as [`stringify`](fn@stringify) writes it; with `{:#}`, indented by two
/// spaces as [`stringify_pretty`] writes it (the text of `pith decode
/// --pretty`).
///
/// A formatter takes text only through `fmt::Write`, so `v.to_string()`
/// copies the text [`stringify`](fn@stringify) returns once more; where that copy counts,
/// call [`stringify`](fn@stringify) (or [`write_into`], to append to a buffer).
///
/// ```
/// let v = pith::value!({"a": [1, "x"], "b": {}});
/// assert_eq!(v.to_string(), r#"{"a":[1,"x"],"b":{}}"#);
/// assert_eq!(format!("{v:#}"), "{\n  \"a\": [\n    1,\n    \"x\"\n  ],\n  \"b\": {}\n}");
/// ```
impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = if f.alternate() {
            stringify_pretty(self, 2)
        } else {
            stringify(self)
        };
        f.write_str(&text)
    }
}

/// Bytes buffered before [`write_to`] hands them to its writer.
const CHUNK: usize = 8 * 1024;

/// Where finished output goes while a value is being written.
trait Sink {
    type Error;
    /// Called whenever a scalar or closing bracket has been written.
    fn drain(&mut self, buf: &mut Vec<u8>) -> Result<(), Self::Error>;
}

/// Keeps everything in the buffer.
struct Keep;

impl Sink for Keep {
    type Error = Infallible;
    #[inline(always)]
    fn drain(&mut self, _: &mut Vec<u8>) -> Result<(), Infallible> {
        Ok(())
    }
}

/// Passes full chunks on to a writer.
struct Stream<W>(W);

impl<W: Write> Sink for Stream<W> {
    type Error = std::io::Error;
    #[inline]
    fn drain(&mut self, buf: &mut Vec<u8>) -> std::io::Result<()> {
        if buf.len() >= CHUNK {
            self.0.write_all(buf)?;
            buf.clear();
        }
        Ok(())
    }
}

/// A container whose remaining members are still to be written.
enum Level<'a> {
    Array(std::slice::Iter<'a, Value>),
    Object(<&'a Map as IntoIterator>::IntoIter),
}

/// Writes `value`; `indent` 0 means compact.
fn write_value<S: Sink>(
    value: &Value,
    out: &mut Vec<u8>,
    indent: usize,
    sink: &mut S,
) -> Result<(), S::Error> {
    let mut stack: Vec<Level<'_>> = Vec::new();
    let mut current = value;
    loop {
        // Write `current`, or open it and move to its first member.
        match current {
            Value::Array(items) => {
                let mut iter = items.iter();
                if let Some(first) = iter.next() {
                    out.push(b'[');
                    stack.push(Level::Array(iter));
                    newline(out, indent, stack.len());
                    current = first;
                    continue;
                }
                out.extend_from_slice(b"[]");
            }
            Value::Object(map) => {
                let mut iter = map.into_iter();
                if let Some((key, first)) = iter.next() {
                    out.push(b'{');
                    stack.push(Level::Object(iter));
                    newline(out, indent, stack.len());
                    member_key(out, key, indent);
                    current = first;
                    continue;
                }
                out.extend_from_slice(b"{}");
            }
            Value::Null => out.extend_from_slice(b"null"),
            Value::Bool(true) => out.extend_from_slice(b"true"),
            Value::Bool(false) => out.extend_from_slice(b"false"),
            Value::Number(n) => n.write_json_to(out),
            Value::String(s) => write_str_into(s, out),
        }
        sink.drain(out)?;
        // Move on to the next member, closing every container that is done.
        loop {
            let depth = stack.len();
            match stack.last_mut() {
                None => return Ok(()),
                Some(Level::Array(iter)) => {
                    if let Some(next) = iter.next() {
                        out.push(b',');
                        newline(out, indent, depth);
                        current = next;
                        break;
                    }
                    stack.pop();
                    newline(out, indent, depth - 1);
                    out.push(b']');
                }
                Some(Level::Object(iter)) => {
                    if let Some((key, next)) = iter.next() {
                        out.push(b',');
                        newline(out, indent, depth);
                        member_key(out, key, indent);
                        current = next;
                        break;
                    }
                    stack.pop();
                    newline(out, indent, depth - 1);
                    out.push(b'}');
                }
            }
            sink.drain(out)?;
        }
    }
}

#[inline]
fn newline(out: &mut Vec<u8>, indent: usize, depth: usize) {
    if indent > 0 {
        out.push(b'\n');
        out.resize(out.len() + indent * depth, b' ');
    }
}

#[inline]
fn member_key(out: &mut Vec<u8>, key: &str, indent: usize) {
    write_str_into(key, out);
    if indent > 0 {
        out.extend_from_slice(b": ");
    } else {
        out.push(b':');
    }
}

/// JavaScript's rule for a numeric `space` argument.
fn clamp(indent: usize) -> usize {
    indent.min(10)
}

fn into_string(out: Vec<u8>) -> String {
    // Every byte written is ASCII or copied whole from a `str`.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}
