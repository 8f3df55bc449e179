//! The collections of a document, their row weights, and the cut rule.
//!
//! One pass over the document writes its compact JSON (whose hash binds
//! cursors to the document) and records, for every array, the weight of
//! each row: the bytes of the row's compact JSON with the arrays nested in
//! it counted as `[]`. A cut is then a threshold `t` on those weights (see
//! [`Tree::config`]), evaluated without touching the document again.

use crate::{Map, Value, json};

/// What a receipt is reckoned to weigh, in bytes of JSON, before the digits
/// of its counts: about the size of `"x_omitted":{"total":…,"cursor":"…"}`.
const RECEIPT_BASE: u64 = 64;

/// One array of the document.
pub(super) struct Coll<'a> {
    /// Every row of the array.
    pub rows: &'a [Value],
    /// The first row that may be shown (a page's cursor offset, else 0).
    pub from: usize,
    /// `prefix[i]`: the weight of the `i` rows from `from`.
    pub prefix: Vec<u64>,
    /// Row `i`'s nested collections are `children[child_start[i]..child_start[i + 1]]`;
    /// empty when no row has any.
    child_start: Vec<u32>,
    children: Vec<u32>,
    /// The reckoned weight of this collection's receipt.
    pub receipt: u64,
    /// Bytes of this array's compact JSON (from `from`).
    span: u64,
    /// The collection a page continues: it always shows a row and has a receipt.
    pub page: bool,
}

impl Coll<'_> {
    /// Rows that may be shown (from `from` to the end).
    pub fn len(&self) -> usize {
        self.prefix.len() - 1
    }

    /// The weight of every row that may be shown.
    pub fn full(&self) -> u64 {
        self.prefix.last().copied().unwrap_or(0)
    }

    /// The collections nested in row `i` (counted from `from`), in document order.
    pub fn kids(&self, i: usize) -> &[u32] {
        match (self.child_start.get(i), self.child_start.get(i + 1)) {
            (Some(&a), Some(&b)) => self.children.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// How many rows to show under threshold `t`.
    fn shown(&self, t: u64) -> usize {
        let m = self.len();
        let full = self.full();
        let k = if full <= t || self.span <= self.receipt {
            // A collection within the threshold, or whose whole text (the
            // collections nested in it included) is no larger than its own
            // receipt, is shown whole: cutting it would save nothing. Its
            // rows' weights alone do not tell that: they count a nested
            // array as `[]`, and an array of arrays weighs next to nothing.
            m
        } else {
            self.prefix
                .partition_point(|&p| p.saturating_add(self.receipt) <= t)
                .saturating_sub(1)
                .min(m)
        };
        if self.page { k.max(1).min(m) } else { k }
    }
}

/// Every collection of a document (or of a page), in document order.
pub(super) struct Tree<'a> {
    pub colls: Vec<Coll<'a>>,
    /// Collections outside every other collection, in document order.
    pub roots: Vec<u32>,
    /// The compact JSON of what was scanned.
    pub json: Vec<u8>,
    /// Receipt suffixes the document's own keys rule out.
    forbidden: Vec<String>,
    /// A threshold at which every collection is shown whole.
    pub max_t: u64,
}

/// The outcome of a threshold: rows shown per collection.
pub(super) struct Config {
    /// Rows shown, per collection; meaningful for the collections a shown
    /// row (or the document outside collections) holds.
    pub shown: Vec<usize>,
    stack: Vec<u32>,
}

/// The totals of one threshold.
#[derive(Debug, Clone, Copy)]
pub(super) struct Eval {
    /// Weight of the shown rows plus reckoned receipts.
    pub weight: u64,
    /// The smallest threshold above this one that shows another row;
    /// `u64::MAX` when every collection is whole.
    pub next: u64,
}

impl<'a> Tree<'a> {
    /// Scans a whole document.
    pub fn document(doc: &'a Value) -> Tree<'a> {
        let mut s = Scanner::default();
        let mut roots = Vec::new();
        s.value(doc, &mut roots);
        s.finish(roots)
    }

    /// Scans the rows of one array from `from`, as the collection a page continues.
    pub fn page(rows: &'a [Value], from: usize) -> Tree<'a> {
        let mut s = Scanner::default();
        let id = s.array(rows, from, true);
        s.finish(vec![id])
    }

    /// The receipt key suffix: `_omitted`, or `_omitted_2`, `_omitted_3`, …
    /// when the document has a key `k_omitted` beside an array `k`.
    pub fn suffix(&self) -> String {
        let mut n = 1usize;
        loop {
            let s = if n == 1 {
                super::RECEIPT_SUFFIX.to_owned()
            } else {
                format!("{}_{n}", super::RECEIPT_SUFFIX)
            };
            if !self.forbidden.contains(&s) {
                return s;
            }
            n += 1;
        }
    }

    /// A fresh configuration for this tree.
    pub fn new_config(&self) -> Config {
        Config {
            shown: vec![0; self.colls.len()],
            stack: Vec::new(),
        }
    }

    /// Applies threshold `t`: every visible collection shows its longest
    /// prefix whose weight plus its receipt's is at most `t` (all of it if
    /// its whole weight is at most `t` or at most its receipt's), and the
    /// collections inside shown rows become visible in turn.
    pub fn config(&self, t: u64, cfg: &mut Config) -> Eval {
        let mut weight = 0u64;
        let mut next = u64::MAX;
        cfg.stack.clear();
        cfg.stack.extend(self.roots.iter().rev());
        while let Some(id) = cfg.stack.pop() {
            let Some(c) = self.colls.get(id as usize) else {
                continue;
            };
            let m = c.len();
            let k = c.shown(t);
            if let Some(slot) = cfg.shown.get_mut(id as usize) {
                *slot = k;
            }
            let shown_weight = c.prefix.get(k).copied().unwrap_or(0);
            if k < m {
                weight = weight.saturating_add(shown_weight + c.receipt);
                let step = c.prefix.get(k + 1).copied().unwrap_or(u64::MAX);
                next = next.min(step.saturating_add(c.receipt).min(c.full()));
            } else {
                weight = weight.saturating_add(shown_weight + if c.page { c.receipt } else { 0 });
            }
            for i in (0..k).rev() {
                cfg.stack.extend(c.kids(i).iter().rev());
            }
        }
        Eval { weight, next }
    }

    /// Rows in every collection.
    pub fn total_rows(&self) -> usize {
        self.colls.iter().map(Coll::len).sum()
    }
}

#[derive(Default)]
struct Scanner<'a> {
    buf: Vec<u8>,
    colls: Vec<Coll<'a>>,
    forbidden: Vec<String>,
}

impl<'a> Scanner<'a> {
    fn finish(self, roots: Vec<u32>) -> Tree<'a> {
        let max_t = self
            .colls
            .iter()
            .map(|c| c.full().max(c.receipt))
            .max()
            .unwrap_or(0);
        Tree {
            colls: self.colls,
            roots,
            json: self.buf,
            forbidden: self.forbidden,
            max_t,
        }
    }

    /// Writes `v`, registering the arrays it holds outside other arrays in `kids`.
    fn value(&mut self, v: &'a Value, kids: &mut Vec<u32>) {
        match v {
            Value::Object(m) => {
                self.buf.push(b'{');
                for (j, (key, val)) in m.iter().enumerate() {
                    if j > 0 {
                        self.buf.push(b',');
                    }
                    json::write_str_into(key, &mut self.buf);
                    self.buf.push(b':');
                    self.value(val, kids);
                }
                self.buf.push(b'}');
                self.note_suffixes(m);
            }
            Value::Array(rows) => {
                let id = self.array(rows, 0, false);
                kids.push(id);
            }
            _ => json::write_into(v, &mut self.buf),
        }
    }

    fn array(&mut self, rows: &'a [Value], from: usize, page: bool) -> u32 {
        let id = self.colls.len() as u32;
        let rows_shown = rows.get(from..).unwrap_or(&[]);
        self.colls.push(Coll {
            rows,
            from,
            prefix: Vec::new(),
            child_start: Vec::new(),
            children: Vec::new(),
            receipt: 0,
            span: 0,
            page,
        });
        let start = self.buf.len();
        self.buf.push(b'[');
        let mut prefix = Vec::with_capacity(rows_shown.len() + 1);
        prefix.push(0u64);
        let mut children: Vec<u32> = Vec::new();
        let mut child_start: Vec<u32> = Vec::with_capacity(rows_shown.len() + 1);
        child_start.push(0);
        for (i, row) in rows_shown.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            let row_start = self.buf.len();
            let first_kid = children.len();
            self.value(row, &mut children);
            // The row's bytes and its comma, less what its nested collections hold.
            let mut w = (self.buf.len() - row_start) as u64 + 1;
            for &kid in children.get(first_kid..).unwrap_or(&[]) {
                let span = self.colls.get(kid as usize).map_or(2, |c| c.span);
                w = w.saturating_sub(span.saturating_sub(2));
            }
            let last = prefix.last().copied().unwrap_or(0);
            prefix.push(last + w);
            child_start.push(children.len() as u32);
        }
        self.buf.push(b']');
        if children.is_empty() {
            child_start = Vec::new();
        }
        let digits = rows.len().max(1).ilog10() as u64 + 1;
        if let Some(c) = self.colls.get_mut(id as usize) {
            c.prefix = prefix;
            c.child_start = child_start;
            c.children = children;
            c.receipt = RECEIPT_BASE + 3 * digits;
            c.span = (self.buf.len() - start) as u64;
        }
        id
    }

    /// Records the suffixes `s` for which this object has a key `k + s`
    /// beside an array `k`: a receipt under such a name would be mistaken
    /// for the producer's key, or overwrite it.
    fn note_suffixes(&mut self, m: &Map) {
        let base = super::RECEIPT_SUFFIX;
        for key in m.keys() {
            for (p, _) in key.match_indices(base) {
                let (stem, suffix) = key.split_at(p);
                if matches!(m.get(stem), Some(Value::Array(_)))
                    && !self.forbidden.iter().any(|f| f == suffix)
                {
                    self.forbidden.push(suffix.to_owned());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Value {
        json::parse(text).unwrap()
    }

    #[test]
    fn scan_writes_the_documents_compact_json() {
        let v = doc(r#"{"a":[1,{"b":[2,[3,"x\n"]]}],"c":{"d":[]},"e":1e400}"#);
        let tree = Tree::document(&v);
        assert_eq!(tree.json, json::stringify(&v).into_bytes());
        // a, a[1].b, a[1].b[1], c.d
        assert_eq!(tree.colls.len(), 4);
        assert_eq!(tree.roots, [0, 3]);
        assert_eq!(tree.colls[0].kids(1), [1]);
        assert_eq!(tree.colls[1].kids(1), [2]);
    }

    #[test]
    fn weights_leave_out_nested_collections() {
        let v = doc(r#"[{"id":1,"tags":["a","b"]},{"id":22,"tags":[]}]"#);
        let tree = Tree::document(&v);
        let rows = &tree.colls[0];
        // `{"id":1,"tags":[]}` and a comma; `{"id":22,"tags":[]}` and a comma.
        assert_eq!(rows.prefix, [0, 19, 39]);
        assert_eq!(tree.colls[1].prefix, [0, 4, 8]);
    }

    #[test]
    fn threshold_shows_whole_small_collections_and_cuts_large_ones() {
        let long: Vec<String> = (0..100).map(|i| format!("\"{i:04}\"")).collect();
        let v = doc(&format!(r#"{{"small":[1,2],"long":[{}]}}"#, long.join(",")));
        let tree = Tree::document(&v);
        let mut cfg = tree.new_config();
        let e0 = tree.config(0, &mut cfg);
        assert_eq!(cfg.shown, [2, 0]);
        let r = tree.colls[1].receipt;
        assert_eq!(e0.next, 7 + r);
        tree.config(7 * 10 + r, &mut cfg);
        assert_eq!(cfg.shown, [2, 10]);
        let all = tree.config(tree.max_t, &mut cfg);
        assert_eq!(cfg.shown, [2, 100]);
        assert_eq!(all.next, u64::MAX);
    }

    #[test]
    fn weight_grows_with_the_threshold() {
        let v = doc(
            r#"{"a":[{"x":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30]},{"x":[5]},{"y":"long text long text long text long text long text long text"}],"b":[[1,2],[3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35]]}"#,
        );
        let tree = Tree::document(&v);
        let mut cfg = tree.new_config();
        let mut last = 0;
        for t in 0..=tree.max_t {
            let e = tree.config(t, &mut cfg);
            assert!(e.weight >= last, "weight fell at t = {t}");
            assert!(e.next > t);
            last = e.weight;
        }
    }

    #[test]
    fn suffix_avoids_producer_keys() {
        let plain = doc(r#"{"a":[1],"b_omitted":1}"#);
        assert_eq!(Tree::document(&plain).suffix(), "_omitted");
        let taken = doc(r#"{"a":[1],"a_omitted":1,"x":[{"b":[],"b_omitted_2":0}]}"#);
        assert_eq!(Tree::document(&taken).suffix(), "_omitted_3");
        // Beside a non-array the name is free: a reader looks for receipts only beside arrays.
        let scalar = doc(r#"{"a":1,"a_omitted":1}"#);
        assert_eq!(Tree::document(&scalar).suffix(), "_omitted");
    }
}
