//! Which changes between two versions of a schema break whom.
//!
//! Data flows from writers to readers. Comparing an old schema with a new
//! one, a change **breaks older readers** when values a new writer produces
//! can fail in a reader built on the old schema (or mean something else
//! there), and **breaks older writers** when values an old writer produced
//! can fail in a reader built on the new schema (or mean something else).
//!
//! The model behind the rules: writers write only the keys their version
//! declares and may leave out any field equal to its default; readers
//! accept undeclared keys ([`UnknownKeys::Allow`](super::UnknownKeys)) and
//! fill defaults in. (Under [`UnknownKeys::Reject`](super::UnknownKeys)
//! every added field also breaks older readers.)
//!
//! | change | compatibility |
//! |---|---|
//! | type added; field added with `absentAs`; optional field added; doc changed | compatible |
//! | field added, required | breaks older writers (they do not write it) |
//! | field removed (any presence) | breaks older readers (a required one is missing to them; an optional one frees its key for reuse with another type) |
//! | type removed | breaks older writers (their values of it have no definition) |
//! | required → optional or `absentAs` | breaks older readers (newer writers leave it out) |
//! | optional or `absentAs` → required | breaks older writers (they left it out) |
//! | optional → `absentAs` | breaks older readers (an elided default reads as absent to them) |
//! | `absentAs` → optional | breaks older writers (their elided default reads as absent) |
//! | default changed | breaks both (an elided value reads as the other default) |
//! | type widened (union gains a member, `number.integer` → `number`, `T` → `T \| null`) | breaks older readers |
//! | type narrowed (union loses a member, `number` → `number.integer`) | breaks older writers |
//! | type changed otherwise | breaks both |
//!
//! Types are compared by the values they admit, so `'a' | 'b'` and
//! `'b' | 'a'` are the same type, so are `Record` and
//! `Record<string, unknown>`, and so are `unknown` and a union that has,
//! for every JSON kind, a member admitting all of that kind
//! (`string | number | boolean | null | unknown[] | Record`, or a recursive
//! `Json` type of that shape). Where the comparison cannot tell, it takes
//! the worse answer: it may report a break that is none, never miss one.
//! A reference to a type of the same name in both versions counts as
//! unchanged at the reference: a change inside that type is reported once,
//! where it is defined. Fields whose types are objects on both sides are
//! compared field by field.

use super::check::frame_limit;
use super::defs::Schema;
use super::path::{Path, short_json};
use super::types::{Field, FieldIndex, ObjectType, Presence, Type};
use pith_core::DEFAULT_MAX_DEPTH;
use std::collections::HashSet;
use std::fmt;

/// Whom a change breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compatibility {
    /// Neither older readers nor older writers.
    Compatible,
    /// Readers built on the old schema, reading what new writers write.
    BreaksOlderReaders,
    /// Writers built on the old schema, whose values new readers read.
    BreaksOlderWriters,
    /// Both.
    BreaksBoth,
}

impl Compatibility {
    fn of(breaks_readers: bool, breaks_writers: bool) -> Compatibility {
        match (breaks_readers, breaks_writers) {
            (false, false) => Compatibility::Compatible,
            (true, false) => Compatibility::BreaksOlderReaders,
            (false, true) => Compatibility::BreaksOlderWriters,
            (true, true) => Compatibility::BreaksBoth,
        }
    }

    /// Whether older readers break.
    pub fn breaks_readers(self) -> bool {
        matches!(
            self,
            Compatibility::BreaksOlderReaders | Compatibility::BreaksBoth
        )
    }

    /// Whether older writers break.
    pub fn breaks_writers(self) -> bool {
        matches!(
            self,
            Compatibility::BreaksOlderWriters | Compatibility::BreaksBoth
        )
    }
}

impl fmt::Display for Compatibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compatibility::Compatible => "compatible",
            Compatibility::BreaksOlderReaders => "breaks older readers",
            Compatibility::BreaksOlderWriters => "breaks older writers",
            Compatibility::BreaksBoth => "breaks older readers and writers",
        })
    }
}

/// What changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A named type exists only in the new schema.
    TypeAdded,
    /// A named type exists only in the old schema.
    TypeRemoved,
    /// A field exists only in the new version of an object.
    FieldAdded,
    /// A field exists only in the old version of an object.
    FieldRemoved,
    /// The values a type (or a field's type) admits changed.
    TypeChanged,
    /// A field moved between required, optional and `absentAs`.
    PresenceChanged,
    /// An `absentAs` default changed.
    DefaultChanged,
    /// A `doc` text changed, appeared or went away.
    DocChanged,
}

/// One change between two schemas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The type or field: `TodoStatus`, `SessionState.isStreaming`.
    pub path: String,
    /// What changed.
    pub kind: ChangeKind,
    /// Whom it breaks.
    pub compatibility: Compatibility,
    /// What changed, in words: `'a' | 'b' -> 'a' | 'b' | 'c' (widened)`.
    pub detail: String,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.path, self.detail, self.compatibility)
    }
}

/// Every change from `old` to `new`, classified (see the [module docs](self)).
///
/// Order: the old schema's types in order (changed or removed), then the
/// types only the new schema has. Within an object: the new fields in
/// order (added or changed), then the removed ones.
pub fn diff(old: &Schema, new: &Schema) -> Vec<Change> {
    let mut d = Differ {
        old,
        new,
        out: Vec::new(),
    };
    for t in old.types() {
        let mut path = Path::new();
        path.push_key(&t.name);
        match new.get(&t.name) {
            None => d.push(
                &path,
                ChangeKind::TypeRemoved,
                Compatibility::BreaksOlderWriters,
                "type removed".to_owned(),
            ),
            Some(n) => {
                d.doc(&path, t.doc.as_deref(), n.doc.as_deref());
                d.ty(&mut path, &t.ty, &n.ty);
            }
        }
    }
    for t in new.types() {
        if old.get(&t.name).is_none() {
            let mut path = Path::new();
            path.push_key(&t.name);
            d.push(
                &path,
                ChangeKind::TypeAdded,
                Compatibility::Compatible,
                "type added".to_owned(),
            );
        }
    }
    d.out
}

struct Differ<'s> {
    old: &'s Schema,
    new: &'s Schema,
    out: Vec<Change>,
}

impl Differ<'_> {
    fn push(
        &mut self,
        path: &Path,
        kind: ChangeKind,
        compatibility: Compatibility,
        detail: String,
    ) {
        self.out.push(Change {
            path: path.render(),
            kind,
            compatibility,
            detail,
        });
    }

    fn doc(&mut self, path: &Path, old: Option<&str>, new: Option<&str>) {
        if old != new {
            let detail = match (old, new) {
                (None, _) => "doc added",
                (_, None) => "doc removed",
                _ => "doc changed",
            };
            self.push(
                path,
                ChangeKind::DocChanged,
                Compatibility::Compatible,
                detail.to_owned(),
            );
        }
    }

    fn ty(&mut self, path: &mut Path, old: &Type, new: &Type) {
        if let (Type::Object(o), Type::Object(n)) = (old, new) {
            self.object(path, o, n);
            return;
        }
        if old == new {
            return;
        }
        let mut cmp = Subtype {
            old: self.old,
            new: self.new,
            assumed: HashSet::new(),
            made: Vec::new(),
            steps: 0,
            nesting: 0,
        };
        // Old values read by new readers; new values read by old readers.
        let old_in_new = cmp.sub(old, Side::Old, new, Side::New);
        let new_in_old = cmp.sub(new, Side::New, old, Side::Old);
        let (how, compat) = match (old_in_new, new_in_old) {
            (true, true) => return,
            (true, false) => ("widened", Compatibility::BreaksOlderReaders),
            (false, true) => ("narrowed", Compatibility::BreaksOlderWriters),
            (false, false) => ("changed", Compatibility::BreaksBoth),
        };
        self.push(
            path,
            ChangeKind::TypeChanged,
            compat,
            format!("{old} -> {new} ({how})"),
        );
    }

    fn object(&mut self, path: &mut Path, old: &ObjectType, new: &ObjectType) {
        let (old_fields, new_fields) = (FieldIndex::new(old), FieldIndex::new(new));
        for n in &new.fields {
            path.push_key(&n.name);
            match old_fields.get(&n.name) {
                None => {
                    let (compat, detail) = match n.presence {
                        Presence::Required => (
                            Compatibility::BreaksOlderWriters,
                            "required field added (older writers do not write it)",
                        ),
                        Presence::Optional => (Compatibility::Compatible, "optional field added"),
                        Presence::AbsentAs(_) => {
                            (Compatibility::Compatible, "field added with a default")
                        }
                    };
                    self.push(path, ChangeKind::FieldAdded, compat, detail.to_owned());
                }
                Some(o) => self.field(path, o, n),
            }
            path.pop();
        }
        for o in &old.fields {
            if new_fields.position(&o.name).is_some() {
                continue;
            }
            path.push_key(&o.name);
            let detail = if o.is_required() {
                "required field removed (older readers require it)"
            } else {
                "field removed (its key is free for reuse that older readers would misread)"
            };
            self.push(
                path,
                ChangeKind::FieldRemoved,
                Compatibility::BreaksOlderReaders,
                detail.to_owned(),
            );
            path.pop();
        }
    }

    fn field(&mut self, path: &mut Path, old: &Field, new: &Field) {
        use Presence::{AbsentAs, Optional, Required};
        let presence = match (&old.presence, &new.presence) {
            (Required, Required) | (Optional, Optional) => None,
            (AbsentAs(a), AbsentAs(b)) => {
                if a != b {
                    self.push(
                        path,
                        ChangeKind::DefaultChanged,
                        Compatibility::BreaksBoth,
                        format!("default {} -> {}", short_json(a, 60), short_json(b, 60)),
                    );
                }
                None
            }
            (Required, Optional) => Some(("required -> optional", true, false)),
            (Required, AbsentAs(_)) => Some(("required -> absentAs", true, false)),
            (Optional, Required) => Some(("optional -> required", false, true)),
            (AbsentAs(_), Required) => Some(("absentAs -> required", false, true)),
            (Optional, AbsentAs(_)) => Some(("optional -> absentAs", true, false)),
            (AbsentAs(_), Optional) => Some(("absentAs -> optional", false, true)),
        };
        if let Some((detail, r, w)) = presence {
            self.push(
                path,
                ChangeKind::PresenceChanged,
                Compatibility::of(r, w),
                detail.to_owned(),
            );
        }
        self.doc(path, old.doc.as_deref(), new.doc.as_deref());
        self.ty(path, &old.ty, &new.ty);
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    Old,
    New,
}

/// Whether every value of one type is a value of another, each read in its
/// own schema. Conservative: `false` when unsure.
struct Subtype<'s> {
    old: &'s Schema,
    new: &'s Schema,
    /// Questions taken to hold while they are being answered, so that a
    /// recursive type meets itself and stops instead of going round.
    assumed: HashSet<Assumption>,
    /// The same assumptions in the order they were made: a refuted one
    /// takes back every later one, since those may have held only because
    /// it was assumed.
    made: Vec<Assumption>,
    steps: usize,
    /// How many comparisons enclose the current one.
    nesting: usize,
}

/// A question about named types, assumed to hold while it is answered.
///
/// Assuming is sound because loading refuses bare cycles: the question can
/// come back only through an array, record or object, so the assumption is
/// only ever used for values nested one level deeper than the ones it
/// answers for.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Assumption {
    /// Every value of the first named type is a value of the second.
    Within(Side, String, Side, String),
    /// Every JSON value is a value of the named type.
    Everything(Side, String),
}

/// How many comparisons one question may take before answering "no".
const MAX_STEPS: usize = 100_000;

impl<'s> Subtype<'s> {
    fn schema(&self, side: Side) -> &'s Schema {
        match side {
            Side::Old => self.old,
            Side::New => self.new,
        }
    }

    fn sub(&mut self, a: &Type, sa: Side, b: &Type, sb: Side) -> bool {
        self.steps += 1;
        // Long chains of distinct named types nest one comparison per
        // step; the stack bounds them, not the step count.
        if self.steps > MAX_STEPS || self.nesting >= frame_limit(DEFAULT_MAX_DEPTH) {
            return false;
        }
        self.nesting += 1;
        let yes = self.sub_inner(a, sa, b, sb);
        self.nesting -= 1;
        yes
    }

    fn sub_inner(&mut self, a: &Type, sa: Side, b: &Type, sb: Side) -> bool {
        match (a, b) {
            (_, Type::Unknown) => true,
            (Type::Ref(x), Type::Ref(y)) => {
                if x == y {
                    return true;
                }
                let (ta, tb) = (self.schema(sa).resolve(x), self.schema(sb).resolve(y));
                self.assuming(Assumption::Within(sa, x.clone(), sb, y.clone()), |s| {
                    s.sub(ta, sa, tb, sb)
                })
            }
            (Type::Unknown, Type::Ref(y)) => {
                let tb = self.schema(sb).resolve(y);
                self.assuming(Assumption::Everything(sb, y.clone()), |s| {
                    s.sub(a, sa, tb, sb)
                })
            }
            (Type::Ref(x), _) => {
                let ta = self.schema(sa).resolve(x);
                self.sub(ta, sa, b, sb)
            }
            (_, Type::Ref(y)) => {
                let tb = self.schema(sb).resolve(y);
                self.sub(a, sa, tb, sb)
            }
            (Type::Union(ms), _) => ms.iter().all(|m| self.sub(m, sa, b, sb)),
            // `unknown` is the union of every JSON kind, each unconstrained:
            // it fits where each of them fits, though no one member of a
            // union such as `string | number | … | unknown[]` holds it all.
            (Type::Unknown, _) => every_kind().iter().all(|k| self.sub(k, sa, b, sb)),
            (_, Type::Union(ns)) => ns.iter().any(|n| self.sub(a, sa, n, sb)),
            (Type::Literal(s), Type::Literal(t)) => s == t,
            (Type::Literal(_), Type::String)
            | (Type::String, Type::String)
            | (Type::Number, Type::Number)
            | (Type::Integer, Type::Integer | Type::Number)
            | (Type::Boolean, Type::Boolean)
            | (Type::Null, Type::Null)
            | (Type::Record(_) | Type::Object(_), Type::Record(None)) => true,
            (Type::Array(x), Type::Array(y)) => self.sub(x, sa, y, sb),
            (Type::Record(Some(x)), Type::Record(Some(y))) => self.sub(x, sa, y, sb),
            // `Record` is `Record<string, unknown>`: any object, any values.
            (Type::Record(None), Type::Record(Some(y))) => self.sub(&Type::Unknown, sa, y, sb),
            (Type::Object(o), Type::Record(Some(y))) => {
                o.fields.iter().all(|f| self.sub(&f.ty, sa, y, sb))
            }
            (Type::Object(o), Type::Object(p)) => self.object(o, sa, p, sb),
            _ => false,
        }
    }

    /// Answers a question about named types with the question assumed to
    /// hold meanwhile (see [`Assumption`]); a "no" takes back the
    /// assumption and everything assumed after it.
    fn assuming(&mut self, question: Assumption, answer: impl FnOnce(&mut Self) -> bool) -> bool {
        if self.assumed.contains(&question) {
            return true;
        }
        let mark = self.made.len();
        self.assumed.insert(question.clone());
        self.made.push(question);
        let yes = answer(self);
        if !yes {
            // Answers reached under a refuted assumption may be wrong, and
            // must not answer a later question.
            for taken_back in self.made.drain(mark..) {
                self.assumed.remove(&taken_back);
            }
        }
        yes
    }

    /// Values of `o` (with only its declared keys) are values of `p` (which
    /// allows undeclared keys).
    fn object(&mut self, o: &ObjectType, sa: Side, p: &ObjectType, sb: Side) -> bool {
        let o_fields = FieldIndex::new(o);
        p.fields.iter().all(|pf| match o_fields.get(&pf.name) {
            None => !pf.is_required(),
            Some(of) => (!pf.is_required() || of.is_required()) && self.sub(&of.ty, sa, &pf.ty, sb),
        })
    }
}

/// One type of each JSON kind, each admitting every value of its kind:
/// together they admit exactly what `unknown` admits.
fn every_kind() -> [Type; 6] {
    [
        Type::String,
        Type::Number,
        Type::Boolean,
        Type::Null,
        Type::Array(Box::new(Type::Unknown)),
        Type::Record(None),
    ]
}
