"""pith: JSON for LLM agents in the fewest tokens, without losing a fact.

``encode`` writes a JSON value in the cheapest text a model reads reliably
(the pith notation, TOON, key-hoisted tables or compact JSON, chosen by
exact token counts among those readable enough),
``decode`` reads every form back to exactly the same value, ``count_tokens``
counts as tiktoken does, ``measure`` reports every form's size, and budgets
bound the whole output with omission receipts and continuation cursors.
``dumps`` and ``loads`` are ``encode`` and ``decode`` under the ``json``
module's names. ``pith.mcp`` turns a tool's return value into an MCP
``CallToolResult`` as the ``pith mcp`` proxy would rewrite it.

    >>> import pith
    >>> text = pith.encode({"ids": [1, 2, 3], "big": 2**64}, format="toon")
    >>> print(text)
    ids[3]: 1,2,3
    big: 18446744073709551616
    >>> pith.decode(text) == {"ids": [1, 2, 3], "big": 2**64}
    True
"""

from ._errors import BudgetExceededError, DecodeError, Fitted
from ._native import __version__, count_tokens, decode, encode, fit, measure

dumps = encode
loads = decode

__all__ = [
    "BudgetExceededError",
    "DecodeError",
    "Fitted",
    "__version__",
    "count_tokens",
    "decode",
    "dumps",
    "encode",
    "fit",
    "loads",
    "measure",
]
