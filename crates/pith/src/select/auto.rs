//! `auto`: plain TOON, compact JSON and the notation's variants the
//! readability floor admits, measured with one [`Meter`], the cheapest kept.

use super::bound::{self, Size};
use super::meter::Meter;
use super::verbatim::{is_wrapper, toon_wrapped};
use super::{Encoded, Metric, Options, Syntax, json_doc, text, toon_doc};
use crate::tokens::TokenizerKind;
use crate::toon::EncodeOptions;
use crate::{Result, Value};

/// `auto`: the cheapest of [`toon_auto`] and the notation documents the
/// readability floor admits, all measured with one [`Meter`].
pub(super) fn auto(value: &Value, opts: &Options, toon4: &EncodeOptions) -> Result<Encoded> {
    let mut meter = Meter::new(opts.metric);
    let (base, known) = toon_auto(value, opts, toon4, &mut meter)?;
    let base_cost = match known {
        Some(c) => c,
        None => meter.cost(&base.text),
    };
    match notation_best(
        value,
        opts,
        Some((base_cost, base.text.len())),
        Some(&base.text),
        &mut meter,
    )? {
        Some(doc) => Ok(doc),
        None => Ok(base),
    }
}

/// The notation documents the floor admits, the cheapest of them; with
/// `rival` (its cost and bytes), only one that is cheaper. A document that
/// is the rival's text (`rival_text`) under the marker is not counted: it
/// cannot be cheaper.
///
/// The variants share the value's references, found once. A variant that is
/// known to write the text of one already written is not written again (it
/// cannot be cheaper either): one with references, when the value has
/// none, is the one without; one with derived columns, when writing it
/// (or writing the one without, which asks) turned no column into a
/// derived one, is the one without.
pub(super) fn notation_best(
    value: &Value,
    opts: &Options,
    rival: Option<(usize, usize)>,
    rival_text: Option<&str>,
    meter: &mut Meter,
) -> Result<Option<Encoded>> {
    let tokenizer = notation_options(opts, false, false).tokenizer;
    // From `auto`, the value has been written as TOON with this depth limit.
    let mut shared = crate::notation::Shared::new(value, rival.is_some());
    // The rival's length, and a little more for the marker and the names.
    shared.size_hint = rival.map_or(0, |(_, bytes)| bytes + bytes / 16 + 64);
    // A variant without derived columns tells whether the one with them
    // would write its text again, when the floor admits derived columns.
    let probe = variants(opts.min_readability).iter().any(|&(_, d)| d);
    shared.probe_derived = probe;
    // Per value of `references` (as written): whether derived columns can
    // change the text, once a variant with them has been written.
    let mut derives: [Option<bool>; 2] = [None, None];
    // The variants written, as (references, derived columns) that mattered.
    let mut written: Vec<(bool, bool)> = Vec::new();
    let mut best = rival;
    let mut out = None;
    for &(references, derived) in variants(opts.min_readability) {
        let references = references && shared.has_refs(tokenizer);
        let derived = derived && derives[usize::from(references)] != Some(false);
        if written.contains(&(references, derived)) {
            continue;
        }
        let n = notation_options(opts, references, derived);
        let (doc, effects) = crate::notation::encode_shared(&n, &mut shared)?;
        let derived = derived && effects.derived_columns;
        if n.derived {
            derives[usize::from(references)] = Some(derived);
        } else if probe && !effects.derived_columns {
            // Probed: with derived columns, this variant's text again.
            derives[usize::from(references)] = Some(false);
        }
        if written.contains(&(references, derived)) {
            continue;
        }
        written.push((references, derived));
        let body = &doc.text[crate::notation::MARKER.len() + 1..];
        if rival_text == Some(body) {
            continue;
        }
        let c = match best {
            Some((hi, _)) => match meter.cost_unless_over(&doc.text, hi) {
                Some(c) => c,
                None => continue,
            },
            None => meter.cost(&doc.text),
        };
        // Against TOON or JSON (`out` still empty) only fewer tokens win: on
        // a tie the standard syntax is kept; between notation documents,
        // fewer bytes break the tie.
        let wins = match best {
            None => true,
            Some((bc, _)) if out.is_none() => c < bc,
            Some((bc, bl)) => (c, doc.text.len()) < (bc, bl),
        };
        if wins {
            best = Some((c, doc.text.len()));
            out = Some(Encoded {
                syntax: Syntax::Pith {
                    references: doc.references,
                    derived: doc.derived,
                },
                text: doc.text,
                wrapped: false,
                tables: Vec::new(),
            });
        }
    }
    Ok(out)
}

/// The variants of the notation a readability floor admits, as (references,
/// derived columns), in the order `auto` writes them.
pub(super) fn variants(min_readability: u8) -> &'static [(bool, bool)] {
    match min_readability {
        5.. => &[(false, false)],
        4 => &[(true, false), (false, true)],
        _ => &[(true, true), (true, false), (false, true)],
    }
}

/// The notation's options for one variant under `opts`: its layout, and the
/// tokenizer of the metric (the estimate for bytes).
pub(super) fn notation_options(
    opts: &Options,
    references: bool,
    derived: bool,
) -> crate::notation::Options {
    crate::notation::Options {
        references,
        derived,
        indent: opts.toon.indent,
        delimiter: opts.toon.delimiter,
        max_depth: opts.toon.max_depth,
        tokenizer: match opts.metric {
            Metric::Tokens(kind) => kind,
            Metric::Bytes => TokenizerKind::Bytes4,
        },
    }
}

/// `auto` over TOON and JSON: plain TOON; planned TOON when a collection is
/// worth planning (unless the floor is 5: hoisted tables carry metadata a
/// reader must apply); compact JSON unless a floor under its cost already
/// rules it out. Returns the document and its cost when that was counted.
pub(super) fn toon_auto(
    value: &Value,
    opts: &Options,
    toon4: &EncodeOptions,
    meter: &mut Meter,
) -> Result<(Encoded, Option<usize>)> {
    // TOON must wrap a wrapper-shaped root or a look-alike; compact JSON is
    // read as it is. The cheaper of the two, JSON on a tie.
    let verbatim = |meter: &mut Meter| -> Result<(Encoded, Option<usize>)> {
        let toon = toon_wrapped(value, opts.form, toon4)?;
        let json = json_doc(value, Vec::new());
        let (tc, jc) = (meter.cost(&toon.text), meter.cost(&json.text));
        Ok(if (jc, json.text.len()) <= (tc, toon.text.len()) {
            (json, Some(jc))
        } else {
            (toon, Some(tc))
        })
    };
    if matches!(value, Value::Object(m) if is_wrapper(m)) {
        return verbatim(meter);
    }
    let best = toon_doc(value, toon4, Vec::new())?;
    // A plain document's text answers for itself; otherwise the value is surveyed.
    let delimiter = toon4.delimiter.as_byte();
    let exact = matches!(opts.metric, Metric::Tokens(kind) if kind.is_exact());
    // JSON writes an integer of 1e21 or more as its digits, up to five
    // bytes fewer than TOON's `1.2345678901234567890123e+22`: a text that
    // may hold one gives no byte floor (its token floor stands).
    let text_floors = if exact || !best.text.contains("e+") {
        text::survey_text(&best.text, toon4.indent, delimiter, exact)
    } else {
        None
    };
    let survey = match text_floors {
        Some(floors) => bound::Survey {
            look_alike: false,
            json: if exact { floors.tokens } else { floors.bytes },
        },
        None => {
            let size = match opts.metric {
                Metric::Tokens(kind) if kind.is_exact() => Size::TokenFloor,
                _ => Size::Bytes,
            };
            bound::survey(value, size, opts.toon.max_depth)
        }
    };
    if survey.look_alike {
        return verbatim(meter);
    }
    let json_floor = match opts.metric {
        Metric::Tokens(kind) if !kind.is_exact() => survey.json.div_ceil(4),
        _ => survey.json,
    };
    // Plain TOON is counted only until it is sure to cost less than JSON's
    // floor. Key-hoisted tables are not among `auto`'s candidates: the
    // notation writes the same collections as sparse tables with list
    // columns and flow cells, with no metadata to apply.
    let best_cost = match meter.cost_unless_under(&best.text, json_floor) {
        Some(c) => c,
        // JSON costs more for certain: neither written nor counted.
        None => return Ok((best, None)),
    };
    if json_floor > best_cost {
        // JSON costs more for certain: neither written nor counted.
        return Ok((best, Some(best_cost)));
    }
    let json = json_doc(value, Vec::new());
    // JSON wins ties on cost when it is no longer; counted only as far as needed.
    match meter.cost_unless_over(&json.text, best_cost) {
        Some(j) if (j, json.text.len()) <= (best_cost, best.text.len()) => Ok((json, Some(j))),
        _ => Ok((best, Some(best_cost))),
    }
}
