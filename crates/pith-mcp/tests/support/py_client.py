"""Drives py_server.py with the official Python client (ClientSession,
which validates structuredContent against each tool's outputSchema),
through whatever command it is given, and writes what the client got.

    python py_client.py OUT.json COMMAND [ARGS...]
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

CALLS = [
    ("list_issues", {"count": 40}),
    ("search_issues", {"query": "parser", "count": 30}),
    ("count_issues", {}),
    ("describe", {"name": "pith"}),
    ("list_issues", {"count": 60}),
]


async def main(out: str, command: list[str]) -> None:
    params = StdioServerParameters(command=command[0], args=command[1:])
    outcome = {"tools": [], "calls": []}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            outcome["tools"] = [t.name for t in listed.tools]
            for name, args in CALLS:
                try:
                    result = await session.call_tool(name, args)
                    wire = result.model_dump(by_alias=True, mode="json", exclude_none=True)
                    outcome["calls"].append({"name": name, "ok": True, "result": wire})
                except Exception as e:  # the client's own validation errors
                    outcome["calls"].append({"name": name, "ok": False, "error": str(e)})
    with open(out, "w") as f:
        json.dump(outcome, f)


asyncio.run(main(sys.argv[1], sys.argv[2:]))
