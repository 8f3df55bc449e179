//! `pith measure`: every form's bytes and tokens per file, and what `auto` chose.

use crate::args::{MeasureArgs, tokenizer_kind};
use crate::fail::Failure;
use crate::io::{Input, write_output};
use crate::schema;
use pith::select::{self, Form, Measurement};
use pith::tokens::Tokenizer;
use pith::toon::EncodeOptions;
use pith::wire;
use pith::{Map, Value, json};

pub fn run(a: MeasureArgs) -> Result<(), Failure> {
    let kind = tokenizer_kind(&a.tokenizer).map_err(Failure::Usage)?;
    let tokenizer = Tokenizer::get(kind);
    let schema = schema::load_ref(&a.schema)?;
    let mut results: Vec<File> = Vec::with_capacity(a.files.len());
    for path in &a.files {
        let input = Input::read(Some(path))?;
        let mut value = json::parse_bytes(&input.bytes).map_err(|e| input.failure(e))?;
        let mut before = None;
        if let Some((schema, type_name)) = &schema {
            let text = json::stringify(&value);
            before = Some((text.len(), tokenizer.count(&text)));
            value = wire::elide(schema, type_name, value).map_err(|e| input.failure(e))?;
        }
        let m = select::measure(&value, kind, &EncodeOptions::default())
            .map_err(|e| input.failure(e))?;
        results.push(File {
            name: input.name,
            before,
            m,
        });
    }
    let text = if a.json {
        as_json(&results, kind.name())
    } else {
        as_table(&results, kind.name())
    };
    write_output(None, text.as_bytes())
}

/// One file's measurement, and with `--schema`, the compact JSON of the
/// file as given (bytes, tokens), before elision.
struct File {
    name: String,
    before: Option<(usize, usize)>,
    m: Measurement,
}

impl File {
    /// The tokens of what auto writes.
    fn auto_tokens(&self) -> usize {
        self.m
            .candidates
            .iter()
            .find(|c| c.form == Form::Auto)
            .map_or(0, |c| c.tokens)
    }
}

/// One row of the table: a name, bytes and tokens, and a note after them.
fn row(out: &mut String, name: &str, bytes: usize, tokens: usize, note: &str) {
    out.push_str(&format!("  {name:<16} {bytes:>10} {tokens:>10}{note}\n"));
}

/// A candidate's row: its sizes, its readability score, and a note.
fn scored_row(out: &mut String, c: &select::Candidate, note: &str) {
    let score = format!("{:>12}{note}", c.readability);
    row(out, c.form.name(), c.bytes, c.tokens, &score);
}

/// The line under a `--schema` measurement: what elision plus auto saved.
fn saving(out: &mut String, before: usize, after: usize, tokenizer: &str) {
    out.push_str(&format!(
        "  elided + auto: {} fewer {tokenizer} tokens than the compact JSON as given\n",
        fewer(before, after)
    ));
}

/// `part` as a percentage below `whole`, for the "fewer" column.
fn fewer(whole: usize, part: usize) -> String {
    if whole == 0 {
        return "0.0%".to_owned();
    }
    format!(
        "{:.1}%",
        100.0 * (whole as f64 - part as f64) / whole as f64
    )
}

/// Per form, the sum over files.
fn totals(results: &[File]) -> Vec<(Form, usize, usize)> {
    Form::ALL
        .iter()
        .enumerate()
        .map(|(i, &form)| {
            let (b, t) = results.iter().fold((0, 0), |(b, t), f| {
                let c =
                    f.m.candidates
                        .get(i)
                        .map_or((0, 0), |c| (c.bytes, c.tokens));
                (b + c.0, t + c.1)
            });
            (form, b, t)
        })
        .collect()
}

fn as_table(results: &[File], tokenizer: &str) -> String {
    const AS_GIVEN: &str = "json (as given)";
    let mut out = String::new();
    let head = format!("{:<16} {:>10} {:>10}", "form", "bytes", tokenizer);
    let scored_head = format!("{head} {:>11}", "readability");
    for f in results {
        let (name, m) = (&f.name, &f.m);
        out.push_str(&format!("{name}\n  {scored_head}\n"));
        if let Some((b, t)) = f.before {
            row(&mut out, AS_GIVEN, b, t, "");
        }
        for c in &m.candidates {
            let note = if c.form == Form::Auto {
                format!("  {}", m.auto.describe())
            } else {
                String::new()
            };
            scored_row(&mut out, c, &note);
        }
        if let Some((_, t)) = f.before {
            saving(&mut out, t, f.auto_tokens(), tokenizer);
        }
    }
    if results.len() > 1 {
        out.push_str(&format!("total ({} files)\n  {head}\n", results.len()));
        let before = before_total(results);
        if let Some((b, t)) = before {
            row(&mut out, AS_GIVEN, b, t, "");
        }
        let mut auto = 0;
        for (form, b, t) in totals(results) {
            row(&mut out, form.name(), b, t, "");
            if form == Form::Auto {
                auto = t;
            }
        }
        if let Some((_, t)) = before {
            saving(&mut out, t, auto, tokenizer);
        }
    }
    out
}

/// The compact JSON of every file as given, summed; `None` without `--schema`.
fn before_total(results: &[File]) -> Option<(usize, usize)> {
    results.iter().try_fold((0, 0), |(b, t), f| {
        f.before.map(|(fb, ft)| (b + fb, t + ft))
    })
}

fn as_json(results: &[File], tokenizer: &str) -> String {
    let sizes = |bytes: usize, tokens: usize| {
        let mut m = Map::new();
        m.insert("bytes", Value::from(bytes));
        m.insert("tokens", Value::from(tokens));
        m
    };
    let mut files = Vec::with_capacity(results.len());
    for file in results {
        let mut f = Map::new();
        f.insert("file", Value::from(file.name.as_str()));
        for (k, v) in file.m.report() {
            f.insert(k, v);
        }
        if let Some((b, t)) = file.before {
            f.insert("as_given", Value::Object(sizes(b, t)));
        }
        files.push(Value::Object(f));
    }
    let mut total = Map::new();
    for (form, b, t) in totals(results) {
        total.insert(form.name(), Value::Object(sizes(b, t)));
    }
    if let Some((b, t)) = before_total(results) {
        total.insert("as_given", Value::Object(sizes(b, t)));
    }
    let mut doc = Map::new();
    doc.insert("tokenizer", Value::from(tokenizer));
    doc.insert("files", Value::Array(files));
    doc.insert("total", Value::Object(total));
    let mut text = json::stringify_pretty(&Value::Object(doc), 2);
    text.push('\n');
    text
}
