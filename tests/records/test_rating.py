"""Elo per family: the documented formula, and recomputing from scratch = updating game by game.

A rating reads the seats' outcomes and scores, never their figures (stats): the games here
carry none."""

import random
from datetime import timedelta

import pytest

from games.models import Game
from records import rating
from records.models import Rating, RatingLedger, RatingPoint
from tests.factories import T0, finished, player

pytestmark = pytest.mark.django_db


def test_two_player_game_from_equal_ratings():
    ann, bob = player("Ann"), player("Bob")
    finished("clockwise", [(ann, "win", 70, {}), (bob, "loss", 50, {})])
    state = rating.recompute("pocketing")
    assert state.rating(ann.pk) == pytest.approx(1516.0)
    assert state.rating(bob.pk) == pytest.approx(1484.0)


def test_second_game_uses_the_expected_score():
    ann, bob = player("Ann"), player("Bob")
    finished("clockwise", [(ann, "win", 70, {}), (bob, "loss", 50, {})])
    finished("clockwise", [(ann, "loss", 40, {}), (bob, "win", 61, {})], at=T0 + timedelta(1))
    state = rating.recompute("pocketing")
    # Ann 1516 vs Bob 1484: E(Ann) = 1 / (1 + 10^(-32/400)) = 0.54594…; she loses.
    e_ann = 1 / (1 + 10 ** (-32 / 400))
    assert state.rating(ann.pk) == pytest.approx(1516 - 32 * e_ann)
    assert state.rating(bob.pk) == pytest.approx(1484 + 32 * e_ann)
    assert state.games == {ann.pk: 2, bob.pk: 2}


def test_draw_between_equals_changes_nothing():
    ann, bob = player("Ann"), player("Bob")
    finished("cue_run", [(ann, "draw", 16, {}), (bob, "draw", 16, {})])
    state = rating.recompute("pocketing")
    assert state.rating(ann.pk) == state.rating(bob.pk) == pytest.approx(1500)


def test_multi_player_cork_game_is_pairwise_by_place():
    """3 players at 1500: the winner beats both (+16 + 16) / 2·… = +16; second (higher final
    score) beats the third and loses to the winner = 0; the third loses both = −16."""
    a, b, c = player("A"), player("B"), player("C")
    finished(
        "cork",
        [
            (c, "loss", -20, {}),
            (a, "win", 100, {}),
            (b, "loss", 7, {}),
        ],
    )
    state = rating.recompute("cork")
    assert state.rating(a.pk) == pytest.approx(1516)
    assert state.rating(b.pk) == pytest.approx(1500)
    assert state.rating(c.pk) == pytest.approx(1484)


def test_equal_final_scores_are_a_draw_between_losers():
    a, b, c = player("A"), player("B"), player("C")
    finished("cork", [(a, "win", 100, {}), (b, "loss", 3, {}), (c, "loss", 3, {})])
    state = rating.recompute("cork")
    # Each loses to A (0 − ½) and draws the other (½ − ½): 32 / 2 × (−½) = −8.
    assert state.rating(b.pk) == state.rating(c.pk) == pytest.approx(1492)


def test_cue_run_places_losers_by_fewer_strokes():
    a, b, c = player("A"), player("B"), player("C")
    finished("cue_run", [(a, "win", 17, {}), (b, "loss", 25, {}), (c, "loss", 19, {})])
    state = rating.recompute("pocketing")
    assert state.rating(c.pk) == pytest.approx(1500)
    assert state.rating(b.pk) == pytest.approx(1484)


def test_guests_are_not_rated_and_a_lone_rated_player_does_not_move():
    ann, bob = player("Ann"), player("Bob")
    finished("cork", [(ann, "win", 100, {}), ("Guest", "loss", 0, {}), (bob, "loss", 1, {})])
    finished("cork", [(ann, "win", 100, {}), ("Guest", "loss", 0, {})], at=T0 + timedelta(1))
    state = rating.recompute("cork")
    assert state.rating(ann.pk) == pytest.approx(1516)  # only the game against Bob counts
    assert state.games == {ann.pk: 1, bob.pk: 1}


def test_handicap_games_expect_half():
    ann, bob = player("Ann"), player("Bob")
    finished("clockwise", [(ann, "win", 70, {}), (bob, "loss", 50, {})])
    # Ann 1516, Bob 1484; with a handicap Ann's expected score is ½, not 0.546: +16.
    finished(
        "cue_run",
        [(ann, "win", 17, {}), (bob, "loss", 18, {})],
        at=T0 + timedelta(1),
        settings={"handicap": "extra_strokes", "handicap_strokes": 2, "strong_seat": "0"},
    )
    state = rating.recompute("pocketing")
    assert state.rating(ann.pk) == pytest.approx(1532)
    # Cue against hand is always a handicap game: Ann loses 16.
    finished(
        "cue_vs_hand",
        [(ann, "loss", 3, {}), (bob, "win", 8, {})],
        at=T0 + timedelta(2),
    )
    # Without a handicap the expected score counts again.
    finished(
        "cue_run",
        [(ann, "win", 17, {}), (bob, "loss", 18, {})],
        at=T0 + timedelta(3),
        settings={"handicap": "none", "handicap_strokes": 0, "strong_seat": "0"},
    )
    state = rating.recompute("pocketing")
    e_ann = 1 / (1 + 10 ** (-32 / 400))
    assert state.rating(ann.pk) == pytest.approx(1516 + 32 * (1 - e_ann))
    assert state.rating(bob.pk) == pytest.approx(1484 - 32 * (1 - e_ann))


def test_families_are_separate():
    ann, bob = player("Ann"), player("Bob")
    finished("cork", [(ann, "win", 100, {}), (bob, "loss", 1, {})])
    assert rating.recompute("pocketing").ratings == {}
    assert rating.family_of("cue_vs_hand") == "pocketing"
    assert rating.family_of("cork") == "cork"


def random_games(count, seed):
    rng = random.Random(seed)
    people = [player(f"P{i}") for i in range(6)]
    at = T0
    for _ in range(count):
        at += timedelta(minutes=rng.randint(1, 600))
        variant = rng.choice(["cork", "clockwise", "cue_run", "cue_vs_hand"])
        n = rng.randint(3, 5) if variant == "cork" else 2
        seated = rng.sample(people, n)
        if rng.random() < 0.1:
            seated[-1] = "Guest"
        winner = rng.randrange(n)
        draw = variant == "cue_run" and rng.random() < 0.2
        seats = [
            (
                who,
                "draw" if draw else ("win" if i == winner else "loss"),
                rng.randint(-50, 120),
                {},
            )
            for i, who in enumerate(seated)
        ]
        yield finished(variant, seats, at=at, number=rng.randint(1, 3))


@pytest.mark.parametrize("family", ["cork", "pocketing"])
def test_incremental_update_equals_full_recompute(family):
    state = rating.Ratings(family)
    for _game in random_games(60, seed=7):
        state = rating.update(state)
        assert state.count == Game.objects.filter(variant__in=rating.families()[family]).count()
    full = rating.recompute(family)
    assert full.count > 5
    assert state.ratings == full.ratings  # exactly: same arithmetic in the same order
    assert state.games == full.games
    assert state.history == full.history
    assert state.cursor == full.cursor


def test_current_is_cached_and_catches_up():
    list(random_games(20, seed=3))
    first = rating.current("pocketing")
    assert first.ratings == rating.recompute("pocketing").ratings
    # A new game: current() applies it incrementally and agrees with a recompute.
    ann, bob = player("Ann"), player("Bob")
    finished("clockwise", [(ann, "win", 70, {}), (bob, "loss", 1, {})], at=T0 + timedelta(days=400))
    second = rating.current("pocketing")
    assert second.count == first.count + 1
    assert second.ratings == rating.recompute("pocketing").ratings
    # A game slipped in with an older finishing time (say, edited by hand in the database):
    # noticed as soon as another game finishes, and everything is recomputed.
    finished("clockwise", [(bob, "win", 70, {}), (ann, "loss", 1, {})], at=T0 - timedelta(days=1))
    finished("clockwise", [(bob, "win", 70, {}), (ann, "loss", 1, {})], at=T0 + timedelta(days=401))
    third = rating.current("pocketing")
    assert third.count == second.count + 2
    assert third.ratings == rating.recompute("pocketing").ratings
    ledger = RatingLedger.objects.get(family="pocketing")  # stored, for every process
    assert ledger.count == third.count and ledger.stamp == rating._stamp()


def test_forget_drops_the_cache():
    list(random_games(5, seed=9))
    before = rating.current("cork")
    rating.forget()
    assert rating.current("cork") is not before


def test_cached_figures_are_served_without_recomputing(django_assert_num_queries):
    list(random_games(10, seed=5))
    rating.current("cork")
    with django_assert_num_queries(1):  # only the check of the newest finished game
        rating.current("cork")


def test_a_game_finished_on_the_console_moves_the_stored_ratings_at_once(table, marker_user):
    """Issue 27 item 8: no page recomputes the ratings; finishing the game stores them."""
    from games import services
    from tests.factories import ev, record

    ann, bob = player("Ann"), player("Bob")
    game = services.start_game(
        table=table, variant="cue_vs_hand", settings={}, seats=[ann, bob], marker=marker_user
    )
    game = play_to_the_end(game, marker_user, record, ev)
    services.finish_game(game=game, user=marker_user)
    ledger = RatingLedger.objects.get(family="pocketing")
    assert ledger.count == 1 and ledger.last_game_id == game.pk
    stored = dict(Rating.objects.values_list("player__full_name", "rating"))
    assert stored == {"Ann": pytest.approx(1516.0), "Bob": pytest.approx(1484.0)} or stored == {
        "Ann": pytest.approx(1484.0),
        "Bob": pytest.approx(1516.0),
    }
    assert RatingPoint.objects.filter(game_id=game.pk).count() == 2
    # Taken back: the stored ratings no longer count it (recomputed on the next read).
    services.reopen_game(game=game, user=marker_user)
    assert rating.current("pocketing").ratings == {}
    assert not RatingPoint.objects.exists()


def play_to_the_end(game, user, record, ev):
    from games import selectors

    while not selectors.game_state(game).finished:
        action = selectors.variant_of(game).legal_actions(selectors.game_state(game))[0]
        game = record(game, user, ev(action.kind))
    return game


def test_taking_back_the_last_finish_moves_the_stored_ratings_back(table, marker_user, monkeypatch):
    """The usual correction (the marker reopens the frame he just finished) is undone game
    by game: the stored figures equal a recompute, and nothing is recomputed to get there."""
    from games import services
    from tests.factories import ev, record

    list(random_games(12, seed=11))
    rating.current("pocketing")
    ann, bob = player("Ann"), player("Bob")
    game = services.start_game(
        table=table, variant="cue_vs_hand", settings={}, seats=[ann, bob], marker=marker_user
    )
    services.finish_game(game=play_to_the_end(game, marker_user, record, ev), user=marker_user)
    monkeypatch.setattr(rating, "recompute", lambda family: pytest.fail("recomputed"))
    services.reopen_game(game=game, user=marker_user)
    served = rating.current("pocketing")
    monkeypatch.undo()
    full = rating.recompute("pocketing")
    assert served.ratings == full.ratings and served.games == full.games
    assert served.count == full.count
    assert not RatingPoint.objects.filter(game_id=game.pk).exists()
