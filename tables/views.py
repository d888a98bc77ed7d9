"""The tables pages for admins: list, forms, (de)activation, out of service, CSV export, the
sheet of QR codes to stick on the tables."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tables import services
from tables.forms import TableForm
from tables.models import Table
from tables.selectors import tables_with_status
from toolbox.csv_export import csv_response
from toolbox.form_page import form_page
from toolbox.qr import qr_svg
from toolbox.roles import roster_admin_required

CSV_COLUMNS = ["number", "name", "kind", "active", "out_of_service", "status"]


@roster_admin_required
def table_list(request):
    return render(request, "tables/list.html", {"tables": tables_with_status(active_only=False)})


@roster_admin_required
def table_qr_sheet(request):
    """A printable sheet: each active table's number and the QR code of its board's address."""
    cards = []
    for table in Table.objects.filter(is_active=True).order_by("number"):
        url = request.build_absolute_uri(reverse("games:board", args=[table.number]))
        cards.append({"table": table, "url": url, "qr": qr_svg(url)})
    return render(request, "tables/qr_sheet.html", {"cards": cards})


@roster_admin_required
def table_create(request):
    return form_page(
        request,
        TableForm(request.POST or None),
        "tables/form.html",
        {"table": None},
        saved=lambda table: _("Table %(number)d added.") % {"number": table.number},
        done="tables:list",
    )


@roster_admin_required
def table_edit(request, pk):
    table = get_object_or_404(Table, pk=pk)
    return form_page(
        request,
        TableForm(request.POST or None, instance=table),
        "tables/form.html",
        {"table": table},
        saved=lambda table: _("Table %(number)d saved.") % {"number": table.number},
        done="tables:list",
    )


def table_switch(service, value, done_message):
    @roster_admin_required
    @require_POST
    def view(request, pk):
        table = get_object_or_404(Table, pk=pk)
        try:
            service(table, value)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            messages.success(request, done_message() % {"number": table.number})
        return redirect("tables:list")

    return view


table_activate = table_switch(
    services.set_table_active, True, lambda: _("Table %(number)d is active again.")
)
table_deactivate = table_switch(
    services.set_table_active, False, lambda: _("Table %(number)d is deactivated.")
)
table_out_of_service = table_switch(
    services.set_out_of_service, True, lambda: _("Table %(number)d is out of service.")
)
table_back_in_service = table_switch(
    services.set_out_of_service, False, lambda: _("Table %(number)d is back in service.")
)


@roster_admin_required
def tables_export(request):
    rows = (
        [
            table.number,
            table.name,
            table.kind,
            "1" if table.is_active else "0",
            "1" if table.out_of_service else "0",
            table.status,
        ]
        for table in tables_with_status(active_only=False)
    )
    return csv_response("tables", CSV_COLUMNS, rows)
