"""A table's live scoreboard as plain data: what a stream's overlay, a table's embed and the
API's live feed show of the game a table's board shows (in progress, or finished a little
while ago): its players and scores, who is to play, the match's frame score, the game's key
figure, the last stroke, the handicap and the result (none while the last stroke is being
checked: ``disputed``), and a match's odds (before it and now, from its frame score: they
change with each frame won). Every text is in the active language.

``table_scoreboard(number)`` is built from the board's own read (``boards.fragments``) and
the game's presentation; ``featured`` picks the match a tournament's overlay follows.
"""

from boards.fragments import table_context
from games.presentation import presentation_of
from records import forecast
from tournaments import selectors as tournament_selectors
from tournaments.models import Match, MatchStatus
from tournaments.templatetags.match_tags import match_line


def table_scoreboard(number):
    """``{"table", "fingerprint", "game"}``; ``game`` is None while the table is free."""
    context = table_context(number)
    board = context["board"]
    return {
        "table": number,
        "fingerprint": context["fp"],
        "game": _game(board) if board is not None else None,
    }


def _game(board):
    game, state = board.game, board.state
    shown = presentation_of(board.variant_key)
    names = [seat.name for seat in board.seats]
    key = shown.console_key_figure(state)
    line = match_line(game)  # the match's score as the boards show it
    return {
        "id": game.pk,
        "variant": board.variant_key,
        "variant_name": board.variant_name,
        "status": game.status,
        "finished": board.finished,
        "last_seq": game.last_seq,
        "target": board.target,
        "score_caption": board.score_caption,
        "seats": [
            {
                "position": seat.index + 1,
                "name": seat.name,
                "score": seat.score,
                "to_play": seat.turn,
                # the result's winners: in a draw, the seats that share it (as it always
                # said; "result" says which draw)
                "winner": seat.winner or seat.drawn,
                "role": seat.role,
            }
            for seat in board.seats
        ],
        "key_figure": {"label": str(key[0]), "value": str(key[1])} if key else None,
        "last_event": board.ticker[0] if board.ticker else "",
        "handicap": shown.handicap_line(state, names),
        "result": board.banner,  # none while the last stroke is being checked
        "disputed": bool(board.disputed),
        "match": _match(line),
    }


def _match(line):
    """The frame's match, its score in the frame's seat order (seat 1 first)."""
    if line is None:
        return None
    match = line["match"]
    tournament = match.tournament if match.tournament_id else None
    return {
        "id": match.pk,
        "race_to": match.race_to,
        "frame": line["frame_number"],
        "frames": [line["score_1"], line["score_2"]],
        "finished": line["over"],
        "tournament": {"id": tournament.pk, "name": tournament.name} if tournament else None,
        "odds": match_odds(line["odds"]),
    }


def match_odds(odds):
    """A match's odds as plain data (``records.forecast.Odds``): the first side's chances of
    a frame, of the race before it and now, from the frame score; the fair race (the head
    start in frames, which side — 1 or 2 — receives it, and the first side's chance with
    it); whose rating is provisional. None for a match decided without play."""
    if odds is None:
        return None
    fair = odds.fair
    return {
        "frame": round(odds.frame, 4),
        "race": round(odds.race, 4),
        "race_now": round(odds.now, 4),
        "fair_head_start": fair.head_start,
        "fair_receiver": {"a": 1, "b": 2}.get(fair.side),
        "fair_probability": round(fair.probability, 4),
        "provisional": [odds.a.provisional, odds.b.provisional],
    }


def featured(tournament_id, table=None):
    """The match a tournament's overlay follows: the one at ``table`` if given, else the
    match in play started last (a final is started after the matches that feed it); with
    none in play, the one finished last. None before the first match."""
    matches = Match.objects.filter(tournament_id=tournament_id).exclude(
        status=MatchStatus.ABANDONED
    )
    if table is not None:
        matches = matches.filter(table__number=table)
    playing = matches.filter(status=MatchStatus.IN_PROGRESS).order_by("-started_at", "-pk")
    finished = matches.filter(status=MatchStatus.FINISHED).order_by("-finished_at", "-pk")
    columns = ("pk", "table__number", "bracket_key")
    return playing.values_list(*columns).first() or finished.values_list(*columns).first()


def stage_label(tournament, bracket_key):
    """ "Semi-final", "Group 1, round 3"… of a tournament's match (its bracket computed)."""
    view = tournament_selectors.tournament_view(tournament)
    item = view.by_key.get(bracket_key)
    return item.stage_label if item is not None else ""


def seat_chances(scoreboard):
    """Each seat's chance of the match now, in whole percentages (seat order), with whether
    its rating is provisional; Nones for a single game, a match over or decided."""
    game = scoreboard["game"]
    seats = len(game["seats"]) if game else 0
    match = game["match"] if game else None
    odds = match["odds"] if match else None
    if odds is None or match["finished"] or seats != 2 or odds["race_now"] in (0.0, 1.0):
        return [(None, False)] * seats
    return list(zip(forecast.percents(odds["race_now"]), odds["provisional"], strict=True))


def seat_frames(scoreboard):
    """The frames won by each seat's player in a match (in seat order), else Nones."""
    game = scoreboard["game"]
    if game is None or game["match"] is None or len(game["seats"]) != 2:
        return [None] * (len(game["seats"]) if game else 0)
    return list(game["match"]["frames"])
