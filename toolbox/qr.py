"""QR codes as inline SVG, made here by segno (no image files, no external service)."""

from functools import lru_cache

import segno


@lru_cache(maxsize=256)
def qr_svg(url):
    """The QR code of ``url`` as inline SVG without a size (CSS sizes it)."""
    return segno.make(url, error="m").svg_inline(
        scale=1, border=2, omitsize=True, dark="#000", light="#fff"
    )
