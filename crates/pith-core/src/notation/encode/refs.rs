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

use super::{flow_primitive, write_key_str};
use crate::tokens::Tokenizer;
use crate::value::Prehashed;
use crate::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher, RandomState};

/// Containers smaller than this (compact-JSON bytes) are never named.
const MIN_SUBTREE: usize = 24;
/// Strings shorter than this (bytes) are never named.
const MIN_STRING: usize = 8;
/// Identity strings shorter than this are never named (a name of
/// [`ID_PREFIX`] characters must be shorter than the value).
const MIN_ID_STRING: usize = 16;
/// How many characters of an identity string (or an object's `sha`) name it.
const ID_PREFIX: usize = 7;
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
    /// Address of a value node (as [`address`] gives it) → index into `names`.
    at: HashMap<u64, u32, BuildHasherDefault<Prehashed>>,
    /// Names, and one representative value for each.
    pub(super) names: Vec<(String, &'a Value)>,
    /// The compact-JSON size of each named value.
    sizes: Vec<usize>,
}

impl<'a> Refs<'a> {
    /// No references.
    pub(super) fn none() -> Refs<'a> {
        Refs {
            at: HashMap::default(),
            names: Vec::new(),
            sizes: Vec::new(),
        }
    }

    /// Finds the references worth making in `root`, judged in tokens of
    /// `tokenizer`.
    pub(super) fn find(root: &'a Value, tokenizer: &Tokenizer) -> Refs<'a> {
        let mut walk = Walk::default();
        walk.visit(root, "item", false, false);
        walk.choose(tokenizer)
    }

    /// The reference that stands for `v`, if any.
    #[inline]
    pub(super) fn of(&self, v: &Value) -> Option<u32> {
        if self.at.is_empty() {
            return None;
        }
        // Only containers and long strings are ever named: most cells are
        // told without a lookup.
        match v {
            Value::String(s) if s.len() < MIN_STRING => None,
            Value::Null | Value::Bool(_) | Value::Number(_) => None,
            _ => self.at.get(&address(v)).copied(),
        }
    }

    /// The compact-JSON size of the value a name stands for.
    pub(super) fn size(&self, id: u32) -> usize {
        self.sizes[id as usize]
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
    /// A string under an identity key (`id`, `sha`, `*_id`…): named by its
    /// own first characters, so the identity stays readable where it is used.
    id_like: bool,
    /// Whether the value is a string (else a container): told without
    /// reading the value, which the passes over the nodes never need to.
    string: bool,
}

impl<'a> Walk<'a> {
    /// Returns the hash and compact-JSON size of `v`, recording candidates.
    /// `cell` says that `v` is a member of a row (an object item of an
    /// array of objects) or of a field group inside one: a cell of a table.
    fn visit(&mut self, v: &'a Value, key: &'a str, id_like: bool, cell: bool) -> (u64, usize) {
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
                if s.len() >= if id_like { MIN_ID_STRING } else { MIN_STRING } {
                    let at = self.nodes.len();
                    self.nodes.push(Node {
                        value: v,
                        hash,
                        size,
                        key,
                        end: at + 1,
                        id_like,
                        string: true,
                    });
                }
                (hash, size)
            }
            Value::Array(items) => {
                // A cell holding primitives is written as a list cell
                // (`a b c`), cheaper than any flow value, and a column of
                // them as a list column, which a `*name` among its cells
                // would turn into a column of flow values: such an array
                // is never named (its long strings still may be).
                let list_cell = cell && items.iter().all(Value::is_primitive);
                let at = (!list_cell).then(|| self.reserve(v, key));
                let rows = items.iter().all(|item| matches!(item, Value::Object(_)));
                let mut h = Fx::default();
                h.write_u64(0x6172_7200 ^ items.len() as u64);
                let mut size = 2 + items.len().saturating_sub(1);
                for item in items {
                    let (ih, is) = self.visit(item, key_of_item(key), false, rows);
                    h.write_u64(ih);
                    size += is;
                }
                match at {
                    Some(at) => self.finish(at, h.finish(), size),
                    None => (h.finish(), size),
                }
            }
            Value::Object(m) => {
                let at = self.reserve(v, key);
                let mut h = Fx::default();
                h.write_u64(0x6f62_6a00 ^ m.len() as u64);
                let mut size = 2 + m.len().saturating_sub(1);
                for (k, child) in m.iter() {
                    // Only a string long enough to be named asks whether its
                    // key is an identity's.
                    let id_like =
                        matches!(child, Value::String(s) if s.len() >= MIN_STRING) && is_id_like(k);
                    let (ch, cs) = self.visit(child, k, id_like, cell);
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
            id_like: false,
            string: false,
        });
        self.nodes.len() - 1
    }

    fn finish(&mut self, at: usize, hash: u64, size: usize) -> (u64, usize) {
        let end = self.nodes.len();
        if size < MIN_SUBTREE && end == at + 1 {
            // Too small to be named and holding nothing that may be: not a
            // candidate (a document of many small objects keeps no node
            // for each).
            self.nodes.pop();
            return (hash, size);
        }
        let n = &mut self.nodes[at];
        n.hash = hash;
        n.size = size;
        n.end = end;
        (hash, size)
    }

    fn choose(self, tokenizer: &Tokenizer) -> Refs<'a> {
        let nodes = self.nodes;
        // Classes of equal values among the nodes large enough to be named,
        // each made when a second member turns up: the node index of each
        // class's first member, and each node's class. Every distinct value
        // seen has a head, found by its hash (mixed with a key of this
        // process, so that crafted input cannot crowd one bucket); heads of
        // different values with the same hash are chained.
        struct Head {
            node: u32,
            class: u32,
            next: u32,
        }
        const NONE: u32 = u32::MAX;
        let key = RandomState::new().hash_one(0x7265_6673_u64);
        let eligible = |n: &Node<'_>| {
            let min = if n.string { MIN_STRING } else { MIN_SUBTREE };
            n.size >= min
        };
        // Most values occur once. A first pass counts hashes in a table of
        // two-bit counters small enough to stay in cache (they saturate at
        // two); a node whose counter stays at one has no equal and goes into
        // no class, so only the others are looked up below.
        let slots = (nodes.len() * 16).next_power_of_two().max(64);
        let mut seen = vec![0u64; slots / 32];
        let slot = |h: u64| (h as usize) & (slots - 1);
        for n in nodes.iter().filter(|n| eligible(n)) {
            let at = slot(mix(n.hash ^ key));
            let (word, shift) = (at / 32, (at % 32) * 2);
            let count = (seen[word] >> shift) & 3;
            if count < 2 {
                seen[word] += 1 << shift;
            }
        }
        let repeated = |h: u64| {
            let at = slot(h);
            (seen[at / 32] >> ((at % 32) * 2)) & 3 >= 2
        };
        let mut first: HashMap<u64, u32, BuildHasherDefault<Prehashed>> = HashMap::default();
        let mut heads: Vec<Head> = Vec::new();
        let mut reps: Vec<usize> = Vec::new();
        let mut class_of: Vec<u32> = vec![NONE; nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            let mixed = mix(n.hash ^ key);
            if !eligible(n) || !repeated(mixed) {
                continue;
            }
            let new_head = heads.len() as u32;
            let mut h = *first.entry(mixed).or_insert(new_head);
            if h == new_head {
                heads.push(Head {
                    node: i as u32,
                    class: NONE,
                    next: NONE,
                });
                continue;
            }
            loop {
                let head = &mut heads[h as usize];
                if nodes[head.node as usize].value == n.value {
                    if head.class == NONE {
                        head.class = reps.len() as u32;
                        reps.push(head.node as usize);
                        class_of[head.node as usize] = head.class;
                    }
                    class_of[i] = head.class;
                    break;
                }
                if head.next == NONE {
                    head.next = new_head;
                    heads.push(Head {
                        node: i as u32,
                        class: NONE,
                        next: NONE,
                    });
                    break;
                }
                h = head.next;
            }
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
        order.sort_by_key(|&c| {
            (
                std::cmp::Reverse(nodes[reps[c as usize]].size),
                reps[c as usize],
            )
        });
        let keys = cheapest_keys(&nodes, &class_of, &reps, tokenizer);
        // What readers may expand (`docs/notation.md` §7), spent per class
        // named: its uses times what each costs. The uses are bounded by
        // the class's occurrences before any were taken into a larger
        // named value: a writer that writes such a value out in place
        // (a field group kept over a column of `*name` cells) writes the
        // names inside it at each copy.
        let occurrences = count.clone();
        let mut budget = crate::notation::EXPANSION_FLOOR;
        let mut names: Vec<(String, &'a Value)> = Vec::new();
        let mut sizes: Vec<usize> = Vec::new();
        let mut taken = Names::default();
        let mut name_of: Vec<u32> = vec![u32::MAX; reps.len()];
        for c in order {
            let k = count[c as usize];
            if k < 2 {
                continue;
            }
            let rep = &nodes[reps[c as usize]];
            // Bytes bound tokens from above: a value whose repeats cannot
            // pay for two tokens a use is not counted at all.
            if (k - 1) * rep.size <= 2 * k + 4 {
                continue;
            }
            let base = match rep.value {
                Value::String(s) if rep.id_like => {
                    sanitise(&s.chars().take(ID_PREFIX).collect::<String>())
                }
                v => base_name(v, keys[c as usize], tokenizer),
            };
            let (name, suffix) = taken.unique(&base);
            let mut text = String::new();
            plain_flow(&mut text, rep.value);
            let value_cost = tokenizer.count(&text);
            let use_cost = tokenizer.count(&name) + 1;
            let pays = if rep.value.is_primitive() {
                // Anchored at its first use (`&name value`), `*name` after.
                (k - 1) * value_cost > (use_cost + 1) + (k - 1) * use_cost + 1
            } else {
                // Defined in the prelude (`&name: value` and a line's end).
                k * value_cost > k * use_cost + (use_cost + 2 + value_cost) + 2
            };
            if !pays {
                taken.release(&base, &name, suffix);
                continue;
            }
            // An anchored primitive's first occurrence is its anchor, not a use.
            let uses = occurrences[c as usize] - usize::from(rep.value.is_primitive());
            let spent = uses.saturating_mul(crate::notation::expansion_weight(rep.value));
            if spent > budget {
                taken.release(&base, &name, suffix);
                continue;
            }
            budget -= spent;
            name_of[c as usize] = names.len() as u32;
            names.push((name, rep.value));
            sizes.push(rep.size);
            // All but one copy of everything inside is gone.
            for inner in &class_of[reps[c as usize] + 1..rep.end] {
                if *inner != u32::MAX {
                    let n = &mut count[*inner as usize];
                    *n = n.saturating_sub(k - 1);
                }
            }
        }
        let mut at: HashMap<u64, u32, BuildHasherDefault<Prehashed>> = HashMap::default();
        for (i, &c) in class_of.iter().enumerate() {
            if c != u32::MAX && name_of[c as usize] != u32::MAX {
                at.insert(address(nodes[i].value), name_of[c as usize]);
            }
        }
        Refs { at, names, sizes }
    }
}

/// Per class: of the keys its members stand under, the one whose name
/// costs the fewest tokens, the first in document order on a tie (see
/// `docs/notation.md` §7). Each distinct key is counted once.
fn cheapest_keys<'a>(
    nodes: &[Node<'a>],
    class_of: &[u32],
    reps: &[usize],
    tokenizer: &Tokenizer,
) -> Vec<&'a str> {
    let mut keys: Vec<&'a str> = reps.iter().map(|&r| nodes[r].key).collect();
    let mut costs: Vec<Option<usize>> = vec![None; reps.len()];
    let mut known: HashMap<&'a str, usize> = HashMap::new();
    let mut cost_of = |k: &'a str| {
        *known
            .entry(k)
            .or_insert_with(|| tokenizer.count(&sanitise(k)))
    };
    for (node, &c) in nodes.iter().zip(class_of) {
        let c = c as usize;
        if c == u32::MAX as usize || node.key == keys[c] {
            continue;
        }
        let now = *costs[c].get_or_insert_with(|| cost_of(keys[c]));
        let cost = cost_of(node.key);
        if cost < now {
            keys[c] = node.key;
            costs[c] = Some(cost);
        }
    }
    keys
}

/// `v` as a flow value without references (what a definition would hold).
fn plain_flow(out: &mut String, v: &Value) {
    match v {
        Value::Object(m) => {
            out.push('{');
            for (i, (k, child)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_key_str(out, k);
                out.push(':');
                plain_flow(out, child);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, child) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                plain_flow(out, child);
            }
            out.push(']');
        }
        v => flow_primitive(out, v),
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
        "id" | "sha" | "node_id" | "number" | "key" | "name" | "login" | "slug" | "uuid"
    ) || k.ends_with("_id")
        || k.ends_with("_sha")
        || k.ends_with("Id")
}

/// The name a value gets before collisions are resolved (`docs/notation.md` §7).
fn base_name(v: &Value, key: &str, tokenizer: &Tokenizer) -> String {
    match v {
        Value::Object(m) => identity(m, tokenizer).unwrap_or_else(|| sanitise(key)),
        _ => sanitise(key),
    }
}

/// The shortest (in tokens) of the object's identity members, sanitised:
/// words (`login`, `name`, …) before numbers and hashes (`sha`, `id`,
/// `number`), ties to the earlier key of [`IDENTITY_KEYS`].
fn identity(m: &Map, tokenizer: &Tokenizer) -> Option<String> {
    let mut best: Option<((bool, usize), String)> = None;
    for k in IDENTITY_KEYS {
        let raw = match m.get(k) {
            Some(Value::String(s)) if !s.is_empty() => {
                if k == "sha" {
                    s.chars().take(ID_PREFIX).collect()
                } else {
                    s.clone()
                }
            }
            Some(Value::Number(n)) => {
                let mut b = Vec::new();
                n.write_to(&mut b);
                String::from_utf8_lossy(&b).into_owned()
            }
            _ => continue,
        };
        let name = sanitise(&raw);
        let word = matches!(m.get(k), Some(Value::String(_))) && k != "sha";
        let cost = (!word, tokenizer.count(&name));
        if best.as_ref().is_none_or(|(c, _)| cost < *c) {
            best = Some((cost, name));
        }
    }
    best.map(|(_, n)| n)
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

/// The names given so far, and per base the suffix below which every
/// suffixed name is taken, so that naming the `n`th value of one base does
/// not try the `n - 1` names before it again.
#[derive(Default)]
struct Names {
    taken: HashSet<String>,
    next: HashMap<String, usize>,
    /// Suffixed names tried, taken or not (counted for the tests).
    #[cfg(test)]
    tries: usize,
}

impl Names {
    /// `base`, or when taken `base2`, `base3`, … (`base~2`, … when `base`
    /// ends with a digit, so that the number stays apart), the first one
    /// free; with the suffix it took.
    fn unique(&mut self, base: &str) -> (String, Option<usize>) {
        if self.taken.insert(base.to_owned()) {
            return (base.to_owned(), None);
        }
        let sep = if base.ends_with(|c: char| c.is_ascii_digit()) {
            "~"
        } else {
            ""
        };
        let from = self.next.get(base).copied().unwrap_or(2);
        let mut i = from;
        let name = loop {
            #[cfg(test)]
            {
                self.tries += 1;
            }
            let name = format!("{base}{sep}{i}");
            if self.taken.insert(name.clone()) {
                break name;
            }
            i += 1;
        };
        self.next.insert(base.to_owned(), i + 1);
        (name, Some(i))
    }

    /// Gives back a name [`Names::unique`] gave for `base` with `suffix`.
    fn release(&mut self, base: &str, name: &str, suffix: Option<usize>) {
        self.taken.remove(name);
        if let (Some(i), Some(next)) = (suffix, self.next.get_mut(base)) {
            *next = (*next).min(i);
        }
    }
}

/// The address of a value node, mixed to serve as its own hash: addresses
/// are the program's, never the input's.
#[inline]
pub(super) fn address(v: &Value) -> u64 {
    mix(v as *const Value as usize as u64)
}

/// A bijective mix of a 64-bit hash, so that its low bits (a hash table's
/// bucket) depend on all of it.
fn mix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// A fast, non-cryptographic hasher (the multiply-rotate of rustc's FxHash).
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut w = [0u8; 8];
            w.copy_from_slice(word);
            self.write_u64(u64::from_le_bytes(w));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            // Read as one word, not copied into one (see `short_word`).
            self.write_u64(crate::tokens::short_word(rest) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    // Numbers hash their parts through these: one step each, not a byte loop.
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    fn write_i32(&mut self, i: i32) {
        self.write_u64(i as u64);
    }

    fn write_i64(&mut self, i: i64) {
        self.write_u64(i as u64);
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    fn write_isize(&mut self, i: isize) {
        self.write_u64(i as u64);
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
        let mut names = Names::default();
        let mut unique = |base: &str| names.unique(base).0;
        assert_eq!(unique("u"), "u");
        assert_eq!(unique("u"), "u2");
        assert_eq!(unique("u"), "u3");
        assert_eq!(unique("v1"), "v1");
        assert_eq!(unique("v1"), "v1~2");
        // A base that is itself another's suffixed name takes the next free one.
        assert_eq!(unique("u2"), "u2~2");
    }

    #[test]
    fn a_released_name_is_the_first_free_one_again() {
        let mut names = Names::default();
        for want in ["t", "t2", "t3", "t4"] {
            assert_eq!(names.unique("t").0, want);
        }
        let (name, suffix) = names.unique("t");
        assert_eq!((name.as_str(), suffix), ("t5", Some(5)));
        names.release("t", &name, suffix);
        names.release("t", "t3", Some(3));
        assert_eq!(names.unique("t").0, "t3");
        assert_eq!(names.unique("t").0, "t5");
        // Another base's name in the way is stepped over.
        assert_eq!(names.unique("t6").0, "t6");
        assert_eq!(names.unique("t").0, "t7");
        names.release("t", "t", None);
        assert_eq!(names.unique("t").0, "t");
    }

    /// Thousands of values that share a base are named in time linear in
    /// their number: each name costs one try. Counted, not timed.
    #[test]
    fn many_values_of_one_base_take_one_try_each() {
        let mut names = Names::default();
        for _ in 0..5000 {
            names.unique("createdAt");
        }
        assert_eq!(names.taken.len(), 5000);
        // One try for each of the 4,999 suffixed names (all were tried from
        // 2 on: 12.5 million tries).
        assert_eq!(names.tries, 4999);
        assert_eq!(names.unique("createdAt").0, "createdAt5001");
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
        let tok = Tokenizer::get(crate::tokens::TokenizerKind::ALL[0]);
        let refs = Refs::find(&v, tok);
        let names: Vec<&str> = refs.names.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["octo/r", "octo"]);
        // A value that occurs once is never named.
        let v = crate::json::parse(&format!("[{repo}]")).unwrap();
        assert!(Refs::find(&v, tok).is_empty());
    }

    /// A value without an identity is named by the key it appears under
    /// that costs the fewest tokens, wherever that key is; the first one
    /// on a tie; a string under an identity key where it first appears
    /// keeps its short form.
    #[test]
    fn a_value_without_identity_takes_its_cheapest_key() {
        let tok = Tokenizer::get(crate::tokens::TokenizerKind::ALL[0]);
        let cost = |k: &str| tok.count(k);
        let schema = r#"{"type":["string","null"],"format":"uri"}"#;
        let url = r#""https://github.com/octo/r/pull/92""#;
        let doc = format!(
            r#"{{"archive-format":{schema},"dll-prefix":{schema},"cpu":{schema},"abi-return-struct-as-int":{schema},
               "html_url":{url},"links":{{"href":{url}}},"more":{{"html_url":{url}}}}}"#
        );
        assert!(cost("cpu") < cost("archive-format") && cost("cpu") < cost("dll-prefix"));
        assert!(cost("href") < cost("html_url"));
        let v = crate::json::parse(&doc).unwrap();
        let refs = Refs::find(&v, tok);
        let names: Vec<&str> = refs.names.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["cpu", "href"]);
        // Keys of one cost: the first in document order.
        let (a, b) = ("alpha", "omega");
        assert_eq!(cost(a), cost(b));
        for (first, second) in [(a, b), (b, a)] {
            let doc = format!(
                r#"{{"{first}":{schema},"{second}":{schema},"n":{{"{second}":{schema}}}}}"#
            );
            let v = crate::json::parse(&doc).unwrap();
            let refs = Refs::find(&v, tok);
            assert_eq!(refs.names[0].0, first);
        }
        // An identity's short form is kept, whatever other keys the string
        // appears under.
        let sha = r#""dc78efd0a1b2c3d4e5f60718293a4b5c6d7e8f90""#;
        let doc = format!(r#"{{"sha":{sha},"x":{sha},"n":{{"x":{sha}}}}}"#);
        let v = crate::json::parse(&doc).unwrap();
        assert_eq!(Refs::find(&v, tok).names[0].0, "dc78efd");
    }
}
