//! Lowering: every file's declarations evaluated (constants, imports across
//! files, spreads, templates, `doc` and `absentAs`) and the marked ones
//! written as the definitions document.

use super::lex::Part;
use super::parse::{Elem, Expr, ExprKind, FileAst, MARKER, Prop};
use super::{Res, fault};
use crate::defs::{Schema, field_key, wrapped};
use crate::types::{is_type_name, parse_type};
use pith_core::DEFAULT_MAX_DEPTH;
use pith_core::error::ErrorKind;
use pith_core::number::Number;
use pith_core::value::{Map, Value};
use std::collections::{HashMap, HashSet};

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
    Str { value: String, raw: bool },
    Num(Number),
    Bool(bool),
    Null,
    Arr(Vec<Tv>),
    Obj(Vec<Entry>),
    Doc { def: Box<Tv>, text: String },
    AbsentAs { def: Box<Tv>, default: Box<Tv> },
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

/// One key of an object value.
#[derive(Debug, Clone)]
struct Entry {
    key: String,
    /// The file and offset where the key is written (a spread brings keys
    /// written in another constant, perhaps in another file).
    file: usize,
    at: usize,
    tv: Tv,
    /// Where the object got this key a second time through a spread (a
    /// key written after a spread that has it, or two spreads that share
    /// it): TypeScript lets the later one win, and so does data, but the
    /// object is refused when it turns out to hold definitions.
    again: Option<Again>,
}

/// Where and how an object got one key twice.
#[derive(Debug, Clone)]
struct Again {
    file: usize,
    at: usize,
    /// How, to end the message with, such as: here and in the spread
    /// `...B` before it.
    how: String,
}

impl Again {
    /// The refusal of a key declared twice; `what` says what each key
    /// declares: `field declared`, `type defined`.
    fn refuse(&self, what: &str, key: &str) -> super::Fault {
        fault(
            ErrorKind::Schema,
            self.file,
            self.at,
            format!(
                "expected each {what} once, found `{key}` {} (definitions do not let one copy replace the other)",
                self.how
            ),
        )
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Builtin {
    Doc,
    AbsentAs,
}

pub(super) struct Evaluator<'a> {
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
    pub(super) fn new(files: &'a [FileAst]) -> Res<Self> {
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
    pub(super) fn document(&mut self) -> Res<Value> {
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
                for e in entries {
                    let name = &e.key;
                    if !is_type_name(name) {
                        return Err(fault(
                            ErrorKind::Schema,
                            e.file,
                            e.at,
                            format!(
                                "expected a type name (letters, digits and `_`, not a built-in), found {name:?}"
                            ),
                        ));
                    }
                    if let Some(again) = &e.again {
                        return Err(again.refuse("type defined", name));
                    }
                    if out.contains_key(name) {
                        return Err(fault(
                            ErrorKind::Schema,
                            e.file,
                            e.at,
                            format!("expected each type defined once, found `{name}` again"),
                        ));
                    }
                    out.insert(name.clone(), self.definition(&e.tv, false)?);
                    sites.insert(name.clone(), (e.file, e.at));
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
            V::Obj(entries) => 1 + entries.iter().map(|e| e.tv.depth).max().unwrap_or(0),
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

    fn object(&mut self, file: usize, props: &[Prop]) -> Res<Vec<Entry>> {
        let mut entries: Vec<Entry> = Vec::with_capacity(props.len());
        // Keys written in this literal, and where: one may not repeat, nor
        // be overwritten by a later spread.
        let mut written: HashMap<String, usize> = HashMap::new();
        // Keys a spread brought, and which spread, for messages.
        let mut spread_keys: HashMap<String, String> = HashMap::new();
        for p in props {
            let (key, at, tv) = match p {
                Prop::Pair { key, at, value } => {
                    written_once(&mut written, file, key, *at)?;
                    (key, *at, self.eval(file, value)?)
                }
                Prop::Shorthand { name, at } => {
                    written_once(&mut written, file, name, *at)?;
                    (name, *at, self.lookup(file, name, *at)?)
                }
                Prop::Spread(x) => {
                    let spread = spread_name(x);
                    let more = match self.eval(file, x)?.v {
                        V::Obj(more) => more,
                        other => {
                            return Err(fault(
                                ErrorKind::Schema,
                                file,
                                x.at,
                                format!("expected an object to spread, found {}", other.kind()),
                            ));
                        }
                    };
                    for mut e in more {
                        if let Some(&before) = written.get(&e.key) {
                            return Err(fault(
                                ErrorKind::DuplicateKey,
                                file,
                                before,
                                format!(
                                    "expected each key once in an object literal, found {:?} here and again in the spread {spread} after it, which would overwrite this one (TypeScript refuses it too: TS2783)",
                                    e.key
                                ),
                            ));
                        }
                        if let Some(earlier) = spread_keys.get(&e.key)
                            && e.again.is_none()
                        {
                            e.again = Some(Again {
                                file,
                                at: x.at,
                                how: format!(
                                    "in this spread {spread} and in the spread {earlier} before it"
                                ),
                            });
                        }
                        spread_keys.insert(e.key.clone(), spread.clone());
                        put(&mut entries, e);
                    }
                    continue;
                }
            };
            let again = spread_keys.get(key).map(|earlier| Again {
                file,
                at,
                how: format!("here and in the spread {earlier} before it"),
            });
            put(
                &mut entries,
                Entry {
                    key: key.clone(),
                    file,
                    at,
                    tv,
                    again,
                },
            );
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
                for e in entries {
                    if let Some(again) = &e.again {
                        return Err(again.refuse("field declared", &e.key));
                    }
                    let key = if e.key.starts_with('$') {
                        field_key(&e.key, false)
                    } else {
                        e.key.clone()
                    };
                    m.insert(key, self.definition(&e.tv, true)?);
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

/// Refuses a key written a second time in one object literal.
fn written_once(
    written: &mut HashMap<String, usize>,
    file: usize,
    key: &str,
    at: usize,
) -> Res<()> {
    if written.insert(key.to_owned(), at).is_some() {
        return Err(fault(
            ErrorKind::DuplicateKey,
            file,
            at,
            format!("expected each key once in an object literal, found {key:?} again"),
        ));
    }
    Ok(())
}

/// Sets `e` in place of the entry of the same key (which keeps its place,
/// as in JavaScript), or adds it at the end.
fn put(entries: &mut Vec<Entry>, e: Entry) {
    match entries.iter_mut().find(|old| old.key == e.key) {
        Some(slot) => *slot = e,
        None => entries.push(e),
    }
}

/// How a message names a spread: `` `...NAME` `` for a constant.
fn spread_name(x: &Expr) -> String {
    match &x.kind {
        ExprKind::Ident(name) => format!("`...{name}`"),
        _ => "`...{…}`".to_owned(),
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
            // A key given twice is plain JavaScript here: the later one
            // won when the object was built.
            for e in entries {
                m.insert(e.key.clone(), data(&e.tv)?);
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
