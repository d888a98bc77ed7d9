"""Writes for games: start, record a stroke, undo, finish, abandon, rematch.

Every write checks the sequence number the marker saw and replays the stored log through the
rules engine with the new event before it inserts the event and bumps ``Game.last_seq``. A
double tap or a second marker therefore finds a newer ``last_seq`` and is rejected; an
illegal stroke is rejected by the rules engine; either way nothing changes. The tap's own
path (``record_event``) writes only if the game row is still as it read it (a compare-and-set
in one statement); the other writes lock the game row (``SELECT … FOR UPDATE`` on
PostgreSQL) for their transaction. The unique (game, seq) constraint backs both up.
"""

import time
from datetime import UTC, datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import replay_cache, rules, selectors, tap_sql
from games.i18n import render_message
from games.models import Game, GameStatus, Outcome, Seat
from live import publish_clause, publish_on_commit, topics
from players.models import Player, join_club
from tables.models import Table


class GameError(Exception):
    """A write the game's current status does not allow; ``message`` is translated."""

    message = _("This action is not possible now.")

    def __init__(self, message=None):
        if message is not None:
            self.message = message
        super().__init__(str(self.message))


class StaleEvent(GameError):
    message = _(
        "The game has changed since this screen was shown (a double tap or another marker). "
        "Nothing was recorded; here is the game as it is now."
    )


class GameClosed(GameError):
    message = _("This game is no longer in progress.")


class GameNotOver(GameError):
    message = _("The game is not over yet.")


BUSY_TABLE = _("This table already has a game in progress.")
DISPUTED = _("The last stroke is being checked: confirm it or undo it first.")

# What the apps above games do as a game starts or is finished, inside the same transaction
# (tournaments: a match's frame is counted). Each registers its hook when it is ready.
_STARTED_HOOKS = []
_BEGUN_HOOKS = []
_FINISHED_HOOKS = []
_REOPENED_HOOKS = []
_CLOSED_HOOKS = []


def when_started(hook):
    """``hook(game)`` is called by ``start_game`` for every game it creates."""
    if hook not in _STARTED_HOOKS:
        _STARTED_HOOKS.append(hook)


def when_begun(hook):
    """``hook(game)`` is called by ``record_event`` once a game's first event is written
    (its first stroke: a match called to a table is under way). Its seats are read
    (``selectors.seats_of`` costs no query)."""
    if hook not in _BEGUN_HOOKS:
        _BEGUN_HOOKS.append(hook)


def when_finished(hook):
    """``hook(game)`` is called by ``finish_game`` once the game is stored finished."""
    if hook not in _FINISHED_HOOKS:
        _FINISHED_HOOKS.append(hook)


def when_closed(hook):
    """``hook(game)`` is called whenever a game leaves its table: finished (counted or
    awaiting confirmation), abandoned or voided — its table is free again."""
    if hook not in _CLOSED_HOOKS:
        _CLOSED_HOOKS.append(hook)


def when_reopened(hook):
    """``hook(game)`` is called by ``reopen_game`` once the game's finish is taken back."""
    if hook not in _REOPENED_HOOKS:
        _REOPENED_HOOKS.append(hook)


def _topics(game, table):
    """What a change to ``game`` touches: its table's board, the wall, its consoles."""
    return topics.table(table.number), topics.WALL, topics.game(game.pk)


def _announce(game, table):
    """Once the write commits, the boards and consoles that show ``game`` are told (``live``);
    a broker that is down never fails the write."""
    publish_on_commit(*_topics(game, table))


# --- starting ------------------------------------------------------------------------------


def start_game(
    *, table, variant, settings, seats, marker, rematch_of=None, needs_confirmation=False
):
    """Starts a game on a free table. ``seats``: Players or guest names, in playing order.
    ``needs_confirmation``: scored by its players without a marker (``finish_game`` leaves
    it awaiting confirmation, see ``confirm_game``).

    Raises ValidationError (keyed by "table", "variant", "seats" or a setting's name) and
    creates nothing when anything is wrong.
    """
    try:
        rules_variant = rules.get_variant(variant)
    except KeyError:
        raise ValidationError({"variant": gettext("Choose one of the games.")}) from None

    errors = {}
    seat_errors = _seat_errors(rules_variant, seats)
    if seat_errors:
        errors["seats"] = seat_errors
    try:
        validated = rules_variant.settings_from_dict({**settings, "players": len(seats)})
    except rules.SettingsError as exc:
        for name, message in exc.errors.items():
            key = "seats" if name == "players" else name
            if key != "seats" or not seat_errors:
                errors.setdefault(key, []).append(render_message(message))
    if not table.is_active or table.out_of_service:
        errors["table"] = [gettext("This table is out of service.")]
    if errors:
        raise ValidationError(errors)

    try:
        with transaction.atomic():
            # Serialises starts on one table; the partial unique constraint is the backstop.
            Table.objects.select_for_update().filter(pk=table.pk).first()
            if Game.objects.in_progress_on(table).exists():
                raise ValidationError({"table": BUSY_TABLE})
            busy = _players_at_other_tables(seats)
            if busy:
                raise ValidationError({"seats": busy})
            initial = replay_cache.Replayed.from_log(0, [], rules_variant.initial_state(validated))
            game = Game.objects.create(
                table=table,
                variant=rules_variant.key,
                settings=validated.to_dict(),
                marker=marker,
                rematch_of=rematch_of,
                needs_confirmation=needs_confirmation,
                replay_cache=replay_cache.dump(initial),
            )
            Seat.objects.bulk_create(
                Seat(
                    game=game,
                    position=position,
                    player=seat if isinstance(seat, Player) else None,
                    guest_name="" if isinstance(seat, Player) else seat.strip(),
                )
                for position, seat in enumerate(seats)
            )
            # A person of the network who plays here is on the club's roster (as a guest
            # when he was not on it).
            for seat in seats:
                if isinstance(seat, Player):
                    join_club(seat, guest=True)
            for hook in _STARTED_HOOKS:
                hook(game)
            _announce(game, table)
    except IntegrityError:
        raise ValidationError({"table": BUSY_TABLE}) from None
    return game


def _seat_errors(rules_variant, seats):
    errors = []
    low, high = rules_variant.min_seats, rules_variant.max_seats
    if not low <= len(seats) <= high:
        if low == high:
            errors.append(gettext("This game needs exactly %(n)d players.") % {"n": low})
        else:
            errors.append(
                gettext("This game needs from %(low)d to %(high)d players.")
                % {"low": low, "high": high}
            )
    players = [seat for seat in seats if isinstance(seat, Player)]
    if len({player.pk for player in players}) != len(players):
        errors.append(gettext("A player can take only one seat."))
    for player in players:
        if not player.is_active:
            errors.append(gettext("%(name)s is not on the active roster.") % {"name": player})
    guests = [seat.strip() for seat in seats if not isinstance(seat, Player)]
    if any(not name for name in guests):
        errors.append(gettext("A guest needs a name."))
    if any(len(name) > Seat._meta.get_field("guest_name").max_length for name in guests):
        errors.append(gettext("A guest's name is too long."))
    return errors


def _players_at_other_tables(seats):
    """One message per roster player of ``seats`` who is playing a game in progress (on
    another table: this one is free by now). The players' rows are locked first, so two
    starts with the same player on two tables are serialised (on PostgreSQL); a guest's name
    is free text and is not checked."""
    ids = [seat.pk for seat in seats if isinstance(seat, Player)]
    if not ids:
        return []
    list(Player.everywhere.select_for_update().filter(pk__in=ids).values_list("pk", flat=True))
    playing = selectors.seats_in_play(ids).select_related("player")
    messages = []
    for seat in playing:
        table = seat.game.table
        params = {"name": seat.player, "number": table.number, "table_name": table.name}
        if table.name:
            text = gettext("%(name)s is already playing at table %(number)s (%(table_name)s).")
        else:
            text = gettext("%(name)s is already playing at table %(number)s.")
        messages.append(text % params)
    return messages


# --- recording -----------------------------------------------------------------------------


def _lock(game):
    """The game row, read afresh and locked until the end of the transaction (a no-op on
    SQLite). Only ``game.pk`` is used: callers may pass ``Game(pk=…)`` without reading it."""
    return Game.objects.select_for_update(of=("self",)).select_related("table").get(pk=game.pk)


def _read_for_a_stroke(game):
    """The game with its table and seats in one statement (``tap_sql``), not locked: the
    write that follows checks that nobody wrote in between."""
    found = tap_sql.read_with_seats(game.pk)
    if found is None:  # a game without seats: none is started so, but be plain about it
        return Game.objects.select_related("table").get(pk=game.pk), None
    return found


# A device that recorded on a game within this many seconds is "recording it" (the console
# says «Ещё одно устройство ведёт эту партию» on any other).
DEVICE_SECONDS = 300


def devices_after(recent, device, now):
    """``Game.recent_devices`` once ``device`` recorded at ``now`` (epoch seconds): the
    devices of the last DEVICE_SECONDS only."""
    kept = {key: at for key, at in (recent or {}).items() if now - at < DEVICE_SECONDS}
    if device:
        kept[device] = round(now)
    return kept


def other_devices(game, device, now):
    """Whether a device other than ``device`` recorded on ``game`` lately."""
    return any(
        key != device and now - at < DEVICE_SECONDS
        for key, at in (game.recent_devices or {}).items()
    )


def record_event(*, game, expected_seq, event, user, device="", tapped_at=None, meanwhile=None):
    """Records one marker event; returns the updated Game (its replay cached on it).
    ``device``: which browser recorded it (``games.console.device_of``), noted on the game.
    ``tapped_at``: when the marker tapped it, for a stroke kept on his phone offline and
    sent later (``tapped_moment``); the event's ``recorded_at`` is when it landed.
    ``meanwhile(game)``: called once with the game as recorded (its replay and seats
    remembered), when the event was written — while the database is still writing it where
    it can be (``tap_sql.append_event``: PostgreSQL, outside a transaction), so what the
    caller does with it (the console's rendering) costs no time of its own; otherwise once
    it is written. Not called (or its result to be dropped) when the write is refused. If
    it raised while the write was in flight it is called again once the write is done; what
    it raises then is raised, the event written and announced.

    Raises StaleEvent (``expected_seq`` is not the game's ``last_seq``), GameClosed (the game
    is not in progress) or ``rules.RuleViolation`` (the rules do not allow it now). In every
    one of those cases nothing is written.

    The tap's path costs two statements whatever the game's length (written out in
    ``tap_sql``): the game read with its table and seats, then — once the rules have
    accepted the event — the event inserted and the game updated only if its row is still
    as it was read (in progress at ``expected_seq``): a second marker or a double tap that
    got there first makes it write nothing and answer StaleEvent, as a lock would. A stroke
    is applied to the replay cached on the game row; an undo, or a game without a valid
    cache, replays the stored events (one query more).
    """
    found, seats = _read_for_a_stroke(game)
    variant = selectors.variant_of(found)
    if found.status != GameStatus.IN_PROGRESS:
        raise GameClosed
    if expected_seq != found.last_seq:
        raise StaleEvent
    events = None
    if event.kind in rules.META_KINDS:
        # An undo reaches back to the state before the event it cancels, a dispute and its
        # confirmation name the event they check: replay.
        events = [*selectors.rules_events(found), event]
        replayed = _replay(found, events, seq=found.last_seq + 1)
    else:
        replayed = selectors.replayed(found).advance(variant, event)
    found.last_seq += 1
    found.replay_cache = replay_cache.dump(replayed)
    found.recent_devices = devices_after(found.recent_devices, device, time.time())
    # Where the live broker is this database's NOTIFY, the write itself publishes.
    changed = _topics(found, found.table)
    publish = publish_clause(*changed)
    # The game as it will be once written, for ``meanwhile`` (dropped if the write is not).
    selectors.remember(found, replayed, events, seats=seats)
    ran, failed = [], []

    def while_written():
        ran.append(True)
        try:
            meanwhile(found)
        except Exception as error:  # noqa: BLE001 - raised once the event is announced
            failed.append(error)

    # The first event's hooks (``when_begun``) come before what ``meanwhile`` shows.
    overlapped = meanwhile is not None and found.last_seq > 1
    try:
        written = tap_sql.append_event(
            game=found,
            seq=found.last_seq,
            kind=event.kind,
            payload=event.to_payload(),
            user_id=user.pk if user is not None and user.is_authenticated else None,
            replay_cache=found.replay_cache,
            recent_devices=found.recent_devices,
            status=GameStatus.IN_PROGRESS,
            publish=publish,
            tapped_at=tapped_at,
            meanwhile=while_written if overlapped else None,
        )
    except IntegrityError:  # the sequence number was taken after all
        written = False
    if not written:  # another write got there first: say which kind
        status = Game.objects.filter(pk=found.pk).values_list("status", flat=True).first()
        raise GameClosed if status != GameStatus.IN_PROGRESS else StaleEvent
    if publish is None:
        publish_on_commit(*changed)
    if found.last_seq == 1:
        for hook in _BEGUN_HOOKS:
            hook(found)
    if meanwhile is not None and (not ran or failed):
        # Not called yet, or it failed while the write was in flight (a transaction of its
        # own cannot begin on a connection still busy with it): now, the write done.
        failed.clear()
        while_written()
    if failed:
        raise failed[0]
    return found


def _replay(game, events, seq):
    """The Replayed of ``events`` (validated by the rules engine) as of event ``seq``."""
    variant, settings = selectors.variant_of(game), selectors.settings_of(game)
    log = rules.replay_log(variant, settings, events)
    return replay_cache.Replayed.from_log(seq, log, variant.initial_state(settings))


def refresh_replay_cache(*, game):
    """Replays the stored events and stores the result as the game's cached replay.

    Only ever needed after the cache went stale (e.g. the rules engine changed): strokes
    recorded into a game without a valid cache refresh it too.
    """
    with transaction.atomic():
        locked = _lock(game)
        replayed = _replay(locked, selectors.rules_events(locked), seq=locked.last_seq)
        locked.replay_cache = replay_cache.dump(replayed)
        Game.objects.filter(pk=locked.pk).update(replay_cache=locked.replay_cache)
    selectors.remember(locked, replayed)
    return locked


def undo_last(*, game, expected_seq, user, device="", tapped_at=None):
    """Records an undo: the newest effective event stops counting (nothing is deleted)."""
    return record_event(
        game=game,
        expected_seq=expected_seq,
        event=rules.Event(rules.UNDO),
        user=user,
        device=device,
        tapped_at=tapped_at,
    )


def tapped_moment(epoch_ms, now=None):
    """When a tap sent later was made, from the phone's clock (milliseconds since the epoch,
    as a browser counts them): never after ``now`` (a phone's clock ahead of the server's),
    None when it is no earlier than now (a stroke posted as it was tapped)."""
    now = now or timezone.now()
    moment = datetime.fromtimestamp(epoch_ms / 1000, tz=UTC)
    return moment if moment < now - timedelta(seconds=1) else None


def dispute_last(*, game, expected_seq, user, device=""):
    """Marks the last stroke in force as disputed («спорный момент»): the boards show it
    being checked, no stroke is recorded until ``confirm_disputed`` or ``undo_last``. In the
    log as an event of its own. Refused (RuleViolation) with nothing to check or while a
    stroke is being checked already."""
    return record_event(
        game=game,
        expected_seq=expected_seq,
        event=rules.Event(rules.DISPUTE),
        user=user,
        device=device,
    )


def confirm_disputed(*, game, expected_seq, user, device=""):
    """The disputed stroke stands: the boards are back to normal; in the log. Refused
    (RuleViolation) when no stroke is being checked."""
    return record_event(
        game=game,
        expected_seq=expected_seq,
        event=rules.Event(rules.CONFIRM),
        user=user,
        device=device,
    )


# --- closing -------------------------------------------------------------------------------


def finish_game(*, game, user, expected_seq=None):
    """Closes a game whose replayed state is finished and stores its result on the seats.

    A game scored by its players (``needs_confirmation``) is left UNCONFIRMED: nothing that
    counts results (ratings, leaderboards, "the loser pays") reads it until ``confirm_game``.
    """
    with transaction.atomic():
        locked = _lock(game)
        _check_open(locked, expected_seq)
        state = selectors.game_state(locked)
        if not state.finished or state.result is None:
            raise GameNotOver
        if selectors.replayed(locked).disputed is not None:
            raise GameError(DISPUTED)
        result = state.result
        stats = selectors.variant_of(locked).seat_stats(state)
        seats = list(Seat.objects.filter(game=locked).order_by("position"))
        for seat in seats:
            index = seat.position
            if index in result.winners:
                seat.outcome = Outcome.DRAW if result.draw else Outcome.WIN
            else:
                seat.outcome = Outcome.LOSS
            seat.score = result.scores[index]
            seat.stats = stats[index]
        Seat.objects.bulk_update(seats, ["outcome", "score", "stats"])
        counted = not locked.needs_confirmation
        locked.status = GameStatus.FINISHED if counted else GameStatus.UNCONFIRMED
        locked.finished_at = timezone.now()
        locked.result = {
            "winners": list(result.winners),
            "draw": result.draw,
            "scores": list(result.scores),
        }
        locked.save(update_fields=["status", "finished_at", "result"])
        if counted:
            for hook in _FINISHED_HOOKS:
                hook(locked)
        _closed(locked)
    return locked


def confirm_game(*, game, user=None):
    """A game scored by its players is confirmed (by the opponent or a staff member): it
    counts from now on like any finished game (the finished hooks run: its ratings are
    applied in order, see ``records.rating``). Refused (GameClosed) unless it awaits it."""
    with transaction.atomic():
        locked = _lock(game)
        if locked.status != GameStatus.UNCONFIRMED:
            raise GameClosed(_("This game is not awaiting confirmation."))
        locked.status = GameStatus.FINISHED
        locked.confirmed_at = timezone.now()
        locked.save(update_fields=["status", "confirmed_at"])
        for hook in _FINISHED_HOOKS:
            hook(locked)
        _announce(locked, locked.table)
    return locked


def void_game(*, game, user=None):
    """A game scored by its players that is not confirmed (disputed, and the admins do not
    uphold it) is set aside: abandoned, its seats' outcomes cleared; it never counts."""
    with transaction.atomic():
        locked = _lock(game)
        if locked.status != GameStatus.UNCONFIRMED:
            raise GameClosed(_("This game is not awaiting confirmation."))
        Seat.objects.filter(game=locked).update(outcome="", score=None, stats={})
        locked.status = GameStatus.ABANDONED
        locked.result = None
        locked.save(update_fields=["status", "result"])
        _announce(locked, locked.table)
    return locked


def _closed(game):
    """The game has left its table (finished or abandoned): the hooks, the screens."""
    for hook in _CLOSED_HOOKS:
        hook(game)
    _announce(game, game.table)


def abandon_game(*, game, user, expected_seq=None):
    """Stops a game in progress without a result; its table becomes free."""
    with transaction.atomic():
        locked = _lock(game)
        _check_open(locked, expected_seq)
        locked.status = GameStatus.ABANDONED
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "finished_at"])
        _closed(locked)
    return locked


def _check_open(game, expected_seq):
    if game.status != GameStatus.IN_PROGRESS:
        raise GameClosed
    if expected_seq is not None and expected_seq != game.last_seq:
        raise StaleEvent


def rematch(*, game, marker):
    """A new game on the same table with the same players (same order) and settings.

    Refused (ValidationError) while the table has a game in progress, this one included.
    """
    seats = [seat.player or seat.guest_name for seat in selectors.seats_of(game)]
    return start_game(
        table=game.table,
        variant=game.variant,
        settings=game.settings,
        seats=seats,
        marker=marker,
        rematch_of=game,
    )


def reopen_game(*, game, user):
    """Takes back the finishing of a game: it is in progress again, its result cleared, so
    that the marker can undo its last strokes (a match's last frame recorded wrongly).

    Refused (GameError) unless the game is finished and its table has no game in progress.
    """
    with transaction.atomic():
        locked = _lock(game)
        if locked.status != GameStatus.FINISHED:
            raise GameError
        Table.objects.select_for_update().filter(pk=locked.table_id).first()
        if Game.objects.filter(table=locked.table_id, status=GameStatus.IN_PROGRESS).exists():
            raise GameError(BUSY_TABLE)
        Seat.objects.filter(game=locked).update(outcome="", score=None, stats={})
        locked.status = GameStatus.IN_PROGRESS
        locked.finished_at = None
        locked.result = None
        locked.save(update_fields=["status", "finished_at", "result"])
        for hook in _REOPENED_HOOKS:
            hook(locked)
        _announce(locked, locked.table)
    return locked
