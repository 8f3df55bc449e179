//! One pass over a value that tells `auto` what it needs before choosing:
//! whether the value holds look-alikes (objects the restorer would take for
//! tables), whether any collection is worth planning, and what compact JSON
//! would cost — without writing the JSON.
//!
//! # What JSON costs, without writing it
//!
//! For bytes, a floor: every byte of compact JSON but the digits of numbers
//! (counted as one) and string escapes (counted as none).
//!
//! For tokens, a floor that holds for o200k_base and cl100k_base alike. Both
//! cut text into pieces with a pattern and encode each piece into one or
//! more tokens, so tokens ≥ pieces. In both patterns a piece holding a
//! letter is an optional single character that is neither letter nor digit
//! followed by letters (o200k may add a contraction such as `'s`; cl100k
//! makes contractions pieces of their own); a piece holding a digit holds
//! one to three digits and nothing else; a piece of punctuation holds an
//! optional space and characters that are neither letters, digits nor white
//! space. So in the JSON text, classify characters as ASCII letters, ASCII
//! digits, ASCII punctuation, space, and *joiners* — `'`, non-ASCII bytes
//! and control characters, which may continue a letter run, join pieces, or
//! turn into escapes — and count, over maximal runs that touch no joiner:
//!
//! * a run of letters: at least one piece of its own;
//! * a run of `n` digits: at least `ceil(n / 3)` pieces of their own;
//! * a run of punctuation: at least one piece of its own when it has two or
//!   more characters, or is not followed by a letter (a single character
//!   before a letter may be taken into the letter's piece).
//!
//! No piece holds parts of two such runs, so their sum is a floor. The text
//! is never written: structural characters are fed as they would be
//! written, keys and strings from their bytes, and each number and literal
//! as a single digit or letter (fewer runs than its text has, never more).
//!
//! # What plain TOON costs, without writing it
//!
//! Asked for ([`Size::TokenFloors`]), the same pass also works out a floor
//! under plain TOON's token count (spec 4.x, no key folding), so that
//! `auto` can rule TOON out without writing it. It counts two things,
//! which no piece shares:
//!
//! * the runs of letters and of digits above, in every primitive and in
//!   every key TOON writes (a key of a row of a table is written once, in
//!   the header, and not counted): TOON puts `: `, a delimiter, a line
//!   break, a bracket or a quote between any two of them, none of them a
//!   letter, digit or joiner, so each run ends and counts as it does
//!   inside JSON's quotes; punctuation is not counted at all (TOON's
//!   quotes, escapes and separators are not JSON's);
//! * line breaks: a line break is in a piece of white space or
//!   punctuation (no letter or digit piece holds one), and TOON writes no
//!   blank line, so no piece holds two. TOON gives a line of its own to
//!   every member of an object that is not a row of a table, to every row,
//!   and to every item of a list that is not an object (an object item's
//!   first member shares the item's line). An array whose items are all
//!   objects of primitives (or of objects so made) may be a table: only
//!   its items are counted, one line each (and their keys, and those of
//!   their objects, which TOON may write as field groups in the header,
//!   are not counted); so may an object whose members, two or more, are
//!   all such objects and none empty (a keyed table): a line and a key
//!   per member, the members' own keys not counted. The lines counted,
//!   less one, are a floor under the breaks.

use crate::runs::{Class, Runs};
use crate::table;
use crate::{Map, Value};

/// Which size of compact JSON [`survey`] works out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Size {
    /// None.
    Skip,
    /// A floor under its length in bytes.
    Bytes,
    /// A floor under its o200k_base and cl100k_base token count.
    TokenFloor,
    /// [`Size::TokenFloor`], and the same floor under plain TOON's.
    TokenFloors,
}

/// What one pass over a value finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Survey {
    /// Whether some object is shaped like a table the restorer reads.
    pub look_alike: bool,
    /// The size asked for (meaningless when `look_alike`).
    pub json: usize,
    /// With [`Size::TokenFloors`], a floor under plain TOON's token count
    /// (0 otherwise, or when `look_alike`).
    pub toon: usize,
    /// With [`Size::TokenFloors`], the floor under compact JSON's bytes of
    /// [`Size::Bytes`] (0 otherwise).
    pub bytes: usize,
    /// Whether some container lies within two levels of `max_depth`: the
    /// writers may refuse the value (the survey does not say).
    pub deep: bool,
}

/// Surveys `value`, not looking below `max_depth` levels (the writers
/// refuse such values themselves); stops at the first look-alike.
pub(crate) fn survey(value: &Value, size: Size, max_depth: usize) -> Survey {
    match size {
        Size::Skip => survey_as::<SKIP>(value, max_depth),
        Size::Bytes => survey_as::<BYTES>(value, max_depth),
        Size::TokenFloor => survey_as::<TOKENS>(value, max_depth),
        Size::TokenFloors => survey_as::<BOTH>(value, max_depth),
    }
}

/// The sizes as [`Surveyor`]'s parameter, so that each survey's code
/// holds only the work its size asks for.
const SKIP: u8 = 0;
const BYTES: u8 = 1;
const TOKENS: u8 = 2;
const BOTH: u8 = 3;

fn survey_as<const SIZE: u8>(value: &Value, max_depth: usize) -> Survey {
    let mut s = Surveyor::<SIZE> {
        bytes: 0,
        runs: Runs::default(),
        look_alike: false,
        max_depth,
        toon: ToonFloor { runs: 0, lines: 0 },
        deep: false,
    };
    s.value(value, 0, false);
    s.runs.finish();
    let both = SIZE == BOTH && !s.look_alike;
    Survey {
        look_alike: s.look_alike,
        json: match SIZE {
            BYTES => s.bytes,
            TOKENS | BOTH => s.runs.total,
            _ => 0,
        },
        toon: if both {
            s.toon.runs + s.toon.lines.saturating_sub(1)
        } else {
            0
        },
        bytes: if SIZE == BOTH { s.bytes } else { 0 },
        deep: s.deep,
    }
}

/// One pass over a value, for the size `SIZE` (see [`survey_as`]).
struct Surveyor<const SIZE: u8> {
    bytes: usize,
    runs: Runs,
    look_alike: bool,
    max_depth: usize,
    /// The floor under plain TOON's tokens (kept with `SIZE` [`BOTH`]).
    toon: ToonFloor,
    deep: bool,
}

/// What the floor under plain TOON's tokens counts (see the module docs).
///
/// A string's runs of letters and digits are those JSON's floor counts
/// inside its quotes: the quotes, like whatever TOON writes around it,
/// are neither letters, digits nor joiners, so each run inside ends and
/// counts alike. They are read off the JSON floor's count as it passes
/// the string ([`Surveyor::string`]); a number or a literal is one run.
struct ToonFloor {
    /// Runs of letters and digits.
    runs: usize,
    /// Lines TOON is sure to write.
    lines: usize,
}

impl<const SIZE: u8> Surveyor<SIZE> {
    /// `v` at `level`; `row` says it is an item of an array that may be a
    /// TOON table (see [`Surveyor::array`]).
    fn value(&mut self, v: &Value, level: usize, row: bool) {
        match v {
            Value::Object(m) => self.object(m, level, row),
            Value::Array(a) => self.array(a, level),
            Value::String(s) => {
                let runs = self.string(s);
                self.toon.runs += runs;
            }
            Value::Number(_) => self.primitive(1, Class::Digit),
            Value::Bool(b) => self.primitive(if *b { 4 } else { 5 }, Class::Letter),
            Value::Null => self.primitive(4, Class::Letter),
        }
    }

    fn primitive(&mut self, bytes: usize, class: Class) {
        self.unit(bytes, class);
        if SIZE == BOTH {
            self.toon.runs += 1;
        }
    }

    /// Whether a container at `level` is too deep to look into, noting one
    /// near the limit.
    #[inline]
    fn stop(&mut self, level: usize) -> bool {
        if level + 2 >= crate::depth_limit(self.max_depth) {
            self.deep = true;
        }
        level >= self.max_depth || self.look_alike
    }

    fn object(&mut self, m: &Map, level: usize, row: bool) {
        if self.stop(level) {
            return;
        }
        if table::is_columnar(m) || table::hoisted_pairs(m).next().is_some() {
            self.look_alike = true;
            return;
        }
        // An object of at least two row-shaped objects, none empty, may be
        // a keyed table: a line per member, the members' own keys in the
        // header.
        let levels = self.max_depth.saturating_sub(level);
        let keyed = SIZE == BOTH
            && !row
            && m.len() >= 2
            && m.values()
                .all(|v| matches!(v, Value::Object(o) if !o.is_empty()) && is_row(v, levels));
        self.punct(b'{');
        for (i, (k, v)) in m.iter().enumerate() {
            if i > 0 {
                self.punct(b',');
            }
            let runs = self.string(k);
            if SIZE == BOTH && !row {
                // A member's line, and its key.
                self.toon.lines += 1;
                self.toon.runs += runs;
            }
            self.punct(b':');
            // Inside a row, an object is a field group: its keys are in
            // the header too.
            self.value(v, level + 1, row || keyed);
        }
        self.punct(b'}');
    }

    fn array(&mut self, a: &[Value], level: usize) {
        if self.stop(level) {
            return;
        }
        // TOON writes an array of primitives on its member's line, an array
        // of row-shaped objects perhaps as a table (a line per row, the keys
        // in the header), anything else as a list: a line per item but an
        // object, whose members have their own.
        let mut rows = false;
        if SIZE == BOTH {
            self.toon.lines += match layout(a, self.max_depth.saturating_sub(level)) {
                Layout::Inline => 0,
                Layout::Table => {
                    rows = true;
                    a.len()
                }
                Layout::List => a.iter().filter(|item| !item.is_object()).count(),
            };
        }
        self.punct(b'[');
        for (i, v) in a.iter().enumerate() {
            if i > 0 {
                self.punct(b',');
            }
            self.value(v, level + 1, rows);
        }
        self.punct(b']');
    }

    /// A string, quoted; returns the runs of letters and digits inside
    /// the quotes (0 unless [`Size::TokenFloors`]).
    fn string(&mut self, s: &str) -> usize {
        match SIZE {
            BYTES => {
                self.bytes += s.len() + 2;
                0
            }
            TOKENS => {
                self.string_runs(s);
                0
            }
            BOTH => {
                self.bytes += s.len() + 2;
                // JSON puts punctuation before every string, so the runs
                // before it have ended; the closing quote ends its last.
                let before = self.runs.alnum;
                self.string_runs(s);
                self.runs.alnum - before
            }
            _ => 0,
        }
    }

    fn string_runs(&mut self, s: &str) {
        self.runs.push_string(s.as_bytes());
    }

    /// A structural character: a brace, bracket, comma or colon.
    #[inline]
    fn punct(&mut self, _: u8) {
        self.unit(1, Class::Punct);
    }

    /// Something JSON writes in `bytes` bytes and the token floor counts as
    /// one character of class `class`.
    #[inline]
    fn unit(&mut self, bytes: usize, class: Class) {
        if SIZE == BYTES || SIZE == BOTH {
            self.bytes += bytes;
        }
        if SIZE == TOKENS || SIZE == BOTH {
            self.runs.push(class);
        }
    }
}

/// How plain TOON (4.x) may write an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// All primitives: on its member's line.
    Inline,
    /// All row-shaped objects ([`is_row`]): perhaps a table, a line per
    /// row and the keys in its header (or else a list).
    Table,
    /// Anything else: a list of `- ` items.
    List,
}

/// The layout of `items` (see [`Layout`]); objects more than `levels` deep
/// are taken to be row-shaped, unread.
pub(crate) fn layout(items: &[Value], levels: usize) -> Layout {
    if items.iter().all(Value::is_primitive) {
        Layout::Inline
    } else if items.iter().all(|v| v.is_object() && is_row(v, levels)) {
        Layout::Table
    } else {
        Layout::List
    }
}

/// Whether TOON may write `v` as a row of a table, or a field group in
/// one: an object whose values are primitives or objects so shaped.
/// Objects more than `levels` deep are taken to be so shaped, unread.
fn is_row(v: &Value, levels: usize) -> bool {
    match v {
        Value::Object(m) => m.values().all(|v| match v {
            Value::Object(_) => levels == 0 || is_row(v, levels - 1),
            v => v.is_primitive(),
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor(text: &str) -> usize {
        survey(&crate::json::parse(text).unwrap(), Size::TokenFloor, 256).json
    }

    fn bytes(text: &str) -> usize {
        survey(&crate::json::parse(text).unwrap(), Size::Bytes, 256).json
    }

    #[test]
    fn floors_stay_under_the_truth() {
        let o200k = crate::tokens::Tokenizer::get(crate::tokens::TokenizerKind::O200k);
        let cl100k = crate::tokens::Tokenizer::get(crate::tokens::TokenizerKind::Cl100k);
        for text in [
            r#"{"id":1,"name":"Elru","price":956.02,"active":false,"createdAt":"2025-04-16T00:09:46Z","status":"suspended"}"#,
            r#"[{"a":"don't","b":"café au lait","c":"x\ny","d":""},{"":null,"_":[[]],"'s":"'s"}]"#,
            r#"{"k":"a,b","l":",","m":"-","n":"1e5","o":-1.5e-7,"p":[true,false,null]}"#,
            r#""a  b  ,, c""#,
            "[]",
            "12345678",
        ] {
            let v = crate::json::parse(text).unwrap();
            let compact = crate::json::stringify(&v);
            let f = floor(text);
            assert!(
                f <= o200k.count(&compact),
                "{text}: {f} > {}",
                o200k.count(&compact)
            );
            assert!(
                f <= cl100k.count(&compact),
                "{text}: {f} > {}",
                cl100k.count(&compact)
            );
            assert!(bytes(text) <= compact.len(), "{text}");
        }
        // Tight where it matters: a flat row.
        let row = r#"{"id":1,"name":"Elru","price":956.02,"active":false,"createdAt":"2025-04-16T00:09:46Z","status":"suspended"}"#;
        assert!(
            floor(row) * 10 >= o200k.count(row) * 8,
            "{} vs {}",
            floor(row),
            o200k.count(row)
        );
    }

    /// The floor under plain TOON's tokens, against both tokenizers' counts
    /// of TOON's text in each delimiter and indentation.
    fn toon_floor(text: &str) -> usize {
        let v = crate::json::parse(text).unwrap();
        let floor = survey(&v, Size::TokenFloors, 256).toon;
        for delimiter in [
            crate::toon::Delimiter::Comma,
            crate::toon::Delimiter::Tab,
            crate::toon::Delimiter::Pipe,
        ] {
            for indent in [1, 2, 4] {
                let opts = crate::toon::EncodeOptions {
                    indent,
                    delimiter,
                    ..Default::default()
                };
                let toon = crate::toon::encode(&v, &opts).unwrap();
                for kind in [
                    crate::tokens::TokenizerKind::O200k,
                    crate::tokens::TokenizerKind::Cl100k,
                ] {
                    let n = crate::tokens::Tokenizer::get(kind).count(&toon);
                    assert!(floor <= n, "{text}: {floor} > {n} ({kind:?})\n{toon}");
                }
            }
        }
        floor
    }

    #[test]
    fn toon_floors_stay_under_the_truth() {
        for text in [
            r#"{"items":[{"id":1,"title":"Nean mi","score":0.722,"owner":{"id":4081,"login":"timi","verified":true},"tags":["alpha","io"]}]}"#,
            r#"[{"a":1},{"b":2},{"a":"x","c":[1,2]},[],{},"s",3,[[1],[{"k":"v"}]]]"#,
            r#"{"a":{"b":{"c":{}}},"d":[],"e":[{}],"f":[{},{}],"g":[1,{"h":null}]}"#,
            r#"{"rows":[{"a":1,"b":"x y"},{"a":2,"b":"z"}],"more":[{"a":1},{"b":2}]}"#,
            r#"{"s":"line one\nline two","q":"say \"hi\"","p":"don't","u":"café au lait","n":"12345678"}"#,
            r#"{"k":"a,b","l":",","m":"-","o":-1.5e-7,"big":1e22,"p":[true,false,null],"":"","- x":"[1]"}"#,
            r#"{"nested":[[[]],[[1,2],[3]],[{"a":[{"b":1}]}]]}"#,
            r#"{"k":{"a":{"x":1,"g":{"y":"z"}},"b":{"x":2,"g":{"y":"w"}}},"e":{"a":{},"b":{}}}"#,
            r#"[{"a":{"p":1},"b":{"p":2}},{"c":{"q":[1]},"d":{"q":[2]}}]"#,
            r#""a  b  ,, c""#,
            "[]",
            "{}",
            "12345678",
        ] {
            toon_floor(text);
        }
        // Near the truth where TOON writes lists: every member's line.
        let item = r#"{"items":[{"id":1,"title":"Nean mi","score":0.722,"owner":{"id":4081,"login":"timi","verified":true},"tags":["alpha","io","alpha","net"]},{"id":2,"title":"Orsabati anor","score":0.474,"owner":{"id":3057,"login":"umumum","verified":true},"tags":["gamma","api"]}]}"#;
        let v = crate::json::parse(item).unwrap();
        let toon = crate::toon::encode(&v, &Default::default()).unwrap();
        let n = crate::tokens::Tokenizer::get(crate::tokens::TokenizerKind::O200k).count(&toon);
        let floor = toon_floor(item);
        assert!(floor * 9 >= n * 4, "{floor} vs {n}");
        // Lines, the keys of lists' objects and of plain members counted;
        // a table's keys are not (they are in its header once).
        assert_eq!(toon_floor(r#"{"a":1,"b":2}"#), 5);
        assert_eq!(toon_floor(r#"{"t":[{"a":1},{"a":2}]}"#), 5);
        assert_eq!(
            toon_floor(r#"{"t":[{"a":1,"g":{"x":2}},{"a":3,"g":{"x":4}}]}"#),
            7
        );
        assert_eq!(toon_floor(r#"{"l":[{"a":[1]},{"a":[2]}]}"#), 7);
        // A keyed table (`m[2:]{a,b}:` and a row per member): the members'
        // keys are in its rows, their members' keys in its header.
        assert_eq!(
            toon_floor(r#"{"m":{"x":{"a":1,"b":2},"y":{"a":3,"b":4}}}"#),
            9
        );
        // Paginators as AWS describes them: twenty rows of four cells.
        let rows: Vec<String> = (0..20)
            .map(|i| {
                format!(
                    r#""List{i}":{{"input_token":"NextToken","limit_key":"MaxResults","output_token":"NextToken","result_key":"Items"}}"#
                )
            })
            .collect();
        toon_floor(&format!(r#"{{"pagination":{{{}}}}}"#, rows.join(",")));
    }

    #[test]
    fn runs_skip_joined_ones() {
        // The opening quote goes into the first word's piece.
        assert_eq!(floor(r#""hello world""#), 3);
        assert_eq!(floor(r#""don't""#), 1);
        assert_eq!(floor("\"caf\u{e9} au lait\""), 3);
        assert_eq!(floor(r#""1234567""#), 5);
    }

    #[test]
    fn look_alikes() {
        let s = |t: &str| survey(&crate::json::parse(t).unwrap(), Size::Skip, 256);
        assert!(s(r#"[{"x":{"cols":1,"dict":2,"rows":3}}]"#).look_alike);
        assert!(s(r#"{"a":[],"a_encoding":{"json_columns":[]}}"#).look_alike);
        assert!(!s(r#"{"a":[],"a_encoding":"mine"}"#).look_alike);
        assert!(!s(r#"{"rows":[{"a":1},{"b":[2]}]}"#).look_alike);
    }
}
