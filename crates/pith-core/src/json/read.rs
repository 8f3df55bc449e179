//! The JSON reader: a byte-level scanner over text already known to be
//! UTF-8, with nesting kept on an explicit stack.

use super::ParseOptions;
use crate::number::NumberError;
use crate::value::Prehashed;
use crate::{Error, ErrorKind, Key, Map, Number, Result, Value};
use std::borrow::Cow;
use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, RandomState};

/// Parses one JSON value from `text` with the default [`ParseOptions`].
///
/// ```
/// let v = pith::json::parse(r#"{"n": 9007199254740993}"#)?;
/// assert_eq!(v.get("n").unwrap().to_string(), "9007199254740993");
/// # Ok::<(), pith::Error>(())
/// ```
pub fn parse(text: &str) -> Result<Value> {
    Parser::new(text, &ParseOptions::default()).document()
}

/// Parses one JSON value from bytes that must be UTF-8, with the default
/// [`ParseOptions`].
pub fn parse_bytes(bytes: &[u8]) -> Result<Value> {
    parse_with(bytes, &ParseOptions::default())
}

/// Parses one JSON value from bytes that must be UTF-8.
///
/// Invalid UTF-8 anywhere in `bytes` is an
/// [`ErrorKind::InvalidUtf8`] error at the first bad byte, even when a
/// syntax error comes earlier.
pub fn parse_with(bytes: &[u8], opts: &ParseOptions) -> Result<Value> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Parser::new(text, opts).document(),
        Err(e) => Err(utf8_error(bytes, &e)),
    }
}

/// Tells whether a key is new to the object being built, in time linear in
/// the object's size overall: objects below a small size are scanned, larger
/// ones keep a set of key hashes (hash hits are confirmed by a scan, so a
/// collision can never pass for a duplicate).
#[derive(Default)]
pub(crate) struct KeySet {
    hashes: Option<Box<(RandomState, HashSetOfHashes)>>,
}

type HashSetOfHashes = HashSet<u64, BuildHasherDefault<Prehashed>>;

/// Objects with fewer keys than this are checked by scanning.
const SCAN_LIMIT: usize = 16;

impl KeySet {
    /// Whether `key` is absent from `map`; records it as present, since the
    /// caller appends it next. `map` must hold every key recorded so far.
    pub(crate) fn is_new(&mut self, map: &Map, key: &str) -> bool {
        self.is_new_among(map.len(), || map.keys().map(Key::as_str), key)
    }

    /// [`KeySet::is_new`] for an object whose members are still a slice of
    /// the reader's scratch stack.
    fn is_new_in(&mut self, members: &[(Key, Value)], key: &str) -> bool {
        self.is_new_among(
            members.len(),
            || members.iter().map(|(k, _)| k.as_str()),
            key,
        )
    }

    fn is_new_among<'k, I: Iterator<Item = &'k str>>(
        &mut self,
        len: usize,
        keys: impl Fn() -> I,
        key: &str,
    ) -> bool {
        if self.hashes.is_none() && len < SCAN_LIMIT {
            return !keys().any(|k| k == key);
        }
        let set = self.hashes.get_or_insert_with(|| {
            let state = RandomState::new();
            let mut set = HashSet::with_capacity_and_hasher(len * 2, Default::default());
            set.extend(keys().map(|k| state.hash_one(k)));
            Box::new((state, set))
        });
        let hash = set.0.hash_one(key);
        set.1.insert(hash) || !keys().any(|k| k == key)
    }
}

/// An array or object whose members are still being read. Members sit on
/// the reader's scratch stacks from `from` up, so that each container is
/// allocated once, at its exact size, when it closes.
enum Frame {
    Array {
        from: usize,
    },
    Object {
        from: usize,
        keys: KeySet,
        /// The key whose value is being read.
        key: Key,
    },
}

/// Containers of at least this many members that fill a scratch stack
/// from its bottom take the stack's own buffer rather than a copy.
const TAKE_SCRATCH: usize = 4096;

/// The members of the container that closes at `from` on `scratch`, in a
/// buffer of their exact size. A long container that holds the whole stack
/// (the document's outermost one, usually) keeps the stack's buffer, cut
/// to length: copying it would hold its members twice at the peak.
fn close<T>(scratch: &mut Vec<T>, from: usize) -> Vec<T> {
    if from == 0 && scratch.len() >= TAKE_SCRATCH {
        let mut all = std::mem::take(scratch);
        all.shrink_to_fit();
        all
    } else {
        scratch.split_off(from)
    }
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    max_depth: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, opts: &ParseOptions) -> Parser<'a> {
        Parser {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            max_depth: opts.max_depth,
        }
    }

    fn document(mut self) -> Result<Value> {
        if self.text.starts_with('\u{feff}') {
            return Err(self.error(
                ErrorKind::Syntax,
                0,
                "expected a JSON value, found a byte order mark (U+FEFF); JSON text must not start with one",
            ));
        }
        let value = self.value()?;
        self.skip_ws();
        if self.pos < self.bytes.len() {
            let found = self.describe(self.pos);
            return Err(self.error(
                ErrorKind::TrailingContent,
                self.pos,
                format!("expected end of input after the value, found {found}"),
            ));
        }
        Ok(value)
    }

    /// Reads one value, containers included, without recursion.
    fn value(&mut self) -> Result<Value> {
        let mut stack: Vec<Frame> = Vec::new();
        // The elements of every open array, innermost last.
        let mut items: Vec<Value> = Vec::new();
        // The members of every open object, innermost last.
        let mut members: Vec<(Key, Value)> = Vec::new();
        'value: loop {
            self.skip_ws();
            let start = self.pos;
            let mut value = match self.bytes.get(start) {
                Some(b'"') => Value::String(self.string()?),
                Some(b'-' | b'0'..=b'9') => Value::Number(self.number()?),
                Some(b'{') => {
                    self.enter(stack.len(), start)?;
                    self.skip_ws();
                    if self.bytes.get(self.pos) == Some(&b'}') {
                        self.pos += 1;
                        Value::Object(Map::new())
                    } else {
                        let mut keys = KeySet::default();
                        let key = self.key(&mut keys, &[], "'\"' to start a key or '}'")?;
                        stack.push(Frame::Object {
                            from: members.len(),
                            keys,
                            key,
                        });
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    self.enter(stack.len(), start)?;
                    self.skip_ws();
                    if self.bytes.get(self.pos) == Some(&b']') {
                        self.pos += 1;
                        Value::Array(Vec::new())
                    } else {
                        stack.push(Frame::Array { from: items.len() });
                        continue 'value;
                    }
                }
                Some(b't') => self.literal("true", Value::Bool(true))?,
                Some(b'f') => self.literal("false", Value::Bool(false))?,
                Some(b'n') => self.literal("null", Value::Null)?,
                _ => return Err(self.unexpected(start, "a JSON value")),
            };
            // Hand the finished value to its container, closing every
            // container that ends here.
            loop {
                let Some(frame) = stack.last_mut() else {
                    return Ok(value);
                };
                match frame {
                    Frame::Array { from } => {
                        items.push(value);
                        self.skip_ws();
                        match self.bytes.get(self.pos) {
                            Some(b',') => {
                                self.pos += 1;
                                continue 'value;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                value = Value::Array(close(&mut items, *from));
                                stack.pop();
                            }
                            _ => {
                                return Err(
                                    self.unexpected(self.pos, "',' or ']' after an array element")
                                );
                            }
                        }
                    }
                    Frame::Object { from, keys, key } => {
                        members.push((std::mem::take(key), value));
                        self.skip_ws();
                        match self.bytes.get(self.pos) {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_ws();
                                let own = members.get(*from..).unwrap_or_default();
                                *key = self.key(keys, own, "'\"' to start a key")?;
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                // Every key was checked against its object's others.
                                let map = Map::from_unique_entries(close(&mut members, *from));
                                value = Value::Object(map);
                                stack.pop();
                            }
                            _ => {
                                return Err(
                                    self.unexpected(self.pos, "',' or '}' after an object member")
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// Steps over the opening bracket at `at`, refusing one level too many.
    fn enter(&mut self, open: usize, at: usize) -> Result<()> {
        if open >= self.max_depth {
            return Err(self.error(
                ErrorKind::DepthLimit,
                at,
                format!(
                    "expected at most {} levels of nesting, found more",
                    self.max_depth
                ),
            ));
        }
        self.pos = at + 1;
        Ok(())
    }

    /// Reads a key and its colon, refusing one that `members` (the
    /// object's members so far, all recorded in `keys`) already has.
    fn key(&mut self, keys: &mut KeySet, members: &[(Key, Value)], expected: &str) -> Result<Key> {
        let at = self.pos;
        if self.bytes.get(at) != Some(&b'"') {
            return Err(self.unexpected(at, expected));
        }
        let key = self.text()?;
        if !keys.is_new_in(members, &key) {
            let mut quoted = Vec::new();
            super::write_str_into(&key, &mut quoted);
            return Err(self.error(
                ErrorKind::DuplicateKey,
                at,
                format!(
                    "expected each key once per object, found {} a second time",
                    String::from_utf8_lossy(&quoted)
                ),
            ));
        }
        self.skip_ws();
        if self.bytes.get(self.pos) != Some(&b':') {
            return Err(self.unexpected(self.pos, "':' after the key"));
        }
        self.pos += 1;
        Ok(Key::from(key))
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value> {
        let end = self.pos + word.len();
        if self.bytes.get(self.pos..end) == Some(word.as_bytes()) {
            self.pos = end;
            Ok(value)
        } else {
            Err(self.unexpected(self.pos, "a JSON value"))
        }
    }

    /// Reads a string whose opening quote is at `self.pos`.
    fn string(&mut self) -> Result<String> {
        self.text().map(Cow::into_owned)
    }

    /// Reads a string whose opening quote is at `self.pos`, borrowed from
    /// the input when it has no escapes.
    fn text(&mut self) -> Result<Cow<'a, str>> {
        let open = self.pos;
        let start = open + 1;
        let mut i = skip_plain(self.bytes, start);
        match self.bytes.get(i) {
            Some(b'"') => {
                self.pos = i + 1;
                return Ok(Cow::Borrowed(self.slice(start, i)?));
            }
            Some(b'\\') => {}
            Some(_) => return Err(self.control_error(i)),
            None => return Err(self.unterminated(open)),
        }
        let mut out = String::with_capacity(i - start + 16);
        out.push_str(self.slice(start, i)?);
        loop {
            match self.bytes.get(i) {
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => i = self.escape(i, &mut out)?,
                Some(_) => return Err(self.control_error(i)),
                None => return Err(self.unterminated(open)),
            }
            let run = skip_plain(self.bytes, i);
            out.push_str(self.slice(i, run)?);
            i = run;
        }
    }

    /// Decodes the escape whose backslash is at `at` into `out`; returns the
    /// offset after it.
    fn escape(&self, at: usize, out: &mut String) -> Result<usize> {
        let c = match self.bytes.get(at + 1) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => return self.unicode_escape(at, out),
            Some(_) => {
                let found = self.describe(at + 1);
                return Err(self.error(
                    ErrorKind::InvalidEscape,
                    at,
                    format!(
                        "expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX), found '\\' followed by {found}"
                    ),
                ));
            }
            None => {
                return Err(self.error(
                    ErrorKind::InvalidEscape,
                    at,
                    "expected an escape after '\\', found end of input",
                ));
            }
        };
        out.push(c);
        Ok(at + 2)
    }

    /// Decodes `\uXXXX` at `at`, pairing surrogates.
    fn unicode_escape(&self, at: usize, out: &mut String) -> Result<usize> {
        let hi = self.hex4(at)?;
        let code = if (0xD800..0xDC00).contains(&hi) {
            let next = at + 6;
            if self.bytes.get(next..next + 2) != Some(b"\\u") {
                return Err(self.error(
                    ErrorKind::LoneSurrogate,
                    at,
                    format!(
                        "expected a low surrogate \\udc00-\\udfff after the high surrogate \\u{hi:04x}, found none"
                    ),
                ));
            }
            let lo = self.hex4(next)?;
            if !(0xDC00..0xE000).contains(&lo) {
                return Err(self.error(
                    ErrorKind::LoneSurrogate,
                    at,
                    format!(
                        "expected a low surrogate \\udc00-\\udfff after the high surrogate \\u{hi:04x}, found \\u{lo:04x}"
                    ),
                ));
            }
            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
        } else if (0xDC00..0xE000).contains(&hi) {
            return Err(self.error(
                ErrorKind::LoneSurrogate,
                at,
                format!(
                    "expected a character or a surrogate pair, found the lone low surrogate \\u{hi:04x}"
                ),
            ));
        } else {
            hi
        };
        match char::from_u32(code) {
            Some(c) => out.push(c),
            // Unreachable for the ranges above; refuse rather than guess.
            None => {
                return Err(self.error(
                    ErrorKind::InvalidEscape,
                    at,
                    format!("expected a unicode scalar value, found U+{code:04X}"),
                ));
            }
        }
        Ok(if code > 0xFFFF { at + 12 } else { at + 6 })
    }

    /// The four hex digits of the `\u` escape at `at`.
    fn hex4(&self, at: usize) -> Result<u32> {
        let mut code = 0;
        for k in 0..4 {
            let digit = self
                .bytes
                .get(at + 2 + k)
                .and_then(|&b| (b as char).to_digit(16));
            match digit {
                Some(d) => code = code * 16 + d,
                None => {
                    let found = self.describe(at + 2 + k);
                    return Err(self.error(
                        ErrorKind::InvalidEscape,
                        at,
                        format!("expected four hex digits after '\\u', found {found}"),
                    ));
                }
            }
        }
        Ok(code)
    }

    /// Reads a number starting at `self.pos`, checking JSON's grammar first
    /// (no leading zeros, no `+`, digits on both sides of the point).
    fn number(&mut self) -> Result<Number> {
        let b = self.bytes;
        let start = self.pos;
        let mut i = start;
        let neg = b.get(i) == Some(&b'-');
        if neg {
            i += 1;
        }
        let mut small: i64 = 0;
        match b.get(i) {
            Some(b'0') => {
                i += 1;
                if b.get(i).is_some_and(u8::is_ascii_digit) {
                    let found = self.number_text(start);
                    return Err(self.error(
                        ErrorKind::Syntax,
                        start,
                        format!("expected a number without leading zeros, found {found}"),
                    ));
                }
            }
            Some(&d @ b'1'..=b'9') => {
                small = i64::from(d - b'0');
                i += 1;
                while let Some(&d) = b.get(i) {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    // Saturates harmlessly: `small` is used only for short integers.
                    small = small.wrapping_mul(10).wrapping_add(i64::from(d - b'0'));
                    i += 1;
                }
            }
            _ => return Err(self.unexpected(i, "a digit after '-'")),
        }
        let int_digits = i - start - usize::from(neg);
        let frac_start = i + 1;
        let mut frac_end = frac_start;
        if b.get(i) == Some(&b'.') {
            i = self.digits(frac_start, "a digit after the decimal point")?;
            frac_end = i;
        }
        let mut exponent = false;
        if matches!(b.get(i), Some(b'e' | b'E')) {
            exponent = true;
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            i = self.digits(i, "a digit in the exponent")?;
        }
        self.pos = i;
        // Up to 18 digits in all fit an i64 as an integer mantissa, which is
        // the common case and needs no allocation.
        let frac = b.get(frac_start..frac_end).unwrap_or_default();
        if !exponent && int_digits + frac.len() <= 18 {
            let mant = frac
                .iter()
                .fold(small, |m, &d| m * 10 + i64::from(d - b'0'));
            let mant = if neg { -mant } else { mant };
            return Ok(Number::from_scaled(mant, frac.len() as u32));
        }
        let text = self.slice(start, i)?;
        Number::parse(text).map_err(|e| match e {
            NumberError::ExponentRange => self.error(
                ErrorKind::NumberRange,
                start,
                format!(
                    "expected a number whose exponent in scientific notation lies within ±{}, found {}",
                    crate::number::MAX_EXPONENT,
                    self.number_text(start)
                ),
            ),
            NumberError::Syntax => self.error(
                ErrorKind::Syntax,
                start,
                format!("expected a number, found {}", self.number_text(start)),
            ),
        })
    }

    /// Skips one or more digits from `i`.
    fn digits(&self, mut i: usize, expected: &str) -> Result<usize> {
        let first = i;
        while b_is_digit(self.bytes, i) {
            i += 1;
        }
        if i == first {
            return Err(self.unexpected(i, expected));
        }
        Ok(i)
    }

    /// The number-like run at `start`, quoted and shortened, for messages.
    fn number_text(&self, start: usize) -> String {
        let run = self.bytes[start.min(self.bytes.len())..]
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.'))
            .count();
        shorten(self.slice(start, start + run).unwrap_or(""))
    }

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// `text[start..end]`; both ends sit next to ASCII bytes, so this holds
    /// for every offset the scanner produces.
    fn slice(&self, start: usize, end: usize) -> Result<&'a str> {
        self.text.get(start..end).ok_or_else(|| {
            self.error(
                ErrorKind::InvalidUtf8,
                start,
                "expected a character boundary, found the middle of a character",
            )
        })
    }

    /// What sits at `offset`, for "found …" in messages.
    fn describe(&self, offset: usize) -> String {
        let rest = self.text.get(offset..).unwrap_or("");
        match rest.chars().next() {
            None => "end of input".to_owned(),
            Some(c) if c.is_alphanumeric() || c == '_' => {
                let word: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .take(32)
                    .collect();
                shorten(&word)
            }
            Some(' ') => "a space".to_owned(),
            Some(c) if c.is_control() || c.is_whitespace() || c == '\u{feff}' => {
                format!("U+{:04X}", u32::from(c))
            }
            Some(c) => format!("'{c}'"),
        }
    }

    fn unexpected(&self, offset: usize, expected: &str) -> Error {
        let found = self.describe(offset);
        self.error(
            ErrorKind::Syntax,
            offset,
            format!("expected {expected}, found {found}"),
        )
    }

    fn control_error(&self, offset: usize) -> Error {
        let found = self.describe(offset);
        self.error(
            ErrorKind::Syntax,
            offset,
            format!("expected a character or an escape inside the string, found the raw control character {found}"),
        )
    }

    fn unterminated(&self, open: usize) -> Error {
        self.error(
            ErrorKind::InvalidEscape,
            open,
            "expected '\"' to close the string, found end of input",
        )
    }

    fn error(&self, kind: ErrorKind, offset: usize, message: impl Into<String>) -> Error {
        Error::at_offset(kind, self.bytes, offset, message)
    }
}

fn b_is_digit(bytes: &[u8], i: usize) -> bool {
    bytes.get(i).is_some_and(u8::is_ascii_digit)
}

/// `'text'`, cut to 32 characters with an ellipsis.
fn shorten(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(32).collect();
    if chars.next().is_some() {
        format!("'{head}…'")
    } else {
        format!("'{head}'")
    }
}

/// The offset of the first byte at or after `i` that ends a plain run of
/// string content: `"`, `\` or a control character (or the end).
#[inline]
pub(super) fn skip_plain(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Eight bytes at a time: flag bytes equal to '"' or '\\' or below 0x20.
    // The lowest flag is always exact (borrows only run upward), which is the
    // one that is used.
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let quote = x ^ (ONES * u64::from(b'"'));
        let slash = x ^ (ONES * u64::from(b'\\'));
        let flags = ((quote.wrapping_sub(ONES) & !quote)
            | (slash.wrapping_sub(ONES) & !slash)
            | (x.wrapping_sub(ONES * 0x20) & !x))
            & HIGHS;
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

fn utf8_error(bytes: &[u8], e: &std::str::Utf8Error) -> Error {
    let at = e.valid_up_to();
    let message = match (e.error_len(), bytes.get(at)) {
        (Some(_), Some(b)) => format!("expected utf-8 text, found the invalid byte 0x{b:02x}"),
        _ => "expected utf-8 text, found a character cut off by the end of input".to_owned(),
    };
    Error::at_offset(ErrorKind::InvalidUtf8, bytes, at, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_plain_finds_the_first_special_byte() {
        let cases: [(&[u8], usize); 7] = [
            (b"abcdefghijk\"", 11),
            (b"ab\"cdefghijk\\", 2),
            (b"abcdefgh\\", 8),
            (b"\x1f", 0),
            (b"abcdefg\xc3\xa9\n", 9),
            (b"\"\\\"\\\"\\\"\\\"", 0),
            (b"abcdefghijklmnopq", 17),
        ];
        for (bytes, want) in cases {
            assert_eq!(skip_plain(bytes, 0), want, "{bytes:?}");
        }
        // Bytes at or above 0x80 next to a quote must not hide it.
        assert_eq!(skip_plain(b"\xff\xff\xff\"\xff\xff\xff\xff", 0), 3);
        assert_eq!(skip_plain(b"\x21\x20\x1f\xff\xff\xff\xff\xff", 0), 2);
    }

    #[test]
    fn every_container_is_held_at_its_exact_size() {
        // The outermost array and object of each size, around the length at
        // which they take the scratch stack's buffer, and containers inside
        // them: the contents as written, and no spare capacity.
        for n in [0, 1, TAKE_SCRATCH - 1, TAKE_SCRATCH, 3 * TAKE_SCRATCH + 7] {
            let items: Vec<String> = (0..n).map(|i| format!("[{i},\"s{i}\"]")).collect();
            let array = parse(&format!("[{}]", items.join(","))).unwrap();
            let Value::Array(outer) = &array else {
                panic!("{array:?}")
            };
            assert_eq!((outer.len(), outer.capacity()), (n, n));
            for (i, inner) in outer.iter().enumerate() {
                let Value::Array(inner) = inner else {
                    panic!("{inner:?}")
                };
                assert_eq!(inner.capacity(), 2);
                assert_eq!(inner[0], Value::from(i as u64));
                assert_eq!(inner[1], Value::from(format!("s{i}")));
            }
            let members: Vec<String> = (0..n).map(|i| format!("\"k{i}\":{i}")).collect();
            let object = parse(&format!("{{{}}}", members.join(","))).unwrap();
            let map = object.as_object().unwrap();
            assert_eq!(map.len(), n);
            for (i, (k, v)) in map.iter().enumerate() {
                assert_eq!(
                    (k.as_ref(), v),
                    (format!("k{i}").as_str(), &Value::from(i as u64))
                );
            }
        }
    }

    #[test]
    fn short_numbers_are_built_exactly_as_number_parse_builds_them() {
        // `==` on `Number` compares the canonical representation, so equal
        // here means the fast path made the very same `Number`.
        let literals = [
            "0",
            "-0",
            "0.0",
            "-0.000",
            "7",
            "-7",
            "0.5",
            "-0.5",
            "956.02",
            "10.50",
            "100.000",
            "0.000001",
            "0.00000000000000001",
            "123456789012345678",
            "-123456789012345678",
            "1234567890123456789",
            "12345678901234567.8",
            "1234567890123456.78",
            "0.12345678901234567",
            "0.123456789012345678",
            "999999999999999999",
            "-999999999999999999.0",
            "9223372036854775807",
            "-9223372036854775808",
            "1.5e3",
        ];
        for text in literals {
            let want = Number::parse(text).unwrap();
            match parse(text) {
                Ok(Value::Number(ref got)) => assert!(*got == want, "{text}: {got:?} != {want:?}"),
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn every_plain_number_is_built_as_number_parse_builds_it(
            neg in proptest::bool::ANY,
            int in "(0|[1-9][0-9]{0,19})",
            frac in proptest::option::of("[0-9]{1,20}"),
        ) {
            let sign = if neg { "-" } else { "" };
            let text = match frac {
                Some(f) => format!("{sign}{int}.{f}"),
                None => format!("{sign}{int}"),
            };
            let want = Number::parse(&text).unwrap();
            match parse(&text) {
                Ok(Value::Number(ref got)) => proptest::prop_assert!(*got == want, "{text}"),
                other => proptest::prop_assert!(false, "{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn nested_containers_share_the_scratch_stacks() {
        let v = parse(r#"[[1,[2,3],{"a":[4],"b":{"c":5}}],{"d":[],"e":{}},6]"#).unwrap();
        assert_eq!(
            super::super::stringify(&v),
            r#"[[1,[2,3],{"a":[4],"b":{"c":5}}],{"d":[],"e":{}},6]"#
        );
        let err = parse(r#"{"a":{"a":1,"b":2},"b":3,"a":4}"#).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DuplicateKey);
    }

    #[test]
    fn key_set_switches_to_hashes_and_stays_exact() {
        let mut map = Map::new();
        let mut keys = KeySet::default();
        for i in 0..100 {
            let k = format!("k{i}");
            assert!(keys.is_new(&map, &k));
            map.push_unique(k, Value::Null);
        }
        assert!(keys.hashes.is_some());
        assert!(!keys.is_new(&map, "k3"));
        assert!(!keys.is_new(&map, "k99"));
        assert!(keys.is_new(&map, "k100"));
    }
}
