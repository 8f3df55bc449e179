//! Which collections of a TOON document become key-hoisted tables.
//!
//! A *collection* is an object member holding at least two object rows. It
//! is a candidate when TOON would not already write it as a table, it has at
//! least one column, the density guard passes, and the object has no member
//! `<collection>_encoding` of its own (a producer's key there keeps the
//! collection as it is). Collections nested in list items are planned first,
//! so an outer collection's standard candidate already holds its inner ones'
//! choices.
//!
//! Costs are those of a fragment: the member (and its metadata) written as
//! TOON at its indentation and counted as whole lines (a line ending in `\n`
//! counts on its own, see [`crate::tokens`]), so no candidate costs a render
//! of the whole document. The first member of a list item really starts on
//! its hyphen line; the fragment puts it one level deeper, a slight
//! overestimate that the document-level comparison corrects.

use super::meter::Meter;
use super::{Choice, Metric, TableForm, replace_items};
use crate::table::hoisted::{self, encoding_key};
use crate::table::{Census, toon_tabular};
use crate::toon::EncodeOptions;
use crate::{Map, Result, Value};

/// How the planner treats candidate collections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Every one becomes a table in the seed's form.
    Seed,
    /// Every one becomes a table in the compact form.
    Compact,
    /// Each takes the cheapest of TOON, the seed's form and the compact form.
    Best,
}

use crate::path::Trail as Path;

/// What a member becomes.
enum Member {
    /// The same value, or a planned copy of it.
    Keep(Option<Value>),
    /// Rows and metadata.
    Hoist(Value, Value),
}

pub(crate) struct Planner<'o, 'm> {
    mode: Mode,
    toon: &'o EncodeOptions,
    /// Fragments are counted in tokens (else in bytes, by a formula).
    tokens: bool,
    meter: &'m mut Meter,
    pub choices: Vec<Choice>,
    scratch: Vec<u8>,
    lines: String,
    /// The root's plain TOON text, when the caller has written it: a root
    /// member left as it stands is that text's lines from its own first
    /// line on, and is not written again.
    plain: Option<&'m str>,
    /// Where each root member's lines start in `plain`, found on first need.
    starts: Option<Vec<usize>>,
    /// The floor of `plain`, when a root member's lines were all of it.
    pub plain_floor: Option<usize>,
}

impl<'o, 'm> Planner<'o, 'm> {
    /// A planner; in [`Mode::Best`] it measures fragments with `meter`.
    pub fn new(
        mode: Mode,
        toon: &'o EncodeOptions,
        metric: Metric,
        meter: &'m mut Meter,
    ) -> Planner<'o, 'm> {
        Planner {
            mode,
            toon,
            tokens: matches!(metric, Metric::Tokens(_)),
            meter,
            choices: Vec::new(),
            scratch: Vec::new(),
            lines: String::new(),
            plain: None,
            starts: None,
            plain_floor: None,
        }
    }

    /// Takes `text`, the plain TOON text of the root [`run`](Self::run) is
    /// given (written with the same options), to read root members from.
    pub fn with_plain(mut self, text: &'m str) -> Self {
        self.plain = Some(text);
        self
    }

    /// The text of root member `i` in the plain text (no final line break),
    /// if the root is an object of `members` members written there.
    fn plain_member(&mut self, i: usize, members: usize) -> Option<&'m str> {
        let text = self.plain?;
        let starts = self.starts.get_or_insert_with(|| {
            // A root member's first line is the only kind at column 0: all
            // else is indented (tables, list items, nested objects), and
            // TOON writes no line break inside a value.
            let b = text.as_bytes();
            let mut starts = vec![0];
            starts.extend(
                b.iter()
                    .enumerate()
                    .filter(|&(i, &c)| c == b'\n' && b.get(i + 1).is_some_and(|&n| n != b' '))
                    .map(|(i, _)| i + 1),
            );
            starts
        });
        if starts.len() != members {
            return None;
        }
        let start = *starts.get(i)?;
        let end = starts.get(i + 1).map_or(text.len(), |&next| next - 1);
        text.get(start..end)
    }

    /// The planned document, or `None` when it is `root` unchanged.
    pub fn run(&mut self, root: &Value) -> Result<Option<Value>> {
        let indent = usize::from(matches!(root, Value::Array(_)));
        self.value(root, indent, &Path::Root, 0)
    }

    /// `indent` is where `v`'s members or items go.
    fn value(
        &mut self,
        v: &Value,
        indent: usize,
        path: &Path,
        level: usize,
    ) -> Result<Option<Value>> {
        if level >= self.toon.max_depth {
            // Deeper than the encoder writes: it reports the error itself.
            return Ok(None);
        }
        match v {
            Value::Object(m) => self.object(m, indent, path, level),
            Value::Array(a) => {
                if self.tabular(a, level) {
                    // Rows of primitives and field groups hold no collection.
                    return Ok(None);
                }
                let out = replace_items(a, |i, item| {
                    if item.is_primitive() {
                        return Ok(None);
                    }
                    self.value(item, indent + 1, &Path::Index(path, i), level + 1)
                })?;
                Ok(out.map(Value::Array))
            }
            _ => Ok(None),
        }
    }

    fn object(
        &mut self,
        m: &Map,
        indent: usize,
        path: &Path,
        level: usize,
    ) -> Result<Option<Value>> {
        let mut out: Option<Map> = None;
        for (i, (k, child)) in m.iter().enumerate() {
            let here = Path::Key(path, k);
            let member = match child {
                Value::Array(rows) => {
                    let planned = self.value(child, indent + 1, &here, level + 1)?;
                    if self.candidate(m, k, rows, level + 1) {
                        // A root member as it stands is in the plain text.
                        let plain = match (&planned, path) {
                            (None, Path::Root) => self.plain_member(i, m.len()),
                            _ => None,
                        };
                        self.collection(k, child, rows, planned, plain, indent, &here)?
                    } else {
                        Member::Keep(planned)
                    }
                }
                Value::Object(_) => {
                    Member::Keep(self.value(child, indent + 1, &here, level + 1)?)
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

    /// Member `k`, holding `value` (the array `rows`), as TOON (`planned`
    /// when its own collections were planned; `plain` its text when already
    /// written) or as a table.
    #[allow(clippy::too_many_arguments)]
    fn collection(
        &mut self,
        k: &str,
        value: &Value,
        rows: &[Value],
        planned: Option<Value>,
        plain: Option<&str>,
        indent: usize,
        path: &Path,
    ) -> Result<Member> {
        let table = |form: TableForm| -> Result<(Value, Value)> {
            let t = match form {
                TableForm::Hoisted => hoisted::encode_rows(rows)?,
                _ => hoisted::encode_rows_compact(rows)?,
            };
            Ok((Value::Array(t.rows), t.encoding.to_value()))
        };
        let (form, cells, meta) = match self.mode {
            Mode::Seed | Mode::Compact => {
                let form = if self.mode == Mode::Seed {
                    TableForm::Hoisted
                } else {
                    TableForm::HoistedCompact
                };
                let (cells, meta) = table(form)?;
                (form, cells, meta)
            }
            Mode::Best => {
                let seed = table(TableForm::Hoisted)?;
                let compact = table(TableForm::HoistedCompact)?;
                // The cheaper table, the seed's form on a tie: the compact
                // form (usually the cheaper) is counted first, so that the
                // seed's is counted only as far as needed to tell.
                let meta_key = encoding_key(k);
                let Some(compact_cost) = self.cost(
                    &[(k, &compact.0), (&meta_key, &compact.1)],
                    indent,
                    usize::MAX,
                )?
                else {
                    // Unbounded, so never: but without a cost, keep the member.
                    return Ok(Member::Keep(planned));
                };
                let (cost, form, (cells, meta)) =
                    match self.cost(&[(k, &seed.0), (&meta_key, &seed.1)], indent, compact_cost)? {
                        Some(c) => (c, TableForm::Hoisted, seed),
                        None => (compact_cost, TableForm::HoistedCompact, compact),
                    };
                // Then TOON as it stands, which keeps the member unless
                // dearer than that table: counted only as far as needed to tell.
                let standard = planned.as_ref().unwrap_or(value);
                let kept = match plain {
                    Some(text) => {
                        // A member that is the whole plain text has its
                        // floor: the plain document's comparison reuses it.
                        let whole = self.plain.is_some_and(|p| p.len() == text.len());
                        let floor = if whole && self.tokens && text.len() > cost {
                            self.plain_floor = self.meter.floor(text);
                            self.plain_floor
                        } else {
                            None
                        };
                        self.scratch.clear();
                        self.scratch.extend_from_slice(text.as_bytes());
                        self.measure(indent, cost, floor)
                    }
                    None => self.cost(&[(k, standard)], indent, cost)?,
                };
                if kept.is_some() {
                    return Ok(Member::Keep(planned));
                }
                (form, cells, meta)
            }
        };
        self.choices.push(Choice {
            path: path.render(),
            form,
        });
        Ok(Member::Hoist(cells, meta))
    }

    /// The cost of `members` (`key: value` each, in order) written as an
    /// object's fields at indentation `indent`, when at most `bound`
    /// (`None` when more).
    fn cost(
        &mut self,
        members: &[(&str, &Value)],
        indent: usize,
        bound: usize,
    ) -> Result<Option<usize>> {
        self.scratch.clear();
        for (i, (k, v)) in members.iter().enumerate() {
            if i > 0 {
                self.scratch.push(b'\n');
            }
            crate::toon::encode_member_into(k, v, self.toon, &mut self.scratch)?;
        }
        Ok(self.measure(indent, bound, None))
    }

    /// The cost of the fragment in `scratch`, each line at indentation
    /// `indent` and counted as a whole line, when at most `bound`; `floor`,
    /// when known, is its floor (else worked out where worth it).
    fn measure(&mut self, indent: usize, bound: usize, floor: Option<usize>) -> Option<usize> {
        let pad = indent * self.toon.indent;
        let cost = if !self.tokens {
            let lines = self.scratch.iter().filter(|&&b| b == b'\n').count() + 1;
            self.scratch.len() + lines * (pad + 1)
        } else if pad == 0 {
            // The lines as they stand: counted in place, unless their floor
            // already exceeds the bound (a rival's cost).
            self.scratch.push(b'\n');
            let text = utf8(&self.scratch);
            let over = match floor {
                Some(f) => f > bound,
                None => self.meter.floor_over(&text, bound),
            };
            if over {
                return None;
            }
            self.meter.cost_unless_over(&text, bound)?
        } else {
            self.lines.clear();
            let text = utf8(&self.scratch);
            // Indentation adds no piece to the floor (see `text_floor`).
            let over = match floor {
                Some(f) => f > bound,
                None => self.meter.floor_over(&text, bound),
            };
            if over {
                return None;
            }
            for line in text.split('\n') {
                self.lines.extend(std::iter::repeat_n(' ', pad));
                self.lines.push_str(line);
                self.lines.push('\n');
            }
            self.meter.cost_unless_over(&self.lines, bound)?
        };
        (cost <= bound).then_some(cost)
    }
}

/// The TOON writer's bytes as text (always UTF-8: the bytes of `&str`s and
/// ASCII), checked on the fast path of [`std::str::from_utf8`].
fn utf8(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            prop::sample::select(vec!["", " x", "a\nb", "- y", "k: v", "[1]", "\"q\"", "#"])
                .prop_map(Value::from),
            "[a-z \\n:,-]{0,8}".prop_map(Value::from),
        ]
    }

    fn tree() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(("[a-z]{1,3}", inner), 0..4)
                    .prop_map(|e| Value::Object(e.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Each root member's lines in the plain text are what writing the
        /// member alone gives: the planner may read them instead.
        #[test]
        fn root_members_read_off_the_plain_text(
            members in prop::collection::vec(("[a-z]{1,3}", tree()), 1..5),
            indent in 1usize..=3,
        ) {
            let root: Map = members.into_iter().collect();
            let toon = EncodeOptions { indent, ..EncodeOptions::default() };
            let text = crate::toon::encode(&Value::Object(root.clone()), &toon).unwrap();
            let mut meter = Meter::new(Metric::Bytes);
            let mut planner = Planner::new(Mode::Best, &toon, Metric::Bytes, &mut meter).with_plain(&text);
            for (i, (k, v)) in root.iter().enumerate() {
                let mut alone = Vec::new();
                crate::toon::encode_member_into(k, v, &toon, &mut alone).unwrap();
                let alone = String::from_utf8(alone).unwrap();
                prop_assert_eq!(planner.plain_member(i, root.len()), Some(alone.as_str()));
            }
        }
    }
}
