//! JSON paths in messages, written as pith's own messages write them:
//! `rows[2].price`, `["odd key"][0]`, and `$` for the value itself. A key
//! that is a JavaScript identifier follows a dot; any other key is a JSON
//! string in brackets.
//!
//! A conversion that fails collects the steps as the error travels back
//! out of the value (innermost first), so the happy path records nothing.

/// One step from a container to a member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A member of an object.
    Key(String),
    /// An element of an array.
    Index(usize),
}

/// The path of `steps`, given innermost first (as an error collects them).
pub fn render_inner_first(steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps.iter().rev() {
        match step {
            Step::Key(k) => pith::path::push_key(&mut out, k),
            Step::Index(i) => pith::path::push_index(&mut out, *i),
        }
    }
    if out.is_empty() {
        out.push('$');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_like_pith_messages() {
        assert_eq!(render_inner_first(&[]), "$");
        let steps = [
            Step::Key("price".into()),
            Step::Index(2),
            Step::Key("rows".into()),
        ];
        assert_eq!(render_inner_first(&steps), "rows[2].price");
        let odd = [Step::Index(0), Step::Key("odd key".into())];
        assert_eq!(render_inner_first(&odd), "[\"odd key\"][0]");
        assert_eq!(render_inner_first(&[Step::Index(3)]), "[3]");
    }
}
