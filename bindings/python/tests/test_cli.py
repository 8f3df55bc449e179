"""The package writes what the CLI writes, byte for byte, on every dataset file."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

import pith

from conftest import dataset_files, ordered, run

FILES = dataset_files()
FORMATS = ["auto", "pith", "toon", "toon3", "hoisted", "hoisted-compact", "table", "json"]


def ids(p):
    return f"{p.parent.name}/{p.name}"


def load(path):
    # Decimal keeps every number as the file writes it, as the CLI reads it.
    return json.loads(path.read_bytes(), parse_float=Decimal)


def test_every_dataset_is_found():
    assert len(FILES) >= 30, FILES


@pytest.mark.parametrize("path", FILES, ids=ids)
def test_encode_is_byte_identical_to_the_cli(cli, path):
    value = load(path)
    for fmt in FORMATS:
        out = run(cli, "encode", str(path), "--format", fmt)
        assert out.returncode == 0, out.stderr
        assert pith.encode(value, format=fmt).encode() == out.stdout, fmt


@pytest.mark.parametrize("path", [p for p in FILES if p.stat().st_size < 1_000_000], ids=ids)
def test_layout_options_match_the_cli(cli, path):
    value = load(path)
    for delimiter, name in [("\t", "tab"), ("|", "pipe")]:
        out = run(cli, "encode", str(path), "--format", "toon", "--delimiter", name, "--indent", "4")
        assert pith.encode(value, format="toon", delimiter=delimiter, indent=4).encode() == out.stdout
    out = run(cli, "encode", str(path), "--tokenizer", "cl100k")
    assert pith.encode(value, tokenizer="cl100k").encode() == out.stdout
    for floor in [1, 3, 5]:
        for fmt in ["auto", "pith"]:
            out = run(cli, "encode", str(path), "--format", fmt, "--min-readability", str(floor))
            assert out.returncode == 0, out.stderr
            assert pith.encode(value, format=fmt, min_readability=floor).encode() == out.stdout, (fmt, floor)


def test_the_readability_floor_is_applied():
    rows = [{"id": i, "name": f"item-{i}", "ok": True} for i in range(20)]
    # A derived column (a lookup) scores 4: written at the default floor, not at 5.
    assert "name=`item-${id}`" in pith.encode(rows)
    assert "`" not in pith.encode(rows, min_readability=5)
    assert pith.decode(pith.encode(rows, min_readability=5)) == rows


@pytest.mark.parametrize("path", FILES, ids=ids)
def test_decode_gives_back_what_the_cli_reads(cli, path):
    value = load(path)
    for fmt in ["auto", "toon", "hoisted-compact", "table"]:
        text = pith.encode(value, format=fmt)
        out = run(cli, "decode", "-", stdin=text.encode())
        assert out.returncode == 0, out.stderr
        # Both sides as exact decimals; only rows of tables may reorder keys.
        got = pith.decode(text, parse_float=Decimal)
        assert ordered(got) == ordered(json.loads(out.stdout, parse_float=Decimal)), fmt


@pytest.mark.parametrize("path", FILES, ids=ids)
def test_token_counts_equal_the_clis(cli, path):
    text = path.read_text(encoding="utf-8")
    toon = pith.encode(load(path), format="toon")
    for tokenizer in ["o200k", "cl100k", "bytes4"]:
        out = run(cli, "tokens", "--tokenizer", tokenizer, stdin=text.encode())
        assert int(out.stdout.split(b"\t")[0]) == pith.count_tokens(text, tokenizer)
        out = run(cli, "tokens", "--tokenizer", tokenizer, stdin=toon.encode())
        assert int(out.stdout.split(b"\t")[0]) == pith.count_tokens(toon, tokenizer)


@pytest.mark.parametrize("path", [p for p in FILES if p.stat().st_size < 200_000], ids=ids)
def test_measure_equals_the_clis(cli, path):
    out = run(cli, "measure", "--json", str(path))
    assert out.returncode == 0, out.stderr
    want = json.loads(out.stdout)["files"][0]
    got = pith.measure(load(path))
    assert got["tokenizer"] == "o200k"
    assert got["forms"] == want["forms"]
    assert got["auto"] == want["auto"]


def same_as_cli(cli, path, value, budget, cursor=None):
    """`pith.fit` writes what `pith encode --budget` writes, notice and all."""
    args = ["encode", str(path), "--budget", str(budget)] + (["--cursor", cursor] if cursor else [])
    out = run(cli, *args)
    if out.returncode == 3:
        with pytest.raises(pith.BudgetExceededError) as e:
            pith.encode(value, budget=budget, cursor=cursor)
        assert e.value.notice.encode() == out.stdout
        assert e.value.budget == budget and e.value.minimum > budget
        return None
    assert out.returncode == 0, out.stderr
    fitted = pith.fit(value, budget, cursor=cursor)
    assert fitted.text.encode() == out.stdout
    assert fitted.tokens == pith.count_tokens(fitted.text) <= budget
    assert pith.encode(value, budget=budget, cursor=cursor) == fitted.text
    return fitted


@pytest.mark.parametrize("path", [p for p in FILES if p.stat().st_size > 20_000], ids=ids)
def test_budgets_and_cursors_match_the_cli(cli, path):
    value = load(path)
    fitted = same_as_cli(cli, path, value, 400)
    if fitted is None:
        return
    # Follow the first cursor one page, as the CLI does.
    doc = pith.decode(fitted.text)
    receipts = [v for k, v in doc.items() if k.endswith("_omitted") and "cursor" in v]
    for receipt in receipts[:1]:
        same_as_cli(cli, path, value, 300, receipt["cursor"])
        same_as_cli(cli, path, value, 5000, receipt["cursor"])
