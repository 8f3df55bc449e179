//! Defaults: filling absent `absentAs` fields in, and eliding fields equal
//! to their default.
//!
//! # Fill
//!
//! [`fill`] puts a fresh copy of the default into every absent `absentAs`
//! key, everywhere in the value: inside arrays, records and union members.
//! Defaults are themselves filled once when the schema loads, so a default
//! written `{steering: []}` for a type with a `liveSteered` default arrives
//! with `liveSteered` too, and `fill(fill(x)) == fill(x)`.
//!
//! A union value is filled as the member it belongs to: the first member it
//! matches with undeclared keys rejected, else the first it matches with them
//! allowed. Members discriminated by a literal field (`stage: 'wrap_up'`)
//! therefore pick themselves. If filling would move the value to a different
//! member (possible only when no literal field tells object members apart),
//! the value is left as it is, so that filling stays idempotent.
//!
//! # Where a filled key goes
//!
//! Keys keep their order; an inserted key goes before the first present key
//! that the definition declares after it, else right after the last present
//! key declared before it, else at the end. Missing keys are inserted in
//! declared order. A value whose keys follow the declared order therefore
//! gets every default back at its declared position.
//!
//! # Elide
//!
//! [`elide`] leaves out every `absentAs` field whose value equals its
//! (filled) default, exactly, key order included. The contract is
//! `fill(elide(x)) == fill(x)` for every valid `x`, and so
//! `fill(elide(x)) == x` for every complete `x` (one that already carries
//! all its defaults, as a current producer writes it). To keep it, elision
//! checks its own work: a field is left out only if filling puts it back at
//! the same position (so a value with keys out of declared order may keep
//! some defaults), and a union value is elided only if filling the result
//! gives back the value.
//!
//! Undeclared keys are passed through untouched by both.

use super::check::{self, CheckOptions, UnknownKeys, frame_limit, members_exclusive, select};
use super::defs::Schema;
use super::types::{Field, FieldIndex, ObjectType, Presence, Type};
use pith_core::DEFAULT_MAX_DEPTH;
use pith_core::error::{Error, ErrorKind, Result};
use pith_core::value::{Key, Map, Unpacked, Value};

/// Fills every absent `absentAs` field of `value`, read as `type_name`,
/// with a copy of its default (see the [module docs](self)).
///
/// The value must check against the type with undeclared keys allowed;
/// otherwise the error ([`ErrorKind::Type`]) names the first violation.
pub fn fill(schema: &Schema, type_name: &str, value: Value) -> Result<Value> {
    let ty = validated(schema, type_name, &value)?;
    Filler::new(schema, &StoredDefaults).fill(ty, value)
}

/// Leaves out every field of `value` (read as `type_name`) that equals its
/// default, where filling restores it exactly (see the [module docs](self)).
///
/// The value must check against the type with undeclared keys allowed;
/// otherwise the error ([`ErrorKind::Type`]) names the first violation.
pub fn elide(schema: &Schema, type_name: &str, value: Value) -> Result<Value> {
    let ty = validated(schema, type_name, &value)?;
    let full = Filler::new(schema, &StoredDefaults).fill(ty, value)?;
    let mut elider = Elider {
        trail: Trail::new(schema),
    };
    walk(&mut elider, ty, full)
}

/// Where [`Filler`] gets the filled default of a field.
pub(crate) trait DefaultSource {
    /// The default of `field`, with its own absent fields filled in.
    fn filled(&self, field: &Field) -> Result<Value>;
}

/// The defaults a loaded schema stores.
struct StoredDefaults;

impl DefaultSource for StoredDefaults {
    fn filled(&self, field: &Field) -> Result<Value> {
        Ok(field.filled_default().cloned().unwrap_or(Value::Null))
    }
}

fn validated<'s>(schema: &'s Schema, type_name: &str, value: &Value) -> Result<&'s Type> {
    let named = schema.require(type_name)?;
    let options = CheckOptions {
        unknown_keys: UnknownKeys::Allow,
        ..CheckOptions::default()
    };
    let depth = value.depth();
    if depth > DEFAULT_MAX_DEPTH {
        return Err(Error::new(
            ErrorKind::DepthLimit,
            format!(
                "expected a value nested at most {DEFAULT_MAX_DEPTH} deep, found nesting {depth} deep"
            ),
        ));
    }
    let violations = check::check_named(schema, named, value, &options);
    if let Some(first) = violations.first() {
        let more = match violations.len() - 1 {
            0 => String::new(),
            1 => " (and 1 more violation)".to_owned(),
            n => format!(" (and {n} more violations)"),
        };
        let e = Error::new(
            ErrorKind::Type,
            format!("expected {}, found {}{more}", first.expected, first.found),
        );
        return Err(if first.path.is_empty() {
            e
        } else {
            e.with_path(first.path.clone())
        });
    }
    Ok(&named.ty)
}

/// The fill walk over a value known to match its type.
pub(crate) struct Filler<'s> {
    trail: Trail<'s>,
    defaults: &'s dyn DefaultSource,
}

impl<'s> Filler<'s> {
    pub(crate) fn new(schema: &'s Schema, defaults: &'s dyn DefaultSource) -> Self {
        Filler {
            trail: Trail::new(schema),
            defaults,
        }
    }

    pub(crate) fn fill(&mut self, ty: &Type, v: Value) -> Result<Value> {
        walk(self, ty, v)
    }
}

impl<'s> Walk<'s> for Filler<'s> {
    fn trail(&mut self) -> &mut Trail<'s> {
        &mut self.trail
    }

    fn union(&mut self, members: &[Type], v: Value) -> Result<Value> {
        let Some(b) = select(self.trail.schema, members, &v) else {
            return Ok(v);
        };
        let filled = self.fill(&members[b], v.clone())?;
        Ok(if select(self.trail.schema, members, &filled) == Some(b) {
            filled
        } else {
            v
        })
    }

    fn object(&mut self, o: &ObjectType, m: Map) -> Result<Map> {
        let declared = FieldIndex::new(o);
        let mut entries: Vec<(Key, Value)> = Vec::with_capacity(m.len());
        let mut order: Vec<Option<usize>> = Vec::with_capacity(m.len());
        let mut present = vec![false; o.fields.len()];
        // Keys are mostly in declared order: each is looked for after the last.
        let mut next = 0;
        for (k, x) in m {
            let d = declared.position_next(&k, &mut next);
            let x = match d {
                Some(i) => {
                    present[i] = true;
                    self.fill(&o.fields[i].ty, x)?
                }
                None => x,
            };
            order.push(d);
            entries.push((k.into(), x));
        }
        let missing: Vec<usize> = (0..o.fields.len())
            .filter(|&d| !present[d] && matches!(o.fields[d].presence, Presence::AbsentAs(_)))
            .collect();
        let mut out = Map::with_capacity(entries.len() + missing.len());
        let mut kept = entries.into_iter();
        for place in placed(&order, &missing) {
            match place {
                Place::Kept(_) => {
                    let (k, x) = kept.next().expect("one place per kept key");
                    out.insert(k, x);
                }
                Place::Filled(d) => {
                    let field = &o.fields[d];
                    out.insert(field.name.clone(), self.defaults.filled(field)?);
                }
            }
        }
        Ok(out)
    }
}

/// A key of a filled object: one that was there (with its declared
/// position, if declared), or a filled-in declared field.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Kept(Option<usize>),
    Filled(usize),
}

/// Where fill puts the missing declared fields `missing` (ascending) among
/// keys whose declared positions are `order` (see the module docs): each
/// goes before the first key declared after it, else right after the last
/// key declared before it, else at the end. One pass: a field that some
/// key is declared after goes before the first such key, and the rest
/// follow the last declared key, in declared order.
fn placed(order: &[Option<usize>], missing: &[usize]) -> Vec<Place> {
    let last = order.iter().flatten().max().copied();
    let before_some = missing.partition_point(|&d| last.is_some_and(|l| d < l));
    let (inner, tail) = missing.split_at(before_some);
    let mut out = Vec::with_capacity(order.len() + missing.len());
    let mut pending = inner.iter().copied().peekable();
    for &x in order {
        if let Some(j) = x {
            while let Some(d) = pending.next_if(|&d| d < j) {
                out.push(Place::Filled(d));
            }
        }
        out.push(Place::Kept(x));
    }
    let after = out
        .iter()
        .rposition(|p| matches!(p, Place::Kept(Some(_)) | Place::Filled(_)))
        .map_or(out.len(), |i| i + 1);
    out.splice(after..after, tail.iter().map(|&d| Place::Filled(d)));
    out
}

/// Whether leaving out the declared fields `gone` (ascending) from keys in
/// `order` lets fill put them back where they were.
fn restores(order: &[Option<usize>], gone: &[usize]) -> bool {
    let mut left_out = vec![false; order.iter().flatten().max().map_or(0, |m| m + 1)];
    for &d in gone {
        left_out[d] = true;
    }
    let kept: Vec<Option<usize>> = order
        .iter()
        .copied()
        .filter(|x| !matches!(x, Some(d) if left_out[*d]))
        .collect();
    let back = placed(&kept, gone).into_iter().map(|p| match p {
        Place::Kept(x) => x,
        Place::Filled(d) => Some(d),
    });
    back.eq(order.iter().copied())
}

/// The elide walk over a complete value (one that fill leaves unchanged).
struct Elider<'s> {
    trail: Trail<'s>,
}

impl<'s> Walk<'s> for Elider<'s> {
    fn trail(&mut self) -> &mut Trail<'s> {
        &mut self.trail
    }

    fn union(&mut self, members: &[Type], v: Value) -> Result<Value> {
        let Some(b) = select(self.trail.schema, members, &v) else {
            return Ok(v);
        };
        let elided = walk(self, &members[b], v.clone())?;
        if elided == v {
            return Ok(v);
        }
        // Filling `elided` as member `b` gives `v` back (the walk below
        // a union keeps that promise), so what remains to check is that
        // fill picks `b` again. When filling could move a value between
        // members, fill itself is the check.
        let kept = if members_exclusive(self.trail.schema, members) {
            select(self.trail.schema, members, &elided) == Some(b)
        } else {
            Filler::new(self.trail.schema, &StoredDefaults).union(members, elided.clone())? == v
        };
        Ok(if kept { elided } else { v })
    }

    fn object(&mut self, o: &ObjectType, m: Map) -> Result<Map> {
        let declared = FieldIndex::new(o);
        let mut next = 0;
        let order: Vec<Option<usize>> = m
            .keys()
            .map(|k| declared.position_next(k, &mut next))
            .collect();
        let candidates: Vec<usize> = m
            .iter()
            .zip(&order)
            .filter_map(|((_, x), d)| {
                let d = (*d)?;
                let default = o.fields[d].filled_default()?;
                (x == default).then_some(d)
            })
            .collect();
        let mut gone = candidates;
        gone.sort_unstable();
        if !restores(&order, &gone) {
            // Keys out of declared order: leave out what can be put back, one at a time.
            let mut kept_out: Vec<usize> = Vec::with_capacity(gone.len());
            for &d in &gone {
                let mut trial = kept_out.clone();
                trial.push(d);
                if restores(&order, &trial) {
                    kept_out = trial;
                }
            }
            gone = kept_out;
        }
        let mut left_out = vec![false; o.fields.len()];
        for &d in &gone {
            left_out[d] = true;
        }
        let mut out = Map::with_capacity(m.len() - gone.len());
        for ((k, x), d) in m.into_iter().zip(order) {
            match d {
                Some(d) if left_out[d] => {}
                Some(d) => {
                    out.insert(k, walk(self, &o.fields[d].ty, x)?);
                }
                None => {
                    out.insert(k, x);
                }
            }
        }
        Ok(out)
    }
}

/// A walk that rebuilds a value along its type. References, arrays and
/// records only pass their elements down, the same for every walk; what
/// happens at objects and unions is each walk's own.
trait Walk<'s> {
    fn trail(&mut self) -> &mut Trail<'s>;
    fn object(&mut self, o: &ObjectType, m: Map) -> Result<Map>;
    fn union(&mut self, members: &[Type], v: Value) -> Result<Value>;
}

/// The schema a walk reads and the steps it has taken through the types to
/// the current value, bounded so that a chain of references cannot recurse
/// without end.
struct Trail<'s> {
    schema: &'s Schema,
    taken: usize,
    limit: usize,
}

impl<'s> Trail<'s> {
    fn new(schema: &'s Schema) -> Trail<'s> {
        Trail {
            schema,
            taken: 0,
            limit: frame_limit(DEFAULT_MAX_DEPTH),
        }
    }
}

fn walk<'s>(w: &mut impl Walk<'s>, ty: &Type, v: Value) -> Result<Value> {
    let trail = w.trail();
    if trail.taken >= trail.limit {
        return Err(chain_too_long(trail.limit));
    }
    trail.taken += 1;
    let out = walk_inner(w, ty, v);
    w.trail().taken -= 1;
    out
}

fn walk_inner<'s>(w: &mut impl Walk<'s>, ty: &Type, v: Value) -> Result<Value> {
    Ok(match (ty, v.unpack()) {
        (Type::Ref(name), v) => {
            let target = w.trail().schema.resolve(name);
            walk(w, target, v.into())?
        }
        (Type::Object(o), Unpacked::Object(m)) => Value::Object(w.object(o, m)?),
        (Type::Array(t), Unpacked::Array(items)) => Value::Array(
            items
                .into_iter()
                .map(|x| walk(w, t, x))
                .collect::<Result<_>>()?,
        ),
        (Type::Record(Some(t)), Unpacked::Object(m)) => {
            let mut out = Map::with_capacity(m.len());
            for (k, x) in m {
                out.insert(k, walk(w, t, x)?);
            }
            Value::Object(out)
        }
        (Type::Union(members), v) => w.union(members, v.into())?,
        (_, v) => v.into(),
    })
}

/// The error of a walk that took more than `limit` steps through the types.
fn chain_too_long(limit: usize) -> Error {
    Error::new(
        ErrorKind::DepthLimit,
        format!("expected types that reach a value in at most {limit} steps, found a longer chain"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule of the module docs, one field at a time: what [`placed`]
    /// computes in one pass.
    fn one_at_a_time(order: &[Option<usize>], missing: &[usize]) -> Vec<Option<usize>> {
        let mut out = order.to_vec();
        for &d in missing {
            let at = if let Some(i) = out.iter().position(|x| matches!(x, Some(j) if *j > d)) {
                i
            } else if let Some(i) = out.iter().rposition(|x| matches!(x, Some(j) if *j < d)) {
                i + 1
            } else {
                out.len()
            };
            out.insert(at, Some(d));
        }
        out
    }

    fn flat(places: Vec<Place>) -> Vec<Option<usize>> {
        places
            .into_iter()
            .map(|p| match p {
                Place::Kept(x) => x,
                Place::Filled(d) => Some(d),
            })
            .collect()
    }

    #[test]
    fn insertion_prefers_the_next_declared_key() {
        // declared a(0) b(1) c(2); present a, c: b goes before c
        assert_eq!(
            flat(placed(&[Some(0), Some(2)], &[1])),
            [Some(0), Some(1), Some(2)]
        );
        // present a, undeclared: b goes after a
        assert_eq!(
            flat(placed(&[Some(0), None], &[1])),
            [Some(0), Some(1), None]
        );
        // nothing declared present: the end
        assert_eq!(flat(placed(&[None, None], &[1])), [None, None, Some(1)]);
        assert_eq!(flat(placed(&[], &[0])), [Some(0)]);
    }

    #[test]
    fn one_pass_places_every_field_where_one_at_a_time_does() {
        // Every arrangement of up to five keys (declared 0..7 or undeclared)
        // and every set of missing fields.
        let choices: Vec<Option<usize>> = (0..7).map(Some).chain([None]).collect();
        let mut orders: Vec<Vec<Option<usize>>> = vec![vec![]];
        for _ in 0..4 {
            let mut next = Vec::new();
            for o in &orders {
                for &c in &choices {
                    if c.is_none() || !o.contains(&c) {
                        let mut o = o.clone();
                        o.push(c);
                        next.push(o);
                    }
                }
            }
            orders.extend(next.iter().filter(|o| o.len() <= 4).cloned());
            orders.sort();
            orders.dedup();
        }
        for order in &orders {
            let absent: Vec<usize> = (0..7).filter(|d| !order.contains(&Some(*d))).collect();
            for mask in 0u32..(1 << absent.len()) {
                let missing: Vec<usize> = absent
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(_, d)| *d)
                    .collect();
                assert_eq!(
                    flat(placed(order, &missing)),
                    one_at_a_time(order, &missing),
                    "{order:?} + {missing:?}"
                );
            }
        }
    }

    #[test]
    fn restores_detects_a_moved_key() {
        assert!(restores(&[Some(0), Some(1), Some(2)], &[0, 1, 2]));
        assert!(restores(&[Some(0), Some(1), None], &[1]));
        assert!(restores(&[Some(0), None, Some(1), Some(2)], &[1]));
        // an undeclared key between: b would come back before it
        assert!(!restores(&[Some(0), None, Some(1)], &[1]));
        // b written before a cannot be put back before a
        assert!(!restores(&[Some(1), Some(0)], &[1]));
        assert!(!restores(&[Some(1), Some(0)], &[0]));
        assert!(restores(&[Some(1), Some(0), Some(2)], &[2]));
    }
}
