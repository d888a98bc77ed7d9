"""The club's Telegram bot: "you're up" reaches a player whose page is closed.

Off unless ``TELEGRAM_BOT_TOKEN`` is set. ``manage.py telegram_bot`` runs it (one process):
it long-polls the Bot API for messages (``/start <code>``: a player links his chat with the
code his page shows, ``me.services.link_telegram``) and every ``CHECK_SECONDS`` sends each
linked player his call when it is new (``me.selectors.up_now``: his match called or offered
a table, his booked table ready; the same call is sent once, ``TelegramChat.last_sent``) and
each of his notices not yet sent, from every app that keeps notices (``NOTICES``: the
ladders' challenges, the league captains' match days), each sent once.
``TELEGRAM_API_URL`` points it at another Bot API server (a local one, or the tests'
stand-in); aiogram is the client.
"""

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.utils import translation
from django.utils.translation import gettext

from clubs.current import using_club
from clubs.models import Club
from clubs.scoping import all_clubs
from ladder import selectors as ladder_selectors
from ladder import services as ladder_services
from leagues import selectors as league_selectors
from leagues import services as league_services
from me import selectors, services
from me.models import TelegramChat

logger = logging.getLogger(__name__)

CHECK_SECONDS = 3
POLL_SECONDS = 20  # the Bot API's long poll


def enabled():
    return bool(settings.TELEGRAM_BOT_TOKEN)


def make_bot():
    """The bot (aiogram), on the Bot API server of ``TELEGRAM_API_URL`` when set."""
    # Imported here, not at the top: aiogram takes 2.5 s to import, which every process
    # (each worker, each manage.py command) would pay for a bot that only its command runs.
    from aiogram import Bot
    from aiogram.client.session.aiohttp import AiohttpSession
    from aiogram.client.telegram import TelegramAPIServer

    session = None
    if settings.TELEGRAM_API_URL:
        session = AiohttpSession(api=TelegramAPIServer.from_base(settings.TELEGRAM_API_URL))
    return Bot(settings.TELEGRAM_BOT_TOKEN, session=session)


# --- what is said (the database, in a thread) -----------------------------------------------


def answer_start(text, chat_id):
    """The reply to a message: ``/start <code>`` links the chat to the code's player."""
    with translation.override(settings.LANGUAGE_CODE):
        parts = (text or "").split()
        if len(parts) == 2 and parts[0] == "/start":
            player = services.link_telegram(code=parts[1], chat_id=chat_id)
            if player is not None:
                return gettext("Linked: %(name)s, I will tell you here when you're up.") % {
                    "name": player.display_name
                }
        return gettext("Send the code your page at the club shows: /start <code>.")


@dataclass(frozen=True)
class Notices:
    """An app's notices to its players, as the bot delivers them: what the clock has decided
    since is applied first (its deadlines, its reminders), then each notice not yet sent is
    said in words and, once sent, marked so (it is never sent twice)."""

    key: str  # the prefix of a notice's key in ``due_calls``
    settle: Callable[[], object]
    unsent: Callable[[object], list]  # a player's notices not yet sent, the oldest first
    text: Callable[[object], str]
    sent: Callable[[int], object]  # a notice's id


NOTICES = (
    Notices(
        "ladder-notice-",
        ladder_services.settle_all,
        ladder_selectors.unsent_notices,
        ladder_selectors.notice_text,
        ladder_services.notice_sent,
    ),
    Notices(
        "league-notice-",
        league_services.remind_all,
        league_selectors.unsent_notices,
        league_selectors.notice_text,
        league_services.notice_sent,
    ),
)


def due_calls():
    """(chat id, text, key) of every linked player whose call is new, and of each of his
    notices not yet sent (``NOTICES``: a challenge, an acceptance, a reminder, a result, the
    opponent's line-up locked, a game to confirm…)."""
    close_old_connections()
    due = []
    clubs = list(Club.objects.order_by("pk"))  # a person plays at any club of the network
    for club in clubs:
        with using_club(club):
            for notices in NOTICES:
                notices.settle()  # the deadlines passed since: their notices
    with translation.override(settings.LANGUAGE_CODE):
        chats = TelegramChat.objects.filter(chat_id__isnull=False).select_related("player")
        for chat in chats:
            for club in clubs:
                with using_club(club):
                    due.extend(_chat_calls(chat))
    return due


def _chat_calls(chat):
    """A chat's calls at the club in scope: his call there, if new, and his notices there."""
    calls = []
    up = selectors.up_now(chat.player)
    if up is not None and up.key != chat.last_sent:
        text = gettext("You're up") + ": " + str(up.text)
        calls.append((chat.chat_id, text, up.key))
        chat.last_sent = up.key  # one call at a time, whichever club says it first
    for notices in NOTICES:
        for notice in notices.unsent(chat.player):
            calls.append((chat.chat_id, notices.text(notice), f"{notices.key}{notice.pk}"))
    return calls


def sent(chat_id, key):
    for notices in NOTICES:
        if key.startswith(notices.key):
            with all_clubs():  # a notice of whichever club, by its id
                notices.sent(int(key.removeprefix(notices.key)))
            return
    TelegramChat.objects.filter(chat_id=chat_id).update(last_sent=key)


# --- the bot's loops ------------------------------------------------------------------------


async def handle_updates(bot, offset=None, timeout=POLL_SECONDS):
    """One long poll of the Bot API; answers each message. Returns the next offset."""
    for update in await bot.get_updates(offset=offset, timeout=timeout):
        offset = update.update_id + 1
        message = update.message
        if message is None or message.chat is None:
            continue
        reply = await sync_to_async(answer_start)(message.text, message.chat.id)
        await bot.send_message(message.chat.id, reply)
    return offset


async def send_calls(bot):
    """Sends every new call; a call that cannot be sent is tried again next time."""
    count = 0
    for chat_id, text, key in await sync_to_async(due_calls)():
        try:
            await bot.send_message(chat_id, text)
        except Exception:  # noqa: BLE001 - one chat's failure must not stop the others
            logger.warning("telegram: could not tell chat %s", chat_id, exc_info=True)
            continue
        await sync_to_async(sent)(chat_id, key)
        count += 1
    return count


async def run(bot, stop=None):
    """Both loops until ``stop`` is set (forever under ``manage.py telegram_bot``)."""
    stop = stop or asyncio.Event()

    async def updates():
        offset = None
        while not stop.is_set():
            try:
                offset = await handle_updates(bot, offset)
            except Exception:  # noqa: BLE001 - the Bot API away: try again shortly
                logger.warning("telegram: getUpdates failed", exc_info=True)
                await asyncio.sleep(CHECK_SECONDS)

    async def calls():
        while not stop.is_set():
            try:
                await send_calls(bot)
            except Exception:  # noqa: BLE001
                logger.warning("telegram: sending the calls failed", exc_info=True)
            try:
                await asyncio.wait_for(stop.wait(), CHECK_SECONDS)
            except TimeoutError:
                pass

    tasks = [asyncio.create_task(updates()), asyncio.create_task(calls())]
    await stop.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
