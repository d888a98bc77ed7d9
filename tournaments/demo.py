"""The demo club's tournaments, played through the real services stroke by stroke: a
finished double elimination of 16 and a round robin in progress. Seeded: the same every time;
loaded only into a club without tournaments."""

import random
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from billing import services as billing_services
from billing.models import Payout
from tournaments import funds, prizes, selectors, services
from tournaments.models import Seeding, Tournament, TournamentStatus
from tournaments.simulate import play_frame

# The cup's fees and prizes: 500 ₽, 300 ₽ rated up to 1400; 70 % to the prizes, 20 % to
# the series final, the club's costs the rest; the club evening's payout tables.
DEMO_REGULATION = prizes.Regulation(
    fee=50_000,
    bands=((1400, 30_000),),
    split=prizes.Split(prizes.PERCENT, 7000, 2000),
    preset="evening",
    unit=100,
)

GUESTS = [
    "Гость Павлов",
    "Гость Зайцев",
    "Гость Орлов",
    "Гость Белов",
    "Гость Титов",
    "Гость Комаров",
    "Гость Киселёв",
    "Гость Макаров",
    "Гость Андреев",
    "Гость Ковалёв",
    "Гость Ильин",
    "Гость Гусев",
    "Гость Титов-мл.",
    "Гость Кудрявцев",
    "Гость Баранов",
    "Гость Куликов",
]


def _play_match(match, rng, marker):
    """Plays a match frame by frame until it is over; the better seed wins more often."""
    while True:
        frame = selectors.current_frame(match)
        side = "a" if rng.random() < 0.6 else "b"
        seat = 0 if frame.breaker == side else 1
        game = play_frame(frame.game, seat, user=marker)
        match, _next = services.finish_frame_and_continue(
            game=game, expected_seq=game.last_seq, marker=marker
        )
        if _next is None:
            return match


def _run(tournament, rng, marker, leave=0, in_play=0):
    """Plays the ready matches one after another on a free table; ``leave`` matches are left
    unplayed at the end, ``in_play`` of them started (a frame under way)."""
    while True:
        view = selectors.tournament_view(tournament)
        ready = [i for i in view.items if i.status == "ready"]
        remaining = [i for i in view.items if i.status in ("ready", "waiting")]
        if not ready or len(remaining) <= leave:
            break
        table = selectors.free_tables_for_matches().first()
        if table is None:
            break
        match = services.start_tournament_match(
            tournament=tournament, key=ready[0].spec.key, table=table, marker=marker
        )
        _play_match(match, rng, marker)
    for item in [i for i in selectors.tournament_view(tournament).items if i.status == "ready"][
        :in_play
    ]:
        table = selectors.free_tables_for_matches().first()
        if table is None:
            break
        match = services.start_tournament_match(
            tournament=tournament, key=item.spec.key, table=table, marker=marker
        )
        frame = selectors.current_frame(match)
        game = play_frame(frame.game, 0, user=marker)
        services.finish_frame_and_continue(game=game, expected_seq=game.last_seq, marker=marker)


@transaction.atomic
def load_demo_tournaments(*, players, marker):
    """Returns the number of tournaments created (0 if the club has some)."""
    if Tournament.objects.exists():
        return 0
    rng = random.Random(11)
    # Players seated in the demo's games in progress cannot play a match now.
    busy = selectors.busy_player_ids()
    players = [p for p in players if p.pk not in busy]
    today = timezone.localdate()
    double = Tournament.objects.create(
        name="Кубок клуба",
        date=today - timedelta(days=7),
        variant="cue_vs_hand",
        format="double",
        race_upper=1,
        race_lower=1,
        race_final=2,
        rules="Регламент: до двух поражений; в сетках до 1 победы, финал до 2.",
        regulation=DEMO_REGULATION.to_json(),
    )
    for player in players[:11]:
        services.add_entrant(tournament=double, player=player)
    for name in GUESTS[: 16 - double.entrants.count()]:
        services.add_entrant(tournament=double, guest_name=name)
    services.start_tournament(tournament=double, method=Seeding.DRAW, draw_seed=2024)
    _run(double, rng, marker)

    group = Tournament.objects.create(
        name="Вечерний круг",
        date=today,
        variant="cue_vs_hand",
        format="round_robin",
        race_group=1,
        rules="Каждый с каждым, по одной партии.",
    )
    for player in players[:6]:
        services.add_entrant(tournament=group, player=player)
    missing = 6 - group.entrants.count()  # guests make up the six if the regulars are busy
    for name in GUESTS[len(GUESTS) - missing :] if missing > 0 else []:
        services.add_entrant(tournament=group, guest_name=name)
    services.start_tournament(tournament=group, method=Seeding.RATING)
    _run(group, rng, marker, leave=7)
    return 2


@transaction.atomic
def load_demo_tournament_money(*, user):
    """The cup's fees taken at the counter and its champion's prize paid out, in the open
    shift (the billing history's last): the entry fees and payouts the desk and the admin
    show. Returns the number of payouts made (0 once made, or without a finished cup)."""
    cup = Tournament.objects.filter(status=TournamentStatus.FINISHED).exclude(regulation={})
    cup = cup.order_by("date", "pk").first()
    if cup is None or Payout.objects.exists():
        return 0
    for number, row in enumerate(funds.ledger(cup).rows, start=1):
        if row.fee and row.bill is None:
            bill = services.take_fee(entrant=row.entrant, user=user)
            billing_services.record_payment(
                bill=bill, method="cash", amount=row.fee, user=user, receipt_number=str(number)
            )
    champion = next((row for row in funds.ledger(cup).rows if row.prize_left > 0), None)
    if champion is None:
        return 0
    services.pay_prize(entrant=champion.entrant, user=user)
    return 1
