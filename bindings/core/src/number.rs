//! A decoded [`Number`] in the terms a language's number types take:
//! a machine integer, an integer's decimal digits, or the number's text.
//!
//! Whole numbers become integers (Python `int`, JavaScript `BigInt` when
//! asked for), since TOON, like JavaScript, writes `1.0` as `1` and
//! `10**30` as `1e+30`: the kind of literal is not a fact the text keeps.
//! An integer is spelled out in digits only up to a limit the caller sets,
//! because `1e+999999999` is a valid number whose digits would fill a
//! gigabyte; beyond it the caller gets the canonical text instead. A
//! caller with a limit of its own to apply, or a cheaper way to make a
//! big integer, takes the number as a [`Whole`]: the digits written and
//! how many zeros the exponent adds.

use pith::Number;
use std::fmt::Write as _;

/// How a caller receives one number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decoded {
    /// An integer that fits `i64`.
    Small(i64),
    /// An integer beyond `i64`, as decimal digits with a leading `-` if
    /// negative (`"-123000000000000000000000"`).
    Digits(String),
    /// Not an integer, or an integer with more digits than the limit: the
    /// canonical text (`"0.1"`, `"1.5e+300"`, `"1e+999999999"`).
    Text(String),
}

/// The double nearest `n` (what `float(text)` and `Number(text)` give),
/// read from its canonical text in `scratch`, which callers reuse so that
/// the hot path allocates nothing.
pub fn nearest_f64(n: &Number, scratch: &mut Vec<u8>) -> f64 {
    scratch.clear();
    n.write_to(scratch);
    std::str::from_utf8(scratch)
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| n.to_f64())
}

/// `n` as an integer of at most `max_digits` digits, or as its text.
pub fn decoded(n: &Number, max_digits: usize) -> Decoded {
    if let Some(v) = n.as_i64() {
        return Decoded::Small(v);
    }
    let text = n.to_string();
    match integer_digits(&text, max_digits) {
        Some(digits) => Decoded::Digits(digits),
        None => Decoded::Text(text),
    }
}

/// The decimal digits of the integer whose canonical text is `text`, or
/// `None` when it is not an integer or has more than `max_digits` digits.
pub fn integer_digits(text: &str, max_digits: usize) -> Option<String> {
    let whole = whole_of_text(text)?;
    if whole.digits() > max_digits as u64 {
        return None;
    }
    Some(whole.spelled())
}

/// A whole number split where its text splits it: the digits it writes,
/// and the zeros its exponent stands for (`-1.25e+25` is `-125` and 23
/// zeros).
///
/// A caller that makes big integers can then see how long one would be
/// before making it (`1e+999999999` is 13 bytes of text and a billion
/// digits), and make it as `mantissa · 10^zeros`, which costs far less
/// than reading the spelled-out digits when the zeros are many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Whole {
    /// The digits the text writes, with a leading `-` if negative.
    pub mantissa: String,
    /// How many zeros follow them.
    pub zeros: u64,
}

impl Whole {
    /// How many decimal digits the integer has, its sign aside.
    pub fn digits(&self) -> u64 {
        let written = self.mantissa.trim_start_matches('-').len() as u64;
        written.saturating_add(self.zeros)
    }

    /// The integer's decimal digits, with a leading `-` if negative. As
    /// long as [`Whole::digits`] says: check that first.
    pub fn spelled(&self) -> String {
        let zeros = usize::try_from(self.zeros).unwrap_or(usize::MAX);
        let mut out = String::with_capacity(self.mantissa.len().saturating_add(zeros));
        out.push_str(&self.mantissa);
        out.extend(std::iter::repeat_n('0', zeros));
        out
    }
}

/// The most digits of one whole number a package makes into a big integer
/// when the language sets no limit of its own (CPython's
/// `sys.get_int_max_str_digits()` of 0): making `10**1000000` takes about
/// a third of a second.
pub const MAX_WHOLE_DIGITS: u64 = 1_000_000;

/// The digits the big integers made from one text may hold in all: this
/// many, and [`WHOLE_DIGITS_PER_BYTE`] more for each byte of the text
/// ([`digit_allowance`]). An exponent stands for a million digits in nine
/// bytes (`1e999999`), so without a bound on the total a line of such
/// numbers would cost seconds and gigabytes; integers written out in full
/// never use more digits than the text has bytes.
pub const WHOLE_DIGITS_FLOOR: u64 = 100_000;

/// See [`WHOLE_DIGITS_FLOOR`]: room for a column of round numbers such as
/// `1e+30` (31 digits in six bytes with the separator).
pub const WHOLE_DIGITS_PER_BYTE: u64 = 8;

/// The digits the big integers made from a text of `len` bytes may hold
/// in all (see [`WHOLE_DIGITS_FLOOR`]).
pub fn digit_allowance(len: usize) -> u64 {
    WHOLE_DIGITS_PER_BYTE
        .saturating_mul(len as u64)
        .saturating_add(WHOLE_DIGITS_FLOOR)
}

/// `n` as a [`Whole`], or `None` when it is not a whole number.
pub fn whole(n: &Number) -> Option<Whole> {
    whole_of_text(&n.to_string())
}

/// The [`Whole`] whose canonical text is `text`, or `None` when the
/// number is not whole.
fn whole_of_text(text: &str) -> Option<Whole> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exp) = match body.split_once('e') {
        Some((m, e)) => (m, e.parse::<i64>().ok()?),
        None => (body, 0),
    };
    let (int_part, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // The canonical text has no trailing fractional zeros, so a fraction
    // the exponent does not absorb makes the number fractional.
    let zeros = u64::try_from(exp.checked_sub(frac.len() as i64)?).ok()?;
    let mut digits = String::with_capacity(int_part.len() + frac.len() + 1);
    if neg {
        digits.push('-');
    }
    digits.push_str(int_part);
    digits.push_str(frac);
    Some(Whole {
        mantissa: digits,
        zeros,
    })
}

/// Decimal digits of the unsigned integer whose little-endian bytes are
/// `le`, for integers too large for a language's own decimal conversion
/// (CPython refuses `str()` of an `int` beyond `sys.get_int_max_str_digits()`).
///
/// Quadratic in the length, as every schoolbook conversion is; the caller
/// already holds the integer, so the work is bounded by what it chose to make.
pub fn digits_of_le_bytes(le: &[u8]) -> String {
    // Base 10^18 limbs, least significant first.
    const BASE: u128 = 1_000_000_000_000_000_000;
    let mut limbs: Vec<u64> = Vec::new();
    for &byte in le.iter().rev() {
        let mut carry = u128::from(byte);
        for limb in &mut limbs {
            let v = u128::from(*limb) * 256 + carry;
            *limb = (v % BASE) as u64;
            carry = v / BASE;
        }
        while carry > 0 {
            limbs.push((carry % BASE) as u64);
            carry /= BASE;
        }
    }
    let Some((top, rest)) = limbs.split_last() else {
        return "0".to_owned();
    };
    let mut out = top.to_string();
    for limb in rest.iter().rev() {
        out.push_str(&format!("{limb:018}"));
    }
    out
}

/// Little-endian bytes of the unsigned integer whose decimal digits are
/// `digits` (ASCII digits only), the inverse of [`digits_of_le_bytes`].
pub fn le_bytes_of_digits(digits: &str) -> Vec<u8> {
    // Base 2^32 limbs, least significant first; nine digits at a time.
    let mut limbs: Vec<u32> = Vec::new();
    let bytes = digits.as_bytes();
    let first = bytes.len() % 9;
    let chunks = std::iter::once(&bytes[..first]).chain(bytes[first..].chunks(9));
    for chunk in chunks.filter(|c| !c.is_empty()) {
        let scale = 10u64.pow(chunk.len() as u32);
        let mut carry = chunk
            .iter()
            .fold(0u64, |acc, d| acc * 10 + u64::from(d - b'0'));
        for limb in &mut limbs {
            let v = u64::from(*limb) * scale + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            limbs.push(carry as u32);
        }
    }
    let mut out: Vec<u8> = limbs.iter().flat_map(|l| l.to_le_bytes()).collect();
    while out.last() == Some(&0) {
        out.pop();
    }
    out
}

/// The largest integer below which every integer is a double.
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// Scaled values below this have a unique nearest integer that is found by
/// rounding the scaled double (see [`from_f64`]).
const UNIQUE_BELOW: f64 = 1_125_899_906_842_624.0; // 2^50

/// Powers of ten a double holds exactly.
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// A finite double as the shortest decimal that reads back as the same
/// double: Python's `repr`, JavaScript's `String(x)` (what
/// [`Number::from_f64`] keeps too); `None` for NaN and the infinities.
/// `-0.0` is `0`.
///
/// Most doubles in data are short decimals (prices, measurements), found
/// here without formatting: for the smallest `k` such that `m / 10^k == f`
/// for `m`, the integer nearest `f · 10^k`, that decimal reads back as `f`
/// (IEEE division of exact operands is correctly rounded, as reading a
/// decimal is). While `|f| · 10^k < 2^50` the doubles around `f` are less
/// than `10^-k / 4` apart, so no other decimal of `k` places reads back as
/// `f`, and none with fewer places does (`k` is the smallest): it is the
/// shortest, and the rounded product is that integer (its error is at most
/// 1/8). Other doubles are written by the standard library's shortest
/// round-trip formatting, on the stack, taking the nearer of two shortest
/// decimals as JavaScript and Python do.
pub fn from_f64(f: f64) -> Option<Number> {
    if f.fract() == 0.0 && f.abs() < EXACT_INTEGERS {
        return Some(Number::from(f as i64));
    }
    if !f.is_finite() {
        return None;
    }
    let mut text = StackText::default();
    if let Some((m, k)) = short_decimal(f) {
        write!(text, "{m}e-{k}").ok()?;
        return Number::parse(text.as_str()).ok();
    }
    write!(text, "{f:e}").ok()?;
    // Of the shortest decimals that read back as `f`, JavaScript and Python
    // take the one nearest `f`'s exact value, the even one of two as near
    // (255908966064453.125 is 255908966064453.12); the standard library's
    // shortest may be the other. `f` rounded to as many digits is the
    // nearest, ties to even: it is taken when it reads back as `f`.
    let digits = text
        .as_str()
        .split('e')
        .next()
        .map_or(0, |m| m.bytes().filter(u8::is_ascii_digit).count());
    let mut nearest = StackText::default();
    if digits > 1
        && write!(nearest, "{:.*e}", digits - 1, f).is_ok()
        && nearest.as_str().parse::<f64>() == Ok(f)
    {
        return Number::parse(nearest.as_str()).ok();
    }
    Number::parse(text.as_str()).ok()
}

/// For a short decimal `f` (see [`from_f64`]), the integer `m` and the
/// smallest `k >= 1` with `m / 10^k == f`.
fn short_decimal(f: f64) -> Option<(i64, usize)> {
    for (k, &p) in POW10.iter().enumerate().skip(1) {
        let scaled = f * p;
        if scaled.abs() >= UNIQUE_BELOW {
            return None;
        }
        let m = scaled.round();
        if m / p == f {
            return Some((m as i64, k));
        }
    }
    None
}

/// Appends the canonical text of [`from_f64`]`(f)` to `out`, as
/// [`Number::write_to`] writes it, and says whether `f` is finite.
///
/// Without making the number: whole numbers and short decimals written
/// without an exponent (the most of any data) are laid out here, from the
/// digits [`from_f64`] finds, as the canonical text lays them out (digits
/// with the point inside, or `0.` and zeros before them, from `1e-6` on).
pub fn write_f64(f: f64, out: &mut Vec<u8>) -> bool {
    if f.fract() == 0.0 && f.abs() < EXACT_INTEGERS {
        Number::from(f as i64).write_to(out);
        return true;
    }
    if f.is_finite()
        && let Some((m, k)) = short_decimal(f)
    {
        let mut buf = [0u8; 20];
        let digits = decimal_digits(m.unsigned_abs(), &mut buf);
        // Where the point goes, counted from the first digit.
        let point = digits.len() as i64 - k as i64;
        if point > -6 {
            if m < 0 {
                out.push(b'-');
            }
            if point > 0 {
                let (int, frac) = digits.split_at(point as usize);
                out.extend_from_slice(int);
                out.push(b'.');
                out.extend_from_slice(frac);
            } else {
                out.extend_from_slice(b"0.");
                out.resize(out.len() + (-point) as usize, b'0');
                out.extend_from_slice(digits);
            }
            return true;
        }
    }
    match from_f64(f) {
        Some(n) => {
            n.write_to(out);
            true
        }
        None => false,
    }
}

/// The decimal digits of `n`, written at the end of `buf`.
fn decimal_digits(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[at..];
        }
    }
}

/// A short text on the stack: the longest `{:e}` of an `f64` is 24 bytes.
#[derive(Default)]
struct StackText {
    buf: [u8; 32],
    len: usize,
}

impl StackText {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let dest = self.buf.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        dest.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn of_two_shortest_decimals_the_nearer_even_one_is_taken() {
        // JavaScript's String(x) and Python's repr; Rust's `{:e}` gives …313e14.
        for (f, text) in [
            // 255908966064453.125 exactly, halfway between the two.
            (2_047_271_728_515_625.0 / 8.0, "255908966064453.12"),
            (-2_047_271_728_515_625.0 / 8.0, "-255908966064453.12"),
            (0.1 + 0.2, "0.30000000000000004"),
            (5e-324, "5e-324"),
            (1e23, "1e+23"),
        ] {
            let mut out = Vec::new();
            from_f64(f).unwrap().write_to(&mut out);
            assert_eq!(String::from_utf8(out).unwrap(), text, "{f:e}");
        }
    }

    #[test]
    fn write_f64_writes_the_canonical_text_of_from_f64() {
        let mut doubles = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            956.02,
            -441.48,
            25.2,
            0.1,
            0.2 + 0.1,
            1e-6,
            1.5e-6,
            1e-7,
            1.5e-7,
            0.000001234,
            123456.789,
            1e15 + 0.5,
            1e21,
            1e22,
            1.5e300,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            9007199254740993.0,
            4503599627370495.5,
            0.3,
            2.0f64.powi(52) + 0.5,
            1.0 / 3.0,
            -2.5e-5,
            12345678.12345678,
        ];
        // Short decimals of every length and scale, and random bit patterns.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let scale = POW10[(x % 16) as usize];
            doubles.push((x >> 20) as f64 % 1e9 / scale);
            doubles.push(-((x >> 40) as f64) / scale);
            doubles.push(f64::from_bits(x));
        }
        for f in doubles {
            let mut mine = Vec::new();
            let finite = write_f64(f, &mut mine);
            let mut theirs = Vec::new();
            if let Some(n) = from_f64(f) {
                n.write_to(&mut theirs);
            }
            assert_eq!(finite, f.is_finite(), "{f:e}");
            assert_eq!(
                String::from_utf8(mine).unwrap(),
                String::from_utf8(theirs).unwrap(),
                "{f:e}"
            );
        }
    }

    fn num(text: &str) -> Number {
        Number::parse(text).unwrap()
    }

    #[test]
    fn integers_are_spelled_out_up_to_the_limit() {
        assert_eq!(decoded(&num("-42"), 10), Decoded::Small(-42));
        assert_eq!(
            decoded(&num("9223372036854775808"), 100),
            Decoded::Digits("9223372036854775808".into())
        );
        assert_eq!(
            decoded(&num("1e30"), 100),
            Decoded::Digits(format!("1{}", "0".repeat(30)))
        );
        assert_eq!(
            decoded(&num("-1.25e25"), 100),
            Decoded::Digits(format!("-125{}", "0".repeat(23)))
        );
        assert_eq!(decoded(&num("1e30"), 30), Decoded::Text("1e+30".into()));
        assert_eq!(
            decoded(&num("1.5e300"), 4300),
            Decoded::Digits(format!("15{}", "0".repeat(299)))
        );
        assert_eq!(
            decoded(&num("1e999999999"), 4300),
            Decoded::Text("1e+999999999".into())
        );
    }

    #[test]
    fn whole_numbers_split_into_written_digits_and_zeros() {
        let w = whole(&num("-1.25e25")).unwrap();
        assert_eq!(
            w,
            Whole {
                mantissa: "-125".into(),
                zeros: 23
            }
        );
        assert_eq!(w.digits(), 26);
        assert_eq!(w.spelled(), format!("-125{}", "0".repeat(23)));
        // A billion digits, told without spelling one of them out.
        let huge = whole(&num("1e999999999")).unwrap();
        assert_eq!(huge.digits(), 1_000_000_000);
        assert_eq!(huge.mantissa, "1");
        let plain = whole(&num("18446744073709551616")).unwrap();
        assert_eq!((plain.zeros, plain.digits()), (0, 20));
        assert_eq!(plain.spelled(), "18446744073709551616");
        for fraction in ["0.5", "1.5e-300", "1.25e1", "-7.5"] {
            assert_eq!(whole(&num(fraction)), None, "{fraction}");
        }
    }

    #[test]
    fn the_digit_allowance_grows_with_the_text() {
        assert_eq!(digit_allowance(0), 100_000);
        assert_eq!(digit_allowance(8), 100_064);
        assert!(digit_allowance(usize::MAX) > digit_allowance(1 << 20));
        // `1e999999` (8 bytes) stands for more digits than its text allows;
        // the same digits written out do not.
        assert!(whole(&num("1e999999")).unwrap().digits() > digit_allowance(8));
        assert!(1_000_000 <= digit_allowance(1_000_000));
    }

    #[test]
    fn fractions_keep_their_text() {
        for (lit, text) in [
            ("0.1", "0.1"),
            ("1.5e-300", "1.5e-300"),
            (
                "123456789012345678901234567890.5",
                "1.234567890123456789012345678905e+29",
            ),
            ("1e-7", "1e-7"),
        ] {
            assert_eq!(decoded(&num(lit), 4300), Decoded::Text(text.into()));
        }
    }

    #[test]
    fn byte_conversions_are_inverse() {
        for digits in [
            "0",
            "1",
            "255",
            "256",
            "18446744073709551616",
            &"9".repeat(500),
        ] {
            let le = le_bytes_of_digits(digits);
            assert_eq!(digits_of_le_bytes(&le), digits);
        }
        assert_eq!(le_bytes_of_digits("65536"), vec![0, 0, 1]);
        assert_eq!(digits_of_le_bytes(&[0, 0, 1]), "65536");
    }

    /// The short-decimal path gives what the shortest round-trip writer
    /// gives (the nearer of two shortest), on short decimals and on doubles
    /// of every bit pattern.
    #[test]
    fn the_fast_path_agrees_with_the_shortest_writer() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut rand = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for i in 0..400_000u64 {
            let f = match i % 4 {
                0 => f64::from_bits(rand()),
                1 => (rand() % 100_000_000) as f64 / POW10[(rand() % 10) as usize],
                2 => -((rand() % 1_000_000_000_000) as f64) / POW10[(rand() % 16) as usize],
                _ => (rand() % 1000) as f64 * 0.01 + (rand() % 7) as f64 * 1e-9,
            };
            if !f.is_finite() {
                continue;
            }
            // The shortest digits, the nearer of two (see from_f64).
            let shortest = format!("{f:e}");
            let digits = shortest
                .split('e')
                .next()
                .unwrap()
                .bytes()
                .filter(u8::is_ascii_digit)
                .count();
            let nearest = format!("{:.*e}", digits.max(1) - 1, f);
            let text = if nearest.parse::<f64>() == Ok(f) {
                nearest
            } else {
                shortest
            };
            let want = Number::parse(&text).unwrap();
            assert_eq!(from_f64(f), Some(want), "{f:e}");
        }
    }

    #[test]
    fn doubles_are_their_shortest_decimals() {
        for (f, text) in [
            (0.1, "0.1"),
            (956.02, "956.02"),
            (9007199254740992.0, "9007199254740992"),
            (-1.5e-7, "-1.5e-7"),
            (5e-324, "5e-324"),
            (-0.0, "0"),
            (1e300, "1e300"),
        ] {
            assert_eq!(from_f64(f), Some(Number::parse(text).unwrap()), "{f}");
        }
        assert_eq!(from_f64(f64::NAN), None);
        assert_eq!(from_f64(f64::NEG_INFINITY), None);
    }
}
