//! Where the shared datasets are.

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
