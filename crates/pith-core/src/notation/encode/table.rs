//! Sparse tables (`docs/notation.md` §3): the columns of a collection of
//! object rows, and the rows written under them.

use super::derive::{self, Rule};
use super::{Context, Writer, same, write_key_str};
use crate::runs::string_pieces;
use crate::{Map, Value};
use std::collections::HashMap;

/// Rows wider than this many cells are hard to read: the widest groups
/// become single flow cells until a row fits.
const MAX_CELLS: usize = 64;
/// Groups nest at most this deep.
const MAX_GROUP_DEPTH: usize = 6;

/// One column of a table header.
pub(super) struct Col<'a> {
    pub(super) key: &'a str,
    /// Some rows lack the key.
    pub(super) optional: bool,
    pub(super) kind: Kind<'a>,
}

impl Col<'_> {
    /// A copy of the column (for costing a layout on the side).
    fn copy(&self) -> Col<'_> {
        Col {
            key: self.key,
            optional: self.optional,
            kind: match &self.kind {
                Kind::Leaf => Kind::Leaf,
                Kind::List => Kind::List,
                Kind::Group(sub) => Kind::Group(sub.iter().map(Col::copy).collect()),
                Kind::Records(sub) => Kind::Records(sub.iter().map(Col::copy).collect()),
                Kind::Derived(rule) => Kind::Derived(rule.clone()),
            },
        }
    }
}

pub(super) enum Kind<'a> {
    /// One cell per row.
    Leaf,
    /// One cell per row holding an array of primitives, its items
    /// separated by spaces (`name[]`).
    List,
    /// A nested field group.
    Group(Vec<Col<'a>>),
    /// One cell per row holding an array of objects as records `[…][…]`
    /// of the fields (`name[]{…}`, a record list); each field a leaf.
    Records(Vec<Col<'a>>),
    /// A derived column: no cell.
    Derived(Rule),
}

/// What the rows hold under one key.
#[derive(Default, Clone, Copy)]
struct Census {
    present: usize,
    objects: usize,
    nulls: usize,
    others: usize,
    /// Arrays of primitives that have no name.
    lists: usize,
    /// Items of those arrays that have a name (a list cell writes them out,
    /// a flow cell as `*name`).
    named_items: usize,
    /// Empty arrays.
    empties: usize,
    /// Arrays that are not all primitives, named or not (a record list's,
    /// when they hold objects: see [`Writer::records_pay`]).
    records: usize,
    /// Bytes of the named objects (what a leaf column would not repeat).
    named_bytes: usize,
    /// Bytes of the keys of the other objects (what a group saves).
    key_bytes: usize,
    /// Strings.
    strings: usize,
    /// Values that put text into a template (see [`derive::Facts`]).
    texts: usize,
}

/// What a collection's rows hold, key by key: what its table is planned
/// from, and what tells whether it makes a table at all.
pub(super) struct Tally<'a> {
    /// The union of the rows' keys, in first-seen order.
    keys: Vec<&'a str>,
    census: Vec<Census>,
    /// Whether a row is the empty object.
    empty_rows: bool,
}

impl Tally<'_> {
    /// Whether `rows` rows make a table: at least half of the grid of rows ×
    /// columns filled (rows that share few keys would make a table of mostly
    /// empty cells), and two columns at least when a row is the empty
    /// object, whose cells are all empty (a row is never empty,
    /// `docs/notation.md` §3).
    pub(super) fn worthy(&self, rows: usize) -> bool {
        let filled: usize = self.census.iter().map(|c| c.present).sum();
        filled * 2 >= self.keys.len() * rows && (!self.empty_rows || self.keys.len() >= 2)
    }

    /// Puts the keys in an order that every one of `objects` (the objects
    /// tallied) has its keys in, when first-seen order is not one: a group's
    /// objects and a record list's keep their key order, and an object whose
    /// keys came before another's in a different place (`a,c` seen, then
    /// `a,b,c`) would otherwise make neither. Of the orders that fit, the one
    /// that takes, at each place, the earliest-seen key whose predecessors in
    /// every object are placed. Says which order fits: none when two objects
    /// hold two keys in opposite orders, or there are more than 64 keys to
    /// merge.
    fn fit_order(&mut self, objects: &[&Map]) -> Fit {
        if in_order(&self.keys, objects) {
            return Fit::FirstSeen;
        }
        let Some(order) = merged_order(&self.keys, objects) else {
            return Fit::None;
        };
        self.keys = order.iter().map(|&i| self.keys[i]).collect();
        self.census = order.iter().map(|&i| self.census[i]).collect();
        Fit::Merged
    }
}

/// Which order of a tally's keys every object keeps (see [`Tally::fit_order`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fit {
    /// The keys in first-seen order.
    FirstSeen,
    /// Another order, merged from the objects' orders.
    Merged,
    /// None: two objects hold two keys in opposite orders.
    None,
}

/// Whether every one of `objects` has its keys in the order of `keys` (all
/// its keys among them).
fn in_order(keys: &[&str], objects: &[&Map]) -> bool {
    let position: HashMap<&str, usize> = keys.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    objects.iter().all(|m| {
        let mut last = None;
        m.keys().all(|k| {
            // Mostly the key after the last one: found without hashing.
            let next = last.map_or(0, |l| l + 1);
            let p = match keys.get(next) {
                Some(&c) if same(c, k) => Some(next),
                _ => position.get(k.as_str()).copied(),
            };
            let ok = p > last;
            last = p;
            ok
        })
    })
}

/// An order of `keys` (as indices into them) in which every one of
/// `objects` has its keys, each object's keys all among `keys`: each key
/// placed after every key that comes before it in some object, the
/// earliest in `keys` first when several may go next. `None` when no order
/// fits (two objects disagree), or there are more than 64 keys.
fn merged_order(keys: &[&str], objects: &[&Map]) -> Option<Vec<usize>> {
    let n = keys.len();
    if n > 64 {
        return None;
    }
    let index: HashMap<&str, usize> = keys.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    // For each key, the keys right before it in some object, as bits.
    let mut before = vec![0u64; n];
    for m in objects {
        let mut prev: Option<usize> = None;
        for k in m.keys() {
            let i = *index.get(k.as_str())?;
            if let Some(p) = prev {
                before[i] |= 1 << p;
            }
            prev = Some(i);
        }
    }
    let mut placed = 0u64;
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let next = (0..n).find(|&i| placed & (1 << i) == 0 && before[i] & !placed == 0)?;
        placed |= 1 << next;
        order.push(next);
    }
    Some(order)
}

/// Rows of a column written one cell each between two readings of the
/// floor under their count (see `Writer::group_pays`).
const FLOOR_ROWS: usize = 64;

impl Writer<'_, '_, '_> {
    /// Plans the columns of the objects of a group (`rows`), at `level`,
    /// in an order every object keeps if there is one; and says which.
    fn plan_group<'a>(
        &mut self,
        rows: &[&'a Map],
        level: usize,
        derive_ok: bool,
    ) -> (Vec<Col<'a>>, Fit) {
        let mut tally = self.tally(rows);
        let fit = tally.fit_order(rows);
        (self.plan_tally(rows, tally, level, derive_ok), fit)
    }

    /// What `rows` (every row an object) hold, in one pass.
    pub(super) fn tally<'a>(&self, rows: &[&'a Map]) -> Tally<'a> {
        let mut index: HashMap<&'a str, usize> = HashMap::new();
        let mut keys: Vec<&'a str> = Vec::new();
        let mut census: Vec<Census> = Vec::new();
        // The column of each position in the row before: rows mostly repeat
        // its keys in its order, and those are found without hashing.
        let mut last: Vec<usize> = Vec::new();
        let mut empty_rows = false;
        for row in rows {
            empty_rows |= row.is_empty();
            for (j, (k, v)) in row.iter().enumerate() {
                let i = match last.get(j) {
                    Some(&i) if same(keys[i], k) => i,
                    _ => {
                        let i = *index.entry(k.as_str()).or_insert_with(|| {
                            keys.push(k.as_str());
                            census.push(Census::default());
                            keys.len() - 1
                        });
                        match last.get_mut(j) {
                            Some(slot) => *slot = i,
                            None => last.push(i),
                        }
                        i
                    }
                };
                let c = &mut census[i];
                c.present += 1;
                c.strings += usize::from(matches!(v, Value::String(_)));
                c.texts += usize::from(derive::has_text(v));
                match v {
                    Value::Object(m) if !m.is_empty() => {
                        c.objects += 1;
                        match self.refs.of(v) {
                            Some(id) => c.named_bytes += self.refs.size(id),
                            None => c.key_bytes += m.keys().map(|k| k.len() + 2).sum::<usize>(),
                        }
                    }
                    Value::Null => c.nulls += 1,
                    Value::Array(a)
                        if self.refs.of(v).is_none() && a.iter().all(Value::is_primitive) =>
                    {
                        c.lists += 1;
                        c.empties += usize::from(a.is_empty());
                        c.others += 1;
                        if !self.refs.names.is_empty() {
                            c.named_items += a.iter().filter(|i| self.refs.of(i).is_some()).count();
                        }
                    }
                    // Named or not: a record list writes a named one `*name`.
                    Value::Array(a) if !a.iter().all(Value::is_primitive) => {
                        c.records += 1;
                        c.others += 1;
                    }
                    _ => c.others += 1,
                }
            }
        }
        Tally {
            keys,
            census,
            empty_rows,
        }
    }

    /// Plans the columns of `rows` from their tally.
    fn plan_tally<'a>(
        &mut self,
        rows: &[&'a Map],
        tally: Tally<'a>,
        level: usize,
        derive_ok: bool,
    ) -> Vec<Col<'a>> {
        let Tally { keys, census, .. } = tally;
        let mut cols: Vec<Col<'a>> = Vec::with_capacity(keys.len());
        for (&key, c) in keys.iter().zip(&census) {
            let optional = c.present < rows.len();
            let groupable = c.objects > 0 && c.others == 0 && level < MAX_GROUP_DEPTH;
            // A list column writes its items out, names or not; flow cells
            // write `*name` for a named one: when some are named, the two
            // are counted.
            let mut kind = if c.lists > 0
                && c.lists == c.present
                && (c.named_items == 0 || self.list_pays(rows, key))
            {
                Kind::List
            } else {
                Kind::Leaf
            };
            if c.records > 0
                && c.records + c.empties == c.present
                && level < MAX_GROUP_DEPTH
                && let Some(sub) = self.records_pay(rows, key)
            {
                kind = Kind::Records(sub);
            }
            // A group first in a group, null in some rows, would write the
            // outer group's `~` (a null group marks its first cell): the
            // inner one is a single cell then.
            let first_in_group = level > 0 && cols.is_empty();
            if groupable && !(first_in_group && c.nulls > 0) {
                let inner: Vec<&'a Map> = rows
                    .iter()
                    .filter_map(|r| r.get(key).and_then(Value::as_object))
                    .collect();
                let (sub, fit) =
                    self.plan_group(&inner, level + 1, derive_ok && !optional && c.nulls == 0);
                // A group writes named objects out in full; a leaf column
                // writes `*name` for them but repeats the others' keys:
                // when some are named, the two are counted. They are also
                // counted when the group's fields had to be merged from the
                // objects' orders: such objects vary (wide and sparse), and
                // their list cells may write out strings a leaf column's
                // flow cells would name.
                // A group's objects are not rows: each keeps its key order.
                let counted = c.named_bytes > 0 || fit == Fit::Merged;
                if fit != Fit::None
                    && dense(&sub, &inner)
                    && (!counted || self.group_pays(rows, key, &sub, fit != Fit::Merged))
                {
                    kind = Kind::Group(sub);
                }
            }
            cols.push(Col {
                key,
                optional,
                kind,
            });
        }
        if level == 0 {
            while cells(&cols) > MAX_CELLS {
                let widest = cols
                    .iter_mut()
                    .filter(|c| matches!(c.kind, Kind::Group(_)))
                    .max_by_key(|c| cells(std::slice::from_ref(*c)));
                match widest {
                    Some(c) => c.kind = Kind::Leaf,
                    None => break,
                }
            }
        }
        // Without derived columns, a probing writer asks the same of a copy
        // of the columns, until the answer is yes (see `Writer::probe`).
        let probe = !self.opts.derived && self.probe && !self.derive_turned;
        if derive_ok && (self.opts.derived || probe) {
            let facts: Vec<derive::Facts> = census
                .iter()
                .map(|c| derive::Facts {
                    strings: c.strings == rows.len(),
                    texts: c.texts == rows.len(),
                })
                .collect();
            if self.opts.derived {
                self.derive_turned |= derive::apply(&mut cols, rows, &facts);
                // A row must keep a cell: a row whose every other key is
                // absent would be an empty line.
                if level == 0 && rows.iter().any(|r| !has_cell(&cols, r)) {
                    derive::undo(&mut cols);
                }
            } else {
                let mut copy: Vec<Col<'_>> = cols.iter().map(Col::copy).collect();
                self.derive_turned |= derive::apply(&mut copy, rows, &facts);
            }
        }
        cols
    }

    /// A table of `rows` (with their tally): `key[N]{…}:` and one row per
    /// line; `names` makes it a keyed table (`key[N:]{…}:`, rows `name:
    /// cells`).
    pub(super) fn table<'a>(
        &mut self,
        out: &mut String,
        key: Option<&str>,
        rows: &[&'a Map],
        tally: Tally<'a>,
        names: Option<&[&str]>,
        depth: usize,
    ) {
        let cols = self.plan_tally(rows, tally, 0, true);
        self.derived += count_derived(&cols);
        self.indent(out, depth);
        if let Some(k) = key {
            write_key_str(out, k);
        }
        out.push('[');
        out.push_str(&rows.len().to_string());
        if names.is_some() {
            out.push(':');
        }
        self.delimiter_mark(out);
        out.push_str("]{");
        self.fields(out, &cols);
        out.push_str("}:");
        // The rows of a table whose header stands at indentation 0 (a root
        // table, or a member of the root object) stand at indentation 0 too:
        // an indented line costs tokens that a row at column 0 does not, and
        // the header's count tells where the rows end. Every other table's,
        // and a keyed table's, one unit deeper, as in TOON.
        let row_depth = if depth == 0 && names.is_none() {
            0
        } else {
            depth + 1
        };
        // A TOON table's rows (every column a plain field, no keyed rows)
        // keep TOON's quoting, so each row is TOON's row, which `auto`
        // then counts once for both documents (`docs/notation.md` §6).
        let context = if names.is_none()
            && cols
                .iter()
                .all(|c| !c.optional && matches!(c.kind, Kind::Leaf))
        {
            Context::Toon
        } else {
            Context::Cell
        };
        for (i, row) in rows.iter().enumerate() {
            out.push('\n');
            self.indent(out, row_depth);
            if let Some(names) = names {
                write_key_str(out, names[i]);
                out.push_str(": ");
            }
            let mut first = true;
            self.cells(out, &cols, Some(row), &mut first, context);
        }
    }

    fn fields(&mut self, out: &mut String, cols: &[Col<'_>]) {
        for (i, c) in cols.iter().enumerate() {
            if i > 0 {
                out.push(self.delimiter);
            }
            write_key_str(out, c.key);
            if c.optional {
                out.push('?');
            }
            match &c.kind {
                Kind::Leaf => {}
                Kind::List => out.push_str("[]"),
                Kind::Group(sub) => {
                    out.push('{');
                    self.fields(out, sub);
                    out.push('}');
                }
                Kind::Records(sub) => {
                    out.push_str("[]{");
                    self.fields(out, sub);
                    out.push('}');
                }
                Kind::Derived(rule) => {
                    out.push('=');
                    rule.write(out, self);
                }
            }
        }
    }

    /// The cells of one row (or of one group in a row), a plain field's
    /// primitive quoted as `context` says; `None` writes the empty cells of
    /// an absent group.
    fn cells(
        &mut self,
        out: &mut String,
        cols: &[Col<'_>],
        row: Option<&Map>,
        first: &mut bool,
        context: Context,
    ) {
        let mut at = 0;
        for c in cols {
            let v = row.and_then(|m| lookup(m, c.key, &mut at));
            match &c.kind {
                Kind::Derived(_) => {}
                Kind::Leaf => {
                    self.sep(out, first);
                    if let Some(v) = v {
                        self.value_as(out, v, context);
                    }
                }
                Kind::List => {
                    self.sep(out, first);
                    match v {
                        Some(Value::Array(items)) if items.is_empty() => out.push_str("[]"),
                        Some(Value::Array(items)) => {
                            for (i, item) in items.iter().enumerate() {
                                if i > 0 {
                                    out.push(' ');
                                }
                                self.list_item(out, item);
                            }
                        }
                        // Planning let only arrays of primitives in.
                        _ => {}
                    }
                }
                Kind::Records(sub) => {
                    self.sep(out, first);
                    match v {
                        Some(v) if let Some(id) = self.refs.of(v) => {
                            // A named array: `*name`, the whole cell.
                            self.use_ref(out, id, Context::Flow);
                        }
                        Some(Value::Array(items)) if items.is_empty() => out.push_str("[]"),
                        Some(Value::Array(items)) => {
                            for item in items {
                                if let Some(id) = self.refs.of(item) {
                                    // A named object: `*name`.
                                    self.use_ref(out, id, Context::Flow);
                                } else if let Value::Object(m) = item {
                                    self.record(out, sub, m);
                                }
                            }
                        }
                        // Planning let only arrays of objects in.
                        _ => {}
                    }
                }
                Kind::Group(sub) => match v {
                    Some(Value::Object(m)) => self.cells(out, sub, Some(m), first, context),
                    Some(_) => {
                        // Null (planning let no other value into a group).
                        self.sep(out, first);
                        out.push('~');
                        let mut n = cells(sub);
                        n = n.saturating_sub(1);
                        for _ in 0..n {
                            out.push(self.delimiter);
                        }
                    }
                    None => self.cells(out, sub, None, first, context),
                },
            }
        }
    }

    /// One record `[…]` of a record list: the members of `m` under the fields
    /// `sub`, each a flow value, empty where `m` lacks the key.
    fn record(&mut self, out: &mut String, sub: &[Col<'_>], m: &Map) {
        out.push('[');
        let mut at = 0;
        for (i, c) in sub.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if let Some(v) = lookup(m, c.key, &mut at) {
                self.flow(out, v);
            }
        }
        out.push(']');
    }

    /// The fields of column `key` as a record list, when its arrays (every
    /// present value an array, or empty) make one and it costs fewer tokens
    /// than their flow cells: every item an object that is not empty, at
    /// least two in all, their keys in an order every object's keys keep
    /// (first-seen order when it is one, see [`Tally::fit_order`]: a record
    /// keeps its object's key order), at least half of the grid filled, at
    /// most [`MAX_CELLS`] fields. A named array is written `*name`, the
    /// whole cell, and a named object `*name` in place of its record; their
    /// objects' keys count among the fields as any other's.
    fn records_pay<'a>(&mut self, rows: &[&'a Map], key: &str) -> Option<Vec<Col<'a>>> {
        let mut objects: Vec<&'a Map> = Vec::new();
        for row in rows {
            if let Some(Value::Array(items)) = row.get(key) {
                for item in items {
                    match item {
                        Value::Object(m) => objects.push(m),
                        _ => return None,
                    }
                }
            }
        }
        if objects.len() < 2 {
            return None;
        }
        let mut tally = self.tally(&objects);
        if tally.keys.len() > MAX_CELLS || tally.fit_order(&objects) == Fit::None {
            return None;
        }
        let Tally { keys, census, .. } = tally;
        let sub: Vec<Col<'a>> = keys
            .iter()
            .zip(&census)
            .map(|(&key, c)| Col {
                key,
                optional: c.present < objects.len(),
                kind: Kind::Leaf,
            })
            .collect();
        // `dense` refuses empty objects and a sparse grid.
        if !dense(&sub, &objects) {
            return None;
        }
        let (leaf, table) = self.layouts(
            rows,
            key,
            Kind::Records(sub.iter().map(Col::copy).collect()),
        );
        // The header's `[]{…}` is counted with the record list.
        let mut header = String::from("[]{");
        self.fields(&mut header, &sub);
        header.push('}');
        let mut text = table.text;
        text.push_str(&header);
        self.cheaper_alone(&text, &leaf.text).then_some(sub)
    }

    /// The cells of column `key` of `kind` in every row, a line each,
    /// written on the side (the column optional: a row may lack the key).
    fn column(&mut self, rows: &[&Map], key: &str, kind: Kind<'_>) -> super::Fragment {
        self.column_until(rows, key, kind, None).0
    }

    /// [`Writer::column`]; with `stop`, a floor and a count, written no
    /// further once the floor under the text's count (read every
    /// [`FLOOR_ROWS`] rows) passes the count, and then the rows written.
    fn column_until(
        &mut self,
        rows: &[&Map],
        key: &str,
        kind: Kind<'_>,
        mut stop: Option<(crate::tokens::GrowingFloor, usize)>,
    ) -> (super::Fragment, Option<usize>) {
        let cols = [Col {
            key,
            optional: true,
            kind,
        }];
        let mut passed = None;
        let text = self.render(|w, o| {
            for (i, row) in rows.iter().enumerate() {
                let mut first = true;
                w.cells(o, &cols, Some(row), &mut first, Context::Cell);
                o.push('\n');
                if (i + 1) % FLOOR_ROWS == 0
                    && let Some((floor, cost)) = &mut stop
                    && floor.read(o) > *cost
                {
                    passed = Some(i + 1);
                    break;
                }
            }
        });
        (text, passed)
    }

    /// Column `key` written as one cell each (a leaf) and as `kind`, on the
    /// side, to be weighed against each other (see [`Writer::weighing`]).
    fn layouts(
        &mut self,
        rows: &[&Map],
        key: &str,
        kind: Kind<'_>,
    ) -> (super::Fragment, super::Fragment) {
        let leaf = self.column(rows, key, Kind::Leaf);
        let other = self.column(rows, key, kind);
        self.weighing(&leaf, &other);
        (leaf, other)
    }

    /// Whether the arrays of column `key` cost no more tokens as list cells
    /// than as flow cells.
    fn list_pays(&mut self, rows: &[&Map], key: &str) -> bool {
        let (leaf, list) = self.layouts(rows, key, Kind::List);
        !self.cheaper_alone(&leaf.text, &list.text)
    }

    /// Whether the cells of column `key` cost fewer tokens as the group
    /// `sub` than as one cell each.
    ///
    /// The group is written and counted first. Then a floor under the
    /// count of the cells one each, read off the values without writing
    /// them ([`Writer::leaf_floor`]), may already pass the group's: the
    /// group is cheaper, and the cells are not written at all. Otherwise
    /// they are written row by row, and no further once a floor under
    /// their count (read off the text as it grows) passes the group's: the
    /// group is cheaper then, whatever the rows left would cost. Otherwise
    /// they are weighed whole, as [`Writer::cheaper_alone`] weighs.
    ///
    /// `unweighed`: a writer without references takes the group here
    /// without weighing it (it is weighed only because some of the objects
    /// are named). Then a group that wins is that writer's choice too, and
    /// weighing it does not sway this writer (see [`Writer::weighing`]);
    /// a group that loses does. Whatever swayed it while the two layouts
    /// were written still does. Where that writer weighs too, a group that
    /// wins before the cells one each were all written sways this writer
    /// if it has names at all: the rows not written might have held one.
    fn group_pays(&mut self, rows: &[&Map], key: &str, sub: &[Col<'_>], unweighed: bool) -> bool {
        let group = self.column(rows, key, Kind::Group(sub.iter().map(Col::copy).collect()));
        let tokenizer = self.lines.tokenizer();
        let cost = tokenizer.count(&group.text);
        // The floors are ones under tokens of the exact tokenizers only.
        let floors = tokenizer.kind().is_exact() && Writer::streams_floors();
        if floors && self.leaf_floor(rows, key, cost) > cost {
            // No cell one each was written: whatever names they would have
            // used, a writer that weighs too is swayed if there are any.
            if !unweighed {
                self.swayed |= !self.refs.names.is_empty();
            }
            return true;
        }
        let stop = floors.then(|| (crate::tokens::GrowingFloor::default(), cost));
        let (leaf, passed) = self.column_until(rows, key, Kind::Leaf, stop);
        let pays = passed.is_some() || self.costs_more(&leaf.text, cost);
        if !(pays && unweighed) {
            self.weighing(&leaf, &group);
        }
        if !unweighed && passed.is_some_and(|written| written < rows.len()) {
            self.swayed |= !self.refs.names.is_empty();
        }
        pays
    }

    /// A floor under the o200k_base and cl100k_base token count of column
    /// `key` of `rows` written one cell each, a line per row (what
    /// [`Writer::column`] writes with [`Kind::Leaf`]), read off the values
    /// without writing them, and read no further once it passes `stop`.
    ///
    /// A row's cell writes the keys and primitives of the value between
    /// punctuation (a brace, a bracket, a colon, a comma or a quote, never
    /// a letter, a digit or a joiner), so the runs of letters and digits in
    /// each take the pieces [`crate::runs`] counts ([`string_pieces`]),
    /// and `true`, `false` and `null` one each; a value written `*name`
    /// counts nothing. No piece that holds a letter or a digit holds a line
    /// break, and a row with the key writes a cell that is not empty and
    /// then a line break: a run of line breaks, in a piece no other row's
    /// shares.
    fn leaf_floor(&self, rows: &[&Map], key: &str, stop: usize) -> usize {
        let mut floor = 0;
        let mut number = String::new();
        // Where the key was in the row before: rows mostly hold it there.
        let mut at = 0;
        for row in rows {
            if let Some(i) = row.index_of_from(key, at)
                && let Some((_, v)) = row.get_index(i)
            {
                at = i;
                floor += 1 + self.flow_floor(v, &mut number);
                if floor > stop {
                    break;
                }
            }
        }
        floor
    }

    /// The pieces of `v` written as a cell or a flow value that
    /// [`Writer::leaf_floor`] counts; `number` is room to spell numbers in.
    fn flow_floor(&self, v: &Value, number: &mut String) -> usize {
        if self.refs.of(v).is_some() {
            return 0;
        }
        match v {
            Value::Object(m) => m
                .iter()
                .map(|(k, child)| string_pieces(k.as_bytes()) + self.flow_floor(child, number))
                .sum(),
            Value::Array(items) => items.iter().map(|i| self.flow_floor(i, number)).sum(),
            Value::String(s) => string_pieces(s.as_bytes()),
            // An integer is its digits (and a sign): one run of them,
            // `ceil(n / 3)` pieces, told without spelling it.
            Value::Number(n) => match n.as_i64() {
                Some(i) => (i.unsigned_abs().checked_ilog10().unwrap_or(0) as usize + 3) / 3,
                None => {
                    number.clear();
                    super::push_number(number, n);
                    string_pieces(number.as_bytes())
                }
            },
            Value::Bool(_) | Value::Null => 1,
        }
    }

    fn sep(&self, out: &mut String, first: &mut bool) {
        if *first {
            *first = false;
        } else {
            out.push(self.delimiter);
        }
    }
}

/// `m[key]`, trying the entry after the last one found first: rows mostly
/// hold their keys in the header's order.
fn lookup<'m>(m: &'m Map, key: &str, at: &mut usize) -> Option<&'m Value> {
    let i = m.index_of_from(key, *at)?;
    *at = i + 1;
    m.get_index(i).map(|(_, v)| v)
}

/// Whether `row` fills at least one cell of `cols`.
fn has_cell(cols: &[Col<'_>], row: &Map) -> bool {
    cols.iter().any(|c| match (&c.kind, row.get(c.key)) {
        (Kind::Derived(_), _) | (_, None) => false,
        (Kind::Group(sub), Some(Value::Object(m))) => has_cell(sub, m),
        (_, Some(_)) => true,
    })
}

/// The number of cells a row of these columns has.
pub(super) fn cells(cols: &[Col<'_>]) -> usize {
    cols.iter()
        .map(|c| match &c.kind {
            Kind::Leaf | Kind::List | Kind::Records(_) => 1,
            Kind::Group(sub) => cells(sub),
            Kind::Derived(_) => 0,
        })
        .sum()
}

fn count_derived(cols: &[Col<'_>]) -> usize {
    cols.iter()
        .map(|c| match &c.kind {
            Kind::Derived(_) => 1,
            Kind::Group(sub) => count_derived(sub),
            Kind::Leaf | Kind::List | Kind::Records(_) => 0,
        })
        .sum()
}

/// Whether a group (or a record list) of `sub` over the objects `rows` is
/// worth its columns: at least half of its cells filled, at least one cell,
/// no object empty. (That every object keeps its key order under `sub` is
/// [`Tally::fit_order`]'s to say.)
fn dense(sub: &[Col<'_>], rows: &[&Map]) -> bool {
    let width = sub.len();
    if width == 0 || cells(sub) == 0 || rows.iter().any(|m| m.is_empty()) {
        return false;
    }
    let filled: usize = rows.iter().map(|m| m.len()).sum();
    filled * 2 >= width * rows.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn objects(texts: &[&str]) -> Vec<Map> {
        texts
            .iter()
            .map(|t| {
                let v = crate::json::parse(t).unwrap();
                v.as_object().expect("an object").clone()
            })
            .collect()
    }

    /// The merged order of the objects' keys, taken from first-seen order.
    fn merged(texts: &[&str]) -> Option<Vec<String>> {
        let objects = objects(texts);
        let refs: Vec<&Map> = objects.iter().collect();
        let mut keys: Vec<&str> = Vec::new();
        for m in &refs {
            for k in m.keys() {
                if !keys.contains(&k.as_str()) {
                    keys.push(k);
                }
            }
        }
        let order = merged_order(&keys, &refs)?;
        let merged: Vec<&str> = order.iter().map(|&i| keys[i]).collect();
        assert!(in_order(&merged, &refs), "{merged:?}");
        Some(merged.iter().map(|k| k.to_string()).collect())
    }

    #[test]
    fn key_orders_merge_where_the_objects_agree() {
        assert_eq!(
            merged(&[r#"{"a":1,"c":1}"#, r#"{"a":1,"b":1,"c":1}"#]).unwrap(),
            ["a", "b", "c"]
        );
        // At each place, the earliest-seen key the objects allow there.
        assert_eq!(
            merged(&[r#"{"x":1,"y":1}"#, r#"{"b":1,"y":1}"#, r#"{"a":1,"x":1}"#]).unwrap(),
            ["b", "a", "x", "y"]
        );
        assert_eq!(
            merged(&[r#"{"k":1}"#, r#"{"j":1,"k":1}"#, r#"{"i":1,"j":1}"#]).unwrap(),
            ["i", "j", "k"]
        );
        // Two objects that hold two keys in opposite orders, directly or
        // through a third key: no order fits.
        assert_eq!(merged(&[r#"{"a":1,"b":1}"#, r#"{"b":1,"a":1}"#]), None);
        assert_eq!(
            merged(&[r#"{"a":1,"b":1}"#, r#"{"b":1,"c":1}"#, r#"{"c":1,"a":1}"#]),
            None
        );
        // More than 64 keys are not merged.
        let wide: String = (0..65)
            .rev()
            .map(|i| format!("\"k{i}\":1"))
            .collect::<Vec<_>>()
            .join(",");
        let wide = format!("{{{wide}}}");
        assert_eq!(merged(&[r#"{"k0":1}"#, &wide]), None);
        // A key outside the tally is not placed.
        let objects = objects(&[r#"{"a":1,"z":1}"#]);
        let refs: Vec<&Map> = objects.iter().collect();
        assert_eq!(merged_order(&["a"], &refs), None);
        assert!(!in_order(&["a"], &refs));
    }

    /// A value for a cell: primitives of every kind, mostly plain words
    /// and numbers (where the floor comes close to the count) but also
    /// strings with bytes pieces join across, and flow containers of them.
    fn cell() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let regex = |r: &str| proptest::string::string_regex(r).expect("a regex");
        let text = prop_oneof![
            4 => regex("[a-zA-Z]{1,10}"),
            3 => regex("[a-z0-9]{1,12}"),
            2 => regex("[a-z]{1,6}[ ._:/,-][a-z0-9]{1,6}"),
            1 => regex("[a-zA-Z0-9 ,.:'\"\\\\{}\\[\\]*&~\u{e9}\u{4e2d}\n_-]{0,12}"),
        ];
        let number = prop_oneof![
            4 => (0i64..100_000).prop_map(Value::from),
            2 => any::<i64>().prop_map(Value::from),
            2 => any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            1 => Just(crate::json::parse("123456789012345678901234567890").unwrap()),
            1 => Just(crate::json::parse("-0.000001e-30").unwrap()),
        ];
        let leaf = prop_oneof![
            4 => text.prop_map(Value::from),
            3 => number,
            1 => any::<bool>().prop_map(Value::from),
            1 => Just(Value::Null),
        ];
        leaf.prop_recursive(3, 24, 4, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec(
                    (
                        prop_oneof![4 => regex("[a-z]{1,8}"), 1 => regex("[a-z'\u{e9} -]{0,6}")],
                        inner
                    ),
                    0..4
                )
                .prop_map(|members| {
                    let mut m = Map::new();
                    for (k, v) in members {
                        m.insert(k, v);
                    }
                    Value::Object(m)
                }),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

        /// The floor `group_pays` reads off the values is never above the
        /// count of the cells one each as written, in either tokenizer:
        /// rows without the key, repeated values (named, `*name`) and
        /// strings pieces join across among them.
        #[test]
        fn the_leaf_floor_is_under_the_cells_count(
            cells in proptest::collection::vec(proptest::option::weighted(0.85, cell()), 1..24),
            repeat in 0usize..4,
        ) {
            let rows: Vec<Value> = cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let mut m = Map::new();
                    m.insert("id", Value::from(i));
                    // Some rows repeat an earlier row's cell, to be named.
                    let c = if repeat > 0 && i % (repeat + 1) == repeat { &cells[0] } else { c };
                    if let Some(c) = c {
                        m.insert("c", c.clone());
                    }
                    Value::Object(m)
                })
                .collect();
            let root = Value::Array(rows);
            for kind in [crate::tokens::TokenizerKind::O200k, crate::tokens::TokenizerKind::Cl100k] {
                let tokenizer = crate::tokens::Tokenizer::get(kind);
                let refs = super::super::refs::Refs::find(&root, tokenizer);
                let opts = crate::notation::Options::default().references(true).tokenizer(kind);
                let mut w = Writer::new(&opts, &refs);
                let maps: Vec<&Map> = root
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_object().unwrap())
                    .collect();
                let floor = w.leaf_floor(&maps, "c", usize::MAX);
                let text = w.column(&maps, "c", Kind::Leaf).text;
                let count = tokenizer.count(&text);
                proptest::prop_assert!(floor <= count, "{kind:?}: floor {floor} > {count} of {text:?}");
            }
        }
    }
}
