"""Reads for matches and tournaments: a match's score from its frames, its frames, and the
bracket of a tournament computed from its matches."""

from django.db.models import Prefetch

from games import rules
from games.models import Game, GameStatus
from tournaments.models import Frame, Match, MatchStatus

# «Пробка» is played by many at once: its frames stay multi-player games (issue 11).
MULTI_PLAYER_ONLY = frozenset({"cork"})


def match_variants():
    """The games a match can be played in: those two can play, «Пробка» aside."""
    return [
        variant
        for key, variant in rules.VARIANTS.items()
        if variant.min_seats <= 2 <= variant.max_seats and key not in MULTI_PLAYER_ONLY
    ]


def frame_winner(frame):
    """ "a", "b" or None (a draw, or a frame not finished) for a Frame with its game."""
    game = frame.game
    if game.status != GameStatus.FINISHED or not game.result or game.result.get("draw"):
        return None
    winners = game.result.get("winners") or []
    if len(winners) != 1:
        return None
    breaker_won = winners[0] == 0  # the breaker sits in seat 1
    other = "b" if frame.breaker == "a" else "a"
    return frame.breaker if breaker_won else other


def frames_of(match):
    return list(
        Frame.objects.filter(match=match).select_related("game", "game__table").order_by("number")
    )


def match_score(match, frames=None):
    """(frames of A, frames of B), head starts included: counted from the finished frames."""
    if match.kind != "played" and match.status == MatchStatus.FINISHED:
        return match.score_a or 0, match.score_b or 0
    frames = frames_of(match) if frames is None else frames
    won = {"a": match.head_start_a, "b": match.head_start_b}
    for frame in frames:
        side = frame_winner(frame)
        if side:
            won[side] += 1
    return won["a"], won["b"]


def decided(match, score):
    """ "a" or "b" once a side has reached the race, else None."""
    if score[0] >= match.race_to:
        return "a"
    if score[1] >= match.race_to:
        return "b"
    return None


def match_of_game(game):
    """The match a game is a frame of, or None."""
    frame = (
        Frame.objects.filter(game_id=game.pk)
        .select_related("match", "match__player_a", "match__player_b", "match__tournament")
        .first()
    )
    return frame.match if frame else None


def current_frame(match, frames=None):
    frames = frames_of(match) if frames is None else frames
    return frames[-1] if frames else None


def match_in_progress_on(table):
    return Match.objects.filter(table=table, status=MatchStatus.IN_PROGRESS).first()


def busy_player_ids():
    """Players in a match in progress or seated in a game in progress."""
    in_matches = Match.objects.filter(status=MatchStatus.IN_PROGRESS)
    ids = set(in_matches.values_list("player_a", flat=True))
    ids |= set(in_matches.values_list("player_b", flat=True))
    ids |= set(
        Game.objects.filter(status=GameStatus.IN_PROGRESS).values_list("seats__player", flat=True)
    )
    ids.discard(None)
    return ids


def match_with_frames(pk):
    """A match with its frames (and their games) for the match page."""
    return (
        Match.objects.select_related("table", "player_a", "player_b", "tournament")
        .prefetch_related(
            Prefetch(
                "frames",
                queryset=Frame.objects.select_related("game").order_by("number"),
            )
        )
        .get(pk=pk)
    )


# --- tournaments ------------------------------------------------------------------------------


def bracket_of(tournament, count=None):
    """The tournament's bracket (the engine's), for its number of seeded entrants."""
    from tournaments import brackets

    if count is None:
        count = tournament.entrants.filter(seed__isnull=False).count()
    return brackets.build(tournament.format, count, tournament.groups, tournament.advance)


def tournament_matches(tournament):
    """The tournament's matches that count (not abandoned), by bracket key."""
    return {
        m.bracket_key: m
        for m in Match.objects.filter(tournament=tournament)
        .exclude(status=MatchStatus.ABANDONED)
        .select_related("table", "player_a", "player_b")
    }


def results_of(matches):
    """The engine's results from the finished matches."""
    from tournaments import brackets

    return {
        key: brackets.Result(m.winner, m.score_a or 0, m.score_b or 0, m.kind)
        for key, m in matches.items()
        if m.status == MatchStatus.FINISHED
    }
