"""CSV downloads that Excel opens with Cyrillic intact (UTF-8 with a byte-order mark) and
that cannot carry a formula.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage
return before one) as a formula: a guest named ``=HYPERLINK("http://…","x")`` would become a
live link in the admin's Excel. Every cell goes through ``safe_cell``: such text gets a
leading ``'`` (the spreadsheets' "this is text" mark), while true numbers — ints, floats and
decimals passed as numbers, such as a score of -53 — are written as they are. The roster's
import takes the mark off again (``unmark_cell``), so an export imports unchanged.
"""

import csv
import io
from decimal import Decimal

from django.http import HttpResponse, StreamingHttpResponse
from django.utils import timezone

BOM = "\ufeff"
CONTENT_TYPE = "text/csv; charset=utf-8"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TEXT_MARK = "'"


def safe_cell(value):
    """``value`` as a CSV cell no spreadsheet reads as a formula (numbers stay numbers)."""
    if value is None:
        return ""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return value
    text = str(value)
    return TEXT_MARK + text if text.startswith(FORMULA_STARTS) else text


def safe_row(row):
    return [safe_cell(value) for value in row]


def unmark_cell(text):
    """A cell read back from one of these files: without the mark ``safe_cell`` added."""
    if text.startswith(TEXT_MARK) and text[1:].startswith(FORMULA_STARTS):
        return text[1:]
    return text


def csv_text(header, rows):
    """The CSV document (with BOM) for a header row and an iterable of rows."""
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer)
    writer.writerow(safe_row(header))
    writer.writerows(safe_row(row) for row in rows)
    return buffer.getvalue()


def csv_response(basename, header, rows):
    """An attachment named ``<basename>-<date>.csv``."""
    return _attachment(HttpResponse(csv_text(header, rows), content_type=CONTENT_TYPE), basename)


def streamed_csv_response(basename, header, rows):
    """The same, written row by row as ``rows`` yields them: for exports of any size.

    The rows are produced after the view has returned: translate what they hold before.
    """
    writer = csv.writer(_Echo())

    def lines():
        yield BOM + writer.writerow(safe_row(header))
        for row in rows:
            yield writer.writerow(safe_row(row))

    return _attachment(StreamingHttpResponse(lines(), content_type=CONTENT_TYPE), basename)


class _Echo:
    """A file for ``csv.writer`` that hands each written line back instead of keeping it."""

    def write(self, value):
        return value


def _attachment(response, basename):
    filename = f"{basename}-{timezone.localdate().isoformat()}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


formula_safe = safe_cell  # the name tournaments' code and tests know it by
