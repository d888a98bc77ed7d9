"""Reads of bills: who played during a session, its frames for "the loser pays", and a
bill's lines, discount, total, shares and payments."""

from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from billing import pricing, splits
from billing.models import Bill, LineKind, PaymentMethod, SessionStatus
from billing.pricing import half_up
from billing.selectors.sessions import played
from billing.selectors.tariffs import club_tariff
from games.models import Game, GameStatus, Outcome


def bill_of(session):
    """The session's bill, or None (a running clock not prepaid, a voided one)."""
    return Bill.objects.filter(session=session).first()


def unpaid_bills():
    """Every bill of a stopped session, or taken at the counter (a tournament's entry fee),
    not paid yet, with its session and table."""
    return Bill.objects.filter(
        Q(session__status=SessionStatus.STOPPED) | Q(session__isnull=True), paid_at__isnull=True
    ).select_related("session__table")


def open_bills():
    """The desk's list of unpaid bills, oldest first: each bill with ``summary`` (what is
    left to pay or to give back) and ``payer_names``."""
    bills = list(unpaid_bills().prefetch_related("payers").order_by("session__stopped_at"))
    for bill in bills:
        bill.summary = bill_summary(bill)
        bill.payer_names = ", ".join(payer.name for payer in bill.payers.all())
    return bills


def tables_with_unpaid_bill(tables):
    """The tables of a Table queryset whose last session's bill is not paid (the
    ``tables.holds`` hold billing registers)."""
    unpaid_here = unpaid_bills().filter(session__table=OuterRef("pk"))
    return tables.filter(Exists(unpaid_here))


def games_of(session):
    """The games played on the session's tables while its clock ran, oldest first."""
    stretches = list(session.stretches.all())
    if not stretches:
        return []
    overlap = Q()
    for stretch in stretches:
        window = Q(table_id=stretch.table_id, started_at__lt=stretch.ended_at or timezone.now())
        window &= Q(finished_at__isnull=True) | Q(finished_at__gt=stretch.started_at)
        overlap |= window
    return list(
        Game.objects.filter(overlap).prefetch_related("seats__player").order_by("started_at", "pk")
    )


def players_of(session):
    """(name, player or None) of everyone who played during the session, in order."""
    seen, result = set(), []
    for game in games_of(session):
        for seat in game.seats.all():
            if seat.name not in seen:
                seen.add(seat.name)
                result.append((seat.name, seat.player))
    return result


def frames_of(session, payers, tariff=None):
    """The session's time as ``splits.Frame`` parts for "the loser pays": one per game
    (its losers, or its players if drawn, abandoned or unfinished) plus the time between
    games (everyone). ``payers``: the bill's payers; frames name them by payer pk."""
    tariff = tariff or club_tariff()
    by_player = {payer.player_id: payer.pk for payer in payers if payer.player_id}
    by_name = {payer.name: payer.pk for payer in payers}

    def key(seat):
        return by_player.get(seat.player_id) or by_name.get(seat.name)

    stretches = list(session.stretches.all())
    now = timezone.now()
    frames, covered = [], []
    for game in games_of(session):
        game_end = game.finished_at or now
        parts = []
        for stretch in stretches:
            if stretch.table_id != game.table_id:
                continue
            start = max(stretch.started_at, game.started_at)
            end = min(stretch.ended_at or now, game_end)
            if start < end:
                parts.append(pricing.Played(start, end, stretch.table.kind))
        parts = _without(parts, covered)  # a moment belongs to one frame only
        if not parts:
            continue
        covered.extend(parts)
        cost = sum((p.amount for p in tariff.price(parts).periods), Fraction(0))
        seats = list(game.seats.all())
        losers = []
        if game.status == GameStatus.FINISHED:
            losers = [key(seat) for seat in seats if seat.outcome == Outcome.LOSS]
        players = [key(seat) for seat in seats]
        about = FrameAbout(
            game=game,
            start=min(part.start for part in parts),
            end=max(part.end for part in parts),
            seconds=sum(int((part.end - part.start).total_seconds()) for part in parts),
        )
        frames.append(splits.Frame(cost=cost, losers=losers, players=players, about=about))
    everything = played(session, now)
    total = sum((p.amount for p in tariff.price(everything).periods), Fraction(0))
    between = total - sum((frame.cost for frame in frames), Fraction(0))
    if between > 0 or not frames:
        seconds = sum(int((p.end - p.start).total_seconds()) for p in everything)
        seconds -= sum(frame.about.seconds for frame in frames)
        frames.append(splits.Frame(cost=between, about=FrameAbout(seconds=seconds)))
    return frames


@dataclass
class FrameAbout:
    """A part of the session's time as the bill explains it: a game (its first and last
    played moment within the clock) or, without one, the time between games."""

    game: object = None
    start: object = None
    end: object = None
    seconds: int = 0


@dataclass
class FrameRow:
    """One line of "the loser pays" on the bill: the part, who pays it, what its own time
    cost at its bands, and its share of the time charge (with the minimum, the rounding to
    roubles and the discount spread in proportion)."""

    about: FrameAbout
    payers: list  # names
    cost: Fraction
    share: int
    shares: dict = field(default_factory=dict)  # payer pk → kopecks: who pays the share
    players: list = field(default_factory=list)  # the payer pks of its game's players

    @property
    def added(self):
        """The share less the part's own cost: its part of the minimum and the rounding."""
        return self.share - self.cost


def _without(parts, covered):
    """``parts`` minus every interval of ``covered`` (same kind of Played intervals)."""
    result = []
    for part in parts:
        pieces = [(part.start, part.end)]
        for other in covered:
            pieces = [
                piece
                for a, b in pieces
                for piece in ((a, min(b, other.start)), (max(a, other.end), b))
                if piece[0] < piece[1]
            ]
        result.extend(pricing.Played(a, b, part.kind) for a, b in pieces)
    return result


@dataclass
class BillSummary:
    bill: object
    lines: list
    time_amount: int
    discount: int
    total: int
    paid: int
    shares: list  # [(payer, kopecks)]
    payments: list
    frames: list = field(default_factory=list)  # [FrameRow] when the loser pays
    # Split by item, or the loser pays: the lines no payer takes, payer pk → kopecks
    shared: dict = field(default_factory=dict)

    @property
    def balance(self):
        """What is left to pay; negative: what is to be given back."""
        return self.total - self.paid

    @property
    def to_give_back(self):
        return max(-self.balance, 0)

    @property
    def prepaid(self):
        """The payments taken up front, when the clock started (prepaid time)."""
        return [payment for payment in self.payments if payment.up_front]

    @property
    def refund_method(self):
        """How money is given back: as it was paid up front (the last payment's method)."""
        paid = [payment for payment in self.payments if payment.amount > 0]
        return paid[-1].method if paid else PaymentMethod.CASH


def bill_summary(bill, tariff=None):
    """The bill's lines, discount, total, what each payer owes and what was paid."""
    lines = list(bill.lines.select_related("payer"))
    payers = list(bill.payers.all())
    time_amount = sum(line.amount for line in lines if line.kind == LineKind.TIME)
    discount = half_up(time_amount * bill.discount_percent, 100)
    split_lines = [
        splits.Line(
            amount=line.amount - (discount if line.kind == LineKind.TIME else 0),
            is_time=line.kind == LineKind.TIME,
            payer=line.payer_id,
        )
        for line in lines
    ]
    total = sum(line.amount for line in split_lines)
    frames, frame_rows = None, []
    if bill.split_mode == splits.LOSER:
        frames = frames_of(bill.session, payers, tariff)
    split = splits.breakdown(
        bill.split_mode,
        [payer.pk for payer in payers],
        split_lines,
        percents={payer.pk: payer.percent or 0 for payer in payers},
        frames=frames,
    )
    shares = split.shares
    if frames is not None:
        time_charge = sum(line.amount for line in split_lines if line.is_time)
        parts = splits.frame_parts(time_charge, frames)
        frame_rows = _frame_rows(frames, parts, split.frames or [{}] * len(frames), payers)
    payments = list(bill.payments.select_related("payer"))
    return BillSummary(
        bill=bill,
        lines=lines,
        time_amount=time_amount,
        discount=discount,
        total=total,
        paid=sum(payment.amount for payment in payments),
        shares=[(payer, shares[payer.pk]) for payer in payers],
        payments=payments,
        frames=frame_rows,
        shared=split.shared,
    )


def _frame_rows(frames, parts, part_shares, payers):
    """The bill's rows of "the loser pays": each frame's part and, as the split hands it
    out (``part_shares``), who pays it and how much."""
    names = {payer.pk: payer.name for payer in payers}
    rows = []
    for frame, part, mine in zip(frames, parts, part_shares, strict=True):
        who = [names[key] for key in frame.losers if key in names]
        who = who or [names[key] for key in frame.players if key in names]
        rows.append(
            FrameRow(
                about=frame.about,
                payers=who,
                cost=Fraction(frame.cost),
                share=part,
                shares=mine,
                players=[key for key in frame.players if key in names],
            )
        )
    return rows
