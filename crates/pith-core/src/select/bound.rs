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
}

/// What one pass over a value finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Survey {
    /// Whether some object is shaped like a table the restorer reads.
    pub look_alike: bool,
    /// The size asked for (meaningless when `look_alike`).
    pub json: usize,
}

/// Surveys `value`, not looking below `max_depth` levels (the writers
/// refuse such values themselves); stops at the first look-alike.
pub(crate) fn survey(value: &Value, size: Size, max_depth: usize) -> Survey {
    let mut s = Surveyor {
        size,
        bytes: 0,
        runs: Runs::default(),
        look_alike: false,
        max_depth,
    };
    s.value(value, 0);
    s.runs.finish();
    Survey {
        look_alike: s.look_alike,
        json: match size {
            Size::Skip => 0,
            Size::Bytes => s.bytes,
            Size::TokenFloor => s.runs.total,
        },
    }
}

struct Surveyor {
    size: Size,
    bytes: usize,
    runs: Runs,
    look_alike: bool,
    max_depth: usize,
}

impl Surveyor {
    fn value(&mut self, v: &Value, level: usize) {
        match v {
            Value::Object(m) => self.object(m, level),
            Value::Array(a) => self.array(a, level),
            Value::String(s) => self.string(s),
            Value::Number(_) => self.unit(1, Class::Digit),
            Value::Bool(b) => self.unit(if *b { 4 } else { 5 }, Class::Letter),
            Value::Null => self.unit(4, Class::Letter),
        }
    }

    fn object(&mut self, m: &Map, level: usize) {
        if level >= self.max_depth || self.look_alike {
            return;
        }
        if table::is_columnar(m) || table::hoisted_pairs(m).next().is_some() {
            self.look_alike = true;
            return;
        }
        self.punct(b'{');
        for (i, (k, v)) in m.iter().enumerate() {
            if i > 0 {
                self.punct(b',');
            }
            self.string(k);
            self.punct(b':');
            self.value(v, level + 1);
        }
        self.punct(b'}');
    }

    fn array(&mut self, a: &[Value], level: usize) {
        if level >= self.max_depth || self.look_alike {
            return;
        }
        self.punct(b'[');
        for (i, v) in a.iter().enumerate() {
            if i > 0 {
                self.punct(b',');
            }
            self.value(v, level + 1);
        }
        self.punct(b']');
    }

    fn string(&mut self, s: &str) {
        match self.size {
            Size::Skip => {}
            Size::Bytes => self.bytes += s.len() + 2,
            Size::TokenFloor => {
                self.runs.push(Class::Punct);
                self.runs.push_bytes(s.as_bytes());
                self.runs.push(Class::Punct);
            }
        }
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
        match self.size {
            Size::Bytes => self.bytes += bytes,
            Size::TokenFloor => self.runs.push(class),
            Size::Skip => {}
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Letter,
    Digit,
    Punct,
    Space,
    Joiner,
}

/// The class of each byte as it stands in a JSON string's content.
static CLASS: [Class; 256] = {
    let mut t = [Class::Joiner; 256];
    let mut b = 0x20;
    while b < 0x80 {
        t[b] = match b as u8 {
            b'a'..=b'z' | b'A'..=b'Z' => Class::Letter,
            b'0'..=b'9' => Class::Digit,
            b' ' => Class::Space,
            b'\'' => Class::Joiner,
            _ => Class::Punct,
        };
        b += 1;
    }
    t
};

/// Counts the pieces that runs take at least (see the module docs).
#[derive(Clone, Copy)]
struct Runs {
    /// The class of the current run, and its length.
    class: Class,
    len: usize,
    /// Whether the character before the current run is a joiner.
    after_joiner: bool,
    total: usize,
}

impl Default for Runs {
    fn default() -> Runs {
        Runs {
            class: Class::Space,
            len: 0,
            after_joiner: false,
            total: 0,
        }
    }
}

impl Runs {
    #[inline]
    fn push(&mut self, c: Class) {
        if c == self.class {
            self.len += 1;
            return;
        }
        self.end(c);
        self.after_joiner = self.class == Class::Joiner;
        self.class = c;
        self.len = 1;
    }

    /// [`Self::push`] of the class of each byte of a string's content, on
    /// a copy held in locals through the loop (strings are most of what a
    /// value survey reads).
    fn push_bytes(&mut self, bytes: &[u8]) {
        let mut run = *self;
        for &b in bytes {
            run.push(CLASS[usize::from(b)]);
        }
        *self = run;
    }

    /// Ends the current run before a character of class `next`.
    #[inline]
    fn end(&mut self, next: Class) {
        if self.after_joiner || next == Class::Joiner {
            return;
        }
        self.total += match self.class {
            Class::Letter => 1,
            Class::Digit => self.len.div_ceil(3),
            Class::Punct => usize::from(self.len >= 2 || next != Class::Letter),
            Class::Space | Class::Joiner => 0,
        };
    }

    fn finish(&mut self) {
        self.end(Class::Space);
        self.class = Class::Space;
        self.len = 0;
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
