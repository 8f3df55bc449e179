"""TOON that the events reader takes decodes as the library's path decodes
the same value's JSON: values, key order, hooks, lenient mode."""

from __future__ import annotations

from decimal import Decimal

import pytest

import pith

from conftest import ordered

VALUES = [
    {"rows": [{"id": i, "name": f"n{i}", "price": i * 0.25, "ok": i % 2 == 0, "note": None} for i in range(50)]},
    {"contacts": [{"name": "Ada", "address": {"city": "X", "geo": {"lat": 1.5, "lon": -2}}, "plan": {"n": "pro"}}] * 3},
    {"items": [{"id": 1, "tags": ["a", "b"], "owner": {"id": 7, "login": "q"}}, {"id": 2, "tags": [], "owner": {}}]},
    {"m": {"a": {"v": 1, "w": "x"}, "b": {"v": 2, "w": "y"}}},
    {"s": ["", " a", "true", "1e5", "05", "a,b", "x: y", "line\nbreak", "tab\there", "\"q\"", "é日本\U0001F600"]},
    {"n": [0, -0.0, 1.0, 2.50, 12345678901234567890, 1e300, 1.5e-300, 0.1, -7, 9007199254740993]},
    [[1, 2], [], [{"a": 1}], "x", {"b": [3]}],
    {"deep": {"a": {"b": {"c": {"d": [1, {"e": None}]}}}}},
]


@pytest.mark.parametrize("value", VALUES)
def test_toon_reads_as_its_json_reads(value):
    toon = pith.encode(value, format="toon")
    json_text = pith.encode(value, format="json")
    for kwargs in [{}, {"lenient": True}, {"parse_float": Decimal}, {"parse_int": str}, {"parse_int": Decimal, "parse_float": str}]:
        assert ordered(pith.decode(toon, **kwargs)) == ordered(pith.decode(json_text, **kwargs)), kwargs
        assert ordered(pith.decode(toon.encode(), **kwargs)) == ordered(pith.decode(json_text, **kwargs)), kwargs


def test_a_hook_that_raises_is_raised_and_a_bad_text_is_a_decode_error():
    def boom(_):
        raise KeyError("hook")

    with pytest.raises(KeyError):
        pith.decode("a[2]: 1.5,2", parse_float=boom)
    # The text is checked whole before any hook runs.
    with pytest.raises(pith.DecodeError):
        pith.decode("a[2]: 1.5,2\nb[3]: 1", parse_float=boom)


def test_rows_share_their_keys():
    rows = pith.decode(pith.encode({"rows": [{"alpha": i, "beta": str(i)} for i in range(3)]}, format="toon"))["rows"]
    first = [id(k) for k in rows[0]]
    assert all([id(k) for k in row] == first for row in rows)
