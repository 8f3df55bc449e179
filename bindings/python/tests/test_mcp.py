"""pith.mcp's helpers drive a real MCP server; the SDK's own client reads it."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

mcp = pytest.importorskip("mcp", reason="the MCP SDK is installed by .ci/run")

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

import pith  # noqa: E402

SERVER = Path(__file__).with_name("mcp_server.py")


def call(tool: str, arguments: dict) -> dict:
    """One tool call over stdio, with the result as the wire has it."""

    async def go():
        params = StdioServerParameters(command=sys.executable, args=[str(SERVER)])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = await session.list_tools()
                listed = {t.name: t for t in tools.tools}
                result = await session.call_tool(tool, arguments)
                return listed, result.model_dump(by_alias=True, exclude_none=True, mode="json")

    return asyncio.run(go())


def orders(n):
    sys.path.insert(0, str(SERVER.parent))
    import mcp_server

    return mcp_server.orders(n)


def test_a_tool_result_is_pith_text_with_the_proxys_meta():
    listed, result = call("list_orders", {"n": 25})
    # The tool keeps its input schema and declares no output schema.
    tool = listed["list_orders"].model_dump(by_alias=True, exclude_none=True)
    assert tool["inputSchema"]["properties"]["n"]["type"] == "integer"
    assert "outputSchema" not in tool
    [item] = result["content"]
    assert item["_meta"] == {"pith/encoding": "pith"}
    assert item["text"] == pith.encode(orders(25))
    assert pith.decode(item["text"]) == orders(25)
    assert pith.count_tokens(item["text"]) < 0.6 * pith.count_tokens(json.dumps(orders(25)))
    assert "structuredContent" not in result and not result.get("isError")


def test_a_budget_cuts_with_receipts():
    _, result = call("list_orders_within_budget", {"n": 200})
    [item] = result["content"]
    assert item["_meta"]["pith/budget"] == "cut"
    assert item["_meta"]["pith/encoding"] in ("pith", "toon", "hoisted", "json")
    doc = pith.decode(item["text"])
    assert doc["read_output"]["fits"] is True
    assert pith.count_tokens(item["text"]) <= 120
    receipt = doc["result_omitted"]
    assert receipt["total"] == 200 and receipt["shown"] + receipt["omitted"] == 200
    page = pith.encode(orders(200), budget=120, cursor=receipt["cursor"])
    assert pith.decode(page)["result"][0] == orders(200)[receipt["shown"]]


def test_a_small_result_is_left_as_compact_json():
    _, result = call("small", {})
    [item] = result["content"]
    assert item["text"] == '{"a":1}' and "_meta" not in item


def test_json_text_from_the_tool_is_rewritten_as_the_proxy_would():
    _, result = call("json_text", {"n": 10})
    [item] = result["content"]
    assert item["_meta"]["pith/encoding"] == "pith"
    assert pith.decode(item["text"]) == orders(10)


def test_a_call_tool_result_is_rewritten_item_by_item():
    _, result = call("already_a_result", {"n": 10})
    first, second = result["content"]
    assert first["_meta"] == {"pith/encoding": "pith"}
    assert pith.decode(first["text"]) == orders(10)
    assert second == {"type": "text", "text": "plain words stay"}


def test_tool_result_without_a_server():
    from pith.mcp import tool_result

    r = tool_result([{"id": i, "name": f"n{i}"} for i in range(30)])
    data = r.model_dump(by_alias=True, exclude_none=True)
    assert data["content"][0]["_meta"] == {"pith/encoding": "pith"}
    err = tool_result(r.model_copy(update={"is_error": True} if hasattr(r, "is_error") else {"isError": True}))
    assert err.model_dump(by_alias=True, exclude_none=True)["content"] == data["content"]
