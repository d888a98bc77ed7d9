"""``manage.py telegram_bot``: the club's Telegram bot (``me.telegram``), until stopped."""

import asyncio

from django.core.management.base import BaseCommand, CommandError

from me import telegram


class Command(BaseCommand):
    help = "Run the club's Telegram bot: players link their chats and hear when they're up."

    def handle(self, *args, **options):
        if not telegram.enabled():
            raise CommandError("TELEGRAM_BOT_TOKEN is not set: the Telegram bot is off.")

        async def main():
            bot = telegram.make_bot()
            try:
                await telegram.run(bot)
            finally:
                await bot.session.close()

        self.stdout.write("Telegram bot running (Ctrl+C stops it).")
        asyncio.run(main())
