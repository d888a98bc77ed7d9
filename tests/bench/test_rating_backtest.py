"""The ratings' backtest (bench/rating_backtest.py, issue 33): its histories play the frames
as the odds read them, it prints a line per history as the issue asks, and its verdict is the
engine's log-loss below Elo's on every synthetic history. (Its smoke run with the demo club is
tests/bench/test_smoke.py's; the figures come from the full run, in the README.)"""

import math
import random
import re

import pytest

from bench import rating_backtest as backtest
from bench.rating_backtest import Calls, Handicap, History, Match
from records import odds
from tests.bench.helpers import run_bench


def test_the_smoke_run_prints_a_line_per_history_and_no_verdict():
    done = run_bench("rating_backtest.py", "--smoke", "--no-demo")
    number = r"\d\.\d{4}"
    for spec in backtest.SPECS:
        for label in ("", " matches"):
            line = rf"^log-loss {spec.name}{label}: engine {number}, elo {number}, even {number}$"
            assert re.search(line, done.stdout, re.M), (spec.name, label)
    assert "calibration" in done.stdout and "accuracy" in done.stdout
    assert done.stdout.splitlines()[-1] == "smoke run: no verdict"


@pytest.mark.parametrize("weaker", ["a", "b"])
def test_a_frame_played_ball_by_ball_is_won_as_the_odds_say(weaker):
    """The histories' frames follow the odds the engine reads them with: a head start of two
    balls ("8–6") to a player who wins 30 % of even frames."""
    rng = random.Random(5)
    handicap = Handicap(8, 2, 0, weaker)
    p_a = 0.3 if weaker == "a" else 0.7
    frames = 20_000
    won = sum(backtest.play_frame(rng, p_a, handicap) for _ in range(frames)) / frames
    expected = handicap.apply(p_a)
    assert expected == pytest.approx(
        odds.with_handicap(0.3, 8, 2) if weaker == "a" else 1 - odds.with_handicap(0.3, 8, 2)
    )
    assert abs(won - expected) < 4 * math.sqrt(expected * (1 - expected) / frames)
    even = sum(backtest.play_frame(rng, 0.3, None) for _ in range(frames)) / frames
    assert abs(even - 0.3) < 4 * math.sqrt(0.21 / frames)


def test_the_histories_are_the_same_each_run_and_differ_by_seed():
    spec = backtest.SPECS[0]
    first, again = (backtest.synthetic(spec, 1, 12, 40) for _ in range(2))
    assert first.events == again.events and first.frames > 20
    assert backtest.synthetic(spec, 2, 12, 40).events != first.events


def test_a_match_is_predicted_before_its_frames_and_each_frame_before_it_is_played():
    history = History(
        "two", {"x": "ms", "y": "novice"}, [Match(0.0, "x", "y", 2, 2, [0.0, 1.0, 1.0])]
    )
    calls = backtest.backtest(history)
    engine = calls["engine"]
    assert len(engine.frames) == 3 and len(engine.matches) == 1
    first, second, third = (p for p, _result in engine.frames)
    assert first > 0.85  # a master against a novice, before anything was played
    assert second < first  # the master lost the first frame
    assert engine.matches[0] == (pytest.approx(odds.race(first, 2, 2)), 1.0)
    assert calls["even"].matches == [(0.5, 1.0)] and calls["elo"].frames[0][0] == 0.5


def test_the_measures():
    assert backtest.log_loss([(0.5, 1.0), (0.5, 0.0)]) == pytest.approx(math.log(2))
    assert backtest.log_loss([(0.9, 1.0)]) == pytest.approx(-math.log(0.9))
    assert backtest.log_loss([(1.0, 0.0)]) < 14  # a sure call that failed: clipped, finite
    assert backtest.accuracy([(0.7, 1.0), (0.7, 0.0), (0.5, 1.0), (0.2, 0.0)]) == 0.625
    calls = [(i / 100, float(i % 2)) for i in range(100)]
    deciles = backtest.calibration(calls)
    assert len(deciles) == 10 and deciles[0][0] == pytest.approx(0.045)
    assert all(observed == 0.5 for _p, observed in deciles)
    assert backtest.calibration(calls[:5]) == []


def test_the_verdict_is_the_engine_below_elo_on_every_synthetic_history(capsys):
    good, bad = [(0.8, 1.0)] * 10, [(0.3, 1.0)] * 10
    even = [(0.5, 1.0)] * 10

    def results(engine_matches):
        return {
            "engine": Calls(good, engine_matches),
            "elo": Calls(bad, [(0.6, 1.0)] * 10),
            "even": Calls(even, even),
        }

    histories = [History("steady", {}, []), History("demo", {}, [], synthetic=False)]
    # the engine worse on the demo only: not judged
    assert backtest.report({"steady": results(good), "demo": results(bad)}, histories)
    # worse on a synthetic history's matches: failed
    assert not backtest.report({"steady": results(bad), "demo": results(good)}, histories)
    assert "log-loss steady: engine 0.2231, elo 1.2040, even 0.6931" in capsys.readouterr().out
