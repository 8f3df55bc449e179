//! `pith::json::parse_bytes` never panics, and whatever it accepts is written
//! back (compact, indented, and through the serde bridge) as text that reads
//! back to the same value.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::json;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = json::parse_bytes(data) else {
        return;
    };
    let text = json::stringify(&value);
    let again = json::parse(&text).expect("compact output reads back");
    assert_eq!(again, value, "compact round trip of {text}");
    assert_eq!(json::stringify(&again), text, "compact output is stable");

    let pretty = json::stringify_pretty(&value, 2);
    assert_eq!(
        json::parse(&pretty).expect("indented output reads back"),
        value
    );

    let mut streamed = Vec::new();
    json::write_to(&value, &mut streamed, None).expect("writing to a Vec cannot fail");
    assert_eq!(streamed, text.as_bytes());

    assert_eq!(pith::to_value(&value).expect("to_value"), value);
    assert_eq!(
        pith::from_value::<pith::Value>(value.clone()).expect("from_value"),
        value
    );
});
