"""Public records: a game's page, the leaderboards, the handicap hint (the CSV exports are in
``exports.py``).

Everything here is read-only and open to everyone (spectators included); only GET is served.
"""

import json

from django import forms
from django.http import Http404
from django.shortcuts import render
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from games import rules, selectors
from games.forms import SETTING_PREFIX
from games.models import Game, Outcome, default_variant, variant_choices, variant_label
from games.rules_overview import played_settings
from records import handicap, rating
from records.stats import (
    PERIODS,
    format_figure,
    game_with_seats,
    leaderboard,
    leaderboard_columns,
    recorded_by,
    state_figures,
)
from toolbox import forms as ascii_forms
from toolbox.responses import render_page_or_partial
from toolbox.roles import marker_required
from toolbox.shared_pages import shared_briefly

DEFAULT_MIN_GAMES = 3
DRAW_LABELS = {
    "normal": gettext_lazy("normal draw"),
    "conditional": gettext_lazy("conditional draw"),
}


# --- the game page -----------------------------------------------------------------------


@require_GET
def game_detail(request, pk):
    """Any game: players, settings, result, and the whole log with the state after each event."""
    try:
        game = game_with_seats(pk)
    except Game.DoesNotExist:
        raise Http404 from None
    variant = selectors.variant_of(game)
    seats = list(game.seats.all())
    try:
        log = selectors.game_log(game)
        log_error = None
    except (rules.RuleViolation, rules.SettingsError) as exc:  # a log the engine cannot replay
        log, log_error = [], exc
    # Same order as the log: event number n is seq n. A stroke kept on the phone offline
    # shows when it was tapped, and when it landed beside it.
    recorded = {
        seq: (tapped or at, at if tapped else None)
        for seq, at, tapped in game.events.order_by("seq").values_list(
            "seq", "recorded_at", "tapped_at"
        )
    }
    steps = [
        {
            "number": number,
            "step": step,
            "is_undo": step.event.kind == rules.UNDO,
            "recorded_at": recorded.get(number, (None, None))[0],
            "landed_at": recorded.get(number, (None, None))[1],
            "figures": state_figures(game.variant, step.after),
        }
        for number, step in enumerate(log, start=1)
    ]
    context = {
        "game": game,
        "variant": variant,
        "seats": seats,
        "seat_names": [seat.name for seat in seats],  # the log names the players
        "recorded_by": recorded_by(game),
        "settings_rows": played_settings(game, variant, seats),
        "winners": [seat for seat in seats if seat.outcome in (Outcome.WIN, Outcome.DRAW)],
        "draw_label": DRAW_LABELS.get((game.result or {}).get("draw")),
        "steps": steps,
        "extras_labels": [label for label, _value in steps[0]["figures"]["extras"]]
        if steps
        else [],
        "log_error": log_error,
    }
    return render(request, "records/game_detail.html", context)


# --- leaderboards ------------------------------------------------------------------------


class LeaderboardForm(forms.Form):
    variant = forms.ChoiceField(label=gettext_lazy("Game"), choices=variant_choices, required=False)
    period = forms.ChoiceField(
        label=gettext_lazy("Period"), choices=list(PERIODS.items()), required=False
    )
    min_games = ascii_forms.IntegerField(
        label=gettext_lazy("Minimum games"), min_value=1, max_value=10_000, required=False
    )
    sort = forms.CharField(required=False, max_length=40)
    dir = forms.ChoiceField(choices=[("asc", "asc"), ("desc", "desc")], required=False)

    def choices(self):
        """The valid query, defaults for anything missing or wrong (a bad link is no error)."""
        self.is_valid()
        data = self.cleaned_data  # the fields that are valid
        direction = data.get("dir")
        return {
            "variant": data.get("variant") or default_variant(),
            "period": data.get("period") or "all",
            "min_games": data.get("min_games") or DEFAULT_MIN_GAMES,
            "sort": data.get("sort") or "",
            "desc": None if not direction else direction == "desc",
        }


@require_GET
@vary_on_headers("HX-Request")
@shared_briefly
def leaderboard_view(request):
    form = LeaderboardForm(request.GET)
    query = form.choices()
    rows, sort, desc = leaderboard(**query)
    columns = leaderboard_columns(query["variant"])
    context = {
        "form": form,
        "query": query,
        "variants": variant_choices(),
        "periods": PERIODS.items(),
        "columns": columns,
        "rows": [
            {"row": row, "cells": [format_figure(row[c.key], c.fmt) for c in columns]}
            for row in rows
        ],
        "sort": sort,
        "desc": desc,
        "headers": [sort_link(query, column, sort, desc) for column in columns],
        "filters": urlencode({k: query[k] for k in ("variant", "period", "min_games")}),
        "period_label": PERIODS[query["period"]],
        "variant_label": variant_label(query["variant"]),
        "family_label": rating.family_label(rating.family_of(query["variant"])),
        "rating_constants": {"initial": int(rating.INITIAL), "k": int(rating.K)},
        "rating_families": [
            {"label": rating.family_label(family), "games": [variant_label(v) for v in keys]}
            for family, keys in rating.families().items()
        ],
    }
    return render_page_or_partial(request, "records/leaderboard.html", "board", context)


def sort_link(query, column, sort, desc):
    """A column header: clicking the sorted column flips it; another one starts best-first."""
    if column.key == sort:
        direction = "asc" if desc else "desc"
    else:
        direction = "asc" if column.lower_is_better else "desc"
    params = {k: query[k] for k in ("variant", "period", "min_games")}
    params.update(sort=column.key, dir=direction)
    return {
        "column": column,
        "active": column.key == sort,
        "arrow": ("↓" if desc else "↑") if column.key == sort else "",
        "url": "?" + urlencode(params),
    }


# --- handicap hint ---------------------------------------------------------------------------


@marker_required
@require_GET
def handicap_hint(request):
    """A fragment for the start form: the suggested handicap for the chosen players and game.

    GET ``variant`` and ``seats`` (the start form's tokens: ``p:<player pk>``, ``g:<name>``).
    """
    variant = request.GET.get("variant", "")
    tokens = request.GET.getlist("seats")
    hint = handicap.suggest(variant, tokens) if variant in handicap.advised_variants() else None
    form_settings = json.dumps(
        {SETTING_PREFIX + name: value for name, value in (hint.settings if hint else {}).items()}
    )
    return render(
        request, "records/handicap_hint.html", {"hint": hint, "form_settings": form_settings}
    )
