"""Numbers typed or posted by people: ONE parser for the whole site.

``str.isdigit()`` accepts "²" and "٣" (which ``int()`` refuses) and ``int()`` accepts five
thousand digits (which no database column holds), so neither is used on request data:
``parse_int`` takes ASCII digits only, with an optional sign, and at most ``max_digits`` of
them; anything else is None. Plain Python, no Django: any layer above the rules engine may
use it.
"""

import re

# 18 digits always fit a signed 64-bit column (PostgreSQL bigint, SQLite INTEGER).
MAX_DIGITS = 18
_INTEGER = re.compile(r"([+-]?)([0-9]+)", re.ASCII)


def parse_int(text, *, max_digits=MAX_DIGITS, signed=True):
    """``text`` as an int, or None when it is not a whole number of ASCII digits.

    Leading and trailing whitespace is ignored. ``signed=False`` refuses a sign (ids, table
    numbers, sequence numbers); ``max_digits`` caps the length (leading zeros included).
    """
    if not isinstance(text, str):
        return None
    match = _INTEGER.fullmatch(text.strip())
    if match is None or len(match.group(2)) > max_digits:
        return None
    if match.group(1) and not signed:
        return None
    return int(match.group(0))


def parse_id(text):
    """A primary key or number in a URL or form (``"12"``), else None."""
    return parse_int(text, signed=False)
