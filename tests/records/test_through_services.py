"""Games played through the marker's services (start, record, undo, finish), then the figures.

The expected figures are computed by hand from the strokes below.
"""

import re

import pytest
from django.urls import reverse

from games import rules, selectors, services
from records import glicko, rating
from records.stats import player_records
from tests.factories import player, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(marker_user):
    return player("Ann"), player("Bob"), player("Cid"), marker_user


def play(game, user, *events):
    for kind, details in events:
        game.refresh_from_db()
        if kind == "undo":
            services.undo_last(game=game, expected_seq=game.last_seq, user=user)
            continue
        event = rules.Event.from_payload(kind, details)
        services.record_event(game=game, expected_seq=game.last_seq, event=event, user=user)
    game.refresh_from_db()
    return services.finish_game(game=game, user=user)


def figures_of(who, variant):
    record = next(r for r in player_records(who) if r.variant == variant)
    return record, {f.key: value for f, value in record.figures}


def test_cork_game(client, people):
    ann, bob, cid, marker = people
    game = services.start_game(
        table=table(1),
        variant="cork",
        settings={"target": 10},
        seats=[ann, bob, cid],
        marker=marker,
    )
    play(
        game,
        marker,
        ("stroke", {}),  # Ann: nothing → Bob
        ("foul", {"fouls": ["miss", "touched"]}),  # Bob: 1 − 3 = −2, bank 6 → Cid
        ("score", {}),  # Cid: 1 + 6 … the marker pressed the wrong button:
        ("undo", {}),
        ("stroke", {}),  # Cid: nothing → Ann
        ("score", {}),  # Ann: 1 + 6 = 7, bank 12, Ann continues
        ("score", {}),  # Ann: 7 + 12 = 19 ≥ 10: Ann wins
    )
    record, ann_figures = figures_of(ann, "cork")
    assert (record.games, record.wins, record.losses) == (1, 1, 0)
    assert ann_figures["points_won"] == 18 and ann_figures["scoring_strokes"] == 2
    assert ann_figures["fouls_per_game"] == 0
    record, bob_figures = figures_of(bob, "cork")
    assert (record.games, record.wins, record.losses) == (1, 0, 1)
    assert bob_figures["foul_miss"] == 1 and bob_figures["foul_touched"] == 1
    assert bob_figures["fouls_per_game"] == 1  # one penalised stroke
    _record, cid_figures = figures_of(cid, "cork")
    assert cid_figures["points_won"] == 0  # the undone award does not count
    # Rating: Ann first; Cid (final 1) above Bob (final −2): Ann beat two newcomers, Cid
    # beat one and lost to one, Bob lost to both.
    ratings = rating.current("cork")
    newcomer = glicko.start(None)
    won = glicko.rate(newcomer, [glicko.Result(newcomer, 1.0)] * 2).rating
    assert [round(ratings.rating(p.pk)) for p in (ann, bob, cid)] == [
        round(won),
        round(3000 - won),
        1500,
    ]
    # The game page shows all 7 events, the undone one marked, the bank step by step.
    html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    rows = re.findall(r'<tr class="([^"]*)" id="event-(\d+)">(.*?)</tr>', html, re.S)
    assert [(cls.strip(), n) for cls, n, _ in rows] == [
        ("", "1"),
        ("", "2"),
        ("undone", "3"),
        ("undo", "4"),
        ("", "5"),
        ("", "6"),
        ("", "7"),
    ]
    banks = [re.findall(r'<td class="num[^"]*">([^<]*)</td>', row)[-1] for _c, _n, row in rows]
    assert banks == ["3", "6", "12", "6", "6", "12", "24"]


def run(pots_and_misses):
    """A run as events: "p" a pot, "s" a stroke without a pot."""
    return [("pot" if c == "p" else "stroke", {}) for c in pots_and_misses]


def test_cue_run_games(people):
    ann, bob, _cid, marker = people
    first = services.start_game(
        table=table(1), variant="cue_run", settings={}, seats=[ann, bob], marker=marker
    )
    play(first, marker, *run("p" * 16), *run("ps"), ("stop", {}))  # Ann 16/16; Bob stops
    second = services.start_game(
        table=table(1), variant="cue_run", settings={}, seats=[ann, bob], marker=marker
    )
    play(second, marker, *run("s" + "p" * 16), *run("p" * 16))  # Ann 17; Bob 16/16 wins
    record, ann_figures = figures_of(ann, "cue_run")
    assert (record.games, record.wins, record.losses) == (2, 1, 1)
    assert ann_figures["runs"] == 2 and ann_figures["best_run"] == 16
    assert ann_figures["average_run"] == pytest.approx(16.5)
    assert ann_figures["perfect_runs"] == 1
    _record, bob_figures = figures_of(bob, "cue_run")
    assert bob_figures["runs"] == 1 and bob_figures["best_run"] == 16  # the stopped run: no run


def test_clockwise_game(people):
    ann, bob, _cid, marker = people
    game = services.start_game(
        table=table(1), variant="clockwise", settings={}, seats=[ann, bob], marker=marker
    )
    play_events = [("break", {}), ("nominate", {"pocket": "right_middle"})]
    for kind, details in play_events:
        game.refresh_from_db()
        services.record_event(
            game=game,
            expected_seq=game.last_seq,
            event=rules.Event.from_payload(kind, details),
            user=marker,
        )

    def pot(ball, wrong=False):
        game.refresh_from_db()
        pocket = selectors.game_state(game).pocket_map[ball]
        if wrong:
            pocket = pocket.next_clockwise()
        event = rules.Event("pot", ball=ball, pocket=pocket)
        services.record_event(game=game, expected_seq=game.last_seq, event=event, user=marker)

    pot(1, wrong=True)  # Bob (after the nomination): the wrong pocket, the turn passes to Ann
    for ball in range(1, 12):  # Ann: 1 + 2 + … + 11 = 66 ≥ 61 wins
        pot(ball)
    game.refresh_from_db()
    services.finish_game(game=game, user=marker)
    _record, ann_figures = figures_of(ann, "clockwise")
    assert ann_figures["balls_per_game"] == 11 and ann_figures["points_per_game"] == 66
    assert ann_figures["wrong_pockets"] == 0
    record, bob_figures = figures_of(bob, "clockwise")
    assert (record.wins, record.losses) == (0, 1)
    assert bob_figures["wrong_pockets"] == 1 and bob_figures["balls_per_game"] == 0


def test_cue_vs_hand_game(people):
    ann, bob, _cid, marker = people
    game = services.start_game(
        table=table(1),
        variant="cue_vs_hand",
        settings={"target": 2, "cue_seat": "1"},
        seats=[ann, bob],
        marker=marker,
    )
    # Bob (cue) breaks, nothing drops → Ann (hand) pots 2 and wins.
    play(game, marker, ("stroke", {}), ("pot", {"count": 2}))
    _record, ann_figures = figures_of(ann, "cue_vs_hand")
    assert (ann_figures["hand_games"], ann_figures["hand_wins"]) == (1, 1)
    assert (ann_figures["cue_games"], ann_figures["cue_wins"]) == (0, 0)
    _record, bob_figures = figures_of(bob, "cue_vs_hand")
    assert (bob_figures["cue_games"], bob_figures["cue_wins"]) == (1, 0)
