"""What the API answers with, field by field: the allow-list of what leaves the site.

Every field here is on a public page already (the boards, the game page, the player page,
the leaderboards, a tournament's page). ``tests/api/test_schema.py`` walks the OpenAPI
schema and fails on any field not listed there, so a field added here is a decision, and a
private one (phone, e-mail, notes, bills, staff, users) cannot slip in through a model.
"""

from datetime import date, datetime

from ninja import Schema


class Error(Schema):
    detail: str


class ValidationProblem(Schema):
    detail: str
    errors: list[str]


class Figure(Schema):
    label: str
    value: str


# --- the network's clubs ---------------------------------------------------------------------


class ClubRef(Schema):
    """The club a table, a game or a tournament belongs to."""

    slug: str
    name: str
    city: str
    time_zone: str
    url: str  # its home page at its first host name ("/" for a club without host names)


class Club(ClubRef):
    address: str
    hosts: list[str]
    tables: int  # its active tables
    live_games: int  # its games in progress now


# --- tables and their live games -------------------------------------------------------------


class LiveSeat(Schema):
    position: int
    name: str
    score: int
    to_play: bool
    winner: bool
    role: str


class TournamentRef(Schema):
    id: int
    name: str


class LiveMatch(Schema):
    id: int
    race_to: int
    frame: int
    frames: list[int]  # frames won, in the seats' order
    finished: bool
    tournament: TournamentRef | None


class LiveGame(Schema):
    id: int
    variant: str
    variant_name: str
    status: str
    finished: bool
    last_seq: int
    target: int | None
    score_caption: str
    seats: list[LiveSeat]
    key_figure: Figure | None
    last_event: str
    handicap: str
    result: str
    # The last stroke is being checked («спорный момент»): no result or winner meanwhile.
    disputed: bool
    match: LiveMatch | None


class Table(Schema):
    number: int
    name: str
    kind: str
    kind_name: str
    status: str
    status_name: str
    club: ClubRef


class TableLive(Table):
    fingerprint: str
    live: LiveGame | None


# --- games ------------------------------------------------------------------------------------


class Seat(Schema):
    position: int
    name: str
    player_id: int | None
    score: int | None
    outcome: str


class Game(Schema):
    id: int
    variant: str
    variant_name: str
    table: int
    status: str
    started_at: datetime
    finished_at: datetime | None
    match_id: int | None
    seats: list[Seat]
    club: ClubRef


class Result(Schema):
    winners: list[int]  # seat positions (1-based)
    draw: str


class State(Schema):
    scores: list[int]
    to_play: int | None  # seat position (1-based); None once the game is over
    finished: bool
    figures: list[Figure]


class Event(Schema):
    seq: int
    kind: str
    fouls: list[str]
    ball: int | None
    pocket: str | None
    count: int | None
    balls: list[int]
    recorded_at: datetime | None  # when it reached the server
    tapped_at: datetime | None  # when the marker tapped it (earlier when sent from offline)
    description: str
    undone: bool
    state: State


class GameDetail(Game):
    settings: list[Figure]
    result: Result | None
    events: list[Event]
    replay_error: str


# --- players, records, ratings ----------------------------------------------------------------


class Player(Schema):
    id: int
    name: str
    full_name: str
    nickname: str
    skill_class: str
    skill_class_name: str


class RecordFigure(Schema):
    key: str
    label: str
    value: float | None


class Record(Schema):
    variant: str
    variant_name: str
    games: int
    wins: int
    losses: int
    draws: int
    win_percentage: float | None
    figures: list[RecordFigure]


class PlayerRating(Schema):
    family: str
    family_name: str
    rating: int
    games: int


class PlayerDetail(Player):
    records: list[Record]
    ratings: list[PlayerRating]


class RatingFamily(Schema):
    family: str
    family_name: str
    variants: list[str]


class RatingRow(Schema):
    rank: int
    player_id: int
    name: str
    rating: int
    games: int


# --- tournaments and matches ------------------------------------------------------------------


class Tournament(Schema):
    id: int
    name: str
    date: date
    variant: str
    variant_name: str
    format: str
    format_name: str
    status: str
    status_name: str
    club: ClubRef


class Entrant(Schema):
    seed: int
    name: str
    player_id: int | None
    withdrawn: bool


class TournamentMatch(Schema):
    key: str
    number: int
    stage: str
    bracket: str
    round: int
    status: str
    seed_a: int | None
    seed_b: int | None
    name_a: str
    name_b: str
    score_a: int | None
    score_b: int | None
    winner: str
    result_kind: str
    table: int | None
    match_id: int | None
    started_at: datetime | None
    finished_at: datetime | None


class Standing(Schema):
    rank: int
    seed: int
    name: str
    played: int
    wins: int
    losses: int
    frames_won: int
    frames_lost: int
    frame_difference: int


class Group(Schema):
    number: int
    standings: list[Standing]


class Place(Schema):
    place: str
    seed: int
    name: str


class TournamentDetail(Tournament):
    rules: str
    entrants: list[Entrant]
    matches: list[TournamentMatch]
    groups: list[Group]
    places: list[Place]
    champion: str | None


class Frame(Schema):
    number: int
    game_id: int
    breaker: str
    status: str
    winner: str


class Match(Schema):
    id: int
    variant: str
    variant_name: str
    name_a: str
    name_b: str
    player_a_id: int | None
    player_b_id: int | None
    race_to: int
    head_start_a: int
    head_start_b: int
    status: str
    score_a: int
    score_b: int
    winner: str
    result_kind: str
    table: int | None
    tournament: TournamentRef | None
    started_at: datetime
    finished_at: datetime | None
    frames: list[Frame]


# --- pages of a list --------------------------------------------------------------------------


class Page(Schema):
    count: int  # how many in all
    limit: int
    offset: int


class ClubPage(Page):
    items: list[Club]


class TablePage(Page):
    items: list[Table]


class GamePage(Page):
    items: list[Game]


class PlayerPage(Page):
    items: list[Player]


class RatingPage(Page):
    items: list[RatingRow]


class TournamentPage(Page):
    items: list[Tournament]
