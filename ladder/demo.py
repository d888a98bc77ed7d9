"""The demo club's ladder: its regulars on a free-pyramid ladder, a month of it behind them
(a challenge not answered in time), and a challenge waiting for «Сокол»'s answer."""

from datetime import timedelta

from django.utils import timezone

from ladder import services
from ladder.models import Ladder


def load_demo_ladder(*, players, now=None):
    """Once per club: the ladder and its story. Returns the ladders created (0 or 1)."""
    if Ladder.objects.exists():
        return 0
    now = now or timezone.now()
    ladder = Ladder.objects.create(name="Лестница клуба", variant="pyramid_free", reach=3)
    # The master on top, then by class, as the club seeded it three weeks ago.
    started = now - timedelta(days=21)
    for player in players[:10]:
        services.join(ladder=ladder, player=player, now=started)
    # A week later the 6th challenged the 4th, who did not answer in time.
    services.challenge(
        ladder=ladder, challenger=players[5], challenged=players[3], now=started + timedelta(7)
    )
    services.settle(ladder=ladder, now=now - timedelta(hours=2))
    # And an hour ago the 2nd challenged the 1st: «Сокол» has two days to answer.
    services.challenge(
        ladder=ladder, challenger=players[1], challenged=players[0], now=now - timedelta(hours=1)
    )
    return 1
