//! The keyword arguments of `encode` and `fit`, checked once for both
//! packages, and the calls they make.
//!
//! The names and defaults are those of `pith encode`: `format` (auto, pith,
//! toon, toon3, hoisted, hoisted-compact, table, json), `tokenizer` (o200k,
//! cl100k, bytes4: what `auto` minimises and what a budget counts),
//! `min_readability` (1 to 5, default 4: the lowest readability score
//! `auto` and `pith` may write), `budget` (a number of tokens or
//! `unbounded`), `cursor`, `indent` and `delimiter`.

use pith::budget::{self, Cursor, CursorError, Exceeded, FitOptions};
use pith::select::{self, Form, Metric};
use pith::tokens::TokenizerKind;
use pith::toon::{Delimiter, EncodeOptions, Spec};
use pith::{Error, Value};
use std::fmt;

/// The lowest and highest readability scores (the seed's rubric).
pub const READABILITY: std::ops::RangeInclusive<i64> = 1..=5;

/// `min_readability` when not given: the seed's minimum adopted score.
pub const DEFAULT_MIN_READABILITY: u8 = select::DEFAULT_MIN_READABILITY;

/// The most spaces per indentation level (what `pith encode --indent` takes).
pub const MAX_INDENT: i64 = u16::MAX as i64;

/// The keyword arguments of `encode`, as the caller gave them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeArgs<'a> {
    /// A form's name, or `toon3`.
    pub format: &'a str,
    /// `o200k`, `cl100k` or `bytes4` (or `o200k_base`, `cl100k_base`).
    pub tokenizer: &'a str,
    /// 1 to 5.
    pub min_readability: i64,
    /// No budget, a number of tokens, or a name (`unbounded`).
    pub budget: Option<Budget<'a>>,
    /// A cursor from an omission receipt (needs a budget).
    pub cursor: Option<&'a str>,
    /// Spaces per indentation level, at least 1.
    pub indent: i64,
    /// `,`, `\t` or `|`.
    pub delimiter: &'a str,
}

impl Default for EncodeArgs<'_> {
    fn default() -> Self {
        EncodeArgs {
            format: "auto",
            tokenizer: "o200k",
            min_readability: i64::from(DEFAULT_MIN_READABILITY),
            budget: None,
            cursor: None,
            indent: 2,
            delimiter: ",",
        }
    }
}

/// A budget as given: a number of tokens, or a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget<'a> {
    /// A number of tokens (negative numbers are refused).
    Tokens(i128),
    /// `unbounded` (anything else is refused).
    Name(&'a str),
}

/// An argument that cannot be used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgError {
    /// The argument's name, as the caller spells it in Python.
    pub argument: &'static str,
    /// What was expected and what was found.
    pub message: String,
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.argument, self.message)
    }
}

impl std::error::Error for ArgError {}

/// Checked arguments: the library's options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Form, metric and TOON layout.
    pub select: select::Options,
    /// The budget, when one was given.
    pub fit: Option<FitOptions>,
    /// The readability floor asked for (1 to 5), as in `select`.
    pub min_readability: u8,
}

/// Why an encode produced no text.
#[derive(Debug)]
pub enum Failure {
    /// The value cannot be written (nested too deep, say).
    Encode(Error),
    /// No output fits the budget; the notice is the text to show instead.
    Exceeded(Box<Exceeded>),
    /// The cursor is malformed or belongs to another document.
    Cursor(CursorError),
}

/// An encoded text, and with a budget, what fitting it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The text (no final newline).
    pub text: String,
    /// Present when the output went through a budget.
    pub fit: Option<FitReport>,
}

/// What fitting an output to a budget did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FitReport {
    /// Exact tokens of the text, receipts included.
    pub tokens: usize,
    /// Collections that show fewer rows than they have.
    pub collections_cut: usize,
    /// Rows left out of them.
    pub rows_omitted: usize,
}

impl Plan {
    /// Checks `args` and turns them into the library's options.
    ///
    /// # Errors
    ///
    /// An [`ArgError`] naming the first argument that is out of range or
    /// unknown, or a cursor given without a budget.
    pub fn new(args: &EncodeArgs<'_>) -> Result<Plan, ArgError> {
        let (form, spec) = match args.format {
            "toon3" => (Form::Toon, Spec::V3),
            name => (
                name.parse::<Form>().map_err(|_| ArgError {
                    argument: "format",
                    message: format!(
                        "unknown format {name:?}: expected auto, pith, toon, toon3, hoisted, \
                         hoisted-compact, table or json"
                    ),
                })?,
                Spec::V4,
            ),
        };
        let tokenizer = tokenizer(args.tokenizer)?;
        let min_readability = min_readability(args.min_readability)?;
        if !(1..=MAX_INDENT).contains(&args.indent) {
            return Err(ArgError {
                argument: "indent",
                message: format!(
                    "expected 1 to {MAX_INDENT} spaces per level, found {}",
                    args.indent
                ),
            });
        }
        let delimiter = match args.delimiter {
            "," => Delimiter::Comma,
            "\t" => Delimiter::Tab,
            "|" => Delimiter::Pipe,
            other => {
                return Err(ArgError {
                    argument: "delimiter",
                    message: format!("expected \",\", \"\\t\" or \"|\", found {other:?}"),
                });
            }
        };
        let budget = args.budget.map(budget_of).transpose()?;
        let cursor = args
            .cursor
            .map(|c| {
                c.parse::<Cursor>().map_err(|e| ArgError {
                    argument: "cursor",
                    message: e.to_string(),
                })
            })
            .transpose()?;
        let fit = match (budget, cursor) {
            (None, None) => None,
            (None, Some(_)) => {
                return Err(ArgError {
                    argument: "cursor",
                    message: "a cursor needs a budget (a number of tokens, or \"unbounded\")"
                        .into(),
                });
            }
            (Some(budget), cursor) => Some(
                FitOptions::default()
                    .budget(budget)
                    .tokenizer(tokenizer)
                    .cursor(cursor),
            ),
        };
        Ok(Plan {
            select: select::Options::default()
                .form(form)
                .metric(Metric::Tokens(tokenizer))
                .toon(
                    EncodeOptions::default()
                        .indent(args.indent as usize)
                        .delimiter(delimiter)
                        .spec(spec),
                )
                .min_readability(min_readability),
            fit,
            min_readability,
        })
    }
}

/// The tokenizer named `name`.
///
/// # Errors
///
/// An [`ArgError`] listing the names known.
pub fn tokenizer(name: &str) -> Result<TokenizerKind, ArgError> {
    name.parse()
        .map_err(|e: pith::tokens::UnknownTokenizer| ArgError {
            argument: "tokenizer",
            message: e.to_string(),
        })
}

/// A checked `min_readability`.
///
/// # Errors
///
/// An [`ArgError`] for a score outside 1 to 5.
pub fn min_readability(score: i64) -> Result<u8, ArgError> {
    if READABILITY.contains(&score) {
        Ok(score as u8)
    } else {
        Err(ArgError {
            argument: "min_readability",
            message: format!(
                "expected a readability score from {} to {}, found {score}",
                READABILITY.start(),
                READABILITY.end()
            ),
        })
    }
}

fn budget_of(b: Budget<'_>) -> Result<budget::Budget, ArgError> {
    match b {
        Budget::Tokens(n) => usize::try_from(n)
            .map(budget::Budget::Tokens)
            .map_err(|_| ArgError {
                argument: "budget",
                message: format!("expected a number of tokens from 0 up, found {n}"),
            }),
        Budget::Name("unbounded") => Ok(budget::Budget::Unbounded),
        Budget::Name(other) => Err(ArgError {
            argument: "budget",
            message: format!("expected a number of tokens or \"unbounded\", found {other:?}"),
        }),
    }
}

/// Encodes `value` as `plan` says: plain, or within its budget.
///
/// An unbounded budget without a cursor writes exactly the plain text (no
/// receipts), as `pith encode --budget unbounded` does.
///
/// # Errors
///
/// See [`Failure`].
pub fn encode(value: &Value, plan: &Plan) -> Result<Output, Failure> {
    match &plan.fit {
        Some(fit) if fit.cursor.is_some() || fit.budget != budget::Budget::Unbounded => {
            fit_with(value, plan, fit)
        }
        _ => select::encode(value, &plan.select)
            .map(|e| Output {
                text: e.text,
                fit: None,
            })
            .map_err(Failure::Encode),
    }
}

/// Fits `value` to the plan's budget (which must be set), reporting the
/// exact tokens of the output and what was cut, even when unbounded.
///
/// # Errors
///
/// See [`Failure`].
pub fn fit(value: &Value, plan: &Plan) -> Result<Output, Failure> {
    let fit = plan.fit.as_ref().ok_or_else(|| {
        Failure::Encode(Error::new(
            pith::ErrorKind::Type,
            "fitting needs a budget (a number of tokens, or \"unbounded\")",
        ))
    })?;
    fit_with(value, plan, fit)
}

fn fit_with(value: &Value, plan: &Plan, fit: &FitOptions) -> Result<Output, Failure> {
    let render = |v: &Value| select::encode(v, &plan.select).map(|e| e.text);
    match budget::fit(value, fit, &render) {
        Ok(f) => Ok(Output {
            text: f.text,
            fit: Some(FitReport {
                tokens: f.tokens,
                collections_cut: f.collections_cut,
                rows_omitted: f.rows_omitted,
            }),
        }),
        Err(budget::BudgetError::Exceeded(e)) => Err(Failure::Exceeded(e)),
        Err(budget::BudgetError::Cursor(e)) => Err(Failure::Cursor(e)),
        Err(budget::BudgetError::Render(e)) => Err(Failure::Encode(e)),
        // A kind of failure this build does not know yet: the value could
        // not be written, for the reason its message gives.
        Err(e) => Err(Failure::Encode(Error::new(
            pith::ErrorKind::Unrepresentable,
            e.to_string(),
        ))),
    }
}

/// The message of a budget that cannot be met, in the packages' terms
/// (the CLI's names its flags instead).
pub fn exceeded_message(e: &Exceeded) -> String {
    format!(
        "output budget exceeded: the smallest output for this input takes {} {} tokens and the \
         budget is {}; nothing of it was shown: pass a budget of {} or more, or \"unbounded\" \
         ({} tokens)",
        e.minimum, e.tokenizer, e.budget, e.minimum, e.unbounded
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_clis() {
        let plan = Plan::new(&EncodeArgs::default()).unwrap();
        assert_eq!(plan.select, select::Options::default());
        assert_eq!(plan.fit, None);
        assert_eq!(plan.min_readability, 4);
    }

    #[test]
    fn each_bad_argument_is_named() {
        let with = |set: fn(&mut EncodeArgs<'static>)| {
            let mut args = EncodeArgs::default();
            set(&mut args);
            args
        };
        let cases: [(EncodeArgs<'_>, &str, &str); 8] = [
            (
                with(|a| a.format = "yaml"),
                "format",
                "unknown format \"yaml\"",
            ),
            (
                with(|a| a.tokenizer = "gpt2"),
                "tokenizer",
                "unknown tokenizer `gpt2`",
            ),
            (
                with(|a| a.min_readability = 0),
                "min_readability",
                "from 1 to 5, found 0",
            ),
            (
                with(|a| a.min_readability = 6),
                "min_readability",
                "found 6",
            ),
            (with(|a| a.indent = 0), "indent", "found 0"),
            (with(|a| a.delimiter = ";"), "delimiter", "found \";\""),
            (
                with(|a| a.budget = Some(Budget::Tokens(-1))),
                "budget",
                "found -1",
            ),
            (
                with(|a| a.cursor = Some("c0-1-00000000")),
                "cursor",
                "needs a budget",
            ),
        ];
        for (args, argument, message) in cases {
            let e = Plan::new(&args).unwrap_err();
            assert_eq!(e.argument, argument, "{e}");
            assert!(e.message.contains(message), "{e}");
        }
    }

    #[test]
    fn unbounded_without_cursor_is_the_plain_text() {
        let v = pith::json::parse(r#"{"rows":[{"a":1},{"a":2}]}"#).unwrap();
        let plain = encode(&v, &Plan::new(&EncodeArgs::default()).unwrap()).unwrap();
        let args = EncodeArgs {
            budget: Some(Budget::Name("unbounded")),
            ..Default::default()
        };
        let plan = Plan::new(&args).unwrap();
        assert_eq!(encode(&v, &plan).unwrap(), plain);
        let fitted = fit(&v, &plan).unwrap();
        assert_eq!(fitted.text, plain.text);
        assert_eq!(
            fitted.fit.unwrap().tokens,
            pith::tokens::Tokenizer::get(TokenizerKind::O200k).count(&plain.text)
        );
    }
}
