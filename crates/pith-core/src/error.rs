//! The one error type of the library.
//!
//! An [`Error`] carries a [`ErrorKind`], a message saying what was expected
//! and what was found, and where: a 1-based line and column (columns count
//! Unicode scalar values) for text input, or a JSON path for errors about a
//! value. Positions are computed from a byte offset only when an error is
//! made, so the happy path pays nothing for them.

use std::fmt;

/// What went wrong, broadly. Match on this rather than on message text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text does not follow the grammar (JSON or TOON).
    Syntax,
    /// Bytes that are not well-formed UTF-8.
    InvalidUtf8,
    /// A `\u` escape naming half of a surrogate pair without the other half.
    LoneSurrogate,
    /// An escape sequence the format does not define, or an unterminated string.
    InvalidEscape,
    /// Two sibling keys with the same name.
    DuplicateKey,
    /// Content after a complete document.
    TrailingContent,
    /// Nesting deeper than the configured limit.
    DepthLimit,
    /// A number literal outside the supported domain.
    NumberRange,
    /// A declared TOON length (`[N]`) that does not match the items, rows or entries present.
    CountMismatch,
    /// A TOON row whose cell count differs from its header's field count.
    WidthMismatch,
    /// Indentation that is not a multiple of the indent size, uses tabs, or jumps levels.
    Indentation,
    /// A blank line inside an array's span (strict TOON).
    BlankLine,
    /// A TOON header that does not follow the header grammar.
    Header,
    /// A line that belongs to no scope, or a form used where it is not allowed.
    Structure,
    /// Path expansion or key folding met a conflict it must not resolve silently.
    PathConflict,
    /// A value that cannot be represented (for example a non-string map key from serde).
    Unrepresentable,
    /// A value that does not match what a typed reader expected (serde) or
    /// the type a wire schema gives it.
    Type,
    /// A wire-schema definitions document (or JSON Schema, or TypeScript
    /// definitions) that is malformed, names an undefined type, or gives a
    /// default its own type rejects.
    Schema,
    /// Reading or writing failed.
    Io,
}

/// A 1-based line and column; the column counts Unicode scalar values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in Unicode scalar values.
    pub column: usize,
}

impl Position {
    /// The position of byte `offset` in `source`.
    ///
    /// An offset inside a multi-byte character or past the end is clamped to
    /// the character or the end.
    pub fn at(source: &[u8], offset: usize) -> Position {
        let offset = offset.min(source.len());
        let before = &source[..offset];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        // Count scalar values by their lead bytes, so invalid UTF-8 still counts sensibly.
        let column = 1 + before[line_start..]
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count();
        Position { line, column }
    }
}

/// The library's error: a kind, a message, and where.
pub struct Error {
    inner: Box<Inner>,
}

struct Inner {
    kind: ErrorKind,
    message: String,
    position: Option<Position>,
    path: Option<String>,
    source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

impl Error {
    /// An error with no location (yet).
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            inner: Box::new(Inner {
                kind,
                message: message.into(),
                position: None,
                path: None,
                source: None,
            }),
        }
    }

    /// An error at a line and column.
    pub fn at(kind: ErrorKind, position: Position, message: impl Into<String>) -> Error {
        Error::new(kind, message).with_position(position)
    }

    /// An error at byte `offset` of `source`.
    pub fn at_offset(
        kind: ErrorKind,
        source: &[u8],
        offset: usize,
        message: impl Into<String>,
    ) -> Error {
        Error::at(kind, Position::at(source, offset), message)
    }

    /// An error about the value at a JSON path such as `rows[3].name`.
    pub fn at_path(kind: ErrorKind, path: impl Into<String>, message: impl Into<String>) -> Error {
        Error::new(kind, message).with_path(path)
    }

    /// Sets the position.
    pub fn with_position(mut self, position: Position) -> Error {
        self.inner.position = Some(position);
        self
    }

    /// Sets the JSON path.
    pub fn with_path(mut self, path: impl Into<String>) -> Error {
        self.inner.path = Some(path.into());
        self
    }

    /// Wraps an I/O error.
    pub fn io(err: std::io::Error) -> Error {
        let mut e = Error::new(ErrorKind::Io, err.to_string());
        e.inner.source = Some(Box::new(err));
        e
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The message, without position: lowercase, naming what was expected.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// Line and column, when the error is about text.
    pub fn position(&self) -> Option<Position> {
        self.inner.position
    }

    /// 1-based line, or 0 when the error has no position.
    pub fn line(&self) -> usize {
        self.inner.position.map_or(0, |p| p.line)
    }

    /// 1-based column, or 0 when the error has no position.
    pub fn column(&self) -> usize {
        self.inner.position.map_or(0, |p| p.column)
    }

    /// The JSON path, when the error is about a value.
    pub fn path(&self) -> Option<&str> {
        self.inner.path.as_deref()
    }

    /// The message followed by the offending line of `source` and a caret
    /// under the column, for people reading a terminal:
    ///
    /// ```text
    /// line 2, column 5: expected ':' after key
    ///   2 | a b
    ///     |     ^
    /// ```
    ///
    /// A line longer than [`RENDER_WIDTH`] characters (minified JSON is one
    /// line) is shown as the stretch around the column, with `…` where it
    /// was cut, so an error in a large file stays one screen long.
    pub fn render(&self, source: &str) -> String {
        let mut out = escape_controls(&self.to_string()).into_owned();
        if let Some(p) = self.inner.position
            && let Some(text) = source.lines().nth(p.line.saturating_sub(1))
        {
            let text = text.strip_suffix('\r').unwrap_or(text);
            let num = p.line.to_string();
            let pad = " ".repeat(num.len());
            let column = p.column.saturating_sub(1);
            // Start the window so the caret sits near its middle, but never
            // past the point where the rest of the line would fit anyway.
            let start = column.saturating_sub(RENDER_WIDTH / 2);
            let mut chars = text.chars().skip(start);
            // Tabs would shift the caret: single spaces. Other control
            // characters would act on the terminal: one visible character
            // each, so the caret stays in place.
            let mut shown: String = chars
                .by_ref()
                .take(RENDER_WIDTH)
                .map(|c| match c {
                    '\t' => ' ',
                    c => control_picture(c).unwrap_or(c),
                })
                .collect();
            let shown_len = shown.chars().count();
            let mut caret_at = column - start;
            if chars.next().is_some() {
                shown.push('…');
            }
            if start > 0 {
                shown.insert(0, '…');
                caret_at += 1;
            }
            // A column past the end of the line points just after it.
            let caret_at = caret_at.min(shown_len + usize::from(start > 0));
            out.push_str(&format!(
                "\n {num} | {shown}\n {pad} | {}^",
                " ".repeat(caret_at)
            ));
        }
        out
    }
}

/// `text` with every control character (C0 but line feed, DEL, C1) and
/// every bidirectional override written as an escape (`\u{1b}`), so that
/// printing it cannot act on a terminal.
///
/// ```
/// assert_eq!(pith::error::escape_controls("a\u{1b}[31mb\n"), "a\\u{1b}[31mb\n");
/// ```
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && hazardous(c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c != '\n' && hazardous(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Control characters, and the characters that reorder text on display.
fn hazardous(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A one-character stand-in for a hazardous character: its Unicode
/// control picture (`␛` for ESC), or `�`.
fn control_picture(c: char) -> Option<char> {
    if !hazardous(c) {
        return None;
    }
    Some(match u32::from(c) {
        n @ 0..=0x1f => char::from_u32(0x2400 + n).unwrap_or('\u{fffd}'),
        0x7f => '\u{2421}',
        _ => '\u{fffd}',
    })
}

/// The most characters of a source line that [`Error::render`] shows.
pub const RENDER_WIDTH: usize = 120;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.inner.position, &self.inner.path) {
            // Text inside a named place: a type expression inside a definition,
            // or a line of a named file.
            (Some(p), Some(path)) => write!(
                f,
                "at {path}, line {}, column {}: {}",
                p.line, p.column, self.inner.message
            ),
            (Some(p), None) => write!(
                f,
                "line {}, column {}: {}",
                p.line, p.column, self.inner.message
            ),
            (None, Some(path)) => write!(f, "at {path}: {}", self.inner.message),
            (None, None) => f.write_str(&self.inner.message),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.inner.kind)
            .field("message", &self.inner.message)
            .field("position", &self.inner.position)
            .field("path", &self.inner.path)
            .finish()
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.inner
            .source
            .as_ref()
            .map(|e| e.as_ref() as &(dyn std::error::Error + 'static))
    }
}

impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Error {
        Error::io(err)
    }
}

/// `Result` with the library's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_scalar_values() {
        let src = "ab\n\u{e9}x\ny".as_bytes();
        assert_eq!(Position::at(src, 0), Position { line: 1, column: 1 });
        assert_eq!(Position::at(src, 3), Position { line: 2, column: 1 });
        // after the two-byte 'é'
        assert_eq!(Position::at(src, 5), Position { line: 2, column: 2 });
        assert_eq!(Position::at(src, 999), Position { line: 3, column: 2 });
    }

    #[test]
    fn render_points_a_caret_at_the_column() {
        let e = Error::at(
            ErrorKind::Syntax,
            Position { line: 2, column: 3 },
            "expected ':' after key",
        );
        assert_eq!(
            e.render("a: 1\nb c\n"),
            "line 2, column 3: expected ':' after key\n 2 | b c\n   |   ^"
        );
    }

    #[test]
    fn render_escapes_control_characters_and_keeps_the_caret_in_place() {
        let src = "a: 1\n\u{1b}[2J\u{7}b\u{202e}c d\n";
        let e = crate::toon::decode(src, &Default::default()).unwrap_err();
        let r = e.render(src);
        assert!(!r.chars().any(|c| c != '\n' && hazardous(c)), "{r:?}");
        assert_eq!(
            r,
            "line 2, column 1: expected a 'key: value' line, found `\\u{1b}[2J\\u{7}b\\u{202e}c d` without ':'\n 2 | ␛[2J␇b�c d\n   | ^"
        );
        let e = Error::at(ErrorKind::Syntax, Position { line: 1, column: 4 }, "m");
        assert_eq!(
            e.render("\u{0}\u{1}\u{9f}x"),
            "line 1, column 4: m\n 1 | ␀␁�x\n   |    ^"
        );
    }

    #[test]
    fn render_shows_the_stretch_of_a_long_line_around_the_column() {
        let line = format!("{}x{}", "a".repeat(5000), "b".repeat(5000));
        let at = |column| Error::at(ErrorKind::Syntax, Position { line: 1, column }, "m");
        let lines = |r: String| -> Vec<String> { r.lines().map(str::to_owned).collect() };

        // In the middle: cut on both sides, the caret under the `x`.
        let r = lines(at(5001).render(&line));
        let shown = r[1].strip_prefix(" 1 | ").unwrap();
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert_eq!(shown.chars().count(), RENDER_WIDTH + 2);
        let caret = r[2].strip_prefix("   | ").unwrap().chars().count() - 1;
        assert_eq!(shown.chars().nth(caret), Some('x'));

        // Near the start: nothing cut before it.
        let r = lines(at(3).render(&line));
        assert!(r[1].starts_with(" 1 | aaa") && r[1].ends_with('…'));
        assert_eq!(r[2], "   |   ^");

        // At the very end, and one past it: cut before, nothing after.
        for column in [10_001, 10_002] {
            let r = lines(at(column).render(&line));
            let shown = r[1].strip_prefix(" 1 | ").unwrap();
            assert!(shown.starts_with('…') && shown.ends_with('b'), "{shown}");
            let caret = r[2].strip_prefix("   | ").unwrap().chars().count() - 1;
            assert_eq!(caret, shown.chars().count() - (10_002 - column), "{column}");
        }
    }

    proptest::proptest! {
        /// Any source, any position: one line of message, the shown line at
        /// most the window plus its two cut marks, and the caret under it.
        #[test]
        fn render_is_bounded_and_the_caret_stays_under_the_shown_text(
            source in "[a-z\t\u{e9}\u{1F600}\n]{0,400}",
            line in 1usize..12,
            column in 1usize..500,
        ) {
            let e = Error::at(ErrorKind::Syntax, Position { line, column }, "m");
            let r = e.render(&source);
            let lines: Vec<&str> = r.lines().collect();
            if lines.len() > 1 {
                proptest::prop_assert_eq!(lines.len(), 3);
                let shown = lines[1].split_once(" | ").map(|x| x.1).unwrap_or_default();
                proptest::prop_assert!(shown.chars().count() <= RENDER_WIDTH + 2);
                let caret = lines[2].split_once(" | ").map(|x| x.1).unwrap_or_default();
                proptest::prop_assert!(caret.ends_with('^'));
                proptest::prop_assert!(caret.chars().count() <= shown.chars().count() + 1);
            } else {
                proptest::prop_assert!(source.lines().nth(line - 1).is_none());
            }
        }
    }
}
