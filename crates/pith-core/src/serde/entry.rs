//! serde's usual entry points over both texts, re-exported as
//! `pith::json::{to_string, to_writer, to_vec, from_str, from_slice,
//! from_reader, …}`
//! and `pith::toon::{to_string, to_writer, to_vec, from_str, from_slice,
//! from_reader}`: each goes through a [`Value`](crate::Value), so numbers
//! keep their exact value and every rule of [`to_value`](crate::to_value)
//! and [`from_value`](crate::from_value) holds.

use crate::{Error, Result, from_value, to_value};
use ::serde::Serialize;
use ::serde::de::DeserializeOwned;
use std::io::{Read, Write};

/// All of `reader`, for the `from_reader` functions; a read error is an
/// [`ErrorKind::Io`](crate::ErrorKind::Io) error.
fn read_all<R: Read>(mut reader: R) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes).map_err(Error::io)?;
    Ok(bytes)
}

pub(crate) mod json {
    use super::*;
    use crate::json::{parse, parse_bytes, stringify, stringify_pretty, write_into, write_to};

    /// Serializes `value` with serde into compact JSON: the text
    /// [`json::stringify`](crate::json::stringify) writes for its
    /// [`Value`](crate::Value), numbers exact at any size. Fails only where
    /// [`to_value`](crate::to_value) does: a map key JSON cannot hold or a
    /// `Serialize` impl that fails ([`ErrorKind::Unrepresentable`](crate::ErrorKind::Unrepresentable)),
    /// a key yielded twice ([`ErrorKind::DuplicateKey`](crate::ErrorKind::DuplicateKey)).
    ///
    /// For a `Value` already in hand, [`json::stringify`](crate::json::stringify)
    /// writes the same text without the copy serde makes and cannot fail.
    ///
    /// ```
    /// #[derive(serde::Serialize)]
    /// struct Row { id: u64, price: f64, tags: Vec<&'static str> }
    ///
    /// let row = Row { id: u64::MAX, price: 0.1, tags: vec!["a"] };
    /// assert_eq!(
    ///     pith::json::to_string(&row)?,
    ///     r#"{"id":18446744073709551615,"price":0.1,"tags":["a"]}"#
    /// );
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String> {
        Ok(stringify(&to_value(value)?))
    }

    /// As [`to_string`], indented by two spaces as serde_json indents
    /// (the text of `JSON.stringify(value, null, 2)` and of `pith decode
    /// --pretty`); for another indent, [`json::stringify_pretty`](crate::json::stringify_pretty).
    ///
    /// ```
    /// let text = pith::json::to_string_pretty(&[("a", 1)])?;
    /// assert_eq!(text, "[\n  [\n    \"a\",\n    1\n  ]\n]");
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> Result<String> {
        Ok(stringify_pretty(&to_value(value)?, 2))
    }

    /// Serializes `value` with serde and writes it to `writer` as compact
    /// JSON (the bytes [`to_string`] gives), then flushes it.
    ///
    /// ```
    /// #[derive(serde::Serialize)]
    /// struct Row { id: u32, tags: Vec<&'static str> }
    ///
    /// let mut out = Vec::new();
    /// pith::json::to_writer(&mut out, &Row { id: 1, tags: vec!["a"] })?;
    /// assert_eq!(out, br#"{"id":1,"tags":["a"]}"#);
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn to_writer<W: Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<()> {
        write_to(&to_value(value)?, writer, None)
    }

    /// As [`to_writer`], indented by two spaces (the text of
    /// [`to_string_pretty`]).
    ///
    /// ```
    /// let mut out = Vec::new();
    /// pith::json::to_writer_pretty(&mut out, &std::collections::BTreeMap::from([("id", [7])]))?;
    /// assert_eq!(out, b"{\n  \"id\": [\n    7\n  ]\n}");
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn to_writer_pretty<W: Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<()> {
        write_to(&to_value(value)?, writer, Some(2))
    }

    /// Serializes `value` with serde into compact JSON bytes (those of
    /// [`to_string`]).
    ///
    /// ```
    /// let bytes = pith::json::to_vec(&(1, "a", [0.5]))?;
    /// assert_eq!(bytes, br#"[1,"a",[0.5]]"#);
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        write_into(&to_value(value)?, &mut out);
        Ok(out)
    }

    /// Serializes `value` with serde into JSON bytes indented by two
    /// spaces (those of [`to_string_pretty`]).
    ///
    /// ```
    /// assert_eq!(pith::json::to_vec_pretty(&[Some(1), None])?, b"[\n  1,\n  null\n]");
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn to_vec_pretty<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
        to_string_pretty(value).map(String::into_bytes)
    }

    /// Reads JSON (as [`json::parse`](crate::json::parse) does: exact,
    /// strict) and deserializes it with serde.
    ///
    /// ```
    /// #[derive(serde::Deserialize, Debug, PartialEq)]
    /// struct Row { id: u64, name: String }
    ///
    /// let row: Row = pith::json::from_str(r#"{"id": 9007199254740993, "name": "Ada"}"#)?;
    /// assert_eq!(row, Row { id: 9007199254740993, name: "Ada".into() });
    /// let err = pith::json::from_str::<Row>(r#"{"id": 1, "id": 2}"#).unwrap_err();
    /// assert_eq!(err.kind(), pith::ErrorKind::DuplicateKey);
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T> {
        from_value(parse(text)?)
    }

    /// Reads JSON from bytes, which must be UTF-8 (as
    /// [`json::parse_bytes`](crate::json::parse_bytes)), and deserializes it.
    ///
    /// ```
    /// let pair: (String, f64) = pith::json::from_slice(br#"["half", 0.5]"#)?;
    /// assert_eq!(pair, ("half".to_owned(), 0.5));
    /// let err = pith::json::from_slice::<String>(b"\"\xff\"").unwrap_err();
    /// assert_eq!(err.kind(), pith::ErrorKind::InvalidUtf8);
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
        from_value(parse_bytes(bytes)?)
    }

    /// Reads all of `reader` as JSON (see [`from_slice`]) and deserializes
    /// it; a read error is an [`ErrorKind::Io`](crate::ErrorKind::Io)
    /// error.
    ///
    /// ```
    /// let ids: Vec<u8> = pith::json::from_reader(&b"[1, 2, 3]"[..])?;
    /// assert_eq!(ids, [1, 2, 3]);
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn from_reader<R: Read, T: DeserializeOwned>(reader: R) -> Result<T> {
        from_slice(&read_all(reader)?)
    }
}

pub(crate) mod toon {
    use super::*;
    use crate::toon::{
        DecodeOptions, EncodeOptions, decode, decode_bytes, encode, encode_into, encode_to,
    };

    /// Serializes `value` with serde and writes it as TOON (spec 4.x,
    /// default [`EncodeOptions`]); the same as [`pith::to_string`](crate::to_string).
    ///
    /// ```
    /// #[derive(serde::Serialize)]
    /// struct Row { id: u32, name: &'static str }
    ///
    /// let rows = [Row { id: 1, name: "Ada" }, Row { id: 2, name: "Bob" }];
    /// assert_eq!(pith::toon::to_string(&rows)?, "[2]{id,name}:\n  1,Ada\n  2,Bob");
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String> {
        encode(&to_value(value)?, &EncodeOptions::default())
    }

    /// Serializes `value` with serde into TOON bytes (see [`to_string`]).
    ///
    /// ```
    /// assert_eq!(pith::toon::to_vec(&[1, 2, 3])?, b"[3]: 1,2,3");
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        encode_into(&to_value(value)?, &EncodeOptions::default(), &mut out)?;
        Ok(out)
    }

    /// Serializes `value` with serde and writes it to `writer` as TOON (see
    /// [`to_string`]), then flushes it.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// pith::toon::to_writer(&mut out, &[("a", 1), ("b", 2)])?;
    /// assert_eq!(out, b"[2]:\n  - [2]: a,1\n  - [2]: b,2");
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn to_writer<W: Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<()> {
        encode_to(&to_value(value)?, &EncodeOptions::default(), writer)
    }

    /// Reads TOON (spec 4.x, strict: default [`DecodeOptions`]) and
    /// deserializes it with serde; the same as [`pith::from_str`](crate::from_str).
    ///
    /// ```
    /// #[derive(serde::Deserialize, Debug, PartialEq)]
    /// struct Row { id: u32, name: String }
    ///
    /// let rows: Vec<Row> = pith::toon::from_str("[2]{id,name}:\n  1,Ada\n  2,Bob")?;
    /// assert_eq!(rows[1], Row { id: 2, name: "Bob".into() });
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T> {
        from_value(decode(text, &DecodeOptions::default())?)
    }

    /// Reads TOON from bytes, which must be UTF-8 (as
    /// [`toon::decode_bytes`](crate::toon::decode_bytes)), and deserializes it.
    ///
    /// ```
    /// let ids: Vec<u32> = pith::toon::from_slice(b"[3]: 1,2,3")?;
    /// assert_eq!(ids, [1, 2, 3]);
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
        from_value(decode_bytes(bytes, &DecodeOptions::default())?)
    }

    /// Reads all of `reader` as TOON (see [`from_slice`]) and deserializes
    /// it; a read error is an [`ErrorKind::Io`](crate::ErrorKind::Io)
    /// error.
    ///
    /// ```
    /// let v: std::collections::BTreeMap<String, u32> = pith::toon::from_reader(&b"a: 1\nb: 2"[..])?;
    /// assert_eq!(v["b"], 2);
    /// # Ok::<(), pith::Error>(())
    /// ```
    pub fn from_reader<R: Read, T: DeserializeOwned>(reader: R) -> Result<T> {
        from_slice(&read_all(reader)?)
    }
}

#[cfg(test)]
mod tests {
    use crate::ErrorKind;
    use std::io::{self, Read, Write};

    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Row {
        id: u64,
        price: f64,
        tags: Vec<String>,
    }

    fn rows() -> Vec<Row> {
        vec![
            Row {
                id: 1,
                price: 2.5,
                tags: vec!["a".into()],
            },
            Row {
                id: u64::MAX,
                price: 0.1,
                tags: vec![],
            },
        ]
    }

    /// A reader or writer that fails after `left` bytes.
    struct Broken {
        left: usize,
    }

    impl Read for Broken {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.left == 0 {
                return Err(io::Error::other("the pipe broke"));
            }
            let n = buf.len().min(self.left);
            buf[..n].fill(b' ');
            self.left -= n;
            Ok(n)
        }
    }

    impl Write for Broken {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.left == 0 {
                return Err(io::Error::other("the pipe broke"));
            }
            let n = buf.len().min(self.left);
            self.left -= n;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn json_entry_points_agree_with_each_other_and_round_trip() {
        let text = r#"[{"id":1,"price":2.5,"tags":["a"]},{"id":18446744073709551615,"price":0.1,"tags":[]}]"#;
        assert_eq!(super::json::to_string(&rows()).unwrap(), text);
        assert_eq!(super::json::to_vec(&rows()).unwrap(), text.as_bytes());
        let mut out = Vec::new();
        super::json::to_writer(&mut out, &rows()).unwrap();
        assert_eq!(out, text.as_bytes());
        let mut pretty = Vec::new();
        super::json::to_writer_pretty(&mut pretty, &rows()).unwrap();
        let value = crate::json::parse(text).unwrap();
        assert_eq!(pretty, crate::json::stringify_pretty(&value, 2).as_bytes());
        assert_eq!(super::json::to_vec_pretty(&rows()).unwrap(), pretty);
        assert_eq!(
            super::json::to_string_pretty(&rows()).unwrap().as_bytes(),
            pretty
        );
        // A `Value` goes through serde to the text it writes itself.
        assert_eq!(super::json::to_string(&value).unwrap(), text);
        assert_eq!(value.to_string(), text);
        assert_eq!(super::json::from_str::<Vec<Row>>(text).unwrap(), rows());
        assert_eq!(
            super::json::from_slice::<Vec<Row>>(text.as_bytes()).unwrap(),
            rows()
        );
        assert_eq!(
            super::json::from_reader::<_, Vec<Row>>(text.as_bytes()).unwrap(),
            rows()
        );
    }

    #[test]
    fn toon_entry_points_agree_with_each_other_and_round_trip() {
        let text = crate::to_string(&rows()).unwrap();
        assert_eq!(super::toon::to_string(&rows()).unwrap(), text);
        assert_eq!(super::toon::to_vec(&rows()).unwrap(), text.as_bytes());
        let mut out = Vec::new();
        super::toon::to_writer(&mut out, &rows()).unwrap();
        assert_eq!(out, text.as_bytes());
        assert_eq!(super::toon::from_str::<Vec<Row>>(&text).unwrap(), rows());
        assert_eq!(crate::from_str::<Vec<Row>>(&text).unwrap(), rows());
        assert_eq!(
            super::toon::from_slice::<Vec<Row>>(text.as_bytes()).unwrap(),
            rows()
        );
        assert_eq!(
            super::toon::from_reader::<_, Vec<Row>>(text.as_bytes()).unwrap(),
            rows()
        );
    }

    #[test]
    fn bad_input_and_broken_pipes_are_errors_that_say_where() {
        let err = super::json::from_slice::<Vec<Row>>(b"[{\"id\":1,}]").unwrap_err();
        assert_eq!(
            (err.kind(), err.line(), err.column()),
            (ErrorKind::Syntax, 1, 10)
        );
        let err =
            super::json::from_str::<Vec<Row>>(r#"[{"id":1,"price":"x","tags":[]}]"#).unwrap_err();
        assert_eq!(
            (err.kind(), err.path()),
            (ErrorKind::Type, Some("[0].price"))
        );
        let err = super::json::from_slice::<u8>(b"\xff").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidUtf8);
        let err = super::toon::from_slice::<u8>(b"a: 1\nb c").unwrap_err();
        assert_eq!((err.kind(), err.line()), (ErrorKind::Syntax, 2));
        for reader in [Broken { left: 0 }, Broken { left: 3 }] {
            let err = super::json::from_reader::<_, u8>(reader).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Io);
            assert!(err.to_string().contains("the pipe broke"), "{err}");
        }
        let err = super::toon::from_reader::<_, u8>(Broken { left: 1 }).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Io);
        let err = super::json::to_writer(Broken { left: 2 }, &rows()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Io);
        let err = super::toon::to_writer(Broken { left: 2 }, &rows()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Io);
        // What serde cannot represent is refused before anything is written.
        let mut keys = std::collections::BTreeMap::new();
        keys.insert(vec![1u8], 1);
        let mut out = Vec::new();
        let err = super::json::to_writer(&mut out, &keys).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unrepresentable);
        assert!(out.is_empty());
        for err in [
            super::json::to_string(&keys).unwrap_err(),
            super::json::to_string_pretty(&keys).unwrap_err(),
            super::json::to_vec_pretty(&keys).unwrap_err(),
        ] {
            assert_eq!(err.kind(), ErrorKind::Unrepresentable);
        }
    }
}
