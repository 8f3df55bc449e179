//! The command-line surface. Scripts outside the project rely on these
//! names; change them only by adding.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Fact-preserving, token-lean output for LLM agents.
#[derive(Debug, Parser)]
#[command(name = "pith", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Render JSON in the cheapest lossless form (or the one asked for).
    Encode(EncodeArgs),
    /// Read any form `encode` writes and write the exact JSON it stands for.
    Decode(DecodeArgs),
    /// Count the tokens of texts: `<count><TAB><name>` per input.
    Tokens(TokensArgs),
    /// Every form's bytes and tokens per file, and what auto chose.
    Measure(MeasureArgs),
}

#[derive(Debug, Args)]
pub struct MeasureArgs {
    /// JSON inputs; `-` reads stdin.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// o200k (GPT-4o, 4.1, 5), cl100k (GPT-4, 3.5) or bytes4 (ceil(bytes/4)).
    #[arg(long, default_value = "o200k")]
    pub tokenizer: String,
}

#[derive(Debug, Args)]
pub struct TokensArgs {
    /// Texts to count; none or `-` reads stdin.
    pub files: Vec<PathBuf>,
    /// o200k (GPT-4o, 4.1, 5), cl100k (GPT-4, 3.5) or bytes4 (ceil(bytes/4)).
    #[arg(long, default_value = "o200k")]
    pub tokenizer: String,
}

#[derive(Debug, Args)]
pub struct EncodeArgs {
    /// JSON input; absent or `-` reads stdin.
    pub file: Option<PathBuf>,
    /// Output format; `auto` picks the fewest tokens (or bytes), never more than JSON.
    #[arg(long, value_enum, default_value_t = EncodeFormat::Auto)]
    pub format: EncodeFormat,
    /// What `auto` minimises (and `table` interns by).
    #[arg(long, value_enum, default_value_t = SelectArg::Tokens)]
    pub select: SelectArg,
    /// The tokenizer `--select tokens` counts with: o200k, cl100k or bytes4.
    #[arg(long, default_value = "o200k")]
    pub tokenizer: String,
    /// Spaces per indentation level.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub indent: u16,
    /// Delimiter of inline arrays and table rows (TOON).
    #[arg(long, value_enum, default_value_t = DelimiterArg::Comma)]
    pub delimiter: DelimiterArg,
    /// Fold chains of single-key objects into dotted keys (toon3 only).
    #[arg(long, value_enum, default_value_t = OnOff::Off)]
    pub key_folding: OnOff,
    /// Most segments a folded key may have (toon3 with --key-folding safe).
    #[arg(long)]
    pub flatten_depth: Option<usize>,
    /// Write here instead of stdout.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// TOON or JSON input; absent or `-` reads stdin.
    pub file: Option<PathBuf>,
    /// Input format; `auto` tells JSON from TOON by itself.
    #[arg(long, value_enum, default_value_t = DecodeFormat::Auto)]
    pub format: DecodeFormat,
    /// Accept what strict TOON decoding refuses where the spec allows it.
    #[arg(long)]
    pub lenient: bool,
    /// Spaces per indentation level of the TOON input.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub indent: u16,
    /// Expand dotted keys into nested objects (toon3 only).
    #[arg(long, value_enum, default_value_t = OnOff::Off)]
    pub expand_paths: OnOff,
    /// Indent the JSON output.
    #[arg(long)]
    pub pretty: bool,
    /// Write here instead of stdout.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EncodeFormat {
    /// The cheapest lossless form, per collection and per document.
    Auto,
    /// TOON spec 4.x, as @toon-format/toon 4.4.0 writes it.
    Toon,
    /// TOON spec 3.3 (key folding available).
    Toon3,
    /// TOON with key-hoisted tables (pm-cli's form: JSON cells, absent pairs).
    Hoisted,
    /// TOON with compact key-hoisted tables (list cells, nested groups).
    HoistedCompact,
    /// JSON with columnar tables {cols, dict, rows}.
    Table,
    /// Compact JSON.
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SelectArg {
    /// Fewest tokens of --tokenizer.
    Tokens,
    /// Fewest bytes.
    Bytes,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DecodeFormat {
    /// JSON if the text is JSON, TOON otherwise.
    Auto,
    /// TOON spec 4.x.
    Toon,
    /// TOON spec 3.3 (path expansion available).
    Toon3,
    /// JSON.
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DelimiterArg {
    Comma,
    Tab,
    Pipe,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    Off,
    Safe,
}

/// Parses the arguments; help and version print and exit 0, mistakes exit 2.
pub fn parse() -> Result<Cli, ExitCode> {
    match Cli::try_parse() {
        Ok(cli) => Ok(cli),
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            // Printing can only fail on a closed stream, where nothing is left to say.
            let _ = e.print();
            Err(ExitCode::from(code))
        }
    }
}
