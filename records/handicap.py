"""Suggested handicaps (фора) from the two players' records; the marker may accept or change them.

«Кладка шаров кием» (cue_run): from each player's average strokes per complete run
    Each player's average is taken over his last ``RECENT_RUNS`` complete runs (raw strokes,
    penalty strokes included, handicaps ignored: what he actually needs to clear the table);
    both need at least ``MIN_RUNS`` of them. With ``d`` = the weaker player's average minus
    the stronger player's, rounded to the nearest half stroke, and counting the right to start
    as half a stroke:

    - d = 0            → no handicap;
    - d = ½            → "the stronger player starts";
    - d = N (whole)    → "the weaker player gets N extra strokes";
    - d = N + ½        → "mixed": the stronger player starts and gives N strokes.

    N is at most ``MAX_STROKES``.

«Снимание шаров рукой» (cue_vs_hand): who takes the cue
    The stronger player takes the cue, the weaker rolls by hand. "Stronger" is the higher
    rating of the pocketing games (see ``records.rating``) when both players have at least
    ``MIN_RATED_GAMES`` rated games; otherwise the higher sports class; otherwise there is no
    suggestion. With ``E`` the stronger player's chance of a frame on equal terms (Glicko-2), the
    players are "evenly matched" when E < ``EVEN`` (a rating gap under about 70 points): the
    fragment then says that they may as well play on equal terms.

    Balls to win (``target``): from their earlier games against each other with these roles
    (see ``cue_vs_hand_target``): when the cue player keeps winning, a shorter game gives the
    hand player more chances; otherwise the full game to 8.

The pyramid games (Свободная, Комбинированная, Динамичная, Классическая, по порядку номеров):
    the weaker player's head start before the break ("8–7", "8–6": balls on his shelf; points
    where balls score their number): the fair game handicap of ``records.forecast`` — of the
    head starts the game allows, the one that brings the frame closest to even by the two
    players' ratings (Glicko-2, a newcomer's from his sports class), with the odds it leaves.

The odds (``odds_hint``), for every game two play and for a match
    The chance of each of the two players, as the form stands (a pyramid game's handicap
    counted; the strokes and the roles of the other two games are not: their odds are on
    equal terms, said so); for a match, the race with its head starts and the fair race — the
    head start in frames that brings it closest to even, accepted with one tap like the hint.
    A provisional rating is marked beside the name: a newcomer's and a guest's odds are
    uncertain. No handicap is suggested for a guest (nobody the records know).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import rules
from games.forms import seats_from_tokens
from games.models import GameStatus, Outcome, Seat
from players.models import Player, SkillClass
from records import forecast, glicko, rating

RECENT_RUNS = 20
MIN_RUNS = 3
MAX_STROKES = 15
MIN_RATED_GAMES = 5
EVEN = 0.6
SKILL_ORDER = [choice for choice, _label in SkillClass.choices]  # weakest first

# The start form's names for the settings a suggestion fills in (its fields are "s_<name>").
CUE_RUN_SETTINGS = {"kind": "handicap", "strokes": "handicap_strokes", "strong": "strong_seat"}
CUE_VS_HAND_SETTINGS = {"cue": "cue_seat", "target": "target"}
FULL_TARGET = 8  # the longest game the rules allow (more than half of the 15 balls)
SHORTEST_TARGET = 4
MIN_HEAD_TO_HEAD = 3


@dataclass
class Hint:
    """What the start form shows: a sentence, the figures behind it, the settings to set, and
    the odds of the frame the suggestion leaves (the pyramid games')."""

    summary: str
    reasons: list[str] = field(default_factory=list)
    settings: dict[str, object] = field(default_factory=dict)  # setting name -> value
    chances: forecast.Chances | None = None
    label: str = ""  # what ``chances`` are of: "With 8–6"

    @property
    def acceptable(self):
        return bool(self.settings)


def seat_players(tokens):
    """The start form's seat tokens ("p:<pk>" / "g:<name>") as Players (None for a guest)."""
    return [seat if isinstance(seat, Player) else None for seat in seats_from_tokens(tokens)]


def suggest(variant, tokens, settings=None) -> Hint | None:
    """The hint for ``variant`` and the seats chosen so far (None until there are two), the
    form's game ``settings`` as they stand (a classic pyramid to 51: its head start)."""
    players = seat_players(tokens)
    if len(players) != 2:
        return None
    if any(player is None for player in players):
        return Hint(_("No handicap is suggested for a guest: guests have no records."))
    return adviser(variant)(variant, *players, settings=settings)


# --- «Кладка шаров кием» ---------------------------------------------------------------------


def recent_runs(variant, player, limit=RECENT_RUNS):
    """Strokes of the player's last complete runs in «Кладка шаров кием», newest first."""
    return list(
        Seat.objects.filter(
            player=player,
            game__status=GameStatus.FINISHED,
            game__variant=variant,
            stats__complete=True,
        )
        .order_by("-game__finished_at", "-game_id")
        .values_list("stats__strokes", flat=True)[:limit]
    )


def cue_run_handicap(weaker_average: float, stronger_average: float):
    """(kind, strokes) for the averages of the two players (see the module's docstring)."""
    halves = round(2 * max(0.0, weaker_average - stronger_average))
    strokes, start = min(halves // 2, MAX_STROKES), bool(halves % 2)
    if strokes == 0:
        return ("start" if start else "none"), 0
    return ("mixed" if start else "extra_strokes"), strokes


def suggest_cue_run(variant, first, second, settings=None) -> Hint:
    runs = [recent_runs(variant, first), recent_runs(variant, second)]
    for player, player_runs in zip((first, second), runs, strict=True):
        if len(player_runs) < MIN_RUNS:
            return Hint(
                _(
                    "Not enough records for a suggestion: %(player)s has %(runs)s complete runs, "
                    "%(needed)s are needed."
                )
                % {"player": player.display_name, "runs": len(player_runs), "needed": MIN_RUNS}
            )
    averages = [sum(r) / len(r) for r in runs]
    strong = 0 if averages[0] <= averages[1] else 1
    weak = 1 - strong
    players = (first, second)
    kind, strokes = cue_run_handicap(averages[weak], averages[strong])
    names = {"strong": players[strong].display_name, "weak": players[weak].display_name}
    summary = {
        "none": _("Evenly matched: no handicap."),
        "start": _("%(strong)s starts."),
        "extra_strokes": _("%(weak)s gets %(strokes)s extra strokes."),
        "mixed": _("%(strong)s starts and gives %(weak)s %(strokes)s strokes."),
    }[kind] % {**names, "strokes": strokes}
    reasons = [
        _("%(player)s: %(average)s strokes per run on average (last %(runs)s runs)")
        % {"player": p.display_name, "average": number_format(a, 1), "runs": len(r)}
        for p, a, r in zip(players, averages, runs, strict=True)
    ]
    names = CUE_RUN_SETTINGS
    return Hint(
        summary,
        reasons,
        {names["kind"]: kind, names["strokes"]: strokes, names["strong"]: str(strong)},
    )


# --- who is the stronger: the rating, else the sports class ----------------------------------


def stronger(variant, players):
    """(the stronger seat, his expected score on equal terms — None when only the sports
    classes tell —, the reasons) from the game family's rating (both players with at least
    ``MIN_RATED_GAMES`` rated games), else from the sports classes; a Hint saying why there is
    no suggestion when neither tells."""
    family = rating.family_of(variant)
    skills = [rating.skill_of(family, p.pk, p.skill_class) for p in players]
    games = [skill.games for skill in skills]
    values = [skill.rating for skill in skills]
    reasons = [
        _("%(player)s: rating %(rating)s (%(games)s rated games)")
        % {"player": p.display_name, "rating": round(v), "games": g}
        for p, v, g in zip(players, values, games, strict=True)
    ]
    if min(games) >= MIN_RATED_GAMES and round(values[0]) != round(values[1]):
        strong = 0 if values[0] > values[1] else 1
        return strong, glicko.win_probability(skills[strong], skills[1 - strong]), reasons
    classes = [SKILL_ORDER.index(p.skill_class) for p in players]
    if classes[0] == classes[1]:
        return Hint(
            _(
                "Not enough records for a suggestion: both players need %(needed)s rated "
                "games, or different sports classes."
            )
            % {"needed": MIN_RATED_GAMES},
            reasons,
        )
    strong = 0 if classes[0] > classes[1] else 1
    reasons.append(
        _("%(player)s has the higher sports class (%(class)s)")
        % {
            "player": players[strong].display_name,
            "class": players[strong].get_skill_class_display(),
        }
    )
    return strong, None, reasons


# --- «Снимание шаров рукой» ------------------------------------------------------------------


def head_to_head(variant, cue_player, hand_player):
    """(games, wins of the cue player) in «Снимание шаров рукой» with these roles."""
    figures = Seat.objects.filter(
        player=cue_player,
        stats__role="cue",
        game__status=GameStatus.FINISHED,
        game__variant=variant,
        game__seats__player=hand_player,
    ).aggregate(games=Count("id"), wins=Count("id", filter=Q(outcome=Outcome.WIN)))
    return figures["games"], figures["wins"]


def suggest_cue_vs_hand(variant, first, second, settings=None) -> Hint:
    players = (first, second)
    found = stronger(variant, players)
    if isinstance(found, Hint):
        return found
    strong, expected_score, reasons = found
    even = expected_score is not None and expected_score < EVEN
    cue, hand = players[strong], players[1 - strong]
    played, won = head_to_head(variant, cue, hand)
    target = cue_vs_hand_target(played, won)
    if played:
        reasons.append(
            _("With these roles %(cue)s won %(won)s of %(played)s games against %(hand)s.")
            % {"cue": cue.display_name, "won": won, "played": played, "hand": hand.display_name}
        )
    summary = _("%(cue)s plays with the cue, %(hand)s by hand, to %(target)s balls.") % {
        "cue": cue.display_name,
        "hand": hand.display_name,
        "target": target,
    }
    if even:
        summary += " " + _("They are evenly matched: they may as well play on equal terms.")
    names = CUE_VS_HAND_SETTINGS
    return Hint(summary, reasons, {names["cue"]: str(strong), names["target"]: target})


def cue_vs_hand_target(played: int, cue_wins: int) -> int:
    """Balls to win: a shorter game gives the weaker side more chances.

    Fewer than ``MIN_HEAD_TO_HEAD`` earlier games with these roles, or the cue player won at
    most half of them: the full game (``FULL_TARGET``). Otherwise the target drops by one ball
    for every 12.5 points of the cue player's win rate above 50 %:
    ``8 − round((rate − ½) × 8)``, at least ``SHORTEST_TARGET`` (rate ¾ → 6, rate 1 → 4).
    """
    if played < MIN_HEAD_TO_HEAD:
        return FULL_TARGET
    rate = cue_wins / played
    if rate <= 0.5:
        return FULL_TARGET
    return max(SHORTEST_TARGET, FULL_TARGET - round((rate - 0.5) * FULL_TARGET))


# --- the pyramid games ---------------------------------------------------------------------------

PYRAMID_SETTINGS = {
    "weaker": "weaker_seat",
    "head_start": "head_start",
    "returned": "returned_pots",
}


def rating_reasons(players, skills):
    """ "Ann: rating 1650 (12 rated games)" for each player."""
    return [
        _("%(player)s: rating %(rating)s (%(games)s rated games)")
        % {"player": p.display_name, "rating": round(s.rating), "games": s.games}
        for p, s in zip(players, skills, strict=True)
    ]


def suggest_head_start(variant, first, second, settings=None) -> Hint:
    """The fair game handicap (``records.forecast.fair_handicap``) from the two skills."""
    players = (first, second)
    sides = [forecast.side(variant, player) for player in players]
    p = forecast.frame_probability(variant, sides[0].skill, sides[1].skill)
    fair = forecast.fair_handicap(variant, p, settings)
    weak = fair.seat
    names = {"weak": players[weak].display_name, "n": fair.head_start}
    if not fair.head_start:
        summary = _("Evenly matched: no handicap.")
    elif fair.in_balls:
        names["shorthand"] = fair.shorthand
        summary = (
            ngettext(
                "%(shorthand)s: %(weak)s starts with %(n)s ball on the shelf.",
                "%(shorthand)s: %(weak)s starts with %(n)s balls on the shelf.",
                fair.head_start,
            )
            % names
        )
    else:
        summary = (
            ngettext(
                "%(weak)s starts with %(n)s point.",
                "%(weak)s starts with %(n)s points.",
                fair.head_start,
            )
            % names
        )
    keys = PYRAMID_SETTINGS
    chosen = {keys["weaker"]: str(weak), keys["head_start"]: fair.head_start, keys["returned"]: 0}
    odds = forecast.Odds(sides[0], sides[1], fair.probability)
    skills = [side.skill for side in sides]
    reasons = rating_reasons(players, skills)
    return Hint(summary, reasons, chosen, odds.frame_chances, handicap_label(fair))


def handicap_label(fair):
    """What the odds a game handicap leaves are of: "With 8–6", "With 18 points"."""
    if not fair.head_start:
        return _("On equal terms")
    if fair.in_balls:
        return _("With %(shorthand)s") % {"shorthand": fair.shorthand}
    return ngettext(
        "With a head start of %(n)s point", "With a head start of %(n)s points", fair.head_start
    ) % {"n": fair.head_start}


# --- the odds, and the fair race of a match ---------------------------------------------------


@dataclass
class OddsHint:
    """What the start form shows of the odds: the game's (or the match's, with its head
    starts) as the form stands; of a match, the fair race in words and the head starts it
    sets (``fair_settings``: the match form's fields), the odds it leaves."""

    odds: forecast.Odds
    label: str
    note: str = ""
    fair: str = ""
    fair_settings: dict[str, int] = field(default_factory=dict)

    @property
    def acceptable(self):
        return bool(self.fair_settings)

    @property
    def fair_label(self):
        return fair_race_label(self.odds.fair)

    @property
    def fair_odds(self):
        """The odds the fair race leaves, when it is not the race asked already."""
        return self.odds.fair_chances if self.acceptable else None


NOT_MODELLED = (rules.ADVICE_STROKES, rules.ADVICE_CUE_ROLES)


def odds_hint(variant, tokens, settings=None, race=None) -> OddsHint | None:
    """The odds of the two seats ``tokens`` in ``variant`` with the form's ``settings``; with
    ``race`` (race to, head start of A, of B) those of the match and its fair race. None for a
    game not played by two, or until both seats are known."""
    game = rules.VARIANTS.get(variant)
    if game is None or not game.plays_matches or not game.min_seats <= 2 <= game.max_seats:
        return None
    seats = seats_from_tokens(tokens)
    if len(seats) != 2 or any(seat is None for seat in seats):
        return None
    a, b = (forecast.side(variant, seat) for seat in seats)
    note = ""
    if game.handicap_advice in NOT_MODELLED:
        note = _("On equal terms: the game's own handicap is not counted in these odds.")
    if race is None:
        return OddsHint(forecast.game_odds(variant, a, b, settings), _("The game"), note)
    race_to, head_a, head_b = race
    odds = forecast.match_odds(variant, a, b, race_to, (head_a, head_b), settings=settings)
    found = OddsHint(odds, race_label(*odds.needs), note)
    if any(isinstance(seat, str) for seat in seats):
        return found  # a guest: no handicap is suggested
    fair = odds.fair
    if fair.needs == odds.needs:
        found.fair = _("This is the fair race.")
        return found
    found.fair = fair_race_sentence(odds)
    found.fair_settings = {
        "head_start_a": fair.head_start if fair.side == "a" else 0,
        "head_start_b": fair.head_start if fair.side == "b" else 0,
    }
    return found


def fair_race_label(fair):
    """What the odds of the fair race are of: "The fair race, 5 vs 3"."""
    need_a, need_b = fair.needs
    return _("The fair race, %(a)s vs %(b)s") % {"a": need_a, "b": need_b}


def fair_race_sentence(odds):
    """The fair race of ``odds`` (a match's) in words: "The fair race: Bob gets a head start
    of 2 frames (5 vs 3)."."""
    fair = odds.fair
    need_a, need_b = fair.needs
    words = {"a": need_a, "b": need_b, "n": fair.head_start}
    if not fair.head_start:
        return _("The fair race: no head start (%(a)s vs %(b)s).") % words
    words["name"] = (odds.a if fair.side == "a" else odds.b).name
    return (
        ngettext(
            "The fair race: %(name)s gets a head start of %(n)s frame (%(a)s vs %(b)s).",
            "The fair race: %(name)s gets a head start of %(n)s frames (%(a)s vs %(b)s).",
            fair.head_start,
        )
        % words
    )


def race_label(need_a, need_b):
    """ "The match, race to 5", or with a head start "The match, 5 vs 4"."""
    if need_a == need_b:
        return _("The match, race to %(n)s") % {"n": need_a}
    return _("The match, %(a)s vs %(b)s") % {"a": need_a, "b": need_b}


# The adviser of each kind of handicap a game's ``Variant.handicap_advice`` names.
ADVISERS = {
    rules.ADVICE_STROKES: suggest_cue_run,
    rules.ADVICE_CUE_ROLES: suggest_cue_vs_hand,
    rules.ADVICE_HEAD_START_BALLS: suggest_head_start,
    rules.ADVICE_HEAD_START_POINTS: suggest_head_start,
}


def advised_variants():
    """The keys of the games a handicap is advised for, in the engine's order."""
    return tuple(key for key, variant in rules.VARIANTS.items() if variant.handicap_advice)


def adviser(key):
    """The function ``(variant, first, second, settings=None) -> Hint`` that advises
    ``key``'s handicap (``settings``: the form's, as they stand)."""
    return ADVISERS[rules.get_variant(key).handicap_advice]
