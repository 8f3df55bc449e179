//! What the reader tests share: the shared folder beside the checkout, its
//! dataset files, and a deterministic generator for mutated texts.

use std::path::{Path, PathBuf};

/// `../shared` beside the checkout (datasets and the spec's fixtures).
pub fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// Every `.json` file under `shared/datasets`, sorted; fails loudly when
/// the folder is missing or holds too few.
pub fn dataset_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            panic!("{} is missing", dir.display());
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "json") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&shared().join("datasets"), &mut out);
    out.sort();
    assert!(out.len() >= 30, "{out:?}");
    out
}

/// A small xorshift generator: the same texts on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
