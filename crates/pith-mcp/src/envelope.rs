//! The envelope of a JSON-RPC message, read without building its value,
//! and the byte spans of the members a rewrite edits.
//!
//! Routing needs four facts per message: its `id`, its `method`, and where
//! its `result` is, if it has one. [`scan`] finds them in one pass over the
//! bytes, skipping everything else (a 50 MB `result` is stepped over, not
//! parsed, though every byte of it is checked to be JSON). A line that is
//! not one JSON text, in UTF-8, is [`Frame::Opaque`] and is forwarded
//! untouched like everything else the proxy does not rewrite: an edit is
//! only ever spliced into valid JSON, so it never makes a broken line look
//! mended, or mends part of one. Nesting is followed with a stack of the
//! open containers' kinds, never recursion.
//!
//! A rewrite edits a few members of a message and must leave every other
//! byte as the server wrote it (`1.0` stays `1.0`, `\u00e9` stays escaped,
//! keys keep their order and spacing). [`members`] and [`elements`] give the
//! spans of an object's members and an array's elements, so an edit can be
//! spliced into the original line ([`Splice`]).

use std::ops::Range;

/// One message's routing facts; raw JSON text, borrowed from the line.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Envelope<'a> {
    /// The whole message object.
    pub span: &'a [u8],
    /// The `id` member's value (last one wins, as in `JSON.parse`).
    pub id: Option<&'a [u8]>,
    /// The `method` member's value, a string token with its quotes.
    pub method: Option<&'a [u8]>,
    /// Where the `result` member's value is, in the scanned line.
    pub result: Option<Range<usize>>,
}

/// What a line holds, as far as routing is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Frame<'a> {
    /// One message object.
    Single(Envelope<'a>),
    /// A JSON-RPC batch: an array of message objects.
    Batch(Vec<Envelope<'a>>),
    /// Anything else: not JSON, or not a message the proxy can route.
    Opaque,
}

/// Reads the envelope of the message on `line` (trailing whitespace,
/// including the line terminator, is allowed).
pub(crate) fn scan(line: &[u8]) -> Frame<'_> {
    if std::str::from_utf8(line).is_err() {
        return Frame::Opaque;
    }
    let mut c = Cursor { b: line, i: 0 };
    c.ws();
    let frame = match c.peek() {
        Some(b'{') => c.object().map(Frame::Single),
        Some(b'[') => c.batch().map(Frame::Batch),
        _ => None,
    };
    c.ws();
    match frame {
        Some(f) if c.i == line.len() => f,
        _ => Frame::Opaque,
    }
}

/// The text of a JSON string token (quotes included), unescaped.
pub(crate) fn string_value(token: &[u8]) -> Option<String> {
    let inner = token.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    if !inner.contains(&b'\\') {
        return std::str::from_utf8(inner).ok().map(str::to_owned);
    }
    pith::json::parse_bytes(token).ok()?.into_string().ok()
}

/// One member of an object, as byte ranges of the buffer it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Span {
    /// The key token, quotes included.
    pub key: Range<usize>,
    /// The value.
    pub value: Range<usize>,
}

/// The members of the object whose `{` is at `at` in `b`, in order, and the
/// position just past its `}`; `None` if it is not a well-formed object.
pub(crate) fn members(b: &[u8], at: usize) -> Option<(Vec<Span>, usize)> {
    let mut c = Cursor { b, i: at };
    c.eat(b'{')?;
    let mut out = Vec::new();
    c.ws();
    if c.eat(b'}').is_some() {
        return Some((out, c.i));
    }
    loop {
        c.ws();
        let key = c.i;
        c.string()?;
        let key = key..c.i;
        c.ws();
        c.eat(b':')?;
        c.ws();
        let value = c.i;
        c.value()?;
        out.push(Span {
            key,
            value: value..c.i,
        });
        c.ws();
        match c.peek()? {
            b',' => c.i += 1,
            b'}' => return Some((out, c.i + 1)),
            _ => return None,
        }
    }
}

/// The elements of the array whose `[` is at `at` in `b`, in order, and the
/// position just past its `]`.
pub(crate) fn elements(b: &[u8], at: usize) -> Option<(Vec<Range<usize>>, usize)> {
    let mut c = Cursor { b, i: at };
    c.eat(b'[')?;
    let mut out = Vec::new();
    c.ws();
    if c.eat(b']').is_some() {
        return Some((out, c.i));
    }
    loop {
        c.ws();
        let start = c.i;
        c.value()?;
        out.push(start..c.i);
        c.ws();
        match c.peek()? {
            b',' => c.i += 1,
            b']' => return Some((out, c.i + 1)),
            _ => return None,
        }
    }
}

/// The member of `spans` whose key is `name` (escapes read), if any.
pub(crate) fn find<'s>(b: &[u8], spans: &'s [Span], name: &str) -> Option<&'s Span> {
    spans.iter().find(|s| key_is(&b[s.key.clone()], name))
}

/// [`members`] of the object at `at` when the proxy may edit it: well
/// formed, and no key repeated ([`unique_keys`]).
pub(crate) fn object(b: &[u8], at: usize) -> Option<(Vec<Span>, usize)> {
    members(b, at).filter(|(spans, _)| unique_keys(b, spans))
}

/// Whether no two of `spans` have the same key (escapes read). A repeated
/// key is the last one's to `JSON.parse` and may be the first one's to
/// another reader: the proxy edits no object that has one.
pub(crate) fn unique_keys(b: &[u8], spans: &[Span]) -> bool {
    use std::borrow::Cow;
    let mut seen = std::collections::HashSet::with_capacity(spans.len());
    spans.iter().all(|s| {
        let token = &b[s.key.clone()];
        let key: Cow<'_, [u8]> = match token
            .strip_prefix(b"\"")
            .and_then(|k| k.strip_suffix(b"\""))
        {
            Some(inner) if !inner.contains(&b'\\') => Cow::Borrowed(inner),
            _ => match string_value(token) {
                Some(k) => Cow::Owned(k.into_bytes()),
                None => return false,
            },
        };
        seen.insert(key)
    })
}

/// Whether the key token `key` (quotes included) spells `name`.
pub(crate) fn key_is(key: &[u8], name: &str) -> bool {
    match key.strip_prefix(b"\"").and_then(|k| k.strip_suffix(b"\"")) {
        Some(inner) if !inner.contains(&b'\\') => inner == name.as_bytes(),
        _ => string_value(key).as_deref() == Some(name),
    }
}

/// Edits of one buffer, applied in a single pass: each replaces a range of
/// the original bytes (an empty range inserts). Ranges must not overlap;
/// everything outside them is copied as it was.
#[derive(Debug, Default)]
pub(crate) struct Splice {
    edits: Vec<(Range<usize>, Vec<u8>)>,
}

impl Splice {
    /// Replaces `range` with `bytes`.
    pub fn replace(&mut self, range: Range<usize>, bytes: Vec<u8>) {
        self.edits.push((range, bytes));
    }

    /// Inserts `bytes` at `at`.
    pub fn insert(&mut self, at: usize, bytes: Vec<u8>) {
        self.edits.push((at..at, bytes));
    }

    /// Removes member `i` of an object's `spans`, with the comma that
    /// separates it from a neighbour.
    pub fn remove_member(&mut self, spans: &[Span], i: usize) {
        let range = match (i.checked_sub(1), spans.get(i + 1)) {
            (_, Some(next)) => spans[i].key.start..next.key.start,
            (Some(prev), None) => spans[prev].value.end..spans[i].value.end,
            (None, None) => spans[i].key.start..spans[i].value.end,
        };
        self.edits.push((range, Vec::new()));
    }

    /// Adds a member (`"key":value`, already written) to the object whose
    /// members are `spans` and whose closing `}` is at `close`.
    pub fn add_member(&mut self, spans: &[Span], close: usize, member: &[u8]) {
        match spans.last() {
            Some(last) => {
                let mut bytes = Vec::with_capacity(member.len() + 1);
                bytes.push(b',');
                bytes.extend_from_slice(member);
                self.insert(last.value.end, bytes);
            }
            None => self.insert(close, member.to_vec()),
        }
    }

    /// Whether no edit was made.
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }

    /// The buffer with every edit applied.
    pub fn apply(mut self, b: &[u8]) -> Vec<u8> {
        // Inserts at one place keep the order they were made in.
        self.edits.sort_by_key(|(r, _)| (r.start, r.end));
        let grow: usize = self.edits.iter().map(|(_, v)| v.len()).sum();
        let mut out = Vec::with_capacity(b.len() + grow);
        let mut at = 0;
        for (range, bytes) in self.edits {
            out.extend_from_slice(&b[at..range.start.max(at)]);
            out.extend_from_slice(&bytes);
            at = at.max(range.end);
        }
        out.extend_from_slice(&b[at..]);
        out
    }
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        if self.peek() == Some(byte) {
            self.i += 1;
            Some(())
        } else {
            None
        }
    }

    fn batch(&mut self) -> Option<Vec<Envelope<'a>>> {
        self.eat(b'[')?;
        let mut out = Vec::new();
        self.ws();
        if self.eat(b']').is_some() {
            return Some(out);
        }
        loop {
            self.ws();
            out.push(self.object()?);
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return Some(out);
                }
                _ => return None,
            }
        }
    }

    fn object(&mut self) -> Option<Envelope<'a>> {
        let start = self.i;
        self.eat(b'{')?;
        let mut env = Envelope::default();
        self.ws();
        if self.eat(b'}').is_none() {
            loop {
                self.ws();
                let key_start = self.i;
                self.string()?;
                let key = &self.b[key_start..self.i];
                self.ws();
                self.eat(b':')?;
                self.ws();
                let value_start = self.i;
                self.value()?;
                let value = &self.b[value_start..self.i];
                match member(key) {
                    Member::Id => env.id = Some(value),
                    Member::Method => env.method = Some(value),
                    Member::Result => env.result = Some(value_start..self.i),
                    Member::Other => {}
                }
                self.ws();
                match self.peek()? {
                    b',' => self.i += 1,
                    b'}' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        env.span = &self.b[start..self.i];
        Some(env)
    }

    /// Steps over a string token, the cursor on its opening quote: no
    /// control character unescaped, and only JSON's escapes.
    fn string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        loop {
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    return Some(());
                }
                b'\\' => match self.b.get(self.i + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.i += 2,
                    b'u' => {
                        let hex = self.b.get(self.i + 2..self.i + 6)?;
                        if !hex.iter().all(u8::is_ascii_hexdigit) {
                            return None;
                        }
                        self.i += 6;
                    }
                    _ => return None,
                },
                0x00..=0x1f => return None,
                _ => self.i += 1,
            }
        }
    }

    /// Steps over one JSON value of any kind, checking its grammar. The
    /// containers it is inside are kept on a stack (`true` for an object),
    /// so nesting costs a byte of heap a level, never a frame.
    fn value(&mut self) -> Option<()> {
        let mut open: Vec<bool> = Vec::new();
        loop {
            // At the start of a value.
            self.ws();
            match self.peek()? {
                b'"' => self.string()?,
                b'{' => {
                    self.i += 1;
                    self.ws();
                    if self.eat(b'}').is_none() {
                        open.push(true);
                        self.key()?;
                        continue;
                    }
                }
                b'[' => {
                    self.i += 1;
                    self.ws();
                    if self.eat(b']').is_none() {
                        open.push(false);
                        continue;
                    }
                }
                _ => self.scalar()?,
            }
            // After a value: close what it ends, or go on to the next
            // member or element.
            loop {
                let Some(&object) = open.last() else {
                    return Some(());
                };
                self.ws();
                match self.peek()? {
                    b',' => {
                        self.i += 1;
                        if object {
                            self.key()?;
                        }
                        break;
                    }
                    b'}' if object => {
                        self.i += 1;
                        open.pop();
                    }
                    b']' if !object => {
                        self.i += 1;
                        open.pop();
                    }
                    _ => return None,
                }
            }
        }
    }

    /// Steps over a member's key and its colon.
    fn key(&mut self) -> Option<()> {
        self.ws();
        self.string()?;
        self.ws();
        self.eat(b':')
    }

    /// Steps over `true`, `false`, `null` or a number as JSON spells it.
    fn scalar(&mut self) -> Option<()> {
        let rest = &self.b[self.i..];
        for literal in [&b"true"[..], b"false", b"null"] {
            if rest.starts_with(literal) {
                self.i += literal.len();
                return Some(());
            }
        }
        let _ = self.eat(b'-');
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.eat(b'.').is_some() {
            self.peek().filter(u8::is_ascii_digit)?;
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            self.peek().filter(u8::is_ascii_digit)?;
            self.digits();
        }
        Some(())
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
    }
}

enum Member {
    Id,
    Method,
    Result,
    Other,
}

fn member(key: &[u8]) -> Member {
    let plain = match key {
        b"\"id\"" => return Member::Id,
        b"\"method\"" => return Member::Method,
        b"\"result\"" => return Member::Result,
        _ if !key.contains(&b'\\') => return Member::Other,
        _ => string_value(key),
    };
    match plain.as_deref() {
        Some("id") => Member::Id,
        Some("method") => Member::Method,
        Some("result") => Member::Result,
        _ => Member::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn single(line: &str) -> Envelope<'_> {
        match scan(line.as_bytes()) {
            Frame::Single(e) => e,
            other => panic!("expected one message in {line:?}, found {other:?}"),
        }
    }

    #[test]
    fn reads_request_response_and_notification() {
        let e = single(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}"#);
        assert_eq!(e.id, Some(&b"7"[..]));
        assert_eq!(e.method, Some(&b"\"tools/call\""[..]));
        assert_eq!(e.result, None);

        let e = single(
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"result\":{\"content\":[{\"text\":\"}]\\\"{\"}]}}\r\n",
        );
        assert_eq!(e.id, Some(&b"\"a\\\"b\""[..]));
        assert_eq!(e.method, None);
        assert!(e.result.is_some());

        let e = single(
            r#" { "method" : "notifications/progress" , "params" : { "progress" : 1e3 } } "#,
        );
        assert_eq!(e.id, None);
        assert_eq!(e.method, Some(&br#""notifications/progress""#[..]));
    }

    #[test]
    fn escaped_member_names_are_recognised() {
        let e = single(r#"{"\u0069d":3,"resul\u0074":null}"#);
        assert_eq!(e.id, Some(&b"3"[..]));
        assert!(e.result.is_some());
    }

    #[test]
    fn the_last_duplicate_id_wins() {
        let e = single(r#"{"id":1,"id":2,"result":{}}"#);
        assert_eq!(e.id, Some(&b"2"[..]));
    }

    #[test]
    fn batches_list_their_messages() {
        match scan(br#"[{"id":1,"result":{}},{"method":"m"}]"#) {
            Frame::Batch(v) => {
                assert_eq!(v.len(), 2);
                assert_eq!(v[0].id, Some(&b"1"[..]));
                assert_eq!(v[0].span, br#"{"id":1,"result":{}}"#);
                assert_eq!(v[1].method, Some(&b"\"m\""[..]));
            }
            other => panic!("expected a batch, found {other:?}"),
        }
        assert_eq!(scan(b"[]"), Frame::Batch(Vec::new()));
    }

    #[test]
    fn what_cannot_be_routed_is_opaque() {
        for line in [
            "",
            "\n",
            "hello world",
            "{\"id\":1",
            "{\"id\":1}}",
            "{\"id\":1} trailing",
            "{\"id\" 1}",
            "{\"id\":}",
            "[1,2]",
            "\"just a string\"",
            "42",
            "{\"a\":[}",
            "{\"a\":\"unterminated}",
        ] {
            assert_eq!(scan(line.as_bytes()), Frame::Opaque, "{line:?}");
        }
    }

    #[test]
    fn a_line_that_is_not_json_is_opaque_wherever_it_breaks() {
        // Each would route, and have its result edited, were only the
        // brackets counted: the edit would then be spliced into a line
        // no client can read.
        let result = r#""result":{"content":[{"type":"text","text":"[1,2]"}]}"#;
        for bad in [
            "tru",
            "nul",
            "01",
            "1.",
            ".5",
            "-",
            "1e",
            "+1",
            "[}",
            "[1}",
            "{\"a\"]",
            "{\"a\" 1}",
            "{\"a\":1,}",
            "[1,]",
            "[1 2]",
            "{1:2}",
            "\"tab\there\"",
            "\"\\x\"",
            "\"\\u12\"",
            "NaN",
        ] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":1,{result},"bad":{bad}}}"#);
            assert_eq!(scan(line.as_bytes()), Frame::Opaque, "{line}");
        }
        let mut line = format!(r#"{{"id":1,{result},"bad":"x"}}"#).into_bytes();
        let at = line.len() - 3;
        line[at] = 0xff;
        assert_eq!(scan(&line), Frame::Opaque, "invalid UTF-8");
        // What JSON allows still routes.
        let good = format!(
            r#"{{"id":1,{result},"ok":[true,false,null,0,-0.5e-3,1E+2,"\u00e9\n\"\\/",{{}},[],{{"a":[{{}}]}}]}}"#
        );
        assert!(matches!(scan(good.as_bytes()), Frame::Single(_)), "{good}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]

        /// A line is routed exactly when it is one JSON object: pith's
        /// own JSON reader agrees, but for what it refuses beyond the
        /// grammar (repeated keys, lone surrogates, numbers out of range).
        #[test]
        fn a_routed_line_is_json_and_json_is_routed(
            base in 0usize..4,
            edits in proptest::collection::vec((0usize..4096, 0u8..=255, 0u8..3), 0..4),
        ) {
            let bases = [
                r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"[1, 2.5e3, -0]"}],"isError":false}}"#,
                r#"{"id":"a\"b","method":"tools/call","params":{"name":"x","arguments":{"q":[true,null,{"k":"\u00e9\n"}]}}}"#,
                r#" { "id" : 12345678901234567890 , "result" : [ [ ] , { } , "\/" , 0.5 , 1E+2 ] } "#,
                r#"{"a":{"b":{"c":[1,[2,[3,{"d":"e"}]]]}},"id":null}"#,
            ];
            let mut line = bases[base].as_bytes().to_vec();
            for (at, byte, how) in edits {
                let at = at % (line.len() + 1);
                match how {
                    0 => line.insert(at, byte),
                    1 if at < line.len() => {
                        line.remove(at);
                    }
                    _ if at < line.len() => line[at] = byte,
                    _ => {}
                }
            }
            let routed = !matches!(scan(&line), Frame::Opaque);
            let parsed = pith::json::parse_bytes(&line);
            let object = line.trim_ascii_start().first() == Some(&b'{');
            match &parsed {
                Ok(_) => proptest::prop_assert!(!object || routed, "{}", String::from_utf8_lossy(&line)),
                Err(e) if routed => {
                    use pith::ErrorKind::*;
                    proptest::prop_assert!(
                        matches!(e.kind(), DuplicateKey | LoneSurrogate | NumberRange),
                        "routed, but {e}: {}",
                        String::from_utf8_lossy(&line)
                    );
                }
                Err(_) => {}
            }
        }
    }

    #[test]
    fn deep_nesting_is_counted_not_recursed() {
        let deep = format!(
            "{{\"id\":1,\"result\":{}{}}}",
            "[".repeat(200_000),
            "]".repeat(200_000)
        );
        let e = single(&deep);
        assert_eq!(e.id, Some(&b"1"[..]));
    }

    #[test]
    fn string_values_unescape() {
        assert_eq!(
            string_value(br#""tools/call""#).as_deref(),
            Some("tools/call")
        );
        assert_eq!(string_value(br#""a\u002fb""#).as_deref(), Some("a/b"));
        assert_eq!(string_value(b"42"), None);
        assert_eq!(string_value(br#""\ud800""#), None);
    }
}
