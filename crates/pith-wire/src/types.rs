//! Type expressions: the syntax tree, its parser and its canonical printer.
//!
//! ```text
//! type     := '|'? postfix ('|' postfix)*
//! postfix  := primary ('[' ']')*
//! primary  := '(' type ')' | STRING | 'string' | 'number' | 'number.integer'
//!           | 'boolean' | 'null' | 'unknown' | 'Record' ('<' 'string' ',' type '>')?
//!           | NAME
//! STRING   := '…' or "…" with the escapes \\ \' \" \n \r \t \uXXXX
//! NAME     := [A-Za-z_][A-Za-z0-9_]*
//! ```
//!
//! Unions are flattened (`(A | B) | C` is the three-member union `A | B | C`)
//! and parentheses leave no trace, so [`Type`]'s `Display` prints the one
//! canonical spelling of a type: single-quoted literals, ` | ` between
//! members, parentheses only around a union that is an array's element.

use pith_core::error::{Error, ErrorKind, Result};
use pith_core::value::Value;
use std::cell::OnceCell;
use std::collections::HashMap;
use std::fmt;

/// A type: what a type expression denotes, or an object of fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Type {
    /// `string`
    String,
    /// `number`: any JSON number.
    Number,
    /// `number.integer`: a number with no fractional part (`1.0` counts, `1.5` does not).
    Integer,
    /// `boolean`
    Boolean,
    /// `null`
    Null,
    /// `unknown`: any JSON value.
    Unknown,
    /// `Record` (any object) or `Record<string, T>` (an object whose every value is a `T`).
    Record(Option<Box<Type>>),
    /// A string literal such as `'pending'`.
    Literal(String),
    /// `T[]`
    Array(Box<Type>),
    /// `A | B | …`, at least two members, none of them a union.
    Union(Vec<Type>),
    /// A named type of the same schema.
    Ref(String),
    /// An object of declared fields; written as an object in a definitions
    /// document, never inside a type expression string.
    Object(ObjectType),
}

/// An object type: its declared fields, in declared order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObjectType {
    /// The fields in the order the definition lists them.
    pub fields: Vec<Field>,
}

/// Finds the fields of one object type by name: by scanning a few, through
/// a hash map from 16 on (built the first time a lookup needs it), so that
/// wide types cost no more per key.
pub(crate) struct FieldIndex<'a> {
    o: &'a ObjectType,
    by_name: OnceCell<HashMap<&'a str, usize>>,
}

/// How many fields from a hint [`FieldIndex::position_from`] compares
/// before it asks the hash map: keys in declared order that skip a few
/// absent fields are found without one.
const NEAR: usize = 4;

impl<'a> FieldIndex<'a> {
    pub(crate) fn new(o: &'a ObjectType) -> FieldIndex<'a> {
        FieldIndex {
            o,
            by_name: OnceCell::new(),
        }
    }

    /// The position of the first field named `name`.
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        if self.o.fields.len() < 16 {
            return self.o.fields.iter().position(|f| f.name == name);
        }
        let by_name = self.by_name.get_or_init(|| {
            let mut m = HashMap::with_capacity(self.o.fields.len());
            for (i, f) in self.o.fields.iter().enumerate() {
                m.entry(f.name.as_str()).or_insert(i);
            }
            m
        });
        by_name.get(name).copied()
    }

    /// The position of the field named `name`, looking at the few fields
    /// from position `hint` first: keys read in their declared order (as a
    /// document written from its type has them, absent fields left out)
    /// are each found with a comparison or a few.
    pub(crate) fn position_from(&self, name: &str, hint: usize) -> Option<usize> {
        let mut near = self.o.fields.iter().skip(hint).take(NEAR);
        // A loaded type names each field once (`Schema` refuses a second
        // field of a name), so a field of that name is the one.
        match near.position(|f| f.name == name) {
            Some(i) => Some(hint + i),
            None => self.position(name),
        }
    }

    /// [`FieldIndex::position_from`] from `*next`, which then moves past
    /// the field found: for keys read one after another.
    pub(crate) fn position_next(&self, name: &str, next: &mut usize) -> Option<usize> {
        let d = self.position_from(name, *next)?;
        *next = d + 1;
        Some(d)
    }

    /// The first field named `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&'a Field> {
        self.position(name).map(|i| &self.o.fields[i])
    }
}

/// One declared field of an object type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The key, without the `?` that marks an optional field.
    pub name: String,
    /// Whether the key must be present, may be absent, or reads as a default when absent.
    pub presence: Presence,
    /// The field's type.
    pub ty: Type,
    /// The `doc` text, if any.
    pub doc: Option<String>,
    /// The default with every default inside it filled in, computed when the
    /// schema is loaded; `fill` inserts copies of this.
    pub(crate) filled: Option<Value>,
}

/// Whether a field's key must be present.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Presence {
    /// The key must be present.
    Required,
    /// The key may be absent (`"name?"`); absence carries its own meaning.
    Optional,
    /// `absentAs(type, default)`: an absent key reads as this default (as written).
    AbsentAs(Value),
}

impl Field {
    /// A field with no default cache; the loader fills the cache.
    pub(crate) fn new(name: String, presence: Presence, ty: Type, doc: Option<String>) -> Field {
        Field {
            name,
            presence,
            ty,
            doc,
            filled: None,
        }
    }

    /// The default as written, if the field is `absentAs`.
    pub fn default_value(&self) -> Option<&Value> {
        match &self.presence {
            Presence::AbsentAs(v) => Some(v),
            _ => None,
        }
    }

    /// The default with the defaults of its own absent fields filled in: the
    /// value [`fill`](super::fill) inserts for an absent key.
    pub fn filled_default(&self) -> Option<&Value> {
        self.filled.as_ref().or(self.default_value())
    }

    /// Whether the key must be present.
    pub fn is_required(&self) -> bool {
        self.presence == Presence::Required
    }
}

/// Parses a type expression.
///
/// Names other than the built-in ones become [`Type::Ref`]s; whether they
/// are defined is for [`Schema::from_value`](super::Schema::from_value) to
/// decide. Errors carry the line and column inside `src`.
pub fn parse_type(src: &str) -> Result<Type> {
    parse_with(src, &|_| true)
}

/// Parses a type expression whose references must satisfy `known`; an
/// unknown name is an [`ErrorKind::Schema`] error at the name's column.
pub(crate) fn parse_with(src: &str, known: &dyn Fn(&str) -> bool) -> Result<Type> {
    let mut p = Parser {
        src,
        pos: 0,
        known,
        depth: 0,
    };
    p.skip_ws();
    if p.pos == src.len() {
        return Err(p.err(
            ErrorKind::Syntax,
            p.pos,
            "expected a type, found an empty expression",
        ));
    }
    let (t, _) = p.union()?;
    p.skip_ws();
    if p.pos < src.len() {
        let found = p.describe_here();
        return Err(p.err(
            ErrorKind::Syntax,
            p.pos,
            format!("expected `|`, `[]` or the end of the expression, found {found}"),
        ));
    }
    Ok(t)
}

/// Whether `name` can name a type: an identifier that is not a built-in.
pub fn is_type_name(name: &str) -> bool {
    pith_core::toon::is_identifier(name) && !is_builtin(name)
}

fn is_builtin(name: &str) -> bool {
    matches!(
        name,
        "string" | "number" | "boolean" | "null" | "unknown" | "Record"
    )
}

/// Writes `s` as a single-quoted literal of the type-expression syntax.
pub(crate) fn write_literal(out: &mut impl fmt::Write, s: &str) -> fmt::Result {
    out.write_char('\'')?;
    for c in s.chars() {
        match c {
            '\'' => out.write_str("\\'")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            c if (c as u32) < 0x20 || c == '\u{7f}' => write!(out, "\\u{:04x}", c as u32)?,
            c => out.write_char(c)?,
        }
    }
    out.write_char('\'')
}

impl fmt::Display for Type {
    /// The canonical type expression. An inline [`Type::Object`] prints in
    /// TypeScript's object-type notation (`{ a: string; b?: number }`), which
    /// messages use but type expressions do not accept.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::String => f.write_str("string"),
            Type::Number => f.write_str("number"),
            Type::Integer => f.write_str("number.integer"),
            Type::Boolean => f.write_str("boolean"),
            Type::Null => f.write_str("null"),
            Type::Unknown => f.write_str("unknown"),
            Type::Record(None) => f.write_str("Record"),
            Type::Record(Some(t)) => write!(f, "Record<string, {t}>"),
            Type::Literal(s) => write_literal(f, s),
            Type::Array(t) => match **t {
                Type::Union(_) => write!(f, "({t})[]"),
                _ => write!(f, "{t}[]"),
            },
            Type::Union(members) => {
                for (i, m) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" | ")?;
                    }
                    write!(f, "{m}")?;
                }
                Ok(())
            }
            Type::Ref(name) => f.write_str(name),
            Type::Object(o) => {
                f.write_str("{")?;
                for (i, field) in o.fields.iter().enumerate() {
                    f.write_str(if i == 0 { " " } else { "; " })?;
                    let mark = if field.presence == Presence::Optional {
                        "?"
                    } else {
                        ""
                    };
                    write!(f, "{}{mark}: {}", field.name, field.ty)?;
                }
                f.write_str(if o.fields.is_empty() { "}" } else { " }" })
            }
        }
    }
}

impl Type {
    /// Builds a union from members, flattening nested unions; one member is
    /// returned as itself.
    pub(crate) fn union_of(members: Vec<Type>) -> Type {
        let mut flat = Vec::with_capacity(members.len());
        for m in members {
            match m {
                Type::Union(inner) => flat.extend(inner),
                m => flat.push(m),
            }
        }
        if flat.len() == 1 {
            flat.pop().unwrap_or(Type::Unknown)
        } else {
            Type::Union(flat)
        }
    }
}

/// How deeply parentheses and `Record<…>` may nest in one expression.
const MAX_EXPR_DEPTH: usize = pith_core::DEFAULT_MAX_DEPTH;

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    known: &'a dyn Fn(&str) -> bool,
    depth: usize,
}

impl<'a> Parser<'a> {
    fn err(&self, kind: ErrorKind, offset: usize, msg: impl Into<String>) -> Error {
        Error::at_offset(kind, self.src.as_bytes(), offset, msg)
    }

    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if matches!(c, ' ' | '\t' | '\n' | '\r') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    /// Skips whitespace and consumes `c` if it comes next.
    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char, after: &str) -> Result<()> {
        if self.eat(c) {
            return Ok(());
        }
        let found = self.describe_here();
        Err(self.err(
            ErrorKind::Syntax,
            self.pos,
            format!("expected `{c}` {after}, found {found}"),
        ))
    }

    /// What the text at the current position is, for messages.
    fn describe_here(&self) -> String {
        match self.peek() {
            None => "the end of the expression".to_owned(),
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                format!("`{}`", self.ident_at(self.pos))
            }
            Some(c) => format!("`{c}`"),
        }
    }

    /// Skips blanks and takes the identifier `word`; `role` says where it
    /// belongs, for the error.
    fn expect_word(&mut self, word: &str, role: &str) -> Result<()> {
        self.skip_ws();
        let at = self.pos;
        let found = self.ident_at(at);
        if found != word {
            let found = if found.is_empty() {
                self.describe_here()
            } else {
                format!("`{found}`")
            };
            return Err(self.err(
                ErrorKind::Syntax,
                at,
                format!("expected `{word}` {role}, found {found}"),
            ));
        }
        self.pos += word.len();
        Ok(())
    }

    fn ident_at(&self, start: usize) -> &'a str {
        let src: &'a str = self.src;
        let rest = &src[start..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        &rest[..end]
    }

    fn too_deep(&self) -> Error {
        self.err(
            ErrorKind::DepthLimit,
            self.pos,
            format!(
                "expected a type nested at most {MAX_EXPR_DEPTH} levels deep, found deeper nesting"
            ),
        )
    }

    /// A union and the depth of its tree (so that `string[][]…` cannot build
    /// a tree deeper than the limit either).
    fn union(&mut self) -> Result<(Type, usize)> {
        self.depth += 1;
        if self.depth > MAX_EXPR_DEPTH {
            return Err(self.too_deep());
        }
        // A leading `|` is allowed, as TypeScript allows it.
        self.eat('|');
        let (first, mut depth) = self.postfix()?;
        let mut members = vec![first];
        while self.eat('|') {
            let (m, d) = self.postfix()?;
            depth = depth.max(d);
            members.push(m);
        }
        self.depth -= 1;
        if members.len() > 1 {
            depth += 1;
        }
        if depth > MAX_EXPR_DEPTH {
            return Err(self.too_deep());
        }
        Ok((Type::union_of(members), depth))
    }

    fn postfix(&mut self) -> Result<(Type, usize)> {
        let (mut t, mut depth) = self.primary()?;
        while self.eat('[') {
            self.expect(']', "after `[` (arrays are written `T[]`)")?;
            t = Type::Array(Box::new(t));
            depth += 1;
            if depth > MAX_EXPR_DEPTH {
                return Err(self.too_deep());
            }
        }
        Ok((t, depth))
    }

    fn primary(&mut self) -> Result<(Type, usize)> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            Some('(') => {
                self.pos += 1;
                let t = self.union()?;
                self.expect(')', "to close `(`")?;
                Ok(t)
            }
            Some(q @ ('\'' | '"')) => Ok((Type::Literal(self.literal(q)?), 0)),
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let name = self.ident_at(start);
                self.pos += name.len();
                self.named(name, start)
            }
            None => Err(self.err(
                ErrorKind::Syntax,
                start,
                "expected a type, found the end of the expression",
            )),
            Some(_) => {
                let found = self.describe_here();
                Err(self.err(
                    ErrorKind::Syntax,
                    start,
                    format!("expected a type, found {found}"),
                ))
            }
        }
    }

    fn named(&mut self, name: &'a str, start: usize) -> Result<(Type, usize)> {
        let mut depth = 0;
        let t = match name {
            "string" => Type::String,
            "boolean" => Type::Boolean,
            "null" => Type::Null,
            "unknown" => Type::Unknown,
            "number" => {
                if !self.eat('.') {
                    return Ok((Type::Number, 0));
                }
                self.expect_word("integer", "after `number.`")?;
                Type::Integer
            }
            "Record" => {
                if !self.eat('<') {
                    return Ok((Type::Record(None), 0));
                }
                self.expect_word("string", "as the key type of `Record`")?;
                self.expect(',', "after the key type of `Record`")?;
                let (value, d) = self.union()?;
                self.expect('>', "to close `Record<`")?;
                depth = d + 1;
                Type::Record(Some(Box::new(value)))
            }
            _ => {
                if !(self.known)(name) {
                    return Err(self.err(
                        ErrorKind::Schema,
                        start,
                        format!("expected a defined type, found undefined `{name}`"),
                    ));
                }
                Type::Ref(name.to_owned())
            }
        };
        // `number.integer` is the only dotted name and `Record` the only generic.
        self.skip_ws();
        match self.peek() {
            Some('<') => Err(self.err(
                ErrorKind::Syntax,
                self.pos,
                format!("expected `|`, `[]` or the end of the type, found `<` (only `Record` takes type arguments, not `{name}`)"),
            )),
            Some('.') => Err(self.err(
                ErrorKind::Syntax,
                self.pos,
                format!("expected `|`, `[]` or the end of the type, found `.` (only `number.integer` has a dot, not `{name}`)"),
            )),
            _ => Ok((t, depth)),
        }
    }

    fn literal(&mut self, quote: char) -> Result<String> {
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err(
                    ErrorKind::Syntax,
                    open,
                    format!("expected a closing {quote} for this string literal, found the end of the expression"),
                ));
            };
            let at = self.pos;
            self.pos += c.len_utf8();
            if c == quote {
                return Ok(out);
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some(e) = self.peek() else {
                return Err(self.err(
                    ErrorKind::InvalidEscape,
                    at,
                    "expected an escape after `\\`, found the end of the expression",
                ));
            };
            self.pos += e.len_utf8();
            match e {
                '\\' | '\'' | '"' => out.push(e),
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                'u' => out.push(self.unicode_escape(at)?),
                other => {
                    return Err(self.err(
                        ErrorKind::InvalidEscape,
                        at,
                        format!(
                            "expected one of \\\\ \\' \\\" \\n \\r \\t \\uXXXX, found `\\{other}`"
                        ),
                    ));
                }
            }
        }
    }

    /// Reads the four hex digits after `\u` (and a second `\uXXXX` for a
    /// surrogate pair); `at` is the backslash.
    fn unicode_escape(&mut self, at: usize) -> Result<char> {
        let hi = self.hex4(at)?;
        if !(0xD800..0xE000).contains(&hi) {
            return char::from_u32(hi).ok_or_else(|| {
                self.err(
                    ErrorKind::InvalidEscape,
                    at,
                    "expected a Unicode scalar value",
                )
            });
        }
        let lone = |p: &Self| {
            p.err(
                ErrorKind::LoneSurrogate,
                at,
                format!("expected a surrogate pair, found a lone surrogate \\u{hi:04x}"),
            )
        };
        if hi >= 0xDC00 || !self.src[self.pos..].starts_with("\\u") {
            return Err(lone(self));
        }
        self.pos += 2;
        let lo = self.hex4(at)?;
        if !(0xDC00..0xE000).contains(&lo) {
            return Err(lone(self));
        }
        let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
        char::from_u32(c).ok_or_else(|| lone(self))
    }

    fn hex4(&mut self, at: usize) -> Result<u32> {
        let digits = self.src.get(self.pos..self.pos + 4);
        match digits {
            Some(d) if d.bytes().all(|b| b.is_ascii_hexdigit()) => {
                self.pos += 4;
                u32::from_str_radix(d, 16)
                    .map_err(|_| self.err(ErrorKind::InvalidEscape, at, "expected four hex digits"))
            }
            _ => Err(self.err(
                ErrorKind::InvalidEscape,
                at,
                "expected four hex digits after `\\u`",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(src: &str) -> String {
        parse_type(src).expect(src).to_string()
    }

    fn error(src: &str) -> (ErrorKind, usize, String) {
        let e = parse_type(src).expect_err(src);
        (e.kind(), e.column(), e.message().to_owned())
    }

    #[test]
    fn fields_are_found_from_any_hint_at_any_width() {
        for n in [3, 15, 16, 40] {
            let o = ObjectType {
                fields: (0..n)
                    .map(|i| Field::new(format!("f{i}"), Presence::Required, Type::Unknown, None))
                    .collect(),
            };
            let index = FieldIndex::new(&o);
            for i in 0..n {
                let name = format!("f{i}");
                assert_eq!(index.position(&name), Some(i));
                // At the hint, a few after it, before it, far from it.
                for hint in [i, i.saturating_sub(3), i + 1, 0, n, n + 10] {
                    assert_eq!(
                        index.position_from(&name, hint),
                        Some(i),
                        "n {n} hint {hint}"
                    );
                }
            }
            assert_eq!(index.position_from("g", 0), None);
            assert_eq!(index.get("f2").map(|f| f.name.as_str()), Some("f2"));
        }
    }

    #[test]
    fn prints_the_canonical_spelling() {
        assert_eq!(round("string"), "string");
        assert_eq!(round(" number . integer "), "number.integer");
        assert_eq!(round("\"a\" | 'b'"), "'a' | 'b'");
        assert_eq!(round("(A | B)[]"), "(A | B)[]");
        assert_eq!(round("((A) | (B | C))"), "A | B | C");
        assert_eq!(round("| 'x' | null"), "'x' | null");
        assert_eq!(round("Record"), "Record");
        assert_eq!(
            round("Record<string, number[] | null>[]"),
            "Record<string, number[] | null>[]"
        );
        assert_eq!(round("string[][]"), "string[][]");
        assert_eq!(
            round(r#"'it\'s' | "say \"hi\"" | '\u00e9\n'"#),
            r#"'it\'s' | 'say "hi"' | 'é\n'"#
        );
        assert_eq!(round(r"'\ud83d\ude00'"), "'\u{1F600}'");
    }

    #[test]
    fn builds_the_tree() {
        assert_eq!(
            parse_type("(TodoItem | null)[]").unwrap(),
            Type::Array(Box::new(Type::Union(vec![
                Type::Ref("TodoItem".into()),
                Type::Null
            ])))
        );
        assert_eq!(
            parse_type("Record<string, unknown>").unwrap(),
            Type::Record(Some(Box::new(Type::Unknown)))
        );
    }

    #[test]
    fn errors_give_the_column() {
        assert_eq!(
            error("'a' | "),
            (
                ErrorKind::Syntax,
                7,
                "expected a type, found the end of the expression".into()
            )
        );
        assert_eq!(
            error("number.int"),
            (
                ErrorKind::Syntax,
                8,
                "expected `integer` after `number.`, found `int`".into()
            )
        );
        assert_eq!(
            error("Record<number, string>"),
            (
                ErrorKind::Syntax,
                8,
                "expected `string` as the key type of `Record`, found `number`".into()
            )
        );
        assert_eq!(
            error("'abc"),
            (
                ErrorKind::Syntax,
                1,
                "expected a closing ' for this string literal, found the end of the expression"
                    .into()
            )
        );
        assert_eq!(
            error("(A | B"),
            (
                ErrorKind::Syntax,
                7,
                "expected `)` to close `(`, found the end of the expression".into()
            )
        );
        assert_eq!(error("A[x]").1, 3);
        assert_eq!(
            error("A B").2,
            "expected `|`, `[]` or the end of the expression, found `B`"
        );
        assert_eq!(error("Array<string>").0, ErrorKind::Syntax);
        assert_eq!(error("'\\q'").0, ErrorKind::InvalidEscape);
        assert_eq!(error("'\\ud800'").0, ErrorKind::LoneSurrogate);
        assert_eq!(error("   ").2, "expected a type, found an empty expression");
        assert_eq!(error("é").1, 1);
    }

    #[test]
    fn unknown_names_fail_where_they_stand() {
        let e = parse_with("'a' | Missing[]", &|n| n == "Known").unwrap_err();
        assert_eq!((e.kind(), e.column()), (ErrorKind::Schema, 7));
        assert!(parse_with("Known[]", &|n| n == "Known").is_ok());
    }

    #[test]
    fn deep_parentheses_are_refused_not_overflowed() {
        let deep = format!("{}string{}", "(".repeat(10_000), ")".repeat(10_000));
        assert_eq!(parse_type(&deep).unwrap_err().kind(), ErrorKind::DepthLimit);
        let ok = format!("{}string{}", "(".repeat(200), ")".repeat(200));
        assert_eq!(parse_type(&ok).unwrap(), Type::String);
        let arrays = format!("string{}", "[]".repeat(100_000));
        assert_eq!(
            parse_type(&arrays).unwrap_err().kind(),
            ErrorKind::DepthLimit
        );
        let records = "Record<string, ".repeat(300);
        assert_eq!(
            parse_type(&records).unwrap_err().kind(),
            ErrorKind::DepthLimit
        );
    }

    #[test]
    fn type_names_exclude_builtins() {
        assert!(is_type_name("TodoItem"));
        assert!(is_type_name("_x1"));
        assert!(!is_type_name("string"));
        assert!(!is_type_name("1x"));
        assert!(!is_type_name("a-b"));
        assert!(!is_type_name(""));
    }
}
