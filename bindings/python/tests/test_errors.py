"""Bad input is refused with the place named: positions for text, paths for values."""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal

import pytest

import pith

from conftest import run


@pytest.mark.parametrize(
    "text, line, column",
    [
        ("a: 1\nb c\n", 2, 1),
        ('{"a": 1, "a": 2}', 1, 10),
        ('{"a": tru}', 1, 7),
        ("rows[3]{id,name}:\n  1,x\n  2,y", 1, 6),
        ("k: 1\n  café: [", 2, 3),
        ('{"a": "\\ud800"}', 1, 8),
        (b'{"a": "\xff"}', 1, 8),
    ],
)
def test_decode_errors_carry_line_column_and_pos(cli, text, line, column):
    raw = text if isinstance(text, bytes) else text.encode()
    with pytest.raises(pith.DecodeError) as e:
        pith.decode(text)
    err = e.value
    assert isinstance(err, ValueError) and isinstance(err, json.JSONDecodeError)
    assert (err.lineno, err.colno) == (line, column), err
    doc = err.doc
    assert isinstance(doc, str)
    # pos, lineno and colno agree as they do in json.JSONDecodeError.
    assert doc.count("\n", 0, err.pos) + 1 == err.lineno
    assert err.pos - doc.rfind("\n", 0, err.pos) == err.colno
    assert str(err) == f"{err.msg}: line {line} column {column} (char {err.pos})"
    # The CLI names the same place with the same words.
    out = run(cli, "decode", "-", stdin=raw)
    assert out.returncode == 1
    assert f"line {line}, column {column}: {err.msg}" in out.stderr.decode()


def test_a_lone_surrogate_in_a_str_is_refused_at_its_place():
    with pytest.raises(pith.DecodeError) as e:
        pith.decode("a: 1\nb: x\ud800y")
    assert (e.value.lineno, e.value.colno, e.value.pos) == (2, 5, 9)


def test_a_malformed_table_is_named_by_its_path():
    with pytest.raises(pith.DecodeError) as e:
        pith.decode("items[1]: x\nitems_encoding:\n  json_columns: 5")
    assert e.value.path is not None and e.value.lineno is None
    assert str(e.value).startswith(f"at {e.value.path}: ")


def test_decode_errors_pickle():
    import pickle

    with pytest.raises(pith.DecodeError) as e:
        pith.decode("a: 1\nb c")
    again = pickle.loads(pickle.dumps(e.value))
    assert (again.msg, again.lineno, again.colno, again.pos) == (e.value.msg, 2, 1, e.value.pos)


class Thing:
    pass


@pytest.mark.parametrize(
    "value, error, path, words",
    [
        ({"rows": [{"blob": b"\x00"}]}, TypeError, "rows[0].blob", "bytes"),
        ({"tags": {"a", "b"}}, TypeError, "tags", "sets"),
        ({"a": {1: "x"}}, TypeError, "a", "str keys, found int key 1"),
        ({"a": {None: "x"}}, TypeError, "a", "NoneType key None"),
        ([1, Thing()], TypeError, "[1]", "type Thing"),
        ({"x": math.nan}, ValueError, "x", "NaN"),
        ({"x": [math.inf]}, ValueError, "x[0]", "Infinity"),
        ({"x": -math.inf}, ValueError, "x", "-Infinity"),
        ({"odd key": Decimal("NaN")}, ValueError, '["odd key"]', "Decimal('NaN')"),
        ({"d": Decimal("Infinity")}, ValueError, "d", "Decimal('Infinity')"),
        ({"d": Decimal("1E+1000000000")}, ValueError, "d", "exponent"),
        ({"s": "x\ud800"}, ValueError, "s", "lone surrogate"),
        (bytearray(b"x"), TypeError, "$", "bytes"),
    ],
)
def test_values_json_cannot_hold_are_refused_with_their_path(value, error, path, words):
    for call in (pith.encode, pith.measure, lambda v: pith.fit(v, 100)):
        with pytest.raises(error) as e:
            call(value)
        message = str(e.value)
        assert message.startswith(f"at {path}: "), message
        assert words in message, message


def test_cycles_are_refused_with_their_path():
    a: list = []
    a.append({"again": a})
    with pytest.raises(ValueError, match=re.escape("at [0].again: circular reference")):
        pith.encode(a)
    d: dict = {}
    d["self"] = d
    with pytest.raises(ValueError, match=re.escape("at self: circular reference")):
        pith.encode(d)
    # The same object twice, not inside itself, is no cycle.
    shared = {"k": 1}
    assert pith.decode(pith.encode([shared, shared])) == [{"k": 1}, {"k": 1}]


def test_nesting_beyond_256_levels_is_refused():
    deep: list = []
    for _ in range(300):
        deep = [deep]
    with pytest.raises(ValueError, match="nesting deeper than 256 levels"):
        pith.encode(deep)
    ok: list = []
    for _ in range(255):
        ok = [ok]
    assert pith.decode(pith.encode(ok, format="json")) == ok


def test_a_default_that_raises_propagates():
    def default(o):
        raise LookupError("no")

    with pytest.raises(LookupError):
        pith.encode([Thing()], default=default)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"format": "yaml"}, "format: unknown format"),
        ({"tokenizer": "gpt2"}, "tokenizer: unknown tokenizer"),
        ({"min_readability": 0}, "min_readability: expected a readability score from 1 to 5, found 0"),
        ({"min_readability": 6}, "found 6"),
        ({"indent": 0}, "indent:"),
        ({"delimiter": ";"}, "delimiter:"),
        ({"budget": -1}, "budget: expected a number of tokens from 0 up"),
        ({"budget": "lots"}, "budget:"),
        ({"cursor": "c0-1-00000000"}, "cursor: a cursor needs a budget"),
        ({"budget": 100, "cursor": "nonsense"}, "cursor:"),
        ({"budget": 100, "cursor": "c0-1-00000000"}, "cursor:"),
    ],
)
def test_bad_arguments_are_named(kwargs, words):
    with pytest.raises(ValueError) as e:
        pith.encode({"rows": [{"a": i} for i in range(50)]}, **kwargs)
    assert words in str(e.value)


def test_min_readability_takes_every_score():
    value = {"rows": [{"id": i, "tags": ["a", "b"]} for i in range(10)]}
    for score in range(1, 6):
        assert pith.decode(pith.encode(value, min_readability=score)) == value


def test_budget_exceeded_carries_the_notice():
    value = {"rows": list(range(5000))}
    with pytest.raises(pith.BudgetExceededError) as e:
        pith.encode(value, budget=10)
    err = e.value
    assert isinstance(err, ValueError)
    assert (err.budget, err.tokenizer, err.collections, err.rows) == (10, "o200k", 1, 5000)
    assert err.minimum > 10 and err.unbounded == pith.count_tokens(pith.encode(value))
    notice = pith.decode(err.notice)["output_budget_exceeded"]
    assert notice["minimum_budget"] == err.minimum
    assert pith.fit(value, err.minimum).tokens <= err.minimum
    assert f"pass a budget of {err.minimum} or more" in str(err)


def test_wrong_argument_types_are_type_errors():
    with pytest.raises(TypeError):
        pith.decode(12)
    with pytest.raises(TypeError):
        pith.count_tokens(b"bytes")
    with pytest.raises(TypeError):
        pith.encode([], budget=1.5)
