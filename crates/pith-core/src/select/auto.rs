//! `auto`: plain TOON, compact JSON and the notation's variants the
//! readability floor admits, measured with one [`Meter`], the cheapest kept.

use super::bound::{self, Size};
use super::meter::Meter;
use super::verbatim::{is_wrapper, toon_wrapped};
use super::{Encoded, Metric, Options, Syntax, json_doc, text, toon_doc};
use crate::tokens::TokenizerKind;
use crate::toon::EncodeOptions;
use crate::{Result, Value};

/// `auto`: the cheapest of plain TOON, compact JSON and the notation
/// documents the readability floor admits, all measured with one [`Meter`].
///
/// The notation is counted first: where it wins, it is usually by far
/// (nested records), and then TOON and JSON are counted only until they
/// cost more than it, or not at all when a floor read off their text
/// already does. A wrapper-shaped root or a look-alike is written verbatim
/// and measured against the notation as before.
pub(super) fn auto(value: &Value, opts: &Options, toon4: &EncodeOptions) -> Result<Encoded> {
    auto_with(value, opts, toon4, LARGE)
}

/// Plain TOON's text from this many bytes on makes a document large (see
/// [`auto_with`]).
const LARGE: usize = 16 << 20;

/// [`auto`], with a document whose plain TOON text has at least `large`
/// bytes held to less memory (see [`large_auto`]): every text is counted
/// as for any other document, in the same order, so the choice and the
/// text are the same, but no two of the large texts (TOON's, a notation
/// document, the next variant) are held at once.
pub(super) fn auto_with(
    value: &Value,
    opts: &Options,
    toon4: &EncodeOptions,
    large: usize,
) -> Result<Encoded> {
    let mut meter = Meter::new(opts.metric);
    let surveyed = lists_first(value, opts, toon4);
    if let Some(survey) = surveyed.filter(|s| listed(s, large)) {
        return listed_auto(value, opts, toon4, &survey, &mut meter);
    }
    let (toon, json_floor) = match toon_first(value, opts, toon4, surveyed.as_ref())? {
        First::Plain { toon, json_floor } => (toon, json_floor),
        First::Verbatim => {
            let (base, known) = verbatim(value, opts, toon4, &mut meter)?;
            let base_cost = match known {
                Some(c) => c,
                None => meter.cost(&base.text),
            };
            let rival = Some((base_cost, base.text.len()));
            return Ok(
                match notation_best(value, opts, rival, Some(&base.text), true, &mut meter)? {
                    Some((doc, _)) => doc,
                    None => base,
                },
            );
        }
    };
    if toon.text.len() >= large {
        return large_auto(value, opts, toon4, toon, json_floor, &mut meter);
    }
    let Some((doc, cn)) = notation_best(value, opts, None, Some(&toon.text), true, &mut meter)?
    else {
        return Ok(toon_or_json(value, toon, json_floor, &mut meter).0);
    };
    Ok(
        match settle(value, Some(&toon), cn, json_floor, &mut meter) {
            Kept::Toon => toon,
            Kept::Json(json) => json,
            Kept::Notation => doc,
        },
    )
}

/// [`auto_with`] for a document whose plain TOON has list items, surveyed
/// ([`lists_first`]): the notation is written and counted first, and plain
/// TOON is written only if the survey's floor under its cost does not
/// already exceed the notation's. The choice is the one [`auto_with`]
/// makes with TOON written first: a notation document that is TOON's text
/// under the marker (which TOON's text would have told, uncounted) costs
/// more than TOON and is never kept, and TOON and JSON are weighed against
/// the cheapest notation document as [`settle`] weighs them.
fn listed_auto(
    value: &Value,
    opts: &Options,
    toon4: &EncodeOptions,
    survey: &bound::Survey,
    meter: &mut Meter,
) -> Result<Encoded> {
    let json_floor = survey.json;
    // Compact JSON's bytes, about what a notation document takes at most.
    let len = survey.bytes;
    let Some((doc, cn)) = notation_sized(value, opts, None, None, len, true, meter)? else {
        let toon = toon_doc(value, toon4, Vec::new())?;
        return Ok(toon_or_json(value, toon, json_floor, meter).0);
    };
    // TOON is written only if its floor leaves it a chance.
    let toon = match survey.toon <= cn {
        true => Some(toon_doc(value, toon4, Vec::new())?),
        false => None,
    };
    Ok(
        match (settle(value, toon.as_ref(), cn, json_floor, meter), toon) {
            (Kept::Json(json), _) => json,
            (Kept::Toon, Some(toon)) => toon,
            // `settle` keeps TOON only when it was written.
            (Kept::Toon | Kept::Notation, _) => doc,
        },
    )
}

/// [`auto_with`] for a large document: plain TOON's text is let go; the
/// notation's variants are written and counted, each let go when the next
/// is written and the cheapest let go too; TOON is written again and
/// [`settle`]d with JSON as for any other document; the notation's winner
/// is written again only if it is kept.
fn large_auto(
    value: &Value,
    opts: &Options,
    toon4: &EncodeOptions,
    toon: Encoded,
    json_floor: usize,
    meter: &mut Meter,
) -> Result<Encoded> {
    let mut shared = shared_for(value, opts, toon.text.len(), true);
    drop(toon);
    // A notation document that is TOON's text under the marker is counted
    // (there is no text to tell it by), and costs more than TOON: it is
    // never chosen.
    let Some((doc, cn, n)) = pick_variant(&mut shared, opts, None, None, false, meter)? else {
        let toon = toon_doc(value, toon4, Vec::new())?;
        return Ok(toon_or_json(value, toon, json_floor, meter).0);
    };
    drop(doc);
    let toon = toon_doc(value, toon4, Vec::new())?;
    match settle(value, Some(&toon), cn, json_floor, meter) {
        Kept::Toon => Ok(toon),
        Kept::Json(json) => Ok(json),
        Kept::Notation => {
            drop(toon);
            write_again(&n, &mut shared)
        }
    }
}

/// What [`settle`] keeps.
enum Kept {
    Toon,
    Json(Encoded),
    Notation,
}

/// Plain TOON, compact JSON or the notation's cheapest document (of cost
/// `cn`): the notation wins only on fewer tokens than both, and JSON wins
/// ties. TOON and JSON are counted only as far as that question needs, and
/// JSON is not written when its floor already rules it out. `toon` is
/// `None` when TOON is known to cost more than `cn` (it is not written).
fn settle(
    value: &Value,
    toon: Option<&Encoded>,
    cn: usize,
    json_floor: usize,
    meter: &mut Meter,
) -> Kept {
    meter.last();
    let tc = toon.and_then(|t| Some((meter.cost_unless_over(&t.text, cn)?, t.text.len())));
    // What JSON must cost at most to be chosen.
    let bar = tc.map_or(cn, |(c, _)| c);
    if json_floor <= bar {
        let json = json_doc(value, Vec::new());
        match (tc, meter.cost_unless_over(&json.text, bar)) {
            (Some(tc), Some(jc)) if (jc, json.text.len()) <= tc => return Kept::Json(json),
            (None, Some(_)) => return Kept::Json(json),
            _ => {}
        }
    }
    if tc.is_some() {
        Kept::Toon
    } else {
        Kept::Notation
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
/// none, is the one without, and so is one with references that used none
/// and compared no layouts that used one where the one without compares
/// other texts (a field group kept over a column of `*name` cells, which
/// the one without takes unweighed, is its choice too); one with derived
/// columns, when writing it (or writing the one without, which asks)
/// turned no column into a derived one, is the one without. And one
/// without references whose text is that of one with them, its names'
/// marks replaced (all names primitives, no layout chosen by a text that
/// held one), is taken from that text rather than written.
pub(super) fn notation_best(
    value: &Value,
    opts: &Options,
    rival: Option<(usize, usize)>,
    rival_text: Option<&str>,
    depth_checked: bool,
    meter: &mut Meter,
) -> Result<Option<(Encoded, usize)>> {
    notation_sized(value, opts, rival, rival_text, 0, depth_checked, meter)
}

/// [`notation_best`], its documents reserved about `len` bytes when there
/// is no rival text to tell their size (0: not known).
fn notation_sized(
    value: &Value,
    opts: &Options,
    rival: Option<(usize, usize)>,
    rival_text: Option<&str>,
    len: usize,
    depth_checked: bool,
    meter: &mut Meter,
) -> Result<Option<(Encoded, usize)>> {
    let len = rival_text.map_or(len, str::len);
    let mut shared = shared_for(value, opts, len, depth_checked);
    // A variant without references may be the one with them, its marks
    // replaced: kept rather than written again (not for a large document,
    // whose texts are held one at a time).
    shared.keep_plain = true;
    let picked = pick_variant(&mut shared, opts, rival, rival_text, true, meter)?;
    let Some((doc, c, n)) = picked else {
        return Ok(None);
    };
    let doc = match doc {
        Some(doc) => doc,
        None => write_again(&n, &mut shared)?,
    };
    Ok(Some((doc, c)))
}

/// What the notation's variants of `value` share, for documents about
/// `len` bytes long (0: not known; `depth_checked` as
/// [`crate::notation::Shared::new`]).
fn shared_for<'a>(
    value: &'a Value,
    opts: &Options,
    len: usize,
    depth_checked: bool,
) -> crate::notation::Shared<'a> {
    let mut shared = crate::notation::Shared::new(value, depth_checked);
    // The rival's length, and a little more for the marker and the names.
    if len > 0 {
        shared.size_hint = len + len / 16 + 64;
    }
    // A variant without derived columns tells whether the one with them
    // would write its text again, when the floor admits derived columns.
    shared.probe_derived = variants(opts.min_readability).iter().any(|&(_, d)| d);
    shared
}

/// A variant written again: the same text as when it was first written
/// (what the variants share is only ever added to, never changed).
fn write_again(
    n: &crate::notation::Options,
    shared: &mut crate::notation::Shared<'_>,
) -> Result<Encoded> {
    let (doc, _) = crate::notation::encode_shared(n, shared)?;
    Ok(pith_doc(doc))
}

/// [`notation_best`]'s choice among the variants, measured against `rival`
/// and `rival_text` as there: the cheapest document (`None` when it was
/// let go, see `hold`), its cost and its options. With `hold` false, the
/// cheapest document so far is let go when the next variant is written.
fn pick_variant(
    shared: &mut crate::notation::Shared<'_>,
    opts: &Options,
    rival: Option<(usize, usize)>,
    rival_text: Option<&str>,
    hold: bool,
    meter: &mut Meter,
) -> Result<Option<(Option<Encoded>, usize, crate::notation::Options)>> {
    let tokenizer = notation_options(opts, false, false).tokenizer;
    let probe = shared.probe_derived;
    // Per value of `references` (as written): whether derived columns can
    // change the text, once a variant with them has been written.
    let mut derives: [Option<bool>; 2] = [None, None];
    // The variants written, as (references, derived columns) that mattered.
    let mut written: Vec<(bool, bool)> = Vec::new();
    let mut best = rival;
    let mut out: Option<(Encoded, usize, crate::notation::Options)> = None;
    // The cheapest document so far when its text was let go (`hold` false):
    // its options and cost.
    let mut let_go = None;
    for &(references, derived) in variants(opts.min_readability) {
        let references = references && shared.has_refs(tokenizer);
        let derived = derived && derives[usize::from(references)] != Some(false);
        if written.contains(&(references, derived)) {
            continue;
        }
        if !hold && let Some((_, c, n)) = out.take() {
            let_go = Some((n, c));
        }
        let n = notation_options(opts, references, derived);
        let (doc, effects) = crate::notation::encode_shared(&n, shared)?;
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
        if effects.as_without_references {
            // The text, and the tables planned, of the variant without
            // references: it is not written again, and what the probe
            // found holds for it too.
            written.push((false, derived));
            if derives[0].is_none() {
                derives[0] = derives[1];
            }
        }
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
        // Against TOON or JSON (no notation document kept yet) only fewer
        // tokens win: on a tie the standard syntax is kept; between notation
        // documents, fewer bytes break the tie.
        let wins = match best {
            None => true,
            Some((bc, _)) if out.is_none() && let_go.is_none() => c < bc,
            Some((bc, bl)) => (c, doc.text.len()) < (bc, bl),
        };
        if wins {
            best = Some((c, doc.text.len()));
            out = Some((pith_doc(doc), c, n));
            let_go = None;
        }
    }
    if let Some((doc, c, n)) = out {
        return Ok(Some((Some(doc), c, n)));
    }
    Ok(let_go.map(|(n, c)| (None, c, n)))
}

/// A notation document as `auto`'s answer.
fn pith_doc(doc: crate::notation::Notation) -> Encoded {
    Encoded {
        syntax: Syntax::Pith {
            references: doc.references,
            derived: doc.derived,
        },
        text: doc.text,
        wrapped: false,
        tables: Vec::new(),
    }
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

/// What `auto` starts from: plain TOON and a floor under compact JSON's
/// cost, or — for a wrapper-shaped root or a look-alike — the verbatim
/// documents of [`verbatim`].
enum First {
    Plain { toon: Encoded, json_floor: usize },
    Verbatim,
}

/// Values a look for list items visits before it gives up.
const LIST_LOOK: usize = 256;

/// For an exact tokenizer, a document whose plain TOON has list items
/// (found among the first [`LIST_LOOK`] values) is surveyed, and the
/// survey returned, before TOON is written: its TOON text could not have
/// told the floor under JSON's cost (see `text.rs`), and the survey's
/// floor under TOON's own cost may rule TOON out once the notation is
/// counted ([`listed_auto`], when [`listed`] says so). `None`: not
/// surveyed, TOON first as for any other document.
fn lists_first(value: &Value, opts: &Options, toon4: &EncodeOptions) -> Option<bound::Survey> {
    let exact = matches!(opts.metric, Metric::Tokens(kind) if kind.is_exact());
    if !exact || toon4.indent == 0 || matches!(value, Value::Object(m) if is_wrapper(m)) {
        return None;
    }
    let mut budget = LIST_LOOK;
    has_list(value, &mut budget)
        .then(|| bound::survey(value, Size::TokenFloors, opts.toon.max_depth))
}

/// Whether a surveyed document goes [`listed_auto`]'s way. Not when the
/// survey found a look-alike or a container near the depth limit (what
/// TOON then writes, or refuses, is TOON's to say), or compact JSON of a
/// quarter of `large` bytes or more (the large documents' way holds one
/// text at a time): TOON comes first then, and the survey gives it the
/// floor under JSON's cost its text cannot.
fn listed(survey: &bound::Survey, large: usize) -> bool {
    !survey.look_alike && !survey.deep && survey.bytes < large / 4
}

/// Whether TOON writes an array of `value` as a list ([`bound::Layout`]),
/// found before `budget` values are looked at: a list's items looked at
/// so far already tell it (neither all primitives nor all row-shaped).
fn has_list(value: &Value, budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    match value {
        Value::Object(m) => m.values().any(|v| has_list(v, budget)),
        Value::Array(items) => {
            let seen = &items[..items.len().min(*budget)];
            *budget -= seen.len();
            bound::layout(seen, LIST_LOOK) == bound::Layout::List
        }
        _ => false,
    }
}

/// Writes plain TOON and reads the floor under compact JSON's cost off
/// its text (or, when the text cannot tell, off the value: `surveyed`, a
/// [`Size::TokenFloors`] survey already made, or a new one).
fn toon_first(
    value: &Value,
    opts: &Options,
    toon4: &EncodeOptions,
    surveyed: Option<&bound::Survey>,
) -> Result<First> {
    if matches!(value, Value::Object(m) if is_wrapper(m)) {
        return Ok(First::Verbatim);
    }
    let toon = toon_doc(value, toon4, Vec::new())?;
    // A plain document's text answers for itself; otherwise the value is surveyed.
    let delimiter = toon4.delimiter.as_byte();
    let exact = matches!(opts.metric, Metric::Tokens(kind) if kind.is_exact());
    // JSON writes an integer of 1e21 or more as its digits, up to five
    // bytes fewer than TOON's `1.2345678901234567890123e+22`: a text that
    // may hold one gives no byte floor (its token floor stands).
    let text_floors = if exact || !toon.text.contains("e+") {
        text::survey_text(&toon.text, toon4.indent, delimiter, exact)
    } else {
        None
    };
    let (look_alike, json) = match text_floors {
        Some(floors) => (false, if exact { floors.tokens } else { floors.bytes }),
        None => {
            let size = match opts.metric {
                Metric::Tokens(kind) if kind.is_exact() => Size::TokenFloor,
                _ => Size::Bytes,
            };
            let survey = match surveyed {
                // Its floor under JSON's tokens is the one `TokenFloor` reads.
                Some(s) => *s,
                None => bound::survey(value, size, opts.toon.max_depth),
            };
            (survey.look_alike, survey.json)
        }
    };
    if look_alike {
        return Ok(First::Verbatim);
    }
    let json_floor = match opts.metric {
        Metric::Tokens(kind) if !kind.is_exact() => json.div_ceil(4),
        _ => json,
    };
    Ok(First::Plain { toon, json_floor })
}

/// TOON must wrap a wrapper-shaped root or a look-alike; compact JSON is
/// read as it is. The cheaper of the two, JSON on a tie, and its cost.
fn verbatim(
    value: &Value,
    opts: &Options,
    toon4: &EncodeOptions,
    meter: &mut Meter,
) -> Result<(Encoded, Option<usize>)> {
    let toon = toon_wrapped(value, opts.form, toon4)?;
    let json = json_doc(value, Vec::new());
    let (tc, jc) = (meter.cost(&toon.text), meter.cost(&json.text));
    Ok(if (jc, json.text.len()) <= (tc, toon.text.len()) {
        (json, Some(jc))
    } else {
        (toon, Some(tc))
    })
}

/// The cheaper of plain TOON and compact JSON (JSON on a tie), with its
/// cost when that was counted: JSON is neither written nor counted when
/// its floor rules it out, and TOON is counted only until it is sure to
/// cost less than that floor.
fn toon_or_json(
    value: &Value,
    toon: Encoded,
    json_floor: usize,
    meter: &mut Meter,
) -> (Encoded, Option<usize>) {
    meter.last();
    let toon_cost = match meter.cost_unless_under(&toon.text, json_floor) {
        Some(c) => c,
        // JSON costs more for certain: neither written nor counted.
        None => return (toon, None),
    };
    if json_floor > toon_cost {
        return (toon, Some(toon_cost));
    }
    let json = json_doc(value, Vec::new());
    // JSON wins ties on cost when it is no longer; counted only as far as needed.
    match meter.cost_unless_over(&json.text, toon_cost) {
        Some(j) if (j, json.text.len()) <= (toon_cost, toon.text.len()) => (json, Some(j)),
        _ => (toon, Some(toon_cost)),
    }
}

/// `auto` over TOON and JSON alone: [`verbatim`] for a wrapper-shaped root
/// or a look-alike, otherwise [`toon_or_json`]. Returns the document and
/// its cost when that was counted.
#[cfg(test)]
pub(super) fn toon_auto(
    value: &Value,
    opts: &Options,
    toon4: &EncodeOptions,
    meter: &mut Meter,
) -> Result<(Encoded, Option<usize>)> {
    match toon_first(value, opts, toon4, None)? {
        First::Plain { toon, json_floor } => Ok(toon_or_json(value, toon, json_floor, meter)),
        First::Verbatim => verbatim(value, opts, toon4, meter),
    }
}
