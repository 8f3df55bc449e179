//! Peak heap while decoding, against the input's size and against the
//! value decoded, measured with a counting allocator (bytes asked for; the
//! allocator's own overhead is not counted). One test in this binary, so
//! that nothing else allocates meanwhile. The quoted-string reader once
//! reserved room to the end of the line for every escaped string: a line
//! of 20,000 of them took gigabytes. Object keys were `String`s, one
//! allocation each (32 bytes with glibc however short): a short key is now
//! held inline, so an object of short keys and numbers is one allocation.

#[path = "support/alloc.rs"]
mod alloc;
use alloc::{allocations_during, peak_during};

#[test]
fn decoding_takes_heap_in_proportion_to_the_input() {
    let d = pith::toon::DecodeOptions::default();
    let mut report = Vec::new();
    // (what, text, most heap per input byte)
    let n = 20_000;
    let escaped = format!("a[{n}]: {}", vec![r#""\"""#; n].join(","));
    let words = format!(
        "a[{n}]: {}",
        (0..n)
            .map(|i| format!("\"w\\\"{i}\""))
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut json_cells = String::from("rows[4]{");
    let cols = 2_000;
    json_cells.push_str(
        &(0..cols)
            .map(|j| format!("c{j}"))
            .collect::<Vec<_>>()
            .join(","),
    );
    json_cells.push_str("}:\n");
    for r in 0..4 {
        json_cells.push_str("  ");
        let cells: Vec<String> = (0..cols)
            .map(|j| format!("\"[{{\\\"x\\\":{}}},1]\"", j + r))
            .collect();
        json_cells.push_str(&cells.join(","));
        json_cells.push('\n');
    }
    json_cells.push_str("rows_encoding:\n  json_columns[");
    json_cells.push_str(&format!("{cols}]: "));
    json_cells.push_str(
        &(0..cols)
            .map(|j| format!("c{j}"))
            .collect::<Vec<_>>()
            .join(","),
    );
    for (what, text, limit) in [
        ("escaped strings", &escaped, 8.0),
        ("escaped words", &words, 8.0),
        ("JSON cells", &json_cells, 8.0),
    ] {
        let before = alloc::LIVE.load(std::sync::atomic::Ordering::Relaxed);
        let (v, peak) = peak_during(|| pith::select::decode(text.as_bytes(), &d).unwrap());
        let held = alloc::LIVE.load(std::sync::atomic::Ordering::Relaxed) - before;
        let ratio = peak as f64 / text.len() as f64;
        report.push(format!(
            "{what}: {} bytes in, peak {peak} ({ratio:.1}x), the value itself {held} ({:.1}x)",
            text.len(),
            held as f64 / text.len() as f64
        ));
        // Within the target, or no more than a quarter above the value the
        // decoder returns (tiny cells such as `[{"x":1},1]` make values
        // larger than their text: that is the data model, not the reader).
        assert!(
            ratio <= limit || peak as f64 <= 1.25 * held as f64,
            "{what}: {ratio:.1}x > {limit}x\n{}",
            report.join("\n")
        );
        drop(v);
    }
    // Short keys take no allocation of their own, through both readers:
    // each row below is its members' one allocation (plus a few for the
    // containers around them), where each key used to add one.
    let rows = 2_000;
    let toon = format!(
        "rows[{rows}]{{id,name_of_it,price}}:\n{}",
        (0..rows)
            .map(|i| format!("  {i},{},{}\n", i + 1, i + 2))
            .collect::<String>()
    );
    let json = pith::json::stringify(&pith::toon::decode(&toon, &d).unwrap());
    for (what, read) in [
        (
            "TOON rows",
            Box::new(|| pith::toon::decode(&toon, &d).unwrap()) as Box<dyn Fn() -> pith::Value>,
        ),
        (
            "JSON objects",
            Box::new(|| pith::json::parse(&json).unwrap()),
        ),
    ] {
        let (v, calls) = allocations_during(read);
        report.push(format!(
            "{what}: {rows} objects of 3 short keys, {calls} allocations"
        ));
        assert_eq!(v["rows"].as_array().map(Vec::len), Some(rows));
        assert!(
            calls <= rows + 64,
            "{what}: {calls} allocations for {rows} rows\n{}",
            report.join("\n")
        );
    }
    println!("{}", report.join("\n"));
}
