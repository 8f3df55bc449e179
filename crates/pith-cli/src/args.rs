//! The command-line surface. Scripts outside the project rely on these
//! names; change them only by adding.

use clap::{Args, Parser, Subcommand, ValueEnum};
use pith::tokens::TokenizerKind;
use std::path::PathBuf;

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
    /// Typed wire definitions: import, check, export, diff.
    #[command(subcommand)]
    Schema(SchemaCommand),
    /// Run a stdio MCP server behind a proxy that re-encodes the JSON text
    /// of tool results in fewer tokens, losslessly.
    Mcp(McpArgs),
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
    /// Measure what `encode --schema DEFS --type NAME` writes (fields equal
    /// to their defaults left out), against each file's compact JSON.
    #[command(flatten)]
    pub schema: SchemaRef,
}

/// A definitions document and one of its types, for `--schema DEFS --type NAME`.
#[derive(Debug, Args)]
pub struct SchemaRef {
    /// Wire definitions document (JSON or TOON) describing the data.
    #[arg(long, value_name = "DEFS", requires = "type_name")]
    pub schema: Option<PathBuf>,
    /// The type of the whole document in `--schema`.
    #[arg(long = "type", value_name = "NAME", requires = "schema")]
    pub type_name: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum SchemaCommand {
    /// Read definitions written in the TypeScript wire DSL (`doc`, `absentAs`)
    /// and write one definitions document.
    ImportTs {
        /// TypeScript files, read together.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write TOON instead of pretty JSON.
        #[arg(long)]
        toon: bool,
    },
    /// Check documents against a type; exit 1 on any violation.
    Check {
        /// The definitions document.
        defs: PathBuf,
        /// The type every document must have.
        #[arg(long = "type", value_name = "NAME")]
        type_name: String,
        /// Documents (JSON or TOON); none or `-` reads stdin.
        files: Vec<PathBuf>,
        /// Accept keys the definitions do not declare (default: a violation).
        #[arg(long)]
        allow_unknown_keys: bool,
    },
    /// Write JSON Schema 2020-12 for the definitions.
    Export {
        /// The definitions document.
        defs: PathBuf,
        /// Make this type the schema's root (`$ref`).
        #[arg(long = "type", value_name = "NAME")]
        type_name: Option<String>,
    },
    /// Read the JSON Schema subset `export` writes and write definitions.
    ImportJsonschema {
        /// The JSON Schema document.
        file: PathBuf,
        /// The name for the schema's root type.
        #[arg(long, default_value = "Root")]
        root: String,
    },
    /// Classify the changes between two versions of the definitions.
    Diff {
        /// The older definitions.
        old: PathBuf,
        /// The newer definitions.
        new: PathBuf,
        /// Exit 1 when a change breaks older readers or writers.
        #[arg(long)]
        check: bool,
    },
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct McpArgs {
    #[command(subcommand)]
    pub action: Option<McpCommand>,
    #[command(flatten)]
    pub proxy: McpProxyArgs,
}

#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Totals of the savings ledger per server and tool.
    Stats(McpStatsArgs),
    /// Wrap a client's configured MCP servers in `pith mcp`.
    Install(McpInstallArgs),
    /// Put back the servers `install` wrapped, byte for byte.
    Uninstall(McpInstallArgs),
    /// List a client's servers and whether each is wrapped.
    Status(McpInstallArgs),
}

#[derive(Debug, Args)]
pub struct McpInstallArgs {
    /// claude-code, claude-desktop, cursor, codex or vscode.
    #[arg(long, value_name = "CLIENT")]
    pub client: String,
    /// The client's configuration file (default: where the client keeps it).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Only this server (repeatable; default every one).
    #[arg(long = "server", value_name = "NAME")]
    pub servers: Vec<String>,
    /// The pith the wrapped servers run (default: this one).
    #[arg(long, value_name = "PATH")]
    pub pith: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct McpStatsArgs {
    /// Only results from then on: a date (2026-12-01), a UTC time
    /// (2026-12-01T09:30:00Z) or a duration back from now (90m, 24h, 7d).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Write JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// The ledger to read (default: the one `pith mcp` writes).
    #[arg(long, value_name = "PATH")]
    pub stats_file: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct McpProxyArgs {
    /// Least token saving for which a result's text is rewritten.
    #[arg(long, value_name = "N", default_value_t = pith_mcp::DEFAULT_MIN_SAVING)]
    pub min_saving: usize,
    /// The lowest readability score a rewritten text may have (as `encode
    /// --min-readability`): 5 no lookups, 4 one kind, 3 both.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub min_readability: u8,
    /// Bound each rewritten result's text to N tokens (at least 200), cutting
    /// collections at row boundaries; `pith_more` returns the rest.
    /// `unbounded` never cuts.
    #[arg(long, value_name = "N|unbounded", default_value_t = pith_mcp::DEFAULT_BUDGET.to_string())]
    pub budget: String,
    /// drop-if-equivalent: remove structuredContent (and hold back outputSchema)
    /// when the text holds exactly its value; keep: forward it untouched.
    #[arg(long, value_enum, default_value_t = Structured::DropIfEquivalent)]
    pub structured: Structured,
    /// Rewrite only tools whose name matches (repeatable; `*`, `?`).
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,
    /// Never rewrite tools whose name matches (repeatable; `*`, `?`).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Also rewrite tools that look like file readers (read_file, get_file_contents, …).
    #[arg(long)]
    pub no_default_excludes: bool,
    /// Also rewrite results marked isError.
    #[arg(long)]
    pub rewrite_errors: bool,
    /// Tokenizer that measures the saving: o200k, cl100k or bytes4.
    #[arg(long, default_value = "o200k")]
    pub tokenizer: String,
    /// Texts longer than this many bytes pass untouched.
    #[arg(long, value_name = "N", default_value_t = pith_mcp::DEFAULT_MAX_BYTES)]
    pub max_bytes: usize,
    /// Keep no savings ledger.
    #[arg(long)]
    pub no_stats: bool,
    /// Append the savings ledger to this file instead of the default one.
    #[arg(long, value_name = "PATH", conflicts_with = "no_stats")]
    pub stats_file: Option<PathBuf>,
    /// The server's name in the ledger (default: from its command).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// A remote server (MCP streamable HTTP, or the older HTTP+SSE) instead
    /// of a command.
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    pub url: Option<String>,
    /// A header for every request to --url, `Name: value`; `${VAR}` in the
    /// value is read from the environment (repeatable).
    // `requires` alone lets a header through beside a command, which
    // conflicts with --url (clap-rs/clap#4520): the conflict is stated too.
    #[arg(
        long = "header",
        value_name = "NAME: VALUE",
        requires = "url",
        conflicts_with = "command"
    )]
    pub headers: Vec<String>,
    /// The server command and its arguments (after `--`, or directly after
    /// pith's own options).
    #[arg(
        required_unless_present = "url",
        value_name = "COMMAND",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub command: Vec<std::ffi::OsString>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Structured {
    Keep,
    DropIfEquivalent,
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
    /// The lowest readability score `auto` and `pith` may write: 5 plain
    /// tables and flow values, 4 also one lookup kind (references or derived
    /// columns, or hoisted JSON cells), 3 both lookup kinds, 2 columnar tables.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub min_readability: u8,
    /// Spaces per indentation level.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub indent: u16,
    /// Delimiter of inline arrays and table rows (TOON).
    #[arg(long, value_enum, default_value_t = DelimiterArg::Comma)]
    pub delimiter: DelimiterArg,
    /// Fold chains of single-key objects into dotted keys (toon3 only; read
    /// back with `decode --format toon3 --expand-paths safe`, and literal
    /// dotted keys are quoted so that expansion leaves them whole).
    #[arg(long, value_enum, default_value_t = OnOff::Off)]
    pub key_folding: OnOff,
    /// Most segments a folded key may have (toon3 with --key-folding safe).
    #[arg(long)]
    pub flatten_depth: Option<usize>,
    /// Leave out fields equal to their `absentAs` default.
    #[command(flatten)]
    pub schema: SchemaRef,
    /// Write here instead of stdout.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Bound the whole output to N tokens, receipts included, cutting
    /// collections at row boundaries; `unbounded` for no bound.
    #[arg(long, value_name = "N|unbounded")]
    pub budget: Option<String>,
    /// Tokenizer of --budget and of --select tokens: o200k (GPT-4o, 4.1, 5),
    /// cl100k (GPT-4, 3.5) or bytes4.
    #[arg(long, default_value = "o200k")]
    pub tokenizer: String,
    /// Continue a cut collection from the cursor in its omission receipt (needs --budget).
    #[arg(long, value_name = "C")]
    pub cursor: Option<String>,
    /// Numbers an f64 does not hold exactly (9007199254740993, 1e+400),
    /// which readers that use f64 change: keep them, quote them (a string
    /// of their digits) or refuse the input (exit 1).
    #[arg(long, value_enum, default_value_t = InexactArg::Keep)]
    pub inexact_numbers: InexactArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InexactArg {
    Keep,
    Quote,
    Refuse,
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
    /// Fill absent fields with their `absentAs` defaults.
    #[command(flatten)]
    pub schema: SchemaRef,
    /// Write here instead of stdout.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EncodeFormat {
    /// The cheapest lossless form, per collection and per document.
    Auto,
    /// The pith notation (docs/notation.md), as --min-readability admits.
    Pith,
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

/// The tokenizer a `--tokenizer` names, or the usage error's message.
pub fn tokenizer_kind(name: &str) -> Result<TokenizerKind, String> {
    name.parse()
        .map_err(|e: pith::tokens::UnknownTokenizer| e.to_string())
}

/// Parses the arguments; help, version and mistakes come back as clap's
/// error, which fail.rs prints and gives its status.
pub fn parse() -> Result<Cli, clap::Error> {
    Cli::try_parse()
}
