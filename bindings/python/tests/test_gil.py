"""The GIL is released while pith works: another thread runs meanwhile.

The probe runs a call in a second thread while this one wakes every
millisecond, and reports the longest stretch this thread could not run, as
a share of the call's time: near 1 for a call that holds the GIL
throughout, and for pith's calls the share of the work that must hold it
(reading Python objects in, building them out).
"""

from __future__ import annotations

import threading
import time

import pith


def longest_hold(call) -> float:
    done = threading.Event()
    took = []

    def worker():
        t = time.perf_counter()
        call()
        took.append(time.perf_counter() - t)
        done.set()

    thread = threading.Thread(target=worker)
    last = time.perf_counter()
    thread.start()
    longest = 0.0
    while not done.is_set():
        time.sleep(0.001)
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    thread.join()
    return longest / took[0]


BIG = {"rows": [{"id": i, "name": f"user{i}", "score": i * 0.5, "tags": ["a", "b"]} for i in range(60_000)]}


def test_the_probe_sees_a_call_that_holds_the_gil():
    numbers = [(i * 7919) % 1_000_003 for i in range(1_000_000)]
    assert longest_hold(lambda: sorted(numbers)) > 0.8


def test_encoding_releases_the_gil():
    assert longest_hold(lambda: pith.encode(BIG)) < 0.6


def test_decoding_releases_the_gil():
    # Long strings: much text to read, few objects to build.
    words = {"rows": [{"id": i, "text": f"line {i}: " + "lorem ipsum dolor sit amet, " * 12} for i in range(20_000)]}
    text = pith.encode(words, format="toon")
    assert longest_hold(lambda: pith.decode(text)) < 0.8


def test_counting_releases_the_gil():
    text = pith.encode(BIG, format="json") * 3
    assert longest_hold(lambda: pith.count_tokens(text)) < 0.4
