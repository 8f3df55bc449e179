//! The crates a user can pick, checked through `cargo tree` (resolution
//! only, nothing is built): `pith-tokens` has no dependencies at all, the
//! TOON codec (`pith` without default features, or `pith-core`) brings
//! neither the proxy, the CLI, the wire schemas nor a vocabulary, `pith`
//! with its default features is the core and the wire schemas (`pith::wire`)
//! and nothing more, and the peers the benchmarks
//! time are dependencies of `pith-bench` alone, so the README's test
//! command never compiles them.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The peer implementations only the benchmarks may depend on. (indexmap,
/// the map bench's peer, is also what `toml`'s `preserve_order` stands on
/// in the proxy, so it is compiled anyway and not listed.)
const PEERS: &[&str] = &["serde_toon", "tiktoken-rs"];

/// What the codec is made of: `pith-core` and the crates it depends on.
const CORE: &[&str] = &["itoa", "pith-core", "pith-tokens", "serde", "serde_core"];

/// The package names of `base` and `more`, as [`tree`] gives them.
fn names(base: &[&str], more: &[&str]) -> BTreeSet<String> {
    base.iter().chain(more).map(|&n| n.to_owned()).collect()
}

/// The packages `cargo tree` lists for `args`, each once, by name.
fn tree(args: &[&str]) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(cargo)
        .current_dir(&root)
        .args(["tree", "--offline", "--prefix", "none", "--format", "{p}"])
        .args(args)
        .output()
        .expect("cargo runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "cargo tree {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names: BTreeSet<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('['))
        .map(|l| l.split_whitespace().next().unwrap_or_default().to_owned())
        .collect();
    assert!(!names.is_empty(), "cargo tree {args:?} printed nothing");
    names
}

#[test]
fn the_tokenizer_depends_on_nothing_not_even_for_its_tests() {
    let all = tree(&["-p", "pith-tokens", "-e", "normal,build,dev"]);
    assert_eq!(all, BTreeSet::from(["pith-tokens".to_owned()]));
}

#[test]
fn the_toon_codec_alone_brings_no_proxy_cli_wire_or_peer() {
    let codec = tree(&["-p", "pith", "--no-default-features", "-e", "normal,build"]);
    let core = tree(&[
        "-p",
        "pith-core",
        "--no-default-features",
        "-e",
        "normal,build",
    ]);
    assert!(
        codec.contains("pith-core") && codec.contains("pith-tokens"),
        "{codec:?}"
    );
    for absent in [
        "pith-wire",
        "pith-mcp",
        "pith-cli",
        "tokio",
        "clap",
        "hyper",
    ]
    .iter()
    .chain(PEERS)
    {
        assert!(!codec.contains(*absent), "{absent} in {codec:?}");
    }
    // What it does bring, so that a new dependency is a decision.
    assert_eq!(core, names(CORE, &[]));
    assert_eq!(codec, names(CORE, &["pith"]));
}

#[test]
fn pith_by_default_is_the_core_and_the_wire_schemas() {
    let full = tree(&["-p", "pith", "-e", "normal,build"]);
    assert_eq!(full, names(CORE, &["pith", "pith-wire"]));
}

#[test]
fn the_wire_schemas_sit_on_the_codec_and_nothing_else() {
    let wire = tree(&["-p", "pith-wire", "-e", "normal,build"]);
    for absent in ["pith-mcp", "pith-cli", "tokio", "clap"]
        .iter()
        .chain(PEERS)
    {
        assert!(!wire.contains(*absent), "{absent} in {wire:?}");
    }
    assert!(wire.contains("pith-core"), "{wire:?}");
    // The schemas stand on the core, not on the facade that re-exports them.
    assert!(!wire.contains("pith"), "{wire:?}");
}

#[test]
fn only_the_bench_crate_depends_on_the_peers() {
    let tested = tree(&[
        "--workspace",
        "--exclude",
        "pith-bench",
        "-e",
        "normal,build,dev",
    ]);
    for peer in PEERS {
        assert!(!tested.contains(*peer), "{peer} outside pith-bench");
    }
    let bench = tree(&["-p", "pith-bench", "-e", "normal,build,dev"]);
    for peer in PEERS {
        assert!(
            bench.contains(*peer),
            "{peer} missing from pith-bench: {bench:?}"
        );
    }
}

/// `pith::wire` is the crate `pith-wire`, and its schemas take `pith`'s
/// own `Value`: one data model, whichever crate a user names.
#[cfg(feature = "wire")]
#[test]
fn the_wire_schemas_are_pith_wire_over_pith_values() {
    let doc: pith::Value = pith::value!({"Todo": {"content": "string", "done?": "boolean"}});
    let schema = pith::wire::Schema::from_value(&doc).expect("a schema");
    let options = pith::wire::CheckOptions::default();
    let good = pith::value!({"content": "ship", "done": true});
    let clean = pith::wire::check(&schema, "Todo", &good, &options).expect("checked");
    assert!(clean.is_empty(), "{clean:?}");
    let bad = pith::value!({"content": 7});
    let violations = pith::wire::check(&schema, "Todo", &bad, &options).expect("checked");
    assert_eq!(violations.len(), 1, "{violations:?}");
}
