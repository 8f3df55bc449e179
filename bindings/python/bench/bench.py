"""pith against its Python peers, in one process, round-robin.

    python bindings/python/bench/bench.py [--rounds N] [--check] [DATASET]

Needs pith installed (``pip install ./bindings/python``) and the peers:
``pip install etoon==0.8.0 tiktoken``, with tiktoken's vocabulary offline in
``TIKTOKEN_CACHE_DIR`` (``../shared/tools/peer-terse/tiktoken_cache.py``
builds it from the npm ``tiktoken`` package). DATASET defaults to
``../shared/datasets/generated/gen-flat-50k.json`` beside the checkout.

Each round times every contestant once, in turn, so load on the machine
falls on all of them alike; the report gives each one's median and spread
(min–max) over the rounds, and each comparison as the median of the
per-round ratios. ``--check`` exits 1 when a target is missed:

* ``pith.encode(x, format="toon")`` at least as fast as ``etoon.dumps(x)``;
* ``pith.decode(toon)`` at least as fast as ``json.loads(json_text)``;
* ``pith.count_tokens(toon)`` at least 5x ``tiktoken`` ``encode(toon)``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path

import etoon
import pith
import tiktoken

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parents[2] / ".." / "shared" / "datasets" / "generated" / "gen-flat-50k.json"


def timed(f) -> float:
    start = time.perf_counter()
    f()
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dataset", nargs="?", default=str(DEFAULT))
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()

    text = Path(args.dataset).read_text(encoding="utf-8")
    x = json.loads(text)
    toon = pith.encode(x, format="toon")
    if toon != etoon.dumps(x):
        print("pith and etoon write different TOON for this input", file=sys.stderr)
        return 2
    if pith.decode(toon) != x:
        print("pith.decode does not give the input back", file=sys.stderr)
        return 2
    enc = tiktoken.get_encoding("o200k_base")
    if len(enc.encode(toon)) != pith.count_tokens(toon):
        print("pith.count_tokens and tiktoken disagree", file=sys.stderr)
        return 2

    contestants = {
        "pith.encode(toon)": lambda: pith.encode(x, format="toon"),
        "etoon.dumps": lambda: etoon.dumps(x),
        "json.dumps": lambda: json.dumps(x),
        "pith.decode(toon)": lambda: pith.decode(toon),
        "json.loads": lambda: json.loads(text),
        "pith.count_tokens": lambda: pith.count_tokens(toon),
        "tiktoken.encode": lambda: enc.encode(toon),
    }
    comparisons = [
        ("pith.encode(toon)", "etoon.dumps", 1.0),
        ("pith.encode(toon)", "json.dumps", None),
        ("pith.decode(toon)", "json.loads", 1.0),
        ("pith.count_tokens", "tiktoken.encode", 5.0),
    ]
    for f in contestants.values():
        f()  # warm up: vocabularies, caches, code paths
    times: dict[str, list[float]] = {name: [] for name in contestants}
    gc.disable()
    try:
        for _ in range(args.rounds):
            for name, f in contestants.items():
                times[name].append(timed(f))
            gc.collect()
    finally:
        gc.enable()

    mb = len(text.encode("utf-8")) / 1e6
    print(f"{Path(args.dataset).name}: {mb:.2f} MB of JSON, {len(toon.encode()) / 1e6:.2f} MB of TOON, "
          f"{args.rounds} rounds, Python {sys.version.split()[0]}, pith {pith.__version__}, "
          f"etoon {getattr(etoon, '__version__', '?')}, tiktoken {tiktoken.__version__}")
    for name, ts in times.items():
        ms = [t * 1e3 for t in ts]
        print(f"  {name:<20} median {statistics.median(ms):8.2f} ms   (min {min(ms):.2f}, max {max(ms):.2f})")
    failed = False
    for mine, peer, target in comparisons:
        ratios = [p / m for m, p in zip(times[mine], times[peer])]
        r = statistics.median(ratios)
        verdict = ""
        if target is not None:
            ok = r >= target
            failed |= not ok
            verdict = f"  target >= {target:g}x: {'ok' if ok else 'MISSED'}"
        print(f"  {mine} vs {peer}: {r:.2f}x faster (per-round ratios {min(ratios):.2f}-{max(ratios):.2f}){verdict}")
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    if "TIKTOKEN_CACHE_DIR" not in os.environ:
        print("note: TIKTOKEN_CACHE_DIR is not set; tiktoken will try to download its vocabulary",
              file=sys.stderr)
    sys.exit(main())
