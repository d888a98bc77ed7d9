"""Games without a marker: a player starts one at a table with another player of the roster,
scores it on the marker's console (his own game only), the opponent confirms it; until then
it counts in no rating, leaderboard or "the loser pays"; a dispute goes to the admins."""

import pytest
from django.test import Client
from django.urls import reverse

from games import rules
from games import services as game_services
from games.models import Game, GameStatus
from me.models import ConfirmationStatus, GameConfirmation
from records import rating, stats
from tests.factories import PlayerFactory, TableFactory, UserFactory, start
from tests.helpers import HX, tap
from toolbox.roles import ADMINS, MARKERS

pytestmark = pytest.mark.django_db


def start_own(client, table, opponent, variant="pyramid_free"):
    response = client.post(
        reverse("me:play", args=[table.number]),
        {"variant": variant, "opponent": opponent.pk, "breaks": "me"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(table=table, status=GameStatus.IN_PROGRESS)
    assert response.url == reverse("games:console", args=[game.pk])
    return game


def win_and_finish(client, game):
    tap(client, game, "pot", count=8)  # first to 8 balls: the breaker wins
    game.refresh_from_db()
    response = client.post(
        reverse("games:finish", args=[game.pk]), {"seq": game.last_seq}, headers=HX
    )
    assert response.status_code == 200 and response["HX-Redirect"] == reverse(
        "games:detail", args=[game.pk]
    )
    game.refresh_from_db()
    return game


def test_a_player_scores_his_own_game_and_the_opponent_confirms(lena, sokol):
    table = TableFactory(number=4)
    phone, other = Client(), Client()
    phone.force_login(lena.user)
    other.force_login(sokol.user)
    game = start_own(phone, table, sokol)
    assert game.needs_confirmation and game.marker == lena.user
    game = win_and_finish(phone, game)
    assert game.status == GameStatus.UNCONFIRMED
    # Not counted anywhere yet: ratings, the leaderboard, the player's records.
    assert rating.current(rating.family_of("pyramid_free")).games == {}
    assert stats.leaderboard("pyramid_free")[0] == []
    page = other.get(reverse("me:home")).content.decode()
    assert "data-confirm-game" in page and "Подтвердите результат" in page
    # Lena cannot confirm her own game; Sokol can.
    assert "data-confirm-game" not in phone.get(reverse("me:home")).content.decode()
    phone.post(reverse("me:confirm", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == GameStatus.UNCONFIRMED
    response = other.post(reverse("me:confirm", args=[game.pk]), headers=HX)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.confirmed_at is not None
    ratings = rating.current(rating.family_of("pyramid_free"))
    assert ratings.games == {lena.pk: 1, sokol.pk: 1}
    assert ratings.rating(lena.pk) > 1500 > ratings.rating(sokol.pk)
    rows, _key, _desc = stats.leaderboard("pyramid_free")
    assert {row["player_id"] for row in rows} == {lena.pk, sokol.pk}


def test_a_confirmation_older_than_the_newest_game_still_moves_the_ratings(lena, sokol):
    """Confirmed after another game finished: the stamps change with the confirmation, the
    ledger recomputes in order, and the cached figures are not stale."""
    phone = Client()
    phone.force_login(lena.user)
    game = win_and_finish(phone, start_own(phone, TableFactory(number=4), sokol))
    marker = UserFactory(username="m", groups=[MARKERS])
    a, b = PlayerFactory(), PlayerFactory()
    other = start(TableFactory(number=5), "pyramid_free", [a, b], marker)
    other = game_services.record_event(
        game=other, expected_seq=0, event=rules.Event("pot", count=8), user=marker
    )
    game_services.finish_game(game=other, user=marker)
    family = rating.family_of("pyramid_free")
    assert set(rating.current(family).games) == {a.pk, b.pk}
    assert stats.leaderboard("pyramid_free")[0] and len(stats.leaderboard("pyramid_free")[0]) == 2
    game_services.confirm_game(game=game)
    assert set(rating.current(family).games) == {a.pk, b.pk, lena.pk, sokol.pk}
    assert len(stats.leaderboard("pyramid_free")[0]) == 4
    assert rating.current(family).ratings == rating.recompute(family).ratings


def test_a_player_records_only_his_own_game_at_that_table(lena, sokol):
    phone = Client()
    phone.force_login(lena.user)
    marker = UserFactory(username="m", groups=[MARKERS])
    a, b = PlayerFactory(), PlayerFactory()
    strangers = start(TableFactory(number=5), "pyramid_free", [a, b], marker)
    mine_with_marker = start(
        TableFactory(number=6), "pyramid_free", [lena, PlayerFactory()], marker
    )
    for game in (strangers, mine_with_marker):
        assert phone.get(reverse("games:console", args=[game.pk])).status_code == 403
        response = phone.post(
            reverse("games:record", args=[game.pk]), {"kind": "pot", "count": 1, "seq": 0}
        )
        assert response.status_code == 403
    assert Game.objects.get(pk=strangers.pk).last_seq == 0
    # Nor the marker's pages: the start form, the table page, a game's result.
    for url in (
        reverse("games:start"),
        reverse("games:table", args=[5]),
        reverse("games:result", args=[strangers.pk]),
    ):
        assert phone.get(url).status_code == 403


def test_a_disputed_game_goes_to_the_admins_with_both_players_words(lena, sokol):
    phone, other = Client(), Client()
    phone.force_login(lena.user)
    other.force_login(sokol.user)
    game = win_and_finish(phone, start_own(phone, TableFactory(number=4), sokol))
    other.post(reverse("me:dispute", args=[game.pk]), {"words": "Было 8:6, а не 8:0"})
    phone.post(reverse("me:dispute", args=[game.pk]), {"words": "Всё верно"})
    confirmation = GameConfirmation.objects.get(game=game)
    assert confirmation.status == ConfirmationStatus.DISPUTED
    # A disputed game is not confirmed by the opponent any more: the admins decide.
    other.post(reverse("me:confirm", args=[game.pk]))
    assert Game.objects.get(pk=game.pk).status == GameStatus.UNCONFIRMED
    admin = Client()
    admin.force_login(UserFactory(username="adm", groups=[ADMINS]))
    page = admin.get(reverse("me:disputes")).content.decode()
    assert "Было 8:6, а не 8:0" in page and "Всё верно" in page
    admin.post(reverse("me:settle", args=[game.pk]), {"op": "void"})
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED and not game.seats.exclude(outcome="").exists()
    assert rating.current(rating.family_of("pyramid_free")).games == {}
    # Only admins settle.
    assert phone.get(reverse("me:disputes")).status_code == 403
    # Issue 31 item 4: on both players' pages it reads «Не засчитана», not «Прервана».
    for client in (phone, other):
        page = client.get(reverse("me:home")).content.decode()
        row = page.split('class="plain me-games"')[1].split("</li>")[0]
        assert "Не засчитана" in row and "Прервана" not in row, row
    # A game of his own that was stopped before its end (no result to count) is «Прервана».
    stopped = start_own(phone, TableFactory(number=5), sokol)
    game_services.abandon_game(game=stopped, user=lena.user)
    page = phone.get(reverse("me:home")).content.decode()
    row = page.split('class="plain me-games"')[1].split("</li>")[0]
    assert f"/games/{stopped.pk}/" in row and "Прервана" in row, row


def test_an_empty_or_overlong_dispute_is_refused(lena, sokol):
    phone = Client()
    phone.force_login(lena.user)
    game = win_and_finish(phone, start_own(phone, TableFactory(number=4), sokol))
    for words in ("", "   ", "x" * 1001):
        phone.post(reverse("me:dispute", args=[game.pk]), {"words": words})
    assert GameConfirmation.objects.get(game=game).status == ConfirmationStatus.PENDING


def test_a_busy_table_or_a_bad_opponent_is_refused(lena, sokol):
    phone = Client()
    phone.force_login(lena.user)
    table = TableFactory(number=4)
    for data in (
        {"variant": "pyramid_free", "opponent": lena.pk, "breaks": "me"},  # himself
        {"variant": "pyramid_free", "opponent": 99999, "breaks": "me"},
        {"variant": "pyramid_free", "opponent": "x", "breaks": "me"},
        {"variant": "no-such-game", "opponent": sokol.pk, "breaks": "me"},
    ):
        assert phone.post(reverse("me:play", args=[4]), data).status_code == 400
    marker = UserFactory(username="m", groups=[MARKERS])
    start(table, "pyramid_free", [PlayerFactory(), PlayerFactory()], marker)
    data = {"variant": "pyramid_free", "opponent": sokol.pk, "breaks": "me"}
    assert phone.post(reverse("me:play", args=[4]), data).status_code == 409
    assert Game.objects.filter(needs_confirmation=True).count() == 0


def test_the_opponent_search_never_matches_a_phone(lena, sokol):
    phone = Client()
    phone.force_login(lena.user)
    found = phone.get(reverse("me:search"), {"q": "Сокол"}).content.decode()
    assert "Сокол" in found
    assert "Сокол" not in phone.get(reverse("me:search"), {"q": "900 111"}).content.decode()
