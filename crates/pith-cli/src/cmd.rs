//! One function per subcommand: arguments in, library calls, bytes out.

use crate::args::{
    Cli, Command, DecodeArgs, DecodeFormat, DelimiterArg, EncodeArgs, EncodeFormat, InexactArg,
    OnOff, SelectArg, TokensArgs, tokenizer_kind,
};
use crate::fail::Failure;
use crate::io::{Input, write_json, write_output};
use crate::schema::{self, Direction};
use pith::number::{self, Inexact};
use pith::select::{self, Form, Metric};
use pith::tokens::Tokenizer;
use pith::toon::{DecodeOptions, Delimiter, EncodeOptions, ExpandPaths, KeyFolding, Spec};
use pith::{Value, json, toon};

pub fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Encode(a) => encode(a),
        Command::Decode(a) => decode(a),
        Command::Tokens(a) => tokens(a),
        Command::Measure(a) => crate::measure::run(a),
        Command::Schema(c) => crate::schema::run(c),
        Command::Mcp(a) => crate::mcp::run(a),
    }
}

fn tokens(a: TokensArgs) -> Result<(), Failure> {
    let tokenizer = Tokenizer::get(tokenizer_kind(&a.tokenizer).map_err(Failure::Usage)?);
    let inputs: Vec<Option<&std::path::Path>> = if a.files.is_empty() {
        vec![None]
    } else {
        a.files.iter().map(|p| Some(p.as_path())).collect()
    };
    let mut out = String::new();
    let mut total = 0usize;
    for path in &inputs {
        let input = Input::read(*path)?;
        let text = input.text()?;
        let n = tokenizer.count(text);
        total += n;
        out.push_str(&format!("{n}\t{}\n", input.name));
    }
    if inputs.len() > 1 {
        out.push_str(&format!("{total}\ttotal\n"));
    }
    write_output(None, out.as_bytes())
}

fn encode(a: EncodeArgs) -> Result<(), Failure> {
    if a.key_folding == OnOff::Safe && a.format != EncodeFormat::Toon3 {
        return Err(Failure::Usage(
            "--key-folding safe needs --format toon3 (spec 4 reads dotted keys literally)".into(),
        ));
    }
    if a.flatten_depth.is_some() && a.key_folding != OnOff::Safe {
        return Err(Failure::Usage(
            "--flatten-depth only applies with --key-folding safe".into(),
        ));
    }
    let opts = select_options(&a)?;
    let budget = crate::budget::Request::from_args(&a)?;
    let mut input = Input::read(a.file.as_deref())?;
    let value = json::parse_bytes(&input.bytes).map_err(|e| input.failure(e))?;
    let value = schema::apply(&a.schema, value, Direction::Elide, &input)?;
    input.release();
    let inexact = match a.inexact_numbers {
        InexactArg::Keep => Inexact::Keep,
        InexactArg::Quote => Inexact::Quote,
        InexactArg::Refuse => Inexact::Refuse,
    };
    let value = number::for_f64_readers(value, inexact).map_err(|e| input.failure(e))?;
    if let Some(request) = budget {
        let render = |v: &Value| select::encode(v, &opts).map(|out| out.text);
        return request.run(&value, &render, &input, a.output.as_ref());
    }
    let out = select::encode(&value, &opts).map_err(|e| input.failure(e))?;
    write_output(a.output.as_ref(), out.text.as_bytes())
}

/// The form, metric and layout `encode` writes with.
fn select_options(a: &EncodeArgs) -> Result<select::Options, Failure> {
    Ok(select::Options::default()
        .form(match a.format {
            EncodeFormat::Auto => Form::Auto,
            EncodeFormat::Pith => Form::Pith,
            EncodeFormat::Toon | EncodeFormat::Toon3 => Form::Toon,
            EncodeFormat::Hoisted => Form::Hoisted,
            EncodeFormat::HoistedCompact => Form::HoistedCompact,
            EncodeFormat::Table => Form::Table,
            EncodeFormat::Json => Form::Json,
        })
        .metric(match a.select {
            SelectArg::Tokens => {
                Metric::Tokens(tokenizer_kind(&a.tokenizer).map_err(Failure::Usage)?)
            }
            SelectArg::Bytes => Metric::Bytes,
        })
        .toon(toon_options(a))
        .min_readability(a.min_readability))
}

fn toon_options(a: &EncodeArgs) -> EncodeOptions {
    EncodeOptions::default()
        .indent(usize::from(a.indent))
        .delimiter(delimiter(a.delimiter))
        .spec(if a.format == EncodeFormat::Toon3 {
            Spec::V3
        } else {
            Spec::V4
        })
        .key_folding(match a.key_folding {
            OnOff::Off => KeyFolding::Off,
            OnOff::Safe => KeyFolding::Safe,
        })
        .flatten_depth(a.flatten_depth.unwrap_or(usize::MAX))
}

fn decode(a: DecodeArgs) -> Result<(), Failure> {
    if a.expand_paths == OnOff::Safe && !matches!(a.format, DecodeFormat::Toon3) {
        return Err(Failure::Usage(
            "--expand-paths safe needs --format toon3 (spec 4 has no path expansion)".into(),
        ));
    }
    let mut input = Input::read(a.file.as_deref())?;
    let toon_opts = |spec| {
        DecodeOptions::default()
            .indent(usize::from(a.indent))
            .strict(!a.lenient)
            .spec(spec)
            .expand_paths(match a.expand_paths {
                OnOff::Off => ExpandPaths::Off,
                OnOff::Safe => ExpandPaths::Safe,
            })
    };
    // Whatever the syntax, the tables of every form are restored (JSON
    // text holds them only inside the `table` form's marked wrapper).
    let restore = |v| select::restore_with(v, pith::DEFAULT_MAX_DEPTH, !a.lenient);
    let value = match a.format {
        DecodeFormat::Json => select::decode_json(&input.bytes, &toon_opts(Spec::V4)),
        DecodeFormat::Toon => {
            toon::decode_bytes(&input.bytes, &toon_opts(Spec::V4)).and_then(restore)
        }
        DecodeFormat::Toon3 => {
            toon::decode_bytes(&input.bytes, &toon_opts(Spec::V3)).and_then(restore)
        }
        // Any form `encode` writes, told apart by itself.
        DecodeFormat::Auto => select::decode(&input.bytes, &toon_opts(Spec::V4)),
    }
    .map_err(|e| input.failure(e))?;
    input.release();
    let value = schema::apply(&a.schema, value, Direction::Fill, &input)?;
    write_json(a.output.as_ref(), &value, a.pretty.then_some(2))
}

fn delimiter(d: DelimiterArg) -> Delimiter {
    match d {
        DelimiterArg::Comma => Delimiter::Comma,
        DelimiterArg::Tab => Delimiter::Tab,
        DelimiterArg::Pipe => Delimiter::Pipe,
    }
}
