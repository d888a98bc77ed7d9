"""The console's services: every write locks the game, checks the seq, replays, appends."""

import random
from unittest.mock import patch

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from games import replay_cache, rules, selectors, services
from games.models import Event, Game, GameStatus, Seat
from players.models import Player
from tests.factories import start

FOUL = rules.Event("foul", fouls=("miss",))
STROKE = rules.Event("stroke")
SCORE = rules.Event("score")


def record(game, user, *events):
    for event in events:
        game = services.record_event(game=game, expected_seq=game.last_seq, event=event, user=user)
    return game


# --- starting ------------------------------------------------------------------------------


def test_start_game_seats_players_and_guests_in_order_with_default_settings(
    table, players, marker_user
):
    game = start(table, "cork", [players[1], "Гость Пётр", players[0]], marker_user)
    assert game.status == GameStatus.IN_PROGRESS
    assert game.marker == marker_user
    assert game.settings == {"players": 3, "target": 100}
    seats = list(game.seats.order_by("position"))
    assert [s.name for s in seats] == [
        players[1].display_name,
        "Гость Пётр",
        players[0].display_name,
    ]
    assert [s.player_id for s in seats] == [players[1].pk, None, players[0].pk]


def test_start_game_keeps_given_settings(table, players, marker_user):
    game = start(table, "cork", players[:2], marker_user, target=50)
    assert selectors.settings_of(game).target == 50


@pytest.mark.parametrize(
    ("variant", "seats", "options", "field"),
    [
        ("cork", 2, {"target": 1}, "target"),
        ("cork", 2, {"target": "many"}, "target"),
        ("cork", 1, {}, "seats"),
        ("cork", 11, {}, "seats"),
        ("nine_ball", 2, {}, "variant"),
    ],
)
def test_bad_start_creates_nothing(table, marker_user, variant, seats, options, field):
    roster = [Player.objects.create(full_name=f"Игрок {i}") for i in range(seats)]
    with pytest.raises(ValidationError) as error:
        start(table, variant, roster, marker_user, **options)
    assert field in error.value.message_dict
    assert Game.objects.count() == 0
    assert Seat.objects.count() == 0


def test_a_player_takes_one_seat_and_guests_need_names(table, players, marker_user):
    with pytest.raises(ValidationError) as error:
        start(table, "cork", [players[0], players[0]], marker_user)
    assert "seats" in error.value.message_dict
    with pytest.raises(ValidationError):
        start(table, "cork", [players[0], "  "], marker_user)
    assert Game.objects.count() == 0


def test_an_inactive_player_cannot_be_seated(table, players, marker_user):
    players[0].is_active = False
    players[0].save()
    with pytest.raises(ValidationError) as error:
        start(table, "cork", players[:2], marker_user)
    assert "seats" in error.value.message_dict


def test_busy_table_is_refused(table, players, marker_user):
    start(table, "cork", players[:2], marker_user)
    with pytest.raises(ValidationError) as error:
        start(table, "cork", players[2:4], marker_user)
    assert error.value.message_dict["table"] == [str(services.BUSY_TABLE)]
    assert Game.objects.count() == 1


def test_out_of_service_table_is_refused(table, players, marker_user):
    table.out_of_service = True
    table.save()
    with pytest.raises(ValidationError) as error:
        start(table, "cork", players[:2], marker_user)
    assert "table" in error.value.message_dict


# --- recording -----------------------------------------------------------------------------


def test_record_event_appends_the_next_seq_and_bumps_last_seq(table, players, marker_user):
    game = start(table, "cork", players[:3], marker_user)
    game = record(game, marker_user, STROKE, FOUL)
    assert game.last_seq == 2
    rows = list(Event.objects.filter(game=game).values_list("seq", "kind", "payload"))
    assert rows == [(1, "stroke", {}), (2, "foul", {"fouls": ["miss"]})]
    assert Event.objects.get(seq=2).recorded_by == marker_user
    game.refresh_from_db()
    assert game.last_seq == 2
    assert selectors.game_state(game).scores == (1, -2, 1)


def test_a_stale_seq_is_rejected_and_changes_nothing(table, players, marker_user):
    game = start(table, "cork", players[:3], marker_user)
    game = record(game, marker_user, STROKE)
    for seq in (0, 2, 7):
        with pytest.raises(services.StaleEvent):
            services.record_event(game=game, expected_seq=seq, event=FOUL, user=marker_user)
    assert Event.objects.count() == 1
    game.refresh_from_db()
    assert game.last_seq == 1


def interrupted_read(monkeypatch, meanwhile):
    """The next tap's read of the game is followed by ``meanwhile(game)``: what another
    device does after the tap has read the game and before it writes."""
    read = services._read_for_a_stroke

    def read_then_meanwhile(game):
        found = read(game)
        monkeypatch.setattr(services, "_read_for_a_stroke", read)  # only once
        meanwhile(game)
        return found

    monkeypatch.setattr(services, "_read_for_a_stroke", read_then_meanwhile)


def test_a_stroke_that_lands_after_the_tap_read_the_game_wins(
    table, players, marker_user, monkeypatch
):
    game = start(table, "cork", players[:3], marker_user)

    def other_marker(game):
        services.record_event(game=Game(pk=game.pk), expected_seq=0, event=STROKE, user=None)

    interrupted_read(monkeypatch, other_marker)
    with pytest.raises(services.StaleEvent):
        services.record_event(game=game, expected_seq=0, event=FOUL, user=marker_user)
    assert list(Event.objects.values_list("seq", "kind", "recorded_by")) == [(1, "stroke", None)]
    game.refresh_from_db()
    assert game.last_seq == 1
    assert selectors.replayed(game) == full_replay(game)  # the cache is the other stroke's


def test_a_game_abandoned_after_the_tap_read_it_records_nothing(
    table, players, marker_user, monkeypatch
):
    game = start(table, "cork", players[:3], marker_user)

    def abandoned(game):
        services.abandon_game(game=Game(pk=game.pk), expected_seq=0, user=marker_user)

    interrupted_read(monkeypatch, abandoned)
    with pytest.raises(services.GameClosed):
        services.record_event(game=game, expected_seq=0, event=STROKE, user=marker_user)
    assert not Event.objects.exists()
    game.refresh_from_db()
    assert (game.status, game.last_seq) == (GameStatus.ABANDONED, 0)


def test_an_illegal_event_is_rejected_with_the_rules_reason(table, players, marker_user):
    game = start(table, "cork", players[:3], marker_user)
    with pytest.raises(rules.RuleViolation) as violation:
        services.record_event(
            game=game, expected_seq=0, event=rules.Event("foul"), user=marker_user
        )
    assert violation.value.code == "malformed_event"
    with pytest.raises(rules.RuleViolation):
        services.record_event(
            game=game, expected_seq=0, event=rules.Event("jump"), user=marker_user
        )
    assert Event.objects.count() == 0
    game.refresh_from_db()
    assert game.last_seq == 0


def test_undo_is_an_event_and_deletes_nothing(table, players, marker_user):
    game = start(table, "cork", players[:3], marker_user)
    game = record(game, marker_user, STROKE, FOUL)
    game = services.undo_last(game=game, expected_seq=2, user=marker_user)
    assert game.last_seq == 3
    assert list(Event.objects.filter(game=game).values_list("kind", flat=True)) == [
        "stroke",
        "foul",
        "undo",
    ]
    game.refresh_from_db()
    state = selectors.game_state(game)
    assert state.scores == (1, 1, 1)
    assert state.bank == 3
    assert state.turn == 1


def test_undo_with_nothing_to_undo_is_refused(table, players, marker_user):
    game = start(table, "cork", players[:2], marker_user)
    with pytest.raises(rules.RuleViolation) as violation:
        services.undo_last(game=game, expected_seq=0, user=marker_user)
    assert violation.value.code == "nothing_to_undo"
    assert Event.objects.count() == 0


def test_the_returned_game_carries_its_replayed_state(table, players, marker_user):
    game = start(table, "cork", players[:2], marker_user)
    game = record(game, marker_user, FOUL)
    with CaptureQueriesContext(connection) as queries:
        state = selectors.game_state(game)
        recent = selectors.replayed(game).recent
    assert len(queries) == 0
    assert state.scores == (-1, 1)
    assert [entry.seq for entry in recent] == [1]
    with CaptureQueriesContext(connection) as queries:
        log = selectors.game_log(game)
        selectors.game_log(game)
    assert len(queries) == 1  # the whole log: the events, read once
    assert log[0].description == recent[0].description


# --- closing -------------------------------------------------------------------------------


def test_finish_only_when_the_game_is_over(table, players, marker_user):
    game = start(table, "cork", players[:2], marker_user, target=5)
    with pytest.raises(services.GameNotOver):
        services.finish_game(game=game, user=marker_user)
    # Bank 2. Player 1 fouls: −1, bank 4; player 2: no score; player 1 scores +4 = 3,
    # bank 8; not yet 5. He scores again: +8 = 11 ≥ 5, he wins.
    game = record(game, marker_user, FOUL, STROKE, SCORE)
    with pytest.raises(services.GameNotOver):
        services.finish_game(game=game, user=marker_user)
    game = record(game, marker_user, SCORE)
    game = services.finish_game(game=game, user=marker_user)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.finished_at is not None
    assert game.result == {"winners": [0], "draw": None, "scores": [11, 1]}
    seats = list(game.seats.order_by("position"))
    assert [(s.outcome, s.score) for s in seats] == [("win", 11), ("loss", 1)]
    assert seats[0].stats["fouls"]["miss"] == 1
    assert seats[0].stats["scoring_strokes"] == 2
    assert seats[1].stats["fouls_total"] == 0
    with pytest.raises(services.GameClosed):
        services.record_event(game=game, expected_seq=game.last_seq, event=STROKE, user=None)


def test_abandon_frees_the_table(table, players, marker_user):
    game = start(table, "cork", players[:2], marker_user)
    game = record(game, marker_user, STROKE)
    services.abandon_game(game=game, user=marker_user)
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    assert selectors.current_game(table) is None
    with pytest.raises(services.GameClosed):
        services.record_event(game=game, expected_seq=1, event=STROKE, user=marker_user)
    with pytest.raises(services.GameClosed):
        services.abandon_game(game=game, user=marker_user)
    start(table, "cork", players[:2], marker_user)


def test_abandon_with_a_stale_seq_is_refused(table, players, marker_user):
    game = start(table, "cork", players[:2], marker_user)
    game = record(game, marker_user, STROKE)
    with pytest.raises(services.StaleEvent):
        services.abandon_game(game=game, user=marker_user, expected_seq=0)
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS


def test_rematch_same_table_players_order_and_settings(table, players, marker_user):
    game = start(table, "cork", [players[2], "Гость", players[0]], marker_user, target=4)
    game = record(game, marker_user, SCORE)  # 1 + bank 3 = 4: player 1 wins
    services.finish_game(game=game, user=marker_user)
    new = services.rematch(game=game, marker=marker_user)
    assert new.pk != game.pk
    assert (new.table, new.variant, new.settings) == (table, "cork", game.settings)
    assert new.rematch_of == game
    assert new.last_seq == 0
    assert [s.name for s in new.seats.order_by("position")] == [
        s.name for s in game.seats.order_by("position")
    ]
    with pytest.raises(ValidationError):
        services.rematch(game=game, marker=marker_user)  # the table is busy again


# --- cost ----------------------------------------------------------------------------------


def add_prior_strokes(game, prior):
    Event.objects.bulk_create(
        Event(game=game, seq=seq, kind="stroke", payload={}) for seq in range(1, prior + 1)
    )
    Game.objects.filter(pk=game.pk).update(last_seq=prior)
    game.refresh_from_db()
    return game


def statements_of(queries):
    return [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]


def tap_statements():
    """What a stroke costs with its replay cached: the game with its table and its seats
    read, then the game updated if unchanged and the event inserted. PostgreSQL sends the
    two reads at once and does the two writes in one statement."""
    return 2 if connection.vendor == "postgresql" else 4


@pytest.mark.parametrize("prior", [10, 100])
def test_recording_costs_the_same_queries_however_long_the_game(table, players, marker_user, prior):
    game = add_prior_strokes(start(table, "cork", players[:3], marker_user), prior)
    # Without a cached replay (events written behind the service's back): the events read too.
    with CaptureQueriesContext(connection) as queries:
        game = services.record_event(game=game, expected_seq=prior, event=STROKE, user=marker_user)
    assert len(statements_of(queries)) == tap_statements() + 1, statements_of(queries)
    # With the replay cached by that write: no event is read.
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        services.record_event(game=game, expected_seq=prior + 1, event=STROKE, user=marker_user)
    statements = statements_of(queries)
    assert len(statements) == tap_statements(), statements
    assert not any('FROM "games_event"' in q for q in statements)


def test_a_new_game_s_first_stroke_reads_no_events(table, players, marker_user):
    game = start(table, "cork", players[:3], marker_user)
    with CaptureQueriesContext(connection) as queries:
        services.record_event(game=game, expected_seq=0, event=STROKE, user=marker_user)
    assert len(statements_of(queries)) == tap_statements(), statements_of(queries)


def test_an_undo_replays_the_events(table, players, marker_user):
    game = add_prior_strokes(start(table, "cork", players[:3], marker_user), 50)
    game = services.refresh_replay_cache(game=game)
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        services.undo_last(game=game, expected_seq=50, user=marker_user)
    statements = statements_of(queries)
    assert len(statements) == tap_statements() + 1, statements
    assert sum('FROM "games_event"' in q for q in statements) == 1


# --- the cached replay is the replay ------------------------------------------------------


def full_replay(game):
    """What replaying every stored event gives, ignoring the cache."""
    game = Game.objects.get(pk=game.pk)
    game.replay_cache = None
    return selectors.replayed(game)


@pytest.mark.parametrize("seed", range(4))
def test_the_cached_replay_equals_a_full_replay(table, players, marker_user, seed):
    rng = random.Random(seed)
    game = start(table, "cork", players[: rng.randint(2, 6)], marker_user)
    for _ in range(80):
        game.refresh_from_db()
        state = selectors.game_state(game)
        if state.finished:
            break
        replayed = selectors.replayed(game)
        if replayed.disputed is not None:  # resolved either way
            resolve = services.undo_last if rng.random() < 0.5 else services.confirm_disputed
            game = resolve(game=game, expected_seq=game.last_seq, user=marker_user)
        elif rng.random() < 0.1 and replayed.undoable:
            game = services.dispute_last(game=game, expected_seq=game.last_seq, user=marker_user)
        elif rng.random() < 0.2 and replayed.undoable:
            game = services.undo_last(game=game, expected_seq=game.last_seq, user=marker_user)
        else:
            action = rng.choice(rules.get_variant("cork").legal_actions(state))
            fouls = tuple(rng.sample(action.fouls, rng.randint(1, 2))) if action.fouls else ()
            game = services.record_event(
                game=game,
                expected_seq=game.last_seq,
                event=rules.Event(action.kind, fouls=fouls),
                user=marker_user,
            )
        game.refresh_from_db()
        assert selectors.replayed(game) == full_replay(game)


def test_a_cache_from_another_engine_or_seq_or_forged_is_not_used(table, players, marker_user):
    game = start(table, "cork", players[:2], marker_user)
    game = services.record_event(game=game, expected_seq=0, event=FOUL, user=marker_user)
    game.refresh_from_db()
    blob = bytes(game.replay_cache)
    assert replay_cache.load(blob, 1) == full_replay(game)
    assert replay_cache.load(blob, 2) is None  # computed at another seq
    assert replay_cache.load(blob[:-1] + b"x", 1) is None  # not what this server signed
    replay_cache.engine_fingerprint.cache_clear()
    try:
        with patch.object(replay_cache, "engine_fingerprint", lambda: "another engine"):
            assert replay_cache.load(blob, 1) is None
    finally:
        replay_cache.engine_fingerprint.cache_clear()
    # A game whose cache is unusable is replayed from its events, and the next write heals it.
    Game.objects.filter(pk=game.pk).update(replay_cache=b"garbage")
    game.refresh_from_db()
    assert selectors.game_state(game).scores == (-1, 1)
    game = services.record_event(game=game, expected_seq=1, event=STROKE, user=marker_user)
    game.refresh_from_db()
    assert replay_cache.load(game.replay_cache, 2) == full_replay(game)


def test_a_player_cannot_be_at_two_tables_at_once(table, other_table, players, marker_user):
    other_table.name = "У бара"
    other_table.save()
    start(other_table, "cork", [players[0], "Гость Пётр", players[1]], marker_user)
    with pytest.raises(ValidationError) as error, translation.override("ru"):
        start(table, "cork", [players[2], players[1], "Гость Пётр"], marker_user)
    # the message names the player and the table; the guest's name is not checked
    assert error.value.message_dict == {"seats": ["Борис Иванов уже играет за столом 2 (У бара)."]}
    assert Game.objects.count() == 1
    # once that game is over, he may start another
    Game.objects.update(status=GameStatus.ABANDONED)
    start(table, "cork", [players[2], players[1], "Гость Пётр"], marker_user)
    assert Game.objects.filter(status=GameStatus.IN_PROGRESS).count() == 1


def test_a_stroke_notes_its_device_and_forgets_the_old_ones():
    now = 10_000.0
    recent = {"a": now - 10, "b": now - services.DEVICE_SECONDS - 1}
    assert services.devices_after(recent, "c", now) == {"a": now - 10, "c": round(now)}
    assert services.devices_after(recent, "", now) == {"a": now - 10}  # no session: not noted
    game = Game(recent_devices={"a": now - 10})
    assert services.other_devices(game, "c", now)
    assert not services.other_devices(game, "a", now)
    assert not services.other_devices(game, "c", now + services.DEVICE_SECONDS)
