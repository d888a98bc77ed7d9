"""CSV downloads that Excel opens with Cyrillic intact: UTF-8 with a byte-order mark."""

import csv
import io

from django.http import HttpResponse
from django.utils import timezone

BOM = "\ufeff"


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
    filename = f"{basename}-{timezone.localdate().isoformat()}.csv"
    response = HttpResponse(csv_text(header, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
