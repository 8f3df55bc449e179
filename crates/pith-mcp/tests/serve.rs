//! `pith_mcp::serve` inside a caller's tokio runtime: the proxy of `run`
//! between streams the caller holds (here an in-memory pipe) and a real
//! server process (`tests/support/fake-server.mjs`), with the caller's own
//! task running beside it on the same runtime.

use pith::Value;
use std::ffi::OsString;
use std::path::Path;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

fn rows_value(n: usize) -> Value {
    let rows: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"id":{i},"tag":"e","name":"row-{i}","active":{},"score":{i}.25}}"#,
                i % 2 == 0
            )
        })
        .collect();
    pith::json::parse(&format!("[{}]", rows.join(","))).unwrap()
}

#[tokio::test]
async fn serve_proxies_inside_the_callers_runtime() {
    let server = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/fake-server.mjs");
    let args = [OsString::from(server)];
    // The client's side: what it writes reaches the proxy's `client_in`,
    // what the proxy writes to `client_out` reaches the client.
    let (mut client, proxy_in) = tokio::io::duplex(1 << 16);
    let (proxy_out, answers) = tokio::io::duplex(1 << 16);
    let options = pith_mcp::Options::default();
    let proxy = tokio::spawn(async move {
        pith_mcp::serve("node".as_ref(), &args, &options, proxy_in, proxy_out).await
    });
    // The caller's runtime keeps running its own work while the proxy runs.
    let beside = tokio::spawn(async { 6 * 7 });

    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rows","arguments":{"n":30,"tag":"e"}}}"#;
    client.write_all(call.as_bytes()).await.unwrap();
    client.write_all(b"\n").await.unwrap();
    let mut lines = BufReader::new(answers).lines();
    let line = tokio::time::timeout(std::time::Duration::from_secs(30), lines.next_line())
        .await
        .expect("an answer within 30 s")
        .unwrap()
        .expect("a line");
    let answer = pith::json::parse(&line).unwrap();
    let item = &answer["result"]["content"][0];
    let encoding = item["_meta"][pith_mcp::ENCODING_META_KEY].as_str();
    assert_eq!(encoding, Some("pith"), "{line}");
    let text = item["text"].as_str().unwrap();
    let opts = pith::toon::DecodeOptions::default();
    assert_eq!(
        pith::select::decode(text.as_bytes(), &opts).unwrap(),
        rows_value(30)
    );
    assert_eq!(beside.await.unwrap(), 42);

    // The client closes its side: the server's stdin is closed, it exits 0,
    // and so does the proxy.
    drop(client);
    let status = tokio::time::timeout(std::time::Duration::from_secs(30), proxy)
        .await
        .expect("the proxy ends within 30 s")
        .unwrap()
        .expect("the proxy ran");
    assert_eq!(status, 0);
}

#[tokio::test]
async fn serve_reports_a_server_that_cannot_start() {
    let (_client, proxy_in) = tokio::io::duplex(64);
    let (proxy_out, _answers) = tokio::io::duplex(64);
    let options = pith_mcp::Options::default();
    let result = pith_mcp::serve(
        "/nonexistent/pith-test-server".as_ref(),
        &[],
        &options,
        proxy_in,
        proxy_out,
    )
    .await;
    let err = result.expect_err("no such program");
    assert!(
        err.to_string()
            .starts_with("cannot start the MCP server `/nonexistent/pith-test-server`"),
        "{err}"
    );
}
