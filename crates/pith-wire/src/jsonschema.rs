//! JSON Schema 2020-12: export, and import of the same subset.
//!
//! # Export
//!
//! [`export_json_schema`] writes `{"$schema": …, "$defs": {…}}` with one
//! entry per named type:
//!
//! | definition | JSON Schema |
//! |---|---|
//! | `string`, `number`, `boolean`, `null` | `{"type": …}` |
//! | `number.integer` | `{"type": "integer"}` |
//! | `unknown` | `{}` |
//! | `Record` | `{"type": "object"}` |
//! | `Record<string, T>` | `{"type": "object", "additionalProperties": T}` |
//! | `'a'` | `{"const": "a"}` |
//! | `'a' \| 'b'` | `{"enum": ["a", "b"]}` |
//! | `T[]` | `{"type": "array", "items": T}` |
//! | `A \| B` (`T \| null` too) | `{"anyOf": [A, B]}`, the literals of a mixed union grouped into one `enum` where the first stood |
//! | a named type | `{"$ref": "#/$defs/Name"}` |
//! | object of fields | `{"type": "object", "properties": {…}, "required": […]}` |
//! | `doc` | `"description"` |
//! | `absentAs` | `"default"`, and the field is not `required` |
//!
//! Objects carry no `additionalProperties`: whether undeclared keys are
//! allowed is the reader's policy ([`UnknownKeys`](super::UnknownKeys)), not
//! part of the definitions. [`export_json_schema_for`] adds a root `$ref` to
//! one type, for a tool's `outputSchema`.
//!
//! # Import
//!
//! [`import_json_schema`] reads that subset back into a definitions document,
//! so that `export → import → export` is stable, and the types come back the
//! same (only a mixed union's literals may move next to each other, which
//! changes nothing that checking, filling or eliding does). It also accepts what tools
//! commonly write around it: `definitions` and `#/definitions/…` (draft 7),
//! `oneOf` (read as a union), `type` arrays, `type` beside `enum`/`const`,
//! `additionalProperties: false` or `true` beside `properties`, and the
//! annotations `title`, `$comment`, `examples`, `deprecated`, `readOnly`,
//! `writeOnly`, `format` and `$id`, which it drops. A `description` becomes
//! a `doc` where a definition can carry one (a named type, a field) and is
//! dropped elsewhere. Every other keyword (`minLength`, `pattern`, `allOf`,
//! `if`, …) is an error naming its path: a constraint pith would not enforce
//! is never dropped silently. Object schemas inside arrays, unions and
//! records become named types of their own (`Root_results_item`).

use super::defs::{Schema, field_key, wrapped};
use super::path::Path;
use super::types::{ObjectType, Presence, Type, is_type_name};
use pith_core::DEFAULT_MAX_DEPTH;
use pith_core::error::{Error, ErrorKind, Result};
use pith_core::value::{Map, Value};

/// The `$schema` URI pith writes.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// Every named type as `$defs` of one JSON Schema document.
pub fn export_json_schema(schema: &Schema) -> Value {
    document(schema, None)
}

/// [`export_json_schema`] with a root `$ref` to `type_name`, so the document
/// validates values of that type.
pub fn export_json_schema_for(schema: &Schema, type_name: &str) -> Result<Value> {
    schema.require(type_name)?;
    Ok(document(schema, Some(type_name)))
}

/// Reads a JSON Schema of the supported subset (see the [module docs](self))
/// into a definitions document.
///
/// Each `$defs` (or `definitions`) entry becomes a named type; a root that
/// describes a value itself becomes the type `root_name`. Errors are
/// [`ErrorKind::Schema`] with the JSON path inside `json_schema`.
pub fn import_json_schema(json_schema: &Value, root_name: &str) -> Result<Value> {
    let depth = json_schema.depth();
    if depth > DEFAULT_MAX_DEPTH {
        return Err(Error::new(
            ErrorKind::DepthLimit,
            format!("expected a schema nested at most {DEFAULT_MAX_DEPTH} deep, found {depth}"),
        ));
    }
    let Value::Object(root) = json_schema else {
        return Err(Error::new(
            ErrorKind::Schema,
            format!(
                "expected a JSON Schema object, found {}",
                json_schema.type_name()
            ),
        ));
    };
    let mut imp = Importer {
        out: Map::new(),
        reserved: Vec::new(),
        defined: Vec::new(),
        defs_key: "$defs",
    };
    let mut defs: Option<(&str, &Map)> = None;
    for key in ["$defs", "definitions"] {
        match root.get(key) {
            None => {}
            Some(Value::Object(m)) if defs.is_none() => defs = Some((key, m)),
            Some(Value::Object(_)) => {
                return Err(Error::at_path(
                    ErrorKind::Schema,
                    "definitions",
                    "expected `$defs` or `definitions`, found both",
                ));
            }
            Some(other) => {
                return Err(Error::at_path(
                    ErrorKind::Schema,
                    key,
                    format!("expected an object of schemas, found {}", other.type_name()),
                ));
            }
        }
    }
    if let Some((key, m)) = defs {
        imp.defs_key = key;
        imp.reserved = m.keys().map(String::from).collect();
        imp.defined = imp.reserved.clone();
    }
    let root_is_type = root.keys().any(|k| {
        !matches!(
            k.as_str(),
            "$schema" | "$id" | "$defs" | "definitions" | "title" | "description" | "$comment"
        )
    });
    if root_is_type {
        if !is_type_name(root_name) {
            return Err(Error::new(
                ErrorKind::Schema,
                format!("expected an identifier to name the root type, found {root_name:?}"),
            ));
        }
        if imp.reserved.iter().any(|n| n == root_name) {
            return Err(Error::new(
                ErrorKind::Schema,
                format!("expected a root type name that `$defs` does not use, found `{root_name}`"),
            ));
        }
        imp.reserved.push(root_name.to_owned());
    }
    let mut path = Path::new();
    if let Some((key, m)) = defs {
        path.push_key(key);
        for (name, s) in m.iter() {
            path.push_key(name);
            if !is_type_name(name) {
                return Err(imp.err(
                    &path,
                    format!("expected a type name (an identifier, not a built-in), found {name:?}"),
                ));
            }
            let def = imp.named(s, &mut path, name)?;
            imp.out.insert(name.clone(), def);
            path.pop();
        }
        path.pop();
    }
    if root_is_type {
        let mut stripped = root.clone();
        for k in [
            "$schema",
            "$id",
            "$defs",
            "definitions",
            "title",
            "$comment",
        ] {
            stripped.remove(k);
        }
        let def = imp.named(&Value::Object(stripped), &mut path, root_name)?;
        imp.out.insert(root_name.to_owned(), def);
    }
    let out = Value::Object(imp.out);
    // What other commands would refuse (a default its type refuses, a bare
    // `$ref` cycle) is refused here, at the definition it is in.
    Schema::check_import(&out).map_err(|e| {
        let path = e.path().unwrap_or_default();
        let name: String = path
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let at = if name == root_name || !imp.defined.contains(&name) {
            "$".to_owned()
        } else {
            let mut p = Path::new();
            p.push_key(imp.defs_key);
            p.with_key(&name)
        };
        Error::at_path(
            e.kind(),
            at,
            format!("expected a schema whose definitions load, found that `{name}` does not: {e}"),
        )
    })?;
    Ok(out)
}

/// `{"$schema", "$ref", "$defs"}`, the `$ref` only with a root type.
fn document(schema: &Schema, root_ref: Option<&str>) -> Value {
    let mut defs = Map::with_capacity(schema.types().len());
    for t in schema.types() {
        let mut s = type_schema(&t.ty);
        if let Some(doc) = &t.doc {
            s.insert("description", Value::from(doc.as_str()));
        }
        defs.insert(t.name.clone(), Value::Object(s));
    }
    let mut root = Map::with_capacity(3);
    root.insert("$schema", Value::from(DIALECT));
    if let Some(name) = root_ref {
        root.insert("$ref", Value::from(format!("#/$defs/{name}")));
    }
    root.insert("$defs", Value::Object(defs));
    Value::Object(root)
}

fn type_schema(ty: &Type) -> Map {
    let mut m = Map::new();
    match ty {
        Type::String => put_type(&mut m, "string"),
        Type::Number => put_type(&mut m, "number"),
        Type::Integer => put_type(&mut m, "integer"),
        Type::Boolean => put_type(&mut m, "boolean"),
        Type::Null => put_type(&mut m, "null"),
        Type::Unknown => {}
        Type::Record(None) => put_type(&mut m, "object"),
        Type::Record(Some(t)) => {
            put_type(&mut m, "object");
            m.insert("additionalProperties", Value::Object(type_schema(t)));
        }
        Type::Literal(s) => {
            m.insert("const", Value::from(s.as_str()));
        }
        Type::Array(t) => {
            put_type(&mut m, "array");
            m.insert("items", Value::Object(type_schema(t)));
        }
        Type::Ref(name) => {
            m.insert("$ref", Value::from(format!("#/$defs/{name}")));
        }
        Type::Union(members) => {
            let literals: Vec<Value> = members
                .iter()
                .filter_map(|t| match t {
                    Type::Literal(s) => Some(Value::from(s.as_str())),
                    _ => None,
                })
                .collect();
            if literals.len() == members.len() {
                m.insert("enum", Value::Array(literals));
                return m;
            }
            let mut any = Vec::with_capacity(members.len());
            let mut grouped = false;
            for t in members {
                if let Type::Literal(_) = t {
                    if grouped {
                        continue;
                    }
                    grouped = true;
                    let mut g = Map::new();
                    if let [one] = &literals[..] {
                        g.insert("const", one.clone());
                    } else {
                        g.insert("enum", Value::Array(literals.clone()));
                    }
                    any.push(Value::Object(g));
                } else {
                    any.push(Value::Object(type_schema(t)));
                }
            }
            m.insert("anyOf", Value::Array(any));
        }
        Type::Object(o) => object_schema(o, &mut m),
    }
    m
}

fn object_schema(o: &ObjectType, m: &mut Map) {
    put_type(m, "object");
    let mut props = Map::with_capacity(o.fields.len());
    let mut required = Vec::new();
    for f in &o.fields {
        let mut s = type_schema(&f.ty);
        if let Some(doc) = &f.doc {
            s.insert("description", Value::from(doc.as_str()));
        }
        match &f.presence {
            Presence::Required => required.push(Value::from(f.name.as_str())),
            Presence::Optional => {}
            Presence::AbsentAs(d) => {
                s.insert("default", d.clone());
            }
        }
        props.insert(f.name.clone(), Value::Object(s));
    }
    m.insert("properties", Value::Object(props));
    if !required.is_empty() {
        m.insert("required", Value::Array(required));
    }
}

fn put_type(m: &mut Map, t: &str) {
    m.insert("type", Value::from(t));
}

/// Keywords read and dropped: they annotate and do not constrain.
const ANNOTATIONS: &[&str] = &[
    "title",
    "$comment",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "format",
    "$id",
    "$schema",
];

struct Importer {
    out: Map,
    /// Names taken by `$defs` and the root, so hoisted objects avoid them.
    reserved: Vec<String>,
    /// The names under `$defs`, the only ones a `$ref` may name.
    defined: Vec<String>,
    defs_key: &'static str,
}

/// Where a schema stands: where a definition may be an object of fields and
/// carry a doc, or inside a type expression.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Definition,
    Expression,
}

impl Importer {
    fn err(&self, path: &Path, msg: impl Into<String>) -> Error {
        Error::at_path(ErrorKind::Schema, path.render(), msg)
    }

    /// A named type's definition, with its description as the doc.
    fn named(&mut self, s: &Value, path: &mut Path, name: &str) -> Result<Value> {
        if s.get("default").is_some() {
            path.push_key("default");
            return Err(self.err(
                path,
                "expected `default` only on an object's property, found it on a named type",
            ));
        }
        let body = self.definition(s, path, name)?;
        Ok(wrapped(body, None, description(s)))
    }

    /// A definition value: a type expression string or an object of fields.
    fn definition(&mut self, s: &Value, path: &mut Path, hint: &str) -> Result<Value> {
        match self.convert(s, path, hint, Place::Definition)? {
            Converted::Expr(t) => Ok(Value::String(t.to_string())),
            Converted::Fields(m) => Ok(Value::Object(m)),
        }
    }

    /// A type for inside an expression: objects of fields become named types.
    fn expression(&mut self, s: &Value, path: &mut Path, hint: &str) -> Result<Type> {
        match self.convert(s, path, hint, Place::Expression)? {
            Converted::Expr(t) => Ok(t),
            Converted::Fields(m) => {
                Ok(self.hoist(hint, wrapped(Value::Object(m), None, description(s))))
            }
        }
    }

    /// Defines `def` as a new named type, named after `hint`, and refers to it.
    fn hoist(&mut self, hint: &str, def: Value) -> Type {
        let name = self.fresh_name(hint);
        self.reserved.push(name.clone());
        self.out.insert(name.clone(), def);
        Type::Ref(name)
    }

    fn fresh_name(&self, hint: &str) -> String {
        let taken = |n: &str| self.reserved.iter().any(|r| r == n) || self.out.contains_key(n);
        if !taken(hint) {
            return hint.to_owned();
        }
        (2..)
            .map(|i| format!("{hint}{i}"))
            .find(|n| !taken(n))
            .unwrap_or_else(|| hint.to_owned())
    }

    fn convert(
        &mut self,
        s: &Value,
        path: &mut Path,
        hint: &str,
        place: Place,
    ) -> Result<Converted> {
        let m = match s {
            Value::Bool(true) => return Ok(Converted::Expr(Type::Unknown)),
            Value::Bool(false) => {
                return Err(self.err(path, "expected a schema that admits values, found `false`"));
            }
            Value::Object(m) => m,
            other => {
                return Err(self.err(
                    path,
                    format!(
                        "expected a schema (an object or a boolean), found {}",
                        other.type_name()
                    ),
                ));
            }
        };
        for key in m.keys() {
            let known = ANNOTATIONS.contains(&key.as_str())
                || matches!(
                    key.as_str(),
                    "type"
                        | "enum"
                        | "const"
                        | "anyOf"
                        | "oneOf"
                        | "$ref"
                        | "items"
                        | "properties"
                        | "required"
                        | "additionalProperties"
                        | "description"
                        | "default"
                );
            if !known {
                path.push_key(key);
                return Err(self.err(
                    path,
                    format!(
                        "expected a keyword of the supported subset, found `{key}` (pith does not drop constraints it cannot check)"
                    ),
                ));
            }
        }
        if let Some(d) = m.get("description")
            && d.as_str().is_none()
        {
            path.push_key("description");
            return Err(self.err(
                path,
                format!(
                    "expected the description as a string, found {}",
                    d.type_name()
                ),
            ));
        }
        if place == Place::Expression && m.contains_key("default") {
            path.push_key("default");
            return Err(self.err(
                path,
                "expected `default` only on an object's property, found it inside a type",
            ));
        }
        let forms = ["enum", "const", "anyOf", "oneOf", "$ref"]
            .iter()
            .filter(|k| m.contains_key(k))
            .count();
        if forms > 1 {
            return Err(self.err(
                path,
                "expected at most one of `enum`, `const`, `anyOf`, `oneOf` and `$ref` in a schema, found several",
            ));
        }
        if let Some(r) = m.get("$ref") {
            self.no_type_beside(m, path, "$ref")?;
            path.push_key("$ref");
            let name = self.reference(r, path)?;
            path.pop();
            return Ok(Converted::Expr(Type::Ref(name)));
        }
        if let Some(values) = m.get("enum") {
            path.push_key("enum");
            let Value::Array(values) = values else {
                return Err(self.err(path, "expected an array of values"));
            };
            if values.is_empty() {
                return Err(self.err(path, "expected at least one value, found an empty enum"));
            }
            let mut members = Vec::with_capacity(values.len());
            for (i, v) in values.iter().enumerate() {
                path.push_index(i);
                members.push(self.literal(v, path)?);
                path.pop();
            }
            path.pop();
            let t = Type::union_of(members);
            self.check_type_beside(m, &t, path)?;
            return Ok(Converted::Expr(t));
        }
        if let Some(v) = m.get("const") {
            path.push_key("const");
            let t = self.literal(v, path)?;
            path.pop();
            self.check_type_beside(m, &t, path)?;
            return Ok(Converted::Expr(t));
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(ms) = m.get(key) {
                self.no_type_beside(m, path, key)?;
                path.push_key(key);
                let Value::Array(ms) = ms else {
                    return Err(self.err(path, "expected an array of schemas"));
                };
                if ms.is_empty() {
                    return Err(self.err(path, "expected at least one schema, found none"));
                }
                let mut members = Vec::with_capacity(ms.len());
                for (i, s) in ms.iter().enumerate() {
                    path.push_index(i);
                    members.push(self.expression(s, path, &format!("{hint}_{}", i + 1))?);
                    path.pop();
                }
                path.pop();
                return Ok(Converted::Expr(Type::union_of(members)));
            }
        }
        let types: Vec<&str> = match m.get("type") {
            None => {
                if let Some(k) = ["items", "properties", "required", "additionalProperties"]
                    .iter()
                    .find(|k| m.contains_key(k))
                {
                    return Err(self.err(path, format!("expected `type` beside `{k}`, found none")));
                }
                return Ok(Converted::Expr(Type::Unknown));
            }
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) if !ts.is_empty() => {
                let mut out = Vec::with_capacity(ts.len());
                for t in ts {
                    match t.as_str() {
                        Some(t) => out.push(t),
                        None => {
                            path.push_key("type");
                            return Err(self.err(path, "expected type names as strings"));
                        }
                    }
                }
                out
            }
            Some(other) => {
                path.push_key("type");
                return Err(self.err(
                    path,
                    format!(
                        "expected a type name or an array of them, found {}",
                        other.type_name()
                    ),
                ));
            }
        };
        if types.len() == 1 {
            return self.one_type(types[0], m, path, hint);
        }
        let mut members = Vec::with_capacity(types.len());
        for t in types {
            match self.one_type(t, m, path, hint)? {
                Converted::Expr(t) => members.push(t),
                Converted::Fields(f) => members.push(self.hoist(hint, Value::Object(f))),
            }
        }
        Ok(Converted::Expr(Type::union_of(members)))
    }

    fn one_type(&mut self, t: &str, m: &Map, path: &mut Path, hint: &str) -> Result<Converted> {
        let only = |keys: &[&str]| -> Option<String> {
            ["items", "properties", "required", "additionalProperties"]
                .iter()
                .find(|k| m.contains_key(k) && !keys.contains(k))
                .map(|k| (*k).to_owned())
        };
        let allowed: &[&str] = match t {
            "array" => &["items"],
            "object" => &["properties", "required", "additionalProperties"],
            _ => &[],
        };
        if let Some(k) = only(allowed) {
            return Err(self.err(
                path,
                format!("expected `{k}` only with a type it applies to, found it with `{t}`"),
            ));
        }
        let ty = match t {
            "string" => Type::String,
            "number" => Type::Number,
            "integer" => Type::Integer,
            "boolean" => Type::Boolean,
            "null" => Type::Null,
            "array" => match m.get("items") {
                None => Type::Array(Box::new(Type::Unknown)),
                Some(items) => {
                    path.push_key("items");
                    let t = self.expression(items, path, &format!("{hint}_item"))?;
                    path.pop();
                    Type::Array(Box::new(t))
                }
            },
            "object" => return self.object(m, path, hint),
            other => {
                path.push_key("type");
                return Err(self.err(
                    path,
                    format!("expected string, number, integer, boolean, null, array or object, found {other:?}"),
                ));
            }
        };
        Ok(Converted::Expr(ty))
    }

    fn object(&mut self, m: &Map, path: &mut Path, hint: &str) -> Result<Converted> {
        let extra = m.get("additionalProperties");
        let Some(props) = m.get("properties") else {
            if m.contains_key("required") {
                return Err(self.err(path, "expected `properties` beside `required`, found none"));
            }
            return Ok(match extra {
                None | Some(Value::Bool(true)) => Converted::Expr(Type::Record(None)),
                Some(Value::Bool(false)) => Converted::Fields(Map::new()),
                Some(s) => {
                    path.push_key("additionalProperties");
                    let t = self.expression(s, path, &format!("{hint}_value"))?;
                    path.pop();
                    Converted::Expr(Type::Record(Some(Box::new(t))))
                }
            });
        };
        if !matches!(extra, None | Some(Value::Bool(_))) {
            path.push_key("additionalProperties");
            return Err(self.err(
                path,
                "expected `additionalProperties` to be true or false beside `properties`, found a schema (declared fields and a record cannot mix)",
            ));
        }
        let Value::Object(props) = props else {
            path.push_key("properties");
            return Err(self.err(path, "expected an object of property schemas"));
        };
        let mut required: Vec<&str> = Vec::new();
        if let Some(r) = m.get("required") {
            path.push_key("required");
            let Value::Array(r) = r else {
                return Err(self.err(path, "expected an array of property names"));
            };
            for (i, name) in r.iter().enumerate() {
                path.push_index(i);
                let Some(name) = name.as_str() else {
                    return Err(self.err(path, "expected a property name as a string"));
                };
                if !props.contains_key(name) {
                    return Err(self.err(
                        path,
                        format!("expected a name that `properties` declares, found {name:?}"),
                    ));
                }
                required.push(name);
                path.pop();
            }
            path.pop();
        }
        path.push_key("properties");
        let mut fields = Map::with_capacity(props.len());
        for (name, s) in props.iter() {
            path.push_key(name);
            if name.ends_with('?') {
                return Err(self.err(
                    path,
                    "expected a property name that does not end in `?`, which definitions cannot declare",
                ));
            }
            let is_required = required.contains(&name.as_str());
            let default = match s {
                Value::Object(sm) => sm.get("default"),
                _ => None,
            };
            if is_required && default.is_some() {
                return Err(self.err(
                    path,
                    "expected `default` only on a property that is not required (a default makes the field absentAs)",
                ));
            }
            let body = self.definition(s, path, &format!("{hint}_{}", sanitize(name)))?;
            let def = wrapped(body, default.cloned(), description(s));
            let key = field_key(name, !is_required && default.is_none());
            fields.insert(key, def);
            path.pop();
        }
        path.pop();
        Ok(Converted::Fields(fields))
    }

    fn literal(&self, v: &Value, path: &Path) -> Result<Type> {
        match v {
            Value::String(s) => Ok(Type::Literal(s.clone())),
            Value::Null => Ok(Type::Null),
            other => Err(self.err(
                path,
                format!(
                    "expected a string or null (the literals definitions can state), found {}",
                    other.type_name()
                ),
            )),
        }
    }

    fn reference(&self, r: &Value, path: &Path) -> Result<String> {
        let Some(r) = r.as_str() else {
            return Err(self.err(path, "expected the reference as a string"));
        };
        let prefix = format!("#/{}/", self.defs_key);
        let name = r.strip_prefix(&prefix).ok_or_else(|| {
            self.err(
                path,
                format!("expected a reference of the form {prefix}Name, found {r:?}"),
            )
        })?;
        if !self.defined.iter().any(|n| n == name) || !is_type_name(name) {
            return Err(self.err(
                path,
                format!(
                    "expected a reference to a schema under `{}`, found {r:?}",
                    self.defs_key
                ),
            ));
        }
        Ok(name.to_owned())
    }

    fn no_type_beside(&self, m: &Map, path: &Path, key: &str) -> Result<()> {
        for k in [
            "type",
            "items",
            "properties",
            "required",
            "additionalProperties",
        ] {
            if m.contains_key(k) {
                return Err(self.err(
                    path,
                    format!("expected `{key}` alone, found `{k}` beside it"),
                ));
            }
        }
        Ok(())
    }

    /// `type` beside `enum`/`const` is accepted when it admits every value.
    fn check_type_beside(&self, m: &Map, t: &Type, path: &Path) -> Result<()> {
        for k in ["items", "properties", "required", "additionalProperties"] {
            if m.contains_key(k) {
                return Err(self.err(path, format!("expected `{k}` only beside `type: array` or `type: object`, found it beside literals")));
            }
        }
        let Some(ty) = m.get("type") else {
            return Ok(());
        };
        let names: Vec<&str> = match ty {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let members: Vec<&Type> = match t {
            Type::Union(ms) => ms.iter().collect(),
            t => vec![t],
        };
        for member in members {
            let need = if *member == Type::Null {
                "null"
            } else {
                "string"
            };
            if !names.contains(&need) {
                return Err(self.err(
                    path,
                    format!("expected `type` to admit every listed value, found a {need} value it excludes"),
                ));
            }
        }
        Ok(())
    }
}

enum Converted {
    Expr(Type),
    Fields(Map),
}

fn description(s: &Value) -> Option<&str> {
    s.get("description").and_then(Value::as_str)
}

/// A property name as part of a type name: identifier characters only.
fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if s.is_empty() { "_".to_owned() } else { s }
}
