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
