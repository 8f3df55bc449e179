//! A tool result's text as `pith mcp` rewrites it, for the MCP helpers of
//! both packages: the same function decides ([`pith_mcp::rewrite_text`]),
//! so a server that calls the helper sends what the proxy would have sent,
//! `_meta` included.

use crate::options::{ArgError, tokenizer};
use pith_mcp::{BUDGET_META_KEY, ENCODING_META_KEY, RewriteOptions, rewrite_text};

/// The text of one content item and what its `_meta` says of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolText {
    /// The text: rewritten, or as given when a rewrite would not pay.
    pub text: String,
    /// Its notation (`toon`, `hoisted`, `json`) when rewritten.
    pub encoding: Option<&'static str>,
    /// `cut` or `exceeded` when a budget shortened the value.
    pub budget: Option<&'static str>,
}

impl ToolText {
    /// The `_meta` entries the proxy writes for this text (none when the
    /// text is as given).
    pub fn meta(&self) -> Vec<(&'static str, &'static str)> {
        let mut meta = Vec::new();
        if let Some(e) = self.encoding {
            meta.push((ENCODING_META_KEY, e));
        }
        if let Some(b) = self.budget {
            meta.push((BUDGET_META_KEY, b));
        }
        meta
    }
}

/// The proxy's options from the helpers' arguments (`budget` in tokens of
/// `tokenizer`, or none).
///
/// # Errors
///
/// An [`ArgError`] for a negative saving or budget, or an unknown tokenizer.
pub fn options(
    min_saving: i128,
    budget: Option<i128>,
    tokenizer_name: &str,
) -> Result<RewriteOptions, ArgError> {
    let min_saving = usize::try_from(min_saving).map_err(|_| ArgError {
        argument: "min_saving",
        message: format!("expected a number of tokens from 0 up, found {min_saving}"),
    })?;
    let budget = budget
        .map(|b| {
            usize::try_from(b).map_err(|_| ArgError {
                argument: "budget",
                message: format!("expected a number of tokens from 0 up, found {b}"),
            })
        })
        .transpose()?;
    Ok(RewriteOptions::default()
        .min_saving(min_saving)
        .budget(budget)
        .tokenizer(tokenizer(tokenizer_name)?))
}

/// `text` as the proxy would forward it: re-encoded when it is a JSON
/// object or array that a cheaper text stands for exactly, else unchanged.
pub fn rewrite(text: String, opts: &RewriteOptions) -> ToolText {
    match rewrite_text(&text, opts) {
        Some(r) => ToolText {
            encoding: Some(r.encoding.name()),
            budget: r.cut.map(|c| c.name()),
            text: r.text,
        },
        None => ToolText {
            text,
            encoding: None,
            budget: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_rewritten_and_named_and_a_small_text_is_left_alone() {
        let opts = options(10, None, "o200k").unwrap();
        let names = ["ada", "bo", "cy", "dee", "eve"];
        let rows: Vec<String> = (0..60)
            .map(|i| {
                format!(
                    r#"{{"id":{i},"name":"{}","ok":{}}}"#,
                    names[i % 5],
                    i % 3 == 0
                )
            })
            .collect();
        let json = format!("[{}]", rows.join(","));
        let out = rewrite(json.clone(), &opts);
        // The notation writes the rows without TOON's indentation.
        assert_eq!(out.meta(), vec![("pith/encoding", "pith")], "{}", out.text);
        assert!(
            out.text
                .starts_with("%pith\n[60]{id,name,ok}:\n0,ada,true\n"),
            "{}",
            out.text
        );
        let small = rewrite(r#"{"a":1}"#.to_owned(), &opts);
        assert_eq!(small.text, r#"{"a":1}"#);
        assert!(small.meta().is_empty());
        let cut = rewrite(json, &options(0, Some(120), "o200k").unwrap());
        assert_eq!(
            cut.meta(),
            vec![("pith/encoding", "pith"), ("pith/budget", "cut")]
        );
    }

    #[test]
    fn negative_numbers_are_refused() {
        assert_eq!(
            options(-1, None, "o200k").unwrap_err().argument,
            "min_saving"
        );
        assert_eq!(
            options(0, Some(-5), "o200k").unwrap_err().argument,
            "budget"
        );
        assert_eq!(options(0, None, "p50k").unwrap_err().argument, "tokenizer");
    }
}
