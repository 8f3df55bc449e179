"""An MCP server written with the official Python SDK (MCPServer, the SDK's
FastMCP): tools with typed returns, so each declares an outputSchema and
returns structuredContent beside its text.

    python py_server.py stdio
    python py_server.py http PORT          (streamable HTTP on 127.0.0.1)
"""

import sys

from pydantic import BaseModel

from mcp.server.mcpserver import MCPServer


class Issue(BaseModel):
    id: int
    number: int
    title: str
    state: str
    author: str
    comments: int
    created: str
    labels: list[str]
    score: float


class Page(BaseModel):
    total: int
    issues: list[Issue]


def issues(n: int) -> list[Issue]:
    states = ["open", "closed", "draft"]
    authors = ["ada", "grace", "linus", "barbara"]
    return [
        Issue(
            id=90_000 + i,
            number=1000 + i,
            title=f"Parser fails on input {i}",
            state=states[i % 3],
            author=authors[i % 4],
            comments=i % 7,
            created=f"2026-11-{1 + i % 28:02d}T{(7 * i) % 24:02d}:{(13 * i) % 60:02d}:{(29 * i) % 60:02d}Z",
            labels=["bug", f"area-{i % 4}"],
            score=i * 0.5,
        )
        for i in range(n)
    ]


server = MCPServer("pith-e2e-python")


@server.tool()
def list_issues(count: int = 40) -> list[Issue]:
    """Issues, as a list (one text item per issue, structuredContent {"result": [...]})."""
    return issues(count)


@server.tool()
def search_issues(query: str, count: int = 30) -> Page:
    """A page of issues, as one object."""
    return Page(total=count, issues=issues(count))


@server.tool()
def count_issues() -> int:
    """A number: too small to rewrite."""
    return 42


@server.tool()
def describe(name: str) -> dict[str, str]:
    """A small object."""
    return {"name": name, "kind": "demo"}


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        server.run(
            transport="streamable-http",
            host="127.0.0.1",
            port=int(sys.argv[2]),
            stateless_http=False,
        )
    else:
        server.run()
