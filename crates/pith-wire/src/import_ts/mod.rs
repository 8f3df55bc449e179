//! Reading definitions written in the TypeScript DSL, without a JavaScript engine.
//!
//! [`import_ts`] reads the subset of TypeScript that definition files use:
//!
//! * `import … from "…"` in every form (named, aliased, `type`, default,
//!   namespace, side-effect only); imported constants resolve to the
//!   `export const` of the same name in another given file;
//! * `const`, `let` and `var` declarations, `export`ed or not, with an
//!   optional type annotation, `as const` and `satisfies T`;
//! * string literals in either quote with every JavaScript escape, template
//!   literals whose `${…}` hold constant names, decimal numbers (with a
//!   leading `-`, and `_` separators only where JavaScript allows them:
//!   between two digits, not after a leading `0`), `true`, `false`, `null`;
//! * object literals with bare, quoted or numeric keys, shorthand
//!   properties and `...spread` of object constants; array literals with
//!   spread; trailing commas; `//` and `/* */` comments;
//! * calls of `doc(def, text)` and `absentAs(def, default)` (or the names
//!   they were imported as).
//!
//! A key written twice in one object literal, or written before a spread
//! that has it too (TypeScript's TS2783), is an error anywhere. Where
//! TypeScript lets the later copy win, after a spread that has the key or
//! in two spreads that share it, a definition still refuses it as a field
//! (or type) declared twice, since one declaration would vanish without a
//! word; a default is plain data, and there the later copy wins, in the
//! first one's place, as in JavaScript.
//!
//! The definitions are the objects of every declaration marked as such by
//! `satisfies WireDefs` or a `: WireDefs` annotation (any type that mentions
//! `WireDefs`), in file order. When no declaration is marked, every exported
//! object constant counts. Other constants are helpers and appear only where
//! they are used.
//!
//! Anything outside the subset, and anything inside it that cannot be a
//! definition (an unknown function, a number where a type belongs, a bad
//! type expression, a second `doc`), is an error whose position is the line
//! and column in that file and whose [`path`](pith_core::Error::path) is the
//! file's name. Nothing is skipped silently.

//!
//! The reader is three passes, one file each: `lex.rs` (text to tokens),
//! `parse.rs` (tokens to each file's declarations) and `lower.rs` (the
//! declarations evaluated, across files, and lowered to the definitions
//! document).

mod lex;
mod lower;
mod parse;

use lex::Lexer;
use lower::Evaluator;
use parse::Parser;
use pith_core::error::{Error, ErrorKind, Result};
use pith_core::value::Value;

/// Reads definitions from TypeScript files, given as `(name, text)` pairs,
/// into one definitions document (see the [module docs](self)).
///
/// References between types are not resolved here (a file may use types
/// another file defines); [`Schema::from_value`](super::Schema::from_value)
/// does that.
pub fn import_ts(files: &[(&str, &str)]) -> Result<Value> {
    let mut parsed = Vec::with_capacity(files.len());
    for (i, (_, text)) in files.iter().enumerate() {
        let tokens = Lexer::new(text, i).run().map_err(|e| e.into_error(files))?;
        let ast = Parser::new(tokens, i)
            .program()
            .map_err(|e| e.into_error(files))?;
        parsed.push(ast);
    }
    let mut ev = Evaluator::new(&parsed).map_err(|e| e.into_error(files))?;
    ev.document().map_err(|e| e.into_error(files))
}

/// An error before it is tied to its file's text.
struct Fault {
    kind: ErrorKind,
    file: usize,
    at: usize,
    msg: String,
}

impl Fault {
    fn into_error(self, files: &[(&str, &str)]) -> Error {
        match files.get(self.file) {
            Some((name, text)) => {
                Error::at_offset(self.kind, text.as_bytes(), self.at, self.msg).with_path(*name)
            }
            None => Error::new(self.kind, self.msg),
        }
    }
}

type Res<T> = std::result::Result<T, Fault>;

fn fault(kind: ErrorKind, file: usize, at: usize, msg: impl Into<String>) -> Fault {
    Fault {
        kind,
        file,
        at,
        msg: msg.into(),
    }
}
