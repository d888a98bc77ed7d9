"""The test world's data, for the whole suite: factory-boy factories, games started and
played through the services, finished games built as rows (add yours with small edits).

Fixtures built from these are in ``tests/conftest.py``; the HTTP drivers and HTML probes
are in ``tests/helpers.py``.
"""

from datetime import datetime, timedelta

import factory
from django.contrib.auth.models import User
from django.utils import timezone

from clubs.staff import grant
from games import rules, services
from games.models import Event, Game, GameStatus, Seat
from players.models import Player, SkillClass
from tables.models import Table, TableKind

PASSWORD = "pass-1234"


class UserFactory(factory.django.DjangoModelFactory):
    """``UserFactory(groups=["Admins"])`` gives the user those roles (at the club in scope;
    a player's account is a Django group)."""

    class Meta:
        model = User
        django_get_or_create = ["username"]
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def groups(self, create, names, **kwargs):
        if create and names:
            grant(self, *names)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    full_name = factory.Sequence(lambda n: f"Игрок Номер {n}")
    nickname = ""
    skill_class = SkillClass.NOVICE
    is_active = True


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table
        django_get_or_create = ["number"]

    number = factory.Sequence(lambda n: n + 1)
    name = ""
    kind = TableKind.PYRAMID_12


class GameFactory(factory.django.DjangoModelFactory):
    """A game in progress, started through ``games.services.start_game`` (so validated):
    ``GameFactory(variant="cork", seats=[player, "Гость"], settings={"target": 50})``."""

    class Meta:
        model = "games.Game"

    table = factory.SubFactory(TableFactory)
    variant = "cork"
    settings = factory.Dict({})
    seats = factory.LazyFunction(lambda: ["Гость Первый", "Гость Второй"])
    marker = None

    @classmethod
    def _create(cls, model_class, *, table, variant, settings, seats, marker, **kwargs):
        return services.start_game(
            table=table, variant=variant, settings=settings, seats=seats, marker=marker
        )


# --- games through the services ----------------------------------------------------------


def start(table, variant, seats, marker, **settings):
    """Starts a game through the service (for tests that are not about starting)."""
    return services.start_game(
        table=table, variant=variant, settings=settings, seats=seats, marker=marker
    )


def record(game, marker, *events):
    """Records rules events one by one through the console's service."""
    for event in events:
        game = services.record_event(
            game=game, expected_seq=game.last_seq, event=event, user=marker
        )
    return game


def ev(kind, **details):
    return rules.Event(kind, **details)


# --- finished games as rows, filled the way services.finish_game fills them ---------------

T0 = timezone.make_aware(datetime(2025, 3, 10, 18, 0))


def table(number=1):
    return TableFactory(number=number)


def player(name, **fields):
    """A roster player with this full name."""
    return PlayerFactory(full_name=name, **fields)


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
