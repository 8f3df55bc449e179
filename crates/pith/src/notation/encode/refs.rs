//! Which subtrees and strings become named references (`docs/notation.md` §7).
//!
//! One walk hashes every container and every long string, bottom-up, with
//! its compact-JSON size. Values whose hash occurs more than once are sorted
//! into classes of equal values (equality is exact, key order included).
//! Classes are then taken greedily, largest first: a class is named when
//! the bytes its repeats cost exceed what the definition and the `*name`
//! uses cost. Taking a class removes all but one copy of everything inside
//! it, so the counts of the classes inside are lowered before they are
//! considered; the greedy order (largest first) means every class is judged
//! with the counts the document will really have.

use crate::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

/// Containers smaller than this (compact-JSON bytes) are never named.
const MIN_SUBTREE: usize = 40;
/// Strings shorter than this are never named.
const MIN_STRING: usize = 32;
/// Longest name, in bytes.
const MAX_NAME: usize = 48;
/// Members that tell an object's identity, in the order they are tried.
const IDENTITY_KEYS: [&str; 8] = [
    "login",
    "full_name",
    "slug",
    "name",
    "key",
    "sha",
    "id",
    "number",
];

/// The references of one document: for each value to be written as
/// `*name`, its name.
pub(super) struct Refs<'a> {
    /// Address of a value node → index into `names`.
    at: HashMap<usize, u32>,
    /// Names, and one representative value for each.
    pub(super) names: Vec<(String, &'a Value)>,
}

impl<'a> Refs<'a> {
    /// No references.
    pub(super) fn none() -> Refs<'a> {
        Refs {
            at: HashMap::new(),
            names: Vec::new(),
        }
    }

    /// Finds the references worth making in `root`.
    pub(super) fn find(root: &'a Value) -> Refs<'a> {
        let mut walk = Walk::default();
        walk.visit(root, "item", false);
        walk.choose()
    }

    /// The reference that stands for `v`, if any.
    #[inline]
    pub(super) fn of(&self, v: &Value) -> Option<u32> {
        if self.at.is_empty() {
            return None;
        }
        self.at.get(&(v as *const Value as usize)).copied()
    }

    /// Whether there are no references at all.
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[derive(Default)]
struct Walk<'a> {
    /// Every candidate node, in document order (preorder).
    nodes: Vec<Node<'a>>,
}

struct Node<'a> {
    value: &'a Value,
    hash: u64,
    size: usize,
    /// The key the node stands under (`item` for an array element).
    key: &'a str,
    /// Candidate nodes inside this one: `nodes[self+1 .. end]`.
    end: usize,
}

impl<'a> Walk<'a> {
    /// Returns the hash and compact-JSON size of `v`, recording candidates.
    fn visit(&mut self, v: &'a Value, key: &'a str, id_like: bool) -> (u64, usize) {
        match v {
            Value::Null => (0x6e75_6c6c, 4),
            Value::Bool(b) => (0x626f_6f6c ^ u64::from(*b), 5),
            Value::Number(n) => {
                let mut h = Fx::default();
                n.hash(&mut h);
                (h.finish() ^ 0x6e75_6d00, 8)
            }
            Value::String(s) => {
                let mut h = Fx::default();
                h.write(s.as_bytes());
                let hash = h.finish() ^ 0x7374_7200;
                let size = s.len() + 2;
                if s.len() >= MIN_STRING && !id_like {
                    let at = self.nodes.len();
                    self.nodes.push(Node {
                        value: v,
                        hash,
                        size,
                        key,
                        end: at + 1,
                    });
                }
                (hash, size)
            }
            Value::Array(items) => {
                let at = self.reserve(v, key);
                let mut h = Fx::default();
                h.write_u64(0x6172_7200 ^ items.len() as u64);
                let mut size = 2 + items.len().saturating_sub(1);
                for item in items {
                    let (ih, is) = self.visit(item, key_of_item(key), false);
                    h.write_u64(ih);
                    size += is;
                }
                self.finish(at, h.finish(), size)
            }
            Value::Object(m) => {
                let at = self.reserve(v, key);
                let mut h = Fx::default();
                h.write_u64(0x6f62_6a00 ^ m.len() as u64);
                let mut size = 2 + m.len().saturating_sub(1);
                for (k, child) in m.iter() {
                    let (ch, cs) = self.visit(child, k, is_id_like(k));
                    h.write(k.as_bytes());
                    h.write_u64(ch);
                    size += k.len() + 3 + cs;
                }
                self.finish(at, h.finish(), size)
            }
        }
    }

    fn reserve(&mut self, v: &'a Value, key: &'a str) -> usize {
        self.nodes.push(Node {
            value: v,
            hash: 0,
            size: 0,
            key,
            end: 0,
        });
        self.nodes.len() - 1
    }

    fn finish(&mut self, at: usize, hash: u64, size: usize) -> (u64, usize) {
        let end = self.nodes.len();
        let n = &mut self.nodes[at];
        n.hash = hash;
        n.size = size;
        n.end = end;
        (hash, size)
    }

    fn choose(self) -> Refs<'a> {
        let nodes = self.nodes;
        // Hashes seen more than once are the only ones worth classifying.
        let mut seen: HashMap<u64, u32> = HashMap::new();
        for n in &nodes {
            if n.size >= MIN_SUBTREE {
                *seen.entry(n.hash).or_default() += 1;
            }
        }
        // Classes of equal values: the node index of each class's first
        // member, and each node's class.
        let mut reps: Vec<usize> = Vec::new();
        let mut by_hash: HashMap<u64, Vec<u32>> = HashMap::new();
        let mut class_of: Vec<u32> = vec![u32::MAX; nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            if n.size < MIN_SUBTREE || seen.get(&n.hash).copied().unwrap_or(0) < 2 {
                continue;
            }
            let list = by_hash.entry(n.hash).or_default();
            let found = list
                .iter()
                .copied()
                .find(|&c| nodes[reps[c as usize]].value == n.value);
            let c = match found {
                Some(c) => c,
                None => {
                    let c = reps.len() as u32;
                    reps.push(i);
                    list.push(c);
                    c
                }
            };
            class_of[i] = c;
        }
        let mut count = vec![0usize; reps.len()];
        for &c in &class_of {
            if c != u32::MAX {
                count[c as usize] += 1;
            }
        }
        let mut order: Vec<u32> = (0..reps.len() as u32)
            .filter(|&c| count[c as usize] >= 2)
            .collect();
        // Largest first; ties in document order.
        order.sort_by_key(|&c| (std::cmp::Reverse(nodes[reps[c as usize]].size), reps[c as usize]));
        let mut names: Vec<(String, &'a Value)> = Vec::new();
        let mut taken: HashSet<String> = HashSet::new();
        let mut name_of: Vec<u32> = vec![u32::MAX; reps.len()];
        for c in order {
            let k = count[c as usize];
            if k < 2 {
                continue;
            }
            let rep = &nodes[reps[c as usize]];
            let name = unique_name(&base_name(rep.value, rep.key), &mut taken);
            let use_cost = name.len() + 1;
            let def_cost = name.len() + 4 + rep.size;
            if k * rep.size <= k * use_cost + def_cost + rep.size / 4 + 8 {
                taken.remove(&name);
                continue;
            }
            name_of[c as usize] = names.len() as u32;
            names.push((name, rep.value));
            // All but one copy of everything inside is gone.
            for inner in &class_of[reps[c as usize] + 1..rep.end] {
                if *inner != u32::MAX {
                    let n = &mut count[*inner as usize];
                    *n = n.saturating_sub(k - 1);
                }
            }
        }
        let mut at = HashMap::new();
        for (i, &c) in class_of.iter().enumerate() {
            if c != u32::MAX && name_of[c as usize] != u32::MAX {
                at.insert(nodes[i].value as *const Value as usize, name_of[c as usize]);
            }
        }
        Refs { at, names }
    }
}

/// Array elements are named after the array's key.
fn key_of_item(key: &str) -> &str {
    key
}

/// Keys whose string values are identities, never replaced by a name.
fn is_id_like(k: &str) -> bool {
    matches!(
        k,
        "id" | "sha" | "node_id" | "number" | "key" | "name" | "login" | "slug" | "uuid" | "email"
    ) || k.ends_with("_id")
        || k.ends_with("_sha")
        || k.ends_with("Id")
}

/// The name a value gets before collisions are resolved (`docs/notation.md` §7).
fn base_name(v: &Value, key: &str) -> String {
    let raw = match v {
        Value::Object(m) => identity(m).unwrap_or_else(|| key.to_owned()),
        _ => key.to_owned(),
    };
    sanitise(&raw)
}

fn identity(m: &Map) -> Option<String> {
    for k in IDENTITY_KEYS {
        match m.get(k) {
            Some(Value::String(s)) if !s.is_empty() => {
                return Some(if k == "sha" {
                    s.chars().take(12).collect()
                } else {
                    s.clone()
                });
            }
            Some(Value::Number(n)) => {
                let mut b = Vec::new();
                n.write_to(&mut b);
                return Some(String::from_utf8_lossy(&b).into_owned());
            }
            _ => {}
        }
    }
    None
}

/// Every character outside the name alphabet becomes `_`; at most
/// [`MAX_NAME`] bytes; `v` in front of a name that would start with `-`,
/// `.`, `/` or `~`.
pub(super) fn sanitise(raw: &str) -> String {
    let mut s: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '~') {
                c
            } else {
                '_'
            }
        })
        .take(MAX_NAME)
        .collect();
    if s.is_empty() || !s.as_bytes()[0].is_ascii_alphanumeric() && s.as_bytes()[0] != b'_' {
        s.insert(0, 'v');
        s.truncate(MAX_NAME);
    }
    s
}

/// `base`, or `base~2`, `base~3`, … when taken.
fn unique_name(base: &str, taken: &mut HashSet<String>) -> String {
    if taken.insert(base.to_owned()) {
        return base.to_owned();
    }
    (2..)
        .map(|i| format!("{base}~{i}"))
        .find(|n| taken.insert(n.clone()))
        .expect("some suffix is free")
}

/// A fast, non-cryptographic hasher (the multiply-rotate of rustc's FxHash).
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w) ^ chunk.len() as u64);
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sanitised_and_unique() {
        assert_eq!(sanitise("inth3shadows/terse"), "inth3shadows/terse");
        assert_eq!(sanitise("a b:c"), "a_b_c");
        assert_eq!(sanitise("-x"), "v-x");
        assert_eq!(sanitise(""), "v");
        let mut taken = HashSet::new();
        assert_eq!(unique_name("u", &mut taken), "u");
        assert_eq!(unique_name("u", &mut taken), "u~2");
        assert_eq!(unique_name("u", &mut taken), "u~3");
    }

    #[test]
    fn repeated_subtrees_are_named_by_identity_and_inner_repeats_counted_once() {
        let user = r#"{"login":"octo","id":1,"url":"https://api.example.com/users/octo"}"#;
        let repo = format!(
            r#"{{"full_name":"octo/r","owner":{user},"url":"https://api.example.com/repos/octo/r"}}"#
        );
        let doc = format!(
            r#"[{{"n":1,"repo":{repo},"user":{user}}},{{"n":2,"repo":{repo},"user":{user}}},{{"n":3,"repo":{repo},"user":{user}}}]"#
        );
        let v = crate::json::parse(&doc).unwrap();
        let refs = Refs::find(&v);
        let names: Vec<&str> = refs.names.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["octo/r", "octo"]);
        // A value that occurs once is never named.
        let v = crate::json::parse(&format!("[{repo}]")).unwrap();
        assert!(Refs::find(&v).is_empty());
    }
}
