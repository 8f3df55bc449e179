//! `pith measure`: every form's bytes and tokens per file, and what `auto` chose.

use crate::args::MeasureArgs;
use crate::cmd::tokenizer_kind;
use crate::fail::Failure;
use crate::io::{Input, write_output};
use pith::select::{self, Form, Measurement};
use pith::toon::EncodeOptions;
use pith::{Map, Value, json};

pub fn run(a: MeasureArgs) -> Result<(), Failure> {
    let kind = tokenizer_kind(&a.tokenizer)?;
    let mut results: Vec<(String, Measurement)> = Vec::with_capacity(a.files.len());
    for path in &a.files {
        let input = Input::read(Some(path))?;
        let value = json::parse_bytes(&input.bytes).map_err(|e| input.failure(e))?;
        let m = select::measure(&value, kind, &EncodeOptions::default())
            .map_err(|e| input.failure(e))?;
        results.push((input.name, m));
    }
    let text = if a.json {
        as_json(&results, kind.name())
    } else {
        as_table(&results, kind.name())
    };
    write_output(None, text.as_bytes())
}

/// Per form, the sum over files.
fn totals(results: &[(String, Measurement)]) -> Vec<(Form, usize, usize)> {
    Form::ALL
        .iter()
        .enumerate()
        .map(|(i, &form)| {
            let (b, t) = results.iter().fold((0, 0), |(b, t), (_, m)| {
                let c = m.candidates.get(i).map_or((0, 0), |c| (c.bytes, c.tokens));
                (b + c.0, t + c.1)
            });
            (form, b, t)
        })
        .collect()
}

fn as_table(results: &[(String, Measurement)], tokenizer: &str) -> String {
    let mut out = String::new();
    let head = format!("{:<16} {:>10} {:>10}", "form", "bytes", tokenizer);
    for (name, m) in results {
        out.push_str(&format!("{name}\n  {head}\n"));
        for c in &m.candidates {
            let note = if c.form == Form::Auto {
                format!("  {}", m.auto.describe())
            } else {
                String::new()
            };
            out.push_str(&format!(
                "  {:<16} {:>10} {:>10}{note}\n",
                c.form.name(),
                c.bytes,
                c.tokens
            ));
        }
    }
    if results.len() > 1 {
        out.push_str(&format!("total ({} files)\n  {head}\n", results.len()));
        for (form, b, t) in totals(results) {
            out.push_str(&format!("  {:<16} {b:>10} {t:>10}\n", form.name()));
        }
    }
    out
}

fn as_json(results: &[(String, Measurement)], tokenizer: &str) -> String {
    let sizes = |bytes: usize, tokens: usize| {
        let mut m = Map::new();
        m.insert("bytes", Value::from(bytes));
        m.insert("tokens", Value::from(tokens));
        m
    };
    let mut files = Vec::with_capacity(results.len());
    for (name, m) in results {
        let mut forms = Map::new();
        for c in &m.candidates {
            forms.insert(c.form.name(), Value::Object(sizes(c.bytes, c.tokens)));
        }
        let tables = m
            .auto
            .tables
            .iter()
            .map(|c| {
                let mut t = Map::new();
                t.insert("path", Value::from(c.path.as_str()));
                t.insert("form", Value::from(c.form.name()));
                Value::Object(t)
            })
            .collect();
        let mut auto = Map::new();
        auto.insert("chose", Value::from(m.auto.describe()));
        let syntax = match m.auto.syntax {
            select::Syntax::Toon => "toon",
            select::Syntax::Json => "json",
        };
        auto.insert("syntax", Value::from(syntax));
        auto.insert("wrapped", Value::from(m.auto.wrapped));
        auto.insert("tables", Value::Array(tables));
        let mut f = Map::new();
        f.insert("file", Value::from(name.as_str()));
        f.insert("forms", Value::Object(forms));
        f.insert("auto", Value::Object(auto));
        files.push(Value::Object(f));
    }
    let mut total = Map::new();
    for (form, b, t) in totals(results) {
        total.insert(form.name(), Value::Object(sizes(b, t)));
    }
    let mut doc = Map::new();
    doc.insert("tokenizer", Value::from(tokenizer));
    doc.insert("files", Value::Array(files));
    doc.insert("total", Value::Object(total));
    let mut text = json::to_string_pretty(&Value::Object(doc), 2);
    text.push('\n');
    text
}
