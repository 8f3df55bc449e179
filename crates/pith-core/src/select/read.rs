//! The one reader: tells the notation, JSON and TOON apart by syntax, then
//! restores the tables in the value and unwraps a wrapper.

use super::verbatim::is_wrapper;
use super::{Form, JSON_MARK, Syntax, WRAPPER_TAG, WRAPPER_VALUE};
use crate::table::columnar;
use crate::table::{self as tables, hoisted, index_path, key_path};
use crate::toon::DecodeOptions;
use crate::value::Unpacked;
use crate::{Error, ErrorKind, Map, Result, Value};

/// Reads any document [`encode`](super::encode) writes: [`parse`]s it, then [`restore`]s
/// its tables.
///
/// # Errors
///
/// Those of [`parse`] and of [`restore`].
pub fn decode(bytes: &[u8], opts: &DecodeOptions) -> Result<Value> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if crate::notation::is_document(body) {
        // The notation writes look-alikes as they are: nothing to restore.
        return crate::notation::decode(body, opts);
    }
    let (value, syntax) = parse_with_syntax(bytes, opts)?;
    match syntax {
        Syntax::Json if body.starts_with(JSON_MARK.as_bytes()) => {
            restore_marked(value, opts.max_depth, opts.strict)
        }
        Syntax::Json => Ok(value),
        _ => restore_with(value, opts.max_depth, opts.strict),
    }
}

/// Reads JSON text as [`decode`] reads it: as it is, unless it starts with
/// [`JSON_MARK`], when it must be a wrapper and is read as one (the `table`
/// form's tables restored, strict or lenient about their metadata as
/// `opts.strict` says). As [`crate::json::parse_bytes`], it refuses a
/// byte-order mark, which JSON text does not have.
///
/// # Errors
///
/// Those of the JSON reader, with line and column; those of [`restore_with`]
/// for a marked text that is no wrapper or whose tables are malformed.
pub fn decode_json(bytes: &[u8], opts: &DecodeOptions) -> Result<Value> {
    let value = crate::json::parse_with(bytes, &json_options(opts))?;
    if bytes.starts_with(JSON_MARK.as_bytes()) {
        restore_marked(value, opts.max_depth, opts.strict)
    } else {
        Ok(value)
    }
}

/// The JSON reader's options under `opts`: its depth limit.
fn json_options(opts: &DecodeOptions) -> crate::json::ParseOptions {
    crate::json::ParseOptions {
        max_depth: crate::depth_limit(opts.max_depth),
    }
}

/// Restores the value of a JSON text that starts with [`JSON_MARK`]: it must
/// be a wrapper; the `table` form's has its columnar tables restored, any
/// other form's value is returned as it is.
fn restore_marked(value: Value, max_depth: usize, strict: bool) -> Result<Value> {
    let table = match &value {
        Value::Object(m) if is_wrapper(m) => {
            m.get(WRAPPER_TAG).and_then(Value::as_str) == Some(Form::Table.name())
        }
        other => {
            // The mark opens the text: line 1, column 1.
            return Err(Error::at(
                ErrorKind::Type,
                crate::error::Position::at(b"", 0),
                format!(
                    "expected a wrapper after `{JSON_MARK}`: an object with exactly the keys `{WRAPPER_TAG}` and `{WRAPPER_VALUE}`, found {}",
                    tables::describe(other)
                ),
            ));
        }
    };
    if !table {
        return restore_with(value, max_depth, strict);
    }
    match value.into_object() {
        Ok(mut m) => {
            let inner = m.remove(WRAPPER_VALUE).unwrap_or(Value::Null);
            restore_tree(inner, "", 0, crate::depth_limit(max_depth), strict)
        }
        Err(v) => Ok(v),
    }
}

/// Reads JSON or TOON, told apart by syntax, restoring nothing.
///
/// One leading byte-order mark is removed (a second one is content). The
/// text is taken as JSON when it starts like JSON and parses as JSON; the
/// only TOON documents that are also JSON texts (a root `[]`, a number,
/// `true`, `false`, `null` or a quoted string) mean the same value in both.
/// Text that starts with `{` or `[` and is no JSON is refused with the JSON
/// error, unless it starts with a TOON root header (`[3]: …`, `[2]{a,b}:`):
/// pith quotes every string that starts with a bracket, so no text it
/// writes is a bare string such as `[1,2,3`.
///
/// # Errors
///
/// Those of the JSON or the TOON reader, with line and column: the JSON
/// error for text that starts with `{`, or with `[` and no TOON root
/// header; the TOON error otherwise.
pub fn parse(bytes: &[u8], opts: &DecodeOptions) -> Result<Value> {
    parse_with_syntax(bytes, opts).map(|(v, _)| v)
}

/// [`parse`], telling which syntax the text was read as.
fn parse_with_syntax(bytes: &[u8], opts: &DecodeOptions) -> Result<(Value, Syntax)> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = body
        .iter()
        .copied()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
    let json_like = matches!(
        first,
        Some(b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n')
    );
    let toon = || crate::toon::decode_bytes(bytes, opts).map(|v| (v, Syntax::Toon));
    if !json_like {
        return toon();
    }
    match crate::json::parse_with(body, &json_options(opts)) {
        Ok(v) => Ok((v, Syntax::Json)),
        // `{` opens no TOON document, so the JSON error is the one to show.
        Err(e) if first == Some(b'{') => Err(e),
        Err(e) if first == Some(b'[') => {
            let header = std::str::from_utf8(body)
                .is_ok_and(|text| crate::toon::opens_with_root_header(text, opts));
            if header { toon() } else { Err(e) }
        }
        Err(_) => toon(),
    }
}

/// Restores the tables of a decoded value: unwraps a wrapper, or restores
/// every hoisted pair and columnar object (see the module docs). Strict:
/// see [`restore_with`].
///
/// # Errors
///
/// [`ErrorKind::Type`] or [`ErrorKind::Syntax`] for a malformed table or
/// wrapper, naming its JSON path; [`ErrorKind::DepthLimit`] when restored
/// JSON cells nest beyond `max_depth` (at most [`crate::MAX_DEPTH_LIMIT`]).
pub fn restore(value: Value, max_depth: usize) -> Result<Value> {
    restore_with(value, max_depth, true)
}

/// [`restore`], strict or lenient about table metadata pith never writes.
/// Strict (as [`decode`] is with `strict` options) refuses a dict-column
/// cell that is no index into its entry, an absent cell that holds a value,
/// and json, list or absent columns a table does not have. Lenient keeps
/// the seed's rules: such a dict cell is taken literally, such absent cells
/// are left out, unknown column names are ignored.
///
/// # Errors
///
/// Those of [`restore`].
pub fn restore_with(value: Value, max_depth: usize, strict: bool) -> Result<Value> {
    let max_depth = crate::depth_limit(max_depth);
    match value.unpack() {
        Unpacked::Object(mut m) if is_wrapper(&m) => {
            let inner = m.remove(WRAPPER_VALUE).unwrap_or(Value::Null);
            match m.remove(WRAPPER_TAG) {
                Some(Value::String(ref s)) if s.parse::<Form>().is_ok() => Ok(inner),
                other => Err(Error::at_path(
                    ErrorKind::Type,
                    WRAPPER_TAG,
                    format!(
                        "expected the name of a form in the wrapper, found {}",
                        other.map_or_else(|| "nothing".to_owned(), |v| tables::describe(&v))
                    ),
                )),
            }
        }
        value => restore_tree(value.into(), "", 0, max_depth, strict),
    }
}

/// What a member of an object is to the restorer.
#[derive(Default)]
enum Role {
    #[default]
    Member,
    /// A hoisted collection, with its metadata read.
    Collection(hoisted::Encoding),
    /// A hoisted collection's metadata, left out of the restored object.
    Metadata,
}

fn restore_tree(
    value: Value,
    path: &str,
    level: usize,
    max_depth: usize,
    strict: bool,
) -> Result<Value> {
    if level > max_depth {
        return Err(Error::at_path(
            ErrorKind::DepthLimit,
            if path.is_empty() { "$" } else { path },
            format!("expected at most {max_depth} levels of nesting, found more"),
        ));
    }
    match value.unpack() {
        Unpacked::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| restore_tree(v, &index_path(path, i), level + 1, max_depth, strict))
            .collect::<Result<Vec<_>>>()
            .map(Value::Array),
        Unpacked::Object(m) if tables::is_columnar(&m) => {
            let rows = columnar::restore_table(m, path, strict)?;
            rows.into_iter()
                .enumerate()
                .map(|(i, v)| restore_tree(v, &index_path(path, i), level + 1, max_depth, strict))
                .collect::<Result<Vec<_>>>()
                .map(Value::Array)
        }
        Unpacked::Object(m) => {
            // Each hoisted pair's metadata is read first, in the order of the
            // metadata keys; then one pass moves every member into place,
            // restoring collections and leaving their metadata out.
            let mut roles: Vec<Role> = Vec::new();
            for k in tables::hoisted_pairs(&m) {
                let meta_key = hoisted::encoding_key(k);
                let (Some(at), Some(meta_at)) = (m.index_of(k), m.index_of(&meta_key)) else {
                    continue;
                };
                let Some((_, meta)) = m.get_index(meta_at) else {
                    continue;
                };
                let enc = hoisted::Encoding::read(meta, &key_path(path, &meta_key))?;
                if roles.is_empty() {
                    roles.resize_with(m.len(), || Role::Member);
                }
                roles[at] = Role::Collection(enc);
                roles[meta_at] = Role::Metadata;
            }
            let mut out = Map::with_capacity(m.len());
            for (i, (k, v)) in m.into_iter().enumerate() {
                let here = key_path(path, &k);
                let v = match roles.get_mut(i).map(std::mem::take) {
                    Some(Role::Metadata) => continue,
                    Some(Role::Collection(enc)) => match v.into_array() {
                        Ok(rows) => Value::Array(hoisted::restore_rows(
                            rows,
                            &enc,
                            &here,
                            max_depth.saturating_sub(level + 2),
                            strict,
                        )?),
                        Err(v) => v,
                    },
                    _ => v,
                };
                let child = restore_tree(v, &here, level + 1, max_depth, strict)?;
                out.push_unique(k, child);
            }
            Ok(Value::Object(out))
        }
        other => Ok(other.into()),
    }
}
