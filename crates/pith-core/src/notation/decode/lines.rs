//! The line layer of the notation's reader: the next content line, its
//! depth, and the rules that concern one line alone (no blank lines, no
//! trailing spaces, no comments, indentation in whole units of spaces).
//!
//! Text blocks read their lines raw, through [`Lines::raw`], since inside
//! them every one of those rules is lifted.

use crate::ErrorKind;
use crate::toon::decode::Fault;
use crate::toon::scan::line_end;

/// A content line: byte offsets into the source and its depth.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line {
    /// Offset of the first content byte (after the indentation).
    pub(super) start: usize,
    /// Offset of the line feed that ends the line, or of the end of input.
    pub(super) end: usize,
    /// Indentation level.
    pub(super) depth: usize,
}

/// A cursor over the content lines of a document, with one line of lookahead.
pub(super) struct Lines<'a> {
    src: &'a [u8],
    /// Offset of the next raw line not yet consumed.
    pos: usize,
    /// The line at `pos`, once scanned, and the offset after it.
    peeked: Option<(Line, usize, bool)>,
    indent: usize,
    strict: bool,
    /// Whether a line whose content starts with a tab is taken: only the
    /// rows of a tab-delimited table, whose first cell is empty, start so.
    pub(super) tab_rows: bool,
}

impl<'a> Lines<'a> {
    pub(super) fn new(src: &'a [u8], pos: usize, indent: usize, strict: bool) -> Lines<'a> {
        Lines {
            src,
            pos,
            peeked: None,
            indent: indent.max(1),
            strict,
            tab_rows: false,
        }
    }

    /// The offset of the next raw line.
    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    /// The next content line, without consuming it.
    pub(super) fn peek(&mut self) -> Result<Option<Line>, Fault> {
        if self.peeked.is_none() {
            match self.scan()? {
                Some(found) => self.peeked = Some(found),
                None => return Ok(None),
            }
        }
        let Some((line, _, tab)) = self.peeked else {
            return Ok(None);
        };
        if tab && !self.tab_rows {
            return Err(Fault::new(
                ErrorKind::Indentation,
                line.start,
                "expected spaces for indentation, found a tab",
            ));
        }
        Ok(Some(line))
    }

    /// Consumes the peeked line.
    pub(super) fn advance(&mut self) {
        if let Some((_, next, _)) = self.peeked.take() {
            self.pos = next;
        }
    }

    /// The next raw line `[start, end)` (its line feed excluded), consumed
    /// whatever it holds: a text block's lines are taken as they are.
    pub(super) fn raw(&mut self) -> Option<(usize, usize)> {
        self.peeked = None;
        let start = self.pos;
        if start >= self.src.len() {
            return None;
        }
        let end = line_end(self.src, start);
        self.pos = end + 1;
        Some((start, end))
    }

    /// Scans from `pos` to the next content line: its line, the offset after
    /// it, and whether its content starts with a tab.
    fn scan(&self) -> Result<Option<(Line, usize, bool)>, Fault> {
        let src = self.src;
        let mut at = self.pos;
        loop {
            if at >= src.len() {
                return Ok(None);
            }
            let end = line_end(src, at);
            let mut i = at;
            while i < end && src[i] == b' ' {
                i += 1;
            }
            if i == end {
                if self.strict {
                    return Err(Fault::new(
                        ErrorKind::BlankLine,
                        at,
                        if at == end {
                            "expected a content line, found a blank line (the notation has none \
                             outside text blocks)"
                        } else {
                            "expected a content line, found a line of spaces only (the notation \
                             has no blank lines outside text blocks)"
                        },
                    ));
                }
                at = end + 1;
                continue;
            }
            if src[end - 1] == b' ' {
                let mut first = end;
                while src[first - 1] == b' ' {
                    first -= 1;
                }
                return Err(Fault::new(
                    ErrorKind::Syntax,
                    first,
                    "expected the end of the line, found trailing spaces (the notation has none \
                     outside text blocks)",
                ));
            }
            let spaces = i - at;
            if !spaces.is_multiple_of(self.indent) {
                return Err(Fault::new(
                    ErrorKind::Indentation,
                    i,
                    format!(
                        "expected indentation in multiples of {} spaces, found {spaces}",
                        self.indent
                    ),
                ));
            }
            if src[i] == b'#' {
                return Err(Fault::new(
                    ErrorKind::Syntax,
                    i,
                    "expected content, found a line starting with '#', which TOON reads as a \
                     comment: the notation has no comments (a value that starts with '#' is quoted)",
                ));
            }
            let line = Line {
                start: i,
                end,
                depth: spaces / self.indent,
            };
            return Ok(Some((line, end + 1, src[i] == b'\t')));
        }
    }
}
