"""The tournament pages' swappable regions: the public context (rules, entrants, bracket) and
the TV board's fragment, which its poll and its pushed stream bring (``tournaments.feeds``)."""

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from clubs.current import working_club
from tournaments import board_pages, brackets, selectors
from tournaments.models import Tournament, TournamentStatus

BOARD = "tournaments/board.html"


def public_context(tournament):
    context = {"tournament": tournament}
    if tournament.status != TournamentStatus.DRAFT:
        view = selectors.tournament_view(tournament)
        selectors.mark_odds_in_play(view)  # each match in play's chances from its frame score
        context["view"] = view
        context["sections"] = sections(view)
    else:
        context["entrants"] = list(tournament.entrants.select_related("player"))
    return context


def sections(view):
    """The bracket's parts to draw, in order, each as (bracket, title, rounds)."""
    titles = {
        brackets.UPPER: _("Upper bracket")
        if view.bracket.format == brackets.DOUBLE
        else _("Bracket"),
        brackets.LOWER: _("Lower bracket"),
        brackets.FINAL: _("Final"),
        brackets.GROUP: _("Group matches by round"),
    }
    found = []
    for name in (brackets.GROUP, brackets.UPPER, brackets.LOWER, brackets.FINAL):
        # The grand final's reset is drawn once it is to be played (Item.shown).
        rounds = [
            (number, items)
            for number, items in view.section(name)
            if any(item.shown for item in items)
        ]
        if rounds:
            tallest = max(len(items) for _round, items in rounds)
            found.append(
                {"name": name, "title": titles[name], "rounds": rounds, "tallest": tallest}
            )
    return found


def board_context(tournament, fp):
    context = public_context(tournament)
    context["fp"] = fp
    context["club_name"] = working_club().name
    view = context.get("view")
    if view is not None:
        selectors.mark_clocks(view)  # each match in play's time, slow or not
        # A page's tallest columns set a match box's height, its most rounds (and the
        # final's column) its width, so that a small tournament is drawn big and a big one
        # is shown a page at a time (board_pages).
        context["pages"] = board_pages.paginate(context["sections"], view.standings)
        context["champion"] = view.entrants.get(view.state.champion)
    return context


def render_board(pk, fp):
    """The board's region (``#tboard``) for fingerprint ``fp``, in the active language."""
    tournament = Tournament.objects.get(pk=pk)
    return render_to_string(f"{BOARD}#board", board_context(tournament, fp))
