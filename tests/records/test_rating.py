"""Elo per family: the documented formula, and recomputing from scratch = updating game by game.

A rating reads the seats' outcomes and scores, never their figures (stats): the games here
carry none."""

import random
from datetime import timedelta

import pytest

from games.models import Game
from records import glicko, odds, rating
from records.models import Rating, RatingLedger, RatingPoint
from tests.factories import T0, finished, player

pytestmark = pytest.mark.django_db


def day(at):
    return at.timestamp() / rating.DAY


NEWCOMER = glicko.start("novice")  # 1500 ± 350: most of a club's players have no class


def test_two_player_game_from_equal_ratings():
    ann, bob = player("Ann"), player("Bob")
    finished("clockwise", [(ann, "win", 70, {}), (bob, "loss", 50, {})])
    state = rating.recompute("pocketing")
    # Glicko-2 from 1500 ± 350 each: the winner gains about 162, his deviation falls to 290.
    assert state.rating(ann.pk) == pytest.approx(1662.3, abs=0.1)
    assert state.rating(bob.pk) == pytest.approx(1337.7, abs=0.1)
    assert state.skill(ann.pk).deviation == pytest.approx(290.3, abs=0.1)
    assert state.skill(ann.pk).provisional


def test_a_newcomer_starts_from_the_class():
    ann, bob = player("Ann", skill_class="cms"), player("Bob")
    finished("clockwise", [(ann, "win", 70, {}), (bob, "loss", 50, {})])
    state = rating.recompute("pocketing")
    ann_start, bob_start = glicko.start("cms"), NEWCOMER
    assert (ann_start.rating, ann_start.deviation) == (1950, glicko.CLASS_RD)
    expected = glicko.rate(ann_start, [glicko.Result(bob_start, 1.0)], day(T0))
    assert state.skill(ann.pk) == expected
    # The master was expected to win: a smaller gain than a newcomer's over a newcomer.
    newcomer_won = glicko.rate(NEWCOMER, [glicko.Result(NEWCOMER, 1.0)], day(T0))
    assert 0 < state.rating(ann.pk) - 1950 < (newcomer_won.rating - 1500) / 3


def test_second_game_uses_the_skills_before_it_and_the_time_between():
    ann, bob = player("Ann"), player("Bob")
    finished("clockwise", [(ann, "win", 70, {}), (bob, "loss", 50, {})])
    later = T0 + timedelta(days=60)
    finished("clockwise", [(ann, "loss", 40, {}), (bob, "win", 61, {})], at=later)
    state = rating.recompute("pocketing")
    ann1 = glicko.rate(NEWCOMER, [glicko.Result(NEWCOMER, 1.0)], day(T0))
    bob1 = glicko.rate(NEWCOMER, [glicko.Result(NEWCOMER, 0.0)], day(T0))
    # Two months off widen both deviations before the second game.
    assert ann1.at(day(later)).deviation > ann1.deviation
    ann2 = glicko.rate(ann1, [glicko.Result(bob1.at(day(later)), 0.0)], day(later))
    assert state.skill(ann.pk) == ann2
    assert state.games == {ann.pk: 2, bob.pk: 2}


def test_draw_between_equals_changes_only_the_deviation():
    ann, bob = player("Ann"), player("Bob")
    finished("cue_run", [(ann, "draw", 16, {}), (bob, "draw", 16, {})])
    state = rating.recompute("pocketing")
    assert state.rating(ann.pk) == state.rating(bob.pk) == pytest.approx(1500)
    assert state.skill(ann.pk).deviation < 350


def test_multi_player_cork_game_is_pairwise_by_place():
    """3 players at 1500: the winner beats both; second (higher final score) beats the third
    and loses to the winner: no change; the third loses both."""
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
    won = glicko.rate(NEWCOMER, [glicko.Result(NEWCOMER, 1.0)] * 2, day(T0))
    assert state.skill(a.pk) == won
    assert state.rating(b.pk) == pytest.approx(1500)
    assert state.rating(c.pk) == pytest.approx(3000 - won.rating)


def test_equal_final_scores_are_a_draw_between_losers():
    a, b, c = player("A"), player("B"), player("C")
    finished("cork", [(a, "win", 100, {}), (b, "loss", 3, {}), (c, "loss", 3, {})])
    state = rating.recompute("cork")
    # Each loses to A and draws the other.
    lost_and_drew = glicko.rate(
        NEWCOMER, [glicko.Result(NEWCOMER, 0.0), glicko.Result(NEWCOMER, 0.5)], day(T0)
    )
    assert state.skill(b.pk) == state.skill(c.pk) == lost_and_drew


def test_cue_run_places_losers_by_fewer_strokes():
    a, b, c = player("A"), player("B"), player("C")
    finished("cue_run", [(a, "win", 17, {}), (b, "loss", 25, {}), (c, "loss", 19, {})])
    state = rating.recompute("pocketing")
    assert state.rating(c.pk) == pytest.approx(1500)
    assert state.rating(b.pk) < 1500


def test_guests_are_not_rated_and_a_lone_rated_player_does_not_move():
    ann, bob = player("Ann"), player("Bob")
    finished("cork", [(ann, "win", 100, {}), ("Guest", "loss", 0, {}), (bob, "loss", 1, {})])
    finished("cork", [(ann, "win", 100, {}), ("Guest", "loss", 0, {})], at=T0 + timedelta(1))
    state = rating.recompute("cork")
    only_bob = glicko.rate(NEWCOMER, [glicko.Result(NEWCOMER, 1.0)], day(T0))
    assert state.skill(ann.pk) == only_bob  # only the game against Bob counts
    assert state.games == {ann.pk: 1, bob.pk: 1}


def test_traditional_handicap_games_expect_half():
    ann, bob = player("Ann"), player("Bob")
    finished("clockwise", [(ann, "win", 70, {}), (bob, "loss", 50, {})])
    at = T0 + timedelta(1)
    finished(
        "cue_run",
        [(ann, "win", 17, {}), (bob, "loss", 18, {})],
        at=at,
        settings={"handicap": "extra_strokes", "handicap_strokes": 2, "strong_seat": "0"},
    )
    state = rating.recompute("pocketing")
    ann1 = glicko.rate(NEWCOMER, [glicko.Result(NEWCOMER, 1.0)], day(T0))
    bob1 = glicko.rate(NEWCOMER, [glicko.Result(NEWCOMER, 0.0)], day(T0))
    # With extra strokes the handicap is meant to even the game: Ann's expected score is ½.
    even = glicko.rate(ann1, [glicko.Result(bob1.at(day(at)), 1.0, 0.5)], day(at))
    plain = glicko.rate(ann1, [glicko.Result(bob1.at(day(at)), 1.0)], day(at))
    assert state.skill(ann.pk) == even and even.rating > plain.rating


def test_a_pyramid_head_start_counts_as_the_race_of_balls_it_made():
    """Bob receives "8–6" (two balls on his shelf) and wins: he was given good odds, so he
    gains less than for beating Ann on equal terms, and Ann loses less."""
    ann, bob = player("Ann", skill_class="1"), player("Bob")
    handicap = {"weaker_seat": 1, "head_start": 2, "returned_pots": 0}
    game = finished("pyramid_free", [(ann, "loss", 6, {}), (bob, "win", 8, {})], settings=handicap)
    state = rating.recompute("pyramid")
    ann0, bob0 = glicko.start("1"), NEWCOMER
    p_bob = glicko.expected_score(bob0, ann0)
    given = odds.with_handicap(p_bob, 8, 2)
    assert given > p_bob + 0.1  # the head start is worth more than 10 points in a hundred
    assert state.skill(bob.pk) == glicko.rate(
        bob0, [glicko.Result(ann0, 1.0, given)], day(game.finished_at)
    )
    even = rating.recompute("pyramid")
    game.settings = {}
    game.save()
    even = rating.recompute("pyramid")
    assert state.rating(bob.pk) < even.rating(bob.pk)
    assert state.rating(ann.pk) > even.rating(ann.pk)


def test_families_are_separate():
    ann, bob = player("Ann"), player("Bob")
    finished("cork", [(ann, "win", 100, {}), (bob, "loss", 1, {})])
    assert rating.recompute("pocketing").ratings == {}
    assert rating.family_of("cue_vs_hand") == "pocketing"
    assert rating.family_of("cork") == "cork"


def random_games(count, seed):
    rng = random.Random(seed)
    classes = ["novice", "3", "2", "1", "cms", "ms"]
    people = [player(f"P{i}", skill_class=classes[i]) for i in range(6)]
    at = T0
    for _ in range(count):
        # Sometimes weeks apart: the deviations widen between games.
        at += timedelta(minutes=rng.choice([rng.randint(1, 600), rng.randint(1, 60) * 1440]))
        variant = rng.choice(["cork", "clockwise", "cue_run", "cue_vs_hand", "pyramid_free"])
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
        settings = None
        if variant == "pyramid_free" and rng.random() < 0.5:  # a head start ("8–7", "8–6")
            settings = {
                "weaker_seat": rng.randrange(2),
                "head_start": rng.randint(0, 3),
                "returned_pots": rng.randint(0, 1),
            }
        yield finished(variant, seats, at=at, number=rng.randint(1, 3), settings=settings)


@pytest.mark.parametrize("seed", [7, 8])
@pytest.mark.parametrize("family", ["cork", "pocketing", "pyramid"])
def test_incremental_update_equals_full_recompute(family, seed):
    """The property item 5 asks for: game by game, or all at once, the same numbers — exactly
    (the same arithmetic in the same order), over random histories of every family."""
    state = rating.Ratings(family)
    for _game in random_games(60, seed=seed):
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
    # Every figure of a skill, as stored and read back: the next game starts from them.
    assert second.skills == rating.recompute("pocketing").skills
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
    stored = sorted(Rating.objects.values_list("rating", flat=True))
    assert stored == [pytest.approx(1337.7, abs=0.1), pytest.approx(1662.3, abs=0.1)]
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


def test_a_head_start_in_points_counts_as_balls_of_target_over_eight_points():
    """Классическая пирамида to 71 points, 18 points given: 18 × 8 / 71 ≈ 2.03 balls — the
    same reading as the odds on the start form (records.forecast)."""
    ann, bob = player("Ann", skill_class="1"), player("Bob")
    handicap = {"weaker_seat": 1, "head_start": 18, "returned_pots": 0}
    game = finished(
        "pyramid_classic", [(ann, "win", 71, {}), (bob, "loss", 60, {})], settings=handicap
    )
    state = rating.recompute("pyramid")
    ann0, bob0 = glicko.start("1"), NEWCOMER
    given = odds.with_handicap(glicko.expected_score(bob0, ann0), 8, 18 * 8 / 71)
    assert state.skill(bob.pk) == glicko.rate(
        bob0, [glicko.Result(ann0, 0.0, given)], day(game.finished_at)
    )
