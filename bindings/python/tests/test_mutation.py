"""A dict or list that Python code changes while pith reads it is refused
with RuntimeError naming its path, never a panic, never a text of a state
the container did not have."""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from decimal import Decimal

import pytest

import pith
from pith._native import tool_text


class Thing:
    pass


def encoders():
    """Every call that reads a value through the walk, with `default`."""
    return [
        pytest.param(lambda v, default: pith.encode(v, default=default), id="encode"),
        pytest.param(lambda v, default: pith.encode(v, format="toon", default=default), id="encode-toon"),
        pytest.param(lambda v, default: pith.measure(v, default=default), id="measure"),
        pytest.param(lambda v, default: pith.fit(v, 1000, default=default), id="fit"),
        pytest.param(lambda v, default: tool_text(v, default=default), id="tool_text"),
    ]


@pytest.mark.parametrize("call", encoders())
def test_a_dict_that_grows_while_it_is_read_is_a_runtime_error(call):
    d = {"a": Thing(), "b": 2}

    def default(o):
        d["c"] = 3
        return None

    with pytest.raises(RuntimeError) as e:
        call(d, default)
    assert str(e.value) == (
        "at $: dictionary changed size during iteration (from 2 keys to 3): "
        "expected it to stay unchanged while it is being encoded"
    )


def test_the_error_names_the_path_of_the_container_that_changed():
    inner = {"x": Thing(), "y": 1}
    value = {"rows": [0, inner]}

    def default(o):
        del inner["y"]
        return None

    with pytest.raises(RuntimeError, match=r"^at rows\[1\]: dictionary changed size during iteration \(from 2 keys to 1\)"):
        pith.encode(value, default=default)


def test_a_dict_whose_keys_change_but_not_its_size_is_refused():
    d = {"a": Thing(), "b": 1}

    def default(o):
        del d["a"]
        d["c"] = 1
        return None

    with pytest.raises(RuntimeError, match=r"^at \$: dictionary keys changed during iteration"):
        pith.encode(d, default=default)


@pytest.mark.parametrize(
    "change, words",
    [(lambda l: l.append(5), "from 3 items to 4"), (lambda l: l.pop(), "from 3 items to 2")],
    ids=["append", "pop"],
)
def test_a_list_that_changes_size_while_it_is_read_is_a_runtime_error(change, words):
    items = [1, Thing(), 2]
    value = {"items": items}

    def default(o):
        change(items)
        return None

    with pytest.raises(RuntimeError) as e:
        pith.encode(value, default=default)
    assert str(e.value).startswith(f"at items: list changed size during iteration ({words})"), e.value


def test_a_change_made_while_the_last_member_is_read_is_seen():
    d = {"a": 1, "b": Thing()}

    def default(o):
        d.pop("a")
        return None

    with pytest.raises(RuntimeError, match="from 2 keys to 1"):
        pith.encode(d, default=default)


def test_a_decimal_subclass_whose_str_changes_the_dict_is_refused():
    d: dict = {}

    class Sneaky(Decimal):
        def __str__(self):
            d["later"] = 1
            return super().__str__()

    d.update({"price": Sneaky("9.99"), "qty": 2})
    with pytest.raises(RuntimeError, match="dictionary changed size"):
        pith.encode(d)


@pytest.mark.parametrize("make", [OrderedDict, type("Sub", (dict,), {})])
def test_a_dict_subclass_that_changes_is_refused_too(make):
    d = make(a=Thing(), b=2)

    def default(o):
        d["c"] = 3
        return None

    with pytest.raises(RuntimeError, match=r"^at \$: dictionary changed size during iteration \(from 2 keys to 3\)"):
        pith.encode(d, default=default)


def test_a_list_subclass_that_changes_is_refused_too():
    class Items(list):
        pass

    items = Items([Thing(), 1])

    def default(o):
        items.append(2)
        return None

    with pytest.raises(RuntimeError, match=r"^at \$: list changed size during iteration \(from 2 items to 3\)"):
        pith.encode(items, default=default)


def test_a_default_that_changes_nothing_it_reads_is_fine():
    elsewhere: dict = {}

    def default(o):
        elsewhere[len(elsewhere)] = o
        return len(elsewhere)

    assert pith.decode(pith.encode({"a": Thing(), "b": [Thing()]}, default=default)) == {"a": 1, "b": [2]}


def test_a_dict_another_thread_changes_is_refused_or_read_never_a_panic():
    d = {f"k{i}": Thing() for i in range(100)}
    stop = threading.Event()

    def churn():
        # One change a turn, so that the size differs from one thread
        # switch to the next.
        i = 0
        while not stop.is_set():
            if i % 2:
                d["extra"] = i
            else:
                d.pop("extra", None)
            i += 1

    def default(o):
        # Python code, between whose lines the interpreter switches threads.
        return [1, 2]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    worker = threading.Thread(target=churn)
    worker.start()
    outcomes = []
    try:
        for _ in range(1000):
            try:
                outcomes.append(type(pith.decode(pith.encode(d, default=default))))
            except RuntimeError as e:
                assert str(e).startswith("at $: dictionary"), e
                outcomes.append(RuntimeError)
    finally:
        stop.set()
        worker.join()
        sys.setswitchinterval(interval)
    assert set(outcomes) <= {dict, RuntimeError} and len(outcomes) == 1000
