"""What the API answers with, field by field: the allow-list of what leaves the site.

Every field here is on a public page already (the boards, the game page, the player page,
the leaderboards, a tournament's page). ``tests/api/test_schema.py`` walks the OpenAPI
schema and fails on any field not listed there, so a field added here is a decision, and a
private one (phone, e-mail, notes, bills, staff, users) cannot slip in through a model.
"""

from datetime import date, datetime

from ninja import Field, Schema


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


class TournamentAtClub(TournamentRef):
    """A tournament named with its club: a network's series has stages at several clubs, and
    a tournament's own answer is found at its club's address only."""

    club: ClubRef


class MatchOdds(Schema):
    """A match's odds from the two ratings (Glicko-2) as it started, each frame on its own:
    the first side's chances — player A's in a match's answer, seat 1's in a live game's (the
    order of its ``frames``) — of one frame, of the race before it and now from the frame
    score; the fair race: the head start in frames that brings it closest to even, which
    side receives it (1: the first, 2: the second; null: none) and the first side's chance
    with it; whose rating is provisional (too few games: uncertain odds), in the same order.
    """

    frame: float
    race: float
    race_now: float
    fair_head_start: int
    fair_receiver: int | None
    fair_probability: float
    provisional: list[bool]


class LiveMatch(Schema):
    id: int
    race_to: int
    frame: int
    frames: list[int]  # frames won, in the seats' order
    finished: bool
    tournament: TournamentRef | None
    odds: MatchOdds | None  # null: decided without play


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
    deviation: int = Field(description="± how sure the rating is (Glicko-2's deviation), today")
    provisional: bool = Field(description="Too few games or too uncertain to rank")
    games: int


class Performance(Schema):
    performance: int = Field(
        description="The rating that would have predicted the results: against each "
        "opponent's rating before the game (a handicap game as its handicap made it)"
    )
    error: int = Field(description="± its standard error")
    games: int = Field(description="Rated games counted")
    results: int = Field(description="Results counted: one per other player of each game")
    score: float = Field(description="Points made: 1 a win, 0.5 a draw")
    rating_before: int = Field(description="The rating going in (before the first game)")
    deviation_before: int


class PlayerPerformance(Performance):
    family: str
    family_name: str
    month: str | None = Field(
        description="YYYY-MM, the month in the club's time zone; null for a tournament"
    )
    tournament: TournamentAtClub | None = Field(
        description="The club's tournament; null for a month"
    )


class PlayerDetail(Player):
    records: list[Record]
    ratings: list[PlayerRating]
    performances: list[PlayerPerformance] = Field(
        description="His performance in each of his last months of each family, then in "
        "each of his tournaments at the club"
    )


class RatingFamily(Schema):
    family: str
    family_name: str
    variants: list[str]


class RatingRow(Schema):
    rank: int | None = Field(
        description="The place; null for a provisional rating, listed below the ranked "
        "(unless the club ranks provisional ratings)"
    )
    player_id: int
    name: str
    rating: int
    deviation: int
    provisional: bool
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
    performance: Performance | None = Field(
        description="Over the entrant's frames here (null: none yet, or a guest)"
    )


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
    performance: Performance | None


class TournamentDetail(Tournament):
    rules: str
    entrants: list[Entrant]
    matches: list[TournamentMatch]
    groups: list[Group]
    places: list[Place]
    champion: str | None


# --- series and cups (season) ----------------------------------------------------------------


class Series(Schema):
    id: int
    name: str
    season: str
    club: ClubRef | None  # None: the network's series
    finished: bool
    final_size: int
    stage_count: int


class SeriesStage(Schema):
    number: int
    tournament: TournamentAtClub
    points_table: str
    value: float
    finished: bool
    is_final: bool


class SeriesResult(Schema):
    stage: int
    points: float
    counted: bool


class SeriesLine(Schema):
    place: int
    player_id: int
    name: str
    points: float
    finalist: bool
    wildcard: bool
    results: list[SeriesResult]
    final_place: list[int] | None = Field(
        None, description="The places (best, worst) reached in the series' final, once over"
    )


class SeriesDetail(Series):
    best_n: int | None
    per_month: int | None
    best_months: int | None
    tie_breaks: list[str]
    wildcards: list[str]
    stages: list[SeriesStage]
    standings: list[SeriesLine]


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
    tournament: TournamentAtClub | None
    club: ClubRef
    started_at: datetime
    finished_at: datetime | None
    frames: list[Frame]
    odds: MatchOdds | None  # player A's chances; null: decided without play


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


class SeriesPage(Page):
    items: list[Series]


class TournamentPage(Page):
    items: list[Tournament]


# --- team leagues (issue 35): what a league shows the public; never a line-up before both
# are locked (a match day's games, with their players, exist only once both are) ---------


class League(Schema):
    id: int
    name: str
    variant: str
    variant_name: str
    club: ClubRef | None  # None: the network's league (its teams at their home clubs)


class LeagueStanding(Schema):
    place: int
    team: str
    played: int
    won: int
    drawn: int
    lost: int
    frames_won: int
    frames_lost: int
    points: int


class LeagueDivision(Schema):
    name: str
    standings: list[LeagueStanding]


class LeagueGame(Schema):
    order: int
    race_to: int
    doubles: bool
    home: list[str] = Field(description="The home player's name, or the home pair's two")
    away: list[str]
    home_frames: int
    away_frames: int
    status: str = Field(description="waiting, scored (awaiting confirmation) or confirmed")


class LeagueFixture(Schema):
    round: int
    date: date
    division: str
    home: str
    away: str
    status: str
    home_frames: int | None = Field(description="Games won; null until the match day is over")
    away_frames: int | None
    forfeit_by: str | None
    club: ClubRef = Field(description="Where it is played: the home team's club")
    games: list[LeagueGame] = Field(
        description="Its games once both line-ups are locked (empty before)"
    )


class LeagueDetail(League):
    season: str | None
    points: list[int] = Field(description="For a win, a draw, a loss")
    frame_points: int
    tie_breaks: list[str]
    divisions: list[LeagueDivision]
    fixtures: list[LeagueFixture]


class LeaguePage(Page):
    items: list[League]
