"""An MCP server written with the official Python SDK, its tools wrapped by pith.mcp.

Run over stdio by test_mcp.py, which talks to it with the SDK's own client.
"""

from __future__ import annotations

from typing import Any

from mcp.types import CallToolResult

try:  # mcp 2.x
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server

from pith.mcp import encoded, rewrite_result

server = Server("pith-test")


def orders(n: int) -> list[dict[str, Any]]:
    return [
        {"id": 1000 + i, "customer": f"customer-{i}", "total": round(9.5 + i * 1.25, 2), "paid": i % 3 != 0,
         "big": 2**64 + i}
        for i in range(n)
    ]


@server.tool()
@encoded
def list_orders(n: int) -> list[dict[str, Any]]:
    """Orders, as a table."""
    return orders(n)


@server.tool()
@encoded(budget=120)
async def list_orders_within_budget(n: int) -> list[dict[str, Any]]:
    """Orders, cut to 120 tokens."""
    return orders(n)


@server.tool()
@encoded
def small() -> dict[str, int]:
    """Too small to be worth a rewrite."""
    return {"a": 1}


@server.tool()
@encoded
def json_text(n: int) -> str:
    """A tool that returns JSON text it wrote itself."""
    import json

    return json.dumps(orders(n), indent=2)


@server.tool()
def already_a_result(n: int) -> CallToolResult:
    """A hand-built result, rewritten item by item."""
    import json

    result = CallToolResult.model_validate({
        "content": [
            {"type": "text", "text": json.dumps(orders(n))},
            {"type": "text", "text": "plain words stay"},
        ],
    })
    return rewrite_result(result)


if __name__ == "__main__":
    server.run()
