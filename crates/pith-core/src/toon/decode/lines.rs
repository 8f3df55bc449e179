//! The line layer: finds the next content line, its depth and whether blank
//! lines preceded it, one line at a time and without allocating.
//!
//! Comment lines (spec 4 §5.1) and blank lines are consumed here, so the
//! parser above only ever sees content lines. Indentation rules (§12) that
//! concern a single line (tabs, multiples of the indent size) are enforced
//! here in strict mode.

use super::Fault;
use crate::ErrorKind;

/// Marks "no blank line" in [`Line::blank_before`].
pub(super) const NO_BLANK: usize = usize::MAX;

/// A content line: byte offsets into the source and its depth.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line {
    /// Offset of the first content byte (after the indentation).
    pub(super) start: usize,
    /// Offset just past the content: trailing spaces and a final CR excluded.
    pub(super) end: usize,
    /// Indentation level.
    pub(super) depth: usize,
    /// Offset of the first blank line between the previous content line and
    /// this one, or [`NO_BLANK`].
    pub(super) blank_before: usize,
}

/// A cursor over the content lines of a document, with one line of lookahead.
pub(super) struct Lines<'a> {
    src: &'a [u8],
    /// Offset of the next raw line not yet scanned.
    pos: usize,
    /// The scanned, unconsumed line, valid when `ready && more`. Kept here
    /// and read field by field rather than returned: small structs written
    /// field by field and copied whole stall the store buffer.
    line: Line,
    ready: bool,
    more: bool,
    /// Newlines of the 64-byte block at `block`, one bit per byte, those
    /// already consumed cleared: finding the next line end is a
    /// `trailing_zeros`, not a search whose exit branch mispredicts per line.
    newlines: u64,
    block: usize,
    indent: usize,
    /// `log2(indent)` when the indent is a power of two: depth by shifting,
    /// since two divisions per line are measurable.
    shift: Option<u32>,
    strict: bool,
    comments: bool,
}

impl<'a> Lines<'a> {
    pub(super) fn new(src: &'a [u8], indent: usize, strict: bool, comments: bool) -> Lines<'a> {
        let indent = indent.max(1);
        Lines {
            src,
            pos: 0,
            line: Line {
                start: 0,
                end: 0,
                depth: 0,
                blank_before: NO_BLANK,
            },
            ready: false,
            more: false,
            newlines: newline_mask(src, 0),
            block: 0,
            indent,
            shift: indent.is_power_of_two().then(|| indent.trailing_zeros()),
            strict,
            comments,
        }
    }

    /// The next content line, without consuming it.
    #[inline(always)]
    pub(super) fn peek(&mut self) -> Result<Option<Line>, Fault> {
        if !self.ready {
            self.more = self.scan()?;
            self.ready = true;
        }
        if !self.more {
            return Ok(None);
        }
        // Field by field: a whole-struct copy right after `scan` wrote the
        // fields one by one would stall on store forwarding.
        let l = &self.line;
        Ok(Some(Line {
            start: l.start,
            end: l.end,
            depth: l.depth,
            blank_before: l.blank_before,
        }))
    }

    /// Consumes the peeked line.
    #[inline(always)]
    pub(super) fn advance(&mut self) {
        self.ready = false;
    }

    /// Scans to the next content line and stores it in `self.line`;
    /// `false` at the end of the input.
    fn scan(&mut self) -> Result<bool, Fault> {
        let mut blank_before = NO_BLANK;
        loop {
            let line_start = self.pos;
            let Some(rest) = self.src.get(line_start..).filter(|r| !r.is_empty()) else {
                return Ok(false);
            };
            let len = self.next_newline().map_or(rest.len(), |n| n - line_start);
            self.pos = line_start + len + 1;
            let mut line = &rest[..len];
            if let [head @ .., b'\r'] = line {
                line = head;
            }
            let mut i = skip_spaces(line, 0, line.len());
            let mut spaces = i;
            let mut tabs = 0;
            let tab_indented = line.get(i) == Some(&b'\t');
            if tab_indented && !self.strict {
                // Lenient tab policy: every tab is one level, spaces count as usual.
                while let Some(&c @ (b' ' | b'\t')) = line.get(i) {
                    if c == b'\t' {
                        tabs += 1;
                    } else {
                        spaces += 1;
                    }
                    i += 1;
                }
            }
            if i == line.len() {
                if blank_before == NO_BLANK {
                    blank_before = line_start;
                }
                continue;
            }
            // line[i] is not a space, so trimming stops after it.
            while let [head @ .., b' '] = line {
                line = head;
            }
            if self.comments && !tab_indented && line[i] == b'#' {
                continue;
            }
            let (depth, odd) = match self.shift {
                Some(k) => (spaces >> k, spaces & (self.indent - 1)),
                None => (spaces / self.indent, spaces % self.indent),
            };
            if self.strict && (tab_indented || odd != 0) {
                return Err(self.indentation_fault(line_start + i, tab_indented, spaces));
            }
            self.line = Line {
                start: line_start + i,
                end: line_start + line.len(),
                depth: depth + tabs,
                blank_before,
            };
            return Ok(true);
        }
    }

    /// The offset of the next newline not yet consumed.
    #[inline]
    fn next_newline(&mut self) -> Option<usize> {
        while self.newlines == 0 {
            self.block += 64;
            if self.block >= self.src.len() {
                return None;
            }
            self.newlines = newline_mask(self.src, self.block);
        }
        let at = self.block + self.newlines.trailing_zeros() as usize;
        self.newlines &= self.newlines - 1;
        Some(at)
    }

    #[cold]
    fn indentation_fault(&self, at: usize, tab: bool, spaces: usize) -> Fault {
        if tab {
            return Fault::new(
                ErrorKind::Indentation,
                at,
                "expected spaces for indentation, found a tab",
            );
        }
        Fault::new(
            ErrorKind::Indentation,
            at,
            format!(
                "expected indentation in multiples of {} spaces, found {spaces}",
                self.indent
            ),
        )
    }
}

/// The offset of the first byte in `[from, to)` that is not a space, or
/// `to`, eight bytes at a time (indentation is often long).
fn skip_spaces(src: &[u8], from: usize, to: usize) -> usize {
    const SPACES: u64 = 0x2020_2020_2020_2020;
    let mut i = from;
    while i + 8 <= to {
        let mut word = [0u8; 8];
        word.copy_from_slice(&src[i..i + 8]);
        let x = u64::from_le_bytes(word) ^ SPACES;
        if x != 0 {
            return i + (x.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < to && src[i] == b' ' {
        i += 1;
    }
    i
}

/// One bit per byte of `src[at..at + 64]`, set where the byte is a newline.
#[inline]
fn newline_mask(src: &[u8], at: usize) -> u64 {
    match src
        .get(at..at + 64)
        .and_then(|b| <&[u8; 64]>::try_from(b).ok())
    {
        Some(block) => block_newlines(block),
        None => tail_newlines(src.get(at..).unwrap_or_default()),
    }
}

#[inline]
fn block_newlines(block: &[u8; 64]) -> u64 {
    let mut mask = 0u64;
    // A fixed-size block, so the loop unrolls into eight word loads.
    for k in 0..8 {
        let mut word = [0u8; 8];
        word.copy_from_slice(&block[8 * k..8 * k + 8]);
        mask |= zero_bytes(u64::from_le_bytes(word) ^ 0x0A0A_0A0A_0A0A_0A0A) << (8 * k);
    }
    mask
}

/// The last, partial block, padded with bytes that are not newlines.
#[cold]
fn tail_newlines(rest: &[u8]) -> u64 {
    let mut block = [0u8; 64];
    let n = rest.len().min(64);
    block[..n].copy_from_slice(&rest[..n]);
    block_newlines(&block)
}

/// One bit per byte of `x` (bit `k` for byte `k`), set where the byte is zero.
#[inline]
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // Exact per byte (no borrow between bytes): the high bit ends up set only for zero bytes.
    let high = !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7);
    // Gather the eight high bits into the top byte, then down.
    (high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newline_masks_mark_exactly_the_newlines() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut bytes = Vec::new();
        for _ in 0..4000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Mostly newlines and their neighbours, which trip inexact tricks.
            bytes.push([b'\n', 0x0B, 0x09, 0x8A, 0x00, 0xFF, b' ', b'a'][(seed % 8) as usize]);
        }
        for at in (0..bytes.len()).step_by(64) {
            let mask = newline_mask(&bytes, at);
            for k in 0..64 {
                let want = bytes.get(at + k) == Some(&b'\n');
                assert_eq!(mask >> k & 1 == 1, want, "byte {}", at + k);
            }
        }
    }

    #[test]
    fn skip_spaces_matches_a_plain_scan() {
        for n in 0..40 {
            for tail in ["", "x", "\t", "  x"] {
                let line = format!("{}{tail}", " ".repeat(n));
                let b = line.as_bytes();
                let want = b.iter().position(|&c| c != b' ').unwrap_or(b.len());
                assert_eq!(skip_spaces(b, 0, b.len()), want, "{line:?}");
            }
        }
        assert_eq!(skip_spaces(b"          x", 0, 5), 5);
    }

    fn all(text: &str, strict: bool) -> Result<Vec<(String, usize, bool)>, Fault> {
        let mut lines = Lines::new(text.as_bytes(), 2, strict, true);
        let mut out = Vec::new();
        while let Some(l) = lines.peek()? {
            lines.advance();
            out.push((
                text[l.start..l.end].to_owned(),
                l.depth,
                l.blank_before != NO_BLANK,
            ));
        }
        Ok(out)
    }

    #[test]
    fn lines_skip_comments_and_blanks_and_strip_cr_and_trailing_spaces() {
        let got = all("a: 1  \r\n\n  # note\n  b: 2\r\n   \n    c", true).unwrap();
        assert_eq!(
            got,
            [
                ("a: 1".to_owned(), 0, false),
                ("b: 2".to_owned(), 1, true),
                ("c".to_owned(), 2, true)
            ]
        );
    }

    #[test]
    fn strict_lines_refuse_tabs_and_odd_indentation() {
        let e = all("a:\n\tb: 1", true).unwrap_err();
        assert_eq!((e.kind, e.at), (ErrorKind::Indentation, 3));
        let e = all("a:\n   b: 1", true).unwrap_err();
        assert_eq!((e.kind, e.at), (ErrorKind::Indentation, 6));
        // A tab before '#' makes the line content, not a comment.
        assert!(all("a: 1\n\t# x", true).is_err());
    }

    #[test]
    fn lenient_lines_count_tabs_as_levels_and_floor_spaces() {
        let got = all("a:\n\t\tb\n   c\n\t#x", false).unwrap();
        assert_eq!(
            got,
            [
                ("a:".to_owned(), 0, false),
                ("b".to_owned(), 2, false),
                ("c".to_owned(), 1, false),
                ("#x".to_owned(), 1, false)
            ]
        );
    }
}
