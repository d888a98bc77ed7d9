"""The leagues' pages: the list (with the match days played at this club), a league's
standings and fixtures, its TV board (the tables, the last results, the next match days), a
match day (with its captains' forms: the line-up saved as a draft and locked blind, a game
scored and confirmed, a new date), its TV board (at its club); the desk's: a league, its
season and teams, the fixtures (the league's editors: a club's tournament admins, the
network's admins for the network's league), a forfeit and a match day's table (the desk of the
club where it is played)."""

import functools

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from boards.fragments import page_options
from leagues import selectors, services
from leagues.forms import DateForm, LeagueForm, LineUpForm, ScoreForm, SeasonForm, TeamForm
from leagues.models import CapKind, League, MatchDay, MatchDayGame, MatchDayStatus
from players.selectors import player_of
from toolbox.parsing import parse_id
from toolbox.responses import page_or_partial
from toolbox.roles import (
    can_manage_tournaments,
    can_merge_people,
    cashier_required,
    player_required,
)

LIST = "leagues/list.html"
DETAIL = "leagues/detail.html"
DAY = "leagues/match_day.html"
BOARD = "leagues/board.html"
LEAGUE_BOARD = "leagues/league_board.html"
EDIT = "leagues/edit.html"
MANAGE = "leagues/manage.html"
DAY_RELATED = ("home", "away", "season__league", "division", "table", "club", "reservation__table")


def _league(pk):
    return get_object_or_404(League, pk=pk)


def _match_day(pk):
    """A match day of a league shown here (the network's are shown at every club)."""
    return get_object_or_404(MatchDay.objects.select_related(*DAY_RELATED), pk=pk)


def _hosted_match_day(pk):
    """A match day played at this club: another club's is not found (its desk is there)."""
    return get_object_or_404(MatchDay.hosted.select_related(*DAY_RELATED), pk=pk)


def _may_run_desk(user, league):
    """The league's manage page: its editors, and the desk that books its tables here."""
    return selectors.can_edit(user, league) or selectors.can_book(user)


@require_GET
def league_list(request):
    leagues = list(selectors.leagues())
    for league in leagues:
        league.may_run = _may_run_desk(request.user, league)
    context = {
        "leagues": leagues,
        "days_here": selectors.match_days_here(),
        "can_create": selectors.may_create(request.user),
    }
    return render(request, LIST, context)


@require_GET
def detail(request, pk):
    league = _league(pk)
    season = selectors.current_season(league)
    context = {
        "league": league,
        "season": season,
        "tables": selectors.divisions_with_tables(season),
        "fixtures": selectors.fixture_list(season),
        "can_manage": _may_run_desk(request.user, league),
    }
    return render(request, DETAIL, context)


@require_GET
def league_board(request, pk):
    """The TV board of a league's standings (1920×1080, read from 5 m): each division's
    table, the last results, the next match days; htmx asks again every 15 s."""
    league = _league(pk)
    season = selectors.current_season(league)
    tables = selectors.divisions_with_tables(season)
    context = {
        "league": league,
        "season": season,
        "tables": tables,
        # The lines the tables take (a division's title and head, its teams): the type is
        # set to fit them all on the screen.
        "rows": sum(len(table) + 2 for _division, table in tables) or 1,
        "results": selectors.last_results(season),
        "upcoming": selectors.next_match_days(season),
    }
    context |= page_options(request)
    return render(request, page_or_partial(request, LEAGUE_BOARD, "board"), context)


def _day_context(request, match_day, **extra):
    player = player_of(request.user)
    team = services.captains_team(match_day, player)
    games = selectors.games_of(match_day)
    league = match_day.season.league
    context = {
        "day": match_day,
        "league": league,
        "sides": selectors.sides(match_day, team),
        "games": games,
        "score": selectors.score(match_day, games),
        "team": team,
        "is_home": team is not None and team.pk == match_day.home_id,
        "is_away": team is not None and team.pk == match_day.away_id,
        "here": selectors.played_here(match_day),
        "home_url": match_day.club.home_url(request),
        "can_manage": selectors.can_forfeit(request.user, match_day),
        "can_book": selectors.played_here(match_day) and selectors.can_book(request.user),
    }
    if team is not None and match_day.status == MatchDayStatus.SCHEDULED:
        mine = next(side for side in context["sides"] if side.team.pk == team.pk)
        context["mine"] = mine
        if mine.line_up is None or mine.line_up.locked_at is None:
            draft = mine.line_up.players if mine.line_up is not None else ()
            context["line_up_form"] = LineUpForm(team=team, league=league, draft=draft, prefix="lu")
    if team is not None and not match_day.done:
        context["date_form"] = DateForm(prefix="date")
    return context | extra


@require_GET
def match_day(request, pk):
    day = _match_day(pk)
    return render(request, page_or_partial(request, DAY, "day"), _day_context(request, day))


@require_GET
def board(request, pk):
    """The TV board of a match day, on its club's TV: the games, the team score; htmx asks
    again every 5 s."""
    day = _hosted_match_day(pk)
    games = selectors.games_of(day)
    context = {
        "day": day,
        "league": day.season.league,
        "games": games,
        "score": selectors.score(day, games),
        "sides": selectors.sides(day, None),
    } | page_options(request)
    return render(request, page_or_partial(request, BOARD, "board"), context)


def _captain(request, match_day):
    team = services.captains_team(match_day, player_of(request.user))
    if team is None:
        raise PermissionDenied
    return team


def _refused(request, match_day, error, **forms):
    """The match day page again, with what was refused: 400, nothing changed."""
    context = _day_context(request, match_day, error=error.message, **forms)
    return render(request, DAY, context, status=400)


def _line_up_post(request, pk, write):
    """A captain's line-up posted: ``write`` (the service) with its entries; the page again
    with what was refused (400, nothing changed)."""
    day = _match_day(pk)
    team = _captain(request, day)
    form = LineUpForm(request.POST, team=team, league=day.season.league, prefix="lu")
    if not form.is_valid():
        return None, render(request, DAY, _day_context(request, day, line_up_form=form), status=400)
    try:
        line_up = write(match_day=day, team=team, player_ids=form.player_ids())
    except services.LeagueError as error:
        return None, _refused(request, day, error, line_up_form=form)
    return line_up, redirect("leagues:match_day", day.pk)


@player_required
@require_POST
def save_line_up(request, pk):
    """The captain's draft: saved, hidden from everyone else, the cap's numbers said."""
    line_up, answer = _line_up_post(request, pk, services.save_line_up)
    if line_up is None:
        return answer
    league = line_up.match_day.season.league
    numbers = services.cap_numbers(line_up.cap_total, league)
    if services.over_cap(league, line_up.cap_total):
        messages.warning(
            request,
            _(
                "Draft saved, not locked: it sums %(total)s > the cap %(limit)s, "
                "change it before you lock it."
            )
            % numbers,
        )
    elif league.cap_kind != CapKind.NONE:
        messages.success(
            request,
            _("Draft saved, not locked: it sums %(total)s of the cap %(limit)s.") % numbers,
        )
    else:
        messages.success(request, _("Draft saved, not locked: only you see it."))
    return answer


@player_required
@require_POST
def lock_line_up(request, pk):
    line_up, answer = _line_up_post(request, pk, services.lock_line_up)
    if line_up is not None:
        messages.success(request, _("Your line-up is locked."))
    return answer


def _game(day, game_pk):
    return get_object_or_404(MatchDayGame, pk=game_pk, match_day=day)


@player_required
@require_POST
def score_game(request, pk, game_pk):
    day = _match_day(pk)
    team = _captain(request, day)
    game = _game(day, game_pk)
    form = ScoreForm(request.POST)
    if not form.is_valid():
        return _refused(request, day, services.LeagueError(_("Enter the frames of both players.")))
    try:
        services.score_game(game=game, team=team, **form.cleaned_data)
    except services.LeagueError as error:
        return _refused(request, day, error)
    return redirect("leagues:match_day", day.pk)


def _captains_write(request, pk, write):
    """A captain's post that carries nothing to check: ``write(day, team)``, then the day's
    page again (400 with the reason when refused)."""
    day = _match_day(pk)
    team = _captain(request, day)
    try:
        write(day, team)
    except services.LeagueError as error:
        return _refused(request, day, error)
    return redirect("leagues:match_day", day.pk)


@player_required
@require_POST
def confirm_game(request, pk, game_pk):
    return _captains_write(
        request,
        pk,
        lambda day, team: services.confirm_game(game=_game(day, game_pk), team=team),
    )


@player_required
@require_POST
def propose_date(request, pk):
    day = _match_day(pk)
    team = _captain(request, day)
    form = DateForm(request.POST, prefix="date")
    if not form.is_valid():
        return render(request, DAY, _day_context(request, day, date_form=form), status=400)
    try:
        services.propose_date(match_day=day, team=team, date=form.cleaned_data["date"])
    except services.LeagueError as error:
        return _refused(request, day, error)
    return redirect("leagues:match_day", day.pk)


@player_required
@require_POST
def accept_date(request, pk):
    return _captains_write(
        request,
        pk,
        lambda day, team: services.accept_date(match_day=day, team=team, user=request.user),
    )


# --- the desk -------------------------------------------------------------------------------


def _signed_in(view):
    """An anonymous visitor goes to the sign-in page (and comes back)."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapped


def league_editor(view):
    """The view gets the league ``pk`` if the user may edit it (a club's league: its club's
    tournament admins; the network's: the network's admins); else 403, or the sign-in page;
    a league not shown here is 404."""

    @_signed_in
    @functools.wraps(view)
    def wrapped(request, pk, *args, **kwargs):
        league = _league(pk)
        if not selectors.can_edit(request.user, league):
            raise PermissionDenied
        return view(request, league, *args, **kwargs)

    return wrapped


@_signed_in
@require_http_methods(["GET", "POST"])
def new(request):
    if not selectors.may_create(request.user):
        raise PermissionDenied
    network_admin = can_merge_people(request.user)
    club_admin = can_manage_tournaments(request.user)
    form = LeagueForm(request.POST or None, may_be_network=network_admin and club_admin)
    if request.method == "POST" and form.is_valid():
        league = form.save(network=form.cleaned_data.get("network", False) or not club_admin)
        messages.success(request, _("The league is created: add its season and teams."))
        return redirect("leagues:manage", league.pk)
    return render(request, EDIT, {"form": form}, status=400 if form.is_bound else 200)


def _manage_context(request, league, **forms):
    season = selectors.current_season(league)
    editor = selectors.can_edit(request.user, league)
    return {
        "league": league,
        "season": season,
        "editor": editor,
        "season_form": SeasonForm(prefix="season"),
        "team_form": TeamForm(league=league, prefix="team") if season and editor else None,
        "teams": (
            list(season.teams.select_related("division", "captain", "home_club")) if season else []
        ),
        "fixtures": selectors.fixture_list(season),
        "desk_days": selectors.desk_days(season) if selectors.can_book(request.user) else None,
    } | forms


@_signed_in
@require_GET
def manage(request, pk):
    """The league's desk: its editors' (the season, the teams, the fixtures) and, for the
    desk of this club, the tables of the match days played here."""
    league = _league(pk)
    if not _may_run_desk(request.user, league):
        raise PermissionDenied
    return render(request, MANAGE, _manage_context(request, league))


@require_POST
@league_editor
def add_season(request, league):
    form = SeasonForm(request.POST, prefix="season")
    if not form.is_valid():
        context = _manage_context(request, league, season_form=form)
        return render(request, MANAGE, context, status=400)
    season = form.save(commit=False)
    season.league = league
    season.save()
    return redirect("leagues:manage", league.pk)


@require_POST
@league_editor
def add_team(request, league):
    season = selectors.current_season(league)
    if season is None:
        raise Http404("the league has no season")
    form = TeamForm(request.POST, league=league, prefix="team")
    if not form.is_valid():
        context = _manage_context(request, league, team_form=form)
        return render(request, MANAGE, context, status=400)
    form.save(season)
    return redirect("leagues:manage", league.pk)


@require_POST
@league_editor
def generate(request, league):
    season = selectors.current_season(league)
    if season is None:
        raise Http404("the league has no season")
    try:
        services.generate_fixtures(season=season, user=request.user)
    except services.LeagueError as error:
        context = _manage_context(request, league, error=error.message)
        return render(request, MANAGE, context, status=400)
    return redirect("leagues:detail", league.pk)


@_signed_in
@require_POST
def forfeit(request, pk, team_pk):
    day = _hosted_match_day(pk)
    if not selectors.can_forfeit(request.user, day):
        raise PermissionDenied
    team = {day.home_id: day.home, day.away_id: day.away}.get(team_pk)
    if team is None:
        raise Http404("not a team of this match day")
    try:
        services.forfeit(match_day=day, team=team, user=request.user)
    except services.LeagueError as error:
        return _refused(request, day, error)
    return redirect("leagues:match_day", day.pk)


@cashier_required
@require_POST
def pick_table(request, pk):
    """The desk of the club where the match day is played books it a table by hand."""
    day = _hosted_match_day(pk)
    league = day.season.league
    table_id = parse_id(request.POST.get("table", ""))
    try:
        if table_id is None:
            raise services.LeagueError(_("Choose a table of this club."))
        services.pick_table(match_day=day, table_id=table_id, user=request.user)
    except services.LeagueError as error:
        context = _manage_context(request, league, error=error.message)
        return render(request, MANAGE, context, status=400)
    messages.success(request, _("The table is booked for the match day."))
    return redirect(f"{reverse('leagues:manage', args=[league.pk])}#tables")
