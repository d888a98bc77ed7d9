"""Matches (issue 11, item 1): started by the marker, frame after frame with one tap, ended by
itself at N, shown on the console, the boards and the match page; reopened when the last
frame was recorded wrongly."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services as game_services
from games.models import Game, GameStatus
from records import rating
from tournaments import selectors, services
from tournaments.models import Frame, Match, MatchStatus
from tournaments.simulate import play_frame


def start(table, a, b, marker, **kwargs):
    arguments = {"variant": "clockwise", "race_to": 2}
    arguments.update(kwargs)
    return services.start_match(table=table, a=a, b=b, marker=marker, **arguments)


def frame_game(match, number=None):
    frames = selectors.frames_of(match)
    frame = frames[-1] if number is None else frames[number - 1]
    return Game.objects.get(pk=frame.game_id)


def win_frame(client, match, side):
    """Plays the frame in play for ``side`` and taps «save the frame and go on»."""
    frame = selectors.current_frame(match)
    game = play_frame(frame.game, 0 if frame.breaker == side else 1)
    return client.post(
        reverse("tournaments:match_next", args=[match.pk]),
        {"game": game.pk, "seq": game.last_seq},
    )


def test_marker_starts_a_match_from_the_form(marker_client, table, players):
    page = marker_client.get(reverse("games:table", args=[table.number]))
    assert reverse("tournaments:match_new") in page.content.decode()
    response = marker_client.post(
        reverse("tournaments:match_new") + f"?table={table.number}",
        {
            "op": "start",
            "table": table.pk,
            "variant": "cue_vs_hand",
            "seats": [f"p:{players[0].pk}", "g:Гость Гостев"],
            "race_to": 3,
            "first_break": "b",
            "break_rule": "alternate",
            "head_start_a": 0,
            "head_start_b": 0,
            "s_cue_seat": "0",
            "s_target": 8,
        },
    )
    match = Match.objects.get()
    game = frame_game(match)
    assert response.status_code == 302
    assert response.url == reverse("games:console", args=[game.pk])
    assert (match.race_to, match.first_break, match.guest_b) == (3, "b", "Гость Гостев")
    # B breaks: he sits in seat 1, and the seat choice (A plays with the cue) follows A.
    assert [s.name for s in game.seats.order_by("position")] == [
        "Гость Гостев",
        players[0].full_name,
    ]
    assert str(game.settings["cue_seat"]) == "1"
    console = marker_client.get(reverse("games:console", args=[game.pk])).content.decode()
    assert "0 : 0, до 3" in console


def test_the_roster_search_says_who_is_playing_now(marker_client, tables, players):
    """Picking the players of a match, the marker sees who is at another table before he
    taps him (in the demo club three of five players found were, and the start was refused
    only after the whole form was filled)."""
    game_services.start_game(
        table=tables[1], variant="cue_vs_hand", settings={}, seats=[players[0], "Гость"],
        marker=None,
    )  # fmt: skip
    response = marker_client.post(
        reverse("tournaments:match_new") + f"?table={tables[0].number}",
        {"op": "search", "q": players[0].full_name.split()[0], "variant": "cue_vs_hand"},
    )
    html = " ".join(response.content.decode().split())
    assert f'data-player="{players[0].pk}"' in html
    assert f"играет за столом {tables[1].number}" in html
    free = marker_client.post(
        reverse("tournaments:match_new") + f"?table={tables[0].number}",
        {"op": "search", "q": players[1].full_name.split()[0], "variant": "cue_vs_hand"},
    ).content.decode()
    assert f'data-player="{players[1].pk}"' in free and "играет за столом" not in free


def test_one_tap_per_frame_and_the_match_ends_by_itself(marker_client, table, players, marker_user):
    match = start(table, players[0], players[1], marker_user, race_to=2)
    first = frame_game(match)
    response = win_frame(marker_client, match, "a")
    second = frame_game(match)
    assert second.pk != first.pk and second.status == GameStatus.IN_PROGRESS
    assert response.url == reverse("games:console", args=[second.pk])
    assert Frame.objects.get(game=second).breaker == "b"  # the break alternates
    assert second.table_id == table.pk
    console = marker_client.get(reverse("games:console", args=[second.pk])).content.decode()
    assert "0 : 1, до 2" in console
    board = marker_client.get(reverse("games:board", args=[table.number])).content.decode()
    assert "0 : 1, до 2" in board
    wall = marker_client.get(reverse("games:wall")).content.decode()
    assert "0 : 1, до 2" in wall

    response = win_frame(marker_client, match, "a")
    match.refresh_from_db()
    assert response.url == reverse("tournaments:match", args=[match.pk])
    assert (match.status, match.winner, match.score_a, match.score_b) == ("finished", "a", 2, 0)
    assert match.frames.count() == 2
    assert not Game.objects.filter(status=GameStatus.IN_PROGRESS).exists()
    # Each frame counts for the ratings like any game.
    ratings = rating.ratings_for("clockwise")
    assert ratings.games[players[0].pk] == 2
    assert ratings.rating(players[0].pk) > ratings.rating(players[1].pk)


def primary_buttons(html):
    return re.findall(r'<button[^>]*class="button primary[^"]*"[^>]*>([^<]*)</button>', html)


def test_a_match_reads_as_a_match_on_the_console(marker_client, table, players, marker_user):
    """Issue 22 item 4: the console's sticky strip shows the match's frames; the end of a
    frame has one primary button (there were two green ones: the match bar's, half under the
    strip, and «Finish and save the result»), and the deciding frame's says the match is over
    instead of «…и играть следующую»."""
    match = start(table, players[0], players[1], marker_user, race_to=2)
    game = frame_game(match)
    url = reverse("games:console", args=[game.pk])
    console = marker_client.get(url).content.decode()
    assert re.search(r"data-strip-match>матч 0 : 0<", console)
    game = play_frame(game, 0)  # A (seat 1, he breaks) wins the first frame: 1 : 0 after it
    console = marker_client.get(url).content.decode()
    assert primary_buttons(console) == ["Записать партию и играть следующую"]
    finish = console.split("data-finish")[0].rsplit("<form", 1)[1]
    assert f'action="{reverse("tournaments:match_next", args=[match.pk])}"' in finish
    assert "data-match=" in console and "match-bar" in console
    marker_client.post(
        reverse("tournaments:match_next", args=[match.pk]),
        {"game": game.pk, "seq": game.last_seq},
    )
    second = frame_game(match)  # B breaks: the strip puts the frames of the player to play first
    console = marker_client.get(reverse("games:console", args=[second.pk])).content.decode()
    assert re.search(r"data-strip-match>матч 0 : 1<", console)  # B to play: 0, A: 1
    second = play_frame(second, 1)  # A, in seat 2 now, wins: 2 : 0, the match is over
    console = marker_client.get(reverse("games:console", args=[second.pk])).content.decode()
    assert primary_buttons(console) == ["Записать партию — матч окончен"]
    response = marker_client.post(
        reverse("tournaments:match_next", args=[match.pk]),
        {"game": second.pk, "seq": second.last_seq},
    )
    assert response.url == reverse("tournaments:match", args=[match.pk])
    match.refresh_from_db()
    assert (match.status, match.winner) == ("finished", "a")
    # A single game keeps its own button, with no match in the strip.
    single = game_services.start_game(
        table=table, variant="clockwise", settings={}, seats=["Анна", "Борис"], marker=None
    )
    single = play_frame(single, 0)
    console = marker_client.get(reverse("games:console", args=[single.pk])).content.decode()
    assert primary_buttons(console) == ["Завершить и сохранить результат"]
    assert "data-strip-match" not in console


def test_after_the_match_the_boards_say_the_match_is_over(client, table, players, marker_user):
    """Issue 22 item 4: once the match is over, the table board and the wall said the last
    frame's result («Игра окончена», the frame's winner); they say «матч окончен 3 : 1» with
    the match's winner."""
    match = start(table, players[0], players[1], marker_user, race_to=3)
    for side in ("b", "a", "b", "b"):
        frame = selectors.current_frame(match)
        game = play_frame(frame.game, 0 if frame.breaker == side else 1)
        services.finish_frame_and_continue(game=game, expected_seq=game.last_seq, marker=None)
    match.refresh_from_db()
    assert (match.status, match.winner, match.score_a, match.score_b) == ("finished", "b", 1, 3)
    winner = match.name_b
    board = client.get(reverse("games:board", args=[table.number])).content.decode()
    banner = " ".join(board.split('class="banner-box"')[1].split("</div>")[0].split())
    assert "Матч окончен 3 : 1" in banner and f"Победитель: {winner}" in banner
    assert "Игра окончена" not in banner
    wall = client.get(reverse("games:wall")).content.decode()
    tile = wall.split(f'data-table="{table.number}"')[1].split("</article>")[0]
    tile = " ".join(re.sub(r"<[^>]+>", " ", tile).split())
    assert f"Матч окончен 3 : 1. Победитель: {winner}" in tile
    assert "Последняя партия" not in tile


def test_a_match_over_reads_in_one_order_above_its_banner(client, table, players, marker_user):
    """Issue 31, D8: the last frame won 3 : 1 by the player in its seat 2. The line above the
    seats read «A 1 : 3, до 3 B» right above «Матч окончен 3 : 1»: once the match is over it
    reads the winner first, as the banner does; the console's strip keeps the seat order."""
    match = start(table, players[0], players[1], marker_user, race_to=3, first_break="b")
    for side in ("b", "a", "b", "b"):  # the break alternates: A breaks the fourth, B wins it
        frame = selectors.current_frame(match)
        game = play_frame(frame.game, 0 if frame.breaker == side else 1)
        services.finish_frame_and_continue(game=game, expected_seq=game.last_seq, marker=None)
    assert frame.breaker == "a"
    match.refresh_from_db()
    assert (match.status, match.winner) == ("finished", "b")
    board = client.get(reverse("games:board", args=[table.number])).content.decode()
    line = board.split('class="match-line')[1].split("</p>")[0]
    words = " ".join(re.sub(r"<[^>]+>", " ", line.split(">", 1)[1]).split())
    assert words.startswith(f"{match.name_b} 3 : 1, до 3 {match.name_a}"), words
    assert "Матч окончен 3 : 1" in board
    # While it is played, the line keeps the frame's seat order (the breaker first).
    second = start(table, players[2], players[3], marker_user, race_to=3, first_break="b")
    frame = selectors.current_frame(second)
    game = play_frame(frame.game, 0)  # its B breaks the first frame and wins it; A breaks next
    services.finish_frame_and_continue(game=game, expected_seq=game.last_seq, marker=None)
    board = client.get(reverse("games:board", args=[table.number])).content.decode()
    line = board.split('class="match-line')[1].split("</p>")[0]
    words = " ".join(re.sub(r"<[^>]+>", " ", line.split(">", 1)[1]).split())
    assert words.startswith(f"{second.name_a} 0 : 1, до 3 {second.name_b}"), words


def test_frame_finished_on_the_console_also_counts(marker_client, table, players, marker_user):
    match = start(table, players[0], players[1], marker_user, race_to=1)
    game = play_frame(frame_game(match), 1)  # B, in seat 2, wins
    marker_client.post(reverse("games:finish", args=[game.pk]), {"seq": game.last_seq})
    match.refresh_from_db()
    assert (match.status, match.winner) == ("finished", "b")
    result = marker_client.get(reverse("games:result", args=[game.pk])).content.decode()
    assert "1 : 0, до 1" in result  # the match is over: its winner first
    assert reverse("games:rematch", args=[game.pk]) not in result


def test_winner_breaks_and_head_start(marker_client, table, players, marker_user):
    match = start(
        table, players[0], players[1], marker_user, race_to=3, break_rule="winner", head_start_b=1
    )
    assert selectors.match_score(match) == (0, 1)
    win_frame(marker_client, match, "b")
    match.refresh_from_db()
    assert selectors.match_score(match) == (0, 2)
    frames = selectors.frames_of(match)
    assert [f.breaker for f in frames] == ["a", "b"]  # the winner of frame 1 breaks frame 2
    win_frame(marker_client, match, "b")
    match.refresh_from_db()
    assert (match.status, match.winner, match.score_b) == ("finished", "b", 3)


def test_match_page_lists_frames_with_links(marker_client, table, players, marker_user):
    match = start(table, players[0], players[1], marker_user, race_to=2)
    win_frame(marker_client, match, "a")
    page = Client().get(reverse("tournaments:match", args=[match.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    for frame in selectors.frames_of(match):
        assert reverse("games:detail", args=[frame.game_id]) in html
    assert "1 : 0, до 2" in html
    assert reverse("tournaments:match_abandon", args=[match.pk]) not in html  # spectator


def test_reopen_the_last_frame(marker_client, table, players, marker_user):
    match = start(table, players[0], players[1], marker_user, race_to=1)
    win_frame(marker_client, match, "a")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    response = marker_client.post(reverse("tournaments:match_reopen", args=[match.pk]))
    game = frame_game(match)
    assert response.url == reverse("games:console", args=[game.pk])
    match.refresh_from_db()
    assert match.status == MatchStatus.IN_PROGRESS and match.winner == ""
    assert game.status == GameStatus.IN_PROGRESS and game.result is None
    # The marker undoes the last stroke, then B wins the frame instead.
    marker_client.post(reverse("games:undo", args=[game.pk]), {"seq": game.last_seq})
    game.refresh_from_db()
    game = play_frame(game, 1)
    marker_client.post(
        reverse("tournaments:match_next", args=[match.pk]), {"game": game.pk, "seq": game.last_seq}
    )
    match.refresh_from_db()
    assert (match.status, match.winner) == ("finished", "b")


@pytest.mark.parametrize(
    "change, field",
    [
        ({"variant": "cork"}, "variant"),
        ({"seats": "same"}, "seats"),
        ({"race_to": 16}, "race_to"),
        ({"race_to": 0}, "race_to"),
        ({"head_start_a": 3}, "head_start"),
        ({"seats": "one"}, "seats"),
        ({"seats": "three"}, "seats"),
    ],
)
def test_bad_match_requests_change_nothing(marker_client, table, players, change, field):
    data = {
        "op": "start",
        "table": table.pk,
        "variant": "clockwise",
        "seats": [f"p:{players[0].pk}", "g:Гость"],
        "race_to": 3,
        "first_break": "a",
        "break_rule": "alternate",
        "head_start_a": 0,
        "head_start_b": 0,
    }
    seats = {
        "same": [f"p:{players[0].pk}", f"p:{players[0].pk}"],
        "one": [f"p:{players[0].pk}"],
        "three": [f"p:{players[0].pk}", f"p:{players[1].pk}", "g:Гость"],
    }
    if "seats" in change:
        change = {"seats": seats[change["seats"]]}
    data.update(change)
    response = marker_client.post(reverse("tournaments:match_new"), data)
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()
    assert not Match.objects.exists() and not Game.objects.exists()


def test_a_match_whose_frame_was_abandoned_is_not_lost_at_its_table(
    marker_client, table, players, marker_user
):
    """The marker abandons a frame on the console («Прервать партию…»): the match is still in
    progress at that table, so the table's page says so and goes on with it (next frame) or
    stops it, instead of a bare new-game form that left the match hanging there (the desk
    could not use the table, the TV showed it in play)."""
    match = start(table, players[0], players[1], marker_user, race_to=3)
    win_frame(marker_client, match, "a")
    game = frame_game(match, 2)
    marker_client.post(reverse("games:abandon", args=[game.pk]), {"seq": game.last_seq})
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    page = marker_client.get(reverse("games:table", args=[table.number])).content.decode()
    assert f'data-match="{match.pk}"' in page and "1 : 0, до 3" in page
    assert reverse("tournaments:match_next", args=[match.pk]) in page
    assert reverse("tournaments:match_abandon", args=[match.pk]) in page
    marker_client.post(reverse("tournaments:match_next", args=[match.pk]))
    assert selectors.current_frame(match).number == 3
    page = marker_client.get(reverse("games:table", args=[table.number]))
    assert page.url == reverse("games:console", args=[frame_game(match, 3).pk])


def test_a_player_cannot_play_two_matches_at_once(table, tables, players, marker_user):
    start(table, players[0], players[1], marker_user)
    with pytest.raises(services.ValidationError):
        start(tables[1], players[2], players[0], marker_user)
    with pytest.raises(services.ValidationError):
        start(table, players[2], players[3], marker_user)  # the table is taken
    assert Match.objects.count() == 1


def test_roles(client, plain_user, table, players, marker_user):
    url = reverse("tournaments:match_new")
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(plain_user)
    assert client.get(url).status_code == 403
    match = start(table, players[0], players[1], marker_user)
    assert client.post(reverse("tournaments:match_abandon", args=[match.pk])).status_code == 403
    assert client.get(reverse("tournaments:match", args=[match.pk])).status_code == 200
    assert client.get(reverse("tournaments:match", args=[99999])).status_code == 404
    assert client.get(url + "?table=abc").status_code == 403


def test_next_frame_with_bad_input_is_refused(marker_client, table, players, marker_user):
    match = start(table, players[0], players[1], marker_user)
    url = reverse("tournaments:match_next", args=[match.pk])
    game = frame_game(match)
    # The frame is not over: refused with its reason, nothing changes.
    response = marker_client.post(url, {"game": game.pk, "seq": game.last_seq}, follow=True)
    assert response.status_code == 200
    assert Game.objects.filter(status=GameStatus.IN_PROGRESS).count() == 1
    assert marker_client.post(url, {"game": "x", "seq": "1"}).status_code == 302
    assert marker_client.post(url, {"game": 99999, "seq": "1"}).status_code == 404
    assert marker_client.get(url).status_code == 405


# --- the odds of a match (records.forecast): before it and from its frame score ------------


def shown_probability(html, kind):
    found = re.search(rf'data-odds="{kind}" data-probability="([0-9.]+)"', html)
    return float(found.group(1)) if found else None


@pytest.fixture
def skills(monkeypatch):
    from tests.helpers import fixed_skills

    return fixed_skills(monkeypatch)


def test_a_match_keeps_the_skills_it_started_with_and_its_page_shows_its_odds(
    client, marker_client, table, players, marker_user, skills
):
    from records import glicko, odds

    strong, newcomer = players[0], players[1]
    skills[strong.pk] = glicko.Skill(1720, 60, games=80)
    match = start(table, strong, newcomer, marker_user, race_to=3)
    assert match.skills["a"]["rating"] == 1720 and match.skills["a"]["games"] == 80
    assert match.skills["b"]["deviation"] == glicko.start("novice").deviation
    p = glicko.win_probability(glicko.Skill(1720, 60, games=80), glicko.start("novice"))
    page = client.get(reverse("tournaments:match", args=[match.pk])).content.decode()
    assert shown_probability(page, "race") == pytest.approx(odds.race(p, 3, 3), abs=1e-4)
    assert shown_probability(page, "frame") == pytest.approx(p, abs=1e-4)
    assert 'data-odds="now"' not in page  # nothing won yet
    assert page.count("data-provisional") == 1  # the newcomer's odds are uncertain
    first = round(odds.race(p, 3, 3) * 100)
    assert f"{first}\u00a0%" in page and "До матча (до 3)" in page

    skills[strong.pk] = glicko.Skill(1300, 60, games=81)  # rated meanwhile: the odds stay put
    win_frame(marker_client, Match.objects.get(pk=match.pk), "b")
    english = client.get(
        reverse("tournaments:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Now, at 0 : 1" in english and f"{round(odds.race(p, 3, 2) * 100)}%" in english
    page = client.get(reverse("tournaments:match", args=[match.pk])).content.decode()
    assert shown_probability(page, "race") == pytest.approx(odds.race(p, 3, 3), abs=1e-4)
    assert shown_probability(page, "now") == pytest.approx(odds.race(p, 3, 2), abs=1e-4)
    assert "Сейчас, при 0 : 1" in page


def test_a_head_start_and_a_game_handicap_count_in_a_matchs_odds(
    client, table, players, marker_user, skills
):
    from records import forecast, glicko, odds

    skills[players[0].pk] = glicko.Skill(1700, 60, games=80)
    skills[players[1].pk] = glicko.Skill(1500, 60, games=80)
    p = glicko.win_probability(skills[players[0].pk], skills[players[1].pk])
    match = start(
        table, players[0], players[1], marker_user, variant="pyramid_free", race_to=5,
        head_start_b=1, settings={"weaker_seat": "1", "head_start": 2},
    )  # fmt: skip
    frame = 1 - odds.with_handicap(1 - p, 8, 2)  # B starts each frame with 2 balls
    page = client.get(reverse("tournaments:match", args=[match.pk])).content.decode()
    assert shown_probability(page, "frame") == pytest.approx(frame, abs=1e-4)
    assert shown_probability(page, "race") == pytest.approx(odds.race(frame, 5, 4), abs=1e-4)
    assert "До матча (5 против 4)" in page
    found = selectors.match_odds(match)
    assert found.fair == forecast.fair_race(frame, 5)


def test_a_match_started_before_the_odds_reads_the_skills_of_now(
    client, table, players, marker_user, skills
):
    from records import glicko, odds

    match = start(table, players[0], "Гость Гостев", marker_user, race_to=2)
    Match.objects.filter(pk=match.pk).update(skills={})
    skills[players[0].pk] = glicko.Skill(1800, 50, games=99)
    p = glicko.win_probability(skills[players[0].pk], glicko.start(None))
    page = client.get(reverse("tournaments:match", args=[match.pk])).content.decode()
    assert shown_probability(page, "race") == pytest.approx(odds.race(p, 2, 2), abs=1e-4)


def test_a_rating_that_cannot_be_read_never_stops_a_match(table, players, marker_user, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the ratings are down")

    monkeypatch.setattr(rating, "skill_of", broken)
    match = start(table, players[0], players[1], marker_user)
    assert match.skills == {} and match.status == MatchStatus.IN_PROGRESS
    monkeypatch.undo()
    assert selectors.match_odds(match) is not None  # read as of now instead


def test_the_board_shows_the_odds_from_the_frame_score_in_the_frames_seat_order(
    client, marker_client, table, players, marker_user, skills
):
    from records import glicko, odds

    a, b = players[0], players[1]
    skills[a.pk] = glicko.Skill(1650, 60, games=80)
    skills[b.pk] = glicko.Skill(1500, 60, games=80)
    p = glicko.win_probability(skills[a.pk], skills[b.pk])
    match = start(table, a, b, marker_user, race_to=3)
    board = client.get(reverse("games:board", args=[table.number])).content.decode()
    assert shown_probability(board, "now") == pytest.approx(odds.race(p, 3, 3), abs=1e-4)
    assert "Шансы на матч:" in board  # A breaks: A first, as the seats below
    win_frame(marker_client, match, "a")  # 1 : 0, B breaks the next frame: B first
    board = client.get(reverse("games:board", args=[table.number])).content.decode()
    assert shown_probability(board, "now") == pytest.approx(1 - odds.race(p, 2, 3), abs=1e-4)
    assert "Шансы на матч сейчас:" in board
    b_first = round((1 - odds.race(p, 2, 3)) * 100)
    assert re.search(rf"{b.full_name}</span></span> <b[^>]*>{b_first}\u00a0%", board)
    win_frame(marker_client, match, "a")
    win_frame(marker_client, match, "a")  # 3 : 0, over: no odds any more
    board = client.get(reverse("games:board", args=[table.number])).content.decode()
    assert "data-odds" not in board
