//! Definitions documents: loading, validation and the canonical form.
//!
//! See the [module docs](super) for the document format. Loading checks
//! everything that can be checked without a value: names, wrapper shapes,
//! type-expression syntax, that every referenced type is defined, that no
//! type is defined through itself without an array, record or object in
//! between, and that every default matches its field's type.

use super::check::{self, UnknownKeys};
use super::defaults::{DefaultSource, Filler};
use super::path::Path;
use super::types::{Field, ObjectType, Presence, Type, is_type_name, parse_with};
use pith_core::DEFAULT_MAX_DEPTH;
use pith_core::error::{Error, ErrorKind, Result};
use pith_core::value::{Map, Value};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

/// A loaded, validated set of named types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schema {
    types: Vec<NamedType>,
    index: HashMap<String, usize>,
}

/// One named type of a [`Schema`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedType {
    /// The name the document defines.
    pub name: String,
    /// The `doc` text of the type itself.
    pub doc: Option<String>,
    /// The definition.
    pub ty: Type,
}

/// The wrapper key that holds the wrapped definition.
pub const TYPE_KEY: &str = "$type";
/// The wrapper key for `doc(def, text)`.
pub const DOC_KEY: &str = "$doc";
/// The wrapper key for `absentAs(def, default)`.
pub const ABSENT_AS_KEY: &str = "$absentAs";

impl Schema {
    /// Loads a definitions document (see the [module docs](super)).
    ///
    /// Errors are [`ErrorKind::Schema`] (or [`ErrorKind::Syntax`] and its
    /// relatives for a bad type expression) with the JSON path of the
    /// offending place inside `doc`; a type-expression error also carries the
    /// column inside the expression.
    pub fn from_value(doc: &Value) -> Result<Schema> {
        Schema::load(doc, false)
    }

    /// Checks a document an importer wrote: it must load, but for names it
    /// uses and does not define (another file may define them; loading
    /// without it names the first), which count as `unknown` here.
    pub(crate) fn check_import(doc: &Value) -> Result<()> {
        Schema::load(doc, true).map(drop)
    }

    fn load(doc: &Value, open_names: bool) -> Result<Schema> {
        let Value::Object(root) = doc else {
            return Err(Error::new(
                ErrorKind::Schema,
                format!(
                    "expected a definitions document (an object from type names to definitions), found {}",
                    doc.type_name()
                ),
            ));
        };
        let depth = doc.depth();
        if depth > DEFAULT_MAX_DEPTH {
            return Err(Error::new(
                ErrorKind::DepthLimit,
                format!(
                    "expected a document nested at most {DEFAULT_MAX_DEPTH} deep, found {depth}"
                ),
            ));
        }
        let mut path = Path::new();
        for name in root.keys() {
            if !is_type_name(name) {
                return Err(Error::at_path(
                    ErrorKind::Schema,
                    path.with_key(name),
                    format!(
                        "expected a type name (letters, digits and `_`, not starting with a digit, and not one of string, number, boolean, null, unknown, Record), found {}",
                        quoted(name)
                    ),
                ));
            }
        }
        let known = |n: &str| open_names || root.contains_key(n);
        let mut types = Vec::with_capacity(root.len());
        let mut index = HashMap::with_capacity(root.len());
        for (name, def) in root.iter() {
            path.push_key(name);
            let parsed = parse_def(def, &mut path, &known)?;
            if parsed.default.is_some() {
                return Err(Error::at_path(
                    ErrorKind::Schema,
                    path.render(),
                    format!(
                        "expected `absentAs` only on a field, found it on the type `{name}` itself"
                    ),
                ));
            }
            path.pop();
            index.insert(String::from(name), types.len());
            types.push(NamedType {
                name: String::from(name),
                doc: parsed.doc,
                ty: parsed.ty,
            });
        }
        let mut schema = Schema { types, index };
        schema.check_cycles()?;
        schema.load_defaults()?;
        Ok(schema)
    }

    /// The canonical definitions document: wrappers as
    /// `{"$type", "$absentAs", "$doc"}` objects, type expressions in their
    /// canonical spelling. `Schema::from_value(&s.to_value())` gives `s` back.
    pub fn to_value(&self) -> Value {
        let mut out = Map::with_capacity(self.types.len());
        for t in &self.types {
            out.insert(t.name.clone(), def_value(&t.ty, t.doc.as_deref(), None));
        }
        Value::Object(out)
    }

    /// The named type `name`.
    pub fn get(&self, name: &str) -> Option<&NamedType> {
        self.index.get(name).and_then(|&i| self.types.get(i))
    }

    /// Every named type, in document order.
    pub fn types(&self) -> &[NamedType] {
        &self.types
    }

    /// The definition a reference names. References are checked when the
    /// schema loads, so the fallback is never reached.
    pub(crate) fn resolve(&self, name: &str) -> &Type {
        const UNKNOWN: &Type = &Type::Unknown;
        self.get(name).map_or(UNKNOWN, |t| &t.ty)
    }

    /// The named type, or an error naming the types that exist.
    pub(crate) fn require(&self, name: &str) -> Result<&NamedType> {
        self.get(name).ok_or_else(|| {
            let mut names: Vec<&str> = self.types.iter().map(|t| t.name.as_str()).collect();
            let more = names.len().saturating_sub(12);
            names.truncate(12);
            let mut list = names.join(", ");
            if more > 0 {
                list.push_str(&format!(" and {more} more"));
            }
            Error::new(
                ErrorKind::Schema,
                format!("expected a type the schema defines ({list}), found `{name}`"),
            )
        })
    }

    /// Refuses a type reachable from itself through references and unions
    /// alone: such a type has no finite values, and walking it would not end.
    fn check_cycles(&self) -> Result<()> {
        let edges: Vec<Vec<usize>> = self
            .types
            .iter()
            .map(|t| {
                let mut out = Vec::new();
                bare_refs(&t.ty, &mut |n| {
                    if let Some(&i) = self.index.get(n) {
                        out.push(i);
                    }
                });
                out
            })
            .collect();
        // Iterative depth-first search: 0 unvisited, 1 on the stack, 2 done.
        let mut state = vec![0u8; self.types.len()];
        for start in 0..self.types.len() {
            if state[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            state[start] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                if let Some(&succ) = edges[node].get(*next) {
                    *next += 1;
                    match state[succ] {
                        0 => {
                            state[succ] = 1;
                            stack.push((succ, 0));
                        }
                        1 => {
                            let from = stack.iter().position(|&(n, _)| n == succ).unwrap_or(0);
                            let mut chain: Vec<&str> = stack[from..]
                                .iter()
                                .map(|&(n, _)| self.types[n].name.as_str())
                                .collect();
                            chain.push(&self.types[succ].name);
                            return Err(Error::at_path(
                                ErrorKind::Schema,
                                Path::new().with_key(&self.types[succ].name),
                                format!(
                                    "expected an array, record or object between a type and itself, found the bare cycle {}",
                                    chain.join(" -> ")
                                ),
                            ));
                        }
                        _ => {}
                    }
                } else {
                    state[node] = 2;
                    stack.pop();
                }
            }
        }
        Ok(())
    }

    /// Checks every default against its field's type, then stores each
    /// default with its own absent fields filled in.
    fn load_defaults(&mut self) -> Result<()> {
        let mut sites: Vec<(&Field, String)> = Vec::new();
        for t in &self.types {
            let mut path = Path::new();
            path.push_key(&t.name);
            collect_sites(&t.ty, &mut path, &mut |field, path| {
                if field.default_value().is_some() {
                    sites.push((field, path.to_owned()));
                }
            });
        }
        if sites.is_empty() {
            return Ok(());
        }
        for (field, at) in &sites {
            let Some(default) = field.default_value() else {
                continue;
            };
            let violations = check::check_type(self, &field.ty, default, UnknownKeys::Reject);
            if let Some(v) = violations.first() {
                let inner = if v.path.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", v.path)
                };
                return Err(Error::at_path(
                    ErrorKind::Schema,
                    at.clone(),
                    format!(
                        "expected a default that matches {}, found one that does not:{inner} expected {}, found {}",
                        field.ty, v.expected, v.found
                    ),
                ));
            }
        }
        let site_path: HashMap<usize, String> = sites
            .iter()
            .map(|(field, at)| (*field as *const Field as usize, at.clone()))
            .collect();
        let loader = LoadDefaults {
            schema: self,
            states: RefCell::new(HashMap::new()),
            site_path: &site_path,
            nesting: Cell::new(0),
        };
        let filled = sites
            .iter()
            .map(|(field, _)| loader.filled(field))
            .collect::<Result<Vec<_>>>()?;
        let mut filled = filled.into_iter();
        for t in &mut self.types {
            collect_fields_mut(&mut t.ty, &mut |f| {
                if f.default_value().is_some() {
                    f.filled = filled.next();
                }
            });
        }
        Ok(())
    }
}

/// Fills defaults while the schema loads, computing each on first use and
/// refusing a default that needs itself.
struct LoadDefaults<'s> {
    schema: &'s Schema,
    states: RefCell<HashMap<usize, Option<Value>>>,
    site_path: &'s HashMap<usize, String>,
    nesting: Cell<usize>,
}

/// How many defaults may need one another in a chain.
const MAX_DEFAULT_CHAIN: usize = 64;

impl DefaultSource for LoadDefaults<'_> {
    fn filled(&self, field: &Field) -> Result<Value> {
        let key = field as *const Field as usize;
        let at = || self.site_path.get(&key).cloned().unwrap_or_default();
        match self.states.borrow().get(&key) {
            Some(Some(v)) => return Ok(v.clone()),
            Some(None) => {
                return Err(Error::at_path(
                    ErrorKind::Schema,
                    at(),
                    "expected a default whose filled-in form is finite, found one that contains itself",
                ));
            }
            None => {}
        }
        let Some(default) = field.default_value() else {
            return Ok(Value::Null);
        };
        if self.nesting.get() >= MAX_DEFAULT_CHAIN {
            return Err(Error::at_path(
                ErrorKind::DepthLimit,
                at(),
                format!(
                    "expected defaults that need at most {MAX_DEFAULT_CHAIN} other defaults in a chain, found a longer chain"
                ),
            ));
        }
        self.states.borrow_mut().insert(key, None);
        self.nesting.set(self.nesting.get() + 1);
        let result = Filler::new(self.schema, self).fill(&field.ty, default.clone());
        self.nesting.set(self.nesting.get() - 1);
        let v = result?;
        self.states.borrow_mut().insert(key, Some(v.clone()));
        Ok(v)
    }
}

/// A definition while loading: its type and the wrappers seen around it.
struct Parsed {
    ty: Type,
    doc: Option<String>,
    default: Option<Value>,
}

fn schema_err(path: &Path, msg: impl Into<String>) -> Error {
    Error::at_path(ErrorKind::Schema, path.render(), msg)
}

/// An error inside the type expression `expr` at `path`. Its position counts
/// within the expression, not within whatever text held the document, so it
/// moves into the message and the error keeps only the path: a caret drawn
/// under the document's own line would point at the wrong place.
fn in_expression(e: Error, expr: &str, path: &Path) -> Error {
    let at = match e.position() {
        Some(p) if p.line > 1 => format!(", line {}, column {}", p.line, p.column),
        Some(p) => format!(", column {}", p.column),
        None => String::new(),
    };
    Error::at_path(
        e.kind(),
        path.render(),
        format!(
            "in the type expression {}{at}: {}",
            quoted(expr),
            e.message()
        ),
    )
}

fn quoted(s: &str) -> String {
    let mut out = String::new();
    super::path::push_json_string(&mut out, s);
    out
}

fn parse_def(v: &Value, path: &mut Path, known: &dyn Fn(&str) -> bool) -> Result<Parsed> {
    match v {
        Value::String(s) => {
            let ty = parse_with(s, known).map_err(|e| in_expression(e, s, path))?;
            Ok(Parsed {
                ty,
                doc: None,
                default: None,
            })
        }
        Value::Array(items) => parse_lowered(items, path, known),
        Value::Object(m) if m.contains_key(TYPE_KEY) => parse_wrapper(m, path, known),
        Value::Object(m) => parse_fields(m, path, known),
        other => Err(schema_err(
            path,
            format!(
                "expected a definition (a type expression string, an object of fields, a {{\"$type\": …}} wrapper or a [definition, \"@\" or \"=\", …] array), found {}",
                other.type_name()
            ),
        )),
    }
}

/// `[def, "@", text]` and `[def, "=", default]`.
fn parse_lowered(items: &[Value], path: &mut Path, known: &dyn Fn(&str) -> bool) -> Result<Parsed> {
    let op = items.get(1).and_then(Value::as_str);
    let (def, op, arg) = match (items, op) {
        ([def, _, arg], Some(op @ ("@" | "="))) => (def, op, arg),
        ([_, _, _], _) => {
            path.push_index(1);
            let e = schema_err(
                path,
                format!(
                    "expected \"@\" (doc) or \"=\" (absentAs) as the middle item, found {}",
                    super::path::short_json(&items[1], 40)
                ),
            );
            return Err(e);
        }
        _ => {
            return Err(schema_err(
                path,
                format!(
                    "expected [definition, \"@\", text] or [definition, \"=\", default], found an array of {} items",
                    items.len()
                ),
            ));
        }
    };
    path.push_index(0);
    let mut parsed = parse_def(def, path, known)?;
    path.pop();
    path.push_index(2);
    if op == "@" {
        set_once(&mut parsed.doc, doc_text(arg, path)?, path, "doc")?;
    } else {
        set_once(&mut parsed.default, arg.clone(), path, "absentAs")?;
    }
    path.pop();
    Ok(parsed)
}

/// The text of a `$doc` or `@` doc annotation.
fn doc_text(v: &Value, path: &Path) -> Result<String> {
    match v.as_str() {
        Some(text) => Ok(text.to_owned()),
        None => Err(schema_err(
            path,
            format!("expected the doc text as a string, found {}", v.type_name()),
        )),
    }
}

fn parse_wrapper(m: &Map, path: &mut Path, known: &dyn Fn(&str) -> bool) -> Result<Parsed> {
    for key in m.keys() {
        if ![TYPE_KEY, DOC_KEY, ABSENT_AS_KEY].contains(&key.as_str()) {
            return Err(schema_err(
                path,
                format!(
                    "expected only \"$type\", \"$doc\" and \"$absentAs\" in a wrapper, found {} (fields go inside \"$type\")",
                    quoted(key)
                ),
            ));
        }
    }
    path.push_key(TYPE_KEY);
    let mut parsed = parse_def(m.get(TYPE_KEY).unwrap_or(&Value::Null), path, known)?;
    path.pop();
    if let Some(doc) = m.get(DOC_KEY) {
        path.push_key(DOC_KEY);
        set_once(&mut parsed.doc, doc_text(doc, path)?, path, "doc")?;
        path.pop();
    }
    if let Some(default) = m.get(ABSENT_AS_KEY) {
        path.push_key(ABSENT_AS_KEY);
        set_once(&mut parsed.default, default.clone(), path, "absentAs")?;
        path.pop();
    }
    Ok(parsed)
}

fn set_once<T>(slot: &mut Option<T>, v: T, path: &Path, what: &str) -> Result<()> {
    if slot.is_some() {
        return Err(schema_err(
            path,
            format!("expected one `{what}` per definition, found a second one"),
        ));
    }
    *slot = Some(v);
    Ok(())
}

fn parse_fields(m: &Map, path: &mut Path, known: &dyn Fn(&str) -> bool) -> Result<Parsed> {
    let mut fields: Vec<Field> = Vec::with_capacity(m.len());
    let mut names: HashSet<String> = HashSet::with_capacity(m.len());
    for (key, def) in m.iter() {
        path.push_key(key);
        let (name, optional) = field_name(key).ok_or_else(|| {
            schema_err(
                path,
                format!(
                    "expected a field name, found the wrapper key {} in an object without \"$type\" (write a field named {} as {})",
                    quoted(key),
                    quoted(key),
                    quoted(&format!("${key}"))
                ),
            )
        })?;
        // One `?` marks the field optional, so a name that ends in `?` could
        // be declared only for an optional field (`x??`): the required field
        // would read as optional, and JSON Schema import would refuse the
        // property export writes for it. No field's own name ends in `?`.
        if name.ends_with('?') {
            return Err(schema_err(
                path,
                format!(
                    "expected a field name that does not end in `?` (a single `?` after the name marks the field optional), found the key {}",
                    quoted(key)
                ),
            ));
        }
        if !names.insert(name.clone()) {
            return Err(schema_err(
                path,
                format!("expected each field once, found `{name}` a second time"),
            ));
        }
        let parsed = parse_def(def, path, known)?;
        let presence = match (parsed.default, optional) {
            (Some(_), true) => {
                return Err(schema_err(
                    path,
                    format!(
                        "expected either `?` or `absentAs` on `{name}`, found both (a field with a default is never absent once read: drop the `?`)"
                    ),
                ));
            }
            (Some(d), false) => Presence::AbsentAs(d),
            (None, true) => Presence::Optional,
            (None, false) => Presence::Required,
        };
        fields.push(Field::new(name, presence, parsed.ty, parsed.doc));
        path.pop();
    }
    Ok(Parsed {
        ty: Type::Object(ObjectType { fields }),
        doc: None,
        default: None,
    })
}

/// The field a key declares and whether it is optional; `None` for a key
/// that only a wrapper may hold.
pub(crate) fn field_name(key: &str) -> Option<(String, bool)> {
    let unescaped = if let Some(rest) = key.strip_prefix('$') {
        if !rest.starts_with('$') {
            return None;
        }
        rest
    } else {
        key
    };
    Some(match unescaped.strip_suffix('?') {
        Some(name) => (name.to_owned(), true),
        None => (unescaped.to_owned(), false),
    })
}

/// The key that declares field `name`: `$` doubled at the start, `?` for optional.
pub(crate) fn field_key(name: &str, optional: bool) -> String {
    let mut key = String::with_capacity(name.len() + 2);
    if name.starts_with('$') {
        key.push('$');
    }
    key.push_str(name);
    if optional {
        key.push('?');
    }
    key
}

/// The definition of `ty` in the canonical document form.
pub(crate) fn def_value(ty: &Type, doc: Option<&str>, default: Option<&Value>) -> Value {
    let body = match ty {
        Type::Object(o) => {
            let mut m = Map::with_capacity(o.fields.len());
            for f in &o.fields {
                m.insert(
                    field_key(&f.name, f.presence == Presence::Optional),
                    def_value(&f.ty, f.doc.as_deref(), f.default_value()),
                );
            }
            Value::Object(m)
        }
        other => Value::String(other.to_string()),
    };
    wrapped(body, default.cloned(), doc)
}

/// `body` with its default and doc: itself when it has neither, else the
/// canonical wrapper `{"$type", "$absentAs", "$doc"}`.
pub(crate) fn wrapped(body: Value, default: Option<Value>, doc: Option<&str>) -> Value {
    if default.is_none() && doc.is_none() {
        return body;
    }
    let mut w = Map::with_capacity(3);
    w.insert(TYPE_KEY, body);
    if let Some(d) = default {
        w.insert(ABSENT_AS_KEY, d);
    }
    if let Some(text) = doc {
        w.insert(DOC_KEY, Value::from(text));
    }
    Value::Object(w)
}

/// Calls `f` with every name `ty` reaches without an array, record or object.
fn bare_refs(ty: &Type, f: &mut dyn FnMut(&str)) {
    match ty {
        Type::Ref(n) => f(n),
        Type::Union(ms) => ms.iter().for_each(|m| bare_refs(m, f)),
        _ => {}
    }
}

/// Every field of every object type inside `ty`, in the order
/// [`collect_sites`] visits them (a field, then the fields inside its type).
fn collect_fields_mut(ty: &mut Type, f: &mut dyn FnMut(&mut Field)) {
    match ty {
        Type::Object(o) => {
            for field in &mut o.fields {
                f(field);
                collect_fields_mut(&mut field.ty, f);
            }
        }
        Type::Array(t) => collect_fields_mut(t, f),
        Type::Record(Some(t)) => collect_fields_mut(t, f),
        Type::Union(ms) => ms.iter_mut().for_each(|m| collect_fields_mut(m, f)),
        _ => {}
    }
}

/// Every field of every object type inside `ty`, a field before the fields
/// inside its type, with its path (`Type.field.inner`).
fn collect_sites<'t>(ty: &'t Type, path: &mut Path, f: &mut dyn FnMut(&'t Field, &str)) {
    match ty {
        Type::Object(o) => {
            for field in &o.fields {
                path.push_key(&field_key(&field.name, false));
                f(field, &path.render());
                collect_sites(&field.ty, path, f);
                path.pop();
            }
        }
        Type::Array(t) => collect_sites(t, path, f),
        Type::Record(Some(t)) => collect_sites(t, path, f),
        Type::Union(ms) => ms.iter().for_each(|m| collect_sites(m, path, f)),
        _ => {}
    }
}
