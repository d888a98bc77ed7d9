"""CSV downloads that Excel opens with Cyrillic intact: UTF-8 with a byte-order mark."""

import csv
import io

from django.http import HttpResponse, StreamingHttpResponse
from django.utils import timezone

BOM = "\ufeff"
CONTENT_TYPE = "text/csv; charset=utf-8"


def csv_text(header, rows):
    """The CSV document (with BOM) for a header row and an iterable of rows."""
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
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
        yield BOM + writer.writerow(header)
        for row in rows:
            yield writer.writerow(row)

    return _attachment(StreamingHttpResponse(lines(), content_type=CONTENT_TYPE), basename)


class _Echo:
    """A file for ``csv.writer`` that hands each written line back instead of keeping it."""

    def write(self, value):
        return value


def _attachment(response, basename):
    filename = f"{basename}-{timezone.localdate().isoformat()}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def formula_safe(value):
    """A cell a spreadsheet will not run: text starting like a formula gets a leading '."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text
