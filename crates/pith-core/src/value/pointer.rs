//! JSON Pointer (RFC 6901): [`Value::pointer`] and [`Value::pointer_mut`].

use super::Value;
use std::borrow::Cow;

impl Value {
    /// The value that the JSON Pointer `pointer` (RFC 6901) names, or `None`
    /// when it names nothing.
    ///
    /// `""` names the whole value; otherwise each `/`-prefixed token steps
    /// into an object by key or into an array by position, with `~1`
    /// standing for `/` and `~0` for `~` in a token. A position is written
    /// in decimal without leading zeros (`0`, `17`); `-`, which RFC 6901
    /// gives the element after the last, names nothing here, and neither
    /// does a malformed pointer (one that does not start with `/`, or a `~`
    /// followed by anything but `0` or `1`).
    ///
    /// ```
    /// use pith::{value, Value};
    ///
    /// let v = value!({"a/b": {"m~n": [10, 20]}, "": 0});
    /// assert_eq!(v.pointer("/a~1b/m~0n/1"), Some(&value!(20)));
    /// assert_eq!(v.pointer("/"), Some(&value!(0)));
    /// assert_eq!(v.pointer(""), Some(&v));
    /// assert_eq!(v.pointer("/a~1b/m~0n/01"), None);
    /// assert_eq!(v.pointer("a~1b"), None);
    /// ```
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        let mut target = self;
        for token in tokens(pointer)? {
            target = match target {
                Value::Object(m) => m.get(&token?)?,
                Value::Array(items) => items.get(position(&token?)?)?,
                _ => return None,
            };
        }
        Some(target)
    }

    /// The value that `pointer` names, mutably (see [`Value::pointer`]).
    ///
    /// ```
    /// use pith::value;
    ///
    /// let mut v = value!({"rows": [{"id": 1}, {"id": 2}]});
    /// if let Some(id) = v.pointer_mut("/rows/1/id") {
    ///     *id = value!(20);
    /// }
    /// assert_eq!(v.to_string(), r#"{"rows":[{"id":1},{"id":20}]}"#);
    /// assert!(v.pointer_mut("/rows/2").is_none());
    /// ```
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        let mut target = self;
        for token in tokens(pointer)? {
            target = match target {
                Value::Object(m) => m.get_mut(&token?)?,
                Value::Array(items) => items.get_mut(position(&token?)?)?,
                _ => return None,
            };
        }
        Some(target)
    }
}

/// The unescaped reference tokens of `pointer`, each `None` if its escapes
/// are malformed; `None` for a pointer that is neither empty nor starts
/// with `/`.
fn tokens(pointer: &str) -> Option<impl Iterator<Item = Option<Cow<'_, str>>>> {
    let rest = match pointer.strip_prefix('/') {
        Some(rest) => Some(rest),
        None if pointer.is_empty() => None,
        None => return None,
    };
    Some(rest.into_iter().flat_map(|r| r.split('/')).map(unescape))
}

/// `~1` → `/` and `~0` → `~`; `None` for any other `~`.
fn unescape(token: &str) -> Option<Cow<'_, str>> {
    if !token.contains('~') {
        return Some(Cow::Borrowed(token));
    }
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        match c {
            '~' => match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            },
            c => out.push(c),
        }
    }
    Some(Cow::Owned(out))
}

/// An array position as RFC 6901 writes it: `0`, or digits without a
/// leading zero, within `usize`.
fn position(token: &str) -> Option<usize> {
    let b = token.as_bytes();
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) || (b[0] == b'0' && b.len() > 1) {
        return None;
    }
    token.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> Value {
        // RFC 6901 §5's example document.
        crate::json::parse(
            r#"{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8}"#,
        )
        .unwrap()
    }

    #[test]
    fn the_rfc_examples_name_what_the_rfc_says() {
        let v = doc();
        let cases: [(&str, &str); 12] = [
            ("", "whole"),
            ("/foo", r#"["bar","baz"]"#),
            ("/foo/0", r#""bar""#),
            ("/", "0"),
            ("/a~1b", "1"),
            ("/c%d", "2"),
            ("/e^f", "3"),
            ("/g|h", "4"),
            ("/i\\j", "5"),
            ("/k\"l", "6"),
            ("/ ", "7"),
            ("/m~0n", "8"),
        ];
        for (pointer, want) in cases {
            let got = v.pointer(pointer).unwrap_or_else(|| panic!("{pointer:?}"));
            if want == "whole" {
                assert_eq!(got, &v);
            } else {
                assert_eq!(got.to_string(), want, "{pointer:?}");
            }
        }
    }

    #[test]
    fn malformed_pointers_and_missing_targets_name_nothing() {
        let v = doc();
        for pointer in [
            "foo",
            "/foo/2",
            "/foo/-",
            "/foo/01",
            "/foo/+1",
            "/foo/ 1",
            "/foo/",
            "/m~2n",
            "/m~",
            "/bar",
            "/foo/0/x",
            "/ /x",
            "/~01",
            "/foo/99999999999999999999999",
        ] {
            assert_eq!(v.pointer(pointer), None, "{pointer:?}");
        }
        // `~01` is `~1` literally, not `/`.
        let tricky = crate::json::parse(r#"{"~1":"tilde-one","/":"slash"}"#).unwrap();
        assert_eq!(tricky.pointer("/~01"), Some(&Value::from("tilde-one")));
        assert_eq!(tricky.pointer("/~1"), Some(&Value::from("slash")));
    }

    #[test]
    fn pointer_mut_reaches_what_pointer_reads() {
        let mut v = doc();
        *v.pointer_mut("/foo/1").unwrap() = Value::from("qux");
        *v.pointer_mut("/m~0n").unwrap() = Value::Null;
        assert_eq!(v.pointer("/foo/1"), Some(&Value::from("qux")));
        assert_eq!(v.pointer("/m~0n"), Some(&Value::Null));
        assert!(v.pointer_mut("/foo/2").is_none());
        assert!(v.pointer_mut("x").is_none());
        let whole = v.clone();
        assert_eq!(v.pointer_mut(""), Some(&mut whole.clone()));
    }
}
