"""What a board shows of a game: seats, scores, the game's panel, the ticker, the banner.

``game_board(game)`` reads the game's replay as the console does (``selectors.replayed``:
the replay cached on the game row, else the stored events) and returns a ``GameBoard`` that
the table board and the club wall's tiles render (``boards/templates/boards/``). What is
particular to each game comes from its presentation (``games.presentation``).
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games import selectors
from games.i18n import render_message
from games.models import Game, GameStatus
from games.presentation import presentation_of

TICKER_LENGTH = 5  # newest events shown at the bottom of the table board


@dataclass
class SeatView:
    index: int
    name: str
    score: int
    turn: bool = False
    winner: bool = False  # the game's one winner, or one of several who share the win
    drawn: bool = False  # one of the seats that share a draw (tagged so, never "winner")
    figures: list = field(default_factory=list)  # (label, value) pairs under the score
    role: str = ""  # what the seat plays with, when seats have roles (cue / hand)


@dataclass
class GameBoard:
    game: Game
    variant_key: str
    variant_name: str
    state: object
    seats: list
    ticker: list
    finished: bool
    banner: str = ""
    decided: bool = False  # the result is known while the game is still being played
    target: int | None = None
    panel: dict = field(default_factory=dict)
    score_caption: str = ""
    panel_template: str = ""  # "<template>#panel" of the game's presentation, or ""
    tile_template: str = ""  # "<template>#tile"
    # The last stroke is being checked («спорный момент»): its log line. Meanwhile the scores
    # are dimmed and no result, winner or banner is shown.
    disputed: str = ""


def _banner(result, names, shown):
    if result is None:
        return ""
    winners = [names[i] for i in result.winners if 0 <= i < len(names)]
    if result.draw == "normal":
        return str(shown.normal_draw)
    if result.draw == "conditional":  # «Кладка шаров кием»: equal totals, not all 16 in 16
        return _("Conditional draw: %(names)s") % {"names": ", ".join(winners)}
    if result.draw:
        return _("Draw: %(names)s") % {"names": ", ".join(winners)}
    if len(winners) == 1:
        return _("Winner: %(name)s") % {"name": winners[0]}
    return _("Winners: %(names)s") % {"names": ", ".join(winners)}


def game_board(game):
    """Everything a board shows of ``game``, from its replay."""
    variant = selectors.variant_of(game)
    shown = presentation_of(variant.key)
    replayed = selectors.replayed(game)
    state = replayed.state
    names = [seat.name for seat in selectors.seats_of(game)]
    names += [str(i + 1) for i in range(len(names), state.seats)]  # never index past the list
    finished = state.finished or game.status == GameStatus.FINISHED
    checked = replayed.disputed if game.status == GameStatus.IN_PROGRESS else None
    result = None if checked else shown.result(state)
    winners = set(result.winners) if result else set()
    draw = bool(result and result.draw)
    seats = [
        SeatView(
            index=i,
            name=names[i],
            score=shown.board_score(state, i),
            turn=not finished and not checked and state.turn == i,
            winner=i in winners and not draw,
            drawn=i in winners and draw,
            figures=shown.board_seat_figures(state, i),
            role=shown.board_role(state, i),
        )
        for i in range(state.seats)
    ]
    latest = replayed.latest_in_force[-TICKER_LENGTH:]
    ticker = [render_message(entry.description, names) for entry in reversed(latest)]
    template = shown.board_template
    return GameBoard(
        game=game,
        variant_key=variant.key,
        variant_name=render_message(variant.name),
        state=state,
        seats=seats,
        ticker=ticker,
        finished=finished and not checked,
        banner=_banner(result, names, shown) if finished or result else "",
        disputed=render_message(checked.description, names) if checked else "",
        decided=result is not None and not finished,
        target=shown.target(state.settings),
        panel=shown.board_panel(state, names),
        score_caption=shown.board_score_caption(state),
        panel_template=f"{template}#panel" if template else "",
        tile_template=f"{template}#tile" if template else "",
    )


def wall_grid(count):
    """(columns, rows) that fit ``count`` tiles on one 16:9 screen; 12 tables take 4 × 3."""
    for columns, rows in [(1, 1), (2, 1), (3, 1), (2, 2), (3, 2), (4, 2), (3, 3), (4, 3)]:
        if count <= columns * rows:
            return columns, rows
    columns = 5 if count <= 20 else 6
    return columns, -(-count // columns)
