"""The package as installed: stubs that match the functions, typing marker, docs."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pith
import pith._native as native

PACKAGE = Path(pith.__file__).parent


def stub_signatures() -> dict[str, list[tuple[str, str, str | None]]]:
    tree = ast.parse((PACKAGE / "_native.pyi").read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            a = node.args
            params = []
            positional = a.posonlyargs + a.args
            defaults = [None] * (len(positional) - len(a.defaults)) + a.defaults
            for arg, d in zip(positional, defaults):
                params.append((arg.arg, "positional", None if d is None else ast.unparse(d)))
            for arg, d in zip(a.kwonlyargs, a.kw_defaults):
                params.append((arg.arg, "keyword", None if d is None else ast.unparse(d)))
            out[node.name] = params
    return out


def runtime_signature(f) -> list[tuple[str, str, str | None]]:
    params = []
    for p in inspect.signature(f).parameters.values():
        kind = "keyword" if p.kind is p.KEYWORD_ONLY else "positional"
        default = None if p.default is p.empty else repr(p.default)
        params.append((p.name, kind, default))
    return params


def test_the_stubs_match_the_native_functions():
    stubs = stub_signatures()
    names = {n for n in dir(native) if callable(getattr(native, n)) and not n.startswith("_")}
    assert set(stubs) == names
    for name, params in stubs.items():
        got = runtime_signature(getattr(native, name))
        norm = [(n, k, None if d is None else repr(ast.literal_eval(d))) for n, k, d in params]
        assert got == norm, name


def test_every_function_is_documented():
    for name in ["encode", "decode", "fit", "count_tokens", "measure"]:
        doc = getattr(pith, name).__doc__
        assert doc and len(doc) > 80, name


def test_the_package_is_typed():
    assert (PACKAGE / "py.typed").is_file()
    assert (PACKAGE / "_native.pyi").is_file()
