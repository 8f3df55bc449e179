//! Rows to a key-hoisted table: the column census, each column's codec
//! (primitives, JSON text, list cells, nested groups), absent cells.
use super::super::{Census, Shape};
use super::{Encoding, HoistedRows, Style, write_list};
use crate::{Map, Result, Value};

/// How the compact form writes a column.
enum Codec<'a> {
    /// Primitives as they are.
    Plain,
    /// JSON text.
    Json,
    /// Space-separated lists.
    List,
    /// Objects of one shape, for TOON's nested field groups.
    Group(Shape<'a>),
}

/// What one pass over a column's present cells learns.
struct Column<'a> {
    primitives: bool,
    lists: bool,
    /// The shape of the first object cell, while every cell has it.
    shape: Option<Shape<'a>>,
    shaped: bool,
    present: usize,
    /// Approximate bytes of the cells as JSON text and as a group's leaves.
    json_bytes: usize,
    group_bytes: usize,
}

pub(super) fn hoist(rows: &[Value], style: Style, max_depth: usize) -> Result<HoistedRows> {
    let census = Census::of_objects(rows)?;
    let ncols = census.columns.len();
    let slot = census.slots();
    let find = |j: usize, k: &str| census.column(&slot, j, k);

    // One pass over the cells decides each column's codec.
    let mut stats: Vec<Column> = (0..ncols)
        .map(|_| Column {
            primitives: true,
            lists: true,
            shape: None,
            shaped: true,
            present: 0,
            json_bytes: 0,
            group_bytes: 0,
        })
        .collect();
    let mut scratch = Vec::new();
    for row in rows {
        let Value::Object(m) = row else { continue };
        for (j, (k, v)) in m.iter().enumerate() {
            let c = &mut stats[find(j, k)];
            c.present += 1;
            c.primitives &= v.is_primitive();
            c.lists &= matches!(v, Value::Array(a) if a.iter().all(Value::is_primitive));
            if style == Style::Compact && c.shaped {
                match v {
                    Value::Object(o) => {
                        if c.shape.is_none() {
                            c.shape = Shape::of(o, true, max_depth.saturating_sub(3));
                            c.shaped = c.shape.is_some();
                        } else if let Some(shape) = &c.shape {
                            c.shaped = shape.matches(o);
                        }
                        if c.shaped {
                            scratch.clear();
                            crate::json::write_into(v, &mut scratch);
                            let quotes =
                                scratch.iter().filter(|&&b| b == b'"' || b == b'\\').count();
                            c.json_bytes += scratch.len() + quotes + 3;
                            c.group_bytes += leaf_bytes(o, &mut scratch);
                        }
                    }
                    _ => c.shaped = false,
                }
            }
        }
    }
    let codecs: Vec<Codec> = stats
        .into_iter()
        .map(|c| {
            if c.primitives {
                Codec::Plain
            } else if style == Style::Seed {
                Codec::Json
            } else if c.lists {
                Codec::List
            } else if let (true, Some(shape)) = (c.shaped, c.shape) {
                let missing = rows.len() - c.present;
                let group = c.group_bytes + missing * shape.leaves() * 5;
                let json = c.json_bytes + missing * 5;
                if group <= json {
                    Codec::Group(shape)
                } else {
                    Codec::Json
                }
            } else {
                Codec::Json
            }
        })
        .collect();

    let columns: Vec<String> = census.columns.iter().map(|c| (*c).to_owned()).collect();
    let mut encoding = Encoding {
        style,
        ..Encoding::default()
    };
    for (name, codec) in columns.iter().zip(&codecs) {
        match codec {
            Codec::Json => encoding.json_columns.push(name.clone()),
            Codec::List => encoding.list_columns.push(name.clone()),
            Codec::Plain | Codec::Group(_) => {}
        }
    }
    let mut out = Vec::with_capacity(rows.len());
    let mut cells: Vec<Option<&Value>> = vec![None; ncols];
    for (i, row) in rows.iter().enumerate() {
        let Value::Object(m) = row else { continue };
        cells.iter_mut().for_each(|c| *c = None);
        for (j, (k, v)) in m.iter().enumerate() {
            cells[find(j, k)] = Some(v);
        }
        let mut o = Map::with_capacity(ncols);
        for (j, (name, codec)) in columns.iter().zip(&codecs).enumerate() {
            let cell = match (cells[j], codec) {
                (None, Codec::Group(shape)) => {
                    encoding.absent.push((i, name.clone()));
                    shape.skeleton()
                }
                (None, _) => {
                    encoding.absent.push((i, name.clone()));
                    Value::Null
                }
                (Some(v), Codec::Json) => Value::String(crate::json::stringify(v)),
                (Some(Value::Array(items)), Codec::List) => {
                    let mut s = String::new();
                    write_list(items, &mut s);
                    Value::String(s)
                }
                (Some(v), _) => v.clone(),
            };
            o.push_unique(name.clone(), cell);
        }
        out.push(Value::Object(o));
    }
    if style == Style::Compact {
        // Grouped by column, in column order.
        encoding
            .absent
            .sort_by_key(|(_, c)| slot.get(c.as_str()).copied().unwrap_or(0));
    }
    Ok(HoistedRows {
        columns,
        rows: out,
        encoding,
    })
}

/// Approximate bytes the leaves of `o` take as table cells.
fn leaf_bytes(o: &Map, scratch: &mut Vec<u8>) -> usize {
    o.values()
        .map(|v| match v {
            Value::Object(inner) => leaf_bytes(inner, scratch),
            Value::String(s) => s.len() + 1,
            v => {
                scratch.clear();
                crate::json::write_into(v, scratch);
                scratch.len() + 1
            }
        })
        .sum()
}
