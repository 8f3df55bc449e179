//! [`value!`](crate::value!): a [`Value`] from JSON-like syntax, as
//! serde_json's `json!` builds one, with numbers exact.

use super::Value;
use crate::number::Number;

/// Builds a [`Value`](crate::Value) from JSON-like syntax, as serde_json's
/// `json!` does.
///
/// * `null`, `true`, `false`, string and number literals;
/// * arrays `[..]` and objects `{..}`, nested to any depth, trailing
///   commas allowed;
/// * any Rust expression whose type converts into a `Value` (`From`), as
///   a value, and any expression that converts into a `String`, as a key.
///
/// Keys keep the order they are written in; a key written twice keeps its
/// first place and takes the last value (as [`Map::insert`](crate::Map::insert)
/// does).
///
/// A number literal is the number its digits write, exactly: `0.1` is the
/// decimal 0.1 and `9007199254740993.0` is not rounded to an `f64` (the
/// digits are read from the literal's text; underscores and an `f32` or
/// `f64` suffix are ignored). An integer literal beyond `i32` needs a
/// suffix (`10_000_000_000u64`), as in any Rust code that does not fix the
/// type. Numbers that come from expressions convert with `From`: integers
/// exactly, floats as their shortest decimal, NaN and the infinities as
/// `null`.
///
/// ```
/// use pith::value;
///
/// let name = "Ada";
/// let ids = vec![1, 2, 3];
/// let v = value!({
///     "name": name,
///     "ids": ids.clone(),
///     "ratio": 0.1,
///     "big": 9007199254740993u64,
///     "exact": 123456789.123456789123456789,
///     "next": ids.len() + 1,
///     "owner": { "admin": true, "team": null },
///     "tags": ["x", -1, [], {}],
/// });
/// assert_eq!(
///     v.to_string(),
///     concat!(
///         r#"{"name":"Ada","ids":[1,2,3],"ratio":0.1,"big":9007199254740993,"#,
///         r#""exact":123456789.123456789123456789,"next":4,"#,
///         r#""owner":{"admin":true,"team":null},"tags":["x",-1,[],{}]}"#,
///     )
/// );
/// ```
///
/// As with `json!`, a value that holds a comma outside brackets (a closure
/// `|a, b| ..`, a turbofish with two parameters) goes in parentheses. An
/// array or object whose elements, keys and values are one token each
/// (literals, names, nested brackets) takes one macro step whatever its
/// length; otherwise each member of more than one token (`-1`, `x + 1`)
/// takes a step per token, so a long literal of those may need a higher
/// `#![recursion_limit]`.
#[macro_export]
macro_rules! value {
    ($($value:tt)+) => {
        $crate::__value!(@one $($value)+)
    };
}

/// The rules behind [`value!`]; not a public interface.
#[doc(hidden)]
#[macro_export]
macro_rules! __value {
    // ---- One value, all its tokens given.
    (@one null) => {
        $crate::Value::Null
    };
    (@one []) => {
        $crate::Value::Array(::std::vec::Vec::new())
    };
    // Arrays of one-token elements (literals, names, nested brackets) in
    // one step, whatever their length.
    (@one [ $($item:tt),+ $(,)? ]) => {
        $crate::Value::Array(::std::vec![$($crate::__value!(@one $item)),+])
    };
    (@one [ $($items:tt)+ ]) => {
        $crate::Value::Array($crate::__value!(@array [] () $($items)+))
    };
    (@one {}) => {
        $crate::Value::Object($crate::Map::new())
    };
    // Objects of one-token keys and values in one step.
    (@one { $($key:tt : $value:tt),+ $(,)? }) => {
        $crate::Value::Object({
            let mut map = $crate::Map::new();
            $(let _ = map.insert($key, $crate::__value!(@one $value));)+
            map
        })
    };
    (@one { $($members:tt)+ }) => {
        $crate::Value::Object({
            let mut map = $crate::Map::new();
            $crate::__value!(@object map () $($members)+);
            map
        })
    };
    (@one $single:tt) => {
        $crate::__value!(@single $single)
    };
    (@one - $single:tt) => {
        $crate::__value!(@negative $single)
    };
    (@one $other:expr) => {
        $crate::Value::from($other)
    };

    // ---- A one-token value: a literal keeps its text, anything else converts.
    (@single $literal:literal) => {
        $crate::value::__literal($literal, ::std::stringify!($literal))
    };
    (@single $other:expr) => {
        $crate::Value::from($other)
    };
    (@negative $literal:literal) => {
        $crate::value::__literal(-$literal, ::std::concat!("-", ::std::stringify!($literal)))
    };
    (@negative $other:expr) => {
        $crate::Value::from(-$other)
    };

    // ---- Array elements: @array [finished elements] (current tokens) rest.
    (@array [$($done:expr,)*] ()) => {
        ::std::vec![$($done),*]
    };
    (@array [$($done:expr,)*] ($($current:tt)+)) => {
        ::std::vec![$($done,)* $crate::__value!(@one $($current)+)]
    };
    (@array [$($done:expr,)*] () , $($rest:tt)*) => {
        ::std::compile_error!("value!: expected an element before `,`")
    };
    // Eight one-token elements a step, then one.
    (@array [$($done:expr,)*] ()
        $a:tt , $b:tt , $c:tt , $d:tt , $e:tt , $f:tt , $g:tt , $h:tt , $($rest:tt)*) => {
        $crate::__value!(@array [
            $($done,)*
            $crate::__value!(@one $a), $crate::__value!(@one $b),
            $crate::__value!(@one $c), $crate::__value!(@one $d),
            $crate::__value!(@one $e), $crate::__value!(@one $f),
            $crate::__value!(@one $g), $crate::__value!(@one $h),
        ] () $($rest)*)
    };
    (@array [$($done:expr,)*] () $item:tt , $($rest:tt)*) => {
        $crate::__value!(@array [$($done,)* $crate::__value!(@one $item),] () $($rest)*)
    };
    (@array [$($done:expr,)*] ($($current:tt)+) , $($rest:tt)*) => {
        $crate::__value!(@array [$($done,)* $crate::__value!(@one $($current)+),] () $($rest)*)
    };
    (@array [$($done:expr,)*] ($($current:tt)*) $next:tt $($rest:tt)*) => {
        $crate::__value!(@array [$($done,)*] ($($current)* $next) $($rest)*)
    };

    // ---- Object members: @object map (key tokens) rest.
    (@object $map:ident ()) => {};
    (@object $map:ident () , $($rest:tt)*) => {
        ::std::compile_error!("value!: expected a key before `,`")
    };
    (@object $map:ident () : $($rest:tt)*) => {
        ::std::compile_error!("value!: expected a key before `:`")
    };
    // A one-token key and a one-token value in one step.
    (@object $map:ident () $key:tt : $value:tt $(, $($rest:tt)*)?) => {
        let _ = $map.insert($key, $crate::__value!(@one $value));
        $crate::__value!(@object $map () $($($rest)*)?);
    };
    (@object $map:ident ($($key:tt)+) : $($rest:tt)*) => {
        $crate::__value!(@member $map ($($key)+) () $($rest)*);
    };
    (@object $map:ident ($($key:tt)+)) => {
        ::std::compile_error!("value!: expected `:` and a value after the key")
    };
    (@object $map:ident ($($key:tt)*) $next:tt $($rest:tt)*) => {
        $crate::__value!(@object $map ($($key)* $next) $($rest)*);
    };

    // ---- A member's value: @member map (key) (value tokens) rest.
    (@member $map:ident ($($key:tt)+) () $(, $($rest:tt)*)?) => {
        ::std::compile_error!("value!: expected a value after `:`")
    };
    (@member $map:ident ($($key:tt)+) ($($value:tt)+) , $($rest:tt)*) => {
        let _ = $map.insert(($($key)+), $crate::__value!(@one $($value)+));
        $crate::__value!(@object $map () $($rest)*);
    };
    (@member $map:ident ($($key:tt)+) ($($value:tt)+)) => {
        let _ = $map.insert(($($key)+), $crate::__value!(@one $($value)+));
    };
    (@member $map:ident ($($key:tt)+) ($($value:tt)*) $next:tt $($rest:tt)*) => {
        $crate::__value!(@member $map ($($key)+) ($($value)* $next) $($rest)*);
    };
}

/// A literal written in [`value!`], with its source text.
#[doc(hidden)]
pub trait Literal {
    /// The value; `text` is the literal as written (`-` included).
    fn into_value(self, text: &str) -> Value;
}

/// [`value!`]'s literal rule: numbers from their digits, the rest by type.
#[doc(hidden)]
pub fn __literal<T: Literal>(literal: T, text: &str) -> Value {
    literal.into_value(text)
}

impl Literal for &str {
    fn into_value(self, _: &str) -> Value {
        Value::from(self)
    }
}

impl Literal for bool {
    fn into_value(self, _: &str) -> Value {
        Value::Bool(self)
    }
}

impl Literal for char {
    fn into_value(self, _: &str) -> Value {
        Value::String(self.to_string())
    }
}

macro_rules! integer_literal {
    ($($t:ty)*) => {$(
        impl Literal for $t {
            /// Integers are exact whatever their notation (`0xff`, `1_000`).
            fn into_value(self, _: &str) -> Value {
                Value::from(self)
            }
        }
    )*};
}
integer_literal!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);

impl Literal for f64 {
    fn into_value(self, text: &str) -> Value {
        decimal(text).map_or_else(|| Value::from(self), Value::Number)
    }
}

impl Literal for f32 {
    fn into_value(self, text: &str) -> Value {
        decimal(text).map_or_else(|| Value::from(self), Value::Number)
    }
}

/// The exact number a float literal's text writes (`-1_000.5e3f64`), or
/// `None` if the text is not one.
fn decimal(text: &str) -> Option<Number> {
    let mut digits: String = text
        .chars()
        .filter(|c| *c != '_' && !c.is_whitespace())
        .collect();
    for suffix in ["f32", "f64"] {
        if let Some(rest) = digits.strip_suffix(suffix) {
            digits.truncate(rest.len());
        }
    }
    // `1.` is a Rust float literal; the JSON grammar wants a digit after the point.
    if digits.ends_with('.') {
        digits.push('0');
    }
    Number::parse(&digits).ok()
}

#[cfg(test)]
mod tests {
    use crate::{Map, Number, Value};

    fn n(text: &str) -> Value {
        Value::Number(Number::parse(text).unwrap())
    }

    #[test]
    fn literals_are_exact() {
        assert_eq!(value!(0.1), n("0.1"));
        assert_eq!(value!(-0.1), n("-0.1"));
        assert_eq!(value!(9007199254740993.0), n("9007199254740993"));
        assert_eq!(value!(1e-400), n("1e-400"));
        assert_eq!(value!(1_000.25_f32), n("1000.25"));
        assert_eq!(value!(16777217f32), n("16777217"));
        assert_eq!(value!(2.), n("2"));
        assert_eq!(value!(-1e3), n("-1000"));
        assert_eq!(value!(0xff), n("255"));
        assert_eq!(value!(-128i8), n("-128"));
        assert_eq!(value!(u128::MAX), n(&u128::MAX.to_string()));
        assert_eq!(
            value!(340282366920938463463374607431768211455u128),
            n(&u128::MAX.to_string())
        );
        assert_eq!(value!('é'), Value::from("é"));
        assert_eq!(value!("a\"b"), Value::from("a\"b"));
        assert_eq!(value!(true), Value::Bool(true));
        assert_eq!(value!(null), Value::Null);
    }

    #[test]
    fn expressions_convert_with_from() {
        let x = 0.1f64 + 0.2;
        let neg = 5;
        let name = String::from("k");
        let name_len = name.len();
        assert_eq!(value!(x), n("0.30000000000000004"));
        assert_eq!(value!(-neg), n("-5"));
        assert_eq!(value!(-neg + 1), n("-4"));
        assert_eq!(value!(f64::NAN), Value::Null);
        assert_eq!(value!(Some("s")), Value::from("s"));
        assert_eq!(value!((1..=3).collect::<Vec<i32>>()), value!([1, 2, 3]));
        assert_eq!(value!({ name.as_str(): 1 }), value!({ "k": 1 }));
        assert_eq!(value!({ (name.clone() + "2"): -1, }), value!({ "k2": -1 }));
        assert_eq!(value!({ name: [name_len] }), value!({ "k": [1] }));
        let nested = value!([1]);
        assert_eq!(
            value!({ "n": nested.clone(), "m": [nested] }),
            value!({"n": [1], "m": [[1]]})
        );
    }

    #[test]
    fn containers_nest_keep_order_and_take_trailing_commas() {
        let v = value!({
            "z": [1, [2, [3, {}]], -4, 5 + 1,],
            "a": { "b": { "c": [] }, },
            "m": 1,
            "z": "again",
        });
        assert_eq!(v.to_string(), r#"{"z":"again","a":{"b":{"c":[]}},"m":1}"#);
        let keys: Vec<&crate::Key> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["z", "a", "m"]);
        assert_eq!(value!([]), Value::Array(vec![]));
        assert_eq!(value!({}), Value::Object(Map::new()));
        assert_eq!(value!([[], {}]).to_string(), "[[],{}]");
        assert_eq!(value!([-1, 2, -3]).to_string(), "[-1,2,-3]");
        assert_eq!(value!([1 + 1, -2]).to_string(), "[2,-2]");
    }

    #[test]
    fn long_literals_stay_under_the_default_recursion_limit() {
        // Each would pass the default limit of 128 steps if every element or
        // member took a step of its own (a `-0` sends the array down the
        // general path, which takes eight one-token elements a step).
        let singles = value!([
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8,
            9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7,
            8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6,
            7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5,
            6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4,
            5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3,
            4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2,
            3, 4, 5, 6, 7, 8, 9
        ]);
        assert_eq!(singles.as_array().unwrap().len(), 210);
        let mixed = value!([
            -0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7,
            8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6,
            7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5,
            6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4,
            5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3,
            4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2,
            3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1,
            2, 3, 4, 5, 6, 7, 8
        ]);
        assert_eq!(mixed.as_array().unwrap().len(), 210);
        assert_eq!(mixed[0], value!(0));
        assert_eq!(mixed[209], value!(8));
        let wide = value!({
            "k0": 0, "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8,
            "k9": 9, "k10": 10, "k11": 11, "k12": 12, "k13": 13, "k14": 14, "k15": 15, "k16":
            16, "k17": 17, "k18": 18, "k19": 19, "k20": 20, "k21": 21, "k22": 22, "k23": 23,
            "k24": 24, "k25": 25, "k26": 26, "k27": 27, "k28": 28, "k29": 29, "k30": 30, "k31":
            31, "k32": 32, "k33": 33, "k34": 34, "k35": 35, "k36": 36, "k37": 37, "k38": 38,
            "k39": 39, "k40": 40, "k41": 41, "k42": 42, "k43": 43, "k44": 44, "k45": 45, "k46":
            46, "k47": 47, "k48": 48, "k49": 49, "k50": 50, "k51": 51, "k52": 52, "k53": 53,
            "k54": 54, "k55": 55, "k56": 56, "k57": 57, "k58": 58, "k59": 59, "k60": 60, "k61":
            61, "k62": 62, "k63": 63, "k64": 64, "k65": 65, "k66": 66, "k67": 67, "k68": 68,
            "k69": 69, "k70": 70, "k71": 71, "k72": 72, "k73": 73, "k74": 74, "k75": 75, "k76":
            76, "k77": 77, "k78": 78, "k79": 79, "k80": 80, "k81": 81, "k82": 82, "k83": 83,
            "k84": 84, "k85": 85, "k86": 86, "k87": 87, "k88": 88, "k89": 89, "k90": 90, "k91":
            91, "k92": 92, "k93": 93, "k94": 94, "k95": 95, "k96": 96, "k97": 97, "k98": 98,
            "k99": 99, "k100": 100, "k101": 101, "k102": 102, "k103": 103, "k104": 104, "k105":
            105, "k106": 106, "k107": 107, "k108": 108, "k109": 109, "k110": 110, "k111": 111,
            "k112": 112, "k113": 113, "k114": 114, "k115": 115, "k116": 116, "k117": 117,
            "k118": 118, "k119": 119, "k120": 120, "k121": 121, "k122": 122, "k123": 123,
            "k124": 124, "k125": 125, "k126": 126, "k127": 127, "k128": 128, "k129": 129
        });
        assert_eq!(wide.as_object().unwrap().len(), 130);
        assert_eq!(wide["k129"], value!(129));
        assert_eq!(wide.as_object().unwrap().index_of("k70"), Some(70));
    }
}
