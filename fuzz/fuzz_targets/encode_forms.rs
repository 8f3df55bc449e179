//! The fact-preservation contract across every form: any JSON text pith
//! reads, written in each form `pith encode` offers (auto by tokens or by
//! bytes, TOON 4 and 3.3 with key folding, both hoisted forms, columnar
//! tables, compact JSON), with the layout the first byte picks, decodes back
//! to the same value; and auto is never larger than compact JSON by its own
//! measure.
//!
//! The first byte: bits 0-1 pick the delimiter, bits 2-3 the indent (1-4),
//! bits 4-5 what auto minimises (o200k, cl100k, bytes, `ceil(bytes / 4)`).
//! The rest is the JSON text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::equiv::{difference, equivalent};
use pith::select::{self, Form, Metric, Options};
use pith::tokens::{Tokenizer, TokenizerKind};
use pith::toon::{Delimiter, DecodeOptions, EncodeOptions, ExpandPaths, KeyFolding, Spec};
use pith::{ErrorKind, Value};

fuzz_target!(|data: &[u8]| {
    let Some((&layout, text)) = data.split_first() else {
        return;
    };
    let Ok(value) = pith::json::parse_bytes(text) else {
        return;
    };
    let delimiter = [
        Delimiter::Comma,
        Delimiter::Tab,
        Delimiter::Pipe,
        Delimiter::Comma,
    ][usize::from(layout & 3)];
    let indent = usize::from((layout >> 2) & 3) + 1;
    let metric = [
        Metric::Tokens(TokenizerKind::O200k),
        Metric::Tokens(TokenizerKind::Cl100k),
        Metric::Bytes,
        Metric::Tokens(TokenizerKind::Bytes4),
    ][usize::from((layout >> 4) & 3)];
    let toon = EncodeOptions::default().indent(indent).delimiter(delimiter);
    let decode = DecodeOptions::default().indent(indent);

    let mut json_size = None;
    for form in Form::ALL {
        let opts = Options::default().form(form).metric(metric).toon(toon.clone());
        let Some(text) = encode(&value, &opts) else {
            return;
        };
        check(&value, &text, &decode, form.name());
        let size = measure(metric, &text);
        match form {
            Form::Json => json_size = Some(size),
            Form::Auto => {
                let json = json_size.expect("Form::ALL lists json before auto");
                assert!(size <= json, "auto {size} > json {json}:\n{text}");
            }
            _ => {}
        }
    }

    let v3 = Options::default().form(Form::Toon).metric(metric).toon(toon.spec(Spec::V3).key_folding(KeyFolding::Safe));
    if let Some(text) = encode(&value, &v3) {
        let expand = decode.spec(Spec::V3).expand_paths(ExpandPaths::Safe);
        check(&value, &text, &expand, "toon3, key folding");
    }
});

/// The text of `value` in `opts`, or `None` when it nests past the depth
/// limit (the only refusal allowed for a value the JSON reader accepted).
fn encode(value: &Value, opts: &Options) -> Option<String> {
    match select::encode(value, opts) {
        Ok(out) => Some(out.text),
        Err(e) if e.kind() == ErrorKind::DepthLimit => None,
        Err(e) => panic!("{}: {e}", opts.form),
    }
}

fn check(value: &Value, text: &str, opts: &DecodeOptions, form: &str) {
    let back = select::decode(text.as_bytes(), opts)
        .unwrap_or_else(|e| panic!("{form}: {e}\n--- text:\n{text}"));
    assert!(
        equivalent(value, &back),
        "{form}: {:?}\n--- text:\n{text}",
        difference(value, &back)
    );
}

fn measure(metric: Metric, text: &str) -> usize {
    match metric {
        Metric::Tokens(kind) => Tokenizer::get(kind).count(text),
        Metric::Bytes => text.len(),
        // The target only picks the metrics above.
        other => panic!("a metric this target does not measure: {other:?}"),
    }
}
