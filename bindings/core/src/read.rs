//! TOON read straight into a [`Sink`], without building a [`pith::Value`].
//!
//! Building the value tree and then walking it into a language's values
//! costs more than reading the text: a 50,000-row table is half a million
//! small allocations, made, walked and freed for one result. For the
//! documents whose rules are simple this reader sends the values to the
//! sink as it reads them: objects of `key: value` lines and nested
//! objects, inline arrays, tables of primitive cells, lists (of
//! primitives, arrays and objects whose first field stands on the hyphen
//! line), and the root forms, in spec 4.x, as [`pith::select::decode`]
//! reads them.
//!
//! Anything else gives up ([`read`] returns `false`, and what the sink
//! received is to be thrown away): comment and blank lines, tabs or a
//! carriage return at a line's end, keyed tables and nested field groups,
//! a quote inside an unquoted key or cell, repeated keys, objects whose
//! keys could make them one of pith's own table encodings or a wrapper
//! (which the library restores), deep nesting, a byte order mark, text
//! that could be JSON, and every error. The library then reads (or
//! refuses) the text as before. So the reader accepts only text the
//! library reads, and gives the same value: its grammar is the library's
//! own, rule for rule, for what it accepts, and the tests compare the two
//! on every dataset file in each delimiter, on the specification's
//! fixtures, and on texts mutated at random.

use crate::sink::{Num, Sink};
use pith::Number;
use pith::number::NumberError;
use pith::select::{WRAPPER_TAG, WRAPPER_VALUE};
use pith::table::hoisted::ENCODING_SUFFIX;
use pith::toon::scan::{Class, NumberToken, classify, line_end, number, trim};
use pith::toon::{DecodeOptions, Spec};
use std::borrow::Cow;

/// Nesting beyond this is left to the library, which knows its limit.
const MAX_DEPTH: usize = 64;

/// Objects with more keys than this are checked for repeated keys by
/// sorting them when they close, fewer by comparing each new key.
const FEW_KEYS: usize = 16;

/// Reads `text` into `sink` as [`pith::select::decode`] with `opts` would
/// read it, or returns `false` for a text it leaves to the library (see
/// the module docs). The caller has set notation documents aside.
pub fn read<S: Sink>(text: &str, opts: &DecodeOptions, sink: &mut S) -> bool {
    let src = text.as_bytes();
    let start = match start(src) {
        Some(start) if opts.spec == Spec::V4 && opts.indent > 0 => start,
        _ => return false,
    };
    let mut reader = Reader {
        text,
        src,
        pos: 0,
        ready: false,
        line: None,
        indent: opts.indent,
        max_depth: opts.max_depth.min(MAX_DEPTH),
        keys: Vec::new(),
        sink,
    };
    reader.document(start).is_ok()
}

/// How the document may start, as [`pith::select::parse`] tells JSON text
/// from TOON: `None` when it is or may be JSON (or is empty, or starts
/// with a byte order mark), `Some(true)` when it is TOON only if its first
/// line is a root header (which no JSON text starts with: after `[N]`
/// comes `:` or `{`, which no JSON text has after its value).
fn start(src: &[u8]) -> Option<bool> {
    if src.starts_with(b"\xEF\xBB\xBF") {
        return None;
    }
    let json_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let first = src.iter().position(|b| !json_space(b))?;
    match src[first] {
        b'{' => None,
        b'[' => Some(true),
        // A JSON string, number or literal holds no line feed, and after
        // it comes only white space: a line feed between two tokens makes
        // the text no JSON.
        b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => {
            let last = src.iter().rposition(|b| !json_space(b))?;
            let newline = src[first..].iter().position(|&b| b == b'\n')?;
            (first + newline < last).then_some(false)
        }
        _ => Some(false),
    }
}

/// The reader gives up: the library reads this text.
struct Bail;

type R<T = ()> = Result<T, Bail>;

/// A content line: its content's offsets and its depth.
#[derive(Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    depth: usize,
}

/// A header line.
struct Header<'a> {
    key: Option<Cow<'a, str>>,
    length: usize,
    delim: u8,
    fields: Option<Vec<Cow<'a, str>>>,
    inline: Option<(usize, usize)>,
}

struct Reader<'a, 's, S: Sink> {
    text: &'a str,
    src: &'a [u8],
    /// The next line not yet scanned.
    pos: usize,
    /// Whether `line` holds the next content line (or the end).
    ready: bool,
    line: Option<Line>,
    indent: usize,
    max_depth: usize,
    /// The keys of the objects being read, the innermost last.
    keys: Vec<Cow<'a, str>>,
    sink: &'s mut S,
}

impl<'a, S: Sink> Reader<'a, '_, S> {
    // -- Lines -----------------------------------------------------------

    /// The next content line, not consumed.
    #[inline]
    fn peek(&mut self) -> R<Option<Line>> {
        if !self.ready {
            self.line = self.scan()?;
            self.ready = true;
        }
        Ok(self.line)
    }

    /// Consumes the peeked line.
    #[inline]
    fn advance(&mut self) {
        self.ready = false;
    }

    fn scan(&mut self) -> R<Option<Line>> {
        let src = self.src;
        let start = self.pos;
        if start >= src.len() {
            return Ok(None);
        }
        let newline = line_end(src, start);
        self.pos = newline + 1;
        let mut end = newline;
        let mut i = start;
        while i < end && src[i] == b' ' {
            i += 1;
        }
        // Blank lines, tabs, comments and carriage returns have rules of
        // their own; the library applies them.
        if i == end || matches!(src[i], b'\t' | b'#') || src[end - 1] == b'\r' {
            return Err(Bail);
        }
        while src[end - 1] == b' ' {
            end -= 1;
        }
        let spaces = i - start;
        if !spaces.is_multiple_of(self.indent) {
            return Err(Bail);
        }
        Ok(Some(Line {
            start: i,
            end,
            depth: spaces / self.indent,
        }))
    }

    /// The end of the document.
    fn end(&mut self) -> R {
        match self.peek()? {
            None => Ok(()),
            Some(_) => Err(Bail),
        }
    }

    /// The depth of the scope whose parent line stands at `base`: one
    /// level deeper, whatever its first line says.
    fn content_depth(&mut self, base: usize) -> R<usize> {
        match self.peek()? {
            Some(l) if l.depth > base + 1 => Err(Bail),
            _ => Ok(base + 1),
        }
    }

    fn check_depth(&self, depth: usize) -> R {
        if depth > self.max_depth {
            return Err(Bail);
        }
        Ok(())
    }

    // -- Structure -------------------------------------------------------

    /// The root form; `header_only` when it must be a root header.
    fn document(&mut self, header_only: bool) -> R {
        let first = self.peek()?.ok_or(Bail)?;
        if first.depth != 0 {
            return Err(Bail);
        }
        let (s, e) = (first.start, first.end);
        let class = self.classify(s, e)?;
        if header_only && !matches!(class, Class::Header(b) if b == s) {
            return Err(Bail);
        }
        self.advance();
        match class {
            Class::Header(bracket) => {
                let mut h = self.header(s, e, bracket)?;
                let Some(key) = h.key.take() else {
                    self.array(h, 0, 1)?;
                    return self.end();
                };
                let base = self.open(1)?;
                self.add_key(base, key)?;
                self.array(h, 0, 2)?;
                self.fields(0, 1, base)?;
                self.close(base, true)
            }
            Class::Bare => {
                self.end()?;
                self.value(s, e)
            }
            class => {
                let base = self.open(1)?;
                self.field(class, s, e, 0, 1, base)?;
                self.fields(0, 1, base)?;
                self.close(base, true)
            }
        }
    }

    /// Opens an object at value depth `depth`; returns where its keys start.
    fn open(&mut self, depth: usize) -> R<usize> {
        self.check_depth(depth)?;
        self.sink.object();
        Ok(self.keys.len())
    }

    /// The next key of the object whose keys start at `base`.
    fn add_key(&mut self, base: usize, key: Cow<'a, str>) -> R {
        let mine = &self.keys[base..];
        if mine.len() < FEW_KEYS && mine.contains(&key) {
            return Err(Bail);
        }
        self.sink.key(&key);
        self.keys.push(key);
        Ok(())
    }

    /// Closes the object whose keys start at `base`.
    fn close(&mut self, base: usize, root: bool) -> R {
        if !plain_keys(&self.keys[base..], root) {
            return Err(Bail);
        }
        self.keys.truncate(base);
        self.sink.end_object();
        Ok(())
    }

    /// The fields at depth `cd` of the object at value depth `od`.
    fn fields(&mut self, cd: usize, od: usize, base: usize) -> R {
        while let Some(line) = self.peek()? {
            if line.depth < cd {
                break;
            }
            if line.depth > cd {
                return Err(Bail);
            }
            self.advance();
            let class = self.classify(line.start, line.end)?;
            self.field(class, line.start, line.end, cd, od, base)?;
        }
        Ok(())
    }

    /// One field, content `[s, e)`, standing at depth `fd` in the object at
    /// value depth `od`.
    fn field(&mut self, class: Class, s: usize, e: usize, fd: usize, od: usize, base: usize) -> R {
        match class {
            Class::KeyValue { a, b, quoted, rest } => {
                let key = self.key(a, b, quoted)?;
                self.add_key(base, key)?;
                let (va, vb) = trim(self.src, rest, e);
                if va < vb && &self.src[va..vb] != b"[]" {
                    return self.value(va, vb);
                }
                if va < vb {
                    self.check_depth(od + 1)?;
                    self.sink.array(0);
                    return Ok(());
                }
                let child = self.open(od + 1)?;
                if let Some(next) = self.peek()?
                    && next.depth > fd
                {
                    let cd = self.content_depth(fd)?;
                    self.fields(cd, od + 1, child)?;
                }
                self.close(child, false)
            }
            Class::Header(bracket) => {
                let mut h = self.header(s, e, bracket)?;
                let key = h.key.take().ok_or(Bail)?;
                self.add_key(base, key)?;
                self.array(h, fd, od + 1)
            }
            Class::Bare => Err(Bail),
        }
    }

    /// The array a header opens; `base` is the depth of the header's line,
    /// `vd` the array's value depth.
    fn array(&mut self, h: Header<'a>, base: usize, vd: usize) -> R {
        self.check_depth(vd)?;
        match (h.fields, h.inline) {
            (Some(fields), _) => self.table(&fields, h.length, h.delim, base, vd),
            (None, Some((a, b))) => self.inline(a, b, h.length, h.delim),
            (None, None) => self.list(h.length, base, vd),
        }
    }

    /// Values on the header's line.
    fn inline(&mut self, a: usize, b: usize, length: usize, delim: u8) -> R {
        self.sink.array(length);
        let mut count = 0;
        let mut i = a;
        loop {
            if count == length {
                return Err(Bail);
            }
            count += 1;
            let j = self.cell(i, b, delim, false)?;
            if j >= b {
                break;
            }
            i = j + 1;
        }
        if count != length {
            return Err(Bail);
        }
        Ok(())
    }

    /// List items under a header standing at `base`.
    fn list(&mut self, length: usize, base: usize, vd: usize) -> R {
        self.sink.array(length);
        let item_depth = self.content_depth(base)?;
        let mut count = 0;
        while let Some(line) = self.peek()? {
            if line.depth <= base {
                break;
            }
            let c = &self.src[line.start..line.end];
            if line.depth != item_depth || !(c == b"-" || c.starts_with(b"- ")) || count == length {
                return Err(Bail);
            }
            self.advance();
            count += 1;
            self.item(line, item_depth, vd + 1)?;
        }
        if count != length {
            return Err(Bail);
        }
        Ok(())
    }

    /// One list item at depth `d`, of value depth `vd`.
    fn item(&mut self, line: Line, d: usize, vd: usize) -> R {
        let (s, e) = (line.start, line.end);
        if e - s == 1 {
            self.open(vd)?;
            self.sink.end_object();
            return Ok(());
        }
        let mut a = s + 2;
        while a < e && self.src[a] == b' ' {
            a += 1;
        }
        if &self.src[a..e] == b"[]" {
            self.check_depth(vd)?;
            self.sink.array(0);
            return Ok(());
        }
        match self.classify(a, e)? {
            Class::Header(bracket) => {
                let mut h = self.header(a, e, bracket)?;
                let Some(key) = h.key.take() else {
                    if h.fields.is_some() {
                        return Err(Bail);
                    }
                    return self.array(h, d, vd);
                };
                let base = self.open(vd)?;
                self.add_key(base, key)?;
                self.array(h, d + 1, vd + 1)?;
                self.fields(d + 1, vd, base)?;
                self.close(base, false)
            }
            Class::Bare => self.value(a, e),
            class => {
                let base = self.open(vd)?;
                self.field(class, a, e, d + 1, vd, base)?;
                self.fields(d + 1, vd, base)?;
                self.close(base, false)
            }
        }
    }

    /// The rows of a table whose header stands at `base`.
    fn table(
        &mut self,
        fields: &[Cow<'a, str>],
        length: usize,
        delim: u8,
        base: usize,
        vd: usize,
    ) -> R {
        if !distinct(fields) || !plain_keys(fields, false) {
            return Err(Bail);
        }
        let names: Vec<&str> = fields.iter().map(|f| f.as_ref()).collect();
        let shape = self.sink.shape(&names);
        self.sink.array(length);
        let row_depth = self.content_depth(base)?;
        let mut count = 0;
        while let Some(line) = self.peek()? {
            if line.depth <= base {
                break;
            }
            if line.depth != row_depth || count == length {
                return Err(Bail);
            }
            if count == 0 {
                self.check_depth(vd + 1)?;
            }
            self.advance();
            count += 1;
            self.sink.row(shape);
            self.row(line.start, line.end, names.len(), delim)?;
        }
        if count != length {
            return Err(Bail);
        }
        Ok(())
    }

    /// The `n` cells `[s, e)` of one row.
    #[inline]
    fn row(&mut self, s: usize, e: usize, n: usize, delim: u8) -> R {
        let mut i = s;
        let mut k = 0;
        loop {
            if k == n {
                return Err(Bail);
            }
            let j = self.cell(i, e, delim, k == 0)?;
            k += 1;
            if j >= e {
                break;
            }
            i = j + 1;
        }
        if k < n {
            return Err(Bail);
        }
        Ok(())
    }

    // -- Tokens ----------------------------------------------------------

    /// The class of the content `[s, e)` (the library's rules,
    /// [`pith::toon::scan::classify`]; a quote in an unquoted key is left
    /// to the library).
    fn classify(&self, s: usize, e: usize) -> R<Class> {
        let src = self.src;
        let stop = src[s..e].iter().find(|&&b| matches!(b, b':' | b'[' | b'"'));
        if src[s] != b'"' && stop == Some(&b'"') {
            return Err(Bail);
        }
        classify(src, s, e).map_err(|_| Bail)
    }

    /// The key token `[a, b)` of a key-value line.
    fn key(&self, a: usize, b: usize, quoted: bool) -> R<Cow<'a, str>> {
        if quoted {
            return Ok(self.quoted(a, b)?.0);
        }
        self.slice(a, b).map(Cow::Borrowed)
    }

    /// The header on `[s, e)` whose bracket segment opens at `bracket`
    /// (keyed tables, nested field groups and every fault left to the
    /// library).
    fn header(&self, s: usize, e: usize, bracket: usize) -> R<Header<'a>> {
        let src = self.src;
        let key = if bracket == s {
            None
        } else if src[s] == b'"' {
            Some(self.quoted(s, e)?.0)
        } else {
            if matches!(src[bracket - 1], b' ' | b'\t') {
                return Err(Bail);
            }
            Some(Cow::Borrowed(self.slice(s, bracket)?))
        };
        let lo = bracket + 1;
        let mut i = lo;
        while i < e && src[i].is_ascii_digit() {
            i += 1;
        }
        let digits = &src[lo..i];
        // Lengths past 15 digits are lengths no text holds.
        if digits.is_empty() || digits.len() > 15 || (digits.len() > 1 && digits[0] == b'0') {
            return Err(Bail);
        }
        let length = digits
            .iter()
            .fold(0usize, |n, &d| n * 10 + usize::from(d - b'0'));
        let mut delim = b',';
        if i < e && matches!(src[i], b'\t' | b'|') {
            delim = src[i];
            i += 1;
        }
        if i >= e || src[i] != b']' {
            return Err(Bail);
        }
        let p = i + 1;
        let (fields, colon) = match src.get(p) {
            Some(b':') if p < e => (None, p),
            Some(b'{') if p < e => {
                let (names, close) = self.field_list(p, e, delim)?;
                if close + 1 >= e || src[close + 1] != b':' {
                    return Err(Bail);
                }
                (Some(names), close + 1)
            }
            _ => return Err(Bail),
        };
        let (a, b) = trim(src, colon + 1, e);
        let inline = (a < b).then_some((a, b));
        if fields.is_some() && inline.is_some() {
            return Err(Bail);
        }
        Ok(Header {
            key,
            length,
            delim,
            fields,
            inline,
        })
    }

    /// The field names of the list whose `{` is at `open`, and the offset
    /// of its `}`.
    fn field_list(&self, open: usize, e: usize, delim: u8) -> R<(Vec<Cow<'a, str>>, usize)> {
        let src = self.src;
        let mut names = Vec::new();
        let mut i = open + 1;
        loop {
            let mut p = i;
            while p < e && src[p] == b' ' {
                p += 1;
            }
            if p >= e {
                return Err(Bail);
            }
            let stop = if src[p] == b'"' {
                let (name, after) = self.quoted(p, e)?;
                let mut q = after;
                while q < e && src[q] == b' ' {
                    q += 1;
                }
                if q >= e || !(src[q] == b'}' || src[q] == delim) {
                    return Err(Bail);
                }
                names.push(name);
                q
            } else {
                let mut q = p;
                while q < e && !matches!(src[q], b'{' | b'}' | b'"' | b',' | b'\t' | b'|') {
                    q += 1;
                }
                if q >= e || !(src[q] == b'}' || src[q] == delim) {
                    return Err(Bail);
                }
                let (a, b) = trim(src, p, q);
                if a == b {
                    return Err(Bail);
                }
                names.push(Cow::Borrowed(self.slice(a, b)?));
                q
            };
            if src[stop] == b'}' {
                return Ok((names, stop));
            }
            i = stop + 1;
        }
    }

    /// The primitive the whole token `[a, b)` (trimmed, not empty) denotes.
    fn value(&mut self, a: usize, b: usize) -> R {
        if self.src[a] == b'"' {
            let (s, after) = self.quoted(a, b)?;
            if after != b {
                return Err(Bail);
            }
            self.sink.string(&s);
            return Ok(());
        }
        self.unquoted(a, b)
    }

    /// One delimiter-separated cell starting at `i`; returns the offset of
    /// the delimiter that ends it, or `b`. In a row's first cell (`first`)
    /// a colon before any delimiter would make the line no row.
    #[inline]
    fn cell(&mut self, i: usize, b: usize, delim: u8, first: bool) -> R<usize> {
        let src = self.src;
        let mut p = i;
        while p < b && src[p] == b' ' {
            p += 1;
        }
        if p == b {
            self.sink.string("");
            return Ok(b);
        }
        if src[p] == b'"' {
            let (s, after) = self.quoted(p, b)?;
            let mut q = after;
            while q < b && src[q] == b' ' {
                q += 1;
            }
            if q < b && src[q] != delim {
                return Err(Bail);
            }
            self.sink.string(&s);
            return Ok(q);
        }
        let mut q = p;
        while q < b && src[q] != delim && src[q] != b'"' {
            q += 1;
        }
        if (q < b && src[q] == b'"') || (first && src[p..q].contains(&b':')) {
            return Err(Bail);
        }
        let mut end = q;
        while end > p && src[end - 1] == b' ' {
            end -= 1;
        }
        if end == p {
            self.sink.string("");
        } else {
            self.unquoted(p, end)?;
        }
        Ok(q)
    }

    /// An unquoted token `[a, b)` (not empty): a literal, a number or a string.
    #[inline]
    fn unquoted(&mut self, a: usize, b: usize) -> R {
        let t = &self.src[a..b];
        match t[0] {
            b't' if t == b"true" => self.sink.bool(true),
            b'f' if t == b"false" => self.sink.bool(false),
            b'n' if t == b"null" => self.sink.null(),
            b'-' | b'0'..=b'9' if self.number(a, b)? => {}
            _ => {
                let s = self.slice(a, b)?;
                self.sink.string(s);
            }
        }
        Ok(())
    }

    /// Sends the number `[a, b)` denotes and returns `true`, or returns
    /// `false` when the token is no number (a string, then): the library's
    /// grammar, JSON's with an `E` and leading zeros refused.
    fn number(&mut self, a: usize, b: usize) -> R<bool> {
        match number(&self.src[a..b]) {
            NumberToken::Text => Ok(false),
            NumberToken::Short {
                negative,
                mantissa,
                scale: 0,
            } => {
                let m = mantissa as i64;
                self.sink.number(Num::Int(if negative { -m } else { m }));
                Ok(true)
            }
            NumberToken::Short { .. } => {
                let text = self.slice(a, b)?;
                self.sink.number(Num::Decimal(text));
                Ok(true)
            }
            NumberToken::Long => match Number::parse(self.slice(a, b)?) {
                Ok(n) => {
                    self.sink.number(Num::Exact(&n));
                    Ok(true)
                }
                Err(NumberError::Syntax) => Ok(false),
                // The library refuses the exponent.
                Err(_) => Err(Bail),
            },
        }
    }

    /// Decodes the quoted string opened at `open`; returns it and the
    /// offset past its closing quote.
    fn quoted(&self, open: usize, to: usize) -> R<(Cow<'a, str>, usize)> {
        let src = self.src;
        let start = open + 1;
        let mut i = start;
        loop {
            if i >= to {
                return Err(Bail);
            }
            match src[i] {
                b'"' => return Ok((Cow::Borrowed(self.slice(start, i)?), i + 1)),
                b'\\' => break,
                _ => i += 1,
            }
        }
        let mut out = String::from(self.slice(start, i)?);
        loop {
            if i >= to {
                return Err(Bail);
            }
            match src[i] {
                b'"' => return Ok((Cow::Owned(out), i + 1)),
                b'\\' => {
                    if i + 1 >= to {
                        return Err(Bail);
                    }
                    match src[i + 1] {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hex = src.get(i + 2..i + 6).filter(|_| i + 6 <= to).ok_or(Bail)?;
                            let mut code = 0u32;
                            for &h in hex {
                                code = code * 16 + (h as char).to_digit(16).ok_or(Bail)?;
                            }
                            out.push(char::from_u32(code).ok_or(Bail)?);
                            i += 6;
                            continue;
                        }
                        _ => return Err(Bail),
                    }
                    i += 2;
                }
                _ => {
                    let run = i;
                    while i < to && src[i] != b'"' && src[i] != b'\\' {
                        i += 1;
                    }
                    out.push_str(self.slice(run, i)?);
                }
            }
        }
    }

    /// The text `[a, b)`; every offset here sits next to an ASCII byte or
    /// at a line's end, so this cannot fail, and is checked all the same.
    #[inline]
    fn slice(&self, a: usize, b: usize) -> R<&'a str> {
        self.text.get(a..b).ok_or(Bail)
    }
}

/// Whether no two of `keys` are the same.
fn distinct(keys: &[Cow<'_, str>]) -> bool {
    if keys.len() < FEW_KEYS {
        return keys.iter().enumerate().all(|(i, k)| !keys[..i].contains(k));
    }
    let mut sorted: Vec<&str> = keys.iter().map(|k| k.as_ref()).collect();
    sorted.sort_unstable();
    sorted.windows(2).all(|w| w[0] != w[1])
}

/// Whether an object of `keys` is one the library gives back as it was
/// read: its keys distinct (checked here for wide objects; narrow ones
/// were checked key by key), not a columnar table's, not a hoisted pair's,
/// and at the root not a wrapper's. Looks at names only, so it is
/// stricter than the library's predicates, which look at the values too.
fn plain_keys(keys: &[Cow<'_, str>], root: bool) -> bool {
    if keys.len() >= FEW_KEYS && !distinct(keys) {
        return false;
    }
    let mut table = 0;
    let mut wrapper = 0;
    for k in keys {
        match k.as_ref() {
            "cols" | "dict" | "rows" => table += 1,
            WRAPPER_TAG | WRAPPER_VALUE => wrapper += 1,
            k => {
                if let Some(base) = k.strip_suffix(ENCODING_SUFFIX)
                    && keys.iter().any(|other| other == base)
                {
                    return false;
                }
            }
        }
    }
    table < 3 && !(root && wrapper == 2)
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
