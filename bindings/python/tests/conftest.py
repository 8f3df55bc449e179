"""Shared fixtures: the `pith` binary of this checkout and the datasets."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def datasets_dir() -> Path:
    """`$PITH_DATASETS`, or `shared/datasets` beside the checkout."""
    d = Path(os.environ.get("PITH_DATASETS", ROOT.parent / "shared" / "datasets"))
    if not d.is_dir():
        raise RuntimeError(f"datasets not found at {d}: put the shared folder beside the checkout or set PITH_DATASETS")
    return d


def dataset_files() -> list[Path]:
    return sorted(datasets_dir().rglob("*.json"))


@pytest.fixture(scope="session")
def cli() -> Path:
    """The CLI built from this checkout: `$PITH_BIN`, or a release build made here."""
    if "PITH_BIN" in os.environ:
        path = Path(os.environ["PITH_BIN"])
    else:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "pith-cli"], cwd=ROOT, check=True)
        path = ROOT / "target" / "release" / "pith"
    if not path.is_file():
        raise RuntimeError(f"no pith binary at {path}")
    return path


def run(cli: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([str(cli), *args], input=stdin, capture_output=True, check=False)


def ordered(v):
    """`v` with every dict as a list of its items, so that equality sees key order."""
    if isinstance(v, dict):
        return [(k, ordered(x)) for k, x in v.items()]
    if isinstance(v, list):
        return [ordered(x) for x in v]
    return v
