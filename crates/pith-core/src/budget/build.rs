//! Builds the output value of a configuration: shown rows, in order, with a
//! receipt beside each cut collection.

use super::RESULT;
use super::cursor::Cursor;
use super::plan::{Config, Tree};
use crate::{Map, Value};

/// Builds output values for one tree and one configuration at a time.
pub(super) struct Builder<'t, 'a> {
    pub tree: &'t Tree<'a>,
    pub cfg: &'t Config,
    pub suffix: &'t str,
    pub doc_hash: u64,
    /// The place being built, in the original document's positions.
    path: Vec<usize>,
    /// Collections cut so far.
    pub cut: usize,
    /// Rows left out of the collections cut so far.
    pub omitted: usize,
}

impl<'t, 'a> Builder<'t, 'a> {
    pub fn new(tree: &'t Tree<'a>, cfg: &'t Config, suffix: &'t str, doc_hash: u64) -> Self {
        Builder {
            tree,
            cfg,
            suffix,
            doc_hash,
            path: Vec::new(),
            cut: 0,
            omitted: 0,
        }
    }

    /// The root object of a whole document's output, and whether the
    /// document had to go under `result` (a root that is not an object, or
    /// an object with its own `read_output` key).
    pub fn document(&mut self, doc: &Value) -> (Map, bool) {
        let mut kids = self.tree.roots.iter().copied();
        match doc {
            Value::Object(m) if !m.contains_key(super::READ_OUTPUT) => {
                (self.object(m, &mut kids), false)
            }
            Value::Object(m) => {
                let mut root = Map::new();
                root.push_unique(RESULT.to_owned(), Value::Object(self.object(m, &mut kids)));
                (root, true)
            }
            Value::Array(rows) => {
                let mut root = Map::new();
                self.member(&mut root, RESULT, rows, &mut kids);
                (root, true)
            }
            other => {
                let mut root = Map::new();
                root.push_unique(RESULT.to_owned(), other.clone());
                (root, true)
            }
        }
    }

    /// The root object of a page: the continued collection under `result`,
    /// its receipt beside it. `path` is the collection's place.
    pub fn page(&mut self, path: &[usize]) -> Map {
        self.path = path.to_vec();
        let mut root = Map::new();
        if let Some(&id) = self.tree.roots.first() {
            self.keyed(&mut root, RESULT, id);
        }
        root
    }

    fn object(&mut self, m: &Map, kids: &mut impl Iterator<Item = u32>) -> Map {
        let mut out = Map::with_capacity(m.len());
        for (j, (key, val)) in m.iter().enumerate() {
            self.path.push(j);
            match val {
                Value::Array(rows) => self.member(&mut out, key, rows, kids),
                Value::Object(inner) => {
                    let v = Value::Object(self.object(inner, kids));
                    out.push_unique(key.clone(), v);
                }
                _ => out.push_unique(key.clone(), val.clone()),
            }
            self.path.pop();
        }
        out
    }

    /// Adds the array member `key` (at the current path) and its receipt.
    fn member(
        &mut self,
        out: &mut Map,
        key: &str,
        rows: &[Value],
        kids: &mut impl Iterator<Item = u32>,
    ) {
        let Some(id) = kids.next() else {
            // The scan registers every array the walk meets, in the same
            // order; an array without an entry would be a walk out of step.
            debug_assert!(false, "array without a scanned collection");
            out.push_unique(key.to_owned(), Value::Array(rows.to_vec()));
            return;
        };
        self.keyed(out, key, id);
    }

    /// Adds collection `id` under `key` (at the current path), and its
    /// receipt beside it.
    fn keyed(&mut self, out: &mut Map, key: &str, id: u32) {
        let mut nested = Vec::new();
        let shown = self.array(id, &mut Vec::new(), &mut nested);
        out.push_unique(key.to_owned(), shown);
        if let Some(receipt) = self.receipt(id, None, nested) {
            out.push_unique(format!("{key}{}", self.suffix), receipt);
        }
    }

    /// The shown rows of collection `id`. Receipts of arrays that are rows
    /// of arrays (which have no key to sit beside) go to `nested`, with
    /// their place `at` below the nearest keyed array.
    fn array(&mut self, id: u32, at: &mut Vec<usize>, nested: &mut Vec<Value>) -> Value {
        let tree = self.tree;
        let Some(c) = tree.colls.get(id as usize) else {
            return Value::Array(Vec::new());
        };
        let k = self.cfg.shown.get(id as usize).copied().unwrap_or(0);
        let mut out = Vec::with_capacity(k);
        for i in 0..k {
            let abs = c.from + i;
            let Some(row) = c.rows.get(abs) else { break };
            let kids = c.kids(i);
            self.path.push(abs);
            let v = match row {
                Value::Array(_) => match kids.first() {
                    Some(&kid) => {
                        at.push(abs);
                        // Reserved now so that receipts list outer arrays before inner ones.
                        let slot = nested.len();
                        nested.push(Value::Null);
                        let v = self.array(kid, at, nested);
                        match self.receipt(kid, Some(at), Vec::new()) {
                            Some(r) => nested[slot] = r,
                            None => {
                                nested.remove(slot);
                            }
                        }
                        at.pop();
                        v
                    }
                    None => row.clone(),
                },
                Value::Object(m) if !kids.is_empty() => {
                    Value::Object(self.object(m, &mut kids.iter().copied()))
                }
                _ => row.clone(),
            };
            self.path.pop();
            out.push(v);
        }
        Value::Array(out)
    }

    /// The receipt of collection `id` at the current path, if it needs one:
    /// when rows were cut, when it is a page's collection, or to carry the
    /// receipts of arrays nested in it as rows.
    fn receipt(&mut self, id: u32, at: Option<&[usize]>, nested: Vec<Value>) -> Option<Value> {
        let c = self.tree.colls.get(id as usize)?;
        let k = self.cfg.shown.get(id as usize).copied().unwrap_or(0);
        let cut = k < c.len();
        if !cut && !c.page && nested.is_empty() {
            return None;
        }
        let total = c.rows.len();
        let mut r = Map::with_capacity(7);
        if let Some(at) = at {
            r.push_unique(
                "at",
                Value::Array(at.iter().map(|&i| Value::from(i)).collect()),
            );
        }
        r.push_unique("total", Value::from(total));
        if c.page {
            r.push_unique("from", Value::from(c.from));
        }
        r.push_unique("shown", Value::from(k));
        r.push_unique("omitted", Value::from(total - k));
        if cut {
            self.cut += 1;
            self.omitted += c.len() - k;
            let cursor = Cursor::new(self.doc_hash, &self.path, c.from + k);
            r.push_unique("cursor", Value::from(cursor.to_string()));
        }
        if !nested.is_empty() {
            r.push_unique("nested", Value::Array(nested));
        }
        Some(Value::Object(r))
    }
}
