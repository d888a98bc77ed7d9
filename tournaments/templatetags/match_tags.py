"""What the console, the boards and the result page show of a frame's match: «2 : 1, до 3»
above the frame in play with the chances of the match from that score, the match score in
the console's strip, the marker's one tap at the end of a frame, and «матч окончен 3 : 1»
with the winner once it is over; on the wall, a tournament match's time in play, flagged once
slow (``tournaments.clock``)."""

from django import template

from games.models import GameStatus
from tournaments import selectors
from tournaments.models import MatchStatus

register = template.Library()


def _line(game, state=None):
    """The match ``game`` is a frame of, as the pages show it (None: a single game).

    With the frame's ``state`` (the console), ``deciding`` says whether saving the frame as
    it stands ends the match."""
    match = selectors.match_of_game(game) if game is not None and game.pk else None
    if match is None:
        return None
    frames = selectors.frames_of(match)
    score = selectors.match_score(match, frames)
    frame = next((f for f in frames if f.game_id == game.pk), None)
    number = frame.number if frame else len(frames)
    # In the frame's seat order (the breaker in seat 1), like the seats shown below it (the
    # console's strip and the overlays read the frames so).
    names, scores = [match.name_a, match.name_b], list(score)
    if frame is not None and frame.breaker == "b":
        names.reverse()
        scores.reverse()
    over = match.status == MatchStatus.FINISHED
    frame_open = game.status == GameStatus.IN_PROGRESS
    winner_score, loser_score = sorted(score, reverse=True)
    # What the line reads: the frame's seat order while the match is played; once it is over,
    # the winner first, in the order of «Матч окончен 3 : 1» beside it.
    shown = list(zip(names, scores, strict=True))
    if over and scores[1] > scores[0]:
        shown.reverse()
    # The chances of the match from its frame score, in the same order (records.forecast).
    odds = selectors.match_odds(match, score=score)
    if odds is not None and frame is not None and frame.breaker == "b":
        odds = odds.flipped()
    return {
        "match": match,
        "odds": odds,
        "score_1": scores[0],
        "score_2": scores[1],
        "shown": shown,
        "frame_number": number,
        "over": over,
        "frame_open": frame_open,
        "last": bool(frames) and frames[-1].game_id == game.pk,
        # Once over: «3 : 1», the winner's frames first.
        "winner_score": winner_score,
        "loser_score": loser_score,
        "deciding": frame_open and frame is not None and _decides(match, score, frame, state),
        # A tournament's match in play: its time and whether it is slow (the wall).
        "clock": _clock(match),
    }


def _clock(match):
    if match.status != MatchStatus.IN_PROGRESS or not match.tournament_id:
        return None
    return selectors.match_clock(
        match.started_at,
        match.race_to,
        match.head_start_a,
        match.head_start_b,
        tournament=match.tournament,
    )


def _decides(match, score, frame, state):
    """Whether the frame, won as ``state`` says, brings a side to the race."""
    result = getattr(state, "result", None) if state is not None else None
    if not getattr(state, "finished", False) or result is None or result.draw:
        return False
    if len(result.winners) != 1:
        return False
    side = frame.breaker if result.winners[0] == 0 else ("b" if frame.breaker == "a" else "a")
    after = (score[0] + (side == "a"), score[1] + (side == "b"))
    return selectors.decided(match, after) is not None


@register.simple_tag
def match_line(game, state=None):
    """The match of a frame, for a template to show where it likes (console, boards):
    ``{% match_line game state as match %}``; None for a single game."""
    return _line(game, state)


@register.inclusion_tag("tournaments/matches/_score_line.html")
def match_score_line(game, place="board"):
    """The match score above a frame (boards and wall: ``place`` picks the markup)."""
    return {"line": _line(game), "place": place}


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
