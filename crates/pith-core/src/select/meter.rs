//! What `auto` measures its candidates with: [`Metric`] costs, and for an
//! exact tokenizer one [`LineCounts`] across all the candidates of a value,
//! so that the lines they share are tokenized once.

use super::Metric;
use crate::tokens::{LineCounts, Tokenizer};

/// Costs of candidate texts under one metric.
pub(crate) struct Meter {
    metric: Metric,
    lines: Option<LineCounts>,
}

impl Meter {
    pub(crate) fn new(metric: Metric) -> Meter {
        let lines = match metric {
            Metric::Tokens(kind) if kind.is_exact() => Some(LineCounts::new(Tokenizer::get(kind))),
            _ => None,
        };
        Meter { metric, lines }
    }

    /// A meter that remembers nothing and reads no floors: every cost is
    /// the tokenizer's own count of the whole text (the reference the
    /// memo and the floors are tested against).
    #[cfg(test)]
    pub(crate) fn plain(metric: Metric) -> Meter {
        Meter {
            metric,
            lines: None,
        }
    }

    /// The texts counted from here on are the last of the value's, and
    /// share nothing with each other that the ones before did not (plain
    /// TOON, then compact JSON, one line): what they alone hold is not
    /// remembered.
    pub(crate) fn last(&mut self) {
        if let Some(lines) = &mut self.lines {
            lines.remember(false);
        }
    }

    /// The cost of `text`.
    pub(crate) fn cost(&mut self, text: &str) -> usize {
        match (&mut self.lines, self.metric) {
            (Some(lines), _) => lines.count(text),
            (None, Metric::Tokens(kind)) => Tokenizer::get(kind).count(text),
            (None, Metric::Bytes) => text.len(),
        }
    }

    /// The cost of `text`, or `None` when it is sure to be under `lo`
    /// (counted only as far as needed to tell).
    pub(crate) fn cost_unless_under(&mut self, text: &str, lo: usize) -> Option<usize> {
        match (&mut self.lines, self.metric) {
            (Some(lines), _) => lines.count_unless_under(text, lo),
            (None, Metric::Tokens(kind)) => Tokenizer::get(kind).count_unless_under(text, lo),
            (None, Metric::Bytes) => (text.len() >= lo).then_some(text.len()),
        }
    }

    /// The cost of `text`, or `None` when it is sure to be over `hi`.
    pub(crate) fn cost_unless_over(&mut self, text: &str, hi: usize) -> Option<usize> {
        match (&mut self.lines, self.metric) {
            (Some(lines), _) => lines.count_unless_over(text, hi),
            (None, Metric::Tokens(kind)) => Tokenizer::get(kind).count_unless_over(text, hi),
            (None, Metric::Bytes) => (text.len() <= hi).then_some(text.len()),
        }
    }
}
