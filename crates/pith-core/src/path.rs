//! JSON paths as every message prints them: `rows[2].price`,
//! `["odd key"][0]`, and `$` alone for the root. A key that is a JavaScript
//! identifier (ASCII letters, digits, `_` and `$`, not starting with a
//! digit) follows a dot; any other key is a JSON string in brackets.

/// Appends `key` to `path`: `.key`, or `["key"]` when it is not an identifier.
pub fn push_key(path: &mut String, key: &str) {
    if is_identifier(key) {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
    } else {
        let mut quoted = Vec::with_capacity(key.len() + 2);
        crate::json::write_str_into(key, &mut quoted);
        path.push('[');
        path.push_str(&String::from_utf8_lossy(&quoted));
        path.push(']');
    }
}

/// Appends `[i]` to `path`.
pub fn push_index(path: &mut String, i: usize) {
    path.push('[');
    path.push_str(itoa::Buffer::new().format(i));
    path.push(']');
}

/// One step down from a container, for walks that keep their path as a
/// list of steps on an explicit stack (see [`render_steps`]).
#[derive(Clone, Copy)]
pub(crate) enum Step<'a> {
    /// Member `key` of an object.
    Key(&'a str),
    /// Element `i` of an array.
    Index(usize),
}

/// The path of `steps` from the root, `$` for none.
pub(crate) fn render_steps(steps: &[Step<'_>]) -> String {
    let mut out = String::new();
    for step in steps {
        match *step {
            Step::Index(i) => push_index(&mut out, i),
            Step::Key(k) => push_key(&mut out, k),
        }
    }
    if out.is_empty() {
        out.push('$');
    }
    out
}

/// Where a walk is in a value, as a list linked toward the root: built on
/// the stack as the walk descends, written out only when a message needs it.
#[derive(Clone, Copy)]
pub(crate) enum Trail<'a> {
    /// The value itself.
    Root,
    /// Element `i` of the array at the parent.
    Index(&'a Trail<'a>, usize),
    /// Member `key` of the object at the parent.
    Key(&'a Trail<'a>, &'a str),
}

impl Trail<'_> {
    /// The path from the root, `$` for the root itself.
    pub(crate) fn render(&self) -> String {
        let mut steps = Vec::new();
        let mut at = self;
        while let Trail::Index(up, _) | Trail::Key(up, _) = at {
            steps.push(at);
            at = up;
        }
        let mut out = String::new();
        for step in steps.into_iter().rev() {
            match *step {
                Trail::Index(_, i) => push_index(&mut out, i),
                Trail::Key(_, k) => push_key(&mut out, k),
                Trail::Root => {}
            }
        }
        if out.is_empty() {
            out.push('$');
        }
        out
    }
}

fn is_identifier(key: &str) -> bool {
    let mut bytes = key.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'$')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_follow_a_dot_and_other_keys_are_quoted() {
        let root = Trail::Root;
        assert_eq!(root.render(), "$");
        let rows = Trail::Key(&root, "rows");
        let two = Trail::Index(&rows, 2);
        let price = Trail::Key(&two, "price");
        assert_eq!(price.render(), "rows[2].price");
        let odd = Trail::Key(&root, "odd key");
        let first = Trail::Index(&odd, 0);
        let dollar = Trail::Key(&first, "$type");
        assert_eq!(dollar.render(), r#"["odd key"][0].$type"#);
        let mut p = String::new();
        for k in ["", "1a", "a-b", "é", "tab\t", "_x9"] {
            push_key(&mut p, k);
        }
        assert_eq!(p, r#"[""]["1a"]["a-b"]["é"]["tab\t"]._x9"#);
    }
}
