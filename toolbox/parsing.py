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


# Roubles as a cashier types them: «3000», «3 000», «3000.50», «3 000,50» (a space, a no-break
# space or a narrow one between thousands; a point or a comma before at most two kopeck digits).
_ROUBLES = re.compile(
    r"([0-9]{1,3}(?:[ \u00a0\u202f][0-9]{3})+|[0-9]+)(?:[.,]([0-9]{1,2}))?", re.ASCII
)


def parse_kopecks(text, *, max_digits=MAX_DIGITS - 2):
    """An amount of roubles (with kopecks or not) as integer kopecks, or None.

    ASCII digits only, no sign, no exponent: ``"3 000,50"`` → 300050, ``"3000.5"`` → 300050,
    ``"1e3"``, ``"+5"``, ``".5"``, ``"١٠٠"`` → None. ``max_digits`` caps the roubles' digits.
    """
    if not isinstance(text, str):
        return None
    match = _ROUBLES.fullmatch(text.strip())
    if match is None:
        return None
    roubles = re.sub(r"[^0-9]", "", match.group(1))
    if len(roubles) > max_digits:
        return None
    return int(roubles) * 100 + int((match.group(2) or "0").ljust(2, "0"))


def parse_id(text):
    """A primary key or number in a URL or form (``"12"``), else None."""
    return parse_int(text, signed=False)
