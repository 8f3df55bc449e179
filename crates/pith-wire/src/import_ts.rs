//! Reading definitions written in the TypeScript DSL, without a JavaScript engine.
//!
//! [`import_ts`] reads the subset of TypeScript that definition files use:
//!
//! * `import … from "…"` in every form (named, aliased, `type`, default,
//!   namespace, side-effect only); imported constants resolve to the
//!   `export const` of the same name in another given file;
//! * `const`, `let` and `var` declarations, `export`ed or not, with an
//!   optional type annotation, `as const` and `satisfies T`;
//! * string literals in either quote with every JavaScript escape, template
//!   literals whose `${…}` hold constant names, decimal numbers (with `_`
//!   separators and a leading `-`), `true`, `false`, `null`;
//! * object literals with bare, quoted or numeric keys, shorthand
//!   properties and `...spread` of object constants; array literals with
//!   spread; trailing commas; `//` and `/* */` comments;
//! * calls of `doc(def, text)` and `absentAs(def, default)` (or the names
//!   they were imported as).
//!
//! The definitions are the objects of every declaration marked as such by
//! `satisfies WireDefs` or a `: WireDefs` annotation (any type that mentions
//! `WireDefs`), in file order. When no declaration is marked, every exported
//! object constant counts. Other constants are helpers and appear only where
//! they are used.
//!
//! Anything outside the subset, and anything inside it that cannot be a
//! definition (an unknown function, a number where a type belongs, a bad
//! type expression, a second `doc`), is an error whose position is the line
//! and column in that file and whose [`path`](pith::Error::path) is the
//! file's name. Nothing is skipped silently.

use super::defs::{Schema, field_key, wrapped};
use super::types::{is_type_name, parse_type};
use pith::DEFAULT_MAX_DEPTH;
use pith::error::{Error, ErrorKind, Result};
use pith::number::Number;
use pith::value::{Map, Value};
use std::collections::{HashMap, HashSet};

/// Reads definitions from TypeScript files, given as `(name, text)` pairs,
/// into one definitions document (see the [module docs](self)).
///
/// References between types are not resolved here (a file may use types
/// another file defines); [`Schema::from_value`](super::Schema::from_value)
/// does that.
pub fn import_ts(files: &[(&str, &str)]) -> Result<Value> {
    let mut parsed = Vec::with_capacity(files.len());
    for (i, (_, text)) in files.iter().enumerate() {
        let tokens = Lexer::new(text, i).run().map_err(|e| e.into_error(files))?;
        let ast = Parser::new(tokens, i)
            .program()
            .map_err(|e| e.into_error(files))?;
        parsed.push(ast);
    }
    let mut ev = Evaluator::new(&parsed).map_err(|e| e.into_error(files))?;
    ev.document().map_err(|e| e.into_error(files))
}

/// An error before it is tied to its file's text.
struct Fault {
    kind: ErrorKind,
    file: usize,
    at: usize,
    msg: String,
}

impl Fault {
    fn into_error(self, files: &[(&str, &str)]) -> Error {
        match files.get(self.file) {
            Some((name, text)) => {
                Error::at_offset(self.kind, text.as_bytes(), self.at, self.msg).with_path(*name)
            }
            None => Error::new(self.kind, self.msg),
        }
    }
}

type Res<T> = std::result::Result<T, Fault>;

fn fault(kind: ErrorKind, file: usize, at: usize, msg: impl Into<String>) -> Fault {
    Fault {
        kind,
        file,
        at,
        msg: msg.into(),
    }
}

// ---------------------------------------------------------------- lexer

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// A string literal; `raw` when its value is exactly the source text
    /// between the quotes, so positions inside it map back to the file.
    Str {
        value: String,
        raw: bool,
    },
    Template(Vec<Part>),
    Num(String),
    Punct(&'static str),
    Eof,
}

#[derive(Debug, Clone, PartialEq)]
enum Part {
    Text(String),
    Const { name: String, at: usize },
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    at: usize,
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    file: usize,
}

const PUNCT: &[&str] = &[
    "...", "{", "}", "(", ")", "[", "]", ",", ":", ";", "=", ".", "?", "<", ">", "|", "&", "+",
    "-", "*",
];

impl<'a> Lexer<'a> {
    fn new(src: &'a str, file: usize) -> Self {
        let pos = if src.starts_with('\u{feff}') { 3 } else { 0 };
        Lexer { src, pos, file }
    }

    fn err(&self, at: usize, msg: impl Into<String>) -> Fault {
        fault(ErrorKind::Syntax, self.file, at, msg)
    }

    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek2(&self) -> Option<char> {
        let mut it = self.src[self.pos..].chars();
        it.next();
        it.next()
    }

    fn run(mut self) -> Res<Vec<Token>> {
        let mut out = Vec::new();
        loop {
            self.skip_trivia()?;
            let at = self.pos;
            let Some(c) = self.peek() else {
                out.push(Token { tok: Tok::Eof, at });
                return Ok(out);
            };
            let tok = if c.is_ascii_alphabetic() || c == '_' || c == '$' {
                let end = self.src[at..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                    .map_or(self.src.len(), |n| at + n);
                self.pos = end;
                Tok::Ident(self.src[at..end].to_owned())
            } else if c.is_ascii_digit()
                || (c == '.' && self.peek2().is_some_and(|d| d.is_ascii_digit()))
            {
                self.number()?
            } else if c == '\'' || c == '"' {
                self.string(c)?
            } else if c == '`' {
                self.template()?
            } else if let Some(p) = PUNCT.iter().find(|p| self.src[at..].starts_with(**p)) {
                self.pos += p.len();
                Tok::Punct(p)
            } else {
                return Err(self.err(
                    at,
                    format!("expected TypeScript the definitions subset understands, found the character {c:?}"),
                ));
            };
            out.push(Token { tok, at });
        }
    }

    fn skip_trivia(&mut self) -> Res<()> {
        loop {
            let rest = &self.src[self.pos..];
            if let Some(c) = rest.chars().next().filter(|c| c.is_whitespace()) {
                self.pos += c.len_utf8();
            } else if rest.starts_with("//") {
                self.pos += rest.find('\n').unwrap_or(rest.len());
            } else if rest.starts_with("/*") {
                match rest.strip_prefix("/*").and_then(|r| r.find("*/")) {
                    Some(n) => self.pos += n + 4,
                    None => {
                        return Err(self.err(
                            self.pos,
                            "expected `*/` to close this comment, found the end of the file",
                        ));
                    }
                }
            } else {
                return Ok(());
            }
        }
    }

    fn number(&mut self) -> Res<Tok> {
        let at = self.pos;
        let rest = &self.src[at..];
        if rest.len() > 1
            && rest.starts_with('0')
            && rest[1..].starts_with(|c: char| c.is_ascii_alphanumeric() && c != 'e' && c != 'E')
        {
            return Err(self.err(
                at,
                "expected a decimal number, found a hexadecimal, octal, binary or leading-zero literal",
            ));
        }
        let end = rest
            .char_indices()
            .find(|&(i, c)| {
                !(c.is_ascii_digit()
                    || c == '_'
                    || c == '.'
                    || c == 'e'
                    || c == 'E'
                    || ((c == '+' || c == '-')
                        && i > 0
                        && matches!(rest.as_bytes()[i - 1], b'e' | b'E')))
            })
            .map_or(rest.len(), |(i, _)| i);
        let text = &rest[..end];
        self.pos = at + end;
        if self
            .peek()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        {
            return Err(self.err(
                self.pos,
                "expected the end of the number, found a letter (BigInt and other suffixes are not definitions)",
            ));
        }
        let mut digits: String = text.chars().filter(|&c| c != '_').collect();
        if digits.starts_with('.') {
            digits.insert(0, '0');
        }
        if let Some(i) = digits.find(['e', 'E']) {
            if digits[..i].ends_with('.') {
                digits.remove(i - 1);
            }
        } else if digits.ends_with('.') {
            digits.pop();
        }
        if Number::parse(&digits).is_err() || text.contains("__") || text.ends_with('_') {
            return Err(self.err(at, format!("expected a decimal number, found `{text}`")));
        }
        Ok(Tok::Num(digits))
    }

    fn string(&mut self, quote: char) -> Res<Tok> {
        let open = self.pos;
        self.pos += 1;
        let mut value = String::new();
        let mut raw = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err(
                    open,
                    format!(
                        "expected a closing {quote} for this string, found the end of the file"
                    ),
                ));
            };
            match c {
                c if c == quote => {
                    self.pos += 1;
                    return Ok(Tok::Str { value, raw });
                }
                '\n' | '\r' => {
                    return Err(self.err(
                        open,
                        format!("expected a closing {quote} before the end of the line"),
                    ));
                }
                '\\' => {
                    raw = false;
                    self.escape(&mut value)?;
                }
                c => {
                    value.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    fn template(&mut self) -> Res<Tok> {
        let open = self.pos;
        self.pos += 1;
        let mut parts = Vec::new();
        let mut text = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err(
                    open,
                    "expected a closing ` for this template literal, found the end of the file",
                ));
            };
            match c {
                '`' => {
                    self.pos += 1;
                    if !text.is_empty() {
                        parts.push(Part::Text(text));
                    }
                    return Ok(Tok::Template(parts));
                }
                '\\' => self.escape(&mut text)?,
                '$' if self.peek2() == Some('{') => {
                    self.pos += 2;
                    self.skip_trivia()?;
                    let at = self.pos;
                    let rest = &self.src[at..];
                    let len = rest
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                        .unwrap_or(rest.len());
                    let name = &rest[..len];
                    if len == 0 || rest.starts_with(|c: char| c.is_ascii_digit()) {
                        return Err(self.err(
                            at,
                            "expected a constant name inside `${…}`, found something else",
                        ));
                    }
                    self.pos += len;
                    self.skip_trivia()?;
                    if self.peek() != Some('}') {
                        return Err(self.err(
                            self.pos,
                            format!("expected `}}` after `${{{name}`: only a constant name may appear inside `${{…}}`"),
                        ));
                    }
                    self.pos += 1;
                    if !text.is_empty() {
                        parts.push(Part::Text(std::mem::take(&mut text)));
                    }
                    parts.push(Part::Const {
                        name: name.to_owned(),
                        at,
                    });
                }
                c => {
                    // Template literals turn CRLF into LF.
                    if c == '\r' {
                        self.pos += 1;
                        if self.peek() != Some('\n') {
                            text.push('\n');
                        }
                        continue;
                    }
                    text.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    /// Reads one escape sequence at `\` into `out`.
    fn escape(&mut self, out: &mut String) -> Res<()> {
        let at = self.pos;
        self.pos += 1;
        let Some(c) = self.peek() else {
            return Err(fault(
                ErrorKind::InvalidEscape,
                self.file,
                at,
                "expected an escape after `\\`, found the end of the file",
            ));
        };
        self.pos += c.len_utf8();
        match c {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => out.push('\0'),
            '1'..='9' | '0' => {
                return Err(fault(
                    ErrorKind::InvalidEscape,
                    self.file,
                    at,
                    "expected an escape other than an octal one, found a digit after `\\`",
                ));
            }
            '\r' => {
                if self.peek() == Some('\n') {
                    self.pos += 1;
                }
            }
            '\n' | '\u{2028}' | '\u{2029}' => {}
            'x' => {
                let v = self.hex(at, 2)?;
                out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
            }
            'u' => {
                let c = self.unicode(at)?;
                out.push(c);
            }
            other => out.push(other),
        }
        Ok(())
    }

    fn hex(&mut self, at: usize, n: usize) -> Res<u32> {
        match self.src.get(self.pos..self.pos + n) {
            Some(d) if d.bytes().all(|b| b.is_ascii_hexdigit()) => {
                self.pos += n;
                u32::from_str_radix(d, 16).map_err(|_| self.bad_escape(at))
            }
            _ => Err(self.bad_escape(at)),
        }
    }

    fn bad_escape(&self, at: usize) -> Fault {
        fault(
            ErrorKind::InvalidEscape,
            self.file,
            at,
            "expected hex digits in this escape (\\xHH, \\uHHHH or \\u{H…})",
        )
    }

    fn code_unit(&mut self, at: usize) -> Res<u32> {
        if self.peek() == Some('{') {
            self.pos += 1;
            let rest = &self.src[self.pos..];
            let len = rest.find('}').ok_or_else(|| self.bad_escape(at))?;
            let d = &rest[..len];
            if d.is_empty() || d.len() > 6 || !d.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(self.bad_escape(at));
            }
            self.pos += len + 1;
            u32::from_str_radix(d, 16).map_err(|_| self.bad_escape(at))
        } else {
            self.hex(at, 4)
        }
    }

    fn unicode(&mut self, at: usize) -> Res<char> {
        let hi = self.code_unit(at)?;
        if !(0xD800..0xE000).contains(&hi) {
            return char::from_u32(hi).ok_or_else(|| self.bad_escape(at));
        }
        let file = self.file;
        let lone = || {
            fault(
                ErrorKind::LoneSurrogate,
                file,
                at,
                format!("expected a surrogate pair, found a lone surrogate \\u{hi:04x}"),
            )
        };
        if hi >= 0xDC00 || !self.src[self.pos..].starts_with("\\u") {
            return Err(lone());
        }
        self.pos += 2;
        let lo = self.code_unit(at)?;
        if !(0xDC00..0xE000).contains(&lo) {
            return Err(lone());
        }
        char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)).ok_or_else(lone)
    }
}

// ---------------------------------------------------------------- parser

#[derive(Debug, Clone)]
struct Expr {
    kind: ExprKind,
    at: usize,
}

#[derive(Debug, Clone)]
enum ExprKind {
    Str { value: String, raw: bool },
    Template(Vec<Part>),
    Num(String),
    Bool(bool),
    Null,
    Ident(String),
    Call { callee: String, args: Vec<Expr> },
    Object(Vec<Prop>),
    Array(Vec<Elem>),
}

#[derive(Debug, Clone)]
enum Prop {
    Pair { key: String, at: usize, value: Expr },
    Shorthand { name: String, at: usize },
    Spread(Expr),
}

#[derive(Debug, Clone)]
enum Elem {
    Item(Expr),
    Spread(Expr),
}

#[derive(Debug)]
struct Decl {
    name: String,
    at: usize,
    init: Expr,
    exported: bool,
    marked: bool,
}

#[derive(Debug)]
struct FileAst {
    decls: Vec<Decl>,
    /// Local name → imported name.
    imports: HashMap<String, String>,
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    file: usize,
    depth: usize,
}

/// The marker type of definitions objects.
const MARKER: &str = "WireDefs";

impl Parser {
    fn new(tokens: Vec<Token>, file: usize) -> Self {
        Parser {
            tokens,
            pos: 0,
            file,
            depth: 0,
        }
    }

    fn tok(&self) -> &Tok {
        self.tokens.get(self.pos).map_or(&Tok::Eof, |t| &t.tok)
    }

    fn at(&self) -> usize {
        self.tokens.get(self.pos).map_or(0, |t| t.at)
    }

    fn bump(&mut self) {
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.tok(), Tok::Punct(q) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.tok(), Tok::Ident(x) if x == w)
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        let yes = self.is_punct(p);
        if yes {
            self.bump();
        }
        yes
    }

    fn eat_word(&mut self, w: &str) -> bool {
        let yes = self.is_word(w);
        if yes {
            self.bump();
        }
        yes
    }

    fn describe(&self) -> String {
        match self.tok() {
            Tok::Ident(x) => format!("`{x}`"),
            Tok::Str { .. } => "a string".to_owned(),
            Tok::Template(_) => "a template literal".to_owned(),
            Tok::Num(n) => format!("the number {n}"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "the end of the file".to_owned(),
        }
    }

    fn expected(&self, what: &str) -> Fault {
        fault(
            ErrorKind::Syntax,
            self.file,
            self.at(),
            format!("expected {what}, found {}", self.describe()),
        )
    }

    fn expect_punct(&mut self, p: &str, context: &str) -> Res<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{p}` {context}")))
        }
    }

    fn ident(&mut self, what: &str) -> Res<(String, usize)> {
        match self.tok() {
            Tok::Ident(x) => {
                let out = (x.clone(), self.at());
                self.bump();
                Ok(out)
            }
            _ => Err(self.expected(what)),
        }
    }

    fn program(mut self) -> Res<FileAst> {
        let mut ast = FileAst {
            decls: Vec::new(),
            imports: HashMap::new(),
        };
        loop {
            if matches!(self.tok(), Tok::Eof) {
                return Ok(ast);
            }
            if self.eat_punct(";") {
                continue;
            }
            if self.eat_word("import") {
                self.import(&mut ast)?;
                continue;
            }
            let exported = self.eat_word("export");
            if self.is_word("type")
                && matches!(
                    self.tokens.get(self.pos + 1).map(|t| &t.tok),
                    Some(Tok::Ident(_))
                )
            {
                // A type alias declares no value; read it whole so nothing is skipped unread.
                self.bump();
                self.ident("a type name")?;
                if self.eat_punct("<") {
                    loop {
                        self.type_annotation()?;
                        if !self.eat_punct(",") {
                            break;
                        }
                    }
                    self.expect_punct(">", "to close the type parameters")?;
                }
                self.expect_punct("=", "in the type alias")?;
                self.type_annotation()?;
                continue;
            }
            if self.eat_word("const") || self.eat_word("let") || self.eat_word("var") {
                loop {
                    ast.decls.push(self.decl(exported)?);
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                continue;
            }
            let what = if exported {
                "`const` after `export` (only constant declarations are definitions)"
            } else {
                "`import`, `const` or `export const`"
            };
            return Err(self.expected(what));
        }
    }

    fn import(&mut self, ast: &mut FileAst) -> Res<()> {
        if matches!(self.tok(), Tok::Str { .. }) {
            self.bump();
            return Ok(());
        }
        // `import type …` imports types only, which may still name the marker;
        // `type` is the modifier unless it is itself the default import's name.
        if self.is_word("type") {
            let next = self.tokens.get(self.pos + 1).map(|t| &t.tok);
            let modifier = match next {
                Some(Tok::Punct(p)) => *p == "{" || *p == "*",
                Some(Tok::Ident(w)) => w != "from",
                _ => false,
            };
            if modifier {
                self.bump();
            }
        }
        let mut any = false;
        if let Tok::Ident(name) = self.tok().clone()
            && name != "from"
        {
            // A default import.
            self.bump();
            ast.imports.insert(name, "default".to_owned());
            any = true;
            if !self.eat_punct(",") {
                return self.import_from();
            }
        }
        if self.eat_punct("*") {
            if !self.eat_word("as") {
                return Err(self.expected("`as` after `import *`"));
            }
            let (local, _) = self.ident("a namespace name after `* as`")?;
            ast.imports.insert(local, "*".to_owned());
            return self.import_from();
        }
        if self.eat_punct("{") {
            loop {
                if self.eat_punct("}") {
                    break;
                }
                self.eat_word("type");
                let (imported, _) = self.ident("an imported name")?;
                let local = if self.eat_word("as") {
                    self.ident("a local name after `as`")?.0
                } else {
                    imported.clone()
                };
                ast.imports.insert(local, imported);
                if !self.eat_punct(",") {
                    self.expect_punct("}", "to close the import list")?;
                    break;
                }
            }
            return self.import_from();
        }
        if any {
            return self.import_from();
        }
        Err(self.expected("an import clause (`{ … }`, `* as name` or a name)"))
    }

    fn import_from(&mut self) -> Res<()> {
        if !self.eat_word("from") {
            return Err(self.expected("`from` in the import"));
        }
        if !matches!(self.tok(), Tok::Str { .. }) {
            return Err(self.expected("the module path as a string"));
        }
        self.bump();
        Ok(())
    }

    fn decl(&mut self, exported: bool) -> Res<Decl> {
        let (name, at) = self.ident("a constant name")?;
        let mut marked = false;
        if self.eat_punct(":") {
            marked |= self.type_annotation()?;
        }
        self.expect_punct(
            "=",
            &format!("after `{name}` (a definitions constant needs a value)"),
        )?;
        let (init, m) = self.expr_with_suffix()?;
        marked |= m;
        Ok(Decl {
            name,
            at,
            init,
            exported,
            marked,
        })
    }

    /// Reads a type after `:`, `as` or `satisfies`; returns whether it mentions the marker.
    fn type_annotation(&mut self) -> Res<bool> {
        self.depth += 1;
        if self.depth > DEFAULT_MAX_DEPTH {
            return Err(self.expected("a type nested less deeply"));
        }
        let mut marked = false;
        self.eat_punct("|");
        loop {
            marked |= self.type_primary()?;
            if !(self.eat_punct("|") || self.eat_punct("&")) {
                break;
            }
        }
        self.depth -= 1;
        Ok(marked)
    }

    fn type_primary(&mut self) -> Res<bool> {
        let mut marked = false;
        if self.eat_punct("(") {
            marked = self.type_annotation()?;
            self.expect_punct(")", "to close the parenthesised type")?;
        } else if matches!(self.tok(), Tok::Str { .. }) {
            self.bump();
        } else {
            while self.eat_word("typeof") || self.eat_word("keyof") || self.eat_word("readonly") {}
            let (first, _) = self.ident("a type name")?;
            marked |= first == MARKER;
            while self.eat_punct(".") {
                let (part, _) = self.ident("a name after `.` in the type")?;
                marked |= part == MARKER;
            }
            if self.eat_punct("<") {
                loop {
                    marked |= self.type_annotation()?;
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                self.expect_punct(">", "to close the type arguments")?;
            }
        }
        while self.eat_punct("[") {
            self.expect_punct("]", "after `[` in the type")?;
        }
        Ok(marked)
    }

    /// An expression followed by any `as T` / `satisfies T`.
    fn expr_with_suffix(&mut self) -> Res<(Expr, bool)> {
        let e = self.expr()?;
        let mut marked = false;
        loop {
            if self.eat_word("as") {
                if !self.eat_word("const") {
                    marked |= self.type_annotation()?;
                }
            } else if self.eat_word("satisfies") {
                marked |= self.type_annotation()?;
            } else {
                return Ok((e, marked));
            }
        }
    }

    fn expr(&mut self) -> Res<Expr> {
        self.depth += 1;
        if self.depth > DEFAULT_MAX_DEPTH {
            return Err(fault(
                ErrorKind::DepthLimit,
                self.file,
                self.at(),
                format!(
                    "expected literals nested at most {DEFAULT_MAX_DEPTH} deep, found deeper nesting"
                ),
            ));
        }
        let e = self.expr_inner();
        self.depth -= 1;
        e
    }

    fn expr_inner(&mut self) -> Res<Expr> {
        let at = self.at();
        let kind = match self.tok().clone() {
            Tok::Str { value, raw } => {
                self.bump();
                ExprKind::Str { value, raw }
            }
            Tok::Template(parts) => {
                self.bump();
                ExprKind::Template(parts)
            }
            Tok::Num(n) => {
                self.bump();
                ExprKind::Num(n)
            }
            Tok::Punct("-") => {
                self.bump();
                match self.tok().clone() {
                    Tok::Num(n) => {
                        self.bump();
                        ExprKind::Num(format!("-{n}"))
                    }
                    _ => return Err(self.expected("a number after `-`")),
                }
            }
            Tok::Punct("(") => {
                self.bump();
                let (e, _) = self.expr_with_suffix()?;
                self.expect_punct(")", "to close `(`")?;
                return Ok(e);
            }
            Tok::Punct("{") => {
                self.bump();
                ExprKind::Object(self.object()?)
            }
            Tok::Punct("[") => {
                self.bump();
                ExprKind::Array(self.array()?)
            }
            Tok::Ident(word) => {
                self.bump();
                match word.as_str() {
                    "true" => ExprKind::Bool(true),
                    "false" => ExprKind::Bool(false),
                    "null" => ExprKind::Null,
                    "undefined" => {
                        return Err(fault(
                            ErrorKind::Syntax,
                            self.file,
                            at,
                            "expected a JSON value, found `undefined` (leave the key out, or use null)",
                        ));
                    }
                    _ if self.is_punct("(") => {
                        self.bump();
                        let mut args = Vec::new();
                        loop {
                            if self.eat_punct(")") {
                                break;
                            }
                            args.push(self.expr_with_suffix()?.0);
                            if !self.eat_punct(",") {
                                self.expect_punct(")", "to close the argument list")?;
                                break;
                            }
                        }
                        ExprKind::Call { callee: word, args }
                    }
                    _ => {
                        if self.is_punct(".") || self.is_punct("[") {
                            return Err(self.expected(&format!(
                                "the end of the value after `{word}` (member access is not part of the definitions subset)"
                            )));
                        }
                        ExprKind::Ident(word)
                    }
                }
            }
            _ => {
                return Err(self.expected(
                    "a value (a string, template literal, number, object, array, constant or doc/absentAs call)",
                ));
            }
        };
        if self.is_punct("+") {
            return Err(self.expected("`,` or the end of the value (`+` is not part of the definitions subset; use a template literal)"));
        }
        Ok(Expr { kind, at })
    }

    fn object(&mut self) -> Res<Vec<Prop>> {
        let mut props = Vec::new();
        loop {
            if self.eat_punct("}") {
                return Ok(props);
            }
            let at = self.at();
            if self.eat_punct("...") {
                props.push(Prop::Spread(self.expr()?));
            } else {
                let (key, bare) = match self.tok().clone() {
                    Tok::Ident(k) => (k, true),
                    Tok::Str { value, .. } => (value, false),
                    Tok::Num(n) => (canonical_number_key(&n), false),
                    _ => return Err(self.expected("a property name, a string key or `...`")),
                };
                self.bump();
                if self.eat_punct(":") {
                    let (value, _) = self.expr_with_suffix()?;
                    props.push(Prop::Pair { key, at, value });
                } else if bare && (self.is_punct(",") || self.is_punct("}")) {
                    props.push(Prop::Shorthand { name: key, at });
                } else {
                    return Err(self.expected(&format!("`:` after the key {key:?}")));
                }
            }
            if !self.eat_punct(",") {
                self.expect_punct("}", "or `,` after the property")?;
                return Ok(props);
            }
        }
    }

    fn array(&mut self) -> Res<Vec<Elem>> {
        let mut items = Vec::new();
        loop {
            if self.eat_punct("]") {
                return Ok(items);
            }
            if self.is_punct(",") {
                return Err(self.expected("an array item (holes are not JSON)"));
            }
            if self.eat_punct("...") {
                items.push(Elem::Spread(self.expr()?));
            } else {
                items.push(Elem::Item(self.expr_with_suffix()?.0));
            }
            if !self.eat_punct(",") {
                self.expect_punct("]", "or `,` after the array item")?;
                return Ok(items);
            }
        }
    }
}

/// A numeric key as JavaScript turns it into a property name.
fn canonical_number_key(n: &str) -> String {
    Number::parse(n).map_or_else(|_| n.to_owned(), |v| v.to_string())
}

// ---------------------------------------------------------------- evaluation

/// A value of the definitions subset, with where it came from.
#[derive(Debug, Clone)]
struct Tv {
    v: V,
    file: usize,
    at: usize,
    /// How deeply arrays, objects and calls nest in `v`: constants inside
    /// constants nest without bound in the text, so values bound it here.
    depth: usize,
}

#[derive(Debug, Clone)]
enum V {
    Str {
        value: String,
        raw: bool,
    },
    Num(Number),
    Bool(bool),
    Null,
    Arr(Vec<Tv>),
    /// Entries with the position of each key.
    Obj(Vec<(String, usize, Tv)>),
    Doc {
        def: Box<Tv>,
        text: String,
    },
    AbsentAs {
        def: Box<Tv>,
        default: Box<Tv>,
    },
}

impl V {
    fn kind(&self) -> &'static str {
        match self {
            V::Str { .. } => "a string",
            V::Num(_) => "a number",
            V::Bool(_) => "a boolean",
            V::Null => "null",
            V::Arr(_) => "an array",
            V::Obj(_) => "an object",
            V::Doc { .. } => "doc(…)",
            V::AbsentAs { .. } => "absentAs(…)",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Builtin {
    Doc,
    AbsentAs,
}

struct Evaluator<'a> {
    files: &'a [FileAst],
    /// `(file, name)` → declaration index, per file.
    locals: Vec<HashMap<&'a str, usize>>,
    /// Exported name → `(file, declaration index)`.
    exports: HashMap<&'a str, (usize, usize)>,
    done: HashMap<(usize, usize), Tv>,
    active: HashSet<(usize, usize)>,
    depth: usize,
}

impl<'a> Evaluator<'a> {
    fn new(files: &'a [FileAst]) -> Res<Self> {
        let mut locals = Vec::with_capacity(files.len());
        let mut exports: HashMap<&str, (usize, usize)> = HashMap::new();
        for (fi, f) in files.iter().enumerate() {
            let mut map = HashMap::new();
            for (di, d) in f.decls.iter().enumerate() {
                if map.insert(d.name.as_str(), di).is_some() {
                    return Err(fault(
                        ErrorKind::Syntax,
                        fi,
                        d.at,
                        format!(
                            "expected each constant declared once, found `{}` again",
                            d.name
                        ),
                    ));
                }
                if d.exported {
                    if let Some(&(other, _)) = exports.get(d.name.as_str()) {
                        return Err(fault(
                            ErrorKind::Schema,
                            fi,
                            d.at,
                            format!(
                                "expected each exported constant in one file, found `{}` exported by file {} too",
                                d.name,
                                other + 1
                            ),
                        ));
                    }
                    exports.insert(d.name.as_str(), (fi, di));
                }
            }
            locals.push(map);
        }
        Ok(Evaluator {
            files,
            locals,
            exports,
            done: HashMap::new(),
            active: HashSet::new(),
            depth: 0,
        })
    }

    /// The whole definitions document.
    fn document(&mut self) -> Res<Value> {
        let any_marked = self.files.iter().any(|f| f.decls.iter().any(|d| d.marked));
        let mut out = Map::new();
        // Where each type is defined, to place an error about its definition.
        let mut sites: HashMap<String, (usize, usize)> = HashMap::new();
        let mut found_any = false;
        for (fi, f) in self.files.iter().enumerate() {
            for (di, d) in f.decls.iter().enumerate() {
                let counts = if any_marked {
                    d.marked
                } else {
                    d.exported && matches!(d.init.kind, ExprKind::Object(_))
                };
                if !counts {
                    continue;
                }
                found_any = true;
                let tv = self.decl(fi, di)?;
                let V::Obj(entries) = &tv.v else {
                    return Err(fault(
                        ErrorKind::Schema,
                        fi,
                        d.init.at,
                        format!(
                            "expected an object of definitions for `{}`, found {}",
                            d.name,
                            tv.v.kind()
                        ),
                    ));
                };
                for (name, at, def) in entries {
                    if !is_type_name(name) {
                        return Err(fault(
                            ErrorKind::Schema,
                            fi,
                            *at,
                            format!(
                                "expected a type name (letters, digits and `_`, not a built-in), found {name:?}"
                            ),
                        ));
                    }
                    if out.contains_key(name) {
                        return Err(fault(
                            ErrorKind::Schema,
                            def.file,
                            *at,
                            format!("expected each type defined once, found `{name}` again"),
                        ));
                    }
                    out.insert(name.clone(), self.definition(def, false)?);
                    sites.insert(name.clone(), (def.file, *at));
                }
            }
        }
        if !found_any {
            return Err(fault(
                ErrorKind::Schema,
                0,
                0,
                format!(
                    "expected a definitions object (`export const defs = {{…}} satisfies {MARKER}`), found none"
                ),
            ));
        }
        let doc = Value::Object(out);
        // What other commands would refuse (a field declared twice, a
        // default its type refuses, a bare cycle) is refused here, at the
        // definition it is in.
        if let Err(e) = Schema::check_import(&doc) {
            let path = e.path().unwrap_or_default();
            let name: String = path
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let (file, at) = sites.get(&name).copied().unwrap_or((0, 0));
            return Err(fault(
                e.kind(),
                file,
                at,
                format!("expected definitions that load, found that `{name}` does not: {e}"),
            ));
        }
        Ok(doc)
    }

    fn decl(&mut self, file: usize, index: usize) -> Res<Tv> {
        if let Some(v) = self.done.get(&(file, index)) {
            return Ok(v.clone());
        }
        let d = &self.files[file].decls[index];
        if !self.active.insert((file, index)) {
            return Err(fault(
                ErrorKind::Schema,
                file,
                d.at,
                format!("expected `{}` to be defined without using itself", d.name),
            ));
        }
        let v = self.eval(file, &d.init)?;
        self.active.remove(&(file, index));
        self.done.insert((file, index), v.clone());
        Ok(v)
    }

    /// The constant `name` as seen from `file`.
    fn lookup(&mut self, file: usize, name: &str, at: usize) -> Res<Tv> {
        if let Some(&di) = self.locals[file].get(name) {
            return self.decl(file, di);
        }
        if let Some(imported) = self.files[file].imports.get(name) {
            if let Some(&(f, d)) = self.exports.get(imported.as_str()) {
                return self.decl(f, d);
            }
            return Err(fault(
                ErrorKind::Schema,
                file,
                at,
                format!(
                    "expected `{imported}` exported by one of the given files, found no such export"
                ),
            ));
        }
        let hint = if self.exports.contains_key(name) {
            " (another file exports it: import it)"
        } else {
            ""
        };
        Err(fault(
            ErrorKind::Schema,
            file,
            at,
            format!(
                "expected a constant declared or imported in this file, found unknown `{name}`{hint}"
            ),
        ))
    }

    fn builtin(&self, file: usize, name: &str) -> Option<Builtin> {
        let original = match self.files[file].imports.get(name) {
            Some(imported) => imported.as_str(),
            None if self.locals[file].contains_key(name) => return None,
            None => name,
        };
        match original {
            "doc" => Some(Builtin::Doc),
            "absentAs" => Some(Builtin::AbsentAs),
            _ => None,
        }
    }

    fn eval(&mut self, file: usize, e: &Expr) -> Res<Tv> {
        self.depth += 1;
        if self.depth > DEFAULT_MAX_DEPTH {
            return Err(fault(
                ErrorKind::DepthLimit,
                file,
                e.at,
                format!(
                    "expected constants that use one another at most {DEFAULT_MAX_DEPTH} deep, found deeper use"
                ),
            ));
        }
        let out = self.eval_inner(file, e);
        self.depth -= 1;
        out
    }

    fn eval_inner(&mut self, file: usize, e: &Expr) -> Res<Tv> {
        let at = e.at;
        let v = match &e.kind {
            ExprKind::Str { value, raw } => V::Str {
                value: value.clone(),
                raw: *raw,
            },
            ExprKind::Num(n) => V::Num(Number::parse(n).map_err(|err| {
                fault(
                    ErrorKind::NumberRange,
                    file,
                    at,
                    format!("expected a number pith can hold, found {n}: {err}"),
                )
            })?),
            ExprKind::Bool(b) => V::Bool(*b),
            ExprKind::Null => V::Null,
            ExprKind::Template(parts) => {
                let mut s = String::new();
                for p in parts {
                    match p {
                        Part::Text(t) => s.push_str(t),
                        Part::Const { name, at } => {
                            let tv = self.lookup(file, name, *at)?;
                            match tv.v {
                                V::Str { value, .. } => s.push_str(&value),
                                other => {
                                    return Err(fault(
                                        ErrorKind::Schema,
                                        file,
                                        *at,
                                        format!(
                                            "expected a string constant inside `${{…}}`, found {} in `{name}`",
                                            other.kind()
                                        ),
                                    ));
                                }
                            }
                        }
                    }
                }
                V::Str {
                    value: s,
                    raw: false,
                }
            }
            ExprKind::Ident(name) => {
                if self.builtin(file, name).is_some() {
                    return Err(fault(
                        ErrorKind::Schema,
                        file,
                        at,
                        format!("expected a call `{name}(…)`, found `{name}` alone"),
                    ));
                }
                // Errors inside a constant's value point at the constant's own text.
                return self.lookup(file, name, at);
            }
            ExprKind::Call { callee, args } => {
                let Some(b) = self.builtin(file, callee) else {
                    return Err(fault(
                        ErrorKind::Schema,
                        file,
                        at,
                        format!(
                            "expected a call of doc(…) or absentAs(…), found a call of `{callee}`"
                        ),
                    ));
                };
                let name = if b == Builtin::Doc { "doc" } else { "absentAs" };
                let [def, second] = &args[..] else {
                    return Err(fault(
                        ErrorKind::Schema,
                        file,
                        at,
                        format!(
                            "expected 2 arguments to {name}({}), found {}",
                            if b == Builtin::Doc {
                                "definition, text"
                            } else {
                                "definition, default"
                            },
                            args.len()
                        ),
                    ));
                };
                let def = Box::new(self.eval(file, def)?);
                let second_v = self.eval(file, second)?;
                match b {
                    Builtin::Doc => match second_v.v {
                        V::Str { value, .. } => V::Doc { def, text: value },
                        other => {
                            return Err(fault(
                                ErrorKind::Schema,
                                file,
                                second.at,
                                format!(
                                    "expected the doc text as a string, found {}",
                                    other.kind()
                                ),
                            ));
                        }
                    },
                    Builtin::AbsentAs => V::AbsentAs {
                        def,
                        default: Box::new(second_v),
                    },
                }
            }
            ExprKind::Object(props) => V::Obj(self.object(file, props)?),
            ExprKind::Array(elems) => {
                let mut items = Vec::with_capacity(elems.len());
                for el in elems {
                    match el {
                        Elem::Item(x) => items.push(self.eval(file, x)?),
                        Elem::Spread(x) => match self.eval(file, x)?.v {
                            V::Arr(more) => items.extend(more),
                            other => {
                                return Err(fault(
                                    ErrorKind::Schema,
                                    file,
                                    x.at,
                                    format!("expected an array to spread, found {}", other.kind()),
                                ));
                            }
                        },
                    }
                }
                V::Arr(items)
            }
        };
        let depth = match &v {
            V::Arr(items) => 1 + items.iter().map(|t| t.depth).max().unwrap_or(0),
            V::Obj(entries) => 1 + entries.iter().map(|(_, _, t)| t.depth).max().unwrap_or(0),
            V::Doc { def, .. } => 1 + def.depth,
            V::AbsentAs { def, default } => 1 + def.depth.max(default.depth),
            _ => 0,
        };
        if depth > DEFAULT_MAX_DEPTH {
            return Err(fault(
                ErrorKind::DepthLimit,
                file,
                at,
                format!(
                    "expected a value nested at most {DEFAULT_MAX_DEPTH} deep, counting the constants it uses, found deeper nesting"
                ),
            ));
        }
        Ok(Tv { v, file, at, depth })
    }

    fn object(&mut self, file: usize, props: &[Prop]) -> Res<Vec<(String, usize, Tv)>> {
        let mut entries: Vec<(String, usize, Tv)> = Vec::with_capacity(props.len());
        // Keys written in this literal; a spread may be overridden, a written key may not repeat.
        let mut written: HashSet<String> = HashSet::new();
        let put =
            |entries: &mut Vec<(String, usize, Tv)>, key: String, at: usize, tv: Tv| match entries
                .iter_mut()
                .find(|(k, _, _)| *k == key)
            {
                Some(slot) => {
                    slot.1 = at;
                    slot.2 = tv;
                }
                None => entries.push((key, at, tv)),
            };
        for p in props {
            match p {
                Prop::Pair { key, at, value } => {
                    if !written.insert(key.clone()) {
                        return Err(fault(
                            ErrorKind::DuplicateKey,
                            file,
                            *at,
                            format!(
                                "expected each key once in an object literal, found {key:?} again"
                            ),
                        ));
                    }
                    let tv = self.eval(file, value)?;
                    put(&mut entries, key.clone(), *at, tv);
                }
                Prop::Shorthand { name, at } => {
                    if !written.insert(name.clone()) {
                        return Err(fault(
                            ErrorKind::DuplicateKey,
                            file,
                            *at,
                            format!(
                                "expected each key once in an object literal, found {name:?} again"
                            ),
                        ));
                    }
                    let tv = self.lookup(file, name, *at)?;
                    put(&mut entries, name.clone(), *at, tv);
                }
                Prop::Spread(x) => match self.eval(file, x)?.v {
                    V::Obj(more) => {
                        for (k, at, tv) in more {
                            put(&mut entries, k, at, tv);
                        }
                    }
                    other => {
                        return Err(fault(
                            ErrorKind::Schema,
                            file,
                            x.at,
                            format!("expected an object to spread, found {}", other.kind()),
                        ));
                    }
                },
            }
        }
        Ok(entries)
    }

    /// A definition in the document form: a type expression string, an
    /// object of fields, or a wrapper.
    fn definition(&self, tv: &Tv, field: bool) -> Res<Value> {
        let mut doc: Option<&str> = None;
        let mut default: Option<&Tv> = None;
        let mut cur = tv;
        loop {
            match &cur.v {
                V::Doc { def, text } => {
                    if doc.is_some() {
                        return Err(fault(
                            ErrorKind::Schema,
                            cur.file,
                            cur.at,
                            "expected one doc(…) per definition, found a second one",
                        ));
                    }
                    doc = Some(text);
                    cur = def;
                }
                V::AbsentAs { def, default: d } => {
                    if !field {
                        return Err(fault(
                            ErrorKind::Schema,
                            cur.file,
                            cur.at,
                            "expected absentAs(…) only on a field, found it on a type",
                        ));
                    }
                    if default.is_some() {
                        return Err(fault(
                            ErrorKind::Schema,
                            cur.file,
                            cur.at,
                            "expected one absentAs(…) per field, found a second one",
                        ));
                    }
                    default = Some(d);
                    cur = def;
                }
                _ => break,
            }
        }
        let body = match &cur.v {
            V::Str { value, raw } => {
                if let Err(e) = parse_type(value) {
                    let at = if *raw {
                        cur.at + 1 + byte_offset(value, e.line(), e.column())
                    } else {
                        cur.at
                    };
                    return Err(fault(
                        e.kind(),
                        cur.file,
                        at,
                        format!("in the type expression {value:?}: {}", e.message()),
                    ));
                }
                Value::String(value.clone())
            }
            V::Obj(entries) => {
                let mut m = Map::with_capacity(entries.len());
                for (key, _, def) in entries {
                    let key = if key.starts_with('$') {
                        field_key(key, false)
                    } else {
                        key.clone()
                    };
                    m.insert(key, self.definition(def, true)?);
                }
                Value::Object(m)
            }
            other => {
                return Err(fault(
                    ErrorKind::Schema,
                    cur.file,
                    cur.at,
                    format!(
                        "expected a definition (a type expression string, an object of fields, doc(…) or absentAs(…)), found {}",
                        other.kind()
                    ),
                ));
            }
        };
        Ok(wrapped(body, default.map(data).transpose()?, doc))
    }
}

/// A default: plain JSON data.
fn data(tv: &Tv) -> Res<Value> {
    Ok(match &tv.v {
        V::Str { value, .. } => Value::String(value.clone()),
        V::Num(n) => Value::Number(n.clone()),
        V::Bool(b) => Value::Bool(*b),
        V::Null => Value::Null,
        V::Arr(items) => Value::Array(items.iter().map(data).collect::<Res<_>>()?),
        V::Obj(entries) => {
            let mut m = Map::with_capacity(entries.len());
            for (k, _, v) in entries {
                m.insert(k.clone(), data(v)?);
            }
            Value::Object(m)
        }
        other => {
            return Err(fault(
                ErrorKind::Schema,
                tv.file,
                tv.at,
                format!("expected plain data as a default, found {}", other.kind()),
            ));
        }
    })
}

/// The byte offset of 1-based `line`/`column` (in characters) inside `s`.
fn byte_offset(s: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in s.split('\n').enumerate() {
        if i + 1 == line {
            return offset
                + l.char_indices()
                    .nth(column.saturating_sub(1))
                    .map_or(l.len(), |(b, _)| b);
        }
        offset += l.len() + 1;
    }
    s.len()
}
