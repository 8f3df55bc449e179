"""pith for MCP servers written with the official Python SDK (``mcp``).

A tool's return value becomes a ``CallToolResult`` whose text is what the
``pith mcp`` proxy would have sent: the value in pith's cheapest form that
reads back to exactly the same value, with ``_meta["pith/encoding"]``
naming the syntax (``pith``, ``toon``, ``hoisted`` or ``json``) and, when a budget
cut the value, ``_meta["pith/budget"]`` (``cut`` or ``exceeded``). The same
function decides as in the proxy, so a text saving fewer than
``min_saving`` tokens is left as compact JSON, without ``_meta``.

    from mcp.server.mcpserver import MCPServer   # FastMCP in mcp 1.x
    from pith.mcp import encoded

    server = MCPServer("orders")

    @server.tool()
    @encoded
    def list_orders(status: str) -> list[dict]:
        return db.orders(status)

The SDK turns a ``CallToolResult`` from a tool into the reply as it is, so
the server needs no other change. ``encoded`` marks the tool as returning
one, so the SDK derives no output schema from the original annotation.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Optional, TypeVar, Union, overload

from mcp.types import CallToolResult

from ._native import tool_text

__all__ = ["encoded", "rewrite_result", "tool_result"]

F = TypeVar("F", bound=Callable[..., Any])


def tool_result(
    value: Any,
    *,
    min_saving: int = 10,
    budget: Optional[int] = None,
    tokenizer: str = "o200k",
    default: Optional[Callable[[Any], Any]] = None,
) -> CallToolResult:
    """A tool's return value as the ``CallToolResult`` ``pith mcp`` would send.

    ``value`` is any JSON value (as ``pith.encode`` takes it; ``default``
    converts other objects) or a str, which is taken as the tool's text, as
    the SDK takes it (a str holding a JSON object or array is re-encoded,
    as the proxy re-encodes such texts). A ``CallToolResult`` is passed to
    ``rewrite_result``. ``budget`` bounds the text to that many tokens of
    ``tokenizer``, cutting collections at row boundaries with omission
    receipts.
    """
    if isinstance(value, CallToolResult):
        return rewrite_result(value, min_saving=min_saving, budget=budget, tokenizer=tokenizer)
    text, meta = tool_text(
        value, min_saving=min_saving, budget=budget, tokenizer=tokenizer, default=default
    )
    item: dict[str, Any] = {"type": "text", "text": text}
    if meta:
        item["_meta"] = meta
    return CallToolResult.model_validate({"content": [item]})


def rewrite_result(
    result: CallToolResult,
    *,
    min_saving: int = 10,
    budget: Optional[int] = None,
    tokenizer: str = "o200k",
) -> CallToolResult:
    """``result`` with its text items rewritten as the proxy rewrites them.

    An error result is returned as it is; so are items that are not text,
    and texts that are not JSON or would not save ``min_saving`` tokens.
    ``structuredContent`` is kept.
    """
    data = result.model_dump(by_alias=True, exclude_none=True, mode="json")
    if data.get("isError"):
        return result
    changed = False
    for item in data.get("content", []):
        if item.get("type") != "text" or not isinstance(item.get("text"), str):
            continue
        meta = item.get("_meta")
        if meta is not None and not isinstance(meta, dict):
            continue
        text, added = tool_text(item["text"], min_saving=min_saving, budget=budget, tokenizer=tokenizer)
        if added:
            item["text"] = text
            item["_meta"] = {**(meta or {}), **added}
            changed = True
    return CallToolResult.model_validate(data) if changed else result


@overload
def encoded(func: F) -> F: ...


@overload
def encoded(
    *,
    min_saving: int = 10,
    budget: Optional[int] = None,
    tokenizer: str = "o200k",
    default: Optional[Callable[[Any], Any]] = None,
) -> Callable[[F], F]: ...


def encoded(
    func: Optional[F] = None,
    *,
    min_saving: int = 10,
    budget: Optional[int] = None,
    tokenizer: str = "o200k",
    default: Optional[Callable[[Any], Any]] = None,
) -> Union[F, Callable[[F], F]]:
    """Decorates a tool function (sync or async) so that its return value
    goes through ``tool_result``; use it under the SDK's ``@server.tool()``.

    The wrapper keeps the function's name, docstring and parameters (the
    tool's input schema) and declares ``CallToolResult`` as its return type.
    """

    def wrap(f: F) -> F:
        options = dict(min_saving=min_saving, budget=budget, tokenizer=tokenizer)

        if inspect.iscoroutinefunction(f):

            @functools.wraps(f)
            async def run_async(*args: Any, **kwargs: Any) -> CallToolResult:
                return tool_result(await f(*args, **kwargs), default=default, **options)

            wrapper: Any = run_async
        else:

            @functools.wraps(f)
            def run(*args: Any, **kwargs: Any) -> CallToolResult:
                return tool_result(f(*args, **kwargs), default=default, **options)

            wrapper = run
        try:
            # Resolved annotations, for modules with `from __future__ import annotations`.
            signature = inspect.signature(f, eval_str=True)
        except TypeError:  # Python 3.9 has no eval_str
            signature = inspect.signature(f)
        wrapper.__signature__ = signature.replace(return_annotation=CallToolResult)
        wrapper.__annotations__ = {**getattr(f, "__annotations__", {}), "return": CallToolResult}
        # The SDK reads the signature, not the wrapped function's.
        del wrapper.__wrapped__
        return wrapper

    return wrap(func) if func is not None else wrap
