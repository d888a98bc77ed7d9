"""Tournaments (issue 11, items 2–5 and 7): created and run by an admin, matches called to
free tables, results advancing the bracket, the public page, the TV board, the CSV protocol,
the player pages, the demo."""

import csv
import datetime as dt
import io
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import rules
from games import selectors as game_selectors
from games import services as game_services
from games.models import Game
from players.models import Player
from records import rating
from toolbox.csv_export import formula_safe
from tournaments import selectors, services
from tournaments.models import Match, MatchStatus, Tournament
from tournaments.simulate import play_frame


def make_tournament(fmt="single", n=4, prefix="Игрок", **fields):
    fields = {"variant": "clockwise"} | fields
    tournament = Tournament.objects.create(name="Кубок", date="2026-12-03", format=fmt, **fields)
    players = [Player.objects.create(full_name=f"{prefix} {i:02d}") for i in range(1, n + 1)]
    for player in players:
        services.add_entrant(tournament=tournament, player=player)
    return tournament, players


def start(tournament, method="manual"):
    entrants = list(tournament.entrants.order_by("pk"))
    return services.start_tournament(
        tournament=tournament, method=method, manual=[e.pk for e in entrants]
    )


def play_match(match, winner, marker=None):
    """Plays every frame of a tournament match for ``winner`` through the one-tap flow."""
    while True:
        frame = selectors.current_frame(match)
        game = play_frame(frame.game, 0 if frame.breaker == winner else 1, user=marker)
        match, following = services.finish_frame_and_continue(
            game=game, expected_seq=game.last_seq, marker=marker
        )
        if following is None:
            return match


def item(tournament, key):
    tournament.refresh_from_db()
    return selectors.tournament_view(tournament).by_key[key]


def test_admin_creates_a_tournament_and_only_admins_may(client, admin_client, plain_user):
    data = {
        "name": "Кубок декабря",
        "date": "2026-12-03",
        "variant": "clockwise",
        "format": "double",
        "groups": 1,
        "advance": 0,
        "race_upper": 3,
        "race_lower": 2,
        "race_final": 4,
        "race_group": 2,
        "break_rule": "alternate",
        "handicap": "none",
        "head_start": 1,
        "s_points_per_ball": "one",
        "s_foul_penalty": "fixed",
        "s_foul_penalty_points": 3,
        "rules": "",
    }
    form = admin_client.get(reverse("tournaments:new")).content.decode()
    assert 'name="s_foul_penalty_points"' in form and 'name="handicap"' in form
    response = admin_client.post(reverse("tournaments:new"), data)
    tournament = Tournament.objects.get()
    assert response.url == reverse("tournaments:manage", args=[tournament.pk])
    assert (tournament.race_upper, tournament.race_lower, tournament.race_final) == (3, 2, 4)
    assert tournament.settings == {
        "points_per_ball": "one",
        "foul_penalty": "fixed",
        "foul_penalty_points": 3,
        "breaker_continues": False,
    }
    bad = admin_client.post(reverse("tournaments:new"), {**data, "s_foul_penalty_points": 121})
    assert bad.status_code == 400 and Tournament.objects.count() == 1
    bad = admin_client.post(reverse("tournaments:new"), {**data, "handicap": "both"})
    assert bad.status_code == 400 and Tournament.objects.count() == 1
    bad = admin_client.post(reverse("tournaments:new"), {**data, "race_final": 16})
    assert bad.status_code == 400 and Tournament.objects.count() == 1
    bad = admin_client.post(reverse("tournaments:new"), {**data, "variant": "cork"})
    assert bad.status_code == 400
    other = Client()
    assert other.get(reverse("tournaments:new")).status_code == 302
    other.force_login(plain_user)
    assert other.get(reverse("tournaments:new")).status_code == 403
    assert other.get(reverse("tournaments:manage", args=[tournament.pk])).status_code == 403
    url = reverse("tournaments:add_entrant", args=[tournament.pk])
    assert other.post(url, {"guest_name": "X"}).status_code == 403
    assert other.get(reverse("tournaments:detail", args=[tournament.pk])).status_code == 200


@pytest.mark.parametrize(
    "handicap, b_rating, expected, head_starts",
    [
        # No handicap: the settings as set, for player A.
        ("none", 1700, {"weaker_seat": "1", "head_start": 2}, (0, 0)),
        # The game's handicap: written for the stronger in seat 1; B is the stronger here.
        ("game", 1700, {"weaker_seat": "0", "head_start": 2}, (0, 0)),
        ("game", 1400, {"weaker_seat": "1", "head_start": 2}, (0, 0)),
        # A head start in frames: the weaker gets it, never the whole race (3: at most 2).
        ("head_start", 1700, {"weaker_seat": "1", "head_start": 2}, (2, 0)),
        ("head_start", 1400, {"weaker_seat": "1", "head_start": 2}, (0, 2)),
        ("head_start", None, {"weaker_seat": "1", "head_start": 2}, (0, 0)),  # equal ratings
    ],
)
def test_the_tournament_handicap_carries_into_its_matches_and_frames(
    monkeypatch, tables, handicap, b_rating, expected, head_starts
):
    tournament, players = make_tournament(
        n=4, variant="pyramid_free", handicap=handicap, head_start=5, race_upper=3
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        settings={"foul_model": "modern", "weaker_seat": "1", "head_start": 2, "returned_pots": 0}
    )
    tournament.refresh_from_db()
    start(tournament)  # seeds in entry order: U1.1 is seed 1 (A) against seed 4 (B)
    fixed = {} if b_rating is None else {players[3].pk: b_rating}
    monkeypatch.setattr(rating, "ratings_for", lambda variant: rating.Ratings("x", fixed))
    match = services.start_tournament_match(
        tournament=tournament, key="U1.1", table=tables[0], marker=None
    )
    assert match.name_b == players[3].full_name
    assert {k: match.settings[k] for k in expected} == expected
    assert (match.head_start_a, match.head_start_b) == head_starts
    game = selectors.current_frame(match).game  # A breaks: the frame has the match's settings
    assert (game.settings["weaker_seat"], game.settings["head_start"]) == (
        int(expected["weaker_seat"]),
        2,
    )


def test_entrants_and_seeding_by_hand_then_the_queue(admin_client, tables):
    tournament, players = make_tournament(n=3)
    url = reverse("tournaments:add_entrant", args=[tournament.pk])
    admin_client.post(url, {"guest_name": "Гость Гостев"})
    admin_client.post(url, {"player": players[0].pk})  # already entered: refused
    assert tournament.entrants.count() == 4
    entrants = list(tournament.entrants.order_by("pk"))
    seeds = {f"seed_{e.pk}": str(4 - i) for i, e in enumerate(entrants)}
    admin_client.post(
        reverse("tournaments:start", args=[tournament.pk]), {"seeding": "manual", **seeds}
    )
    tournament.refresh_from_db()
    assert tournament.status == "running"
    assert [e.seed for e in tournament.entrants.order_by("pk")] == [4, 3, 2, 1]
    page = admin_client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    # Both semi-finals are offered to the free tables.
    assert page.count("data-offer") == 2
    assert "Гость Гостев" in page


def test_the_desk_finds_players_on_the_roster_as_the_admin_types(admin_client):
    """A club's roster is long: the desk searches it (name or nickname), leaves out who has
    entered already and the inactive, and each player found is entered with one tap."""
    tournament, players = make_tournament(n=1)  # «Игрок 1» has entered
    petrov = Player.objects.create(full_name="Алексей Петров", nickname="Бобр")
    Player.objects.create(full_name="Пётр Петровский", is_active=False)
    manage = reverse("tournaments:manage", args=[tournament.pk])

    partial = admin_client.get(
        manage, {"q": "петр"}, headers={"HX-Request": "true", "HX-Target": "entrant-results"}
    )
    html = partial.content.decode()
    assert "<html" not in html  # the results only, for htmx to swap in
    assert f'name="player" value="{petrov.pk}"' in html and 'form="entrant-add"' in html
    assert "Петровский" not in html  # not active
    assert "Бобр" in admin_client.get(manage, {"q": "бобр"}).content.decode()  # the page
    entered = admin_client.get(
        manage, {"q": "игрок"}, headers={"HX-Request": "true", "HX-Target": "entrant-results"}
    )
    assert f'value="{players[0].pk}"' not in entered.content.decode()
    assert "Игрок" not in entered.content.decode()  # «No active player matches.»

    admin_client.post(
        reverse("tournaments:add_entrant", args=[tournament.pk]), {"player": petrov.pk}
    )  # the chip's tap
    assert list(tournament.entrants.values_list("player", flat=True)) == [players[0].pk, petrov.pk]


def test_draw_is_re_runnable_with_its_number(admin_client):
    orders = []
    for prefix in ("Первый", "Второй"):
        tournament, players = make_tournament(n=8, prefix=prefix)
        admin_client.post(
            reverse("tournaments:start", args=[tournament.pk]),
            {"seeding": "draw", "draw_seed": "777"},
        )
        tournament.refresh_from_db()
        assert tournament.draw_seed == 777
        orders.append([players.index(e.player) for e in tournament.entrants.order_by("seed")])
        page = admin_client.get(reverse("tournaments:detail", args=[tournament.pk]))
        assert "777" in page.content.decode()
    assert orders[0] == orders[1]
    assert orders[0] != list(range(8))


def test_seeding_by_rating_puts_the_best_rated_first(db):
    tournament, players = make_tournament(n=4)
    ratings = rating.ratings_for("clockwise")
    services.start_tournament(tournament=tournament, method="rating")
    order = [e.player for e in tournament.entrants.order_by("seed")]
    values = [ratings.rating(p.pk) for p in order]
    assert values == sorted(values, reverse=True)


def test_bad_start_requests_are_refused(admin_client):
    tournament, _players = make_tournament(n=2)
    url = reverse("tournaments:start", args=[tournament.pk])
    response = admin_client.post(url, {"seeding": "rating"}, follow=True)
    assert "от 3 до 128" in response.content.decode()
    assert admin_client.post(url, {"seeding": "nonsense"}).status_code == 302
    response = admin_client.post(url, {"seeding": "draw", "draw_seed": "abc"}, follow=True)
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.status == "draft"


def test_results_advance_the_bracket_and_nobody_is_double_booked(admin_client, tables, marker_user):
    tournament, players = make_tournament(n=4, race_upper=2, race_final=1)
    start(tournament)
    bracket = selectors.bracket_of(tournament)
    semis = [m.key for m in bracket.matches if m.round == 1]
    call = reverse("tournaments:call", args=[tournament.pk])
    admin_client.post(call, {"key": semis[0], "table": tables[0].pk})
    match = Match.objects.get(bracket_key=semis[0])
    assert match.table == tables[0] and match.status == MatchStatus.IN_PROGRESS
    assert match.race_to == 2
    # The marker's table page opens that match's console.
    marker = Client()
    marker.force_login(marker_user)
    page = marker.get(reverse("games:table", args=[tables[0].number]))
    assert page.url == reverse("games:console", args=[selectors.current_frame(match).game_id])
    # Its console names the tournament (with a link to it) beside the frame score.
    console = marker.get(page.url).content.decode()
    assert "0 : 0, до 2" in console
    assert f'<a href="{reverse("tournaments:detail", args=[tournament.pk])}">Кубок</a>' in console
    # The same match again, or any match on the busy table: refused.
    admin_client.post(call, {"key": semis[0], "table": tables[1].pk})
    admin_client.post(call, {"key": semis[1], "table": tables[0].pk})
    assert Match.objects.count() == 1
    admin_client.post(call, {"key": semis[1], "table": tables[1].pk})
    assert Match.objects.count() == 2
    final = bracket.match("U2.1")
    assert item(tournament, final.key).status == "waiting"
    play_match(match, "a")
    state = item(tournament, final.key)
    assert state.status == "waiting" and state.seed_a == 1  # the winner is in the final at once
    play_match(Match.objects.get(bracket_key=semis[1]), "b")
    assert item(tournament, final.key).status == "ready"
    assert item(tournament, final.key).spec.bracket == "final"
    admin_client.post(call, {"key": final.key, "table": tables[2].pk})
    final_match = Match.objects.get(bracket_key=final.key)
    assert final_match.race_to == 1  # the final's race
    play_match(final_match, "a")
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    view = selectors.tournament_view(tournament)
    assert view.state.champion == 1
    assert [label for label, _e in view.places] == ["1", "2", "3–4", "3–4"]


def test_round_robin_player_cannot_play_two_matches_at_once(admin_client, tables):
    tournament, _players = make_tournament("round_robin", n=4)
    start(tournament)
    view = selectors.tournament_view(tournament)
    first = view.items[0]
    busy = next(i for i in view.items[1:] if {i.seed_a, i.seed_b} & {first.seed_a, first.seed_b})
    services.start_tournament_match(
        tournament=tournament, key=first.spec.key, table=tables[0], marker=None
    )
    with pytest.raises(services.TournamentError):
        services.start_tournament_match(
            tournament=tournament, key=busy.spec.key, table=tables[1], marker=None
        )


def offered_keys(page):
    """The match keys the desk's free tables are offered ("Start here")."""
    forms = re.findall(r'<form[^>]*class="offer".*?</form>', page, re.S)
    return [re.search(r'name="key" value="([^"]+)"', form).group(1) for form in forms]


def test_a_free_table_is_offered_a_match_whose_players_are_free(admin_client, tables):
    """The next ready match's player is at another table (a game of the club, or another
    match of a round robin): the free table is offered the next match that can start, two
    tables never the same player, and the queue says who is playing. Before, the desk
    offered the first ready matches anyway and their "Start here" was refused."""
    tournament, players = make_tournament("round_robin", n=4)
    start(tournament)
    view = selectors.tournament_view(tournament)
    busy = players[view.items[0].seed_a - 1]  # his first match is the first of the queue
    game_services.start_game(
        table=tables[0], variant="clockwise", settings={}, seats=[busy, "Гость"], marker=None
    )
    manage = reverse("tournaments:manage", args=[tournament.pk])
    page = admin_client.get(manage).content.decode()
    offered = [view.by_key[key] for key in offered_keys(page)]
    assert len(offered) == 1  # two free tables, but the other three share a player or two
    seeds = {offered[0].seed_a, offered[0].seed_b}
    assert busy.pk not in {players[seed - 1].pk for seed in seeds}
    assert f"{busy.display_name} играет сейчас" in page
    # A match of the round robin in play keeps its two players out of the offers as well.
    services.start_tournament_match(
        tournament=tournament, key=offered[0].spec.key, table=tables[1], marker=None
    )
    page = admin_client.get(manage).content.decode()
    assert offered_keys(page) == []  # every other match has a player at a table
    assert "Игроки готовых матчей играют за другими столами." in page


def test_walkover_does_not_change_ratings_and_can_be_taken_back(admin_client, tables):
    tournament, players = make_tournament(n=4)
    start(tournament)
    key = selectors.bracket_of(tournament).matches[0].key
    admin_client.post(
        reverse("tournaments:walkover", args=[tournament.pk]), {"key": key, "winner": "b"}
    )
    match = Match.objects.get(bracket_key=key)
    assert (match.kind, match.winner, match.frames.count()) == ("walkover", "b", 0)
    assert not Game.objects.exists()
    assert rating.ratings_for("clockwise").games == {}
    assert item(tournament, key).status == "finished"
    page = Client().get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "неявка" in page
    admin_client.post(reverse("tournaments:undo", args=[tournament.pk, match.pk]))
    assert item(tournament, key).status == "ready"


def flat(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_a_walkover_shows_who_went_through_and_no_score(admin_client, tables):
    """A walkover has no frames: the pages say who did not come and who goes through
    («Неявка: A — проходит B», issue 22 item 1), never a «0 : 0» as if a match had been
    played, nor «(Неявка: B)», which read as if the winner had not come."""
    tournament, players = make_tournament(n=4)
    start(tournament)
    key = selectors.bracket_of(tournament).matches[0].key
    response = admin_client.post(
        reverse("tournaments:walkover", args=[tournament.pk]),
        {"key": key, "winner": "b"},
        follow=True,
    )
    walkover = item(tournament, key)
    absent, winner = walkover.name_a, walkover.name_b
    words = f"Неявка: {absent} — проходит {winner}"
    assert words in flat(response.content.decode().split('class="messages')[1])
    box = Client().get(reverse("tournaments:board", args=[tournament.pk])).content.decode()
    box = (
        box.split(f'data-key="{key}"')[0].rsplit("<div", 1)[1]
        + box.split(f'data-key="{key}"')[1].split("</div>")[0]
    )
    assert "неявка" in box and 'class="mbox-score">0<' not in box
    assert f'title="{words}"' in box
    assert re.search(r'mbox-side absent"><span class="mbox-name">' + absent, box)
    public = Client().get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    row = public.split('id="matches"')[1].split("</tr>")[1]
    assert "0 : 0" not in row and words in flat(row)
    desk = admin_client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    results = flat(desk.split("Результаты")[1].split("Участники")[0])
    assert "0 : 0" not in results and words in results
    assert f"(Неявка: {winner})" not in results
    match = Match.objects.get(bracket_key=key)
    page = flat(admin_client.get(reverse("tournaments:match", args=[match.pk])).content.decode())
    assert words in page and "0 : 0" not in page


def test_the_walkover_control_says_who_did_not_come_and_asks_first(admin_client, tables):
    """Issue 22 item 1: the desk's walkover was a bare «Неявка» button beside a player's name
    (which one: the absent or the winner?). It now opens first, and each of its two buttons
    says in words who did not come and who goes through."""
    tournament, _players = make_tournament(n=4)
    start(tournament)
    ready = selectors.tournament_view(tournament).queue[0]
    desk = admin_client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    tools = desk.split(f'data-key="{ready.spec.key}"')[1].split("</li>")[0]
    control = tools.split('<details class="confirm-walkover">')[1].split("</details>")[0]
    assert "<summary" in control and "Кто не явился?" in control
    buttons = re.findall(r'<button name="winner" value="(\w)"[^>]*>([^<]*)</button>', control)
    assert buttons == [
        ("b", f"Неявка: {ready.name_a} — проходит {ready.name_b}"),
        ("a", f"Неявка: {ready.name_b} — проходит {ready.name_a}"),
    ]
    assert "<select" not in tools.split("confirm-walkover")[1]


def test_the_desk_lists_a_match_lost_by_a_withdrawal_with_the_other_results(admin_client, tables):
    """Issue 22 item 5: a match decided by a withdrawal (derived: no Match row) was missing
    from the desk's results while the TV board and the public page showed it. It is listed,
    in words, without «Take back» (a withdrawal is for good)."""
    tournament, _players = make_tournament("round_robin", n=4)
    start(tournament)
    entrant = tournament.entrants.get(seed=2)
    admin_client.post(reverse("tournaments:withdraw", args=[tournament.pk, entrant.pk]))
    view = selectors.tournament_view(tournament)
    lost = [i for i in view.items if i.kind == "withdrawal"]
    assert len(lost) == 3
    desk = admin_client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    results = desk.split("Результаты")[1].split("Участники")[0]
    for lost_item in lost:
        line = results.split(f'data-key="{lost_item.spec.key}"')[1].split("</li>")[0]
        assert f"Снятие с турнира: {entrant.name} — проходит {lost_item.winner_name}" in flat(line)
        assert "Отменить" not in line
    public = Client().get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert flat(public).count(f"Снятие с турнира: {entrant.name} — проходит") == 3


def test_the_grand_final_reset_is_drawn_once_it_is_to_be_played(client, tables):
    """Issue 22 item 5: the reset of a double elimination's grand final stood on the boards
    (an empty box, «Повторный финал») from the start, though it is played only when the lower
    bracket's winner takes the first final. It is drawn once it is to be played."""
    tournament, _players = make_tournament("double", n=3, race_upper=1, race_lower=1, race_final=1)
    start(tournament)

    def reset_drawn():
        board = client.get(reverse("tournaments:board", args=[tournament.pk])).content.decode()
        public = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
        listed = 'data-key="F2"' in board, 'data-key="F2"' in public
        assert listed[0] == listed[1]
        in_match_list = "Финал, повторный" in public.split('id="matches"')[1]
        assert in_match_list == listed[0]
        return listed[0]

    assert not reset_drawn()
    while (view := selectors.tournament_view(tournament)).by_key["F1"].status != "ready":
        services.record_walkover(tournament=tournament, key=view.queue[0].spec.key, winner="a")
    assert not reset_drawn()
    services.record_walkover(tournament=tournament, key="F1", winner="b")  # the lower's winner
    assert item(tournament, "F2").status == "ready" and reset_drawn()
    services.record_walkover(tournament=tournament, key="F2", winner="a")
    assert reset_drawn()
    # Taken back and won by the upper bracket's winner: no reset to play, none drawn.
    services.undo_walkover(match=Match.objects.get(bracket_key="F2"))
    services.undo_walkover(match=Match.objects.get(bracket_key="F1", status="finished"))
    services.record_walkover(tournament=tournament, key="F1", winner="a")
    assert item(tournament, "F2").status == "void" and not reset_drawn()


def test_the_desk_says_why_no_table_is_offered_a_match(admin_client, tables):
    """Issue 22 item 5: with every ready match on hold the desk said «the players of the
    ready matches are playing at other tables»; it tells that from players at tables."""
    tournament, players = make_tournament("round_robin", n=4)
    start(tournament)
    manage = reverse("tournaments:manage", args=[tournament.pk])
    hold = reverse("tournaments:hold", args=[tournament.pk])

    def reason():
        page = admin_client.get(manage).content.decode()
        return flat(page.split("<h2>Свободные столы</h2>")[1].split("<h2>Готовые матчи")[0])

    keys = [i.spec.key for i in selectors.tournament_view(tournament).queue]
    for key in keys:
        admin_client.post(hold, {"key": key, "held": "1"})
    assert reason() == "Все готовые матчи отложены: верните один, чтобы предложить ему стол."
    for key in keys:
        admin_client.post(hold, {"key": key, "held": "0"})
    first = selectors.tournament_view(tournament).by_key[keys[0]]
    services.start_tournament_match(
        tournament=tournament, key=keys[0], table=tables[0], marker=None
    )
    # The one match whose players are free is held; the others' players are at a table.
    free = next(
        i
        for i in selectors.tournament_view(tournament).queue
        if not {i.seed_a, i.seed_b} & {first.seed_a, first.seed_b}
    )
    admin_client.post(hold, {"key": free.spec.key, "held": "1"})
    assert reason() == "Готовые матчи отложены или их игроки играют за другими столами."
    admin_client.post(hold, {"key": free.spec.key, "held": "0"})
    player = tournament.entrants.get(seed=free.seed_a).player
    game_services.start_game(
        table=tables[1], variant="clockwise", settings={}, seats=[player, "Гость"], marker=None
    )
    assert reason() == "Игроки готовых матчей играют за другими столами."


def test_undo_is_refused_with_the_reason_once_a_later_match_started(admin_client, tables):
    tournament, _players = make_tournament(n=4, race_upper=1, race_final=1)
    start(tournament)
    bracket = selectors.bracket_of(tournament)
    semis = [m.key for m in bracket.matches if m.round == 1]
    for key, table in zip(semis, tables, strict=False):
        match = services.start_tournament_match(
            tournament=tournament, key=key, table=table, marker=None
        )
        play_match(match, "a")
    first = Match.objects.get(bracket_key=semis[0])
    # Nothing after it yet: reopening works, the final is no longer ready.
    services.reopen_last_frame(match=first, user=None)
    assert item(tournament, "U2.1").status == "waiting"
    game = Game.objects.get(pk=selectors.current_frame(first).game_id)
    services.finish_frame_and_continue(game=game, expected_seq=game.last_seq, marker=None)
    assert item(tournament, "U2.1").status == "ready"
    services.start_tournament_match(tournament=tournament, key="U2.1", table=tables[2], marker=None)
    response = admin_client.post(
        reverse("tournaments:undo", args=[tournament.pk, first.pk]), follow=True
    )
    # The final is in play, not over: the reason says what to do (abandon it), not "take its
    # result back" (it has none yet).
    assert "сейчас идёт: сначала прервите его" in response.content.decode()
    first.refresh_from_db()
    assert first.status == MatchStatus.FINISHED


def test_withdrawal_loses_the_remaining_matches_without_play(admin_client, tables):
    tournament, _players = make_tournament("round_robin", n=4)
    start(tournament)
    entrant = tournament.entrants.get(seed=2)
    desk = admin_client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    # One tap would withdraw him for good: the desk asks first, saying what it means.
    assert 'class="confirm-withdraw"' in desk and "Это нельзя отменить." in desk
    response = admin_client.post(
        reverse("tournaments:withdraw", args=[tournament.pk, entrant.pk]), follow=True
    )
    assert f"{entrant.name}: снятие с турнира" in response.content.decode()
    view = selectors.tournament_view(tournament)
    his = [i for i in view.items if 2 in (i.seed_a, i.seed_b)]
    assert all(i.status == "finished" and i.kind == "withdrawal" for i in his)
    assert not Match.objects.exists()


def poll(client, tournament, fp):
    url = reverse("tournaments:board", args=[tournament.pk])
    return client.get(url, {"fp": fp}, headers={"HX-Request": "true"})


def test_board_polls_cheaply_and_redraws_once_per_change(client, tables, django_assert_num_queries):
    """The board sends what it shows; unchanged: an empty 204 from one query; changed: the
    fragment, rendered once per fingerprint and language (the next TVs get it from the
    cache). A stroke does not change the board, a frame won, a call or a result does."""
    tournament, _players = make_tournament("double", n=5)
    start(tournament)
    page = client.get(reverse("tournaments:board", args=[tournament.pk])).content.decode()
    fp = selectors.board_fingerprint(tournament.pk)
    assert f'data-fp="{fp}"' in page and f'"fp": "{fp}"' in page
    with django_assert_num_queries(1):
        unchanged = poll(client, tournament, fp)
    assert unchanged.status_code == 204 and unchanged.content == b""

    key = selectors.tournament_view(tournament).queue[0].spec.key
    match = services.start_tournament_match(
        tournament=tournament, key=key, table=tables[0], marker=None
    )
    called = selectors.board_fingerprint(tournament.pk)
    assert called != fp
    first = poll(client, tournament, fp)
    html = first.content.decode()
    assert first.status_code == 200 and first["X-Board-Fingerprint"] == called
    assert f'"fp": "{called}"' in html and "стол 1" in html
    with django_assert_num_queries(1):  # another TV: the cached fragment
        again = poll(client, tournament, fp)
    assert again.content == first.content

    game = selectors.current_frame(match).game
    state = game_selectors.replayed(game).state
    action = game_selectors.variant_of(game).legal_actions(state)[0]
    game_services.record_event(
        game=game, expected_seq=game.last_seq, event=rules.Event(action.kind), user=None
    )
    assert selectors.board_fingerprint(tournament.pk) == called  # a stroke: nothing new
    game = play_frame(Game.objects.get(pk=game.pk), 0)
    services.finish_frame_and_continue(game=game, expected_seq=game.last_seq, marker=None)
    assert selectors.board_fingerprint(tournament.pk) not in (called, fp)
    assert poll(client, tournament, "x\u00e9").status_code == 200
    missing = reverse("tournaments:board", args=[99999])
    assert client.get(missing, {"fp": fp}, headers={"HX-Request": "true"}).status_code == 404
    assert selectors.board_fingerprint(2**40) is None


def test_the_final_of_a_single_elimination_is_called_the_final(client, db):
    """A single elimination of four has its final in round 2: no "grand final", no reset."""
    tournament, _players = make_tournament("single", n=4)
    start(tournament)
    board = client.get(reverse("tournaments:board", args=[tournament.pk])).content.decode()
    assert '<p class="round-title">Финал</p>' in board
    assert "Повторный финал" not in board and "Суперфинал" not in board


def test_knockout_rounds_are_named_from_the_final(client, db):
    """The match list and the desk name a knockout's rounds as players do («1/8 финала»,
    «Четвертьфинал», «Полуфинал»; the semi-final of five was «Тур 2»), a single group's
    rounds without «Группа 1», and the knockout after the groups apart from their rounds
    (it was «Тур 1» among the groups' «Группа 1, тур 1»)."""
    tournament, _players = make_tournament("single", n=9)
    start(tournament)
    labels = [i.stage_label for i in selectors.tournament_view(tournament).items]
    assert labels.count("1/8 финала") == 1  # 9 entrants: one match before the last 8
    assert labels.count("Четвертьфинал") == 4 and labels.count("Полуфинал") == 2
    assert labels[-1] == "Финал"
    html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "<td>Четвертьфинал</td>" in html

    group, _players = make_tournament("round_robin", n=4, prefix="Круг")
    start(group)
    assert {i.stage_label for i in selectors.tournament_view(group).items} == {
        "Тур 1",
        "Тур 2",
        "Тур 3",
    }
    groups, _players = make_tournament("round_robin", n=8, prefix="Группы", groups=2, advance=2)
    start(groups)
    labels = [i.stage_label for i in selectors.tournament_view(groups).items]
    assert labels[0] == "Группа 1, тур 1" and labels[-3:] == ["Полуфинал", "Полуфинал", "Финал"]


def test_public_page_board_and_csv(client, tables):
    tournament, players = make_tournament("double", n=5)
    Player.objects.filter(pk=players[4].pk).update(full_name="=HYPERLINK(1)")
    start(tournament)
    key = selectors.tournament_view(tournament).queue[0].spec.key
    match = services.start_tournament_match(
        tournament=tournament, key=key, table=tables[0], marker=None
    )
    match = play_match(match, "b")
    page = client.get(reverse("tournaments:detail", args=[tournament.pk]))
    html = page.content.decode()
    for anchor in ("#rules", "#entrants", "#bracket", "#matches", "#places"):
        assert f'href="{anchor}"' in html
    assert "Нижняя сетка" in html and "@media print" not in html
    board = client.get(reverse("tournaments:board", args=[tournament.pk]))
    assert board.status_code == 200 and 'hx-trigger="every 2s"' in board.content.decode()
    partial = client.get(
        reverse("tournaments:board", args=[tournament.pk]),
        {"fp": "old"},
        headers={"HX-Request": "true"},
    )
    assert partial.content.decode().lstrip().startswith("<section")
    response = client.get(reverse("tournaments:matches_csv", args=[tournament.pk]))
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(body.lstrip("\ufeff"))))
    # The columns as issue 11 lists them.
    header = "stage, round, bracket, match_no, player_a, player_b, score_a, score_b, winner, "
    assert rows[0] == (header + "table, started_at, finished_at, walkover").split(", ")
    assert len(rows) == 1 + len(selectors.bracket_of(tournament).matches)
    played = next(r for r in rows[1:] if r[9] == str(tables[0].number))
    assert played[6:9] == [str(match.score_a), str(match.score_b), formula_safe(match.winner_name)]
    assert all(not cell.startswith("=") for row in rows for cell in row)
    assert any(cell == "'=HYPERLINK(1)" for row in rows for cell in row)
    assert client.get(reverse("tournaments:board", args=[9999])).status_code == 404


def test_protocol_times_are_the_clubs_to_the_second(client, tables, settings):
    """matches.csv (issue 22 item 6): a match played at 01:05 on 4 December in the club's
    time zone reads so, ISO 8601 with the offset, to the second (it was UTC, 22:05 the day
    before, with microseconds); a walkover, never at a table, has no start."""
    settings.TIME_ZONE = "Europe/Moscow"
    tournament, _players = make_tournament("single", n=3, race_upper=1, race_final=1)
    start(tournament)
    view = selectors.tournament_view(tournament)
    key = view.queue[0].spec.key
    match = services.start_tournament_match(
        tournament=tournament, key=key, table=tables[0], marker=None
    )
    match = play_match(match, "a")
    utc = dt.UTC
    Match.objects.filter(pk=match.pk).update(
        started_at=dt.datetime(2026, 12, 3, 22, 5, 7, 123456, tzinfo=utc),
        finished_at=dt.datetime(2026, 12, 3, 22, 41, 0, 999, tzinfo=utc),
    )
    final = selectors.tournament_view(tournament).queue[0].spec.key
    services.record_walkover(tournament=tournament, key=final, winner="b")
    response = client.get(reverse("tournaments:matches_csv", args=[tournament.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8").lstrip("\ufeff"))))
    played = next(row for row in rows if row["table"] == str(tables[0].number))
    assert played["started_at"] == "2026-12-04T01:05:07+03:00"
    assert played["finished_at"] == "2026-12-04T01:41:00+03:00"
    walkover = next(row for row in rows if row["walkover"])
    assert walkover["started_at"] == ""
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+03:00", walkover["finished_at"])


def test_pages_say_standings_and_a_match_or_tournament_finished_in_the_right_words(client, tables):
    """A round robin's tab is its standings («Турнирная таблица»: before, «Стол», the word
    for a billiard table); a finished match or tournament is «Завершён» («матч», «турнир» are
    masculine; before, «Завершена» as a game, «партия»)."""
    tournament, _players = make_tournament("round_robin", n=3, race_group=1)
    start(tournament)
    while ready := [i for i in selectors.tournament_view(tournament).items if i.status == "ready"]:
        match = services.start_tournament_match(
            tournament=tournament, key=ready[0].spec.key, table=tables[0], marker=None
        )
        match = play_match(match, "a")
    html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert '<a href="#bracket">Турнирная таблица</a>' in html
    # a frame difference below zero has the minus sign, as every score (−2, not -2)
    assert re.search(r"<td>−[12]</td>", html) and not re.search(r"<td>-\d", html)
    board = client.get(reverse("tournaments:board", args=[tournament.pk])).content.decode()
    assert re.search(r"<td>−[12]</td>", board) and not re.search(r"<td>-\d", board)
    assert "Завершён" in html and "Завершена" not in html
    assert "Завершена" not in client.get(reverse("tournaments:list")).content.decode()
    match_page = client.get(reverse("tournaments:match", args=[match.pk])).content.decode()
    assert "· Завершён ·" in " ".join(match_page.split())


def test_player_page_lists_tournaments_with_the_place(client, tables):
    tournament, players = make_tournament(n=3, race_upper=1, race_final=1)
    start(tournament)
    while True:
        view = selectors.tournament_view(tournament)
        ready = [i for i in view.items if i.status == "ready"]
        if not ready:
            break
        match = services.start_tournament_match(
            tournament=tournament, key=ready[0].spec.key, table=tables[0], marker=None
        )
        play_match(match, "a")
    view = selectors.tournament_view(tournament)
    champion = view.entrants[view.state.champion].player_id
    page = client.get(reverse("players:detail", args=[champion])).content.decode()
    assert reverse("tournaments:detail", args=[tournament.pk]) in page
    assert "<b>1</b>" in page


def test_hold_takes_a_match_out_of_the_offers_and_bad_posts_change_nothing(admin_client, tables):
    tournament, _players = make_tournament(n=4)
    start(tournament)
    key = selectors.bracket_of(tournament).matches[0].key
    hold = reverse("tournaments:hold", args=[tournament.pk])
    admin_client.post(hold, {"key": key, "held": "1"})
    assert item(tournament, key).status == "held"
    page = admin_client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    assert page.count("data-offer") == 1  # only the other semi-final is offered
    admin_client.post(hold, {"key": "nonsense", "held": "1"})
    tournament.refresh_from_db()
    assert tournament.held == [key]
    admin_client.post(hold, {"key": key, "held": "0"})
    assert item(tournament, key).status == "ready"
    manage = reverse("tournaments:manage", args=[tournament.pk])
    for name, data in [
        ("call", {"key": key, "table": "x"}),
        ("call", {"key": "nonsense", "table": tables[0].pk}),
        ("walkover", {"key": key, "winner": "c"}),
        ("walkover", {"key": "nonsense", "winner": "a"}),
    ]:
        response = admin_client.post(reverse(f"tournaments:{name}", args=[tournament.pk]), data)
        assert response.status_code == 302 and response.url == manage
    assert not Match.objects.exists()
    assert admin_client.get(reverse("tournaments:manage", args=[9999])).status_code == 404
    url = reverse("tournaments:undo", args=[tournament.pk, 9999])
    assert admin_client.post(url).status_code == 404


def test_the_board_holds_a_stream_and_each_write_pushes_it(
    client, tables, monkeypatch, django_capture_on_commit_callbacks
):
    """Issue 13: the tournament board is pushed over Server-Sent Events like the table boards
    (polling stays the fallback, and ``?poll=1`` polls only); every write of the tournament
    or of its matches tells its topic once the write commits."""
    tournament, _players = make_tournament("double", n=5)
    start(tournament)
    url = reverse("tournaments:board", args=[tournament.pk])
    stream = reverse("tournaments:board_stream", args=[tournament.pk])
    fp = selectors.board_fingerprint(tournament.pk)
    page = client.get(url).content.decode()
    assert f'sse-connect="{stream}?fp={fp}"' in page and 'sse-swap="tboard"' in page
    assert "sse-connect" not in client.get(url, {"poll": "1"}).content.decode()

    response = client.get(stream, {"fp": "stale"})  # a stale screen: the board at once
    assert response["Content-Type"].startswith("text/event-stream")
    chunks = iter(response.streaming_content)
    assert next(chunks) == b"retry: 1000\n\n"
    message = next(chunks).decode()
    assert f"id: {fp}\n" in message and "event: tboard\n" in message
    assert 'data: <section id="tboard"' in message

    published = []
    monkeypatch.setattr("live.publishing.publish_now", published.append)
    key = selectors.tournament_view(tournament).queue[0].spec.key
    with django_capture_on_commit_callbacks(execute=True):
        services.set_hold(tournament=tournament, key=key, held=True)
    assert [f"tournament.{tournament.pk}"] in published
    assert client.get(reverse("tournaments:board_stream", args=[99999])).status_code == 404


def test_the_asgi_router_finds_each_public_stream(db, tables):
    """clubsite.asgi answers the public streams beside Django: a table board's, the wall's and
    a tournament board's, each by its own route."""
    from django.http import Http404

    from clubsite.asgi import feed_for_path

    tournament, _players = make_tournament("single", n=4)
    assert feed_for_path(f"/tournaments/{tournament.pk}/board/stream/").event == "tboard"
    assert feed_for_path(f"/tables/{tables[0].number}/board/stream/").event == "board"
    assert feed_for_path("/board/stream/").event == "wall"
    assert feed_for_path("/x/") is None
    with pytest.raises(Http404):
        feed_for_path("/tournaments/99999/board/stream/")


def odds_shown(html, key):
    """(kind, probability) of the odds on the desk's line of the match ``key``."""
    line = re.search(rf'data-key="{key}".*?</li>', html, re.S).group(0)
    found = re.search(r'data-odds="(\w+)" data-probability="([0-9.]+)"', line)
    return (found.group(1), float(found.group(2))) if found else None


def test_the_desk_shows_the_odds_of_ready_matches_and_of_those_in_play(
    admin_client, tables, monkeypatch
):
    """A ready match's odds as it would start (the tournament's head start for the weaker),
    one in play's from its frame score."""
    from records import glicko, odds
    from tests.helpers import fixed_skills

    tournament, players = make_tournament(n=4, handicap="head_start", head_start=1, race_upper=3)
    start(tournament)  # U1.1: seed 1 (A) against seed 4; U1.2: seed 2 against seed 3
    skills = fixed_skills(monkeypatch)
    skills[players[0].pk] = glicko.Skill(1700, 60, games=80)
    skills[players[3].pk] = glicko.Skill(1500, 60, games=80)
    monkeypatch.setattr(  # the tournament's head start goes to the lower rated (seed 4)
        rating, "ratings_for", lambda variant: rating.Ratings("x", {players[0].pk: 1700})
    )
    p = glicko.win_probability(skills[players[0].pk], skills[players[3].pk])
    html = admin_client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    kind, shown = odds_shown(html, "U1.1")
    assert kind == "race" and shown == pytest.approx(odds.race(p, 3, 2), abs=1e-4)
    assert "Шансы (3 против 2):" in html
    newcomers = odds_shown(html, "U1.2")  # two newcomers of one class: even
    assert newcomers == ("race", 0.5)

    match = services.start_tournament_match(
        tournament=tournament, key="U1.1", table=tables[0], marker=None
    )
    frame = selectors.current_frame(match)
    game = play_frame(frame.game, 0 if frame.breaker == "b" else 1)
    services.finish_frame_and_continue(game=game, expected_seq=game.last_seq, marker=None)
    english = admin_client.get(
        reverse("tournaments:manage", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Chances now:" in english
    html = admin_client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    kind, shown = odds_shown(html, "U1.1")  # B won a frame: 0 : 2 with the head start
    assert kind == "now" and shown == pytest.approx(odds.race(p, 3, 1), abs=1e-4)
    assert "Шансы сейчас:" in html


def test_the_tournaments_page_and_tv_board_show_a_match_in_plays_chances(
    client, tables, monkeypatch
):
    """Each match in play's box: each side's chance of the match now, moving with a frame."""
    from records import forecast, glicko, odds
    from tests.helpers import fixed_skills

    tournament, players = make_tournament(n=4, race_upper=3)
    start(tournament)
    skills = fixed_skills(monkeypatch)
    skills[players[0].pk] = glicko.Skill(1700, 60, games=80)
    skills[players[3].pk] = glicko.Skill(1500, 60, games=80)
    p = glicko.win_probability(skills[players[0].pk], skills[players[3].pk])
    match = services.start_tournament_match(
        tournament=tournament, key="U1.1", table=tables[0], marker=None
    )

    def shown(url):
        html = client.get(url).content.decode()
        box = re.search(r'data-key="U1.1".*?</div>', html, re.S).group(0)
        return [int(n) for n in re.findall(r'class="mbox-odds" data-odds="(\d+)"', box)]

    board = reverse("tournaments:board", args=[tournament.pk])
    page = reverse("tournaments:detail", args=[tournament.pk])
    assert shown(board) == shown(page) == list(forecast.percents(odds.race(p, 3, 3)))
    live = re.search(r'class="live-odds" data-odds="(\d+)"', client.get(board).content.decode())
    assert int(live.group(1)) == forecast.percents(odds.race(p, 3, 3))[0]  # the TV's strip
    frame = selectors.current_frame(match)
    game = play_frame(frame.game, 0 if frame.breaker == "a" else 1)
    services.finish_frame_and_continue(game=game, expected_seq=game.last_seq, marker=None)
    assert shown(board) == list(forecast.percents(odds.race(p, 2, 3)))
    assert "data-odds" not in re.search(  # a ready match's box: none
        r'data-key="U1.2".*?</div>', client.get(board).content.decode(), re.S
    ).group(0)
