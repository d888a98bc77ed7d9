"""The pricing rule, hand-computed to the kopeck (the engine is plain Python: no database)."""

import doctest
from datetime import datetime, time
from fractions import Fraction
from zoneinfo import ZoneInfo

import pytest

from billing import pricing
from billing.pricing import WEEK, WEEKEND, WORKDAYS, Band, Played, Tariff, week_problems

MSK = ZoneInfo("Europe/Moscow")
DEMO = [
    Band(WEEK, time(2), time(10), 500_00, "night"),
    Band(WORKDAYS, time(10), time(18), 400_00, "day"),
    Band(WORKDAYS, time(18), time(2), 700_00, "evening"),
    Band(WEEKEND, time(10), time(2), 800_00, "weekend"),
]


def tariff(step=15, minimum=30, special_days=None, tz=MSK):
    return Tariff(
        {"p12": DEMO}, step=step * 60, minimum=minimum * 60, special_days=special_days, tz=tz
    )


def at(day, hour, minute=0, second=0):
    return datetime(2026, 12, day, hour, minute, second, tzinfo=MSK)  # 7 Dec 2026 is a Monday


def price(*intervals, **kwargs):
    discount = kwargs.pop("discount_percent", 0)
    return tariff(**kwargs).price(
        [Played(a, b, "p12") for a, b in intervals], discount_percent=discount
    )


def test_the_documented_example_runs_as_a_doctest():
    result = doctest.testmod(pricing)
    assert result.attempted >= 10 and result.failed == 0


def test_one_band_one_hour():
    result = price((at(7, 11), at(7, 12)))
    assert [(p.band.name, p.seconds) for p in result.periods] == [("day", 3600)]
    assert result.total == 400_00


def test_cut_at_the_band_change_to_the_second():
    # Monday 17:59:30 – 18:00:30: 30 s at 400 ₽/h and 30 s at 700 ₽/h, then the minimum.
    result = price((at(7, 17, 59, 30), at(7, 18, 0, 30)), minimum=0, step=1 / 60)
    assert [(p.band.name, p.seconds) for p in result.periods] == [("day", 30), ("evening", 30)]
    assert result.subtotal == Fraction(30 * 400_00 + 30 * 700_00, 3600)  # 9.1666… ₽
    assert result.total == 9_00


def test_rounding_up_once_priced_at_the_band_the_session_ended_in():
    # 17:50–18:05: 10 min day + 5 min evening = 15 min, exactly one step: nothing added.
    assert price((at(7, 17, 50), at(7, 18, 5)), minimum=0).total == 125_00  # 66.67 + 58.33
    # 17:50–18:06: 16 min → 30 min; the 14 added minutes at 700 ₽/h (the band it ended in).
    result = price((at(7, 17, 50), at(7, 18, 6)), minimum=0)
    assert (result.played, result.charged, result.extra_band.name) == (960, 1800, "evening")
    # 10 min × 400 + 6 min × 700 + 14 min × 700 = 66.67 + 70 + 163.33 = 300.00
    assert result.subtotal == 300_00 and result.total == 300_00


def test_rounding_is_never_once_per_band():
    # 7 min in each of two bands = 14 min → one step of 15, not two (which would be 30).
    result = price((at(7, 17, 53), at(7, 18, 7)), minimum=0)
    assert result.charged == 15 * 60


def test_minimum_applied_the_same_way():
    # 10 min at 09:55–10:05 on Monday: 5 min at 500, 5 min at 400, minimum 30 → +20 min at 400.
    result = price((at(7, 9, 55), at(7, 10, 5)))
    assert result.charged == 30 * 60 and result.extra_band.name == "day"
    # 41.67 + 33.33 + 133.33 = 208.33 → 208 ₽
    assert result.subtotal == Fraction(5 * 500_00 + 25 * 400_00, 60)
    assert result.total == 208_00


def test_pauses_are_not_charged():
    paused = price((at(7, 11), at(7, 11, 30)), (at(7, 12), at(7, 12, 30)))
    assert paused.played == 3600 and paused.total == 400_00


def test_half_a_rouble_rounds_up_and_less_rounds_down():
    # 1 min 27 s at 400 ₽/h is 9.6666…; at 1 min 30 s exactly 10.00; choose prices for .50:
    half = Tariff({"k": [Band(WEEK, time(0), time(0), 30_00)]}, step=1, tz=MSK)
    # 60 s at 30 ₽/h = 0.50 ₽ → 1 ₽ (half up)
    assert half.price([Played(at(7, 12), at(7, 12, 1), "k")]).total == 1_00
    # 59 s = 0.4916… ₽ → 0 ₽
    assert half.price([Played(at(7, 12), at(7, 12, 0, 59), "k")]).total == 0


def test_discount_after_the_rounding():
    result = price((at(7, 11), at(7, 12, 10)), discount_percent=15)
    # 70 min at 400 ₽/h → 75 min → 500 ₽; 15 % → 75 ₽ off
    assert (result.rounded, result.discount, result.total) == (500_00, 75_00, 425_00)


def test_a_band_past_midnight_belongs_to_the_day_it_starts_on():
    # Friday 23:00 – Saturday 01:00 is all Friday's evening band (700), not the weekend's.
    result = price((at(11, 23), at(12, 1)))
    assert [(p.band.name, p.seconds) for p in result.periods] == [("evening", 7200)]
    # Sunday 23:00 – Monday 03:00: the weekend band until 02:00, then the night band.
    result = price((at(13, 23), at(14, 3)))
    assert [(p.band.name, p.seconds) for p in result.periods] == [
        ("weekend", 3 * 3600),
        ("night", 3600),
    ]
    assert result.total == 3 * 800_00 + 500_00


def test_a_special_day_is_priced_with_another_weekday_s_bands():
    holiday = {datetime(2026, 12, 8).date(): 6}  # Tuesday priced as a Sunday
    result = price((at(8, 12), at(8, 13)), special_days=holiday)
    assert result.periods[0].band.name == "weekend" and result.total == 800_00
    # The Monday evening band still runs into the holiday until 02:00.
    result = price((at(8, 1), at(8, 3)), special_days=holiday)
    assert [p.band.name for p in result.periods] == ["evening", "night"]


def test_a_session_moved_between_kinds_keeps_each_part_priced_where_it_was_played():
    cheap = [Band(WEEK, time(0), time(0), 100_00, "cheap")]
    club = Tariff({"p12": DEMO, "p9": cheap}, step=15 * 60, minimum=0, tz=MSK)
    result = club.price(
        [Played(at(7, 11), at(7, 11, 30), "p12"), Played(at(7, 11, 30), at(7, 11, 40), "p9")]
    )
    assert [(p.band.name, p.seconds) for p in result.periods] == [("day", 1800), ("cheap", 600)]
    # 40 min → 45: the 5 added minutes at the band it ended in, on the second table.
    assert result.subtotal == Fraction(30 * 400_00 + 15 * 100_00, 60)


def test_nothing_played_costs_nothing():
    result = price((at(7, 11), at(7, 11)))
    assert (result.played, result.charged, result.total) == (0, 0, 0)


def test_prices_in_the_club_zone_not_in_utc():
    # 11:00 Moscow is 08:00 UTC: priced at the 10:00–18:00 band in Moscow.
    utc = datetime(2026, 12, 7, 8, 0, tzinfo=ZoneInfo("UTC"))
    result = tariff().price([Played(utc, utc.replace(hour=9), "p12")])
    assert result.periods[0].band.name == "day"


def test_the_demo_week_has_no_gap_and_no_overlap():
    assert week_problems(DEMO) == []


def test_gaps_and_overlaps_are_named_with_their_hours():
    names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    gap = [DEMO[0], DEMO[1], DEMO[3]]  # no weekday evenings
    described = [(p.kind, p.describe(names)) for p in week_problems(gap)]
    assert described[0] == ("gap", "Mon 18:00 – Tue 02:00")
    assert len(described) == 5 and described[-1] == ("gap", "Fri 18:00 – Sat 02:00")
    overlap = [*DEMO, Band(frozenset({2}), time(17), time(19), 1)]
    assert [(p.kind, p.describe(names)) for p in week_problems(overlap)] == [
        ("overlap", "Wed 17:00 – Wed 19:00")
    ]
    sunday_night = [Band(frozenset(range(6)), time(0), time(0), 1)]
    assert [(p.kind, p.describe(names)) for p in week_problems(sunday_night)] == [
        ("gap", "Sun 00:00 – Sun 24:00")
    ]


def test_an_uncovered_moment_is_an_error_not_a_guess():
    club = Tariff({"p12": [Band(frozenset({3}), time(10), time(12), 1)]}, tz=MSK)
    with pytest.raises(ValueError):
        club.price([Played(at(7, 11), at(7, 12), "p12")])  # before any band started
    with pytest.raises(ValueError):
        club.price([Played(at(7, 11), at(7, 12), "p10")])  # a kind with no bands
