//! Continuation cursors: where a cut collection goes on, bound to the
//! document it was cut from.

use std::fmt;
use std::str::FromStr;

/// Where a cut collection continues: the collection's place in the
/// document, the first row not yet shown, and a check that binds both to
/// the document.
///
/// Written `c<path>-<offset>-<check>`, for example `c0.17.2-40-5e0c91aa`:
/// `<path>` is the collection's place as positions separated by `.` (the
/// position of a key in its object, or of a row in its array; empty for a
/// root array), `<offset>` the first row to show, and `<check>` eight hex
/// digits of a 64-bit FNV-1a hash of the document's compact JSON, folded
/// with the path and offset. Cursors are deterministic (the same document
/// and cut give the same cursor) and otherwise opaque: the check makes a
/// cursor used on another document, or edited by hand, a [`CursorError`]
/// instead of a page of the wrong rows. The string never needs quotes in
/// TOON or escapes in JSON.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cursor {
    path: Vec<usize>,
    offset: usize,
    check: u32,
}

/// A cursor that is malformed or does not belong to the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CursorError {
    /// The cursor as given.
    pub cursor: String,
    /// What is wrong, in lowercase words.
    pub reason: String,
}

impl Cursor {
    /// The first row the continuation shows.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The collection's place: positions of keys in objects and of rows in
    /// arrays, from the root.
    pub fn path(&self) -> &[usize] {
        &self.path
    }

    pub(super) fn new(doc_hash: u64, path: &[usize], offset: usize) -> Cursor {
        Cursor {
            path: path.to_vec(),
            offset,
            check: check(doc_hash, path, offset),
        }
    }

    /// Whether this cursor was made for the document with this hash.
    pub(super) fn belongs_to(&self, doc_hash: u64) -> bool {
        check(doc_hash, &self.path, self.offset) == self.check
    }
}

impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("c")?;
        for (i, p) in self.path.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{p}")?;
        }
        write!(f, "-{}-{:08x}", self.offset, self.check)
    }
}

impl FromStr for Cursor {
    type Err = CursorError;

    fn from_str(s: &str) -> Result<Cursor, CursorError> {
        let bad = |reason: &str| CursorError {
            cursor: s.to_owned(),
            reason: reason.to_owned(),
        };
        let body = s.strip_prefix('c').ok_or_else(|| {
            bad("does not start with `c`: expected a cursor from an omission receipt")
        })?;
        let mut parts = body.split('-');
        let (Some(path), Some(offset), Some(check), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad(
                "is not `c<path>-<offset>-<check>`: expected a cursor from an omission receipt",
            ));
        };
        let path = if path.is_empty() {
            Vec::new()
        } else {
            path.split('.')
                .map(decimal)
                .collect::<Option<Vec<usize>>>()
                .ok_or_else(|| bad("has a path that is not positions separated by `.`"))?
        };
        let offset = decimal(offset).ok_or_else(|| bad("has an offset that is not a number"))?;
        if check.len() != 8 || !check.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad("does not end in eight hex digits"));
        }
        let check =
            u32::from_str_radix(check, 16).map_err(|_| bad("does not end in eight hex digits"))?;
        Ok(Cursor {
            path,
            offset,
            check,
        })
    }
}

impl fmt::Display for CursorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cursor `{}` {}", self.cursor, self.reason)
    }
}

impl std::error::Error for CursorError {}

/// The 64-bit FNV-1a hash of `bytes`: small, stable across platforms and
/// versions, and fast enough to run over a whole document per call.
pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(FNV_OFFSET, bytes)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a over `bytes`, continuing from the hash `h`.
fn fnv1a_from(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(FNV_PRIME);
    }
    h
}

fn check(doc_hash: u64, path: &[usize], offset: usize) -> u32 {
    let feed = |h: u64, n: u64| fnv1a_from(h, &n.to_le_bytes());
    let mut h = path.iter().fold(doc_hash, |h, &p| feed(h, p as u64));
    // A separator no position can equal, so `[1, 2]` + 3 and `[1]` + 2, 3 differ.
    h = feed(h, u64::MAX);
    h = feed(h, offset as u64);
    (h ^ (h >> 32)) as u32
}

/// A plain decimal: digits only, no sign, no leading zeros.
fn decimal(s: &str) -> Option<usize> {
    let canonical =
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    if canonical { s.parse().ok() } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_back() {
        for (path, offset) in [(vec![], 0), (vec![0], 12), (vec![3, 17, 0], 40)] {
            let c = Cursor::new(42, &path, offset);
            let text = c.to_string();
            assert!(text.starts_with('c'));
            assert_eq!(text.parse::<Cursor>(), Ok(c.clone()));
            assert!(c.belongs_to(42));
            assert!(!c.belongs_to(43));
        }
        assert_eq!(Cursor::new(7, &[], 5).to_string().split('-').count(), 3);
    }

    #[test]
    fn check_binds_path_and_offset() {
        let a = Cursor::new(9, &[1, 2], 3);
        let b = Cursor::new(9, &[1], 23);
        assert_ne!(a.check, b.check);
        let edited: Cursor = a.to_string().replace("-3-", "-4-").parse().unwrap();
        assert!(!edited.belongs_to(9));
    }

    #[test]
    fn refuses_malformed() {
        for s in [
            "",
            "x1-2-0000000a",
            "c1-2",
            "c1-2-3-4",
            "c1..2-3-0000000a",
            "c01-3-0000000a",
            "c1-+3-0000000a",
            "c1-3-000000zz",
            "c1-3-0000000",
            "c1-99999999999999999999999-0000000a",
        ] {
            let err = s.parse::<Cursor>().unwrap_err();
            assert_eq!(err.cursor, s);
            assert!(err.to_string().starts_with("cursor `"), "{err}");
        }
    }
}
