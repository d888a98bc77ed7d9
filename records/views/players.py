"""The public player page: his records per game, his rating over time, his performance
month by month, the handicap his records suggest against another player, his games; and his
network page, the same person's games and records at every club of the network."""

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from games.models import Outcome
from players.models import Player
from records import network
from records.forms import HandicapAdviceForm
from records.performance import player_performances
from records.stats import player_games, player_ratings, player_records
from toolbox.responses import render_page_or_partial, wants_partial

GAMES_PER_PAGE = 25


@require_GET
@vary_on_headers("HX-Request")
def player_detail(request, pk):
    player = get_object_or_404(Player.everywhere, pk=pk)
    page = Paginator(player_games(player), GAMES_PER_PAGE).get_page(request.GET.get("page"))
    games = [
        {
            "seat": seat,
            "game": seat.game,
            "opponents": [s for s in seat.game.seats.all() if s.position != seat.position],
        }
        for seat in page.object_list
    ]
    asked = HandicapAdviceForm(player, request.GET if "opponent" in request.GET else None)
    context = {"player": player, "page": page, "games": games, "outcomes": Outcome}
    context["several_clubs"] = network.several_clubs()
    context |= {"advice_form": asked, "advice": asked.advice()}
    status = 400 if asked.is_bound and not asked.is_valid() else 200
    template = "records/player_detail.html"
    if wants_partial(request, "player-games"):  # another page of his games
        return render_page_or_partial(request, template, "games", context)
    if wants_partial(request, "handicap-advice"):  # the advice asked for
        return render_page_or_partial(request, template, "advice", context, status=status)
    context["records"] = player_records(player)
    context["ratings"] = player_ratings(player)
    context["performances"] = player_performances(player)
    return render(request, template, context, status=status)


@require_GET
@vary_on_headers("HX-Request")
def player_network(request, pk):
    """A person's page across the network: his clubs, his records per game and at each club
    over every club's games, his ratings (the network's) and his games at every club, each
    linked to its page at its own club (``records.network``). Public: what anyone sees of
    him at any club, nothing of a club's own (no phone, no bill)."""
    player = get_object_or_404(Player.everywhere, pk=pk)
    page = network.person_games(player, request, request.GET.get("page"))
    context = {"player": player, "page": page, "games": page.object_list}
    template = "records/player_network.html"
    if wants_partial(request, "person-games"):  # another page of his games
        return render_page_or_partial(request, template, "games", context)
    context |= {
        "clubs": network.person_clubs(player, request),
        "records": network.person_records(player),
        "by_club": network.person_by_club(player),
        "ratings": player_ratings(player),
        "several_clubs": network.several_clubs(),
    }
    return render(request, template, context)
