//! What compact JSON would cost, read off the TOON text `auto` has just
//! written, for documents whose TOON has no list items.
//!
//! A pass over the value costs about as much as writing its TOON (both wait
//! on memory); the TOON text is one contiguous buffer and far cheaper to
//! scan. [`survey_text`] reads it line by line, as the encoder wrote it, and
//! answers only when the document is *plain*: no line is a list item (`- `),
//! so every array of objects is a TOON table (the floors below are worked
//! out for members and tables only); and no key can be a look-alike's, because the
//! text holds neither `json_columns` nor all of `dict`, `cols` and `rows`
//! (keys are written verbatim: quoting escapes none of their characters).
//! Anything else, or anything it does not expect, sends `auto` to the value
//! survey instead.
//!
//! # The floors
//!
//! Every primitive and every key that JSON writes once is written once in
//! TOON too, with the same characters, except that TOON writes the escapes
//! `\b` and `\f` as `\u0008` and `\u000c`; a table's field names, written
//! once in TOON, are written once per row in JSON.
//!
//! * **Bytes**: the bytes of every primitive and key as TOON writes them
//!   (less 4 for every `\u` escape), plus JSON's quotes around bare keys,
//!   colons, and braces of table rows.
//! * **Tokens** (o200k_base and cl100k_base; see `bound.rs` for the piece
//!   rules): the runs of ASCII letters and of ASCII digits in primitives
//!   and keys (at least one piece each), counted where they touch no joiner
//!   (`'`, non-ASCII, and here every `\u` escape), each table's
//!   field-name runs once per row, and punctuation runs JSON is sure to
//!   have: after each key ending in an ASCII letter or digit, the `":` that
//!   follows it (two or more characters, so a piece of its own); and in flat
//!   tables the `,"` before such a key when the value before it holds a
//!   letter or digit (which keeps the two runs apart).

/// Floors under compact JSON's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Floors {
    pub bytes: usize,
    pub tokens: usize,
    /// Keys seen that a look-alike would need.
    marks: u8,
}

/// The floors, when `text` (written with `indent` spaces per level and
/// `delimiter`) is a plain document; `None` otherwise.
/// With `tokens` off only the bytes floor is worked out (and faster).
pub(crate) fn survey_text(
    text: &str,
    indent: usize,
    delimiter: u8,
    tokens: bool,
) -> Option<Floors> {
    let scan = Scan { delimiter, tokens };
    let mut f = Floors::default();
    let mut table: Option<Table> = None;
    for line in text.split('\n') {
        let b = line.as_bytes();
        let spaces = b.iter().take_while(|&&c| c == b' ').count();
        if indent == 0 || spaces % indent != 0 {
            return None;
        }
        let depth = spaces / indent;
        let rest = &b[spaces..];
        if rest.first() == Some(&b'-') && matches!(rest.get(1), None | Some(b' ')) {
            return None;
        }
        if let Some(t) = &mut table
            && t.left > 0
        {
            if depth != t.depth {
                return None;
            }
            t.left -= 1;
            t.row(rest, &scan, &mut f)?;
            continue;
        }
        table = key_line(rest, depth, delimiter, &mut f)?;
    }
    if table.is_some_and(|t| t.left > 0) {
        return None;
    }
    let m = f.marks;
    if m & JSON_COLUMNS != 0 || m & (DICT | COLS | ROWS) == DICT | COLS | ROWS {
        // Perhaps a look-alike: the value survey decides.
        return None;
    }
    if !tokens {
        // JSON writes `\b` and `\f` in two bytes where TOON takes six: take
        // four off for every backslash, to be safe.
        // Counted in chunks of at most 255 bytes with a byte-wide counter,
        // which compiles to whole-vector compares.
        let backslashes: usize = text
            .as_bytes()
            .chunks(255)
            .map(|chunk| usize::from(chunk.iter().fold(0u8, |n, &c| n + u8::from(c == b'\\'))))
            .sum();
        f.bytes = f.bytes.saturating_sub(4 * backslashes);
    }
    Some(f)
}

/// Keys that a look-alike needs, seen anywhere.
const JSON_COLUMNS: u8 = 1;
const DICT: u8 = 2;
const COLS: u8 = 4;
const ROWS: u8 = 8;

/// How rows are read.
struct Scan {
    delimiter: u8,
    /// Whether the token floor is wanted (else only bytes).
    tokens: bool,
}

/// A table whose rows are being read.
struct Table {
    /// Rows still to come, and their indentation level.
    left: usize,
    depth: usize,
    keyed: bool,
    /// Per field: whether its name ends in an ASCII letter or digit; only
    /// for flat tables (no nested field groups), where fields and cells
    /// pair up one to one.
    flat: Option<Vec<bool>>,
    /// Whether the table is flat and all its field names end in an ASCII
    /// letter or digit: then rows take the word-at-a-time path.
    swar: bool,
    /// Whether the previous row's last cell holds a letter or digit.
    last_alnum: bool,
    /// Cells per row.
    leaves: usize,
}

impl Table {
    fn row(&mut self, rest: &[u8], scan: &Scan, f: &mut Floors) -> Option<()> {
        let delimiter = scan.delimiter;
        let mut at = 0;
        if self.keyed {
            let (name, end) = key(rest, &mut f.marks)?;
            if rest.get(end..end + 2) != Some(b": ") {
                return None;
            }
            f.bytes += name.bytes + 2;
            f.tokens += name.runs + usize::from(name.alnum_end);
            at = end + 2;
        }
        let cells = &rest[at..];
        if !scan.tokens {
            // Every cell's characters but the delimiters between them.
            f.bytes += cells.len().checked_sub(self.leaves.saturating_sub(1))?;
            return Some(());
        }
        if self.swar
            && let Some(r) = swar_row(cells, delimiter)
            && r.delimiters + 1 == self.leaves
        {
            // A flat table whose field names all end in a letter or digit.
            f.tokens += r.runs + r.before_keys + usize::from(!self.keyed && self.last_alnum);
            self.last_alnum = r.last_alnum;
            return Some(());
        }
        let mut j = 0;
        loop {
            let (c, end) = cell(rest, at, delimiter)?;
            f.bytes += c.bytes;
            f.tokens += c.runs;
            if let Some(flat) = &self.flat {
                // The `,"` before this field's key, kept apart from the run
                // after the previous key by the previous value's letters.
                let before = if j == 0 {
                    !self.keyed && self.last_alnum
                } else {
                    self.last_alnum
                };
                if before && flat.get(j).copied().unwrap_or(false) {
                    f.tokens += 1;
                }
            }
            self.last_alnum = c.alnum;
            j += 1;
            if end == rest.len() {
                break;
            }
            at = end + 1;
        }
        if let Some(flat) = &self.flat
            && j != flat.len()
        {
            return None;
        }
        Some(())
    }
}

/// A `key: value`, `key:`, `key[N]: items` or `key[N]{fields}:` line (the
/// key absent at the root); returns the table it opens.
fn key_line(rest: &[u8], depth: usize, delimiter: u8, f: &mut Floors) -> Option<Option<Table>> {
    let (k, mut at) = if rest.first() == Some(&b'[') {
        (None, 0)
    } else {
        let (k, end) = key(rest, &mut f.marks)?;
        (Some(k), end)
    };
    if let Some(k) = &k {
        // `"key":` and a comma or closing brace.
        f.bytes += k.bytes + 2;
        f.tokens += k.runs + usize::from(k.alnum_end);
    }
    match rest.get(at) {
        Some(b':') if k.is_some() => {
            match rest.get(at + 1) {
                None => f.bytes += 1, // `{`
                Some(b' ') => {
                    let c = content(&rest[at + 2..]);
                    f.bytes += c.bytes;
                    f.tokens += c.runs;
                }
                Some(_) => return None,
            }
            Some(None)
        }
        Some(b'[') => {
            at += 1;
            let digits = rest[at..].iter().take_while(|c| c.is_ascii_digit()).count();
            let n: usize = std::str::from_utf8(&rest[at..at + digits])
                .ok()?
                .parse()
                .ok()?;
            at += digits;
            let keyed = rest.get(at) == Some(&b':');
            at += usize::from(keyed);
            if matches!(rest.get(at), Some(b'\t' | b'|')) {
                at += 1;
            }
            if rest.get(at) != Some(&b']') {
                return None;
            }
            at += 1;
            f.bytes += 2; // the brackets
            match rest.get(at) {
                Some(b':') if !keyed => {
                    // Inline primitives.
                    match rest.get(at + 1) {
                        None if n == 0 => {}
                        Some(b' ') => {
                            let mut i = at + 2;
                            loop {
                                let end = cell_end(rest, i, delimiter)?;
                                let c = content(&rest[i..end]);
                                f.bytes += c.bytes;
                                f.tokens += c.runs;
                                if end == rest.len() {
                                    break;
                                }
                                i = end + 1;
                            }
                        }
                        _ => return None,
                    }
                    Some(None)
                }
                Some(b'{') => {
                    let (fields, end) = field_list(rest, at, delimiter, &mut f.marks)?;
                    if rest.get(end..) != Some(b":") || n == 0 {
                        return None;
                    }
                    // Field names: once in the header, once per row in JSON.
                    f.tokens += fields.runs.saturating_mul(n.saturating_sub(1));
                    f.tokens += fields.alnum_ends.saturating_mul(n);
                    f.bytes += fields.bytes.saturating_mul(n);
                    if !keyed {
                        // Commas between rows (a keyed table's are its names' separators).
                        f.bytes += n - 1;
                    }
                    f.tokens += fields.runs;
                    let swar = !fields.nested && fields.ends.iter().all(|&e| e);
                    Some(Some(Table {
                        left: n,
                        depth: depth + 1,
                        keyed,
                        swar,
                        flat: (!fields.nested).then_some(fields.ends),
                        last_alnum: false,
                        leaves: fields.leaves,
                    }))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// What a key contributes.
struct Key {
    bytes: usize,
    runs: usize,
    /// Whether its last character is an ASCII letter or digit.
    alnum_end: bool,
}

/// The key at the start of `b` (bare or quoted) and where it ends.
fn key(b: &[u8], marks: &mut u8) -> Option<(Key, usize)> {
    let end = if b.first() == Some(&b'"') {
        quoted_end(b, 0)?
    } else {
        let n = b
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.'))
            .count();
        if n == 0 {
            return None;
        }
        n
    };
    let c = content(&b[..end]);
    let quoted = b[0] == b'"';
    let name = if quoted { &b[1..end - 1] } else { &b[..end] };
    *marks |= match name {
        b"json_columns" => JSON_COLUMNS,
        b"dict" => DICT,
        b"cols" => COLS,
        b"rows" => ROWS,
        _ => 0,
    };
    Some((
        Key {
            // JSON adds quotes to a bare key.
            bytes: c.bytes + if quoted { 0 } else { 2 },
            runs: c.runs,
            alnum_end: c.alnum_end,
        },
        end,
    ))
}

/// The field names of a header, from the `{` at `open`.
struct Fields {
    /// Per top-level field, whether its name ends in a letter or digit.
    ends: Vec<bool>,
    nested: bool,
    runs: usize,
    /// Names ending in a letter or digit, at every level.
    alnum_ends: usize,
    /// JSON bytes per row: each name with its colon, and the braces.
    bytes: usize,
    /// Leaf fields: the cells of a row.
    leaves: usize,
}

fn field_list(b: &[u8], open: usize, delimiter: u8, marks: &mut u8) -> Option<(Fields, usize)> {
    let mut fields = Fields {
        ends: Vec::new(),
        nested: false,
        runs: 0,
        alnum_ends: 0,
        bytes: 2,
        leaves: 0,
    };
    let mut level = 0usize;
    let mut at = open;
    loop {
        match b.get(at) {
            Some(b'{') => {
                level += 1;
                at += 1;
                if level > 1 {
                    fields.nested = true;
                    fields.bytes += 2;
                }
            }
            Some(b'}') => {
                level = level.checked_sub(1)?;
                at += 1;
                if level == 0 {
                    return Some((fields, at));
                }
            }
            Some(&c) if c == delimiter => at += 1,
            Some(_) => {
                let (k, end) = key(&b[at..], marks)?;
                // A name followed by `{` heads a group, not a cell.
                fields.leaves += usize::from(b.get(at + end) != Some(&b'{'));
                fields.runs += k.runs;
                fields.alnum_ends += usize::from(k.alnum_end);
                fields.bytes += k.bytes + 1;
                if level == 1 {
                    fields.ends.push(k.alnum_end);
                }
                at += end;
            }
            None => return None,
        }
    }
}

/// The cell starting at `at` and where it ends (at the delimiter after it,
/// or the end of the line), read in one pass.
fn cell(b: &[u8], at: usize, delimiter: u8) -> Option<(Content, usize)> {
    // Letter and digit runs, one piece each at least (a long digit run has
    // more; this pass does not look). Escapes, apostrophes and non-ASCII
    // send the cell to the careful reader.
    let quoted = b.get(at) == Some(&b'"');
    let (mut runs, mut prev, mut special) = (0usize, 0u8, false);
    let mut i = at + usize::from(quoted);
    let end = loop {
        let Some(&c) = b.get(i) else {
            if quoted {
                return None;
            }
            break i;
        };
        if quoted && c == b'"' {
            break i + 1;
        }
        if !quoted && c == delimiter {
            break i;
        }
        let k = UNIT[usize::from(c)];
        if k == 3 {
            special = true;
            // Skip an escaped character, so that `\"` does not end the cell.
            i += usize::from(c == b'\\');
        }
        runs += usize::from(k != 0 && k != prev);
        prev = k;
        i += 1;
    };
    if b.get(end).is_some_and(|&c| c != delimiter) {
        return None;
    }
    if special {
        return Some((content(&b[at..end]), end));
    }
    let c = Content {
        bytes: end - at,
        runs,
        alnum: runs > 0,
        alnum_end: matches!(prev, 1 | 2),
    };
    Some((c, end))
}

/// What [`swar_row`] finds in a row of cells.
struct RowScan {
    /// Runs of letters and of digits (one piece each, at least).
    runs: usize,
    /// Delimiters outside quotes right after a letter or digit, or after a
    /// closing quote right after one: cells that surely hold one.
    before_keys: usize,
    delimiters: usize,
    /// Whether the last cell ends the same way.
    last_alnum: bool,
}

/// Set bits of each byte value.
static POP: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    t
};

/// Reads a row eight bytes at a time; `None` when it holds a backslash, an
/// apostrophe or a non-ASCII byte (the careful reader takes those).
fn swar_row(b: &[u8], delimiter: u8) -> Option<RowScan> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // Masks hold the high bit of each byte that qualifies; shifting one
    // left by 8 looks at the byte before.
    let eq = |w: u64, c: u8| {
        let x = w ^ (ONES * u64::from(c));
        !(((x & LOW7) + LOW7) | x | LOW7)
    };
    // Set bits of a mask (one per byte).
    let count =
        |m: u64| usize::from(POP[((m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize]);
    let mut out = RowScan {
        runs: 0,
        before_keys: 0,
        delimiters: 0,
        last_alnum: false,
    };
    // The previous word's masks, shifted so that its last byte (and for
    // `alnum`, the last two) sit where this word's byte 0 looks.
    let (mut letter_in, mut digit_in, mut alnum_in, mut quote_in, mut alnum_in2) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut inside = 0u64;
    let mut last_len = 0;
    let (mut last_alnum_mask, mut last_quote_mask, mut prev_alnum_last) = (0u64, 0u64, 0u64);
    for chunk in b.chunks(8) {
        let w = match <[u8; 8]>::try_from(chunk) {
            Ok(full) => u64::from_le_bytes(full),
            Err(_) => {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                u64::from_le_bytes(word)
            }
        };
        if (w & HIGH) | eq(w, b'\\') | eq(w, b'\'') != 0 {
            return None;
        }
        let lower = w | (ONES * 0x20);
        let letter = (lower + ONES * 0x1f) & !(lower + ONES * 0x05) & HIGH;
        let digit = (w + ONES * 0x50) & !(w + ONES * 0x46) & HIGH;
        let alnum = letter | digit;
        let quote = eq(w, b'"');
        // Inside quotes at each byte: a running parity of quotes.
        let mut q = quote;
        q ^= q << 8;
        q ^= q << 16;
        q ^= q << 32;
        let split = eq(w, delimiter) & !(q ^ inside);
        let starts = (letter & !((letter << 8) | letter_in)) | (digit & !((digit << 8) | digit_in));
        out.runs += count(starts);
        // A delimiter right after a letter or digit, or after a quote right after one.
        let before1 = (alnum << 8) | alnum_in;
        let before2 = (alnum << 16) | alnum_in2;
        let quote1 = (quote << 8) | quote_in;
        out.before_keys += count(split & (before1 | (quote1 & before2)));
        out.delimiters += count(split);
        prev_alnum_last = alnum_in;
        letter_in = letter >> 56;
        digit_in = digit >> 56;
        alnum_in = alnum >> 56;
        quote_in = quote >> 56;
        alnum_in2 = alnum >> 48;
        inside = if (q ^ inside) >> 63 == 1 { HIGH } else { 0 };
        last_len = chunk.len();
        last_alnum_mask = alnum;
        last_quote_mask = quote;
    }
    if last_len > 0 {
        // The row's end: the last cell surely holds a letter or digit when
        // it ends in one, or in a quote right after one.
        let bit = |m: u64, i: usize| (m >> (8 * i + 7)) & 1 == 1;
        let end = last_len - 1;
        let second = if end > 0 {
            bit(last_alnum_mask, end - 1)
        } else {
            prev_alnum_last >> 7 & 1 == 1
        };
        out.last_alnum = bit(last_alnum_mask, end) || (bit(last_quote_mask, end) && second);
    }
    Some(out)
}

/// The end of the cell starting at `at`: the next delimiter outside quotes,
/// or the end of the line.
fn cell_end(b: &[u8], at: usize, delimiter: u8) -> Option<usize> {
    let end = if b.get(at) == Some(&b'"') {
        quoted_end(b, at)?
    } else {
        at + b[at..]
            .iter()
            .position(|&c| c == delimiter)
            .unwrap_or(b.len() - at)
    };
    match b.get(end) {
        None => Some(end),
        Some(&c) if c == delimiter => Some(end),
        Some(_) => None,
    }
}

/// The index after the closing quote of the string opening at `open`.
fn quoted_end(b: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// What a primitive or key, as TOON writes it, contributes.
struct Content {
    bytes: usize,
    runs: usize,
    /// Whether it holds an ASCII letter or digit.
    alnum: bool,
    /// Whether its last character (unquoted, unescaped) is one.
    alnum_end: bool,
}

/// Byte classes for [`content`]: 1 ASCII letter, 2 ASCII digit, 3 a byte
/// that needs the careful path (`\\`, `'`, non-ASCII), 0 anything else.
static UNIT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b as u8 {
            b'a'..=b'z' | b'A'..=b'Z' => 1,
            b'0'..=b'9' => 2,
            b'\\' | b'\'' | 0x80..=0xff => 3,
            _ => 0,
        };
        b += 1;
    }
    t
};

fn content(b: &[u8]) -> Content {
    let quoted = b.len() >= 2 && b[0] == b'"';
    let inner = if quoted { &b[1..b.len() - 1] } else { b };
    // Most cells are plain ASCII without escapes: one pass over the table.
    let mut runs = 0;
    let mut prev = 0u8;
    let mut digits = 0usize;
    let mut special = false;
    for &c in inner {
        let k = UNIT[usize::from(c)];
        special |= k == 3;
        if k == 2 {
            digits += 1;
        } else if digits > 0 {
            runs += digits.div_ceil(3);
            digits = 0;
        }
        runs += usize::from(k == 1 && prev != 1);
        prev = k;
    }
    if special {
        return careful(b);
    }
    runs += digits.div_ceil(3);
    Content {
        bytes: b.len(),
        runs,
        alnum: runs > 0,
        alnum_end: matches!(prev, 1 | 2),
    }
}

/// [`content`] for cells with escapes, apostrophes or non-ASCII characters.
fn careful(b: &[u8]) -> Content {
    // Quotes and escapes: JSON has its own, as many or more, except for
    // `\u0008` and `\u000c`, which it writes in two bytes, not six.
    let quoted = b.len() >= 2 && b[0] == b'"';
    let inner = if quoted { &b[1..b.len() - 1] } else { b };
    let mut bytes = b.len();
    let mut runs = 0;
    let mut alnum = false;
    let mut alnum_end = false;
    // The current run (class 1 letters, 2 digits, 0 anything else), its
    // length, whether a joiner precedes it, and whether the last unit was one.
    let (mut class, mut len, mut after_joiner, mut last_joiner) = (0u8, 0usize, false, false);
    let mut escaped = false;
    let mut i = 0;
    while i < inner.len() {
        let c = inner[i];
        // One unit: a character, or a whole `\uXXXX` escape (a joiner).
        let (this, width, joiner, from_escape) = if c == b'\\' && inner.get(i + 1) == Some(&b'u') {
            bytes = bytes.saturating_sub(4);
            alnum = true;
            (0u8, 6, true, false)
        } else if c.is_ascii_alphabetic() {
            (1, 1, false, escaped)
        } else if c.is_ascii_digit() {
            (2, 1, false, escaped)
        } else {
            (0, 1, c == b'\'' || c >= 0x80, escaped)
        };
        // `\n`, `\t`, `\r`, `\"` and `\\` are the same two characters in JSON.
        escaped = c == b'\\' && !escaped && width == 1;
        if this != 0 {
            alnum = true;
        }
        if this != 0 && this == class {
            len += 1;
        } else {
            if class != 0 && !after_joiner && !joiner {
                runs += if class == 1 { 1 } else { len.div_ceil(3) };
            }
            after_joiner = last_joiner;
            class = this;
            len = 1;
        }
        last_joiner = joiner;
        i += width;
        alnum_end = this != 0 && !from_escape;
    }
    if class != 0 && !after_joiner {
        runs += if class == 1 { 1 } else { len.div_ceil(3) };
    }
    Content {
        bytes,
        runs,
        alnum,
        alnum_end,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_runs() {
        let c = content(br#"2025-04-16T00:09:46Z"#);
        assert_eq!((c.runs, c.alnum, c.alnum_end), (9, true, true));
        let c = content(br#""don't stop""#);
        assert_eq!(c.runs, 1);
        let c = content(br#""a\u0008b""#);
        assert_eq!((c.runs, c.bytes), (0, 6));
        let c = content(br#""ab\n""#);
        assert_eq!((c.runs, c.alnum_end), (2, false));
        let c = content(br#""x\\n""#);
        assert_eq!((c.runs, c.alnum_end), (2, true));
        let c = content("caf\u{e9} au".as_bytes());
        assert_eq!(c.runs, 1);
    }
}
