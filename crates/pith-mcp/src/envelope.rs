//! The envelope of a JSON-RPC message, read without building its value.
//!
//! Routing needs four facts per message: its `id`, its `method`, and whether
//! it carries `result` or `error`. [`scan`] finds them in one pass over the
//! bytes, skipping everything else (a 50 MB `result` is stepped over, not
//! parsed), and allocates nothing for a single message. It checks structure
//! only as far as routing needs: a line it cannot read is [`Frame::Opaque`]
//! and is forwarded untouched like everything else the proxy does not
//! rewrite. Nesting is followed with a counter, never recursion.

/// One message's routing facts; raw JSON text, borrowed from the line.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Envelope<'a> {
    /// The whole message object.
    pub span: &'a [u8],
    /// The `id` member's value (last one wins, as in `JSON.parse`).
    pub id: Option<&'a [u8]>,
    /// The `method` member's value, a string token with its quotes.
    pub method: Option<&'a [u8]>,
    /// Whether a `result` member is present.
    pub has_result: bool,
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
                    Member::Result => env.has_result = true,
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

    /// Steps over a string token, the cursor on its opening quote.
    fn string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        loop {
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    return Some(());
                }
                b'\\' => self.i += 2,
                _ => self.i += 1,
            }
        }
    }

    /// Steps over one value of any kind.
    fn value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string(),
            b'{' | b'[' => self.container(),
            _ => {
                let start = self.i;
                while let Some(c) = self.peek() {
                    if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n') {
                        break;
                    }
                    self.i += 1;
                }
                (self.i > start).then_some(())
            }
        }
    }

    /// Steps over an object or array by counting brackets outside strings.
    fn container(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                b'"' => {
                    self.string()?;
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        self.i += 1;
                        return Some(());
                    }
                }
                _ => {}
            }
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
        assert!(!e.has_result);

        let e = single(
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"result\":{\"content\":[{\"text\":\"}]\\\"{\"}]}}\r\n",
        );
        assert_eq!(e.id, Some(&b"\"a\\\"b\""[..]));
        assert_eq!(e.method, None);
        assert!(e.has_result);

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
        assert!(e.has_result);
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
