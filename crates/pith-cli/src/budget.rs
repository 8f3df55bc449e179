//! `encode --budget`: the whole output within a token budget, or exit 3
//! with an `output_budget_exceeded` notice.

use crate::args::{EncodeArgs, tokenizer_kind};
use crate::fail::Failure;
use crate::io::{Input, write_output};
use pith::Value;
use pith::budget::{Budget, BudgetError, Cursor, FitOptions, Render, fit};
use std::path::PathBuf;

/// A checked `--budget`, `--tokenizer` and `--cursor`.
pub struct Request {
    opts: FitOptions,
}

impl Request {
    /// `None` when no budget was asked for; usage errors for bad values or
    /// a cursor without a budget.
    pub fn from_args(a: &EncodeArgs) -> Result<Option<Request>, Failure> {
        let Some(budget) = &a.budget else {
            if a.cursor.is_some() {
                return Err(Failure::Usage(
                    "--cursor needs --budget (a number of tokens, or unbounded)".into(),
                ));
            }
            return Ok(None);
        };
        let budget: Budget = budget
            .parse()
            .map_err(|e: pith::budget::InvalidBudget| Failure::Usage(e.to_string()))?;
        let tokenizer = tokenizer_kind(&a.tokenizer).map_err(Failure::Usage)?;
        let cursor = a
            .cursor
            .as_deref()
            .map(str::parse::<Cursor>)
            .transpose()
            .map_err(|e| Failure::Usage(e.to_string()))?;
        // Unbounded without a cursor is plain `encode`: no receipts.
        if budget == Budget::Unbounded && cursor.is_none() {
            return Ok(None);
        }
        Ok(Some(Request {
            opts: FitOptions::default()
                .budget(budget)
                .tokenizer(tokenizer)
                .cursor(cursor),
        }))
    }

    /// Fits `value` and writes it, or fails with the exit status the case calls for.
    pub fn run(
        &self,
        value: &Value,
        render: &Render<'_>,
        input: &Input,
        output: Option<&PathBuf>,
    ) -> Result<(), Failure> {
        match fit(value, &self.opts, render) {
            Ok(fitted) => write_output(output, fitted.text.as_bytes()),
            Err(BudgetError::Exceeded(e)) => Err(Failure::Budget {
                message: e.to_string(),
                notice: e.text,
                output: output.cloned(),
            }),
            Err(BudgetError::Cursor(e)) => Err(Failure::Usage(e.to_string())),
            Err(BudgetError::Render(e)) => Err(input.failure(e)),
            // A kind of failure this build does not know yet: its message, exit 1.
            Err(e) => Err(Failure::Io {
                name: input.name.clone(),
                error: std::io::Error::other(e.to_string()),
            }),
        }
    }
}
