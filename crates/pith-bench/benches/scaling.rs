//! Growth with input size: each shape is run at `n` and `4n`, round-robin
//! in one process, and the ratio of the medians is the growth per 4x input.
//! Linear work grows about 4x; the target is at most 4.5x for every shape
//! (quadratic work would grow 16x). Beyond the caches even linear work
//! grows faster, so a yardstick runs beside each shape: the same data as
//! compact JSON, read by `json::parse` and written back (linear by
//! construction). A shape also passes when it grows at most 4.5/4 times as
//! fast as its yardstick. `PITH_SCALING_SCALE=K` multiplies every `n` by K.
//!
//! The shapes are the ones that grow badly when a lookup scans:
//!
//! * object width: an object of `n` keys shaped like hoisted metadata
//!   (`k_encoding: {json_columns: []}`), through `auto` and back;
//! * collection count: `n` hoisted collections in one object, written
//!   `hoisted-compact` and `auto`, and the first read back;
//! * references of one name: rows whose `n` distinct timestamps each occur
//!   twice, which the notation names `at`, `at2`, … (through `auto`);
//! * JSON columns: 20 rows of `n` JSON cells each (`hoisted`), both ways;
//! * escaped strings: `a[n]: "\"","\"",…` decoded, and a run of `"\`
//!   counted in o200k tokens;
//! * schema types: `n` object types, each a field of one root type, loaded
//!   and checked, and a root type of `n` fields with defaults filled and
//!   elided;
//! * alias chains: `n` types, each naming the next, loaded;
//! * nesting depth: `n` objects each holding the next, over one line of
//!   `1000 n` numbers, through `auto` (the layouts of each level weighed);
//! * `Map::from_iter` of `n` keys.
//!
//! Run: `cargo bench -p pith-bench --bench scaling` (`-- --runs N`, `-- --check`
//! exits non-zero when a shape grows more than 4.5x).

use pith::select::{self, Form, Options};
use pith::tokens::{Tokenizer, TokenizerKind};
use pith::{Map, Value};
use pith_wire::Schema;
use std::time::Duration;
use support::Contestant;

#[path = "../../pith/benches/support/mod.rs"]
mod support;

/// Most growth per 4x input that counts as linear.
const TARGET: f64 = 4.5;

/// A shape: its name, its base size, the work at size `n` (inputs are
/// built outside the timings, by `prepare`), and the data it works on as a
/// value, for the yardstick.
struct Shape {
    name: &'static str,
    n: usize,
    prepare: fn(usize) -> Box<dyn FnMut()>,
    data: fn(usize) -> Value,
}

fn main() {
    let support::Args { runs, check } = support::Args::parse();
    let shapes = [
        Shape {
            name: "object width: auto encode",
            n: 5_000,
            prepare: |n| auto(metadata_keys(n)),
            data: metadata_keys,
        },
        Shape {
            name: "object width: decode",
            n: 5_000,
            prepare: |n| {
                let text = select::encode(&metadata_keys(n), &Options::default())
                    .unwrap()
                    .text;
                Box::new(move || {
                    keep(select::decode(text.as_bytes(), &Default::default()).unwrap())
                })
            },
            data: metadata_keys,
        },
        Shape {
            name: "collections: hoisted-compact encode",
            n: 2_000,
            prepare: |n| {
                let v = collections(n);
                Box::new(move || keep(select::encode(&v, &form(Form::HoistedCompact)).unwrap()))
            },
            data: collections,
        },
        Shape {
            name: "collections: auto encode",
            n: 2_000,
            prepare: |n| auto(collections(n)),
            data: collections,
        },
        Shape {
            name: "collections: hoisted-compact decode",
            n: 2_000,
            prepare: |n| {
                let text = select::encode(&collections(n), &form(Form::HoistedCompact))
                    .unwrap()
                    .text;
                Box::new(move || {
                    keep(select::decode(text.as_bytes(), &Default::default()).unwrap())
                })
            },
            data: collections,
        },
        Shape {
            name: "references of one name: auto encode",
            n: 1_000,
            prepare: |n| auto(repeated_stamps(n)),
            data: repeated_stamps,
        },
        Shape {
            name: "JSON columns: hoisted encode",
            n: 1_000,
            prepare: |n| {
                let v = json_columns(n);
                Box::new(move || keep(select::encode(&v, &form(Form::Hoisted)).unwrap()))
            },
            data: json_columns,
        },
        Shape {
            name: "JSON columns: decode",
            n: 1_000,
            prepare: |n| {
                let text = select::encode(&json_columns(n), &form(Form::Hoisted))
                    .unwrap()
                    .text;
                Box::new(move || {
                    keep(select::decode(text.as_bytes(), &Default::default()).unwrap())
                })
            },
            data: json_columns,
        },
        Shape {
            name: "escaped strings: decode",
            n: 50_000,
            prepare: |n| {
                let text = format!("a[{n}]: {}", vec![r#""\"""#; n].join(","));
                Box::new(move || {
                    keep(select::decode(text.as_bytes(), &Default::default()).unwrap())
                })
            },
            data: |n| Value::Array(vec![Value::from("\""); n]),
        },
        Shape {
            name: "escaped run: o200k count",
            n: 250_000,
            prepare: |n| {
                let text = "\"\\".repeat(n);
                let tokenizer = Tokenizer::get(TokenizerKind::O200k);
                Box::new(move || keep(tokenizer.count(&text)))
            },
            data: |n| Value::from("\"\\".repeat(n)),
        },
        Shape {
            name: "schema types: load and check",
            n: 1_000,
            prepare: |n| {
                let (defs, value) = many_types(n);
                Box::new(move || {
                    let schema = Schema::from_value(&defs).unwrap();
                    keep(pith_wire::check(&schema, "Root", &value, &Default::default()).unwrap())
                })
            },
            data: |n| many_types(n).0,
        },
        Shape {
            name: "wide type: fill and elide",
            n: 4_000,
            prepare: |n| {
                let (schema, value) = wide_type(n);
                Box::new(move || {
                    let filled = pith_wire::fill(&schema, "Root", value.clone()).unwrap();
                    keep(pith_wire::elide(&schema, "Root", filled).unwrap())
                })
            },
            data: |n| wide_type(n).1,
        },
        Shape {
            name: "alias chain: load",
            n: 2_000,
            prepare: |n| {
                let defs = alias_chain(n);
                Box::new(move || keep(Schema::from_value(&defs).unwrap()))
            },
            data: alias_chain,
        },
        Shape {
            name: "nesting depth: auto encode",
            n: 16,
            prepare: |n| auto(nested_levels(n)),
            data: nested_levels,
        },
        Shape {
            name: "Map::from_iter",
            n: 10_000,
            prepare: |n| {
                let keys: Vec<String> = (0..n).map(|i| format!("key{i}")).collect();
                Box::new(move || {
                    keep(
                        keys.iter()
                            .map(|k| (k.as_str(), Value::Null))
                            .collect::<Map>(),
                    )
                })
            },
            data: |n| object((0..n).map(|i| (format!("key{i}"), Value::Null))),
        },
    ];
    println!(
        "growth per 4x input, medians of {runs} runs (spread: fastest-slowest);\n\
         yardstick: compact JSON of the same data written and read back\n"
    );
    let mut missed = Vec::new();
    let scale: usize = std::env::var("PITH_SCALING_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    for shape in &shapes {
        let n = shape.n * scale;
        let small = (shape.prepare)(n);
        let large = (shape.prepare)(4 * n);
        let (small_json, large_json) = (
            pith::json::stringify(&(shape.data)(n)),
            pith::json::stringify(&(shape.data)(4 * n)),
        );
        let yardstick = |text: &str| keep(pith::json::stringify(&pith::json::parse(text).unwrap()));
        let mut cs = vec![
            Contestant::new("n", small),
            Contestant::new("4n", large),
            Contestant::new("yardstick n", || yardstick(&small_json)),
            Contestant::new("yardstick 4n", || yardstick(&large_json)),
        ];
        let medians = support::round_robin(&mut cs, runs);
        let growth = medians[1].as_secs_f64() / medians[0].as_secs_f64();
        let linear = medians[3].as_secs_f64() / medians[2].as_secs_f64();
        // Linear: within the target, or no faster growth than the yardstick
        // (the same memory hierarchy slows both alike at larger sizes).
        let ok = growth <= TARGET || growth <= linear * TARGET / 4.0;
        let mark = if ok { "ok" } else { "MISSED" };
        println!(
            "{:<38} n={:<7} {} | 4n {} | {growth:.2}x (yardstick {linear:.2}x) {mark}",
            shape.name,
            n,
            spread(medians[0], &cs[0].times),
            spread(medians[1], &cs[1].times),
        );
        if !ok {
            missed.push(format!("{}: {growth:.2}x", shape.name));
        }
    }
    if missed.is_empty() {
        println!("\nall shapes grow at most {TARGET}x per 4x input");
    } else {
        println!("\ntargets missed: {}", missed.join(", "));
        if check {
            std::process::exit(1);
        }
    }
}

fn keep<T>(x: T) {
    std::hint::black_box(x);
}

fn spread(median: Duration, times: &[Duration]) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!(
        "{:>8.2} ms ({:.2}-{:.2})",
        ms(median),
        ms(times[0]),
        ms(times[times.len() - 1])
    )
}

/// `v` through `auto`, with the default options.
fn auto(v: Value) -> Box<dyn FnMut()> {
    Box::new(move || keep(select::encode(&v, &Options::default()).unwrap()))
}

fn form(form: Form) -> Options {
    Options::default().form(form)
}

fn object(entries: impl IntoIterator<Item = (String, Value)>) -> Value {
    Value::Object(entries.into_iter().collect())
}

fn metadata_keys(n: usize) -> Value {
    object((0..n).map(|i| {
        let meta = object([("json_columns".to_owned(), Value::Array(vec![]))]);
        (format!("k{i}_encoding"), meta)
    }))
}

/// `n` nested objects, each holding the next and a small one of its own,
/// over an array of `1000 n` numbers (one line, so that the text grows as
/// the value does): depth and size both grow with `n`.
fn nested_levels(n: usize) -> Value {
    let numbers = (0..1000 * n).map(|i| Value::from(i as i64)).collect();
    let mut v = object([("data".to_owned(), Value::Array(numbers))]);
    for level in 0..n {
        let meta = object([("depth".to_owned(), Value::from(level as i64))]);
        v = object([(format!("level{level}"), v), ("meta".to_owned(), meta)]);
    }
    v
}

fn collections(n: usize) -> Value {
    object((0..n).map(|i| {
        let row = |a: i64, b: Vec<Value>| {
            object([
                ("a".to_owned(), Value::from(a)),
                ("b".to_owned(), Value::Array(b)),
            ])
        };
        let rows = vec![
            row(1, vec![Value::from(1), Value::from(2)]),
            row(2, vec![Value::from(3)]),
        ];
        (format!("c{i}"), Value::Array(rows))
    }))
}

/// Rows whose `at` values each occur twice, far apart: `n` references the
/// notation names from one base (`at`, `at2`, `at3`, …).
fn repeated_stamps(n: usize) -> Value {
    let stamp = |i: usize| {
        Value::from(format!(
            "2025-{:02}-{:02}T{:06}Z",
            i % 12 + 1,
            i % 28 + 1,
            i
        ))
    };
    let rows = (0..2 * n).map(|r| {
        object([
            ("id".to_owned(), Value::from(r as i64)),
            ("at".to_owned(), stamp(r % n)),
        ])
    });
    object([("rows".to_owned(), Value::Array(rows.collect()))])
}

fn json_columns(n: usize) -> Value {
    let rows = (0..20)
        .map(|r| {
            object((0..n).map(|j| {
                let cell = Value::Array(vec![
                    object([("x".to_owned(), Value::from(j + r))]),
                    Value::from(1),
                ]);
                (format!("col{j}"), cell)
            }))
        })
        .collect();
    object([("rows".to_owned(), Value::Array(rows))])
}

fn many_types(n: usize) -> (Value, Value) {
    let field_type = || {
        object([
            ("a".to_owned(), Value::from("string")),
            ("b?".to_owned(), Value::from("number")),
        ])
    };
    let mut defs: Vec<(String, Value)> = (0..n).map(|i| (format!("T{i}"), field_type())).collect();
    defs.push((
        "Root".to_owned(),
        object((0..n).map(|i| (format!("f{i}"), Value::from(format!("T{i}"))))),
    ));
    let value = object((0..n).map(|i| {
        (
            format!("f{i}"),
            object([("a".to_owned(), Value::from("x"))]),
        )
    }));
    (object(defs), value)
}

fn wide_type(n: usize) -> (Schema, Value) {
    // Every other field has a default; the value carries the others.
    let field = |i: usize| {
        if i.is_multiple_of(2) {
            (
                format!("f{i}"),
                object([
                    ("$type".to_owned(), Value::from("number")),
                    ("$absentAs".to_owned(), Value::from(0)),
                ]),
            )
        } else {
            (format!("f{i}"), Value::from("number"))
        }
    };
    let defs = object([("Root".to_owned(), object((0..n).map(field)))]);
    let value = object(
        (0..n)
            .filter(|i| i % 2 == 1)
            .map(|i| (format!("f{i}"), Value::from(i))),
    );
    (Schema::from_value(&defs).unwrap(), value)
}

fn alias_chain(n: usize) -> Value {
    object((0..=n).map(|i| {
        let def = if i == n {
            "string".to_owned()
        } else {
            format!("T{}", i + 1)
        };
        (format!("T{i}"), Value::from(def))
    }))
}
