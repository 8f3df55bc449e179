"""The native functions of pith (re-exported by the ``pith`` package)."""

from decimal import Decimal
from typing import Any, Callable, Literal, Optional, Union

from ._errors import Fitted

JSON = Union[dict[str, Any], list[Any], tuple[Any, ...], str, int, float, Decimal, bool, None]
Format = Literal["auto", "pith", "toon", "toon3", "hoisted", "hoisted-compact", "table", "json"]
Tokenizer = Literal["o200k", "cl100k", "bytes4", "o200k_base", "cl100k_base"]
Delimiter = Literal[",", "\t", "|"]
Budget = Union[int, Literal["unbounded"]]

__version__: str

def encode(
    obj: JSON,
    *,
    format: Format = "auto",
    tokenizer: Tokenizer = "o200k",
    min_readability: int = 4,
    budget: Optional[Budget] = None,
    cursor: Optional[str] = None,
    indent: int = 2,
    delimiter: Delimiter = ",",
    default: Optional[Callable[[Any], Any]] = None,
) -> str:
    """Encode a JSON value as text: by default the cheapest form that keeps
    every fact (auto), never more tokens than compact JSON.

    ``min_readability`` (1 to 5) is the lowest readability score auto and
    ``pith`` may write. ``budget`` bounds the
    whole output in tokens of ``tokenizer``, with omission receipts;
    ``cursor`` continues a cut collection. Ints of any size and Decimals
    are written exactly, floats by their shortest repr. Raises TypeError or
    ValueError naming the JSON path, RuntimeError naming the path of a dict
    or list whose size changes while it is read (by ``default``, say), and
    BudgetExceededError. The int options refuse a bool. Releases the GIL
    while encoding.
    """

def fit(
    obj: JSON,
    budget: Budget,
    *,
    format: Format = "auto",
    tokenizer: Tokenizer = "o200k",
    min_readability: int = 4,
    cursor: Optional[str] = None,
    indent: int = 2,
    delimiter: Delimiter = ",",
    default: Optional[Callable[[Any], Any]] = None,
) -> Fitted:
    """Encode within a token budget and report the exact tokens of the
    output and what was cut."""

def decode(
    text: Union[str, bytes, bytearray],
    *,
    lenient: bool = False,
    parse_float: Optional[Callable[[str], Any]] = None,
    parse_int: Optional[Callable[[str], Any]] = None,
) -> Any:
    """Decode any text ``encode`` writes back to Python objects.

    ``parse_int`` gets the digits of every whole number an int is made
    of, ``parse_float`` the exact text of every other number
    (``parse_float=decimal.Decimal`` keeps every digit). A whole number
    becomes an int when it has at most ``sys.get_int_max_str_digits()``
    digits, the zeros an exponent stands for included (1,000,000 when that
    limit is 0), and while the text's ints beyond 64 bits hold at most
    100,000 digits plus 8 for each byte of the text in all (so that a
    short text such as ``1e999999`` cannot cost seconds); beyond either
    it goes to ``parse_float`` when given, and otherwise raises
    DecodeError naming its ``path``. Raises DecodeError with ``lineno``,
    ``colno``, ``pos`` and ``msg``. Releases the GIL while reading the text
    (the objects are made with it held).
    """

def count_tokens(text: str, tokenizer: Tokenizer = "o200k") -> int:
    """Count tokens exactly as tiktoken does (o200k, cl100k), or estimate
    them as ceil(bytes / 4) (bytes4)."""

def measure(
    obj: JSON,
    *,
    tokenizer: Tokenizer = "o200k",
    default: Optional[Callable[[Any], Any]] = None,
) -> dict[str, Any]:
    """Every form's bytes and tokens, and what auto chose."""

def tool_text(
    obj: Any,
    *,
    min_saving: int = 10,
    budget: Optional[int] = None,
    tokenizer: Tokenizer = "o200k",
    default: Optional[Callable[[Any], Any]] = None,
) -> tuple[str, dict[str, str]]:
    """A tool result's text as ``pith mcp`` would send it, and its ``_meta``."""
