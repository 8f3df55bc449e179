//! The notation's writer.
//!
//! The value is written top-down. Objects are `key: value` lines, as in
//! TOON; every array of objects is a sparse table (columns over the union of
//! the rows' keys, nested field groups where the values are objects, list
//! columns where they are arrays of primitives, record lists where they are
//! arrays of objects, flow cells for other nested values); other nested
//! values are flow values. Where two layouts are possible (a nested object
//! as lines or as one flow value; a short array of objects as a table or a
//! flow value; a column of arrays of objects as a record list or as flow
//! cells) both are written and the one with fewer tokens of
//! [`Options::tokenizer`] is kept.
//!
//! References (§7) come from [`refs`]: the writer writes `*name` for every
//! value that has one and logs the use; only used names are defined, each
//! above its first user, so the prelude never holds a definition nobody
//! uses. Derived columns (§9) are found per table by [`derive`].

mod derive;
mod refs;
mod table;

use self::refs::Refs;
use self::table::Tally;
use super::{MARKER, Options, short_fraction};
use crate::tokens::{LineCounts, Tokenizer};
use crate::value::Prehashed;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

#[cfg(test)]
thread_local! {
    /// Makes writers count every layout whole, keep no flow value and write
    /// every column they weigh whole: the reference their memo, their kept
    /// flow values and their streamed floors are tested against.
    pub(crate) static DIRECT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
thread_local! {
    /// Makes writers replace marks in pieces of this many bytes (0: of
    /// [`ANCHOR_PIECE`]), so that the pieces' seams are what is tested.
    pub(crate) static PIECE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A text longer than this has its marks replaced in pieces of about this
/// many bytes, from its end, each let go once replaced: a large document
/// is held about once while it is finished, rather than twice.
const ANCHOR_PIECE: usize = 8 << 20;

/// Flow values shorter than this are written again rather than kept (in
/// the unit tests every one is kept, so that keeping is what they test).
const FLOW_KEEP_MIN: usize = if cfg!(test) { 1 } else { 64 };
/// The most bytes of flow values kept for writing again.
const FLOW_KEPT: usize = 16 << 20;
/// Layouts longer than this are weighed at one level only: an object
/// whose subtree held such a weighing is written as lines, and so is every
/// object around it (each would write and count the same long text again,
/// which on a deep document is depth × size).
const FLOW_MAX: usize = 16 << 10;
use crate::toon::Spec;
use crate::toon::encode::quote::{Quote, Quoting, Rules, numeric_like, write_key, write_quoted};
use crate::{Error, ErrorKind, Map, Number, Result, Value};

/// A notation document and what it uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notation {
    /// The text (no final newline), starting with the marker line.
    pub text: String,
    /// How many names it defines.
    pub references: usize,
    /// How many derived columns its tables declare.
    pub derived: usize,
}

impl Notation {
    /// The readability score of the document (`docs/notation.md`): 5, minus
    /// one for references, minus one for derived columns.
    pub fn readability(&self) -> u8 {
        5 - u8::from(self.references > 0) - u8::from(self.derived > 0)
    }
}

/// Writes `value` in the notation.
///
/// # Errors
///
/// [`ErrorKind::DepthLimit`] for a value nested deeper than
/// [`Options::max_depth`]; [`ErrorKind::Indentation`] for an indent of 0.
///
/// ```
/// use pith::notation::{encode, Options};
/// let v = pith::json::parse(r#"[{"id":1,"tags":["a"]},{"id":2,"note":null}]"#)?;
/// let doc = encode(&v, &Options::default())?;
/// assert_eq!(doc.text, "%pith\n[2]{id,tags?[],note?}:\n1,a,\n2,,null");
/// assert_eq!(pith::notation::decode(doc.text.as_bytes(), &Default::default())?, v);
/// # Ok::<(), pith::Error>(())
/// ```
pub fn encode(value: &Value, opts: &Options) -> Result<Notation> {
    let mut shared = Shared::new(value, false);
    encode_shared(opts, &mut shared).map(|(doc, _)| doc)
}

/// What the variants of one value share (`auto` writes up to three): the
/// value, whether its depth is known to be within the limit, and its
/// references, found on first need and kept.
pub(crate) struct Shared<'a> {
    value: &'a Value,
    depth_checked: bool,
    /// The value's depth, once asked for.
    depth: Option<usize>,
    refs: Option<(crate::tokens::TokenizerKind, Refs<'a>)>,
    /// About how long a document will be (the text is allocated once).
    pub(crate) size_hint: usize,
    /// Whether a variant without derived columns tells whether the one
    /// with them would write the same text ([`Effects::derived_columns`]).
    pub(crate) probe_derived: bool,
    /// Whether a variant with references whose names are all primitives
    /// keeps the text of the variant without them (see [`Plain`]).
    pub(crate) keep_plain: bool,
    /// The texts kept so (at most one per value of `derived` written).
    plain: Vec<Plain>,
}

/// The text of a variant without references, kept by the variant with them
/// that was written with the same options otherwise.
///
/// A writer whose names are all primitives writes each use of one as a
/// mark, and nothing else it writes depends on the names: containers are
/// never named, so no table, group or list is planned otherwise; and when
/// it compared no layouts of which either held a mark (it was not swayed),
/// every choice it made is the one the writer without references makes.
/// So the text without references is its text with each mark replaced by
/// the value written where the mark stands, as a name used once is: one
/// pass over the text instead of writing the document again.
struct Plain {
    /// The options it was written with (references on).
    opts: Options,
    doc: Notation,
    /// [`Effects::derived_columns`] of the variant that kept it, which
    /// planned the same tables.
    derived_columns: bool,
}

impl Plain {
    /// Whether this is the text of the variant `opts` (without references).
    fn answers(&self, opts: &Options) -> bool {
        let same = Options {
            references: true,
            derived: self.opts.derived,
            ..opts.clone()
        };
        if opts.references || same != self.opts {
            return false;
        }
        // With or without derived columns, the same text when planning
        // turned none (or, written without them and probing, would have
        // turned none).
        opts.derived == self.opts.derived || !self.derived_columns
    }
}

impl<'a> Shared<'a> {
    /// `depth_checked`: the caller knows `value` nests no deeper than the
    /// `max_depth` of the options it will pass (it has written it as TOON
    /// with that limit, say).
    pub(crate) fn new(value: &'a Value, depth_checked: bool) -> Shared<'a> {
        Shared {
            value,
            depth_checked,
            depth: None,
            refs: None,
            size_hint: 0,
            probe_derived: false,
            keep_plain: false,
            plain: Vec::new(),
        }
    }

    /// Whether the value has references worth making, judged in tokens of
    /// `tokenizer`: when it has none, a variant with references is the one
    /// without, to the byte.
    pub(crate) fn has_refs(&mut self, tokenizer: crate::tokens::TokenizerKind) -> bool {
        !self.refs(tokenizer).names.is_empty()
    }

    /// Whether the text of variant `opts` is kept (see [`Plain`]).
    #[cfg(test)]
    pub(crate) fn kept_plain(&self, opts: &Options) -> bool {
        self.plain.iter().any(|p| p.answers(opts))
    }

    /// The value's depth ([`Value::depth`], worked out once).
    fn depth(&mut self) -> usize {
        let value = self.value;
        *self.depth.get_or_insert_with(|| value.depth())
    }

    fn refs(&mut self, tokenizer: crate::tokens::TokenizerKind) -> &Refs<'a> {
        let value = self.value;
        if self
            .refs
            .as_ref()
            .is_none_or(|(kind, _)| *kind != tokenizer)
        {
            // The walk that finds references recurses once per level: a
            // value deeper than any writer's limit has none (each variant
            // is then refused for its depth, never walked).
            let refs = if self.depth_checked || self.depth() <= crate::MAX_DEPTH_LIMIT {
                Refs::find(value, Tokenizer::get(tokenizer))
            } else {
                Refs::none()
            };
            self.refs = Some((tokenizer, refs));
        }
        &self.refs.get_or_insert_with(|| (tokenizer, Refs::none())).1
    }
}

/// What writing a variant found out beyond its text.
pub(crate) struct Effects {
    /// Whether planning a table turned any column into a derived one (kept
    /// or not): when none, the variant with derived columns is the one
    /// without, to the byte. For a variant without derived columns written
    /// with [`Shared::probe_derived`], whether planning would have.
    pub(crate) derived_columns: bool,
    /// A variant with references that uses none and compared no layouts
    /// that used one: every choice it made was between the texts the
    /// variant without references compares (a field group kept over a
    /// column of `*name` cells, where that variant takes the group without
    /// comparing, is the group it writes), so its
    /// text is that variant's, to the byte, and so are the tables it
    /// planned.
    pub(crate) as_without_references: bool,
}

/// [`encode`] with what the value's variants share.
pub(crate) fn encode_shared(
    opts: &Options,
    shared: &mut Shared<'_>,
) -> Result<(Notation, Effects)> {
    let value = shared.value;
    if opts.indent == 0 {
        return Err(Error::new(
            ErrorKind::Indentation,
            "expected an indent of at least 1 space, found 0",
        ));
    }
    let max_depth = crate::depth_limit(opts.max_depth);
    if !shared.depth_checked && shared.depth() > max_depth {
        return Err(Error::at_path(
            ErrorKind::DepthLimit,
            "$",
            format!("expected at most {max_depth} levels of nesting, found more"),
        ));
    }
    if let Some(at) = shared.plain.iter().position(|p| p.answers(opts)) {
        let plain = shared.plain.swap_remove(at);
        return Ok((
            plain.doc,
            Effects {
                derived_columns: plain.derived_columns,
                as_without_references: false,
            },
        ));
    }
    let size_hint = shared.size_hint;
    let probe = shared.probe_derived;
    let keep_plain = shared.keep_plain;
    let none = Refs::none();
    let refs = if opts.references {
        shared.refs(opts.tokenizer)
    } else {
        &none
    };
    let mut w = Writer::new(opts, refs);
    w.probe = probe;
    // The marker first: the prelude goes in after it once the body is
    // written, and the body is never copied whole.
    let mut body = String::with_capacity(size_hint.max(64));
    body.push_str(MARKER);
    body.push('\n');
    match value {
        Value::Object(m) => w.object_lines(&mut body, m, 0),
        Value::Array(items) => match w.table_rows(items) {
            Some((rows, tally)) => w.table(&mut body, None, &rows, tally, None, 0),
            None if items.iter().all(Value::is_primitive) => w.inline_array(&mut body, None, items),
            None => w.root_list(&mut body, items),
        },
        v => w.item(&mut body, v),
    }
    let prelude = w.prelude();
    body.insert_str(MARKER.len() + 1, &prelude);
    // The text without references, where it is this one's marks replaced
    // (names all primitives: nothing is defined in the prelude either).
    let plain = (keep_plain
        && opts.references
        && !w.swayed
        && refs.names.iter().all(|(_, v)| v.is_primitive())
        && body.contains(MARK))
    .then(|| {
        let mut text = String::with_capacity(body.len());
        let none = vec![0; refs.names.len()];
        w.replace_marks(&mut text, &body, &none, &mut none.clone());
        text
    });
    let (text, anchors) = w.anchor(body);
    let references = w.defined + anchors;
    let doc = Notation {
        text,
        references,
        derived: w.derived,
    };
    let effects = Effects {
        derived_columns: w.derive_turned,
        as_without_references: opts.references && references == 0 && !w.swayed,
    };
    // A text whose names are each used once is the one without them.
    if let Some(text) = plain.filter(|_| references > 0) {
        shared.plain.retain(|p| p.opts.derived != opts.derived);
        shared.plain.push(Plain {
            opts: opts.clone(),
            doc: Notation {
                text,
                references: 0,
                derived: doc.derived,
            },
            derived_columns: effects.derived_columns,
        });
    }
    Ok((doc, effects))
}

/// Brackets the mark of a named primitive in text being written: NUL never
/// appears in the notation's text (control characters are escaped).
const MARK: char = '\0';

/// Where a named primitive stands, which decides how it is quoted.
#[derive(Clone, Copy)]
enum Context {
    /// A cell (but a TOON table's) or an inline array's item: TOON's rules
    /// for the document's delimiter, but a string quoted only for colons
    /// that each have a character other than a space after them is bare
    /// (`docs/notation.md` §6).
    Cell,
    /// After `key: `, where the value runs to the end of the line: as
    /// [`Context::Cell`], and brackets, braces and the delimiter leave a
    /// string bare too, but for a `[` or `{` first (§6).
    Field,
    /// A list item (`- `) or a document's only value, where `a:b` would
    /// read as a key: TOON's rules as they are.
    Toon,
    /// Inside a flow value.
    Flow,
}

impl Context {
    fn code(self) -> char {
        match self {
            Context::Cell => 'c',
            Context::Field => 'k',
            Context::Toon => 't',
            Context::Flow => 'f',
        }
    }
}

/// The bytes [`Writer::anchor`] replaces marks in at a time.
fn anchor_piece() -> usize {
    #[cfg(test)]
    if let p @ 1.. = PIECE.with(std::cell::Cell::get) {
        return p;
    }
    ANCHOR_PIECE
}

/// A mark's context and name, from what stands between its two [`MARK`]s.
fn read_mark(mark: &str) -> (Context, u32) {
    let context = match mark.as_bytes().first() {
        Some(b'f') => Context::Flow,
        Some(b'c') => Context::Cell,
        Some(b'k') => Context::Field,
        _ => Context::Toon,
    };
    (context, mark[1..].parse().unwrap_or(0))
}

/// Calls `f` with the name of each mark in `text`.
fn for_marks(text: &str, mut f: impl FnMut(u32)) {
    for mark in text.split(MARK).skip(1).step_by(2) {
        f(read_mark(mark).1);
    }
}

/// Text written on the side, with what it uses.
struct Fragment {
    text: String,
    uses: Vec<u32>,
    derived: usize,
}

/// A place in the text being written, with the names and derived columns
/// used up to it (see [`Writer::mark`]).
struct Mark {
    text: usize,
    uses: usize,
    derived: usize,
}

impl Fragment {
    /// Whether the text uses a name: `*name` or a named primitive's mark.
    fn names_any(&self) -> bool {
        !self.uses.is_empty() || self.text.contains(MARK)
    }
}

pub(super) struct Writer<'o, 'r, 'a> {
    opts: &'o Options,
    refs: &'r Refs<'a>,
    quoting: Quoting,
    delimiter: char,
    /// Counts of the layouts the writer compares: each distinct line is
    /// tokenized once, however many layouts of the values around it hold it.
    lines: LineCounts,
    /// Names used by the text written so far and kept, in order of use.
    uses: Vec<u32>,
    /// Definitions written by [`Writer::prelude`].
    defined: usize,
    /// Derived columns in the tables written so far and kept.
    derived: usize,
    /// Whether planning turned any column into a derived one, in any
    /// table, kept or not; in a probing writer without derived columns,
    /// whether it would have.
    derive_turned: bool,
    /// Whether a writer without derived columns asks, of every table it
    /// plans, whether derived columns would turn any of its columns. The
    /// writer with them takes the same steps as the one without until a
    /// column turns (the columns are all that derived columns change), so
    /// when none would, both write the same text.
    probe: bool,
    /// Whether two layouts were compared of which either used a name
    /// (`*name`, or the mark of a named primitive, which is counted as it
    /// stands): a writer without references would have compared other
    /// texts there, and might have chosen otherwise. A field group that
    /// wins over a column of `*name` cells where that writer takes the
    /// group without comparing does not sway it (see `group_pays`).
    swayed: bool,
    /// Whether, inside the value being written, layouts were weighed of
    /// which one took more than [`FLOW_MAX`] bytes (see `member`).
    weighed_long: bool,
    /// Flow values written so far: an object compared in both layouts is
    /// written as a flow value again inside the flow value of every object
    /// around it so compared. By the address of the container: where its
    /// text is in `flow_text` and the names it uses in `flow_uses`.
    flows: HashMap<u64, [u32; 4], BuildHasherDefault<Prehashed>>,
    flow_text: String,
    flow_uses: Vec<u32>,
}

impl<'o, 'r, 'a> Writer<'o, 'r, 'a> {
    fn new(opts: &'o Options, refs: &'r Refs<'a>) -> Self {
        Writer {
            opts,
            refs,
            quoting: Quoting::new(opts.delimiter.as_byte(), Spec::V4),
            delimiter: opts.delimiter.as_char(),
            lines: Writer::counts(Tokenizer::get(opts.tokenizer)),
            uses: Vec::new(),
            defined: 0,
            derived: 0,
            derive_turned: false,
            probe: false,
            swayed: false,
            weighed_long: false,
            flows: HashMap::default(),
            flow_text: String::new(),
            flow_uses: Vec::new(),
        }
    }

    /// The memo layouts are counted with.
    fn counts(tokenizer: &'static Tokenizer) -> LineCounts {
        #[cfg(test)]
        if DIRECT.with(std::cell::Cell::get) {
            return LineCounts::direct(tokenizer);
        }
        LineCounts::fine(tokenizer)
    }

    /// Whether a column weighed against a field group is written only until
    /// a floor under its count passes the group's (see `group_pays`).
    fn streams_floors() -> bool {
        #[cfg(test)]
        if DIRECT.with(std::cell::Cell::get) {
            return false;
        }
        true
    }

    /// Whether flow values are kept for writing again.
    fn keeps_flows() -> bool {
        #[cfg(test)]
        if DIRECT.with(std::cell::Cell::get) {
            return false;
        }
        true
    }

    /// The definitions of every name used, each above its first user.
    fn prelude(&mut self) -> String {
        let mut done = vec![false; self.refs.names.len()];
        let mut out = String::new();
        for id in std::mem::take(&mut self.uses) {
            self.define(id, &mut done, &mut out);
        }
        out
    }

    /// Replaces the marks of named primitives in `text`: the first use of a
    /// name becomes `&name value`, later ones `*name`, and a name used once
    /// is written as its value. Returns the text and how many names it
    /// anchors.
    ///
    /// A text longer than [`ANCHOR_PIECE`] is done in pieces from its end,
    /// each starting at a line (a mark holds no line break), the text cut
    /// short and shrunk after each; the pieces are joined at the end.
    fn anchor(&self, mut text: String) -> (String, usize) {
        if !text.contains(MARK) {
            return (text, 0);
        }
        let piece = anchor_piece();
        // Every name's uses in the whole text; then, as pieces are taken
        // off its end, its uses in what is left.
        let mut uses = vec![0usize; self.refs.names.len()];
        for_marks(&text, |id| uses[id as usize] += 1);
        let mut left = uses.clone();
        let mut pieces = Vec::new();
        let mut anchors = 0;
        while !text.is_empty() {
            let start = match text.len().checked_sub(piece) {
                Some(end) if end > 0 => text.as_bytes()[..end]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |at| at + 1),
                _ => 0,
            };
            let region = &text[start..];
            // Ahead of the text's first piece there are no uses.
            let mut before = if start == 0 {
                vec![0; uses.len()]
            } else {
                for_marks(region, |id| left[id as usize] -= 1);
                left.clone()
            };
            let mut out = String::with_capacity(region.len() + region.len() / 16);
            anchors += self.replace_marks(&mut out, region, &uses, &mut before);
            if start == 0 && pieces.is_empty() {
                // The whole text in one piece.
                return (out, anchors);
            }
            pieces.push(out);
            text.truncate(start);
            text.shrink_to_fit();
        }
        let mut out = String::with_capacity(pieces.iter().map(String::len).sum());
        for piece in pieces.into_iter().rev() {
            out.push_str(&piece);
        }
        (out, anchors)
    }

    /// Writes `region` to `out` with its marks replaced (see [`anchor`]):
    /// `uses` are each name's uses in the whole text, `before` its uses
    /// ahead of the region, counted on through it. Returns how many names
    /// the region anchors.
    fn replace_marks(
        &self,
        out: &mut String,
        region: &str,
        uses: &[usize],
        before: &mut [usize],
    ) -> usize {
        let mut anchors = 0;
        let mut parts = region.split(MARK);
        out.push_str(parts.next().unwrap_or(""));
        while let (Some(mark), Some(after)) = (parts.next(), parts.next()) {
            let (context, id) = read_mark(mark);
            let (name, value) = &self.refs.names[id as usize];
            if uses[id as usize] < 2 {
                self.value_in(out, value, context);
            } else if before[id as usize] > 0 {
                out.push('*');
                out.push_str(name);
            } else {
                anchors += 1;
                out.push('&');
                out.push_str(name);
                out.push(' ');
                self.value_in(out, value, context);
            }
            before[id as usize] += 1;
            out.push_str(after);
        }
        anchors
    }

    /// Primitive `v` as it is written where `context` says.
    fn value_in(&self, out: &mut String, v: &Value, context: Context) {
        match context {
            Context::Flow => flow_primitive(out, v),
            Context::Toon => self.primitive(out, v, Rules::Toon),
            Context::Cell => self.primitive(out, v, Rules::Cell),
            Context::Field => self.primitive(out, v, Rules::Field),
        }
    }

    fn define(&mut self, id: u32, done: &mut [bool], out: &mut String) {
        if done[id as usize] {
            return;
        }
        done[id as usize] = true;
        let (name, value) = {
            let (n, v) = &self.refs.names[id as usize];
            (n.clone(), *v)
        };
        let mark = self.uses.len();
        let mut line = String::new();
        line.push('&');
        line.push_str(&name);
        line.push_str(": ");
        self.flow_inner(&mut line, value);
        line.push('\n');
        let inner: Vec<u32> = self.uses.drain(mark..).collect();
        for used in inner {
            self.define(used, done, out);
        }
        out.push_str(&line);
        self.defined += 1;
    }

    fn indent(&self, out: &mut String, depth: usize) {
        for _ in 0..depth * self.opts.indent {
            out.push(' ');
        }
    }

    /// Whether layout `b` of a value costs fewer tokens than layout `a`:
    /// `b` is counted only as far as needed to tell, and both through the
    /// memo, which holds the layouts of the values inside.
    fn cheaper(&mut self, b: &str, a: &str) -> bool {
        match self.lines.count(a).checked_sub(1) {
            Some(under) => self.lines.count_unless_over(b, under).is_some(),
            None => false,
        }
    }

    /// [`Writer::cheaper`] for texts that share nothing with what the memo
    /// holds (the cells of one column in every row), `b` the likely cheaper:
    /// counted directly, `b` first, then `a` only if a floor read off its
    /// bytes (read only until it does) does not already exceed `b`'s count,
    /// and only until its tokens pass that count (or can no longer).
    fn cheaper_alone(&self, b: &str, a: &str) -> bool {
        let cost = self.lines.tokenizer().count(b);
        self.costs_more(a, cost)
    }

    /// Whether `a` costs more than `cost` tokens, told as
    /// [`Writer::cheaper_alone`] tells it.
    fn costs_more(&self, a: &str, cost: usize) -> bool {
        let tokenizer = self.lines.tokenizer();
        if tokenizer.kind().is_exact() && crate::tokens::text_floor_exceeds(a, cost) {
            return true;
        }
        tokenizer.count_exceeds(a, cost)
    }

    /// Writes with `f` on the side: the text, and the names and derived
    /// columns it uses, to be kept with [`Writer::keep`] or dropped.
    fn render(&mut self, f: impl FnOnce(&mut Self, &mut String)) -> Fragment {
        let uses = std::mem::take(&mut self.uses);
        let derived = std::mem::take(&mut self.derived);
        let mut text = String::new();
        f(self, &mut text);
        Fragment {
            text,
            uses: std::mem::replace(&mut self.uses, uses),
            derived: std::mem::replace(&mut self.derived, derived),
        }
    }

    /// Where `out`, the names used and the derived columns stand now, for
    /// [`Writer::cut`].
    fn mark(&self, out: &str) -> Mark {
        Mark {
            text: out.len(),
            uses: self.uses.len(),
            derived: self.derived,
        }
    }

    /// What was written to `out` since `mark`, taken back out as the
    /// fragment [`Writer::render`] would have written on the side (what
    /// [`Writer::keep`] undone).
    fn cut(&mut self, out: &mut String, mark: Mark) -> Fragment {
        Fragment {
            text: out.split_off(mark.text),
            uses: self.uses.split_off(mark.uses),
            derived: std::mem::replace(&mut self.derived, mark.derived) - mark.derived,
        }
    }

    fn keep(&mut self, out: &mut String, f: Fragment) {
        out.push_str(&f.text);
        self.uses.extend(f.uses);
        self.derived += f.derived;
    }

    /// Notes that layouts `a` and `b` are about to be weighed against each
    /// other: a writer that weighs a layout holding a name is swayed (a
    /// writer without references would have weighed other texts). Only a
    /// writer with names can be swayed, and once is enough.
    fn weighing(&mut self, a: &Fragment, b: &Fragment) {
        if !self.swayed && !self.refs.names.is_empty() {
            self.swayed = a.names_any() || b.names_any();
        }
    }

    /// Keeps `a`, or `b` when it costs fewer tokens.
    fn keep_cheaper(&mut self, out: &mut String, a: Fragment, b: Fragment) {
        self.weighing(&a, &b);
        let pick = if self.cheaper(&b.text, &a.text) { b } else { a };
        self.keep(out, pick);
    }

    /// The members of `m` as lines at `depth`, each ending with a newline
    /// except the document's last.
    fn object_lines(&mut self, out: &mut String, m: &Map, depth: usize) {
        for (i, (k, v)) in m.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            self.member(out, k, v, depth);
        }
    }

    /// One member: `key: value`, `key:` and nested lines, or a table.
    fn member(&mut self, out: &mut String, key: &str, v: &Value, depth: usize) {
        if let Some(id) = self.refs.of(v) {
            self.indent(out, depth);
            write_key_str(out, key);
            out.push_str(": ");
            self.use_ref(out, id, Context::Field);
            return;
        }
        match v {
            Value::Object(m) if m.is_empty() => {
                self.indent(out, depth);
                write_key_str(out, key);
                out.push(':');
            }
            Value::Object(m) => {
                // As nested lines, as one flow value, or (a map of objects)
                // as a keyed table: the cheapest.
                // The lines are written in place; taken out as a layout to
                // weigh only when they are to be weighed.
                let outer = std::mem::take(&mut self.weighed_long);
                let mark = self.mark(out);
                self.indent(out, depth);
                write_key_str(out, key);
                out.push_str(":\n");
                self.object_lines(out, m, depth + 1);
                if self.weighed_long {
                    // Layouts over `FLOW_MAX` bytes were weighed inside:
                    // this object is not weighed again, nor (the flag stays
                    // set) is any around it: each would write, copy and
                    // count that long text once more, depth × size in all.
                    return;
                }
                let lines = self.cut(out, mark);
                let flow = self.render(|w, o| {
                    w.indent(o, depth);
                    write_key_str(o, key);
                    o.push_str(": ");
                    w.flow_inner(o, v);
                });
                self.weighed_long =
                    outer || lines.text.len() > FLOW_MAX || flow.text.len() > FLOW_MAX;
                let keyed = if m.len() >= 2 { self.map_rows(m) } else { None };
                if let Some((rows, tally)) = keyed {
                    let names: Vec<&str> = m.keys().map(|k| k.as_str()).collect();
                    let keyed = self.render(|w, o| {
                        w.table(o, Some(key), &rows, tally, Some(&names), depth);
                    });
                    self.weighed_long |= keyed.text.len() > FLOW_MAX;
                    let pick = self.render(|w, o| w.keep_cheaper(o, lines, flow));
                    self.keep_cheaper(out, pick, keyed);
                } else {
                    self.keep_cheaper(out, lines, flow);
                }
            }
            Value::Array(items) if items.is_empty() => {
                self.indent(out, depth);
                write_key_str(out, key);
                out.push_str(": []");
            }
            Value::Array(items) if items.iter().all(Value::is_primitive) => {
                self.indent(out, depth);
                self.inline_array(out, Some(key), items);
            }
            Value::Array(items) => {
                let Some((rows, tally)) = self.table_rows(items) else {
                    self.indent(out, depth);
                    write_key_str(out, key);
                    out.push_str(": ");
                    self.flow_inner(out, v);
                    return;
                };
                if rows.len() > 3 {
                    self.table(out, Some(key), &rows, tally, None, depth);
                    return;
                }
                // A short array of objects: as a table, as one flow value,
                // or as a list of `- ` items whose members are lines (where
                // a member holds a table of its own, say).
                let table = self.render(|w, o| w.table(o, Some(key), &rows, tally, None, depth));
                let flow = self.render(|w, o| {
                    w.indent(o, depth);
                    write_key_str(o, key);
                    o.push_str(": ");
                    w.flow_inner(o, v);
                });
                let listable = rows.iter().all(|m| {
                    m.get_index(0).is_some_and(|(_, first)| {
                        first.is_primitive() || self.refs.of(first).is_some()
                    })
                });
                if listable {
                    let list = self.render(|w, o| w.object_list(o, key, &rows, depth));
                    let pick = self.render(|w, o| w.keep_cheaper(o, table, flow));
                    self.keep_cheaper(out, pick, list);
                } else {
                    self.keep_cheaper(out, table, flow);
                }
            }
            v => {
                self.indent(out, depth);
                write_key_str(out, key);
                out.push_str(": ");
                self.value_in(out, v, Context::Field);
            }
        }
    }

    /// A root array of mixed items: `[N]:` and one `- value` line each (a
    /// reference, a flow value or a primitive).
    fn root_list(&mut self, out: &mut String, items: &[Value]) {
        out.push('[');
        out.push_str(&items.len().to_string());
        self.delimiter_mark(out);
        out.push_str("]:");
        for v in items {
            out.push('\n');
            self.indent(out, 1);
            out.push_str("- ");
            self.item(out, v);
        }
    }

    /// `key[N]:` and one `- ` item per object, TOON's list: the first member
    /// on the item's line (a primitive or a reference, so nothing nests
    /// under it), the others one level deeper.
    fn object_list(&mut self, out: &mut String, key: &str, rows: &[&Map], depth: usize) {
        self.indent(out, depth);
        write_key_str(out, key);
        out.push('[');
        out.push_str(&rows.len().to_string());
        self.delimiter_mark(out);
        out.push_str("]:");
        for m in rows {
            for (i, (k, v)) in m.iter().enumerate() {
                out.push('\n');
                if i == 0 {
                    self.indent(out, depth + 1);
                    out.push_str("- ");
                    self.member(out, k, v, 0);
                } else {
                    self.member(out, k, v, depth + 2);
                }
            }
        }
    }

    /// `key[N]: a,b,c` (TOON's inline array), or `[N]: a,b,c` at the root.
    fn inline_array(&mut self, out: &mut String, key: Option<&str>, items: &[Value]) {
        if let Some(k) = key {
            write_key_str(out, k);
        }
        out.push('[');
        out.push_str(&items.len().to_string());
        self.delimiter_mark(out);
        out.push_str("]:");
        for (i, v) in items.iter().enumerate() {
            out.push(if i == 0 { ' ' } else { self.delimiter });
            self.value_as(out, v, Context::Cell);
        }
    }

    /// The rows of `items` and their tally, when they make a table: all of
    /// them objects, and the tally [`worthy`](Tally::worthy).
    fn table_rows<'v>(&self, items: &'v [Value]) -> Option<(Vec<&'v Map>, Tally<'v>)> {
        self.rows_of(items.iter())
    }

    /// [`Writer::table_rows`] for the values of a map: a keyed table's rows.
    fn map_rows<'v>(&self, m: &'v Map) -> Option<(Vec<&'v Map>, Tally<'v>)> {
        self.rows_of(m.values())
    }

    fn rows_of<'v>(
        &self,
        items: impl Iterator<Item = &'v Value>,
    ) -> Option<(Vec<&'v Map>, Tally<'v>)> {
        let rows: Vec<&Map> = items.map(Value::as_object).collect::<Option<_>>()?;
        if rows.is_empty() {
            return None;
        }
        let tally = self.tally(&rows);
        tally.worthy(rows.len()).then_some((rows, tally))
    }

    /// The delimiter's mark inside `[N…]`: nothing for a comma.
    fn delimiter_mark(&self, out: &mut String) {
        if self.delimiter != ',' {
            out.push(self.delimiter);
        }
    }

    /// A use of name `id`. A named container is `*name` (defined in the
    /// prelude); a named primitive is a mark that [`anchor`] turns into
    /// `&name value` at its first use in the document and `*name` after.
    fn use_ref(&mut self, out: &mut String, id: u32, context: Context) {
        if self.refs.names[id as usize].1.is_primitive() {
            out.push(MARK);
            out.push(context.code());
            out.push_str(&id.to_string());
            out.push(MARK);
            return;
        }
        out.push('*');
        out.push_str(&self.refs.names[id as usize].0);
        self.uses.push(id);
    }

    /// A list item's value or a document's only value: as a cell's, with
    /// a primitive under TOON's rules as they are ([`Context::Toon`]).
    fn item(&mut self, out: &mut String, v: &Value) {
        self.value_as(out, v, Context::Toon);
    }

    /// A value in a cell, an inline array or a list item: a reference, a
    /// flow value, or a primitive quoted as `context` says.
    fn value_as(&mut self, out: &mut String, v: &Value, context: Context) {
        if let Some(id) = self.refs.of(v) {
            self.use_ref(out, id, context);
            return;
        }
        match v {
            Value::Object(_) | Value::Array(_) => self.flow_inner(out, v),
            v => self.value_in(out, v, context),
        }
    }

    /// A primitive under TOON's rules for the document's delimiter, plus the
    /// notation's own: a leading `*`, `&`, the string `~`, or a string that
    /// spells a short-form number (`.5`), is quoted; otherwise a string is
    /// quoted as `rules` say.
    fn primitive(&self, out: &mut String, v: &Value, rules: Rules) {
        match v {
            Value::String(s)
                if s.starts_with(['*', '&']) || s == "~" || spells_short_fraction(s) =>
            {
                append(out, |b| write_quoted(b, s));
            }
            Value::String(s) => push_string(out, s, self.quoting.quote_by(s, rules)),
            Value::Number(n) => push_number(out, n),
            v => literal(out, v),
        }
    }

    /// An item of a list cell: a primitive as in a cell, quoted also when
    /// it holds a space.
    fn list_item(&self, out: &mut String, v: &Value) {
        match v {
            Value::String(s) if s.contains(' ') => {
                append(out, |b| write_quoted(b, s));
            }
            v => self.value_in(out, v, Context::Cell),
        }
    }

    /// A flow value (§5); a nested value with a name is `*name`, `v` itself
    /// is written out. A container's text is kept (up to [`FLOW_KEPT`]
    /// bytes in all) and copied when written again.
    fn flow_inner(&mut self, out: &mut String, v: &Value) {
        if v.is_primitive() {
            flow_primitive(out, v);
            return;
        }
        let at = refs::address(v);
        if let Some(&[a, b, ua, ub]) = self.flows.get(&at) {
            out.push_str(&self.flow_text[a as usize..b as usize]);
            self.uses
                .extend_from_slice(&self.flow_uses[ua as usize..ub as usize]);
            return;
        }
        let (start, used) = (out.len(), self.uses.len());
        self.flow_container(out, v);
        let text = &out[start..];
        let kept = self.flow_text.len() + text.len();
        if text.len() >= FLOW_KEEP_MIN && kept <= FLOW_KEPT && Writer::keeps_flows() {
            let a = self.flow_text.len() as u32;
            let ua = self.flow_uses.len() as u32;
            self.flow_text.push_str(text);
            self.flow_uses.extend_from_slice(&self.uses[used..]);
            let entry = [a, kept as u32, ua, self.flow_uses.len() as u32];
            self.flows.insert(at, entry);
        }
    }

    /// The flow value of a container, written out.
    fn flow_container(&mut self, out: &mut String, v: &Value) {
        match v {
            Value::Object(m) => {
                out.push('{');
                for (i, (k, child)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_key_str(out, k);
                    out.push(':');
                    self.flow(out, child);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, child) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    self.flow(out, child);
                }
                out.push(']');
            }
            v => flow_primitive(out, v),
        }
    }

    fn flow(&mut self, out: &mut String, v: &Value) {
        match self.refs.of(v) {
            Some(id) => self.use_ref(out, id, Context::Flow),
            None => self.flow_inner(out, v),
        }
    }
}

pub(super) use crate::value::same;

thread_local! {
    /// The byte buffer the TOON writers fill before their text is appended.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Appends what `write` writes (the TOON writers' bytes, always UTF-8: the
/// bytes of a `&str` and ASCII escapes), through one reused buffer.
fn append(out: &mut String, write: impl FnOnce(&mut Vec<u8>)) {
    SCRATCH.with(|cell| {
        let mut b = cell.borrow_mut();
        b.clear();
        write(&mut b);
        match std::str::from_utf8(&b) {
            Ok(text) => out.push_str(text),
            Err(_) => out.push_str(&String::from_utf8_lossy(&b)),
        }
    });
}

/// A key: bare when it matches [`KEY_PATTERN`](super::KEY_PATTERN), else
/// quoted as TOON quotes it.
fn write_key_str(out: &mut String, key: &str) {
    if super::is_bare_key(key) {
        out.push_str(key);
    } else {
        append(out, |b| write_key(b, key));
    }
}

/// `s` as [`Quote`] says: as it is, in quotes, or in quotes with escapes.
fn push_string(out: &mut String, s: &str, quote: Quote) {
    match quote {
        Quote::Bare => out.push_str(s),
        Quote::Quoted => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        Quote::Escaped => append(out, |b| write_quoted(b, s)),
    }
}

/// A primitive inside a flow value: bare where §5 allows it.
fn flow_primitive(out: &mut String, v: &Value) {
    match v {
        Value::String(s) if is_bare_flow(s) => out.push_str(s),
        Value::String(s) => {
            append(out, |b| write_quoted(b, s));
        }
        Value::Number(n) => push_number(out, n),
        v => literal(out, v),
    }
}

/// A number's canonical text, in the short form of §6 when it has one: a
/// leading `0.` loses its `0` (`.5`, `-.25`), which saves a token wherever
/// the point then joins the punctuation before it (`,.` `: .`).
#[inline]
pub(super) fn push_number(out: &mut String, n: &Number) {
    let start = out.len();
    n.push_to(out);
    let sign = usize::from(out.as_bytes()[start] == b'-');
    if out.as_bytes()[start + sign..].starts_with(b"0.") {
        out.remove(start + sign);
    }
}

/// Whether `s` would read as a number in the short form of §6 if it were
/// bare, and so must be quoted in the notation.
fn spells_short_fraction(s: &str) -> bool {
    s.starts_with('.') && short_fraction(s.as_bytes()).is_some()
}

/// `true`, `false` or `null`.
fn literal(out: &mut String, v: &Value) {
    match v {
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Null => out.push_str("null"),
        _ => debug_assert!(false, "not a literal"),
    }
}

/// Whether a string may stand bare in a flow value (`docs/notation.md` §5),
/// with the writer's extra caution: nothing TOON would read as a number,
/// no leading `-` or `#`, no backslash.
pub(super) fn is_bare_flow(s: &str) -> bool {
    let b = s.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    if first == b' ' || last == b' ' || matches!(first, b'*' | b'&' | b'~' | b'-' | b'#' | b'+') {
        return false;
    }
    if b.iter().any(|&c| {
        c < 0x20 || c == 0x7f || matches!(c, b',' | b'[' | b']' | b'{' | b'}' | b'"' | b'\\')
    }) {
        return false;
    }
    if matches!(s, "true" | "false" | "null") {
        return false;
    }
    !(first.is_ascii_digit() && numeric_like(b) || spells_short_fraction(s))
}
