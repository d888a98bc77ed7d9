"""The CSV exports of the records: finished games, and players' statistics per game.

Open to everyone like the pages they come from; written by ``toolbox.csv_export``.
"""

from itertools import groupby

from django import forms
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import rules
from games.models import Outcome, Seat, default_variant, variant_choices
from records import network
from records.stats import (
    PERIODS,
    finished_games,
    leaderboard,
    leaderboard_columns,
    variant_figures,
)
from records.views.games import DRAW_LABELS, NETWORK, SCOPES
from toolbox import forms as ascii_forms
from toolbox.csv_export import streamed_csv_response


class ExportForm(forms.Form):
    variant = forms.ChoiceField(choices=variant_choices, required=False)
    period = forms.ChoiceField(choices=list(PERIODS.items()), required=False)
    player = ascii_forms.IntegerField(required=False, min_value=1)
    min_games = ascii_forms.IntegerField(required=False, min_value=1, max_value=10_000)
    scope = forms.ChoiceField(choices=list(SCOPES.items()), required=False)


def _export_query(request):
    form = ExportForm(request.GET)
    if not form.is_valid():
        raise Http404
    return form.cleaned_data


@require_GET
def games_csv(request):
    """Finished games, oldest first (filters: variant, period, player): one row per game."""
    query = _export_query(request)
    games = finished_games(query["variant"], query["period"] or "all", query["player"])
    seats = (
        Seat.objects.filter(game__in=games.values("id"))
        .select_related("game", "game__table", "player")
        .order_by("game__finished_at", "game_id", "position")
    )
    # Translated now: the rows are streamed after the view has returned.
    labels = {value: str(label) for value, label in variant_choices()}
    outcome_labels = {value: str(label) for value, label in Outcome.choices}
    draw_labels = {value: str(label) for value, label in DRAW_LABELS.items()}
    # Each seat in two columns of its own, the score as a number (a spreadsheet sums it).
    seat_columns = max(variant.max_seats for variant in rules.VARIANTS.values())
    header = [_("Game"), _("Finished"), _("Table"), _("Game type")]
    for number in range(1, seat_columns + 1):
        header += [_("Player %(number)d") % {"number": number}]
        header += [_("Score %(number)d") % {"number": number}]
    header += [_("Outcomes"), _("Winners"), _("Draw"), _("Link")]

    def rows():
        for _game_id, game_seats in groupby(seats.iterator(chunk_size=2000), key=_game_of):
            game_seats = list(game_seats)
            game = game_seats[0].game
            result = game.result or {}
            line = [
                game.pk,
                timezone.localtime(game.finished_at).strftime("%Y-%m-%d %H:%M"),
                game.table.number,
                labels.get(game.variant, game.variant),
            ]
            for index in range(seat_columns):
                seat = game_seats[index] if index < len(game_seats) else None
                line += [seat.name, seat.score] if seat else ["", None]
            yield line + [
                " / ".join(outcome_labels.get(seat.outcome, "") for seat in game_seats),
                " / ".join(s.name for s in game_seats if s.outcome in (Outcome.WIN, Outcome.DRAW)),
                draw_labels.get(result.get("draw"), ""),
                request.build_absolute_uri(reverse("games:detail", args=[game.pk])),
            ]

    return streamed_csv_response("games", header, rows())


@require_GET
def stats_csv(request):
    """Players' statistics: one row per player and game (filters: variant, period, min games;
    ``scope=network``, on a site of several clubs: the network's board, every club's games)."""
    query = _export_query(request)
    board_of = leaderboard
    if query["scope"] == NETWORK and network.several_clubs():
        board_of = network.leaderboard
    variants = [query["variant"]] if query["variant"] else list(rules.VARIANTS)
    # Translated now: the rows are streamed after the view has returned.
    labels = {value: str(label) for value, label in variant_choices()}
    figure_keys = []
    header = [_("Player ID"), _("Player"), _("Game type")]
    for column in leaderboard_columns(default_variant())[:6]:  # the columns common to every game
        header.append(str(column.label))
    for variant in variants:
        for figure in variant_figures(variant):
            figure_keys.append((variant, figure.key))
            header.append(f"{labels[variant]}: {figure.label}")

    def rows():
        for variant in variants:
            board, _sort, _desc = board_of(
                variant, query["period"] or "all", query["min_games"] or 1, sort="games"
            )
            for row in board:
                line = [row["player_id"], row["name"], labels[variant]]
                line += [
                    _csv_number(row[key])
                    for key in ("games", "wins", "losses", "draws", "win_percentage", "rating")
                ]
                line += [_csv_number(row[key]) if v == variant else "" for v, key in figure_keys]
                yield line

    return streamed_csv_response("player-statistics", header, rows())


def _game_of(seat):
    return seat.game_id


def _csv_number(value):
    """A figure as a number (two decimals at most; 50.0 is 50), so it stays a number."""
    if isinstance(value, float):
        value = round(value, 2)
        return int(value) if value.is_integer() else value
    return value
