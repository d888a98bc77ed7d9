"""Reads of a ladder: its places (replayed from its moves), its challenges as the rules need
them, each player's activity, the ladder's page for a viewer (whom he may challenge, and why
not), a player's ladders for his page, and the notices in words."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ladder import rules
from ladder.models import (
    OPEN_STATUSES,
    Challenge,
    ChallengeStatus,
    Ladder,
    LadderMove,
    MoveKind,
    Notice,
    NoticeKind,
)
from players.models import Player


def recent_challenges(ladder, limit=10):
    """Its latest decided challenges, for the page's history."""
    return list(
        Challenge.objects.filter(ladder=ladder)
        .exclude(status__in=OPEN_STATUSES)
        .select_related("challenger", "challenged", "winner")
        .order_by("-decided_at", "-pk")[:limit]
    )


def rules_of(ladder):
    return rules.Rules(
        reach=ladder.reach,
        accept_days=ladder.accept_days,
        play_days=ladder.play_days,
        max_open=ladder.max_open,
        rematch_days=ladder.rematch_days,
        inactive_days=ladder.inactive_days,
    )


def _moves(ladder):
    # In the order they were written: every write settles what was due before it, so this
    # is the order in which they happened.
    return [
        rules.Move(kind, player, other)
        for kind, player, other in LadderMove.objects.filter(ladder=ladder)
        .order_by("pk")
        .values_list("kind", "player_id", "other_id")
    ]


def order(ladder):
    """The ladder's places: player ids, the first place first."""
    return rules.standing(_moves(ladder))


def past(ladder):
    """Its challenges as ``rules.Past``."""
    return [
        rules.Past(a, b, made_at, status in OPEN_STATUSES)
        for a, b, made_at, status in Challenge.objects.filter(ladder=ladder).values_list(
            "challenger_id", "challenged_id", "made_at", "status"
        )
    ]


def open_challenges(ladder, player):
    return list(
        Challenge.objects.filter(ladder=ladder, status__in=OPEN_STATUSES).filter(
            Q(challenger=player) | Q(challenged=player)
        )
    )


@dataclass
class Activity:
    player_id: int
    since: datetime  # his last ladder game (or his joining)
    dropped: int  # places lost for inactivity since


def activity(ladder, on=None):
    """Each player on the ladder: since when he has not played a ladder game (a challenge
    played, or won by the other's forfeit; else his joining), and the places he has lost
    for it since. ``on``: its places, when the caller has them already."""
    on = order(ladder) if on is None else on
    since = {}
    for player, at in (
        LadderMove.objects.filter(ladder=ladder, kind=MoveKind.JOIN)
        .order_by("at", "pk")
        .values_list("player_id", "at")
    ):
        since[player] = at
    decided = Challenge.objects.filter(
        ladder=ladder, status__in=(ChallengeStatus.PLAYED, ChallengeStatus.FORFEITED)
    ).values_list("challenger_id", "challenged_id", "status", "decided_at")
    for challenger, challenged, status, at in decided:
        players = (challenger, challenged) if status == ChallengeStatus.PLAYED else (challenger,)
        for player in players:
            if player in since and at > since[player]:
                since[player] = at
    dropped = dict.fromkeys(on, 0)
    for player, at in LadderMove.objects.filter(ladder=ladder, kind=MoveKind.DROP).values_list(
        "player_id", "at"
    ):
        if player in dropped and player in since and at > since[player]:
            dropped[player] += 1
    return [Activity(p, since[p], dropped[p]) for p in on if p in since]


def refusal_text(refusal, now):
    """The sentence that says why a challenge may not be made, and for how long."""
    numbers = refusal.numbers
    words = {
        "not_on_ladder": _("Join the ladder first."),
        "not_above": _("Only a player above you on the ladder can be challenged."),
        "already_open": _("You two already have a challenge under way."),
    }.get(refusal.code)
    if refusal.code == "out_of_reach":
        words = (
            ngettext(
                "A challenge reaches %(reach)d place above, this player is %(gap)d above you.",
                "A challenge reaches %(reach)d places above, this player is %(gap)d above you.",
                numbers["reach"],
            )
            % numbers
        )
    elif refusal.code == "too_many_mine":
        words = (
            ngettext(
                "You already have %(max)d open challenge, the most the ladder allows.",
                "You already have %(max)d open challenges, the most the ladder allows.",
                numbers["max"],
            )
            % numbers
        )
    elif refusal.code == "too_many_theirs":
        words = (
            ngettext(
                "This player already has %(max)d open challenge, the most the ladder allows.",
                "This player already has %(max)d open challenges, the most the ladder allows.",
                numbers["max"],
            )
            % numbers
        )
    elif refusal.code == "rematch":
        words = (
            ngettext(
                "You two met by challenge less than %(days)d day ago.",
                "You two met by challenge less than %(days)d days ago.",
                numbers["days"],
            )
            % numbers
        )
    if refusal.until is not None:
        words += " " + _("Possible again in %(left)s, from %(when)s.") % {
            "left": time_left(refusal.until, now),
            "when": moment(refusal.until),
        }
    return words


def time_left(until, now):
    """ "2 d 5 h", "5 h 10 min", "10 min": how long until ``until``."""
    minutes = max(0, int((until - now).total_seconds() // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return _("%(d)d d %(h)d h") % {"d": days, "h": hours}
    if hours:
        return _("%(h)d h %(m)d min") % {"h": hours, "m": minutes}
    return _("%(m)d min") % {"m": minutes}


def moment(when):
    """A moment in the club's time zone, as the pages show it."""
    return formats.date_format(timezone.localtime(when), "j E, H:i")


@dataclass
class Row:
    place: int
    player: Player
    challenge: Challenge | None = None  # his challenge under way, if any
    can_challenge: bool = False  # the viewer may challenge him
    why_not: str = ""  # why the viewer may not (only for the players above him in reach)
    is_viewer: bool = False


def ladder_page(ladder, viewer=None, now=None):
    """The ladder's rows for ``viewer`` (a Player or None)."""
    now = now or timezone.now()
    ids = order(ladder)
    people = Player.everywhere.in_bulk(ids)
    under_way = {}
    for challenge in Challenge.objects.filter(
        ladder=ladder, status__in=OPEN_STATUSES
    ).select_related("challenger", "challenged"):
        under_way.setdefault(challenge.challenger_id, challenge)
        under_way.setdefault(challenge.challenged_id, challenge)
    known = past(ladder)
    rules_ = rules_of(ladder)
    rows = []
    mine = ids.index(viewer.pk) if viewer is not None and viewer.pk in ids else None
    for place, pid in enumerate(ids, start=1):
        row = Row(place, people[pid], under_way.get(pid), is_viewer=mine == place - 1)
        if mine is not None and place - 1 < mine and ladder.active:
            refusal = rules.refusal(rules_, ids, viewer.pk, pid, now, known)
            row.can_challenge = refusal is None
            if refusal is not None:
                row.why_not = refusal_text(refusal, now)
        rows.append(row)
    return rows


@dataclass
class Standing:
    ladder: Ladder
    place: int | None
    size: int
    challenges: list
    next_drop: datetime | None


def player_ladders(player, now=None):
    """The club's ladders the player is on, with his place, his challenges under way and
    their deadlines, and when he loses a place if he plays no ladder game."""
    now = now or timezone.now()
    found = []
    for ladder in Ladder.objects.all():
        ids = order(ladder)
        if player.pk not in ids:
            continue
        challenges = [
            described(c, player, now)
            for c in Challenge.objects.filter(ladder=ladder, status__in=OPEN_STATUSES)
            .filter(Q(challenger=player) | Q(challenged=player))
            .select_related("challenger", "challenged")
        ]
        mine = next((a for a in activity(ladder, ids) if a.player_id == player.pk), None)
        drop = None
        if mine is not None and not challenges:
            drop = rules.next_drop(rules_of(ladder), mine.since, mine.dropped)
        found.append(Standing(ladder, ids.index(player.pk) + 1, len(ids), challenges, drop))
    return found


@dataclass
class Described:
    challenge: Challenge
    mine: bool  # made by the player
    opponent: Player
    deadline: datetime
    left: str
    text: str


def described(challenge, player, now):
    """A challenge under way as the player reads it: with whom, what is awaited, by when."""
    rules_ = rules_of(challenge.ladder)
    mine = challenge.challenger_id == player.pk
    opponent = challenge.challenged if mine else challenge.challenger
    if challenge.status == ChallengeStatus.OPEN:
        deadline = rules.accept_by(rules_, challenge.made_at)
        text = (
            _("You challenged %(name)s: awaiting the answer.")
            if mine
            else _("%(name)s challenges you: accept, or the place is lost at the deadline.")
        )
    else:
        deadline = rules.play_by(rules_, challenge.accepted_at)
        text = _("Accepted: play %(name)s at the club, on the console or on your phone.")
    return Described(
        challenge,
        mine,
        opponent,
        deadline,
        time_left(deadline, now),
        text % {"name": opponent.display_name},
    )


def notice_text(notice):
    """A notice in words, in the active language."""
    challenge = notice.challenge
    ladder = notice.ladder.name
    if challenge is None:
        return _("%(ladder)s: you lost a place for playing no ladder game.") % {"ladder": ladder}
    mine = challenge.challenger_id == notice.player_id
    other = (challenge.challenged if mine else challenge.challenger).display_name
    names = {"ladder": ladder, "name": other}
    if notice.kind == NoticeKind.CHALLENGED:
        deadline = rules.accept_by(rules_of(challenge.ladder), challenge.made_at)
        return _("%(ladder)s: %(name)s challenges you. Accept by %(when)s.") % (
            names | {"when": moment(deadline)}
        )
    if notice.kind == NoticeKind.ACCEPTED:
        deadline = rules.play_by(rules_of(challenge.ladder), challenge.accepted_at)
        return _("%(ladder)s: %(name)s accepted your challenge. Play by %(when)s.") % (
            names | {"when": moment(deadline)}
        )
    if notice.kind == NoticeKind.REMINDER:
        deadline = rules.play_by(rules_of(challenge.ladder), challenge.accepted_at)
        return _("%(ladder)s: your game with %(name)s is due by %(when)s.") % (
            names | {"when": moment(deadline)}
        )
    if notice.kind in (NoticeKind.FORFEITED, NoticeKind.DECLINED):
        if mine:
            return _("%(ladder)s: %(name)s did not accept: you take the place.") % names
        return _("%(ladder)s: the challenge of %(name)s was not accepted: place lost.") % names
    if notice.kind == NoticeKind.LAPSED:
        return _("%(ladder)s: the game with %(name)s was not played in time.") % names
    if notice.kind == NoticeKind.WITHDRAWN:
        return _("%(ladder)s: the challenge with %(name)s was withdrawn.") % names
    if challenge.winner_id is None:
        return _("%(ladder)s: a draw with %(name)s, the places stay.") % names
    if challenge.winner_id == notice.player_id:
        return _("%(ladder)s: you beat %(name)s.") % names
    return _("%(ladder)s: %(name)s won.") % names


def notices(player, limit=5):
    """His latest notices of the club's ladders, but those of a challenge still under way
    (his page shows it with its deadline)."""
    return list(
        Notice.objects.filter(player=player)
        .exclude(challenge__status__in=OPEN_STATUSES)
        .select_related("ladder", "challenge__ladder", "challenge__challenger")
        .select_related("challenge__challenged")[:limit]
    )


def unsent_notices(player):
    """His notices not yet sent through the Telegram bot, the oldest first."""
    return list(
        Notice.objects.filter(player=player, sent_at__isnull=True)
        .select_related("ladder", "challenge__ladder", "challenge__challenger")
        .select_related("challenge__challenged")
        .order_by("at", "pk")
    )
