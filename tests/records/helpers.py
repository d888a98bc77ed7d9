"""Finished games built directly as rows, filled the way ``services.finish_game`` fills them."""

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import Event, Game, GameStatus, Seat
from players.models import Player
from tables.models import Table

T0 = timezone.make_aware(datetime(2025, 3, 10, 18, 0))


def table(number=1):
    return Table.objects.get_or_create(number=number)[0]


def player(name, **fields):
    return Player.objects.create(full_name=name, **fields)


def finished(variant, seats, *, at=None, number=1, settings=None, events=(), draw=None):
    """A finished game. ``seats``: (Player or guest name, outcome, score, stats) in order."""
    at = at or T0
    game = Game.objects.create(
        table=table(number),
        variant=variant,
        settings=settings or {},
        status=GameStatus.FINISHED,
        finished_at=at,
        last_seq=len(events),
        result={
            "winners": [i for i, s in enumerate(seats) if s[1] in ("win", "draw")],
            "draw": draw,
            "scores": [s[2] for s in seats],
        },
    )
    Game.objects.filter(pk=game.pk).update(started_at=at - timedelta(minutes=30))
    for position, (who, outcome, score, stats) in enumerate(seats):
        Seat.objects.create(
            game=game,
            position=position,
            player=who if isinstance(who, Player) else None,
            guest_name="" if isinstance(who, Player) else who,
            outcome=outcome,
            score=score,
            stats=stats,
        )
    for seq, (kind, payload) in enumerate(events, start=1):
        Event.objects.create(game=game, seq=seq, kind=kind, payload=payload)
    return game


def cork_stats(fouls=None, scoring=0, won=0, lost=0, final=1):
    fouls = {
        "cork_by_cue_ball": 0,
        "cork_direct": 0,
        "miss": 0,
        "cue_ball_pocketed": 0,
        "touched": 0,
        "cue_ball_off_table": 0,
        **(fouls or {}),
    }
    return {
        "fouls": fouls,
        "fouls_total": sum(fouls.values()),
        "scoring_strokes": scoring,
        "points_won": won,
        "points_lost": lost,
        "final_score": final,
    }


def clockwise_stats(balls, points, wrong=0, fouls=0):
    return {"balls": balls, "points": points, "wrong_pockets": wrong, "fouls": fouls}


def cue_run_stats(strokes, penalties=0, adjusted=None, balls=16):
    complete = balls == 16
    return {
        "strokes": strokes,
        "penalties": penalties,
        "adjusted": strokes if adjusted is None else adjusted,
        "balls": balls,
        "complete": complete,
        "perfect": complete and strokes == 16,
    }


def hand_stats(role, balls, fouls=0):
    return {"role": role, "balls": balls, "fouls": fouls}
