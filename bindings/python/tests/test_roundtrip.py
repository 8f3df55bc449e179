"""decode(encode(x)) == x under the fact-preservation contract, in every form."""

from __future__ import annotations

import json
import math
import random
import struct
from collections import OrderedDict
from decimal import Decimal

import pytest

import pith

from conftest import ordered

FORMATS = ["auto", "toon", "toon3", "hoisted", "hoisted-compact", "table", "json"]


def same(a, b, row=False):
    """Equal under the contract: numbers by value, keys in order except in
    the rows of an array (a table's rows take its header's order)."""
    if isinstance(a, dict):
        keys_match = set(a) == set(b) if row else list(a) == list(b)
        return isinstance(b, dict) and keys_match and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y, True) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float, Decimal)):
        return isinstance(b, (int, float, Decimal)) and not isinstance(b, bool) and exact(a) == exact(b)
    return a == b


def exact(n):
    """A number's value under the contract: a float is its shortest repr."""
    return Decimal(repr(n)) if isinstance(n, float) else Decimal(n)


def roundtrip(value, fmt="auto"):
    return pith.decode(pith.encode(value, format=fmt), parse_float=Decimal)


@pytest.mark.parametrize("fmt", FORMATS)
def test_big_ints_of_any_size(fmt):
    ints = [2**53 + 1, -(2**63) - 1, 2**64, 10**30, -(10**40) + 7, 3**500, 0, -1]
    value = {"ints": ints, "rows": [{"id": i, "n": n} for i, n in enumerate(ints)]}
    back = roundtrip(value, fmt)
    assert back["ints"] == ints
    assert all(type(n) is int for n in back["ints"])
    assert [r["n"] for r in back["rows"]] == ints


def test_ints_beyond_the_interpreters_digit_limit():
    import sys

    n = 7**20_000  # 16,902 digits: str(n) is refused under the default limit of 4,300
    # TOON writes so long an integer in scientific notation (auto may pick
    # JSON, which spells out its digits).
    text = pith.encode({"n": -n}, format="toon")
    assert text.startswith("n: -9.13692973") and text.endswith("e+16901")
    # Beyond the limit a whole number goes to parse_float, exactly, as text.
    assert pith.decode(text, parse_float=Decimal) == {"n": Decimal(-n)}
    if hasattr(sys, "set_int_max_str_digits"):
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            assert pith.decode(text) == {"n": -n}
        finally:
            sys.set_int_max_str_digits(old)


def test_whole_numbers_within_a_raised_digit_limit_come_back_exactly(int_digit_limit):
    int_digit_limit(6000)
    for n in (10**5000, -7 * 10**5500, 3**10_000 * 10**1000, 2**19_000):
        for fmt in ("toon", "json"):
            back = pith.decode(pith.encode({"n": n, "rows": [{"n": n}, {"n": 1}]}, format=fmt))
            assert back == {"n": n, "rows": [{"n": n}, {"n": 1}]}, fmt
    assert pith.decode("1e5999", parse_int=str) == "1" + "0" * 5999
    assert pith.decode("[-12.5e+5998]", parse_int=int) == [-125 * 10**5997]


@pytest.mark.parametrize("fmt", FORMATS)
def test_decimals_keep_every_digit(fmt):
    ds = [Decimal("0.1000000000000000055511"), Decimal("123456789012345678901234567890.5"),
          Decimal("1E+400"), Decimal("-1e-400"), Decimal("1.50"), Decimal("-0")]
    back = roundtrip({"d": ds}, fmt)["d"]
    assert back == ds
    assert pith.decode(pith.encode(ds), parse_float=Decimal)[0] == ds[0]
    # Without parse_float, floats as json.loads makes them.
    assert pith.decode(pith.encode(ds))[0] == 0.1


def test_floats_by_their_shortest_repr():
    rng = random.Random(7)
    floats = [0.1, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, -2.5, 123.456, 1 / 3]
    # Two shortest decimals read back as each: repr takes the nearer, even one.
    floats += [255908966064453.125, -943238624648691.25]
    floats += [struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(3000)]
    floats = [f for f in floats if math.isfinite(f)]
    text = pith.encode(floats, format="json")
    written = json.loads(text, parse_float=str, parse_int=str)
    for f, w in zip(floats, written):
        assert Decimal(w) == Decimal(repr(f)), (f, w)
        assert float(w) == f
    # Whole numbers come back as int (TOON writes 1.0 as 1): the same
    # decimal, and float() gives the float back.
    back = pith.decode(pith.encode(floats))
    assert [exact(b) for b in back] == [exact(f) for f in floats]
    assert [float(b) for b in back] == floats


@pytest.mark.parametrize("fmt", FORMATS)
def test_unicode(fmt):
    strings = ["café", "日本語", "🎉 emoji", "a\u0000b", "\u2028\u2029", "tab\there", "line\nbreak",
               "quote\"back\\slash", "\U0010ffff", "ü" * 40, " lead", "trail ", ""]
    value = {"s": strings, "keys": {s: i for i, s in enumerate(strings)}}
    back = roundtrip(value, fmt)
    assert ordered(back) == ordered(value)


@pytest.mark.parametrize("fmt", FORMATS)
def test_key_order_is_kept(fmt):
    value = {"z": 1, "a": 2, "m": {"y": 1, "b": [1, 2], "a": None}, "10": 1, "2": 2}
    assert ordered(roundtrip(value, fmt)) == ordered(value)
    od = OrderedDict([("b", 1), ("a", 2), ("c", 3)])
    od.move_to_end("b")
    assert list(pith.decode(pith.encode(od))) == ["a", "c", "b"]


LOOK_ALIKES = [
    {"items": [1, 2], "items_encoding": {"json_columns": []}},
    {"cols": ["a"], "dict": {}, "rows": [[1]]},
    {"$pith": "auto", "value": [1, 2]},
    {"$pith": "json", "value": {"$pith": "toon", "value": 1}},
    ["true", "null", "12", "1e5", "-", "- x", "[1]", "{}", "a: b", "#", "", " "],
    {"x": "1,2", "y": "a|b", "z": "\"q\"", "w": "[3]: 1,2,3"},
    {"rows": [{"a": "null"}, {"a": None}, {"b": 1}], "rows_encoding": "mine"},
    [[], {}, [[]], [{}], {"": ""}],
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("value", LOOK_ALIKES, ids=range(len(LOOK_ALIKES)))
def test_look_alikes_stay_themselves(fmt, value):
    assert same(value, roundtrip(value, fmt))


def random_value(rng, depth=0):
    kinds = ["null", "bool", "int", "big", "float", "dec", "str"]
    if depth < 4:
        kinds += ["list", "dict", "rows"]
    kind = rng.choice(kinds)
    if kind == "null":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "int":
        return rng.randint(-10**6, 10**6)
    if kind == "big":
        return rng.randint(-10**40, 10**40)
    if kind == "float":
        return rng.uniform(-1e6, 1e6)
    if kind == "dec":
        return Decimal(f"{rng.randint(-10**25, 10**25)}E{rng.randint(-30, 30)}")
    if kind == "str":
        return rng.choice(["", "a", "x y", "null", "1", "-1.5", "é", "🎉", "a,b", "k: v", "\n", "[2]"])
    if kind == "list":
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    if kind == "dict":
        return {rng.choice("abcxyz") + str(i): random_value(rng, depth + 1) for i in range(rng.randint(0, 5))}
    keys = rng.sample(["id", "name", "tags", "meta", "n"], 3)
    return [{k: random_value(rng, depth + 2) for k in keys if rng.random() < 0.8} for _ in range(rng.randint(1, 6))]


@pytest.mark.parametrize("fmt", FORMATS)
def test_random_values(fmt):
    rng = random.Random(fmt)
    for _ in range(300):
        value = {"v": random_value(rng)}
        assert same(value, roundtrip(value, fmt)), value


def test_dumps_and_loads_are_encode_and_decode():
    assert pith.dumps is pith.encode and pith.loads is pith.decode


def test_bytes_input_decodes():
    assert pith.decode(b"a: 1\nb[2]: x,y") == {"a": 1, "b": ["x", "y"]}
    assert pith.decode(bytearray(b"[1,2]")) == [1, 2]


def test_default_converts_other_objects():
    class Point:
        def __init__(self, x, y):
            self.x, self.y = x, y

    text = pith.encode({"p": [Point(1, 2)]}, default=lambda o: {"x": o.x, "y": o.y})
    assert pith.decode(text) == {"p": [{"x": 1, "y": 2}]}


def test_tuples_and_subclasses():
    class Tag(str):
        pass

    class Count(int):
        pass

    assert pith.decode(pith.encode({"t": (1, 2), "s": Tag("x"), "n": Count(5), "f": True})) == {
        "t": [1, 2], "s": "x", "n": 5, "f": True}


class Plain(dict):
    """A dict subclass: its values take the general path, never the direct one."""


DIRECT_CASES = [
    {"rows": [{"id": 1, "name": "a b", "price": 9.5, "ok": True, "at": "2025-01-01T00:00:00Z", "x": None}]},
    {"rows": [{"a": 1, "b": "x,y"}, {"a": -2.25, "b": "x|y"}, {"a": 1e300, "b": "x\ty"}]},
    {"t": [{"a": "", "b": "true"}, {"a": "05", "b": "-"}, {"a": " pad ", "b": "é😀"}]},
    {"a": [], "b": [1, "two", None, False], "c": {}, "d": {"e": {"f": "g"}, "h": 1}},
    {"big": 2**53 + 1, "neg": -(2**63), "huge": 10**40, "small": 2**53, "f": 0.1 + 0.2, "z": -0.0},
    {"k y": 1, "": 2, "1a": 3, "a.b": [{"c d": 1}], 'q"': "line\nbreak", "t": (1, 2)},
    # Layouts the direct writer leaves to the library.
    {"a": [1, {"b": 2}], "c": [[1], [2]], "d": [{"x": 1}, {"y": 1}]},
    {"p": {"x": 1}, "q": {"x": 2}},
    {"a": [{"x": {"y": 1}}, {"x": {"y": 2}}]},
    {"cols": [], "dict": [], "rows": []},
    {"a": [], "a_encoding": {"json_columns": []}},
    {"$pith": "toon", "value": 1},
    {"d": Decimal("1.50"), "s": Plain(a=1)},
]


@pytest.mark.parametrize("value", DIRECT_CASES)
@pytest.mark.parametrize("delimiter", [",", "\t", "|"])
def test_toon_written_directly_is_what_the_library_writes(value, delimiter):
    # The root as a dict subclass sends the whole value down the general path.
    direct = pith.encode(value, format="toon", delimiter=delimiter, indent=3)
    general = pith.encode(Plain(value), format="toon", delimiter=delimiter, indent=3)
    assert direct == general


def test_toon_written_directly_is_what_the_library_writes_for_random_values():
    rng = random.Random("direct")
    for _ in range(500):
        value = {"v": random_value(rng), "rows": [{"a": random_value(rng, 3), "b": 1} for _ in range(3)]}
        assert pith.encode(value, format="toon") == pith.encode(Plain(value), format="toon"), value
