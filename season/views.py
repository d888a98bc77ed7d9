"""Series and cups: the desk makes a series of the club's tournaments; everyone reads its
standings, its TV board and the roll of honour."""

import functools

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from season import selectors, services
from season.forms import SeriesForm, StageForm
from season.models import Stage
from toolbox.responses import render_page_or_partial
from toolbox.roles import can_manage_tournaments, can_merge_people

LIST = "season/list.html"
DETAIL = "season/detail.html"
EDIT = "season/edit.html"
BOARD = "season/board.html"
HONOURS = "season/honours.html"
BOARD_LINES = 16  # a page of the TV board, readable from 5 m


def _series(pk):
    series = selectors.series_at_club(pk)
    if series is None:
        raise Http404("no such series")
    return series


def series_editor(view):
    """The view gets the series ``pk`` if the user may edit it: an anonymous visitor goes to
    the sign-in page, anyone else without the right gets 403; another club's series is 404."""

    @functools.wraps(view)
    def wrapped(request, pk, *args, **kwargs):
        series = _series(pk)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not selectors.can_edit(request.user, series):
            raise PermissionDenied
        return view(request, series, *args, **kwargs)

    return wrapped


def _may_create(user):
    return can_manage_tournaments(user) or can_merge_people(user)


@require_GET
def series_list(request):
    context = {
        "series": selectors.visible_series().prefetch_related("stages"),
        "can_create": _may_create(request.user),
    }
    return render(request, LIST, context)


@require_GET
def honours(request):
    return render(request, HONOURS, {"honours": selectors.honours()})


@require_http_methods(["GET", "POST"])
def new(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not _may_create(request.user):
        raise PermissionDenied
    network_admin = can_merge_people(request.user)
    club_admin = can_manage_tournaments(request.user)
    form = SeriesForm(request.POST or None, may_be_network=network_admin and club_admin)
    if request.method == "POST":
        if not form.is_valid():
            return render(request, EDIT, {"form": form}, status=400)
        network = form.cleaned_data.get("network", False) or not club_admin
        series = services.save_series(form, network=network)
        messages.success(request, _("The series was created: now add its stages."))
        return redirect("season:edit", pk=series.pk)
    return render(request, EDIT, {"form": form})


@require_http_methods(["GET", "POST"])
@series_editor
def edit(request, series):
    """The series' settings and its stages."""
    form = SeriesForm(request.POST or None, instance=series)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            services.save_series(form)
            messages.success(request, _("The series was saved."))
            return redirect("season:edit", pk=series.pk)
        status = 400
    return render(request, EDIT, _edit_context(series, form=form), status=status)


def _edit_context(series, *, form=None, stage_form=None):
    stages = list(series.stages.order_by("number"))
    tournaments = selectors.club_tournaments(series)
    if stage_form is None:
        number = max((s.number for s in stages), default=0) + 1
        stage_form = StageForm(
            instance=Stage(series=series), tournaments=tournaments, initial={"number": number}
        )
    return {
        "series": series,
        "form": form or SeriesForm(instance=series),
        "stages": stages,
        "stage_form": stage_form,
        "tournaments": tournaments,
    }


@require_POST
@series_editor
def add_stage(request, series):
    tournaments = selectors.club_tournaments(series)
    form = StageForm(request.POST, instance=Stage(series=series), tournaments=tournaments)
    if not form.is_valid():
        return render(request, EDIT, _edit_context(series, stage_form=form), status=400)
    services.add_stage(series, form)
    messages.success(request, _("The stage was added."))
    return redirect("season:edit", pk=series.pk)


@require_POST
@series_editor
def remove_stage(request, series, stage_pk):
    stage = get_object_or_404(Stage, pk=stage_pk, series=series)
    services.remove_stage(stage)
    messages.success(request, _("The stage was removed."))
    return redirect("season:edit", pk=series.pk)


@require_GET
def detail(request, pk):
    series = _series(pk)
    table = selectors.table_of(series)
    context = {
        "series": series,
        "table": table,
        "can_edit": request.user.is_authenticated and selectors.can_edit(request.user, series),
    }
    return render(request, DETAIL, context)


@require_GET
def board(request, pk):
    """The standings on a TV, a page of lines at a time: ``?page=`` (the poll turns them)."""
    series = _series(pk)
    table = selectors.table_of(series)
    pages = max(1, -(-len(table.lines) // BOARD_LINES))
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        page = 1
    page = page if 1 <= page <= pages else 1
    lines = table.lines[(page - 1) * BOARD_LINES : page * BOARD_LINES]
    context = {
        "series": series,
        "table": table,
        "lines": lines,
        "page": page,
        "pages": pages,
        "next_page": page % pages + 1,
    }
    return render_page_or_partial(request, BOARD, "board", context)
