//! What the two tapes ([`crate::input`], and the Node package's tape of a
//! decoded value) share: each
//! operation is `tag | payload << 3`, a payload too large to hold in place
//! is [`ESCAPE`] followed by an operation holding it, and these tags mean
//! the same in both (tags 4 and 5 are each tape's own kinds of string).

/// The largest payload written in place.
pub const ESCAPE: u32 = (1 << 29) - 1;

/// `null`.
pub const NULL: u32 = 0;
/// `false`.
pub const FALSE: u32 = 1;
/// `true`.
pub const TRUE: u32 = 2;
/// A number; the payload says how it is spelled.
pub const NUMBER: u32 = 3;
/// An array; the payload is its length.
pub const ARRAY: u32 = 6;
/// An object; the payload is its shape.
pub const OBJECT: u32 = 7;
