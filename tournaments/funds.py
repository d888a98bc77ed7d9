"""Reads of a tournament's money: its regulation, each entrant's fee (due, billed, paid), the
fund those fees make (the evening's prizes, the series final's share, the club's costs) and
the prizes due and paid, adding up to the kopeck (``tournaments.prizes`` computes; billing
keeps the money: the fees are counter bills, the prizes payouts, found by their references).
"""

from dataclasses import dataclass, field

from django.db.models import F, Sum

from billing.models import Bill, BillLine, LineKind, Payment, Payout
from records import rating
from tournaments import prizes
from tournaments.models import Entrant, EntryStatus, TournamentStatus


def fee_reference(tournament, entrant):
    return f"fee:{tournament.pk}:{entrant.pk}"


def prize_reference(tournament, entrant):
    return f"prize:{tournament.pk}:{entrant.pk}"


def regulation_of(tournament):
    """The tournament's regulation, or None (no fee; a regulation that cannot be read is
    none: the form never saves one)."""
    try:
        return prizes.Regulation.from_json(tournament.regulation)
    except prizes.RegulationError:
        return None


@dataclass
class EntrantMoney:
    entrant: object
    rating: float | None
    fee: int  # due by the regulation
    bill: object = None  # his fee's counter bill, once billed
    paid: int = 0  # paid on it
    shares: prizes.Shares = field(default_factory=prizes.Shares)  # of what he paid
    place: tuple | None = None  # (best, worst), once placed
    wins: int = 0
    prize: prizes.Prize | None = None  # due, once the tournament is finished
    prize_paid: int = 0

    @property
    def fee_left(self):
        return max(self.fee - self.paid, 0)

    @property
    def prize_due(self):
        return self.prize.amount if self.prize else 0

    @property
    def prize_left(self):
        return self.prize_due - self.prize_paid

    @property
    def place_label(self):
        if self.place is None:
            return ""
        best, worst = self.place
        return str(best) if best == worst else f"{best}–{worst}"


@dataclass
class Ledger:
    tournament: object
    regulation: prizes.Regulation | None
    rows: list  # [EntrantMoney], in place order once finished, else by name
    fund: prizes.Shares  # the fees paid, split
    fees_due: int
    table: list  # [(best, worst, kopecks each)] as the fund stands (before ties)
    per_win: int = 0
    finished: bool = False

    @property
    def fees_paid(self):
        return self.fund.fee

    @property
    def prizes_due(self):
        return sum(row.prize_due for row in self.rows)

    @property
    def prizes_paid(self):
        return sum(row.prize_paid for row in self.rows)

    @property
    def balanced(self):
        """Fees in = prizes due + the final's fund + the club's costs (once finished; before
        that the prize fund is not handed out yet)."""
        prize = self.prizes_due if self.finished else self.fund.prize
        return self.fund.fee == prize + self.fund.final + self.fund.costs


def _wins(view):
    """Seed → matches won (walkovers too; a bye is not a match)."""
    wins = {}
    for state in view.state.matches.values():
        result = state.result
        if result is None or not state.a or not state.b:
            continue
        seed = state.a if result.winner == "a" else state.b
        wins[seed] = wins.get(seed, 0) + 1
    return wins


def _fee_for(regulation, value):
    """The fee the regulation asks of a rating (0 without a regulation)."""
    return regulation.fee_for(value) if regulation else 0


def ledger(tournament, view=None):
    """The tournament's money: every entrant's fee and prize, the fund, the payout table.
    ``view``: its ``selectors.tournament_view`` when the caller has it (the places)."""
    from tournaments.selectors import tournament_view

    regulation = regulation_of(tournament)
    entrants = list(
        Entrant.objects.filter(tournament=tournament, status=EntryStatus.ENTERED).select_related(
            "player"
        )
    )
    ratings = rating.ratings_for(tournament.variant)
    bills = {
        bill.reference: bill
        for bill in Bill.objects.filter(reference__startswith=f"fee:{tournament.pk}:")
    }
    paid = dict(
        Payment.objects.filter(bill__in=bills.values())
        .values("bill_id")
        .annotate(total=Sum("amount"))
        .values_list("bill_id", "total")
    )
    # A fee once billed is what its bill says, whatever the rating says since (his games).
    billed = dict(
        BillLine.objects.filter(bill__in=bills.values(), kind=LineKind.FEE)
        .values("bill_id")
        .annotate(total=Sum(F("unit_price") * F("quantity")))
        .values_list("bill_id", "total")
    )
    paid_out = dict(
        Payout.objects.filter(reference__startswith=f"prize:{tournament.pk}:")
        .values("reference")
        .annotate(total=Sum("amount"))
        .values_list("reference", "total")
    )
    rows = []
    for entrant in entrants:
        value = ratings.rating(entrant.player_id) if entrant.player_id else None
        bill = bills.get(fee_reference(tournament, entrant))
        row = EntrantMoney(
            entrant=entrant,
            rating=value,
            fee=billed[bill.pk] if bill and bill.pk in billed else _fee_for(regulation, value),
            bill=bill,
            paid=paid.get(bill.pk, 0) if bill else 0,
            prize_paid=paid_out.get(prize_reference(tournament, entrant), 0),
        )
        if regulation:
            row.shares = regulation.split.of(row.paid)
        rows.append(row)
    fund = sum((row.shares for row in rows), prizes.Shares())
    finished = tournament.status == TournamentStatus.FINISHED
    result = Ledger(
        tournament=tournament,
        regulation=regulation,
        rows=rows,
        fund=fund,
        fees_due=sum(row.fee for row in rows),
        table=[],
        finished=finished,
    )
    if regulation is None:
        return result
    seeded = [row for row in rows if row.entrant.seed is not None]
    if tournament.status != TournamentStatus.DRAFT and seeded:
        view = view or tournament_view(tournament)
        wins = _wins(view)
        for row in seeded:
            row.place = view.state.places.get(row.entrant.seed)
            row.wins = wins.get(row.entrant.seed, 0)
    result.table = prizes.place_amounts(regulation, fund.prize, len(seeded) or len(rows))
    if finished and seeded:
        payout = prizes.payout(
            regulation,
            fund.prize,
            [prizes.Player(row.entrant.pk, row.place, row.wins) for row in seeded],
        )
        by_key = {prize.key: prize for prize in payout.prizes}
        for row in seeded:
            row.prize = by_key[row.entrant.pk]
        result.per_win = payout.per_win
        rows.sort(key=lambda r: (r.place or (10**6, 10**6), r.entrant.name))
    else:
        rows.sort(key=lambda r: r.entrant.name)
    return result


def final_fund_share(tournament):
    """Kopecks of the tournament's fees paid so far that go to the series final's fund (the
    season's app adds them up)."""
    regulation = regulation_of(tournament)
    if regulation is None:
        return 0
    paid = (
        Payment.objects.filter(bill__reference__startswith=f"fee:{tournament.pk}:")
        .values("bill_id")
        .annotate(total=Sum("amount"))
        .values_list("total", flat=True)
    )
    return prizes.fund_of(regulation, paid).final


@dataclass
class PublicPrizes:
    """What the public page shows of the money: no names, no one's fee."""

    regulation: prizes.Regulation
    fund: int  # the prize fund so far
    final: int  # the series final's share so far
    table: list  # [(places label, kopecks each)]: paid, once finished; else as it stands
    finished: bool


def public_prizes(tournament, view=None):
    """The fees, the prize fund and the payouts by place; None without a regulation."""
    if regulation_of(tournament) is None:
        return None
    money = ledger(tournament, view)
    if money.finished and money.prizes_due:
        by_place = {}
        for row in money.rows:
            if row.prize_due:
                by_place.setdefault(row.place_label or "—", row.prize_due)
        table = list(by_place.items())
    else:
        table = [
            (str(best) if best == worst else f"{best}–{worst}", amount)
            for best, worst, amount in money.table
        ]
    return PublicPrizes(
        regulation=money.regulation,
        fund=money.fund.prize,
        final=money.fund.final,
        table=table,
        finished=money.finished,
    )
