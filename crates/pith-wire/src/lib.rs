//! Wire schemas: typed definitions with absent-field defaults, validation
//! and lossless elision.
//!
//! A harness describes the JSON it sends (session state snapshots, command
//! results) as named types. pith checks values against them with errors
//! that name the path, fills in the defaults of fields an older producer
//! left out, leaves out fields equal to their default when encoding (and
//! puts them back exactly when decoding), exports and imports JSON Schema,
//! and tells which changes between two versions break whom.
//!
//! # The definitions document
//!
//! A JSON (or TOON) object from type names to definitions. A definition is
//! one of:
//!
//! * a **type expression** string (see [`types`]): `"string"`,
//!   `"number.integer"`, `"'all' | 'one-at-a-time'"`, `"TodoItem[]"`,
//!   `"Record<string, number>"`, `"GoalModeState | null"`;
//! * an **object of fields**: each key is a field name, `"name?"` marks an
//!   optional one, and each value is again a definition (so objects nest);
//! * a **wrapper**, an object with the key `"$type"` holding the wrapped
//!   definition, plus `"$doc"` (the text of `doc(def, text)`) and/or
//!   `"$absentAs"` (the default of `absentAs(def, default)`);
//! * the DSL's own lowering, accepted as input: `[def, "@", text]` for
//!   `doc` and `[def, "=", default]` for `absentAs`.
//!
//! ```json
//! {
//!   "TodoStatus": "'pending' | 'in_progress' | 'completed'",
//!   "TodoItem": {
//!     "content": "string",
//!     "status": "TodoStatus",
//!     "blocker?": {"$type": "string", "$doc": "What a `blocked` task is waiting on."}
//!   },
//!   "Queue": {
//!     "steering": "string[]",
//!     "liveSteered": {"$type": "number.integer", "$absentAs": 0, "$doc": "Already sent."}
//!   }
//! }
//! ```
//!
//! No object of fields can be read as a wrapper: an object is a wrapper
//! exactly when it has the key `"$type"`, and in an object of fields a key
//! that starts with `$` is written with the `$` doubled (`"$$ref"` declares
//! the field `$ref`), so a single leading `$` belongs to wrappers alone. A
//! field whose own name ends in `?` cannot be declared.
//!
//! Loading ([`Schema::from_value`]) refuses, with the JSON path inside the
//! document: names that are not identifiers or that shadow a built-in, a
//! field key that still ends in `?` once its optional mark is taken off
//! (`"x??"`), bad type expressions (with the column inside the expression),
//! references to undefined types, a type defined through itself with no
//! array, record or object in between, `absentAs` anywhere but on a field, `absentAs` on a
//! field marked `?`, a second `doc` or `absentAs` on one definition, and a
//! default its own type rejects. [`Schema::to_value`] writes the canonical
//! document, wrappers as `{"$type", "$absentAs", "$doc"}` in that order.
//!
//! # Checking, defaults, elision
//!
//! * [`check()`] reports every [`Violation`]; undeclared keys follow
//!   [`UnknownKeys`] (reject by default).
//! * [`fill`] puts defaults into absent `absentAs` fields; [`elide`] leaves
//!   out fields equal to their default; `fill(elide(x)) == fill(x)` for
//!   every valid `x`, key order included. The rules are in [`defaults`].
//!
//! # Elsewhere
//!
//! * [`import_ts()`] reads definitions written in the TypeScript DSL.
//! * [`export_json_schema`] and [`import_json_schema`] speak JSON Schema 2020-12.
//! * [`diff()`] classifies the changes between two versions.

pub mod check;
pub mod defaults;
pub mod defs;
pub mod diff;
pub mod import_ts;
pub mod jsonschema;
pub(crate) mod path;
pub mod types;

pub use check::{CheckOptions, UnknownKeys, Violation, check};
pub use defaults::{elide, fill};
pub use defs::{NamedType, Schema};
pub use diff::{Change, ChangeKind, Compatibility, diff};
pub use import_ts::import_ts;
pub use jsonschema::{export_json_schema, export_json_schema_for, import_json_schema};
pub use types::{Field, ObjectType, Presence, Type, parse_type};
