"""``/me/``: his game in progress, his bookings and open bills ("the loser pays" explained,
unconfirmed games shared), his recent games, ratings, form; nobody else's bill or phone; a
player's account never reaches a staff page."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from billing import selectors as billing_selectors
from billing import services as billing_services
from billing.demo import load_demo_tariffs
from billing.models import BarItem, Reservation, SplitMode
from games import services as game_services
from games.models import Game, GameStatus, Outcome
from live import publishing
from me import fragments, selectors
from tests.factories import GameFactory, PlayerFactory, TableFactory, UserFactory
from toolbox.roles import CASHIERS, MARKERS
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.simulate import play_frame

pytestmark = pytest.mark.django_db

MONDAY = datetime(2026, 11, 30, 0, 0, tzinfo=UTC) - timedelta(hours=3)


def at(hour, minute=0):
    return MONDAY + timedelta(hours=hour, minutes=minute)


def played(table, players, start, end, status=GameStatus.FINISHED, losers=()):
    game = GameFactory(table=table, seats=players)
    Game.objects.filter(pk=game.pk).update(started_at=start, finished_at=end, status=status)
    for seat in game.seats.all():
        seat.outcome = Outcome.LOSS if seat.player in losers else Outcome.WIN
        seat.save()
    return game


def loser_bill(table, cashier, start, end):
    session = billing_services.start_session(table=table, user=cashier, at=start)
    billing_services.stop_session(session=session, user=cashier, at=end)
    bill = session.bill
    billing_services.set_split(bill=bill, mode=SplitMode.LOSER, user=cashier)
    bill.refresh_from_db()
    return bill


def test_his_open_bill_explains_the_loser_pays_and_an_unconfirmed_game_is_shared(lena):
    """11:00–12:00 at 400 ₽/h: Lena loses 11:00–11:30 (200 ₽ hers), a game 11:30–12:00 she
    lost but that is not confirmed yet is shared (100 ₽ each): she owes 300 ₽."""
    load_demo_tariffs()
    cashier = UserFactory(username="c", groups=[CASHIERS])
    table = TableFactory(number=1, kind="pyramid_12")
    boris = PlayerFactory(full_name="Борис Иванов", phone="+7 999 000-00-01")
    played(table, [lena, boris], at(11), at(11, 30), losers=[lena])
    played(table, [lena, boris], at(11, 30), at(12), status=GameStatus.UNCONFIRMED, losers=[lena])
    bill = loser_bill(table, cashier, at(11), at(12))
    [entry] = selectors.open_bills(lena)
    assert entry.share == 300_00 and entry.total == 400_00
    assert [(part.amount, part.note) for part in entry.parts] == [
        (200_00, "проигрыш: платите вы"),
        (100_00, "ещё не подтверждена: поровну"),
    ]
    shares = {p.name: s for p, s in billing_selectors.bill_summary(bill).shares}
    assert shares == {"Лена": 300_00, "Борис Иванов": 100_00}
    phone = Client()
    phone.force_login(lena.user)
    page = phone.get(reverse("me:home")).content.decode()
    assert "300,00" in page and "проигрыш: платите вы" in page
    assert "+7 999" not in page and "000-00-01" not in page  # nobody else's phone
    # Boris has no account: his bill is nobody's page. The cashier's pages stay closed.
    assert phone.get(reverse("billing:bill", args=[bill.pk])).status_code == 403


def test_his_parts_of_the_loser_pays_add_up_to_his_share_to_the_kopeck(lena, sokol):
    """Issue 31 item 4: the time between games read 0,00 ₽ while the bill shares it among
    everyone, and each part was his even cut of it (rounded down), so the parts did not add
    up to his share. 11:00–12:10 at 400 ₽/h is charged 75 min, 500 ₽; Lena loses 11:00–11:25,
    nobody plays 11:25–11:32, Boris loses to Сокол 11:32–12:10; a tea (150 ₽) is for all."""
    load_demo_tariffs()
    cashier = UserFactory(username="c", groups=[CASHIERS])
    table = TableFactory(number=1, kind="pyramid_12")
    boris = PlayerFactory(full_name="Борис Иванов", phone="+7 999 000-00-01")
    played(table, [lena, boris], at(11), at(11, 25), losers=[lena])
    played(table, [boris, sokol], at(11, 32), at(12, 10), losers=[boris])
    bill = loser_bill(table, cashier, at(11), at(12, 10))
    tea = BarItem.objects.create(name="Чай", price=150_00)
    billing_services.add_bar_item(bill=bill, item=tea, quantity=1, user=cashier)
    summary = billing_selectors.bill_summary(bill)
    assert summary.total == 500_00 + 150_00
    # The time's 500 ₽ in proportion to the parts' own minutes (25, 38 and, between the
    # games, 7 of 70), to the kopeck: 178.5714… → 178,57 ₽; 271.4285… → 271,42 ₽ and the
    # kopeck left over (the largest remainder) → 271,43 ₽; 50,00 ₽.
    assert [row.share for row in summary.frames] == [178_57, 271_43, 50_00]
    # The 50 ₽ between the games among the three payers: 16,67 + 16,67 + 16,66 (the
    # earlier payers take the kopecks left over); the tea likewise, 50 ₽ each.
    shares = {payer.name: share for payer, share in summary.shares}
    assert shares == {
        "Лена": 178_57 + 16_67 + 50_00,
        "Борис Иванов": 271_43 + 16_67 + 50_00,
        "Сокол": 16_66 + 50_00,
    }
    [entry] = selectors.open_bills(lena)
    assert entry.share == 245_24
    assert [(part.label, part.amount, part.note) for part in entry.parts] == [
        ("Партия в 11:00", 178_57, "проигрыш: платите вы"),
        ("Партия в 11:32", 0, "не ваша партия: платят её игроки"),
        ("Время между партиями", 16_67, "между партиями: поровну"),
        ("Бар на всех", 50_00, "поровну"),
    ]
    assert sum(part.amount for part in entry.parts) == entry.share
    [entry] = selectors.open_bills(sokol)  # he won his game: the time between and the tea
    assert [part.amount for part in entry.parts] == [0, 0, 16_66, 50_00]
    assert entry.parts[1].note == "победа: платит проигравший"
    assert sum(part.amount for part in entry.parts) == entry.share == 66_66
    # His own line (a coffee he takes) is on his page beside the parts, adding up too.
    coffee = BarItem.objects.create(name="Кофе", price=120_00)
    me = bill.payers.get(player=lena)
    billing_services.add_bar_item(bill=bill, item=coffee, quantity=1, user=cashier, payer=me)
    [entry] = selectors.open_bills(lena)
    assert [line.amount for line in entry.lines] == [120_00]
    parts = sum(part.amount for part in entry.parts)
    assert parts + 120_00 == entry.share == 245_24 + 120_00
    page = Client()
    page.force_login(lena.user)
    html = page.get(reverse("me:home")).content.decode()
    assert "16,67" in html and "365,24" in html  # (the between part read 0,00 ₽)


def test_confirmed_games_feed_the_loser_pays(lena, sokol):
    load_demo_tariffs()
    cashier = UserFactory(username="c", groups=[CASHIERS])
    table = TableFactory(number=1, kind="pyramid_12")
    game = played(
        table, [lena, sokol], at(11), at(12), status=GameStatus.UNCONFIRMED, losers=[lena]
    )
    Game.objects.filter(pk=game.pk).update(needs_confirmation=True)
    bill = loser_bill(table, cashier, at(11), at(12))
    shares = lambda: {p.name: s for p, s in billing_selectors.bill_summary(bill).shares}  # noqa: E731
    assert shares() == {"Лена": 200_00, "Сокол": 200_00}
    game_services.confirm_game(game=game)
    assert shares() == {"Лена": 400_00, "Сокол": 0}


def test_his_bookings_are_those_with_his_phone(lena):
    table = TableFactory(number=2)
    now = timezone.now()
    mine = Reservation.objects.create(
        table=table,
        name="Лена",
        phone="8 (912) 345 67 89",
        starts_at=now + timedelta(hours=1),
        ends_at=now + timedelta(hours=2),
    )
    Reservation.objects.create(
        table=table,
        name="Кто-то",
        phone="+7 901 000 00 00",
        starts_at=now + timedelta(hours=3),
        ends_at=now + timedelta(hours=4),
    )
    assert selectors.bookings(lena) == [mine]
    assert selectors.up_now(lena) is None
    Reservation.objects.filter(pk=mine.pk).update(starts_at=now + timedelta(minutes=3))
    up = selectors.up_now(lena)
    assert up.table == 2 and up.key == f"booking-{mine.pk}"


def test_his_booked_table_does_not_call_him_while_he_plays_elsewhere(lena, sokol):
    """Issue 31 item 4: his booked table's «Ваш выход» showed while he played his match at
    another table. While he plays (a match under way, or a game), the booking waits."""
    now = timezone.now()
    booked = TableFactory(number=2)
    Reservation.objects.create(
        table=booked, name="Лена", phone=lena.phone,
        starts_at=now + timedelta(minutes=3), ends_at=now + timedelta(hours=1),
    )  # fmt: skip
    assert selectors.up_now(lena).key.startswith("booking-")
    marker = UserFactory(username="m", groups=[MARKERS])
    match = tournament_services.start_match(
        table=TableFactory(number=1), variant="pyramid_free", a=lena, b=sokol, race_to=2,
        marker=marker,
    )  # fmt: skip
    up = selectors.up_now(lena)
    assert up.key == f"match-{match.pk}" and up.table == 1  # called: this is where he is wanted
    frame = tournament_selectors.current_frame(match)
    game = play_frame(frame.game, 0)  # the first frame is played…
    tournament_services.finish_frame_and_continue(
        game=game, expected_seq=game.last_seq, marker=None
    )
    assert selectors.up_now(lena) is None  # …and between two frames he is playing too
    assert "me-up" not in fragments.render_live(lena)[1]
    tournament_services.abandon_match(match=match, user=marker)
    assert selectors.up_now(lena).key.startswith("booking-")
    single = GameFactory(table=TableFactory(number=3), seats=[lena, "Гость"], marker=marker)
    assert selectors.up_now(lena) is None and "me-up" not in fragments.render_live(lena)[1]
    game_services.abandon_game(game=single, user=marker)
    assert selectors.up_now(lena).table == 2


def test_a_booking_made_at_the_desk_is_published_to_his_page_like_a_call(
    lena, sokol, django_capture_on_commit_callbacks, monkeypatch
):
    """Issue 31 item 4: a booking the desk made reached his page only at its next sweep (15
    s); a call to a table is published to his topic at once, and so is a booking now: made,
    claimed or cancelled, on the desk's page, for the players with its phone only."""
    published = []
    monkeypatch.setattr(publishing, "publish_now", published.append)
    cashier = Client()
    cashier.force_login(UserFactory(username="c", groups=[CASHIERS]))
    table = TableFactory(number=2)
    starts = timezone.localtime() + timedelta(hours=1)
    data = {"table": table.pk, "name": "Лена", "phone": "8 (912) 345 67 89", "minutes": 60}
    data["starts_at"] = starts.strftime("%Y-%m-%dT%H:%M")
    with django_capture_on_commit_callbacks(execute=True):
        response = cashier.post(reverse("billing:bookings"), data)
    assert response.status_code == 302
    booking = Reservation.objects.get()
    assert published == [[f"player.{lena.pk}"]]  # hers: her phone, written another way
    assert selectors.bookings(lena) == [booking]
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        cashier.post(reverse("billing:booking_action", args=[booking.pk, "cancel"]))
    assert published == [[f"player.{lena.pk}"]]
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):  # nobody's phone: nobody told
        cashier.post(reverse("billing:bookings"), data | {"phone": "+7 901 000 00 00"})
    assert Reservation.objects.count() == 2 and published == []


def test_his_game_in_progress_shows_live_on_his_page(lena):
    marker = UserFactory(username="m", groups=[MARKERS])
    game = GameFactory(
        table=TableFactory(number=7), variant="pyramid_free", seats=[lena, "Гость"], marker=marker
    )
    fingerprint, html = fragments.render_live(lena)
    assert f'data-game="{game.pk}"' in html
    assert reverse("broadcast:table_overlay_stream", args=[7]) in html  # the board's push
    assert "Лена" in html and "Гость" in html
    game_services.abandon_game(game=game, user=marker)
    assert fragments.render_live(lena)[0] != fingerprint


def test_the_feed_follows_his_topic_and_his_tournaments(lena):
    feed = fragments.player_feed(lena)
    assert feed.topic == (f"player.{lena.pk}",)


def test_the_page_needs_a_player_account(client, lena):
    assert client.get(reverse("me:home")).status_code == 302  # to the login page
    client.force_login(UserFactory(username="m", groups=[MARKERS]))
    assert client.get(reverse("me:home")).status_code == 403
    client.force_login(lena.user)
    page = client.get(reverse("me:home")).content.decode()
    assert "Лена" in page and 'sse-connect="/me/stream/"' in page


def test_a_players_account_never_reaches_a_staff_page(lena):
    """Every staff URL of the site as a signed-in player: 403 (or the admin's login)."""
    phone = Client()
    phone.force_login(lena.user)
    checked = 0
    for url in staff_urls():
        response = phone.get(url)
        if url.startswith("/admin/"):
            assert response.status_code == 302 and "/admin/login/" in response["Location"], url
        else:
            assert response.status_code == 403, (url, response.status_code)
        checked += 1
    assert checked >= 25


STAFF_PREFIXES = ("/marker/", "/billing/", "/tables/", "/me/desk/", "/players/")


def staff_urls():
    """Every GET-able staff route of the URLconf, filled with id 1 (a 403 comes before a 404)."""
    found = set()

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                route = prefix + str(pattern.pattern)
                path = "/" + route.replace("<int:pk>", "1").replace("<int:number>", "1")
                path = path.replace("<int:entrant_pk>", "1").replace("<int:match_pk>", "1")
                if "<" in path or "^" in path:
                    continue
                found.add(path)

    walk(get_resolver().url_patterns)
    public = (
        "/tables/1/board/",
        "/tables/1/overlay/",
        "/players/1/",
        "/players/1/network/",  # his games and records at every club of the network
        "/tables/1/board/stream/",
        "/tables/1/overlay/stream/",
        "/billing/tables/1/clock/",  # a table's clock on its board
        # The console's code for the network's absence, public as the rules are (a game's
        # state, /marker/games/<pk>/offline/, needs a marker).
        "/marker/offline/engine.js",
        "/marker/offline/engine-worker.js",
        "/marker/sw.js",
    )
    staff = {u for u in found if u.startswith(STAFF_PREFIXES) and u not in public}
    staff |= {"/admin/", "/admin/auth/user/", "/admin/games/game/", "/admin/me/signinlink/"}
    staff |= {"/tournaments/new/", "/tournaments/1/manage/", "/tournaments/1/edit/"}
    return sorted(staff)


def test_his_page_shows_his_odds_against_the_players_he_meets_most_with_the_fair_handicap(
    lena, sokol, monkeypatch
):
    """Issue 33 item 2 (/me/ handicap advice): per frequent opponent and game, the chances
    of a frame by the two skills, and the handicap that evens them with the odds it leaves:
    the game's own head start in the pyramid games, else the fair race to 3."""
    from records import forecast, glicko, odds
    from tests.factories import finished
    from tests.helpers import fixed_skills

    skills = fixed_skills(monkeypatch)
    skills[lena.pk] = glicko.Skill(1720, 60, games=80)
    skills[sokol.pk] = glicko.Skill(1500, 70, games=40)
    newcomer = PlayerFactory(full_name="Пётр Новиков")
    now = timezone.now()
    for hours in range(3):
        finished("pyramid_free", [(lena, "win", 8, {}), (sokol, "loss", 3, {})],
                 at=now - timedelta(hours=hours + 1))  # fmt: skip
    finished("clockwise", [(newcomer, "win", 60, {}), (lena, "loss", 40, {})], at=now)
    finished("clockwise", [(lena, "win", 60, {}), ("Гость", "loss", 40, {})], at=now)  # no rival
    old = now - timedelta(days=selectors.RIVALS_DAYS + 1)
    finished("clockwise", [(lena, "win", 60, {}), (PlayerFactory(), "loss", 40, {})], at=old)
    rivals = selectors.rivals(lena)
    assert [(r.opponent, r.variant, r.games) for r in rivals] == [
        (sokol, "pyramid_free", 3),
        (newcomer, "clockwise", 1),
    ]
    p = glicko.win_probability(skills[lena.pk], skills[sokol.pk])
    fair = forecast.fair_handicap("pyramid_free", p)
    assert rivals[0].odds.frame == p
    assert rivals[0].advice_chances.probability == pytest.approx(fair.probability)
    q = glicko.win_probability(skills[lena.pk], glicko.start("novice"))
    assert rivals[1].odds.race == odds.race(q, 3, 3)
    assert rivals[1].advice_chances.probability == odds.fair_race(q, 3).probability

    client = Client()
    client.force_login(lena.user)
    english = client.get(reverse("me:home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Your chances" in english and "The fair race: Пётр Новиков gets a head start" in english
    html = client.get(reverse("me:home")).content.decode()
    assert 'id="me-odds"' in html and "Ваши шансы" in html
    assert f"{fair.shorthand}: Сокол начинает с" in html
    assert "Честный матч: Пётр Новиков получает фору" in html
    assert f"{round(p * 100)}\u00a0%" in html and html.count("data-provisional") == 1
