//! The reader against the library: whatever [`read`] accepts, the library
//! reads to the same value (and [`read`] accepts what it is meant to).

use super::read;
use crate::decode::decode;
use crate::sink::{Num, Sink, walk};
use pith::select::{self, Form};
use pith::toon::{DecodeOptions, Delimiter, EncodeOptions};
use pith::{Map, Number, Value};
use std::path::PathBuf;

#[path = "../tests/support/mod.rs"]
mod support;
use support::Rng;

/// One event, as a sink receives it.
#[derive(Debug, Clone, PartialEq)]
enum Event {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(usize),
    Object,
    Key(String),
    End,
    Row(usize),
}

/// Records the events, and builds the value they stand for.
#[derive(Default)]
struct Recorder {
    events: Vec<Event>,
    shapes: Vec<Vec<String>>,
}

impl Sink for Recorder {
    type Shape = usize;
    fn null(&mut self) {
        self.events.push(Event::Null);
    }
    fn bool(&mut self, v: bool) {
        self.events.push(Event::Bool(v));
    }
    fn number(&mut self, n: Num<'_>) {
        self.events.push(Event::Number(n.to_number()));
    }
    fn string(&mut self, s: &str) {
        self.events.push(Event::String(s.to_owned()));
    }
    fn array(&mut self, len: usize) {
        self.events.push(Event::Array(len));
    }
    fn object(&mut self) {
        self.events.push(Event::Object);
    }
    fn key(&mut self, k: &str) {
        self.events.push(Event::Key(k.to_owned()));
    }
    fn end_object(&mut self) {
        self.events.push(Event::End);
    }
    fn shape(&mut self, keys: &[&str]) -> usize {
        self.shapes
            .push(keys.iter().map(|k| k.to_string()).collect());
        self.shapes.len() - 1
    }
    fn row(&mut self, shape: usize) {
        self.events.push(Event::Row(shape));
    }
}

impl Recorder {
    /// The value of the events, checking that they make exactly one.
    fn value(&self) -> Value {
        let mut at = 0;
        let v = self.build(&mut at);
        assert_eq!(at, self.events.len(), "events after the value");
        v
    }

    fn build(&self, at: &mut usize) -> Value {
        let e = self.events[*at].clone();
        *at += 1;
        match e {
            Event::Null => Value::Null,
            Event::Bool(b) => Value::Bool(b),
            Event::Number(n) => Value::Number(n),
            Event::String(s) => Value::String(s),
            Event::Array(n) => Value::Array((0..n).map(|_| self.build(at)).collect()),
            Event::Object => {
                let mut m = Map::new();
                loop {
                    match self.events[*at].clone() {
                        Event::End => {
                            *at += 1;
                            return Value::Object(m);
                        }
                        Event::Key(k) => {
                            *at += 1;
                            let v = self.build(at);
                            assert!(m.insert(k, v).is_none(), "a repeated key");
                        }
                        other => panic!("expected a key, found {other:?}"),
                    }
                }
            }
            Event::Row(shape) => {
                let mut m = Map::new();
                for k in &self.shapes[shape] {
                    let v = self.build(at);
                    m.insert(k.clone(), v);
                }
                Value::Object(m)
            }
            other => panic!("expected a value, found {other:?}"),
        }
    }
}

/// Whether `read` accepts `text`; when it does, the library reads the same
/// value from it (keys in the same order, numbers exactly).
fn agrees(text: &str, opts: &DecodeOptions) -> bool {
    let mut sink = Recorder::default();
    if !read(text, opts, &mut sink) {
        return false;
    }
    let mine = sink.value();
    match decode(text.as_bytes(), opts) {
        Ok(want) => {
            assert_eq!(
                pith::json::stringify(&mine),
                pith::json::stringify(&want),
                "{text:?}"
            );
            assert_eq!(mine, want, "{text:?}");
        }
        Err(e) => panic!("read accepts what the library refuses ({e}): {text:?}"),
    }
    true
}

fn strict() -> DecodeOptions {
    DecodeOptions::default()
}

fn lenient() -> DecodeOptions {
    DecodeOptions::default().strict(false)
}

/// Every dataset file, as JSON text.
fn dataset_files() -> Vec<(PathBuf, String)> {
    support::dataset_files()
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path, text)
        })
        .collect()
}

#[test]
fn reads_what_the_library_reads_on_every_dataset() {
    let layouts = [
        (2, Delimiter::Comma),
        (4, Delimiter::Tab),
        (1, Delimiter::Pipe),
    ];
    let mut accepted = 0;
    let mut texts = 0;
    for (path, json) in dataset_files() {
        let value = pith::json::parse(&json).unwrap();
        for (indent, delimiter) in layouts {
            let toon = EncodeOptions::default().indent(indent).delimiter(delimiter);
            let opts = select::Options::default().form(Form::Toon).toon(toon);
            let text = select::encode(&value, &opts).unwrap().text;
            let read_opts = strict().indent(indent);
            texts += 1;
            if agrees(&text, &read_opts) {
                accepted += 1;
                assert!(agrees(&text, &read_opts.clone().strict(false)));
            }
        }
        for form in Form::ALL {
            let opts = select::Options::default().form(form);
            let text = select::encode(&value, &opts).unwrap().text;
            agrees(&text, &strict());
            agrees(&text, &lenient());
        }
        let name = path.file_name().unwrap().to_string_lossy();
        if name.starts_with("gen-") {
            let text = pith::toon::encode(&value, &EncodeOptions::default()).unwrap();
            assert!(agrees(&text, &strict()), "{name} is left to the library");
        }
    }
    // Most files in every layout: those without nested field groups,
    // keyed tables or look-alikes.
    assert!(accepted * 2 >= texts, "{accepted} of {texts} texts read");
}

#[test]
fn reads_what_the_library_reads_on_the_spec_fixtures() {
    let mut cases = 0;
    let mut accepted = 0;
    for suite in ["v4.1.1", "v4.0"] {
        let dir = support::shared()
            .join("toon-spec")
            .join(suite)
            .join("tests/fixtures/decode");
        let Ok(files) = std::fs::read_dir(&dir) else {
            panic!("{} is missing", dir.display());
        };
        for file in files.flatten() {
            let text = std::fs::read_to_string(file.path()).unwrap();
            let fixture = pith::json::parse(&text).unwrap();
            for case in fixture["tests"].as_array().unwrap() {
                let Some(input) = case["input"].as_str() else {
                    continue;
                };
                let options = &case["options"];
                let mut opts = DecodeOptions::default();
                if let Some(s) = options["strict"].as_bool() {
                    opts = opts.strict(s);
                }
                if let Some(n) = options["indent"].as_u64() {
                    opts = opts.indent(n as usize);
                }
                cases += 1;
                if agrees(input, &opts) {
                    accepted += 1;
                }
            }
        }
    }
    assert!(cases > 600, "only {cases} fixture cases");
    assert!(accepted > 200, "only {accepted} of {cases} read");
}

/// Texts at the edges of each rule: whatever the reader takes, the
/// library reads the same.
#[test]
fn reads_what_the_library_reads_at_each_rule() {
    let taken = [
        "a: 1\nb: x y\nc: \"q: \\\"r\\\"\\n\\u00e9\"\nd: -0\ne: -0.0\nf: 1.50\ng: 1e5",
        "rows[2]{id,\"first name\",ok}:\n  1,Ada,true\n  2,\"B, b\",null",
        "rows[2|]{a|b}:\n  1|x,y\n  2|\"p|q\"",
        "rows[2\t]{a\tb}:\n  1\t2\n  3\t4",
        "[3]: 1,2,3",
        "[2]{a,b}:\n  1,2\n  3,4",
        "[2]:\n  - 1\n  - x",
        "a[0]:\nb: []\nc:\nd: \"[]\"",
        "items[4]:\n  -\n  - []\n  - [2|]: a|b\n  - [1]:\n    - x",
        "list[2]:\n  - id: 1\n    tags[2]: a,b\n    owner:\n      id: 2\n  - id: 2\n    tags[0]:\n    owner:\n      id: 3",
        "list[1]:\n  - rows[1]{a}:\n      1\n    n: 2",
        "list[1]:\n  - o:\n      p: 1\n    q: 2",
        "x",
        "hello world",
        "a:\n  b:\n    c: 1\n  d: 2\ne: 3",
        "a: 05\nb: 1.\nc: .5\nd: -\ne: 1e\nf: 12345678901234567890\ng: 0.1234567890123456789",
        "a[3]: ,x, \nb[2]:  ,  ",
        "k: a: b\nl: x\"y",
        "\"a b\": 1\n\"c[d]\"[1]: 2",
        "é: ü\nn: 😀",
        "a: 1e400",
        "a: 9007199254740993\nb: 123456789012345678",
        "cols: 1\ndict: 2",
        "rows[1]{a,b_encoding}:\n  1,2",
        "a: 1\nb:  2  ",
        "[0]:",
        "t: true\nf: false\nn: null\ns: True",
        "\"$pith\": x\nother: 1",
    ];
    for text in taken {
        for opts in [strict(), lenient()] {
            assert!(agrees(text, &opts), "left to the library: {text:?}");
        }
    }
    let left = [
        "",
        "# comment\na: 1",
        "a: 1\n\nb: 2",
        "a: 1\r\nb: 2",
        "a:\n\tb: 1",
        "a:\n   b: 1",
        "a:\n    b: 1",
        "a: 1\na: 2",
        "rows[2]{a,a}:\n  1,2\n  3,4",
        "rows[1]{a{b}}:\n  1",
        "rows[1:]{a}:\n  k: 1",
        "rows[2]{a}:\n  1",
        "rows[1]{a}:\n  1\n  2",
        "rows[1]{a,b}:\n  1,2,3",
        "rows[1]{a,b}:\n  1",
        "rows[1]{a}:\n  12:30",
        "[2]: 1",
        "[1]: 1,2",
        "a[01]: 1",
        "a [1]: 1",
        "a[1] : 1",
        "k\"q\": 1",
        "a: \"x\" y",
        "a: \"x",
        "a: \"\\q\"",
        "a: \"\\ud800\"",
        "a: 1e1000000000",
        "cols: 1\ndict: 2\nrows: 3",
        "a[0]:\na_encoding:\n  json_columns[0]:",
        "\"$pith\": x\nvalue: 1",
        "\u{feff}a: 1",
        "{\"a\": 1}",
        "[1, 2]",
        "\"x\"",
        "12",
        "true",
        "null: 1",
        "%pith\na: 1",
        "a\nb",
        "a: 1\n  b: 2",
        "l[1]:\n  -x",
        "l[1]:\n    - x",
    ];
    for text in left {
        let mut sink = Recorder::default();
        assert!(!read(text, &strict(), &mut sink), "read: {text:?}");
        agrees(text, &lenient());
    }
    let mut deep = String::new();
    for d in 0..70 {
        deep += &"  ".repeat(d);
        deep += "k:\n";
    }
    deep += &"  ".repeat(70);
    deep += "x: 1";
    assert!(!agrees(&deep, &strict()));
}

/// Texts mutated at random, a byte or a line at a time, around every rule
/// the reader keeps.
#[test]
fn reads_what_the_library_reads_on_mutated_texts() {
    let mut seeds: Vec<String> = [
        r#"{"rows":[{"id":1,"name":"a b","p":9.5,"ok":true},{"id":2,"name":"x, \"y\"","p":-0.25,"ok":null}],"n":{"m":[1,2],"e":[]}}"#,
        r#"{"list":[1,"two",{"a":1,"b":[1,2],"c":{"d":"e"}},[3,[4]],{},[]],"k y":"v: w"}"#,
        r#"[{"a":1,"b":"x"},{"a":2,"b":"y"}]"#,
        r#"{"q":"","r":" s ","t":"1","u":"true","v":"-","w":"a|b\tc","x":"é😀","y":1e300,"z":12345678901234567890}"#,
    ]
    .iter()
    .map(|j| pith::toon::encode(&pith::json::parse(j).unwrap(), &EncodeOptions::default()).unwrap())
    .collect();
    for (_, json) in dataset_files() {
        if json.len() < 4000 {
            let v = pith::json::parse(&json).unwrap();
            seeds.push(pith::toon::encode(&v, &EncodeOptions::default()).unwrap());
        }
    }
    let pieces: &[&[u8]] = &[
        b" ",
        b":",
        b",",
        b"\"",
        b"\\",
        b"[",
        b"]",
        b"{",
        b"}",
        b"- ",
        b"-",
        b"\n",
        b"|",
        b"\t",
        b"0",
        b"a",
        b"#",
        b".",
        b"e",
        b"\r",
        b"\n  ",
        b"[2]",
        b"{a,b}",
        b"\\u00",
        b"cols",
        b"_encoding",
        b"\xc3\xa9",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut accepted = 0;
    let mut tried = 0;
    for seed in &seeds {
        for _ in 0..400 {
            let mut bytes = seed.clone().into_bytes();
            for _ in 0..1 + rng.below(3) {
                if bytes.is_empty() {
                    break;
                }
                let at = rng.below(bytes.len() + 1);
                match rng.below(4) {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 => {
                        let piece = pieces[rng.below(pieces.len())];
                        bytes.splice(at..at, piece.iter().copied());
                    }
                    2 => {
                        // A line repeated or dropped.
                        let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
                        let i = rng.below(lines.len());
                        let mut out: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
                        if rng.below(2) == 0 {
                            out.insert(i, lines[i].to_vec());
                        } else if out.len() > 1 {
                            out.remove(i);
                        }
                        bytes = out.join(&b'\n');
                    }
                    _ if at < bytes.len() => {
                        let piece = pieces[rng.below(pieces.len())];
                        bytes.splice(
                            at..(at + piece.len()).min(bytes.len()),
                            piece.iter().copied(),
                        );
                    }
                    _ => {}
                }
            }
            let Ok(text) = String::from_utf8(bytes) else {
                continue;
            };
            tried += 1;
            if agrees(&text, &strict()) {
                accepted += 1;
            }
            agrees(&text, &lenient());
        }
    }
    assert!(
        accepted * 10 >= tried,
        "{accepted} of {tried} mutated texts read"
    );
}

/// Values walked into a sink give the events the reader sends for their
/// TOON text.
#[test]
fn walking_a_value_sends_what_reading_its_text_sends() {
    let json = r#"{"a":[{"x":1,"y":"s"},{"x":2.5,"y":null}],"b":{"c":[true,false]}}"#;
    let value = pith::json::parse(json).unwrap();
    let mut walked = Recorder::default();
    walk(&value, &mut walked);
    let text = pith::toon::encode(&value, &EncodeOptions::default()).unwrap();
    let mut read_back = Recorder::default();
    assert!(read(&text, &strict(), &mut read_back));
    assert_eq!(walked.value(), read_back.value());
    assert_eq!(walked.value(), value);
}
