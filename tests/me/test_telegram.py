"""The club's Telegram bot, against a stand-in of the Bot API's HTTP interface on this
machine: off by default; a player links his chat with the code his page shows; his call
("you're up") reaches that chat once."""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from aiohttp import web
from asgiref.sync import sync_to_async
from django.core.management import CommandError, call_command
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from billing.models import Reservation
from me import telegram
from me.models import TelegramChat
from tests.factories import TableFactory

pytestmark = pytest.mark.django_db(transaction=True)

TOKEN = "123456:TEST-token"


class BotAPI:
    """The Bot API's HTTP interface as the bot uses it: getUpdates hands out the updates
    queued by the test, sendMessage records what the bot said."""

    def __init__(self):
        self.updates, self.sent, self.calls = [], [], []
        self.loop = asyncio.new_event_loop()
        self.url = None

    async def handle(self, request):
        token, method = request.match_info["token"], request.match_info["method"]
        data = dict(await request.post()) or (await request.json() if request.can_read_body else {})
        self.calls.append((token, method, data))
        if method == "getUpdates":
            result, self.updates = self.updates, []
        elif method == "sendMessage":
            self.sent.append((int(data["chat_id"]), data["text"]))
            result = {
                "message_id": len(self.sent),
                "date": 0,
                "chat": {"id": int(data["chat_id"]), "type": "private"},
                "text": data["text"],
            }
        else:
            result = True
        return web.json_response({"ok": True, "result": result})

    def start(self):
        """Serves in a thread of its own (this one may hold a running loop: Playwright's)."""
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self.serve(), self.loop).result(5)

    async def serve(self):
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"

    def stop(self):
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)

    def message(self, chat_id, text):
        self.updates.append(
            {
                "update_id": 100 + len(self.calls),
                "message": {
                    "message_id": 1,
                    "date": 0,
                    "chat": {"id": chat_id, "type": "private"},
                    "from": {"id": chat_id, "is_bot": False, "first_name": "Лена"},
                    "text": text,
                },
            }
        )


@pytest.fixture
def bot_api(settings):
    api = BotAPI()
    api.start()
    settings.TELEGRAM_BOT_TOKEN = TOKEN
    settings.TELEGRAM_API_URL = api.url
    yield api
    api.stop()


def with_bot(step):
    async def main():
        bot = telegram.make_bot()
        try:
            return await step(bot)
        finally:
            await bot.session.close()
            # The bot's database work ran in asgiref's thread: its connection is closed (the
            # test database is dropped at the end).
            await sync_to_async(connections.close_all)()

    # In a thread of its own: this one may hold a running loop (Playwright's, after a browser
    # test in the same process).
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, main()).result()


def test_off_unless_the_token_is_set(lena_client, settings):
    settings.TELEGRAM_BOT_TOKEN = ""
    assert lena_client.post(reverse("me:telegram")).status_code == 404
    assert "me-telegram" not in lena_client.get(reverse("me:home")).content.decode()
    with pytest.raises(CommandError, match="TELEGRAM_BOT_TOKEN"):
        call_command("telegram_bot")


def test_a_player_links_his_chat_and_hears_once_that_his_table_is_ready(bot_api, lena, lena_client):
    lena_client.post(reverse("me:telegram"))
    code = TelegramChat.objects.get(player=lena).code
    assert f'data-telegram-code="{code}"' in lena_client.get(reverse("me:home")).content.decode()
    bot_api.message(555, "/start wrong-code")
    bot_api.message(555, f"/start {code}")
    with_bot(lambda bot: telegram.handle_updates(bot, timeout=0))
    assert [token for token, _method, _data in bot_api.calls] == [TOKEN] * 3
    assert bot_api.sent[0] == (
        555,
        "Отправьте код, который показывает ваша страница в клубе: /start <код>.",
    )
    assert bot_api.sent[1] == (555, "Чат подключён: Лена, здесь я скажу, когда ваш выход.")
    assert TelegramChat.objects.get(player=lena).chat_id == 555
    assert "data-telegram-linked" in lena_client.get(reverse("me:home")).content.decode()
    # Nothing to say yet; then her booked table is ready: said once.
    assert with_bot(telegram.send_calls) == 0
    now = timezone.now()
    Reservation.objects.create(
        table=TableFactory(number=2),
        name="Лена",
        phone="+7 912 345 67 89",
        starts_at=now + timedelta(minutes=2),
        ends_at=now + timedelta(hours=1),
    )
    assert with_bot(telegram.send_calls) == 1
    assert bot_api.sent[-1] == (555, "Ваш выход: Ваш стол готов: стол 2")
    assert with_bot(telegram.send_calls) == 0
    assert len(bot_api.sent) == 3


def test_the_ladders_news_reaches_the_chat_once(bot_api, lena, sokol):
    from ladder import services as ladder_services
    from ladder.models import Ladder

    ladder = Ladder.objects.create(name="Лестница", variant="pyramid_free")
    for who in (sokol, lena):
        ladder_services.join(ladder=ladder, player=who)
    TelegramChat.objects.create(player=sokol, code="x", chat_id=777)
    ladder_services.challenge(ladder=ladder, challenger=lena, challenged=sokol)
    assert with_bot(telegram.send_calls) == 1
    chat, text = bot_api.sent[-1]
    assert chat == 777 and "Лена" in text and "Лестница" in text
    assert with_bot(telegram.send_calls) == 0


def test_a_league_captains_news_and_the_day_before_reminder_reach_the_chat_once(
    bot_api, lena, sokol
):
    """The bot delivers the leagues' notices as it does the ladders' (``telegram.NOTICES``):
    the opponent's line-up locked, and the reminder its own round makes the day before."""
    from leagues import services as league_services
    from leagues.models import Division, League, MatchDay, Season, Team

    tomorrow = timezone.localdate() + timedelta(days=1)
    league = League.objects.create(name="Лига среды", variant="pyramid_free")
    division = Division.objects.create(league=league, name="Высшая")
    season = Season.objects.create(
        league=league, name="Сезон", starts_on=tomorrow, weekday=tomorrow.weekday()
    )
    teams = []
    for name, captain in (("Шары", lena), ("Лузы", sokol)):
        team = Team.objects.create(season=season, division=division, name=name, captain=captain)
        team.members.set([captain])
        teams.append(team)
    league.format = [{"race_to": 2}]
    league.save()
    league_services.generate_fixtures(season=season)
    day = MatchDay.objects.get()
    TelegramChat.objects.create(player=lena, code="x", chat_id=777)
    TelegramChat.objects.create(player=sokol, code="y", chat_id=888)
    sokols = teams[1]
    league_services.lock_line_up(match_day=day, team=sokols, player_ids=[sokol.pk])
    assert with_bot(telegram.send_calls) == 2
    assert [chat for chat, _text in bot_api.sent] == [777, 777]  # his line-up is locked
    texts = [text for _chat, text in bot_api.sent]
    head = f"Лига среды, {day.home.name} — {day.away.name}"
    assert f"{head}: «Лузы» — состав зафиксирован. Зафиксируйте свой." in texts
    assert any(text.startswith(head) and "ваш состав ещё не зафиксирован" in text for text in texts)
    assert with_bot(telegram.send_calls) == 0
    assert len(bot_api.sent) == 2


def test_on_a_network_each_clubs_news_reaches_the_person_once(bot_api, lena, sokol, home_and_sokol):
    """A person plays at two clubs of the network: the bot settles and reads each club's
    ladders in turn (no club is chosen in its process), and says each club's news once."""
    from clubs.current import using_club
    from ladder import services as ladder_services
    from ladder.models import Ladder
    from players.models import join_club

    home, other = home_and_sokol
    TelegramChat.objects.create(player=sokol, code="x", chat_id=777)
    for club, name in ((home, "Лестница Лузы"), (other, "Лестница Сокола")):
        with using_club(club):
            for who in (sokol, lena):
                join_club(who, club)
            ladder = Ladder.objects.create(name=name, variant="pyramid_free")
            for who in (sokol, lena):
                ladder_services.join(ladder=ladder, player=who)
            ladder_services.challenge(ladder=ladder, challenger=lena, challenged=sokol)
    assert with_bot(telegram.send_calls) == 2
    texts = sorted(text for chat, text in bot_api.sent if chat == 777)
    assert "Лестница Лузы" in texts[0] and "Лестница Сокола" in texts[1]
    assert with_bot(telegram.send_calls) == 0


def test_a_network_leagues_reminder_reaches_each_captain_once(
    bot_api, lena, sokol, lena_client, home_and_sokol
):
    """A network league's match day is shown at every club, and the bot goes through every
    club in turn: the day before, each captain is reminded once (one notice, one message), at
    the match day's club; his page at another club reminds nobody again."""
    from clubs.current import using_club
    from leagues import services as league_services
    from leagues.models import Division, League, MatchDay, Notice, NoticeKind, Season, Team

    home, other = home_and_sokol
    tomorrow = timezone.localdate() + timedelta(days=1)
    with using_club(home):
        league = League.objects.create(
            name="Кубок сети", network=True, variant="pyramid_free", format=[{"race_to": 2}]
        )
        division = Division.objects.create(league=league, name="Первая")
        season = Season.objects.create(
            league=league, name="Сезон", starts_on=tomorrow, weekday=tomorrow.weekday()
        )
        for name, captain, club in (("Шары", lena, other), ("Лузы", sokol, home)):
            team = Team.objects.create(
                season=season, division=division, name=name, captain=captain, home_club=club
            )
            team.members.set([captain])
        league_services.generate_fixtures(season=season)
        day = MatchDay.objects.get()
    TelegramChat.objects.create(player=lena, code="x", chat_id=777)
    TelegramChat.objects.create(player=sokol, code="y", chat_id=888)
    assert with_bot(telegram.send_calls) == 2
    assert sorted(chat for chat, _text in bot_api.sent) == [777, 888]
    head = f"Кубок сети, {day.home.name} — {day.away.name}"
    assert all(text.startswith(head) for _chat, text in bot_api.sent)
    reminders = Notice.everywhere.filter(match_day=day, kind=NoticeKind.REMINDER)
    assert reminders.count() == 2
    assert "data-league-notices" in lena_client.get(reverse("me:home")).content.decode()
    assert reminders.count() == 2
    assert with_bot(telegram.send_calls) == 0
    assert len(bot_api.sent) == 2
