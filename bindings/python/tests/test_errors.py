"""Bad input is refused with the place named: positions for text, paths for values."""

from __future__ import annotations

import json
import math
import re
import time
from decimal import Decimal

import pytest

import pith
from pith._native import tool_text

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


@pytest.mark.parametrize(
    "text, line, column, pos",
    [
        # U+FFFD is a character like any other: the surrogate is further on.
        ("\ufffd: 1\nb: \ud800", 2, 4, 8),
        ("a: \ufffd\ud800", 1, 5, 4),
        ("a: \ud83d\ude00", 1, 4, 3),
        ("é日本: x\n\n  \udfff", 3, 3, 10),
    ],
    ids=["U+FFFD on an earlier line", "U+FFFD just before", "a pair of surrogates", "wide characters"],
)
def test_the_first_lone_surrogate_is_named_whatever_precedes_it(text, line, column, pos):
    with pytest.raises(pith.DecodeError) as e:
        pith.decode(text)
    err = e.value
    assert (err.lineno, err.colno, err.pos) == (line, column, pos), err
    assert "\ud800" <= err.doc[err.pos] <= "\udfff"
    assert err.doc.count("\n", 0, err.pos) + 1 == err.lineno
    assert err.pos - err.doc.rfind("\n", 0, err.pos) == err.colno


def test_a_str_subclass_with_its_own_encode_is_still_placed():
    class Odd(str):
        def encode(self, *args, **kwargs):
            return b"nothing like the text"

    with pytest.raises(pith.DecodeError) as e:
        pith.decode(Odd("\ufffd\n\ud800"))
    assert (e.value.lineno, e.value.colno, e.value.pos) == (2, 1, 2)


@pytest.mark.parametrize("name", ["min_readability", "indent"])
def test_int_options_refuse_a_bool(name):
    for call in (pith.encode, lambda v, **k: pith.fit(v, 1000, **k)):
        for flag in (True, False):
            with pytest.raises(TypeError) as e:
                call({"a": [1, 2]}, **{name: flag})
            assert str(e.value).startswith(f"{name}: expected an int ("), e.value
            assert str(e.value).endswith("found bool"), e.value


@pytest.mark.parametrize("name", ["min_saving", "budget"])
def test_the_mcp_helpers_int_options_refuse_a_bool(name):
    with pytest.raises(TypeError) as e:
        tool_text([1, 2], **{name: True})
    assert str(e.value) == f"{name}: expected an int (a number of tokens from 0 up), found bool"


@pytest.mark.parametrize(
    "name, value, words",
    [
        ("min_readability", 2**70, "min_readability: expected a readability score from 1 to 5, found 1180591620717411303424"),
        ("min_readability", -(2**63) - 1, "min_readability: expected a readability score from 1 to 5, found -9223372036854775809"),
        ("indent", 2**64, "indent: expected 1 to 65535 spaces per level, found 18446744073709551616"),
        ("indent", 10**5000, "indent: expected 1 to 65535 spaces per level, found an int of 16610 bits"),
    ],
    ids=["2**70", "-2**63-1", "2**64", "10**5000"],
)
def test_int_options_beyond_64_bits_are_value_errors_naming_the_argument(name, value, words):
    with pytest.raises(ValueError) as e:
        pith.encode({"a": 1}, **{name: value})
    assert str(e.value) == words


def test_the_mcp_helpers_int_options_beyond_128_bits_are_value_errors():
    with pytest.raises(ValueError) as e:
        tool_text([1], min_saving=2**200)
    assert str(e.value) == "min_saving: expected a number of tokens from 0 up, found an int of 201 bits"
    with pytest.raises(ValueError) as e:
        tool_text([1], budget=-(2**200))
    assert str(e.value) == "budget: expected a number of tokens from 0 up, found an int of 201 bits"


def test_int_options_of_another_type_are_type_errors_naming_the_argument():
    with pytest.raises(TypeError) as e:
        pith.encode(1, min_readability="4")
    assert str(e.value) == "min_readability: expected an int (a readability score from 1 to 5), found str"
    with pytest.raises(TypeError) as e:
        pith.encode(1, indent=2.0)
    assert str(e.value) == "indent: expected an int (1 to 65535 spaces per level), found float"
    with pytest.raises(TypeError) as e:
        tool_text([1], budget="lots")
    assert str(e.value) == "budget: expected an int (a number of tokens from 0 up), found str"


def test_int_options_take_ints_and_int_like_objects():
    class Index:
        def __index__(self):
            return 3

    class Score(int):
        pass

    value = {"a": {"b": [1, 2]}}
    three = pith.encode(value, format="toon", indent=3)
    assert three != pith.encode(value, format="toon")
    assert pith.encode(value, format="toon", indent=Index()) == three
    assert pith.encode(value, format="toon", indent=Score(3)) == three
    assert pith.encode(value, min_readability=Score(5)) == pith.encode(value, min_readability=5)


def never(digits):
    raise AssertionError(f"parse_int was called with {len(digits)} digits")


@pytest.mark.parametrize(
    "text, path, digits, kwargs",
    [
        ("1e+5000", "$", 5001, {}),
        ("1" * 200_000, "$", 200_000, {}),
        ("1e999999999", "$", 1_000_000_000, {"parse_int": never}),
        ('{"a": [1, 1e5000]}', "a[1]", 5001, {}),
        ("a[2]: 1,1e5000", "a[1]", 5001, {}),
        ("a[2]: 1,1e5000", "a[1]", 5001, {"lenient": True}),
        ("rows[2]{id,n}:\n  1,2\n  3,-1e5000", "rows[1].n", 5001, {}),
        ("rows[2]{id,geo{lat}}:\n  1,1\n  2,1e+5000", "rows[1].geo.lat", 5001, {}),
        ("k[2]:\n  - x\n  - m: 2.5e+4300\n    z: 2", "k[1].m", 4301, {}),
    ],
    ids=["1e+5000", "200000 ones", "1e999999999", "json", "toon", "lenient", "table", "group", "list item"],
)
def test_a_whole_number_beyond_the_int_digit_limit_is_refused_not_made_inf(int_digit_limit, text, path, digits, kwargs):
    int_digit_limit(4300)
    with pytest.raises(pith.DecodeError) as e:
        pith.decode(text, **kwargs)
    err = e.value
    assert (err.path, err.lineno, err.colno, err.pos) == (path, None, None, None), err
    assert err.msg.startswith(f"a whole number of {digits} digits"), err.msg
    assert "more than int() takes under sys.get_int_max_str_digits() (4300): expected at most 4300 digits" in err.msg
    assert str(err).startswith(f"at {path}: ")


def test_what_encode_writes_for_a_long_int_is_refused_under_the_default_limit(int_digit_limit):
    int_digit_limit(4300)
    text = pith.encode(10**5000)
    assert text == "1e+5000"
    with pytest.raises(pith.DecodeError, match="a whole number of 5001 digits"):
        pith.decode(text)
    # parse_float takes it exactly, as the docs say.
    assert pith.decode(text, parse_float=Decimal) == Decimal(10**5000)


@pytest.mark.parametrize("limit", [0, 1_000_000])
def test_a_short_text_cannot_cost_seconds_however_high_the_limit(int_digit_limit, limit):
    int_digit_limit(limit)
    start = time.perf_counter()
    with pytest.raises(pith.DecodeError) as e:
        pith.decode("1e999999")
    assert e.value.msg.startswith(
        "a whole number of 1000000 digits (1e+999999), past the 100064 digits pith makes into ints "
        "from a text of 8 bytes (100000, and 8 for each byte: "
    ), e.value.msg
    assert e.value.path == "$"
    # Up to the allowance, exactly, and quickly: 10**99999 is made as a power.
    assert pith.decode("[1e99999]") == [10**99999]
    # The allowance is for all the numbers of a text together.
    with pytest.raises(pith.DecodeError, match="expected at most 152 digits more") as e:
        pith.decode("[1e99999, -3e99999]")
    assert e.value.path == "[1]"
    # A longer text has room for more.
    padded = '{"pad": "' + "x" * 12_500 + '", "n": [1e99999, -3e99999]}'
    assert pith.decode(padded)["n"] == [10**99999, -3 * 10**99999]
    assert time.perf_counter() - start < 1


def test_without_a_digit_limit_one_int_takes_at_most_a_million_digits(int_digit_limit):
    int_digit_limit(0)
    text = "7" * 1_000_001
    with pytest.raises(pith.DecodeError) as e:
        pith.decode(text)
    assert e.value.msg == (
        "a whole number of 1000001 digits, more than the 1000000 pith makes into one int when the "
        "interpreter sets no limit (sys.get_int_max_str_digits() is 0): expected at most 1000000 "
        "digits (set a limit with sys.set_int_max_str_digits(), or pass parse_float=decimal.Decimal "
        "to read it exactly)"
    )
    assert pith.decode(text, parse_float=Decimal) == Decimal(text)
