//! Which collections of a TOON document become key-hoisted tables, for the
//! `hoisted` and `hoisted-compact` forms; and which arrays of objects become
//! columnar tables, for the `table` form ([`columnar_plan`]).
//!
//! A *collection* is an object member holding at least two object rows. It
//! is a candidate when TOON would not already write it as a table, it has at
//! least one column, the density guard passes, and the object has no member
//! `<collection>_encoding` of its own (a producer's key there keeps the
//! collection as it is); every candidate becomes a table. A candidate's table
//! is made of its rows as given: collections inside its rows are written in
//! its cells as they are, not as tables of their own; collections inside a
//! member that is no candidate are planned on their own. (`auto` hoists nothing: the notation writes
//! the same collections as sparse tables, with no metadata to apply.)

use super::{Choice, TableForm};
use crate::table::columnar::{self, Intern};
use crate::table::hoisted::{self, encoding_key};
use crate::table::{Census, toon_tabular};
use crate::table::{index_path, key_path};
use crate::toon::EncodeOptions;
use crate::{Map, Result, Value};

/// The form every candidate collection takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A table in the seed's form.
    Seed,
    /// A table in the compact form.
    Compact,
}

use crate::path::Trail as Path;

/// What a member becomes.
enum Member {
    /// The same value, or a planned copy of it.
    Keep(Option<Value>),
    /// Rows and metadata.
    Hoist(Value, Value),
}

pub(crate) struct Planner<'o> {
    mode: Mode,
    toon: &'o EncodeOptions,
    pub choices: Vec<Choice>,
}

impl<'o> Planner<'o> {
    /// A planner writing tables in `mode`, for TOON written with `toon`.
    pub fn new(mode: Mode, toon: &'o EncodeOptions) -> Planner<'o> {
        Planner {
            mode,
            toon,
            choices: Vec::new(),
        }
    }

    /// The planned document, or `None` when it is `root` unchanged.
    pub fn run(&mut self, root: &Value) -> Result<Option<Value>> {
        self.value(root, &Path::Root, 0)
    }

    fn value(&mut self, v: &Value, path: &Path, level: usize) -> Result<Option<Value>> {
        if level >= self.toon.max_depth {
            // Deeper than the encoder writes: it reports the error itself.
            return Ok(None);
        }
        match v {
            Value::Object(m) => self.object(m, path, level),
            Value::Array(a) => {
                if self.tabular(a, level) {
                    // Rows of primitives and field groups hold no collection.
                    return Ok(None);
                }
                let out = replace_items(a, |i, item| {
                    if item.is_primitive() {
                        return Ok(None);
                    }
                    self.value(item, &Path::Index(path, i), level + 1)
                })?;
                Ok(out.map(Value::Array))
            }
            _ => Ok(None),
        }
    }

    fn object(&mut self, m: &Map, path: &Path, level: usize) -> Result<Option<Value>> {
        let mut out: Option<Map> = None;
        for (i, (k, child)) in m.iter().enumerate() {
            let here = Path::Key(path, k);
            let member = match child {
                // A candidate's table is made of its rows as given, inner
                // collections written in its cells as they are: only a
                // member that is no candidate is planned inside.
                Value::Array(rows) if self.candidate(m, k, rows, level + 1) => {
                    self.collection(rows, &here)?
                }
                Value::Array(_) | Value::Object(_) => {
                    Member::Keep(self.value(child, &here, level + 1)?)
                }
                _ => Member::Keep(None),
            };
            let start = |out: &mut Option<Map>| -> Map {
                out.take().unwrap_or_else(|| {
                    let mut o = Map::with_capacity(m.len() + 1);
                    for (k, v) in m.iter().take(i) {
                        o.push_unique(k.clone(), v.clone());
                    }
                    o
                })
            };
            match member {
                Member::Keep(None) => {
                    if let Some(o) = &mut out {
                        o.push_unique(k.clone(), child.clone());
                    }
                }
                Member::Keep(Some(v)) => {
                    let mut o = start(&mut out);
                    o.push_unique(k.clone(), v);
                    out = Some(o);
                }
                Member::Hoist(rows, meta) => {
                    let mut o = start(&mut out);
                    o.push_unique(k.clone(), rows);
                    o.push_unique(encoding_key(k), meta);
                    out = Some(o);
                }
            }
        }
        Ok(out.map(Value::Object))
    }

    /// Whether TOON writes `rows`, an array at nesting `level`, as a table.
    fn tabular(&self, rows: &[Value], level: usize) -> bool {
        matches!(rows.first(), Some(Value::Object(_)))
            && toon_tabular(rows, self.toon.max_depth.saturating_sub(level + 1))
    }

    /// Whether member `k` of `m`, holding `rows` at nesting `level`, is a
    /// candidate for a key-hoisted table.
    fn candidate(&self, m: &Map, k: &str, rows: &[Value], level: usize) -> bool {
        if rows.len() < 2 || !rows.iter().all(|r| matches!(r, Value::Object(_))) {
            return false;
        }
        if m.contains_key(&encoding_key(k)) || self.tabular(rows, level) {
            return false;
        }
        Census::of(rows).is_some_and(|c| !c.columns.is_empty() && c.dense_enough(rows.len()))
    }

    /// The collection `rows` as a table in the planner's form.
    fn collection(&mut self, rows: &[Value], path: &Path) -> Result<Member> {
        let (form, table) = match self.mode {
            Mode::Seed => (TableForm::Hoisted, hoisted::encode_rows(rows)?),
            Mode::Compact => (
                TableForm::HoistedCompact,
                hoisted::encode_rows_compact(rows)?,
            ),
        };
        self.choices.push(Choice {
            path: path.render(),
            form,
        });
        Ok(Member::Hoist(
            Value::Array(table.rows),
            table.encoding.to_value(),
        ))
    }
}

/// Columnar tables for every array of objects, innermost first.
pub(super) fn columnar_plan(
    v: &Value,
    intern: Intern,
    path: &str,
    level: usize,
    max_depth: usize,
    choices: &mut Vec<Choice>,
) -> Result<Option<Value>> {
    if level >= max_depth {
        return Ok(None);
    }
    match v {
        Value::Object(m) => {
            let mut out: Option<Map> = None;
            for (i, (k, child)) in m.iter().enumerate() {
                let planned = columnar_plan(
                    child,
                    intern,
                    &key_path(path, k),
                    level + 1,
                    max_depth,
                    choices,
                )?;
                match planned {
                    Some(new) => {
                        let o = out.get_or_insert_with(|| {
                            let mut o = Map::with_capacity(m.len());
                            for (k, v) in m.iter().take(i) {
                                o.push_unique(k.clone(), v.clone());
                            }
                            o
                        });
                        o.push_unique(k.clone(), new);
                    }
                    None => {
                        if let Some(o) = &mut out {
                            o.push_unique(k.clone(), child.clone());
                        }
                    }
                }
            }
            Ok(out.map(Value::Object))
        }
        Value::Array(a) => {
            let items = replace_items(a, |i, item| {
                columnar_plan(
                    item,
                    intern,
                    &index_path(path, i),
                    level + 1,
                    max_depth,
                    choices,
                )
            })?;
            // Judged on the items as given: an item that was an array and
            // is now a table object does not make this an array of objects
            // (the rewriting never turns an object into anything else).
            let eligible = !a.is_empty() && Census::of(a).is_some_and(|c| c.dense_enough(a.len()));
            let rows = items.as_deref().unwrap_or(a);
            if eligible {
                choices.push(Choice {
                    path: if path.is_empty() {
                        "$".to_owned()
                    } else {
                        path.to_owned()
                    },
                    form: TableForm::Columnar,
                });
                Ok(Some(columnar::encode_table(rows, intern)?))
            } else {
                Ok(items.map(Value::Array))
            }
        }
        _ => Ok(None),
    }
}

/// `items` with those that `replace` gives a new value for replaced, or
/// `None` when it replaces none: nothing is copied until the first one.
fn replace_items(
    items: &[Value],
    mut replace: impl FnMut(usize, &Value) -> Result<Option<Value>>,
) -> Result<Option<Vec<Value>>> {
    let mut out: Option<Vec<Value>> = None;
    for (i, item) in items.iter().enumerate() {
        match replace(i, item)? {
            Some(new) => out.get_or_insert_with(|| items[..i].to_vec()).push(new),
            None => {
                if let Some(out) = &mut out {
                    out.push(item.clone());
                }
            }
        }
    }
    Ok(out)
}
