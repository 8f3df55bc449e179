//! Exact decimal numbers.
//!
//! A [`Number`] holds the exact mathematical value of a JSON or TOON number
//! literal, at any size and precision: nothing passes through `f64`. The
//! representation is canonical (one representation per value), so equality
//! and hashing are by mathematical value: `1.0 == 1`, `1e2 == 100`,
//! `-0 == 0`.
//!
//! # Canonical text
//!
//! [`Number`]'s `Display` (used by every pith writer, JSON and TOON alike)
//! prints the shortest exact decimal, laid out the way ECMAScript's
//! `Number.prototype.toString` lays out a number, so that for any value an
//! `f64` can hold exactly, pith writes the same bytes as `JSON.stringify` and
//! the reference TOON encoder:
//!
//! * no exponent when `1e-7 < |n| < 1e21`: `1000000`, `0.000001`, `1.5`;
//! * otherwise one digit before the point and an explicit exponent sign:
//!   `1e-7`, `1.5e+300`, `1e+400`;
//! * no leading zeros, no trailing fractional zeros, and `-0` is `0`.
//!
//! Values that an `f64` cannot hold (`9007199254740993`, `1e400`,
//! `123456789012345678901234567890.5`) are printed exactly in the same layout,
//! which is why they survive every round trip.
//!
//! The JSON writer differs in one respect ([`Number::write_json_to`]): an
//! integer below 1e309 or so (at most [`MAX_JSON_INTEGER_ZEROS`] zeros after
//! its significant digits) is written as its digits, `1e21` as
//! `1000000000000000000000`, since readers such as Python's turn an
//! exponent into a float. TOON keeps the canonical text, as the reference
//! encoder writes it.
//!
//! # Domain
//!
//! Any number of significant digits is kept. The decimal exponent of the
//! value written with one digit before the point (`1.5e+300` has 300) must
//! lie within ±[`MAX_EXPONENT`], so that every number's canonical text reads
//! back; a literal outside that range is refused with an error rather than
//! rounded.

use std::fmt;

/// The largest magnitude of a number's decimal exponent in scientific
/// notation (one digit before the point) that pith accepts.
pub const MAX_EXPONENT: i64 = 999_999_999;

/// Where a literal's written exponent stops growing: far above
/// [`MAX_EXPONENT`] plus any literal's length, far below `i64::MAX / 10`.
const EXPONENT_CEILING: i64 = 1 << 59;

/// An exact decimal number.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Number(N);

/// Canonical representation: every value has exactly one.
#[derive(Clone, PartialEq, Eq, Hash)]
enum N {
    /// An integer that fits `i64` (zero is always `Int(0)`).
    Int(i64),
    /// `mant × 10^exp` with `exp < 0`, `mant % 10 != 0` and `|mant| < 10^18`.
    Dec { mant: i64, exp: i32 },
    /// Everything else.
    Big(Box<BigDec>),
}

/// `(-1)^neg × digits × 10^exp`, `digits` without leading or trailing zeros.
#[derive(Clone, PartialEq, Eq, Hash)]
struct BigDec {
    neg: bool,
    digits: Box<str>,
    exp: i64,
}

impl BigDec {
    /// Plain integer text; only for `exp >= 0` and a bounded length.
    fn integer_text(&self) -> String {
        let mut s = String::with_capacity(self.digits.len() + self.exp as usize + 1);
        if self.neg {
            s.push('-');
        }
        s.push_str(&self.digits);
        s.extend(std::iter::repeat_n('0', self.exp as usize));
        s
    }
}

/// Why a numeric literal was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NumberError {
    /// The text is not a number in the accepted grammar.
    Syntax,
    /// The decimal exponent lies outside ±[`MAX_EXPONENT`].
    ExponentRange,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberError::Syntax => f.write_str("invalid number"),
            NumberError::ExponentRange => write!(
                f,
                "number exponent outside the supported range of ±{MAX_EXPONENT}"
            ),
        }
    }
}

impl std::error::Error for NumberError {}

impl Number {
    /// Parses a literal of the form `-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    ///
    /// Leading zeros in the integer part are accepted here; the JSON and TOON
    /// readers apply their own rules about them before calling this.
    pub fn parse(text: &str) -> Result<Number, NumberError> {
        let b = text.as_bytes();
        let mut i = 0;
        let neg = b.first() == Some(&b'-');
        if neg {
            i = 1;
        }
        let int_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let int_end = i;
        if int_end == int_start {
            return Err(NumberError::Syntax);
        }
        // Fast path: a plain integer of at most 18 digits.
        if i == b.len() && int_end - int_start <= 18 {
            let mut v: i64 = 0;
            for &c in &b[int_start..int_end] {
                v = v * 10 + i64::from(c - b'0');
            }
            return Ok(Number(N::Int(if neg { -v } else { v })));
        }
        let mut frac = &b[0..0];
        if i < b.len() && b[i] == b'.' {
            i += 1;
            let s = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i == s {
                return Err(NumberError::Syntax);
            }
            frac = &b[s..i];
        }
        let mut exp: i64 = 0;
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            i += 1;
            let eneg = match b.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let s = i;
            // The written exponent is not the value's (`0.1e1000000000` is
            // 1e999999999): it saturates far beyond any literal's digit
            // count, and the value's exponent is bounded below.
            while i < b.len() && b[i].is_ascii_digit() {
                exp = (exp * 10 + i64::from(b[i] - b'0')).min(EXPONENT_CEILING);
                i += 1;
            }
            if i == s {
                return Err(NumberError::Syntax);
            }
            if eneg {
                exp = -exp;
            }
        }
        if i != b.len() {
            return Err(NumberError::Syntax);
        }
        // Bound the value's scientific exponent, not just the literal's, so
        // that the canonical text of every accepted number reads back.
        let int = &b[int_start..int_end];
        let int_sig = int.iter().skip_while(|&&c| c == b'0').count() as i64;
        let scientific = if int_sig > 0 {
            exp + int_sig - 1
        } else {
            match frac.iter().position(|&c| c != b'0') {
                Some(zeros) => exp - zeros as i64 - 1,
                None => return Ok(Number(N::Int(0))),
            }
        };
        if scientific.abs() > MAX_EXPONENT {
            return Err(NumberError::ExponentRange);
        }
        Ok(Number::from_parts(neg, int, frac, exp))
    }

    /// The number `mant × 10^-scale` for a literal of at most 18 significant
    /// digits that a reader has already validated, without the allocation of
    /// [`Number::parse`]'s general path.
    pub(crate) fn from_scaled(mant: i64, scale: u32) -> Number {
        debug_assert!(mant.unsigned_abs() < 1_000_000_000_000_000_000);
        let (mut m, mut scale) = (mant, scale);
        while scale > 0 && m % 10 == 0 {
            m /= 10;
            scale -= 1;
        }
        if scale == 0 {
            Number(N::Int(m))
        } else {
            Number(N::Dec {
                mant: m,
                exp: -(scale as i32),
            })
        }
    }

    /// Builds the canonical number `±(int.frac) × 10^exp` from ASCII digits.
    fn from_parts(neg: bool, int: &[u8], frac: &[u8], exp: i64) -> Number {
        // Significant digits: int followed by frac, with the point moved into exp.
        let exp = exp - frac.len() as i64;
        let all = int.iter().chain(frac.iter());
        let lead = all.clone().take_while(|&&c| c == b'0').count();
        let total = int.len() + frac.len();
        if lead == total {
            return Number(N::Int(0));
        }
        let digits: Vec<u8> = all.skip(lead).copied().collect();
        let trail = digits.iter().rev().take_while(|&&c| c == b'0').count();
        let digits = &digits[..digits.len() - trail];
        let exp = exp + trail as i64;
        Number::from_canonical_digits(neg, digits, exp)
    }

    /// `digits` has no leading or trailing zeros and is not empty.
    fn from_canonical_digits(neg: bool, digits: &[u8], exp: i64) -> Number {
        let k = digits.len() as i64;
        if exp >= 0 && k + exp <= 18 {
            let mut v: i64 = 0;
            for &c in digits {
                v = v * 10 + i64::from(c - b'0');
            }
            for _ in 0..exp {
                v *= 10;
            }
            return Number(N::Int(if neg { -v } else { v }));
        }
        if exp >= 0 && k + exp == 19 {
            // May still fit i64 (up to 9223372036854775807 / -9223372036854775808).
            let mut s = String::with_capacity(20);
            if neg {
                s.push('-');
            }
            s.extend(digits.iter().map(|&c| c as char));
            s.extend(std::iter::repeat_n('0', exp as usize));
            if let Ok(v) = s.parse::<i64>() {
                return Number(N::Int(v));
            }
        }
        if exp < 0 && k <= 18 && exp >= i64::from(i32::MIN) {
            let mut v: i64 = 0;
            for &c in digits {
                v = v * 10 + i64::from(c - b'0');
            }
            return Number(N::Dec {
                mant: if neg { -v } else { v },
                exp: exp as i32,
            });
        }
        let digits = std::str::from_utf8(digits)
            .expect("ASCII digits")
            .to_owned()
            .into_boxed_str();
        Number(N::Big(Box::new(BigDec { neg, digits, exp })))
    }

    /// The number for an `f64`, or `None` for NaN and the infinities.
    ///
    /// The value is the shortest decimal that reads back as the same `f64`
    /// (what `JSON.stringify` prints), not the binary fraction's full expansion.
    pub fn from_f64(f: f64) -> Option<Number> {
        if !f.is_finite() {
            return None;
        }
        if f == 0.0 {
            return Some(Number(N::Int(0)));
        }
        // `{:e}` prints the shortest round-tripping digits in scientific form.
        Some(Number::from_float_text(&format!("{f:e}")))
    }

    /// The number for an `f32`, or `None` for NaN and the infinities: the
    /// shortest decimal that reads back as the same `f32` (`1.1f32` is
    /// `1.1`, not the `f64` expansion `1.100000023841858`).
    pub fn from_f32(f: f32) -> Option<Number> {
        f.is_finite()
            .then(|| Number::from_float_text(&format!("{f:e}")))
    }

    /// The number a finite float's `{:e}` text writes.
    fn from_float_text(text: &str) -> Number {
        Number::parse(text).expect("a finite float formats as a valid literal")
    }

    /// Whether the value is an integer.
    pub fn is_integer(&self) -> bool {
        match &self.0 {
            N::Int(_) => true,
            N::Dec { .. } => false,
            N::Big(b) => b.exp >= 0,
        }
    }

    /// Whether the value is below zero.
    pub fn is_negative(&self) -> bool {
        match &self.0 {
            N::Int(v) => *v < 0,
            N::Dec { mant, .. } => *mant < 0,
            N::Big(b) => b.neg,
        }
    }

    /// The value as an `i64`, if it is an integer in range.
    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            N::Int(v) => Some(v),
            _ => None,
        }
    }

    /// The value as a `u64`, if it is a non-negative integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        match &self.0 {
            N::Int(v) => u64::try_from(*v).ok(),
            N::Big(b) if !b.neg && b.exp >= 0 && b.digits.len() as i64 + b.exp <= 20 => {
                b.integer_text().parse().ok()
            }
            _ => None,
        }
    }

    /// The value as an `i128`, if it is an integer in range.
    pub fn as_i128(&self) -> Option<i128> {
        match &self.0 {
            N::Int(v) => Some(i128::from(*v)),
            N::Big(b) if b.exp >= 0 && b.digits.len() as i64 + b.exp <= 39 => {
                b.integer_text().parse().ok()
            }
            _ => None,
        }
    }

    /// The nearest `f64` (`±inf` beyond its range, `±0` below it).
    pub fn to_f64(&self) -> f64 {
        match &self.0 {
            N::Int(v) => *v as f64,
            _ => {
                let mut buf = String::new();
                self.write_scientific(&mut buf);
                buf.parse().unwrap_or(f64::NAN)
            }
        }
    }

    /// Whether `to_f64` gives back exactly this value.
    pub fn is_exact_f64(&self) -> bool {
        if let N::Int(v) = self.0 {
            return v.unsigned_abs() <= 1 << 53 || Number::from_f64(v as f64) == Some(self.clone());
        }
        match Number::from_f64(self.to_f64()) {
            Some(n) => n == *self,
            None => false,
        }
    }

    /// Writes `±d.ddde±x`, which Rust's float parser reads.
    fn write_scientific(&self, out: &mut String) {
        let (neg, digits, exp) = self.parts();
        if neg {
            out.push('-');
        }
        out.push_str(&digits);
        out.push('e');
        out.push_str(&exp.to_string());
    }

    /// Sign, significant digits (no leading or trailing zeros; `"0"` for
    /// zero) and exponent, so that the value is `±digits × 10^exp`.
    fn parts(&self) -> (bool, std::borrow::Cow<'_, str>, i64) {
        match &self.0 {
            N::Int(0) => (false, "0".into(), 0),
            N::Int(v) => {
                let mut m = v.unsigned_abs();
                let mut exp = 0;
                while m % 10 == 0 {
                    m /= 10;
                    exp += 1;
                }
                (*v < 0, m.to_string().into(), exp)
            }
            N::Dec { mant, exp } => (
                *mant < 0,
                mant.unsigned_abs().to_string().into(),
                i64::from(*exp),
            ),
            N::Big(b) => (b.neg, b.digits.as_ref().into(), b.exp),
        }
    }

    /// Appends the canonical text to `out` (see the module docs).
    pub fn write_to(&self, out: &mut Vec<u8>) {
        self.write_text(out);
    }

    /// [`Number::write_to`], appending to a `String`.
    pub(crate) fn push_to(&self, out: &mut String) {
        self.write_text(out);
    }

    fn write_text(&self, out: &mut impl Ascii) {
        match &self.0 {
            N::Int(v) => {
                let mut buf = itoa::Buffer::new();
                out.put(buf.format(*v));
            }
            N::Dec { mant, exp } => {
                let mut buf = itoa::Buffer::new();
                let s = buf.format(mant.unsigned_abs());
                layout(out, *mant < 0, s, i64::from(*exp));
            }
            N::Big(b) => layout(out, b.neg, &b.digits, b.exp),
        }
    }
}

/// Where a number's text goes: it is ASCII, so bytes and strings alike.
trait Ascii {
    fn put(&mut self, s: &str);
    fn put_byte(&mut self, b: u8);
}

impl Ascii for Vec<u8> {
    fn put(&mut self, s: &str) {
        self.extend_from_slice(s.as_bytes());
    }
    fn put_byte(&mut self, b: u8) {
        self.push(b);
    }
}

impl Ascii for String {
    fn put(&mut self, s: &str) {
        self.push_str(s);
    }
    fn put_byte(&mut self, b: u8) {
        self.push(char::from(b));
    }
}

/// The most zeros the JSON writer adds after an integer's significant
/// digits to write it as digits: every integer an `f64` holds as a finite
/// number (below 1.8e308) needs no more, and the bound keeps a short
/// literal such as `1e999999999` from writing a gigabyte.
pub const MAX_JSON_INTEGER_ZEROS: i64 = 308;

impl Number {
    /// Appends the JSON text to `out`: the canonical text, except that an
    /// integer is written as its digits (`12345678901234567890123`, where
    /// the canonical text has `1.2345678901234567890123e+22`) when that adds
    /// at most [`MAX_JSON_INTEGER_ZEROS`] zeros, so that JSON readers that
    /// keep integers apart from floats (Python's, Java's, arbitrary-precision
    /// ones) read the integer, not the nearest float.
    pub fn write_json_to(&self, out: &mut Vec<u8>) {
        match &self.0 {
            N::Big(b) if (0..=MAX_JSON_INTEGER_ZEROS).contains(&b.exp) => {
                if b.neg {
                    out.push(b'-');
                }
                out.extend_from_slice(b.digits.as_bytes());
                out.extend(std::iter::repeat_n(b'0', b.exp as usize));
            }
            _ => self.write_to(out),
        }
    }
}

/// What [`for_f64_readers`] does with a number that an `f64` does not hold
/// exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Inexact {
    /// Keeps it: pith reads it back exactly, other readers may not.
    #[default]
    Keep,
    /// Writes its JSON text as a string (an integer's digits, or the
    /// canonical text), so that every reader keeps the digits, as a string:
    /// pith too reads a string back.
    Quote,
    /// Refuses the value, naming the number's path.
    Refuse,
}

/// Prepares `value` for readers that hold numbers in an `f64` (JavaScript's,
/// and so the reference TOON decoder): every number that an `f64` does not
/// hold exactly is kept, quoted or refused as `how` says. Such readers turn
/// `1e+400` into a string (the reference TOON decoder) or `Infinity`,
/// `1e-400` into `0`, and `9007199254740993` or `0.1000000000000000055511`
/// into the nearest `f64`, without a word.
///
/// # Errors
///
/// With [`Inexact::Refuse`], [`ErrorKind::NumberRange`](crate::ErrorKind)
/// at the first such number's path.
///
/// ```
/// use pith::number::{for_f64_readers, Inexact};
/// let v = pith::json::parse(r#"{"id":9007199254740993,"n":[1.5,1e400,0.1000000000000000055511]}"#)?;
/// let quoted = for_f64_readers(v.clone(), Inexact::Quote)?;
/// assert_eq!(
///     pith::json::stringify(&quoted),
///     r#"{"id":"9007199254740993","n":[1.5,"1e+400","0.1000000000000000055511"]}"#
/// );
/// let e = for_f64_readers(v, Inexact::Refuse).unwrap_err();
/// assert_eq!(e.path(), Some("id"));
/// # Ok::<(), pith::Error>(())
/// ```
pub fn for_f64_readers(mut value: crate::Value, how: Inexact) -> crate::Result<crate::Value> {
    use crate::Value;
    use crate::path::Step;
    if how == Inexact::Keep {
        return Ok(value);
    }
    // Explicit stack, so that any depth is walked; each entry holds the
    // length of its parent's path and its own step, kept for a refusal.
    let mut stack: Vec<(&mut Value, usize, Option<Step<'_>>)> = vec![(&mut value, 0, None)];
    let mut path: Vec<Step<'_>> = Vec::new();
    let mut refused = None;
    while let Some((v, parent, step)) = stack.pop() {
        if how == Inexact::Refuse {
            path.truncate(parent);
            path.extend(step);
        }
        let here = path.len();
        match v {
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate().rev() {
                    stack.push((item, here, Some(Step::Index(i))));
                }
            }
            Value::Object(m) => {
                for (k, item) in m.iter_mut().rev() {
                    stack.push((item, here, Some(Step::Key(k))));
                }
            }
            Value::Number(n) if !n.is_exact_f64() => match how {
                Inexact::Quote => {
                    let mut text = Vec::new();
                    n.write_json_to(&mut text);
                    *v = Value::String(String::from_utf8(text).expect("ASCII"));
                }
                _ => {
                    refused = Some((n.to_string(), crate::path::render_steps(&path)));
                    break;
                }
            },
            _ => {}
        }
    }
    drop(stack);
    match refused {
        None => Ok(value),
        Some((n, at)) => Err(crate::Error::at_path(
            crate::ErrorKind::NumberRange,
            at,
            format!(
                "expected a number that an f64 holds exactly, found {n}, which readers that use f64 read as {}",
                f64_reading(&n)
            ),
        )),
    }
}

/// What an `f64` reader makes of the canonical text `n`.
fn f64_reading(n: &str) -> String {
    match Number::parse(n).map(|n| n.to_f64()) {
        Ok(f) if f.is_infinite() => {
            "an infinity (or a string, as the reference TOON decoder does)".to_owned()
        }
        Ok(f) => Number::from_f64(f).map_or_else(|| "another number".to_owned(), |n| n.to_string()),
        Err(_) => "another number".to_owned(),
    }
}

/// Lays out `±digits × 10^exp` as ECMAScript's Number::toString does.
fn layout(out: &mut impl Ascii, neg: bool, digits: &str, exp: i64) {
    if neg {
        out.put_byte(b'-');
    }
    let k = digits.len() as i64;
    // Position of the decimal point relative to the start of `digits`.
    let n = k + exp;
    if k <= n && n <= 21 {
        out.put(digits);
        for _ in 0..n - k {
            out.put_byte(b'0');
        }
    } else if 0 < n && n <= 21 {
        // ASCII digits: every index is a character boundary.
        let (int, frac) = digits.split_at(n as usize);
        out.put(int);
        out.put_byte(b'.');
        out.put(frac);
    } else if -6 < n && n <= 0 {
        out.put("0.");
        for _ in 0..-n {
            out.put_byte(b'0');
        }
        out.put(digits);
    } else {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        out.put(first);
        if k > 1 {
            out.put_byte(b'.');
            out.put(rest);
        }
        let e = n - 1;
        out.put_byte(b'e');
        out.put_byte(if e < 0 { b'-' } else { b'+' });
        let mut buf = itoa::Buffer::new();
        out.put(buf.format(e.unsigned_abs()));
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Vec::with_capacity(24);
        self.write_to(&mut out);
        f.write_str(std::str::from_utf8(&out).expect("ASCII"))
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({self})")
    }
}

impl std::str::FromStr for Number {
    type Err = NumberError;
    fn from_str(s: &str) -> Result<Number, NumberError> {
        Number::parse(s)
    }
}

macro_rules! from_small_int {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            fn from(v: $t) -> Number {
                Number(N::Int(i64::from(v)))
            }
        }
    )*};
}
from_small_int!(i8 i16 i32 i64 u8 u16 u32);

macro_rules! from_wide_int {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            fn from(v: $t) -> Number {
                match i64::try_from(v) {
                    Ok(v) => Number(N::Int(v)),
                    Err(_) => Number::parse(&v.to_string()).expect("integer literal"),
                }
            }
        }
    )*};
}
from_wide_int!(u64 i128 u128 usize isize);

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        Number::parse(s).unwrap().to_string()
    }

    #[test]
    fn canonical_text_matches_ecmascript_layout() {
        let cases = [
            ("0", "0"),
            ("-0", "0"),
            ("-0.0e5", "0"),
            ("1.0", "1"),
            ("1.5000", "1.5"),
            ("1e6", "1000000"),
            ("1e-6", "0.000001"),
            ("1e-7", "1e-7"),
            ("1.5e-7", "1.5e-7"),
            ("-1E+03", "-1000"),
            ("1e20", "100000000000000000000"),
            ("1e21", "1e+21"),
            ("123e19", "1.23e+21"),
            ("1e400", "1e+400"),
            ("9007199254740993", "9007199254740993"),
            (
                "123456789012345678901234567890.5",
                "1.234567890123456789012345678905e+29",
            ),
            ("0.1000000000000000055511", "0.1000000000000000055511"),
            ("9223372036854775807", "9223372036854775807"),
            ("9223372036854775808", "9223372036854775808"),
            ("-9223372036854775808", "-9223372036854775808"),
            ("00012.50", "12.5"),
            ("0e999999999999999999", "0"),
            ("12345678901234567890123", "1.2345678901234567890123e+22"),
            ("0.00001234", "0.00001234"),
            ("0.0000001234", "1.234e-7"),
        ];
        for (input, want) in cases {
            assert_eq!(canon(input), want, "input {input}");
        }
    }

    #[test]
    fn json_writes_integers_as_digits() {
        let json = |s: &str| {
            let mut out = Vec::new();
            Number::parse(s).unwrap().write_json_to(&mut out);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(json("12345678901234567890123"), "12345678901234567890123");
        assert_eq!(json("-1e21"), "-1000000000000000000000");
        assert_eq!(json("1.5e22"), "15000000000000000000000");
        assert_eq!(json("1e308"), format!("1{}", "0".repeat(308)));
        assert_eq!(json("-25e308"), format!("-25{}", "0".repeat(308)));
        assert_eq!(json("1e309"), "1e+309");
        assert_eq!(json("1e400"), "1e+400");
        let many = "7".repeat(5000);
        assert_eq!(json(&many), many);
        assert_eq!(json("1e999999999"), "1e+999999999");
        assert_eq!(json("1.5e-7"), "1.5e-7");
        assert_eq!(
            json("123456789012345678901234567890.5"),
            "1.234567890123456789012345678905e+29"
        );
        assert_eq!(json("42"), "42");
    }

    #[test]
    fn equality_is_by_value() {
        let eq = |a: &str, b: &str| Number::parse(a).unwrap() == Number::parse(b).unwrap();
        assert!(eq("1", "1.0"));
        assert!(eq("100", "1e2"));
        assert!(eq("0.5", "5e-1"));
        assert!(eq("-0", "0"));
        assert!(eq("1e400", "10e399"));
        assert!(eq("9223372036854775808", "92233720368547758080e-1"));
        assert!(!eq("9007199254740993", "9007199254740992"));
        assert!(!eq("0.1", "0.1000000000000000055511"));
    }

    #[test]
    fn refuses_malformed_and_out_of_range_literals() {
        for bad in [
            "", "-", "1.", ".5", "1e", "1e+", "+1", "1x", "0x10", "1.2.3", "--1",
        ] {
            assert_eq!(Number::parse(bad), Err(NumberError::Syntax), "{bad:?}");
        }
        assert_eq!(
            Number::parse("1e1000000000"),
            Err(NumberError::ExponentRange)
        );
        assert!(Number::parse("1e999999999").is_ok());
        // The bound applies to the value, whatever the literal's exponent.
        for bad in ["10e999999999", "0.01e-999999998", "-125e999999998"] {
            assert_eq!(Number::parse(bad), Err(NumberError::ExponentRange), "{bad}");
        }
        for bad in [
            "1e99999999999999999999999",
            "0.1e-999999999",
            "1e-1000000000",
        ] {
            assert_eq!(Number::parse(bad), Err(NumberError::ExponentRange), "{bad}");
        }
        for good in [
            "0.1e-999999998",
            "9.99e999999999",
            "0.00e999999999999",
            "0.1e1000000000",
            "0.0001e1000000003",
            "12e-1000000000",
            "0e99999999999999999999999",
        ] {
            let n = Number::parse(good).unwrap();
            assert_eq!(Number::parse(&n.to_string()), Ok(n), "{good}");
        }
    }

    #[test]
    fn f64_conversions_use_shortest_digits() {
        assert_eq!(Number::from_f64(0.1).unwrap().to_string(), "0.1");
        assert_eq!(Number::from_f64(1e300).unwrap().to_string(), "1e+300");
        assert_eq!(Number::from_f64(-0.0).unwrap().to_string(), "0");
        assert_eq!(Number::from_f64(5e-324).unwrap().to_string(), "5e-324");
        assert_eq!(Number::from_f64(f64::NAN), None);
        assert_eq!(Number::parse("0.1").unwrap().to_f64(), 0.1);
        assert!(Number::parse("9007199254740992").unwrap().is_exact_f64());
        assert!(!Number::parse("9007199254740993").unwrap().is_exact_f64());
        assert_eq!(Number::from(u64::MAX).to_string(), "18446744073709551615");
        assert_eq!(Number::from(u64::MAX).as_u64(), Some(u64::MAX));
        assert_eq!(Number::from(i128::MIN).as_i128(), Some(i128::MIN));
    }
}
