"""Public records: a game's page, the leaderboards, the handicap hint (the CSV exports are in
``exports.py``).

Everything here is read-only and open to everyone (spectators included); only GET is served.
"""

import json

from django import forms
from django.core.paginator import Paginator
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
from records import glicko, handicap, network, rating
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
from toolbox.parsing import parse_id
from toolbox.responses import render_page_or_partial
from toolbox.roles import marker_required
from toolbox.shared_pages import shared_briefly

DEFAULT_MIN_GAMES = 3
LEADERBOARD_PAGE = 50  # rows per page: a network's club may have a thousand players
CLUB, NETWORK = "club", "network"
SCOPES = {CLUB: gettext_lazy("Club"), NETWORK: gettext_lazy("Network")}
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
    page = ascii_forms.IntegerField(min_value=1, max_value=100_000, required=False)
    scope = forms.ChoiceField(choices=list(SCOPES.items()), required=False)

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

    def page_number(self):
        return self.cleaned_data.get("page") or 1

    def chosen_scope(self, several_clubs):
        """Whose board: the club's, or (on a site of several clubs) the network's."""
        return NETWORK if several_clubs and self.cleaned_data.get("scope") == NETWORK else CLUB


@require_GET
@vary_on_headers("HX-Request")
@shared_briefly
def leaderboard_view(request):
    """The club's leaderboard of a game, or the network's (``?scope=network``, on a site of
    several clubs: every person of the network, each naming his clubs), a page of rows at a
    time; the provisional ratings below the places."""
    form = LeaderboardForm(request.GET)
    query = form.choices()
    several_clubs = network.several_clubs()
    scope = form.chosen_scope(several_clubs)
    if scope == NETWORK:
        rows, sort, desc = network.leaderboard(**query)
    else:
        rows, sort, desc = leaderboard(**query)
    columns = leaderboard_columns(query["variant"])
    page = Paginator(rows, LEADERBOARD_PAGE).get_page(form.page_number())
    clubs = {}
    if scope == NETWORK:
        clubs = network.home_clubs(row["player_id"] for row in page.object_list)
    context = {
        "form": form,
        "query": query,
        "scope": scope,
        "scopes": SCOPES.items() if several_clubs else (),
        "variants": variant_choices(),
        "periods": PERIODS.items(),
        "columns": columns,
        "rows": [
            {
                "row": row,
                "cells": [(c.key, format_figure(row[c.key], c.fmt)) for c in columns],
                "clubs": clubs.get(row["player_id"], []),
            }
            for row in page.object_list
        ],
        "page": page,
        "provisional_below": (
            rows.provisional_below
            if scope == NETWORK
            else any(row["place"] is None for row in rows)
        ),
        "sort": sort,
        "desc": desc,
        "headers": [sort_link(query, column, sort, desc, scope) for column in columns],
        "filters": urlencode(filter_params(query, scope)),
        "period_label": PERIODS[query["period"]],
        "variant_label": variant_label(query["variant"]),
        "family_label": rating.family_label(rating.family_of(query["variant"])),
        "rating_constants": {
            "initial": int(glicko.INITIAL),
            "deviation": int(glicko.INITIAL_RD),
            "class_deviation": int(glicko.CLASS_RD),
            "provisional_deviation": int(glicko.PROVISIONAL_RD),
            "provisional_games": glicko.PROVISIONAL_GAMES,
        },
        "rating_families": [
            {"label": rating.family_label(family), "games": [variant_label(v) for v in keys]}
            for family, keys in rating.families().items()
        ],
    }
    return render_page_or_partial(request, "records/leaderboard.html", "board", context)


def filter_params(query, scope=CLUB):
    """The board's filters as a link keeps them (the scope only when it is the network's: a
    club's links are as they always were)."""
    params = {k: query[k] for k in ("variant", "period", "min_games")}
    if scope == NETWORK:
        params["scope"] = NETWORK
    return params


def sort_link(query, column, sort, desc, scope=CLUB):
    """A column header: clicking the sorted column flips it; another one starts best-first."""
    if column.key == sort:
        direction = "asc" if desc else "desc"
    else:
        direction = "asc" if column.lower_is_better else "desc"
    params = filter_params(query, scope)
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
    """A fragment for the start form and a match's form: the odds of the chosen players and
    the suggested handicap for the game, or the fair race of the match.

    GET ``variant``, ``seats`` (the start form's tokens: ``p:<player pk>``, ``g:<name>``), the
    game's settings as the form stands (``s_<name>``) and, from a match's form, ``race_to``,
    ``head_start_a`` and ``head_start_b``. Whatever cannot be read is left out, never a 500.
    """
    variant = request.GET.get("variant", "")
    tokens = request.GET.getlist("seats")
    settings = {
        name.removeprefix(SETTING_PREFIX): value
        for name, value in request.GET.items()
        if name.startswith(SETTING_PREFIX)
    }
    hint = None
    if variant in handicap.advised_variants():
        hint = handicap.suggest(variant, tokens, settings)
    chances = handicap.odds_hint(variant, tokens, settings, asked_race(request.GET))
    form_settings = json.dumps(
        {SETTING_PREFIX + name: value for name, value in (hint.settings if hint else {}).items()}
    )
    context = {
        "hint": hint,
        "form_settings": form_settings,
        "chances": chances,
        "fair_settings": json.dumps(chances.fair_settings if chances else {}),
    }
    return render(request, "records/handicap_hint.html", context)


LONGEST_RACE = 99  # more than any match form allows: a number past it is no race


def asked_race(query):
    """(race to, head start of A, of B) from a match's form, or None (a single game, or a
    race that cannot be read); a head start is less than the race."""
    race_to = parse_id(query.get("race_to", ""))
    if race_to is None or not 1 <= race_to <= LONGEST_RACE:
        return None
    heads = [parse_id(query.get(f"head_start_{side}", "")) or 0 for side in "ab"]
    return race_to, *(min(head, race_to - 1) for head in heads)
