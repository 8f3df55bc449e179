//! Where the shared datasets are, and their files.

// Each test crate includes this file and uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The datasets folder: `$PITH_DATASETS`, or `shared/datasets` beside the
/// checkout; panics with a hint when it is missing.
pub fn datasets() -> PathBuf {
    let root = match std::env::var_os("PITH_DATASETS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets"),
    };
    assert!(
        root.is_dir(),
        "datasets not found at {}: put the shared folder beside the checkout or set PITH_DATASETS",
        root.display()
    );
    root
}

/// Every `.json` file under `root`, in every subfolder, sorted.
pub fn json_files(root: &Path) -> Vec<PathBuf> {
    files_ending(root, "json")
}

/// Every file with the extension `extension` under `root`, in every
/// subfolder, sorted.
pub fn files_ending(root: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("listing {}: {e}", folder.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|x| x == extension) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
