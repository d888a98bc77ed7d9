"""Reads for games: the stored event log turned into the rules engine's state.

The events are the truth: ``game_state(game)`` is always what ``rules.replay`` of the stored
log gives. It comes from the replay cached on the game row when that matches the game's
``last_seq`` and rules engine (see ``replay_cache``), else from replaying the events (one
query). A Game instance also remembers what it has read, so one request reads the events at
most once however many of these helpers it calls.
"""

from django.db.models import Exists, OuterRef, Prefetch

from games import replay_cache, rules
from games.models import Event, Game, GameStatus, Seat
from players import selectors as players_selectors
from tables.models import Table

_MEMO = "_luza_replay"  # attribute on a Game instance: {"seq", "events", "log", "replayed"}


def variant_of(game):
    """The rules engine's Variant of ``game``."""
    return rules.get_variant(game.variant)


def settings_of(game):
    """The game's validated settings (a frozen Settings object of its variant)."""
    return variant_of(game).settings_from_dict(game.settings)


def _memo(game):
    memo = game.__dict__.get(_MEMO)
    if memo is None or memo["seq"] != game.last_seq:
        memo = {"seq": game.last_seq}
        game.__dict__[_MEMO] = memo
    return memo


def remember(game, replayed, events=None, *, seats=None):
    """Lets ``game`` reuse the replay (and events, and seats) a service has just computed."""
    memo = {"seq": game.last_seq, "replayed": replayed}
    if events is not None:
        memo["events"] = list(events)
    if seats is not None:
        memo["seats"] = list(seats)
    game.__dict__[_MEMO] = memo


def remembered_seats(game):
    """The seats ``game`` has read already, or None."""
    return _memo(game).get("seats")


def rules_events(game):
    """The stored log in order (undo events included) as ``rules.Event``s: one query."""
    memo = _memo(game)
    if "events" not in memo:
        # Up to the game's last_seq only: the log always matches the seq the console shows,
        # even if another marker records an event between the two reads.
        rows = (
            Event.objects.filter(game_id=game.pk, seq__lte=game.last_seq)
            .order_by("seq")
            .values_list("kind", "payload")
        )
        memo["events"] = [rules.Event.from_payload(kind, payload) for kind, payload in rows]
    return memo["events"]


def game_log(game):
    """``rules.replay_log`` of the stored events: one LogStep per stored event."""
    memo = _memo(game)
    if "log" not in memo:
        memo["log"] = rules.replay_log(variant_of(game), settings_of(game), rules_events(game))
    return memo["log"]


def replayed(game):
    """The game's replay at ``last_seq``: state, events in force, newest log lines, undoable.

    From the cache on the game row when valid (no query), else by replaying the events.
    """
    memo = _memo(game)
    if "replayed" not in memo:
        cached = replay_cache.load(game.replay_cache, game.last_seq)
        if cached is None:
            initial = variant_of(game).initial_state(settings_of(game))
            cached = replay_cache.Replayed.from_log(game.last_seq, game_log(game), initial)
        memo["replayed"] = cached
    return memo["replayed"]


def game_state(game):
    """The current state: what a replay of the stored events gives."""
    return replayed(game).state


def records_own_game(user, game_pk):
    """Whether ``user``'s roster player sits in game ``game_pk``, a game scored by its
    players that is in progress or awaiting confirmation: the one console such a player
    may use (the check of ``games.views.console.console_access``)."""
    if not user.is_authenticated:
        return False
    return Seat.objects.filter(
        game_id=game_pk,
        game__needs_confirmation=True,
        game__status__in=[GameStatus.IN_PROGRESS, GameStatus.UNCONFIRMED],
        player__user=user,
    ).exists()


def current_game(table):
    """The table's game in progress, or None."""
    return Game.objects.in_progress_on(table).first()


# --- who is playing where: games own the question "is this table in play" ----------------


def tables_in_play(tables):
    """The tables of a Table queryset that have a game in progress (the ``tables.holds``
    hold that games register: such a table stays in service and shows "in play")."""
    return tables.filter(Exists(Game.objects.in_progress_on(OuterRef("pk"))))


def free_tables():
    """Tables a game can start on: active, in service, no game in progress."""
    active = Table.objects.filter(is_active=True, out_of_service=False)
    return active.exclude(pk__in=tables_in_play(Table.objects.all()).values("pk"))


def seats_in_play(player_ids=None):
    """Who is playing at which table now: the roster players' seats in games in progress
    (of ``player_ids`` only, if given), each with its game's table, by table and seat."""
    seats = Seat.objects.filter(game__status=GameStatus.IN_PROGRESS, player__isnull=False)
    if player_ids is not None:
        seats = seats.filter(player_id__in=list(player_ids))
    return seats.select_related("game__table").order_by("game__table__number", "position")


def seats_of(game):
    """The game's seats in playing order, players loaded (one query, none when a service
    read them with the game: ``remember``)."""
    seats = remembered_seats(game)
    if seats is None:
        seats = Seat.objects.filter(game_id=game.pk).select_related("player").order_by("position")
        seats = list(seats)
    return seats


def search_players(query, *, exclude_ids=(), limit=10):
    """Active roster players matching ``query`` as the marker types, minus ``exclude_ids``;
    each with ``playing_at``: the number of the table where he is playing now, or None (so
    that the marker sees it before he picks him; one query more when any is found)."""
    if not (query or "").strip():
        return []
    players = players_selectors.search_players(query).exclude(pk__in=list(exclude_ids))
    found = list(players.order_by("full_name")[:limit])
    if found:
        playing = dict(
            seats_in_play([p.pk for p in found]).values_list("player_id", "game__table__number")
        )
        for player in found:
            player.playing_at = playing.get(player.pk)
    return found


def games_in_progress():
    """Every game in progress with its table and seats (players), two queries in all."""
    return (
        Game.objects.filter(status=GameStatus.IN_PROGRESS)
        .select_related("table")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("player").order_by("position"))
        )
        .defer("replay_cache")
        .order_by("table__number")
    )


def offline_events(game):
    """The stored log as the offline console keeps it (``games.rules.offline``): each event's
    ``seq``, ``kind``, ``payload``, who recorded it and its log line (one query)."""
    rows = (
        Event.objects.filter(game_id=game.pk, seq__lte=game.last_seq)
        .order_by("seq")
        .values_list("seq", "kind", "payload", "recorded_by_id")
    )
    return list(rows)
