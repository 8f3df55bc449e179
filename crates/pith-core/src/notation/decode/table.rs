//! Arrays under a header (`docs/notation.md` §2–§4, §9): the bracket
//! segment, inline arrays, tables and keyed tables with their field lists
//! (columns, `?`, groups, derived columns), and the cells of their rows.

use super::{Cell, Members, Parser, R, fault, scalar, show_byte};
use crate::toon::decode::Fault;
use crate::toon::decode::object::{KeyIndex, Keys, SMALL};
use crate::toon::decode::show;
use crate::{ErrorKind, Key, Map, Value};

/// A declared length `[N]`, where its digits are, and the digits as
/// written (errors name the length as declared, even one past `usize`).
#[derive(Clone, Copy)]
pub(super) struct Count<'a> {
    /// The length (saturating: a length no input can hold stays unmatched).
    pub(super) length: usize,
    pub(super) at: usize,
    pub(super) written: &'a str,
}

impl Count<'_> {
    pub(super) fn mismatch(self, one: &str, many: &str, found: usize) -> Fault {
        fault(
            ErrorKind::CountMismatch,
            self.at,
            format!(
                "expected {} {} as the header declares, found {found}",
                self.written,
                if self.length == 1 { one } else { many }
            ),
        )
    }

    pub(super) fn surplus(self, at: usize, one: &str, many: &str) -> Fault {
        fault(
            ErrorKind::CountMismatch,
            at,
            format!(
                "expected {} {} as the header declares, found more",
                self.written,
                if self.length == 1 { one } else { many }
            ),
        )
    }
}

/// Where a header stands.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// The root of the body: `[N]…` (a table's rows at indentation 0).
    Root,
    /// After a key.
    Field,
    /// Right after `- `: no field list, no keyed marker.
    Item,
}

/// A bracket segment `[N]`, `[N|]`, `[N:]`, `[N:|]`, …
struct Bracket<'a> {
    count: Count<'a>,
    delim: u8,
    keyed: bool,
    /// Offset just past the `]`.
    end: usize,
}

/// A parsed field list.
pub(super) struct Header {
    list: FieldList,
    /// Cells per row.
    cells: usize,
    /// For each cell, how many groups hold it and what it holds.
    nest: Nest,
}

/// The cells of a header, in row order, and the fields of its record lists.
#[derive(Default)]
struct Nest {
    slots: Vec<Slot>,
    records: Vec<Vec<RecordField>>,
}

/// One cell of a row, as the header declares it.
#[derive(Clone, Copy)]
pub(super) struct Slot {
    /// How many groups hold it.
    depth: usize,
    shape: Shape,
}

/// What one cell holds, as its column declares.
#[derive(Clone, Copy)]
enum Shape {
    /// A cell of §4.
    Plain,
    /// A list column (`name[]`): items separated by spaces.
    List,
    /// A record list (`name[]{…}`): records `[…]`, their fields those of
    /// `Nest::records` at this index.
    Records(usize),
}

/// A field of a record list's records: its key, and whether a record may
/// lack it.
pub(super) struct RecordField {
    pub(super) name: String,
    pub(super) optional: bool,
}

/// The fields of one level of a header.
struct FieldList {
    fields: Vec<Field>,
    /// Some field is a template.
    templates: bool,
    /// The first field that takes cells is a group.
    lead_group: bool,
}

struct Field {
    name: String,
    kind: Kind,
}

enum Kind {
    /// Takes the cell at this index.
    Leaf { optional: bool, cell: usize },
    /// A nested field group over the cells `first..first + count`.
    Group {
        optional: bool,
        list: FieldList,
        first: usize,
        count: usize,
    },
    /// A derived constant.
    Constant(Value),
    /// A derived template.
    Template(Vec<Piece>),
}

enum Piece {
    Text(String),
    /// A sibling field: its name as written, where, and its index once resolved.
    Field {
        name: String,
        at: usize,
        index: usize,
    },
}

impl Keys for [Field] {
    fn key(&self, i: usize) -> &str {
        &self[i].name
    }
}

impl<'a> Parser<'a> {
    /// The array (or keyed object) a header opens; the header's `[` is at
    /// `b`, its line stands at depth `d` (a list item's first field at the
    /// hyphen's depth + 1), and the value is at nesting level `level`.
    pub(super) fn header_value(
        &mut self,
        b: usize,
        e: usize,
        d: usize,
        level: usize,
        place: Place,
    ) -> R<Value> {
        let src = self.src;
        let br = self.bracket(b, e)?;
        self.level(level, b)?;
        let p = br.end;
        match src.get(p).filter(|_| p < e) {
            Some(b'{') => {
                if place == Place::Item {
                    return Err(fault(
                        ErrorKind::Structure,
                        b,
                        "expected '[N]:' after '- ', found a header with a field list: a table \
                         without a key stands only at the root",
                    ));
                }
                self.level(level + 1, p)?;
                let mut nest = Nest::default();
                let (list, after) = self.field_list(p, e, br.delim, level + 1, 0, &mut nest)?;
                if nest.slots.is_empty() {
                    return Err(fault(
                        ErrorKind::Header,
                        p,
                        "expected a field list with at least one field that takes a cell, found \
                         only derived columns (a row is never empty)",
                    ));
                }
                match src.get(after).filter(|_| after < e) {
                    Some(b':') if after + 1 == e => {}
                    Some(b':') => {
                        return Err(fault(
                            ErrorKind::Header,
                            after + 1,
                            format!(
                                "expected nothing after the colon of a header with a field list, found {}",
                                self.tok.snippet(after + 1, e)
                            ),
                        ));
                    }
                    found => {
                        return Err(fault(
                            ErrorKind::Header,
                            after,
                            format!(
                                "expected ':' right after the field list, found {}",
                                found.map_or("the end of the line".to_owned(), |&c| show_byte(c))
                            ),
                        ));
                    }
                }
                let header = Header {
                    list,
                    cells: nest.slots.len(),
                    nest,
                };
                if br.keyed {
                    self.keyed_table(&header, br.count, br.delim, d, level)
                } else {
                    self.table(&header, br.count, br.delim, d, level, place)
                }
            }
            Some(b':') => {
                if br.keyed {
                    return Err(fault(
                        ErrorKind::Header,
                        p,
                        "expected a field list '{…}' after a keyed bracket segment '[N:]'",
                    ));
                }
                if p + 1 == e {
                    return self.list(br.count, d, level);
                }
                let a = self.after_colon(p, e, "the array's values")?;
                self.inline(a, e, br.count, br.delim, level)
            }
            found => Err(fault(
                ErrorKind::Header,
                p,
                format!(
                    "expected '{{' or ':' right after the bracket segment, found {}",
                    found.map_or("the end of the line".to_owned(), |&c| show_byte(c))
                ),
            )),
        }
    }

    /// The bracket segment whose `[` is at `b`.
    fn bracket(&self, b: usize, e: usize) -> R<Bracket<'a>> {
        let src = self.src;
        let lo = b + 1;
        let mut q = lo;
        while q < e && src[q].is_ascii_digit() {
            q += 1;
        }
        if q == lo || (q - lo > 1 && src[lo] == b'0') {
            return Err(fault(
                ErrorKind::Header,
                lo,
                if q == lo {
                    "expected a length in the bracket segment".to_owned()
                } else {
                    format!(
                        "expected a length without leading zeros in the bracket segment, found {}",
                        self.tok.snippet(lo, q)
                    )
                },
            ));
        }
        let length = src[lo..q].iter().fold(0usize, |n, &c| {
            n.saturating_mul(10).saturating_add(usize::from(c - b'0'))
        });
        let written = self.tok.s(lo, q);
        let keyed = q < e && src[q] == b':';
        if keyed {
            q += 1;
        }
        let mut delim = b',';
        if q < e && matches!(src[q], b'\t' | b'|') {
            delim = src[q];
            q += 1;
        }
        if q >= e || src[q] != b']' {
            let found = if q >= e {
                "the end of the line".to_owned()
            } else {
                show_byte(src[q])
            };
            let hint = if q < e && src[q] == b':' {
                " (a keyed marker comes before the delimiter: '[N:|]')"
            } else {
                ""
            };
            return Err(fault(
                ErrorKind::Header,
                q,
                format!("expected ']' to close the bracket segment, found {found}{hint}"),
            ));
        }
        Ok(Bracket {
            count: Count {
                length,
                at: lo,
                written,
            },
            delim,
            keyed,
            end: q + 1,
        })
    }

    /// The field list whose `{` is at `open`: fields of an object at level
    /// `level`, held by `depth` groups; every leaf's group depth is pushed
    /// onto `nest`. Returns the list and the offset after its `}`.
    fn field_list(
        &mut self,
        open: usize,
        e: usize,
        delim: u8,
        level: usize,
        depth: usize,
        nest: &mut Nest,
    ) -> R<(FieldList, usize)> {
        let src = self.src;
        let mut p = open + 1;
        if src.get(p) == Some(&b'}') && p < e {
            return Err(fault(
                ErrorKind::Header,
                p,
                "expected a field name, found an empty field list '{}'",
            ));
        }
        let mut fields: Vec<Field> = Vec::new();
        let mut index: Option<KeyIndex> = None;
        let mut templates = false;
        let end = loop {
            let at = p;
            let (name, optional, mut q) = self.field_head(p, e)?;
            let list = src[q.min(e)..e].starts_with(b"[]");
            let mut shape = Shape::Plain;
            if list {
                q += 2;
                shape = Shape::List;
                match src.get(q).filter(|_| q < e) {
                    Some(b'{') => {
                        // A record list: an array of objects at `level + 1`,
                        // each at `level + 2`.
                        self.level(level + 2, q)?;
                        let (fields, after) = self.record_fields(q, e, delim)?;
                        nest.records.push(fields);
                        shape = Shape::Records(nest.records.len() - 1);
                        q = after;
                    }
                    Some(b'=') => {
                        return Err(fault(
                            ErrorKind::Header,
                            q,
                            "expected a delimiter or '}' after a list column's '[]', found a \
                             derived value",
                        ));
                    }
                    _ => {}
                }
            }
            let kind = match src
                .get(q)
                .filter(|_| q < e && matches!(shape, Shape::Plain))
            {
                Some(b'{') => {
                    self.level(level + 1, q)?;
                    let first = nest.slots.len();
                    let (list, after) = self.field_list(q, e, delim, level + 1, depth + 1, nest)?;
                    let count = nest.slots.len() - first;
                    if count == 0 {
                        return Err(fault(
                            ErrorKind::Header,
                            q,
                            "expected a field group with at least one field that takes a cell, \
                             found only derived columns",
                        ));
                    }
                    q = after;
                    Kind::Group {
                        optional,
                        list,
                        first,
                        count,
                    }
                }
                Some(b'=') => {
                    if optional {
                        return Err(fault(
                            ErrorKind::Header,
                            q - 1,
                            format!(
                                "expected a derived column without '?', found {}?=: a derived \
                                 column is in every row",
                                show(&name)
                            ),
                        ));
                    }
                    let (kind, after) = self.derived(q + 1, e, delim, level)?;
                    templates |= matches!(kind, Kind::Template(_));
                    q = after;
                    kind
                }
                _ => {
                    nest.slots.push(Slot { depth, shape });
                    Kind::Leaf {
                        optional,
                        cell: nest.slots.len() - 1,
                    }
                }
            };
            let seen = match &index {
                Some(ix) => ix.find(fields.as_slice(), &name),
                None => fields.iter().position(|f| f.name == name),
            };
            if seen.is_some() {
                return Err(fault(
                    ErrorKind::DuplicateKey,
                    at,
                    format!(
                        "expected distinct field names, found {} twice in one field list",
                        show(&name)
                    ),
                ));
            }
            fields.push(Field { name, kind });
            let n = fields.len();
            match &mut index {
                Some(ix) => ix.insert(fields.as_slice(), n - 1),
                None if n > SMALL => index = Some(KeyIndex::build(fields.as_slice(), n)),
                None => {}
            }
            match src.get(q).filter(|_| q < e) {
                Some(&c) if c == delim => p = q + 1,
                Some(b'}') => break q + 1,
                found => {
                    return Err(fault(
                        ErrorKind::Header,
                        q,
                        format!(
                            "expected {} or '}}' after the field {}, found {}",
                            delim_name(delim),
                            show(&fields[n - 1].name),
                            found.map_or("the end of the line".to_owned(), |&c| show_byte(c))
                        ),
                    ));
                }
            }
        };
        if templates {
            resolve(&mut fields, index.as_ref())?;
        }
        let lead_group = fields
            .iter()
            .find(|f| matches!(f.kind, Kind::Leaf { .. } | Kind::Group { .. }))
            .is_some_and(|f| matches!(f.kind, Kind::Group { .. }));
        let list = FieldList {
            fields,
            templates,
            lead_group,
        };
        Ok((list, end))
    }

    /// The fields of a record list, `{a,b?,…}` opening at `open`: keys,
    /// each optionally `?`, nothing else. Returns them and the offset after
    /// the `}`.
    fn record_fields(&self, open: usize, e: usize, delim: u8) -> R<(Vec<RecordField>, usize)> {
        let src = self.src;
        let mut fields: Vec<RecordField> = Vec::new();
        let mut p = open + 1;
        loop {
            if p < e && src[p] == b'}' {
                return Err(fault(
                    ErrorKind::Header,
                    p,
                    "expected a field name, found '}': a record list has at least one field",
                ));
            }
            let at = p;
            let (name, optional, q) = self.field_head(p, e)?;
            if fields.iter().any(|f| f.name == name) {
                return Err(fault(
                    ErrorKind::DuplicateKey,
                    at,
                    format!(
                        "expected distinct field names, found {} twice in one record list",
                        show(&name)
                    ),
                ));
            }
            fields.push(RecordField { name, optional });
            match src.get(q).filter(|_| q < e) {
                Some(&c) if c == delim => p = q + 1,
                Some(b'}') => return Ok((fields, q + 1)),
                found => {
                    return Err(fault(
                        ErrorKind::Header,
                        q,
                        format!(
                            "expected {} or '}}' after the field {} of a record list (its fields \
                             are keys, each optionally '?'), found {}",
                            delim_name(delim),
                            show(&fields[fields.len() - 1].name),
                            found.map_or("the end of the line".to_owned(), |&c| show_byte(c))
                        ),
                    ));
                }
            }
        }
    }

    /// A field's name at `p` and whether it is marked `?`; returns them and
    /// the offset after them.
    fn field_head(&self, p: usize, e: usize) -> R<(String, bool, usize)> {
        if p >= e {
            return Err(fault(
                ErrorKind::Header,
                p,
                "expected a field name, found the end of the line",
            ));
        }
        let (name, q) = self.field_name(p, e)?;
        let optional = q < e && self.src[q] == b'?';
        Ok((name, optional, q + usize::from(optional)))
    }

    /// A field name at `p` (an identifier or a quoted key) and the offset after it.
    fn field_name(&self, p: usize, e: usize) -> R<(String, usize)> {
        let src = self.src;
        if src[p] == b'"' {
            return self.tok.quoted(p, e);
        }
        let end = super::identifier_end(src, p, e);
        if end == p {
            return Err(fault(
                ErrorKind::Header,
                p,
                format!(
                    "expected a field name (`{}` or a quoted string), found {}",
                    crate::notation::KEY_PATTERN,
                    show_byte(src[p])
                ),
            ));
        }
        Ok((self.tok.s(p, end).to_owned(), end))
    }

    /// The value of a derived column after its `=` at `p - 1`, for an
    /// object at level `level`: a constant or a template.
    fn derived(&mut self, p: usize, e: usize, delim: u8, level: usize) -> R<(Kind, usize)> {
        let src = self.src;
        let b = match src.get(p).filter(|_| p < e) {
            Some(&b) if b != delim && b != b'}' => b,
            _ => {
                return Err(fault(
                    ErrorKind::Header,
                    p,
                    "expected a constant or a template after '=', found nothing",
                ));
            }
        };
        match b {
            b'`' => {
                let (pieces, after) = self.template(p + 1, e)?;
                Ok((Kind::Template(pieces), after))
            }
            b'[' | b'{' => {
                let (v, after) = self.flow(p, e, level, false)?;
                Ok((Kind::Constant(v), after))
            }
            b'"' => {
                let (s, after) = self.tok.quoted(p, e)?;
                Ok((Kind::Constant(Value::String(s)), after))
            }
            b'*' => Err(fault(
                ErrorKind::Header,
                p,
                "expected a constant without references, found '*': a derived column's value is \
                 written out",
            )),
            b' ' => Err(fault(
                ErrorKind::Header,
                p,
                "expected a value right after '=', found a space",
            )),
            _ => {
                let q = self.bare_end(
                    p,
                    e,
                    |b| b == delim || b == b'}',
                    |b| matches!(b, b'"' | b'[' | b']' | b'{'),
                    (ErrorKind::Header, "a bare constant", "the delimiter or '}'"),
                )?;
                if let Some(why) = self.needs_quotes(p, q) {
                    return Err(fault(
                        ErrorKind::Header,
                        p,
                        format!(
                            "expected a constant, found {} {why}",
                            self.tok.snippet(p, q)
                        ),
                    ));
                }
                Ok((Kind::Constant(scalar(&self.tok, p, q)?), q))
            }
        }
    }

    /// The template whose text starts at `p` (after its opening backtick):
    /// its pieces (fields by name, resolved later) and the offset after the
    /// closing backtick.
    fn template(&self, p: usize, e: usize) -> R<(Vec<Piece>, usize)> {
        let src = self.src;
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut run = p;
        let mut q = p;
        loop {
            if q >= e {
                return Err(fault(
                    ErrorKind::Header,
                    p - 1,
                    "expected '`' to close the template, found the end of the line",
                ));
            }
            match src[q] {
                b'`' => {
                    text.push_str(self.tok.s(run, q));
                    if !text.is_empty() {
                        pieces.push(Piece::Text(text));
                    }
                    return Ok((pieces, q + 1));
                }
                b'\\' => {
                    text.push_str(self.tok.s(run, q));
                    match src.get(q + 1).filter(|_| q + 1 < e) {
                        Some(&c @ (b'`' | b'\\' | b'$')) => text.push(c as char),
                        found => {
                            return Err(fault(
                                ErrorKind::InvalidEscape,
                                q,
                                format!(
                                    "expected one of the escapes \\` \\\\ \\$ in a template, found {}",
                                    found.map_or("the end of the line".to_owned(), |&c| format!(
                                        "\\ then {}",
                                        show_byte(c)
                                    ))
                                ),
                            ));
                        }
                    }
                    q += 2;
                    run = q;
                }
                b'$' => {
                    text.push_str(self.tok.s(run, q));
                    if src.get(q + 1) != Some(&b'{') || q + 1 >= e {
                        return Err(fault(
                            ErrorKind::Header,
                            q,
                            "expected '${' to open a field in a template (a dollar sign is written '\\$')",
                        ));
                    }
                    let name_at = q + 2;
                    let Some(close) = src[name_at..e]
                        .iter()
                        .position(|&c| c == b'}')
                        .map(|n| name_at + n)
                    else {
                        return Err(fault(
                            ErrorKind::Header,
                            q,
                            "expected '}' to close the field of the template, found the end of the line",
                        ));
                    };
                    if close == name_at {
                        return Err(fault(
                            ErrorKind::Header,
                            name_at,
                            "expected a field name between '${' and '}', found none",
                        ));
                    }
                    if !text.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut text)));
                    }
                    pieces.push(Piece::Field {
                        name: self.tok.s(name_at, close).to_owned(),
                        at: name_at,
                        index: usize::MAX,
                    });
                    q = close + 1;
                    run = q;
                }
                _ => q += 1,
            }
        }
    }

    /// Values on the header line (an inline array) at level `level`.
    fn inline(
        &mut self,
        a: usize,
        e: usize,
        count: Count<'_>,
        delim: u8,
        level: usize,
    ) -> R<Value> {
        // Bounded by what the line can hold, whatever the header declares.
        let mut items = Vec::with_capacity(count.length.min(e - a + 1));
        let mut i = a;
        loop {
            if self.strict && items.len() == count.length {
                return Err(count.surplus(i, "value", "values"));
            }
            let (cell, end) = self.cell(i, e, delim, level)?;
            match cell {
                Cell::Value(v) => items.push(v),
                Cell::Empty => {
                    return Err(fault(
                        ErrorKind::Structure,
                        i,
                        "expected a value, found an empty cell: an inline array has no empty \
                         values (the empty string is written \"\")",
                    ));
                }
                Cell::Null => return Err(null_out_of_group(i)),
            }
            if end >= e {
                break;
            }
            i = end + 1;
        }
        if self.strict && items.len() != count.length {
            return Err(count.mismatch("value", "values", items.len()));
        }
        Ok(Value::Array(items))
    }

    /// One cell (§4) starting at `i`, in a row ending at `e`, as a member of
    /// a container at level `parent`; returns it and the offset of the
    /// delimiter that ends it (or `e`).
    fn cell(&mut self, i: usize, e: usize, delim: u8, parent: usize) -> R<(Cell, usize)> {
        let src = self.src;
        if i >= e || src[i] == delim {
            return Ok((Cell::Empty, i));
        }
        let (cell, end) = match src[i] {
            b' ' => {
                return Err(fault(
                    ErrorKind::Syntax,
                    i,
                    "expected a cell right after the delimiter, found a space (cells have no \
                     spaces around them)",
                ));
            }
            b'"' => {
                let (s, after) = self.tok.quoted(i, e)?;
                (Cell::Value(Value::String(s)), after)
            }
            b'[' | b'{' => {
                let (v, after) = self.flow(i, e, parent, true)?;
                (Cell::Value(v), after)
            }
            b'*' => {
                let (v, after) = self.reference(i, e, parent)?;
                (Cell::Value(v), after)
            }
            b'&' => {
                let (v, after) = self.anchor(i, e, |p, v| match p.cell(v, e, delim, parent)? {
                    (Cell::Value(value), after) => Ok((value, after)),
                    _ => Err(fault(
                        ErrorKind::Syntax,
                        v,
                        "expected a primitive after an anchor's name, found an empty or `~` cell",
                    )),
                })?;
                (Cell::Value(v), after)
            }
            b'~' if i + 1 == e || src[i + 1] == delim => (Cell::Null, i + 1),
            _ => {
                let q = self.bare_end(
                    i,
                    e,
                    |b| b == delim,
                    |b| matches!(b, b'"' | b'[' | b']' | b'{' | b'}'),
                    (
                        ErrorKind::Syntax,
                        "a bare cell",
                        "the delimiter or the end of the row",
                    ),
                )?;
                return Ok((Cell::Value(self.primitive(i, q)?), q));
            }
        };
        if end < e && src[end] != delim {
            return Err(fault(
                ErrorKind::Syntax,
                end,
                format!(
                    "expected {} or the end of the row after the cell, found {}",
                    delim_name(delim),
                    show_byte(src[end])
                ),
            ));
        }
        Ok((cell, end))
    }

    /// The rows of a table: the next `N` lines at depth `d + 1` (at
    /// indentation 0 for a root table and for a table member of the root
    /// object), as objects at level `level + 1`.
    fn table(
        &mut self,
        h: &Header,
        count: Count<'_>,
        delim: u8,
        d: usize,
        level: usize,
        place: Place,
    ) -> R<Value> {
        let tab_rows = std::mem::replace(&mut self.lines.tab_rows, delim == b'\t');
        let rows = self.rows(h, count, delim, d, level, place);
        self.lines.tab_rows = tab_rows;
        rows
    }

    fn rows(
        &mut self,
        h: &Header,
        count: Count<'_>,
        delim: u8,
        d: usize,
        level: usize,
        place: Place,
    ) -> R<Value> {
        // A root table's rows stand at indentation 0, and so do those of a
        // table member of the root object (`d == 0`), which end after the
        // header's count of rows, where the object's next member may
        // follow. Every other table's stand one unit deeper than its header.
        let flat = place == Place::Field && d == 0;
        let root = place == Place::Root || flat;
        let row_depth = if root { 0 } else { d + 1 };
        let mut rows = Vec::new();
        loop {
            if (self.strict || flat) && rows.len() == count.length {
                break;
            }
            let Some(line) = self.lines.peek()? else {
                break;
            };
            if !root && line.depth <= d {
                break;
            }
            if line.depth != row_depth {
                if flat {
                    return Err(fault(
                        ErrorKind::Structure,
                        line.start,
                        format!(
                            "expected a row at indentation 0, found a line at depth {}: the rows \
                             of a table member of the root object stand at the header's \
                             indentation",
                            line.depth
                        ),
                    ));
                }
                return Err(self.misplaced(line, row_depth));
            }
            self.lines.advance();
            rows.push(Value::Object(self.row(
                line.start,
                line.end,
                h,
                delim,
                level + 1,
            )?));
        }
        if self.strict {
            if rows.len() != count.length {
                return Err(count.mismatch("row", "rows", rows.len()));
            }
            if let Some(next) = self.lines.peek()? {
                if flat {
                    // After a root object's table, a line that cannot be a
                    // member (it has no `:` or header) is one row too many.
                    if next.depth == 0 && self.classify(next.start, next.end) == super::Class::Value
                    {
                        return Err(count.surplus(next.start, "row", "rows"));
                    }
                } else if root || next.depth > d {
                    if next.depth == row_depth {
                        return Err(count.surplus(next.start, "row", "rows"));
                    }
                    return Err(self.misplaced(next, row_depth));
                }
            }
        }
        Ok(Value::Array(rows))
    }

    /// The entry rows `name: cells` of a keyed table at depth `d + 1`, as an
    /// object at level `level`.
    fn keyed_table(
        &mut self,
        h: &Header,
        count: Count<'_>,
        delim: u8,
        d: usize,
        level: usize,
    ) -> R<Value> {
        let mut obj = Members::new();
        let mut n = 0usize;
        loop {
            if self.strict && n == count.length {
                break;
            }
            let Some(line) = self.lines.peek()? else {
                break;
            };
            if line.depth <= d {
                break;
            }
            if line.depth != d + 1 {
                return Err(self.misplaced(line, d + 1));
            }
            self.lines.advance();
            let (s, e) = (line.start, line.end);
            let (name, k) = self.key(s, e)?;
            if k >= e || self.src[k] != b':' {
                return Err(fault(
                    ErrorKind::Syntax,
                    k,
                    format!(
                        "expected ': ' and the cells after the entry key {}, found {}",
                        show(&name),
                        if k >= e {
                            "the end of the line".to_owned()
                        } else {
                            show_byte(self.src[k])
                        }
                    ),
                ));
            }
            let a = self.after_colon(k, e, "the entry's cells")?;
            let row = self.row(a, e, h, delim, level + 1)?;
            obj.insert(name, s, Value::Object(row))?;
            n += 1;
        }
        if self.strict {
            if n != count.length {
                return Err(count.mismatch("entry", "entries", n));
            }
            if let Some(next) = self.lines.peek()?
                && next.depth > d
            {
                if next.depth == d + 1 {
                    return Err(count.surplus(next.start, "entry", "entries"));
                }
                return Err(self.misplaced(next, d + 1));
            }
        }
        Ok(Value::Object(obj.into_map()))
    }

    /// The cells `[a, e)` of one row as an object at level `level`.
    fn row(&mut self, a: usize, e: usize, h: &Header, delim: u8, level: usize) -> R<Map> {
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        let built = self
            .row_cells(a, e, h, delim, level, &mut cells)
            .and_then(|()| {
                // For each cell, the first cell from it on that is not empty:
                // a group asks whether its cells are empty in one step.
                let mut filled = std::mem::take(&mut self.filled);
                filled.clear();
                filled.resize(cells.len() + 1, cells.len());
                for i in (0..cells.len()).rev() {
                    filled[i] = if matches!(cells[i].0, Cell::Empty) {
                        filled[i + 1]
                    } else {
                        i
                    };
                }
                let mut out = Vec::with_capacity(h.list.fields.len());
                let done = build(&h.list, &mut cells, &filled, &mut out);
                self.filled = filled;
                done?;
                Ok(Map::from_unique_entries(out))
            });
        self.cells = cells;
        built
    }

    fn row_cells(
        &mut self,
        a: usize,
        e: usize,
        h: &Header,
        delim: u8,
        level: usize,
        cells: &mut Vec<(Cell, usize)>,
    ) -> R<()> {
        let mut i = a;
        loop {
            let k = cells.len();
            if k == h.cells {
                return Err(fault(
                    ErrorKind::WidthMismatch,
                    i,
                    format!(
                        "expected {} {} per row as the header declares, found more",
                        h.cells,
                        if h.cells == 1 { "cell" } else { "cells" }
                    ),
                ));
            }
            let slot = h.nest.slots[k];
            let (cell, end) = match slot.shape {
                Shape::Plain => self.cell(i, e, delim, level + slot.depth)?,
                Shape::List => self.list_cell(i, e, delim)?,
                Shape::Records(r) => {
                    self.records_cell(i, e, delim, level + slot.depth, &h.nest.records[r])?
                }
            };
            cells.push((cell, i));
            if end >= e {
                break;
            }
            i = end + 1;
        }
        if cells.len() < h.cells {
            return Err(fault(
                ErrorKind::WidthMismatch,
                e,
                format!(
                    "expected {} cells per row as the header declares, found {}",
                    h.cells,
                    cells.len()
                ),
            ));
        }
        Ok(())
    }
}

/// The members of one level of a row, in header order, taking their cells.
/// `filled[i]` is the first cell from `i` on that is not empty (or the count).
fn build(
    list: &FieldList,
    cells: &mut [(Cell, usize)],
    filled: &[usize],
    out: &mut Vec<(Key, Value)>,
) -> R<()> {
    // Where each field's value went in `out`, for the templates of this level.
    let mut slots: Vec<Option<usize>> = Vec::new();
    for f in &list.fields {
        if list.templates {
            slots.push(Some(out.len()));
        }
        match &f.kind {
            Kind::Leaf { optional, cell } => {
                let (c, at) = &mut cells[*cell];
                match std::mem::replace(c, Cell::Empty) {
                    Cell::Value(v) => out.push((Key::from(f.name.as_str()), v)),
                    Cell::Empty if *optional => {
                        if let Some(s) = slots.last_mut() {
                            *s = None;
                        }
                    }
                    Cell::Empty => {
                        return Err(fault(
                            ErrorKind::Structure,
                            *at,
                            format!(
                                "expected a value in the column {}, found an empty cell: only a \
                                 column marked '?' may be empty",
                                show(&f.name)
                            ),
                        ));
                    }
                    Cell::Null => return Err(null_out_of_group(*at)),
                }
            }
            Kind::Group {
                optional,
                list: sub,
                first,
                count,
            } => {
                let end = *first + *count;
                // The first filled cell of the group after its first one.
                let other = Some(filled[*first + 1]).filter(|&j| j < end);
                if matches!(cells[*first].0, Cell::Null) {
                    match other {
                        None => {
                            out.push((Key::from(f.name.as_str()), Value::Null));
                            continue;
                        }
                        // A group inside that starts at the same cell may be the null one.
                        Some(_) if sub.lead_group => {}
                        Some(j) => {
                            return Err(fault(
                                ErrorKind::Structure,
                                cells[j].1,
                                format!(
                                    "expected empty cells after the '~' of the null group {}, \
                                     found a value",
                                    show(&f.name)
                                ),
                            ));
                        }
                    }
                } else if *optional && other.is_none() && matches!(cells[*first].0, Cell::Empty) {
                    if let Some(s) = slots.last_mut() {
                        *s = None;
                    }
                    continue;
                }
                let mut inner = Vec::with_capacity(sub.fields.len());
                build(sub, cells, filled, &mut inner)?;
                out.push((
                    Key::from(f.name.as_str()),
                    Value::Object(Map::from_unique_entries(inner)),
                ));
            }
            Kind::Constant(v) => out.push((Key::from(f.name.as_str()), v.clone())),
            Kind::Template(_) => out.push((Key::from(f.name.as_str()), Value::Null)),
        }
    }
    if !list.templates {
        return Ok(());
    }
    for (fi, f) in list.fields.iter().enumerate() {
        let Kind::Template(pieces) = &f.kind else {
            continue;
        };
        let mut text = String::new();
        for piece in pieces {
            match piece {
                Piece::Text(t) => text.push_str(t),
                Piece::Field { name, index, .. } => {
                    let Kind::Leaf { cell, .. } = list.fields[*index].kind else {
                        continue;
                    };
                    let at = cells[cell].1;
                    match slots[*index].map(|s| &out[s].1) {
                        Some(Value::String(s)) => text.push_str(s),
                        Some(Value::Number(n)) => {
                            let mut b = Vec::new();
                            n.write_to(&mut b);
                            text.push_str(std::str::from_utf8(&b).unwrap_or_default());
                        }
                        found => {
                            return Err(fault(
                                ErrorKind::Type,
                                at,
                                format!(
                                    "expected the column {} that the template of {} names to hold \
                                     a string or a number in every row, found {}",
                                    show(name),
                                    show(&f.name),
                                    found.map_or("an empty cell", Value::type_name)
                                ),
                            ));
                        }
                    }
                }
            }
        }
        if let Some(slot) = slots[fi] {
            out[slot].1 = Value::String(text);
        }
    }
    Ok(())
}

/// Points every template field of one level at its sibling column.
fn resolve(fields: &mut [Field], index: Option<&KeyIndex>) -> R<()> {
    for i in 0..fields.len() {
        let Kind::Template(pieces) = &fields[i].kind else {
            continue;
        };
        let mut found = Vec::new();
        for piece in pieces {
            let Piece::Field { name, at, .. } = piece else {
                continue;
            };
            let sibling = match index {
                Some(ix) => ix.find(&*fields, name),
                None => fields.iter().position(|f| f.name == *name),
            };
            match sibling.map(|j| &fields[j].kind) {
                Some(Kind::Leaf { .. }) => found.push(sibling.unwrap_or_default()),
                Some(_) => {
                    return Err(fault(
                        ErrorKind::Header,
                        *at,
                        format!(
                            "expected a template field that names a sibling column taking a cell, \
                             found {}, which is a group or a derived column",
                            show(name)
                        ),
                    ));
                }
                None => {
                    return Err(fault(
                        ErrorKind::Header,
                        *at,
                        format!(
                            "expected a template field that names a sibling column of {}, found {}, \
                             which is not one",
                            show(&fields[i].name),
                            show(name)
                        ),
                    ));
                }
            }
        }
        if let Kind::Template(pieces) = &mut fields[i].kind {
            let mut found = found.into_iter();
            for piece in pieces {
                if let Piece::Field { index, .. } = piece {
                    *index = found.next().unwrap_or_default();
                }
            }
        }
    }
    Ok(())
}

fn null_out_of_group(at: usize) -> Fault {
    fault(
        ErrorKind::Structure,
        at,
        "expected a value, found '~', which stands only as the first cell of a field group (the \
         string `~` is quoted)",
    )
}

fn delim_name(d: u8) -> &'static str {
    match d {
        b'\t' => "a tab",
        b'|' => "'|'",
        _ => "','",
    }
}
