//! The parser of the TypeScript subset: one file's tokens to its imports
//! and declarations, each expression kept with its position.

use super::lex::{Part, Tok, Token};
use super::{Fault, Res, fault};
use pith_core::DEFAULT_MAX_DEPTH;
use pith_core::error::ErrorKind;
use pith_core::number::Number;
use std::collections::HashMap;

#[derive(Debug, Clone)]
pub(super) struct Expr {
    pub(super) kind: ExprKind,
    pub(super) at: usize,
}

#[derive(Debug, Clone)]
pub(super) enum ExprKind {
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
pub(super) enum Prop {
    Pair { key: String, at: usize, value: Expr },
    Shorthand { name: String, at: usize },
    Spread(Expr),
}

#[derive(Debug, Clone)]
pub(super) enum Elem {
    Item(Expr),
    Spread(Expr),
}

#[derive(Debug)]
pub(super) struct Decl {
    pub(super) name: String,
    pub(super) at: usize,
    pub(super) init: Expr,
    pub(super) exported: bool,
    pub(super) marked: bool,
}

#[derive(Debug)]
pub(super) struct FileAst {
    pub(super) decls: Vec<Decl>,
    /// Local name → imported name.
    pub(super) imports: HashMap<String, String>,
}

pub(super) struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    file: usize,
    depth: usize,
}

/// The marker type of definitions objects.
pub(super) const MARKER: &str = "WireDefs";

impl Parser {
    pub(super) fn new(tokens: Vec<Token>, file: usize) -> Self {
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

    pub(super) fn program(mut self) -> Res<FileAst> {
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
