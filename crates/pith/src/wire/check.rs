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

use super::defs::Schema;
use super::path::{Path, short_json};
use super::types::{ObjectType, Type};
use crate::DEFAULT_MAX_DEPTH;
use crate::error::Result;
use crate::value::Value;
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
pub enum UnknownKeys {
    /// An undeclared key is a violation.
    #[default]
    Reject,
    /// Undeclared keys are accepted with any value.
    Allow,
}

/// Options for [`check`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOptions {
    /// The undeclared-key policy (default [`UnknownKeys::Reject`]).
    pub unknown_keys: UnknownKeys,
    /// Values nested deeper than this are a violation (default [`DEFAULT_MAX_DEPTH`]).
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
    if depth > options.max_depth {
        return Ok(vec![Violation {
            path: String::new(),
            expected: format!("a value nested at most {} deep", options.max_depth),
            found: format!("nesting {depth} deep"),
        }]);
    }
    let mut c = Checker::new(schema, options.unknown_keys, options.max_depth);
    let mut out = Vec::new();
    c.walk(
        &named.ty,
        Some(&named.name),
        value,
        &mut Path::new(),
        Some(&mut out),
    );
    Ok(out)
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

/// Whether `value` matches `ty`.
pub(crate) fn matches(schema: &Schema, ty: &Type, value: &Value, unknown: UnknownKeys) -> bool {
    Checker::new(schema, unknown, DEFAULT_MAX_DEPTH).walk(ty, None, value, &mut Path::new(), None)
}

/// The union member `value` belongs to: the first it matches with undeclared
/// keys rejected, else the first it matches with them allowed.
pub(crate) fn select(schema: &Schema, members: &[Type], value: &Value) -> Option<usize> {
    [UnknownKeys::Reject, UnknownKeys::Allow]
        .into_iter()
        .find_map(|mode| members.iter().position(|m| matches(schema, m, value, mode)))
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
}

impl<'s> Checker<'s> {
    fn new(schema: &'s Schema, unknown: UnknownKeys, max_depth: usize) -> Self {
        Checker {
            schema,
            unknown,
            frames: 0,
            limit: frame_limit(max_depth),
        }
    }

    /// Whether `v` matches `ty`; with `out`, records every violation instead
    /// of stopping at the first. `label` is the name `ty` was reached by.
    fn walk(
        &mut self,
        ty: &Type,
        label: Option<&str>,
        v: &Value,
        path: &mut Path,
        mut out: Option<&mut Vec<Violation>>,
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
        let ok = match ty {
            Type::Ref(name) => {
                let target = self.schema.resolve(name);
                let ok = self.walk(target, Some(name), v, path, out.as_deref_mut());
                self.frames -= 1;
                return ok;
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
                    let mut all = true;
                    for (k, x) in m.iter() {
                        path.push_key(k);
                        all &= self.walk(t, None, x, path, out.as_deref_mut());
                        path.pop();
                        if !all && out.is_none() {
                            break;
                        }
                    }
                    self.frames -= 1;
                    return all;
                }
                _ => false,
            },
            Type::Array(t) => match v {
                Value::Array(items) => {
                    let mut all = true;
                    for (i, x) in items.iter().enumerate() {
                        path.push_index(i);
                        all &= self.walk(t, None, x, path, out.as_deref_mut());
                        path.pop();
                        if !all && out.is_none() {
                            break;
                        }
                    }
                    self.frames -= 1;
                    return all;
                }
                _ => false,
            },
            Type::Object(o) => match v {
                Value::Object(_) => {
                    let ok = self.object(o, label, v, path, out);
                    self.frames -= 1;
                    return ok;
                }
                _ => false,
            },
            Type::Union(members) => {
                let ok = self.union(members, label, v, path, out);
                self.frames -= 1;
                return ok;
            }
        };
        self.frames -= 1;
        if !ok && let Some(out) = out {
            out.push(Violation {
                path: path.render(),
                expected: describe(ty, label),
                found: found(v),
            });
        }
        ok
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
        for field in &o.fields {
            match m.get(&field.name) {
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
            for k in m.keys() {
                if o.fields.iter().any(|f| &f.name == k) {
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
        if members
            .iter()
            .any(|m| self.walk(m, None, v, &mut Path::new(), None))
        {
            return true;
        }
        let Some(out) = out else {
            return false;
        };
        let mut plausible: Vec<&Type> =
            members.iter().filter(|m| self.kind_fits(m, v, 0)).collect();
        if plausible.len() > 1 && v.as_object().is_some() {
            plausible.retain(|m| self.discriminators_fit(m, v));
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

    /// Whether `ty` admits values of `v`'s JSON kind at all.
    fn kind_fits(&self, ty: &Type, v: &Value, hops: usize) -> bool {
        if hops > self.schema.types().len() {
            return false;
        }
        match ty {
            Type::String | Type::Literal(_) => matches!(v, Value::String(_)),
            Type::Number | Type::Integer => matches!(v, Value::Number(_)),
            Type::Boolean => matches!(v, Value::Bool(_)),
            Type::Null => v.is_null(),
            Type::Unknown => true,
            Type::Record(_) | Type::Object(_) => matches!(v, Value::Object(_)),
            Type::Array(_) => matches!(v, Value::Array(_)),
            Type::Union(ms) => ms.iter().any(|m| self.kind_fits(m, v, hops + 1)),
            Type::Ref(n) => self.kind_fits(self.schema.resolve(n), v, hops + 1),
        }
    }

    /// Whether an object value carries the literal values that `ty`'s
    /// literal-typed fields demand (`stage: 'wrap_up'`); types that are not
    /// objects pass.
    fn discriminators_fit(&self, ty: &Type, v: &Value) -> bool {
        let mut ty = ty;
        for _ in 0..=self.schema.types().len() {
            match ty {
                Type::Ref(n) => ty = self.schema.resolve(n),
                _ => break,
            }
        }
        let Type::Object(o) = ty else {
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
