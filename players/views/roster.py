"""The roster pages for admins: list with live search, forms, (de)activation, CSV in and out."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from players import csv_io, services
from players.forms import CSVUploadForm, PlayerFilterForm, PlayerForm
from players.models import Player, join_club, name_key_for
from players.selectors import search_players
from toolbox.form_page import form_page
from toolbox.responses import render_page_or_partial
from toolbox.roles import roster_admin_required

LIST_LIMIT = 200
FORM = "players/roster/form.html"


def back_to_list(request):
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return redirect(target)
    return redirect("players:list")


@roster_admin_required
def player_list(request):
    filters = PlayerFilterForm(request.GET)
    query, status = filters.values()
    players = search_players(query, status).annotate(games=Count("seats"))
    total = players.count()
    context = {
        "filters": filters,
        "query": query,
        "status": status,
        "players": players[:LIST_LIMIT],
        "total": total,
        "limited": total > LIST_LIMIT,
        "export_query": request.GET.urlencode(),
    }
    return render_page_or_partial(request, "players/roster/list.html", "results", context)


@roster_admin_required
def player_create(request):
    return form_page(
        request,
        PlayerForm(request.POST or None),
        FORM,
        {"player": None},
        saved=lambda player: _("Player %(name)s added.") % {"name": player.full_name},
        done="players:list",
    )


@roster_admin_required
def player_edit(request, pk):
    player = get_object_or_404(Player, pk=pk)
    return form_page(
        request,
        PlayerForm(request.POST or None, instance=player),
        FORM,
        {"player": player, "can_delete": not player.has_played},
        saved=lambda player: _("Player %(name)s saved.") % {"name": player.full_name},
        done="players:list",
    )


@roster_admin_required
@require_POST
def player_join(request):
    """Put the network's person the roster form named (his full name and nickname, as typed)
    on this club's roster: one person, a membership at each club he plays at."""
    person = get_object_or_404(
        Player.everywhere,
        name_key=name_key_for(request.POST.get("full_name", ""), request.POST.get("nickname", "")),
        is_active=True,
    )
    join_club(person)
    messages.success(
        request, _("%(name)s is on this club's roster now.") % {"name": person.full_name}
    )
    return redirect("players:edit", pk=person.pk)


def set_active_view(active):
    @roster_admin_required
    @require_POST
    def view(request, pk):
        player = get_object_or_404(Player, pk=pk)
        try:
            services.set_player_active(player, active)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            if active:
                text = _("Player %(name)s is active again.")
            else:
                text = _("Player %(name)s is deactivated.")
            messages.success(request, text % {"name": player.full_name})
        return back_to_list(request)

    return view


player_deactivate = set_active_view(False)
player_reactivate = set_active_view(True)


@roster_admin_required
@require_POST
def player_delete(request, pk):
    player = get_object_or_404(Player, pk=pk)
    try:
        services.delete_player(player)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect("players:edit", pk=pk)
    messages.success(request, _("Player %(name)s deleted.") % {"name": player.full_name})
    return redirect("players:list")


@roster_admin_required
def players_export(request):
    query, status = PlayerFilterForm(request.GET).values()
    return csv_io.export_response(search_players(query, status))


@roster_admin_required
def players_import(request):
    """Upload a CSV and see what it would change; nothing is written here."""
    form = CSVUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        text = csv_io.decode(form.cleaned_data["file"].read())
        plan = csv_io.plan_import(text)
        return render(
            request, "players/roster/import_preview.html", {"plan": plan, "csv_text": text}
        )
    return render(request, "players/roster/import.html", {"form": form, "columns": csv_io.COLUMNS})


@roster_admin_required
@require_POST
def players_import_confirm(request):
    """Write the previewed file: all of it, or nothing if any row is now bad."""
    text = request.POST.get("csv_text", "")
    try:
        plan = csv_io.apply_import(text)
    except csv_io.ImportFailed as failure:
        return render(
            request, "players/roster/import_preview.html", {"plan": failure.plan, "csv_text": text}
        )
    counts = plan.counts
    messages.success(
        request,
        _("Import done: %(new)d new, %(updated)d updated, %(unchanged)d unchanged.") % counts,
    )
    if counts["linked"]:
        messages.success(
            request,
            _("%(linked)d players of the network joined this club's roster.") % counts,
        )
    return redirect(reverse("players:list"))
