"""Shared fixtures: the `pith` binary of this checkout and the datasets."""

from __future__ import annotations

import os
import subprocess
import sys
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


@pytest.fixture
def int_digit_limit():
    """`sys.set_int_max_str_digits` for one test, the limit restored after
    it; the test is skipped on a Python without the limit."""
    if not hasattr(sys, "set_int_max_str_digits"):
        pytest.skip("this Python has no int digit limit")
    old = sys.get_int_max_str_digits()
    yield sys.set_int_max_str_digits
    sys.set_int_max_str_digits(old)


def run(cli: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([str(cli), *args], input=stdin, capture_output=True, check=False)


def ordered(v):
    """`v` with every dict as a list of its items, so that equality sees key order."""
    if isinstance(v, dict):
        return [(k, ordered(x)) for k, x in v.items()]
    if isinstance(v, list):
        return [ordered(x) for x in v]
    return v
