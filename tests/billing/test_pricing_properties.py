"""Property-based tests of the pricing rule over random tariffs, sessions and pauses."""

import os
import time as time_module
from datetime import UTC, datetime, time, timedelta
from fractions import Fraction
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from billing.pricing import DAY, Band, Played, Tariff, week_problems

ZONES = ["Europe/Moscow", "Asia/Yekaterinburg", "Europe/Berlin", "America/New_York", "UTC"]
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def clock(seconds):
    return time(seconds // 3600, seconds // 60 % 60, seconds % 60)


@st.composite
def weeks(draw):
    """Bands covering the week exactly once: each day is cut before 06:00 and at least once
    after; its last band runs past midnight to the next day's first cut."""
    firsts = [draw(st.integers(0, 6 * 3600 - 1)) for _ in range(7)]
    bands = []
    for day in range(7):
        cuts = sorted(set(draw(st.lists(st.integers(6 * 3600, DAY - 1), min_size=1, max_size=3))))
        cuts = [firsts[day], *cuts]
        ends = [*cuts[1:], firsts[(day + 1) % 7]]
        for start, end in zip(cuts, ends, strict=True):
            price = draw(st.integers(0, 3000_00))
            bands.append(Band(frozenset({day}), clock(start), clock(end), price, f"{day}@{start}"))
    return bands


@st.composite
def tariffs(draw, rounding=True):
    zone = ZoneInfo(draw(st.sampled_from(ZONES)))
    step = draw(st.sampled_from([60, 5 * 60, 15 * 60, 30 * 60, 3600])) if rounding else 1
    minimum = draw(st.sampled_from([0, 15 * 60, 30 * 60, 3600])) if rounding else 0
    return Tariff({"k": draw(weeks())}, step=step, minimum=minimum, tz=zone)


@st.composite
def sessions(draw):
    """A start in 2026–2027 (UTC, to the second) and alternating played / paused stretches."""
    start = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=draw(st.integers(0, 730 * DAY)))
    stretches = draw(st.lists(st.integers(1, 10 * 3600), min_size=1, max_size=7))
    intervals, cursor = [], start
    for index, seconds in enumerate(stretches):
        if index % 2 == 0:
            intervals.append(Played(cursor, cursor + timedelta(seconds=seconds), "k"))
        cursor += timedelta(seconds=seconds)
    return intervals


def band_at(tariff, moment):
    """The reference: the band whose occurrence (on the day it starts) contains ``moment``."""
    local = moment.astimezone(tariff.tz)
    found = []
    for day in (local.date() - timedelta(days=1), local.date()):
        for band in tariff.bands["k"]:
            if tariff.weekday_of(day) in band.weekdays:
                begin = datetime.combine(day, band.start, tzinfo=tariff.tz)
                end = begin + timedelta(seconds=band.length)
                if begin.timestamp() <= moment.timestamp() < end.timestamp():
                    found.append(band)
    return found


@SETTINGS
@given(weeks())
def test_generated_weeks_are_valid(bands):
    assert week_problems(bands) == []


@SETTINGS
@given(tariffs(), sessions(), st.integers(0, 100))
def test_total_is_the_sum_of_its_periods_plus_the_rounding(tariff, intervals, discount):
    price = tariff.price(intervals, discount_percent=discount)
    played = sum(int((i.end - i.start).total_seconds()) for i in intervals)
    assert price.played == played == sum(period.seconds for period in price.periods)
    assert (
        price.charged >= played
        and price.charged % tariff.step == 0
        or (price.charged == tariff.minimum)
    )
    assert price.charged - played < max(tariff.step, tariff.minimum)
    exact = sum((period.amount for period in price.periods), Fraction(0))
    added = Fraction(price.extra * price.extra_band.price_per_hour, 3600)
    assert price.extra_amount == added
    assert price.rounded == exact + added + price.rounding
    assert -50_00 < price.rounding <= 50_00 and price.rounded % 100 == 0
    assert price.total == price.rounded - price.discount
    assert 0 <= price.total <= price.rounded


@SETTINGS
@given(tariffs(), sessions())
def test_every_period_is_priced_to_the_second_in_the_band_in_force(tariff, intervals):
    price = tariff.price(intervals)
    for period in price.periods:
        assert period.amount == Fraction(period.seconds * period.band.price_per_hour, 3600)
        assert period.seconds == int((period.end - period.start).total_seconds()) > 0
        # the band in force at its first and at its last second is the period's band
        assert band_at(tariff, period.start) == [period.band]
        assert band_at(tariff, period.end - timedelta(seconds=1)) == [period.band]
    for before, after in zip(price.periods, price.periods[1:], strict=False):
        if before.end == after.start:  # cut inside one played interval: a band change
            assert before.band is not after.band
            assert band_at(tariff, after.start) == [after.band]
    # the last band is the one the session ended in
    if price.periods:
        assert price.extra_band is price.periods[-1].band


def contained(draw, intervals):
    """A shorter session inside ``intervals``: a later start and/or an earlier end."""
    first, last = intervals[0].start, intervals[-1].end
    total = int((last - first).total_seconds())
    cut_start = draw(st.integers(0, total))
    cut_end = draw(st.integers(cut_start, total))
    a, b = first + timedelta(seconds=cut_start), first + timedelta(seconds=cut_end)
    inner = []
    for interval in intervals:
        start, end = max(interval.start, a), min(interval.end, b)
        if start < end:
            inner.append(Played(start, end, interval.kind))
    assume(inner != intervals)
    return inner


@SETTINGS
@given(tariffs(rounding=False), sessions(), st.data(), st.integers(0, 100))
def test_a_session_never_costs_less_than_a_shorter_one_it_contains(
    tariff, intervals, data, discount
):
    inner = contained(data.draw, intervals)
    longer = tariff.price(intervals, discount_percent=discount)
    shorter = tariff.price(inner, discount_percent=discount)
    assert longer.subtotal >= shorter.subtotal
    assert longer.total >= shorter.total


@SETTINGS
@given(tariffs(), sessions(), st.data())
def test_with_rounding_too_when_the_added_time_is_not_dearer_than_what_it_replaces(
    tariff, intervals, data
):
    """With a step or a minimum, the added minutes are priced at the band the session ended
    in (the rule): a shorter session that ended in a dearer band than anything the longer
    one adds may cost more (see the next test). Whenever it did not, the order holds."""
    inner = contained(data.draw, intervals)
    longer, shorter = tariff.price(intervals), tariff.price(inner)
    assert longer.subtotal >= sum((p.amount for p in shorter.periods), Fraction(0))
    if shorter.played:
        cheapest_added = min(
            [p.band.price_per_hour for p in longer.periods] + [longer.extra_band.price_per_hour]
        )
        if cheapest_added >= shorter.extra_band.price_per_hour:
            assert longer.subtotal >= shorter.subtotal
            assert longer.total >= shorter.total


def test_the_documented_exception_of_the_rule():
    """10 min ending in a 500 ₽/h band is charged 15 min at 500 ₽/h; 1 min more, in the
    400 ₽/h band, makes the added 4 min cost 400 ₽/h: the longer session is cheaper."""
    msk = ZoneInfo("Europe/Moscow")
    week = frozenset(range(7))
    club = Tariff(
        {"k": [Band(week, time(2), time(10), 500_00), Band(week, time(10), time(2), 400_00)]},
        step=15 * 60,
        tz=msk,
    )
    start = datetime(2026, 12, 7, 9, 50, tzinfo=msk)
    shorter = club.price([Played(start, start + timedelta(minutes=10), "k")])
    longer = club.price([Played(start, start + timedelta(minutes=11), "k")])
    assert shorter.subtotal == 125_00  # 15 min × 500 ₽/h
    assert longer.subtotal == Fraction(10 * 500_00 + 5 * 400_00, 60)  # 116.67
    assert longer.total < shorter.total


@pytest.fixture
def restore_tz():
    saved = os.environ.get("TZ")
    yield
    if saved is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = saved
    time_module.tzset()


SERVER_ZONES = ["UTC", "America/Los_Angeles", "Asia/Kathmandu", "Pacific/Chatham", "Europe/Moscow"]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(tariffs(), sessions())
def test_prices_do_not_depend_on_the_server_time_zone(restore_tz, tariff, intervals):
    answers = []
    for zone in SERVER_ZONES:
        os.environ["TZ"] = zone
        time_module.tzset()
        fresh = Tariff(tariff.bands, step=tariff.step, minimum=tariff.minimum, tz=tariff.tz)
        price = fresh.price(intervals)
        answers.append(
            (
                [(p.band, p.start, p.end, p.seconds, p.amount) for p in price.periods],
                price.charged,
                price.total,
            )
        )
    assert all(answer == answers[0] for answer in answers)


# --- a tariff change never reprices the past (issue 21 item 5) ------------------------------


@SETTINGS
@given(tariffs(rounding=False), weeks(), sessions(), st.integers(0, 760 * DAY))
def test_a_change_prices_each_second_at_the_version_in_force(tariff, later, intervals, offset):
    """Every played second costs what the band in force then costs: the old version's
    before the change, the new one's after; and time played before the change costs what
    it cost without it."""
    since = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=offset)
    exact = {"step": 1, "minimum": 0, "tz": tariff.tz}
    changed = Tariff(tariff.bands, changes={"k": [(since, later)]}, **exact)
    price = changed.price(intervals)
    new = Tariff({"k": later}, **exact)
    expected = Fraction(0)
    for interval in intervals:
        before = Played(interval.start, min(interval.end, since), "k")
        after = Played(max(interval.start, since), interval.end, "k")
        for part, version in ((before, tariff), (after, new)):
            if part.start < part.end:
                expected += version.price([part]).subtotal
    assert price.subtotal == expected
    played_before = [Played(i.start, min(i.end, since), "k") for i in intervals if i.start < since]
    if played_before:
        assert changed.price(played_before).subtotal == tariff.price(played_before).subtotal


@SETTINGS
@given(tariffs(), sessions(), st.integers(0, 760 * DAY))
def test_a_change_to_the_same_bands_changes_no_price(tariff, intervals, offset):
    since = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=offset)
    same = Tariff(
        tariff.bands,
        step=tariff.step,
        minimum=tariff.minimum,
        tz=tariff.tz,
        changes={"k": [(since, tariff.bands["k"])]},
    )
    assert same.price(intervals).total == tariff.price(intervals).total
