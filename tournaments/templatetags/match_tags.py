"""What the console, the boards and the result page show of a frame's match:
«2 : 1, до 3» above the frame in play, and the marker's one tap to the next frame."""

from django import template

from games.models import GameStatus
from tournaments import selectors
from tournaments.models import MatchStatus

register = template.Library()


def _line(game):
    match = selectors.match_of_game(game) if game is not None and game.pk else None
    if match is None:
        return None
    frames = selectors.frames_of(match)
    score = selectors.match_score(match, frames)
    frame = next((f for f in frames if f.game_id == game.pk), None)
    number = frame.number if frame else len(frames)
    # In the frame's seat order (the breaker in seat 1), like the seats shown below it.
    names, scores = [match.name_a, match.name_b], list(score)
    if frame is not None and frame.breaker == "b":
        names.reverse()
        scores.reverse()
    return {
        "match": match,
        "name_1": names[0],
        "name_2": names[1],
        "score_1": scores[0],
        "score_2": scores[1],
        "frame_number": number,
        "over": match.status == MatchStatus.FINISHED,
        "frame_open": game.status == GameStatus.IN_PROGRESS,
        "last": bool(frames) and frames[-1].game_id == game.pk,
    }


@register.inclusion_tag("tournaments/matches/_score_line.html")
def match_score_line(game, place="board"):
    """The match score above a frame (boards and wall: ``place`` picks the markup)."""
    return {"line": _line(game), "place": place}


@register.inclusion_tag("tournaments/matches/_console_bar.html", takes_context=True)
def match_console_bar(context, game, outcome=None):
    """On the console: the match score, and once the frame is over the one tap that saves it
    and starts the next frame."""
    return {
        "line": _line(game),
        "game": game,
        "final": bool(outcome and outcome.get("final")),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("tournaments/matches/_result_panel.html", takes_context=True)
def match_result_panel(context, game):
    return {"line": _line(game), "game": game, "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("tournaments/matches/_table_match.html", takes_context=True)
def match_on_table(context, table):
    """On a table's start page: a match still in progress there with no frame in play (its
    frame was abandoned on the console), with the taps that go on with it or stop it: the
    table is not free while it is."""
    match = selectors.match_in_progress_on(table) if table is not None else None
    score = selectors.match_score(match) if match is not None else None
    return {"match": match, "score": score, "csrf_token": context.get("csrf_token")}
