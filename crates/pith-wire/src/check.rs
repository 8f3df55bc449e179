//! Validation: every place where a value departs from its type.
//!
//! A [`Violation`] names the JSON path (`todoPhases[1].tasks[1].status`),
//! what the type expected there and what the value holds. Checking never
//! stops at the first violation, except inside a union: a value that matches
//! no member is reported once, at the union, unless exactly one member is
//! plausible for an array or object value (the only member of the value's
//! JSON kind, or the only object member whose literal fields, such as
//! `stage: 'wrap_up'`, the value carries), in which case that member's
//! violations are reported from inside.

use super::defs::{NamedType, Schema};
use super::path::{Path, short_json};
use super::types::{FieldIndex, ObjectType, Type};
use pith_core::DEFAULT_MAX_DEPTH;
use pith_core::error::Result;
use pith_core::value::Value;
use std::collections::HashMap;
use std::fmt;

/// What to do with object keys a definition does not declare.
///
/// The default is [`Reject`](UnknownKeys::Reject): checking is for finding
/// mistakes, and an undeclared key is a misspelt field or a definitions file
/// that fell behind its producer, both of which should be seen. Readers that
/// must accept newer producers choose [`Allow`](UnknownKeys::Allow);
/// [`fill`](super::fill) and [`elide`](super::elide) always allow them and
/// pass them through untouched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum UnknownKeys {
    /// An undeclared key is a violation.
    #[default]
    Reject,
    /// Undeclared keys are accepted with any value.
    Allow,
}

/// Options for [`check`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CheckOptions {
    /// The undeclared-key policy (default [`UnknownKeys::Reject`]).
    pub unknown_keys: UnknownKeys,
    /// Values nested deeper than this are a violation (default
    /// [`DEFAULT_MAX_DEPTH`], at most [`MAX_DEPTH_LIMIT`](pith_core::MAX_DEPTH_LIMIT)).
    pub max_depth: usize,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            unknown_keys: UnknownKeys::Reject,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

pith_core::options_setters!(CheckOptions {
    unknown_keys: UnknownKeys,
    max_depth: usize,
});

/// One place where a value departs from its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The JSON path, such as `todoPhases[1].tasks[1].status`; empty for the value itself.
    pub path: String,
    /// What the type expected, such as `TodoStatus ('pending' | 'in_progress')`.
    pub expected: String,
    /// What the value holds: a primitive as JSON text (`"done"`, `1.5`), else
    /// `array`, `object`, `no such key` or `undeclared key "x"`.
    pub found: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.path.is_empty() {
            "the top level"
        } else {
            &self.path
        };
        write!(
            f,
            "at {at}: expected {}, found {}",
            self.expected, self.found
        )
    }
}

/// Checks `value` against the named type and returns every violation (none
/// when the value is valid).
///
/// The error case is only for a `type_name` the schema does not define.
pub fn check(
    schema: &Schema,
    type_name: &str,
    value: &Value,
    options: &CheckOptions,
) -> Result<Vec<Violation>> {
    let named = schema.require(type_name)?;
    let depth = value.depth();
    let max_depth = pith_core::depth_limit(options.max_depth);
    if depth > max_depth {
        return Ok(vec![Violation {
            path: String::new(),
            expected: format!("a value nested at most {max_depth} deep"),
            found: format!("nesting {depth} deep"),
        }]);
    }
    Ok(check_named(schema, named, value, options))
}

/// [`check`] of a value whose depth the caller has already bounded.
pub(crate) fn check_named(
    schema: &Schema,
    named: &NamedType,
    value: &Value,
    options: &CheckOptions,
) -> Vec<Violation> {
    let max_depth = pith_core::depth_limit(options.max_depth);
    let mut c = Checker::new(schema, options.unknown_keys, max_depth);
    let mut out = Vec::new();
    c.walk(
        &named.ty,
        Some(&named.name),
        value,
        &mut Path::new(),
        Some(&mut out),
    );
    out
}

/// Every violation of `value` against an anonymous type.
pub(crate) fn check_type(
    schema: &Schema,
    ty: &Type,
    value: &Value,
    unknown: UnknownKeys,
) -> Vec<Violation> {
    let mut c = Checker::new(schema, unknown, DEFAULT_MAX_DEPTH);
    let mut out = Vec::new();
    c.walk(ty, None, value, &mut Path::new(), Some(&mut out));
    out
}

/// The union member `value` belongs to: the first it matches with undeclared
/// keys rejected, else the first it matches with them allowed.
///
/// Only for values known to match the union (fill and elide check first):
/// when the value's JSON kind, or the literal fields that discriminate
/// object members, leave one member possible, that member is the answer
/// without walking the value.
pub(crate) fn select(schema: &Schema, members: &[Type], value: &Value) -> Option<usize> {
    let mut possible = members
        .iter()
        .enumerate()
        .filter(|(_, m)| kind_fits(schema, m, value));
    if let (Some((only, _)), None) = (possible.next(), possible.next()) {
        return Some(only);
    }
    if value.as_object().is_some() {
        let mut fitting = members
            .iter()
            .enumerate()
            .filter(|(_, m)| kind_fits(schema, m, value) && discriminators_fit(schema, m, value));
        if let (Some((only, _)), None) = (fitting.next(), fitting.next()) {
            return Some(only);
        }
    }
    [UnknownKeys::Reject, UnknownKeys::Allow]
        .into_iter()
        .find_map(|mode| {
            let mut c = Checker::new(schema, mode, DEFAULT_MAX_DEPTH);
            members.iter().position(|m| c.probe(m, value))
        })
}

/// Whether no value of one member can also be a value of another: members
/// of different JSON kinds, or objects that a required literal field (such
/// as `stage`) with disjoint literals tells apart. For such a union, filling
/// a value never moves it to another member.
pub(crate) fn members_exclusive(schema: &Schema, members: &[Type]) -> bool {
    let kinds: Vec<u8> = members.iter().map(|m| kinds(schema, m, 0)).collect();
    for (i, a) in members.iter().enumerate() {
        for (j, b) in members.iter().enumerate().skip(i + 1) {
            if kinds[i] & kinds[j] == 0 {
                continue;
            }
            if kinds[i] | kinds[j] != KIND_OBJECT || !discriminated(schema, a, b) {
                return false;
            }
        }
    }
    true
}

const KIND_STRING: u8 = 1;
const KIND_NUMBER: u8 = 2;
const KIND_BOOLEAN: u8 = 4;
const KIND_NULL: u8 = 8;
const KIND_ARRAY: u8 = 16;
const KIND_OBJECT: u8 = 32;

/// The JSON kinds a type admits, as a bit set.
fn kinds(schema: &Schema, ty: &Type, hops: usize) -> u8 {
    if hops > schema.types().len() {
        return u8::MAX;
    }
    match ty {
        Type::String | Type::Literal(_) => KIND_STRING,
        Type::Number | Type::Integer => KIND_NUMBER,
        Type::Boolean => KIND_BOOLEAN,
        Type::Null => KIND_NULL,
        Type::Unknown => u8::MAX,
        Type::Record(_) | Type::Object(_) => KIND_OBJECT,
        Type::Array(_) => KIND_ARRAY,
        // Members of a flattened union are not unions, so only references
        // count toward the bound, which no chain reaches once bare cycles
        // are refused.
        Type::Union(ms) => ms.iter().fold(0, |k, m| k | kinds(schema, m, hops)),
        Type::Ref(n) => kinds(schema, schema.resolve(n), hops + 1),
    }
}

/// Whether `ty` admits values of `v`'s JSON kind at all.
fn kind_fits(schema: &Schema, ty: &Type, v: &Value) -> bool {
    let kind = match v {
        Value::String(_) => KIND_STRING,
        Value::Number(_) => KIND_NUMBER,
        Value::Bool(_) => KIND_BOOLEAN,
        Value::Null => KIND_NULL,
        Value::Array(_) => KIND_ARRAY,
        Value::Object(_) => KIND_OBJECT,
    };
    kinds(schema, ty, 0) & kind != 0
}

/// The object type behind references, if `ty` is one.
fn as_object<'s>(schema: &'s Schema, mut ty: &'s Type) -> Option<&'s ObjectType> {
    for _ in 0..=schema.types().len() {
        match ty {
            Type::Ref(n) => ty = schema.resolve(n),
            Type::Object(o) => return Some(o),
            _ => return None,
        }
    }
    None
}

/// Whether a field required in both object types holds disjoint literals.
fn discriminated(schema: &Schema, a: &Type, b: &Type) -> bool {
    let (Some(a), Some(b)) = (as_object(schema, a), as_object(schema, b)) else {
        return false;
    };
    a.fields.iter().filter(|f| f.is_required()).any(|fa| {
        let Some(fb) = b
            .fields
            .iter()
            .find(|f| f.name == fa.name && f.is_required())
        else {
            return false;
        };
        match (literal_set(&fa.ty), literal_set(&fb.ty)) {
            (Some(sa), Some(sb)) => sa.iter().all(|x| !sb.contains(x)),
            _ => false,
        }
    })
}

/// How many nested steps (into a value, a reference or a union) one walk may
/// take; values are limited to the configured depth separately, so this only
/// stops pathological chains of references.
pub(crate) fn frame_limit(max_depth: usize) -> usize {
    max_depth.saturating_mul(4).max(64)
}

struct Checker<'s> {
    schema: &'s Schema,
    unknown: UnknownKeys,
    frames: usize,
    limit: usize,
    /// Answers of union-member probes by (type, value) address: without
    /// them, members that differ only deep inside would be walked again at
    /// every level, which takes time exponential in the depth.
    probes: HashMap<(usize, usize), bool>,
}

/// Where an entry sits in its record or array.
enum At<'a> {
    Key(&'a str),
    Index(usize),
}

impl<'s> Checker<'s> {
    fn new(schema: &'s Schema, unknown: UnknownKeys, max_depth: usize) -> Self {
        Checker {
            schema,
            unknown,
            frames: 0,
            limit: frame_limit(max_depth),
            probes: HashMap::new(),
        }
    }

    /// Whether `v` matches `ty`, remembered for the life of this checker
    /// (the value and the schema are borrowed, so addresses are stable).
    fn probe(&mut self, ty: &Type, v: &Value) -> bool {
        if v.is_primitive() {
            return self.walk(ty, None, v, &mut Path::new(), None);
        }
        let key = (ty as *const Type as usize, v as *const Value as usize);
        if let Some(&known) = self.probes.get(&key) {
            return known;
        }
        let answer = self.walk(ty, None, v, &mut Path::new(), None);
        self.probes.insert(key, answer);
        answer
    }

    /// Whether `v` matches `ty`; with `out`, records every violation instead
    /// of stopping at the first. `label` is the name `ty` was reached by.
    fn walk(
        &mut self,
        ty: &Type,
        label: Option<&str>,
        v: &Value,
        path: &mut Path,
        out: Option<&mut Vec<Violation>>,
    ) -> bool {
        if self.frames >= self.limit {
            if let Some(out) = out {
                out.push(Violation {
                    path: path.render(),
                    expected: format!("types that reach a value in at most {} steps", self.limit),
                    found: "a longer chain of references".to_owned(),
                });
            }
            return false;
        }
        self.frames += 1;
        let ok = self.step(ty, label, v, path, out);
        self.frames -= 1;
        ok
    }

    /// One level of [`walk`](Self::walk): a value of the wrong kind is
    /// recorded here; containers and unions that fit record what is wrong
    /// inside them instead.
    fn step(
        &mut self,
        ty: &Type,
        label: Option<&str>,
        v: &Value,
        path: &mut Path,
        out: Option<&mut Vec<Violation>>,
    ) -> bool {
        let ok = match ty {
            Type::Ref(name) => {
                let target = self.schema.resolve(name);
                return self.walk(target, Some(name), v, path, out);
            }
            Type::String => v.as_str().is_some(),
            Type::Number => v.as_number().is_some(),
            Type::Integer => v.as_number().is_some_and(|n| n.is_integer()),
            Type::Boolean => v.as_bool().is_some(),
            Type::Null => v.is_null(),
            Type::Unknown => true,
            Type::Record(None) => v.as_object().is_some(),
            Type::Literal(s) => v.as_str() == Some(s.as_str()),
            Type::Record(Some(t)) => match v {
                Value::Object(m) => {
                    let entries = m.iter().map(|(k, x)| (At::Key(k), x));
                    return self.every(t, entries, path, out);
                }
                _ => false,
            },
            Type::Array(t) => match v {
                Value::Array(items) => {
                    let entries = items.iter().enumerate().map(|(i, x)| (At::Index(i), x));
                    return self.every(t, entries, path, out);
                }
                _ => false,
            },
            Type::Object(o) => match v {
                Value::Object(_) => return self.object(o, label, v, path, out),
                _ => false,
            },
            Type::Union(members) => return self.union(members, label, v, path, out),
        };
        if !ok && let Some(out) = out {
            out.push(Violation {
                path: path.render(),
                expected: describe(ty, label),
                found: found(v),
            });
        }
        ok
    }

    /// Whether every entry of a record or array matches `t`; with `out`,
    /// checks them all so that each violation is recorded.
    fn every<'v>(
        &mut self,
        t: &Type,
        entries: impl Iterator<Item = (At<'v>, &'v Value)>,
        path: &mut Path,
        mut out: Option<&mut Vec<Violation>>,
    ) -> bool {
        let mut all = true;
        for (at, x) in entries {
            match at {
                At::Key(k) => path.push_key(k),
                At::Index(i) => path.push_index(i),
            }
            all &= self.walk(t, None, x, path, out.as_deref_mut());
            path.pop();
            if !all && out.is_none() {
                break;
            }
        }
        all
    }

    fn object(
        &mut self,
        o: &ObjectType,
        label: Option<&str>,
        v: &Value,
        path: &mut Path,
        mut out: Option<&mut Vec<Violation>>,
    ) -> bool {
        let Value::Object(m) = v else {
            return false;
        };
        let mut ok = true;
        // Keys are mostly in declared order: each is looked for after the last.
        let mut next = 0;
        for field in &o.fields {
            let found = m.index_of_from(&field.name, next).and_then(|i| {
                next = i + 1;
                m.get_index(i).map(|(_, x)| x)
            });
            match found {
                Some(x) => {
                    path.push_key(&field.name);
                    ok &= self.walk(&field.ty, None, x, path, out.as_deref_mut());
                    path.pop();
                }
                None if field.is_required() => {
                    ok = false;
                    if let Some(out) = out.as_deref_mut() {
                        out.push(Violation {
                            path: path.with_key(&field.name),
                            expected: describe(&field.ty, None),
                            found: "no such key".to_owned(),
                        });
                    }
                }
                None => {}
            }
            if !ok && out.is_none() {
                return false;
            }
        }
        if self.unknown == UnknownKeys::Reject {
            let declared = FieldIndex::new(o);
            let mut next = 0;
            for k in m.keys() {
                if declared.position_next(k, &mut next).is_some() {
                    continue;
                }
                ok = false;
                let Some(out) = out.as_deref_mut() else {
                    return false;
                };
                out.push(Violation {
                    path: path.with_key(k),
                    expected: declared_keys(o, label),
                    found: format!(
                        "undeclared key {}",
                        short_json(&Value::from(k.as_str()), 60)
                    ),
                });
            }
        }
        ok
    }

    fn union(
        &mut self,
        members: &[Type],
        label: Option<&str>,
        v: &Value,
        path: &mut Path,
        out: Option<&mut Vec<Violation>>,
    ) -> bool {
        if members.iter().any(|m| self.probe(m, v)) {
            return true;
        }
        let Some(out) = out else {
            return false;
        };
        let mut plausible: Vec<&Type> = members
            .iter()
            .filter(|m| kind_fits(self.schema, m, v))
            .collect();
        if plausible.len() > 1 && v.as_object().is_some() {
            plausible.retain(|m| discriminators_fit(self.schema, m, v));
        }
        // Descending pays off only for containers, where the violation
        // inside (a field, an item) says more than the union as a whole.
        if let ([only], Value::Array(_) | Value::Object(_)) = (&plausible[..], v) {
            return self.walk(only, None, v, path, Some(out));
        }
        out.push(Violation {
            path: path.render(),
            expected: describe(&Type::Union(members.to_vec()), label),
            found: found(v),
        });
        false
    }
}

/// Whether an object value carries the literal values that `ty`'s
/// literal-typed fields demand (`stage: 'wrap_up'`); types that are not
/// objects pass.
fn discriminators_fit(schema: &Schema, ty: &Type, v: &Value) -> bool {
    let Some(o) = as_object(schema, ty) else {
        return true;
    };
    o.fields.iter().all(|f| {
        let Some(allowed) = literal_set(&f.ty) else {
            return true;
        };
        match v.get(&f.name) {
            Some(Value::String(s)) => allowed.contains(&s.as_str()),
            Some(_) => false,
            None => !f.is_required(),
        }
    })
}

/// The literals a type consists of, if it is nothing but string literals.
fn literal_set(ty: &Type) -> Option<Vec<&str>> {
    match ty {
        Type::Literal(s) => Some(vec![s.as_str()]),
        Type::Union(ms) => ms
            .iter()
            .map(|m| match m {
                Type::Literal(s) => Some(s.as_str()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// `TodoStatus ('pending' | 'done')`, `TodoItem (object)`, `string[]`.
pub(crate) fn describe(ty: &Type, label: Option<&str>) -> String {
    let body = match ty {
        Type::Object(_) => "object".to_owned(),
        other => other.to_string(),
    };
    match label {
        Some(name) => format!("{name} ({body})"),
        None => body,
    }
}

fn found(v: &Value) -> String {
    match v {
        Value::Array(_) | Value::Object(_) => v.type_name().to_owned(),
        _ => short_json(v, 60),
    }
}

fn declared_keys(o: &ObjectType, label: Option<&str>) -> String {
    let owner = label.map_or_else(|| "the object".to_owned(), |n| format!("`{n}`"));
    let names: Vec<&str> = o.fields.iter().map(|f| f.name.as_str()).collect();
    if names.is_empty() {
        return format!("no keys ({owner} declares none)");
    }
    let shown = names.len().min(10);
    let mut list = names[..shown].join(", ");
    if names.len() > shown {
        list.push_str(&format!(" and {} more", names.len() - shown));
    }
    format!("a key {owner} declares ({list})")
}
