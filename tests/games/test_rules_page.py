"""The public rules page: every game, its settings with defaults, its fouls, and which points
are decisions of this software — in Russian by default and in English on request."""

import html

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.i18n import render_message
from games.rules import VARIANTS

pytestmark = pytest.mark.django_db


def page_text(client, **headers):
    response = client.get(reverse("games:rules"), **headers)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_the_rules_page_is_public(client):
    response = client.get("/rules/")
    assert response.status_code == 200
    assert "games/rules/rules.html" in [t.name for t in response.templates]


def test_only_get_is_served(client):
    assert client.post(reverse("games:rules")).status_code == 405


def test_russian_by_default_every_game_its_settings_fouls_and_decisions(client):
    text = page_text(client)
    assert '<html lang="ru">' in text
    assert "Правила игр" in text
    with translation.override("ru"):
        for variant in VARIANTS.values():
            assert render_message(variant.name) in text
            for field in variant.settings_fields:
                assert render_message(field.label) in text
            for label in variant.foul_labels.values():
                assert render_message(label) in text
            for decision in variant.decisions:
                assert render_message(decision) in text
    # The number of players, the decision mark and a default.
    assert "От 2 до 8 игроков" in text
    assert "решение" in text
    assert "без форы" in text  # «Кладка шаров кием»: no handicap by default


def test_english_with_the_language_cookie(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    text = page_text(client)
    assert '<html lang="en">' in text
    assert "Rules of the games" in text
    for variant in VARIANTS.values():
        assert variant.name.render() in text
        for field in variant.settings_fields:
            assert field.label.render() in text
    assert "Pocketing with the cue" in text
    assert "«Пробка»" in text  # the title in the source, beside the translated name
    assert "Decisions of this software" in text
    assert "no handicap" in text


def test_english_with_accept_language(client):
    text = page_text(client, HTTP_ACCEPT_LANGUAGE="en")
    assert "Cue against hand" in text
    assert "What the source says" in text


def test_each_game_has_a_section_with_its_players_and_defaults(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    text = page_text(client)
    for key in VARIANTS:
        assert f'id="{key}"' in text
    assert "2 to 8 players" in text  # «Кладка шаров кием»
    assert "2 to 10 players" in text  # «Пробка»
    # «Снимание шаров рукой»: the first to 8 balls, allowed 1 to 8, marked as a decision.
    section = text.split('id="cue_vs_hand"')[1]
    row = section.split("Balls to win")[1].split("</tr>")[0]
    assert '<td class="default">8</td>' in row
    assert "1 to 8" in row
    assert "decision" in row


def test_every_setting_marked_as_a_decision_in_the_engine_is_marked_on_the_page(client):
    text = page_text(client)
    decided = [f for v in VARIANTS.values() for f in v.settings_fields if f.decision]
    assert decided, "the engine marks some settings as decisions"
    assert text.count('<tr class="is-decision">') == len(decided)
    stated = [f for v in VARIANTS.values() for f in v.settings_fields if not f.decision]
    assert text.count('<tr>\n            <th scope="row">') == len(stated)


def test_fouls_are_marked_as_stated_by_the_source_or_decided(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    text = page_text(client)
    sections = {key: text.split(f'id="{key}"')[1].split("</section>")[0] for key in VARIANTS}
    for key, from_source in {"cork": True, "cue_run": True, "clockwise": False}.items():
        fouls_heading = sections[key].split("Fouls</h3>")[0].rsplit("<h3>", 1)[1]
        assert ("mark-source" in fouls_heading) == from_source
        assert ("mark-decision" in fouls_heading) != from_source
    # «Снимание шаров рукой»: the source breaks off, so its fouls are decisions.
    assert "mark-decision" in sections["cue_vs_hand"].split("Fouls</h3>")[0].rsplit("<h3>", 1)[1]
    assert "Here the source text breaks off mid-sentence." in sections["cue_vs_hand"]


def test_the_page_settles_the_one_point_mode_and_draws_among_three_or_more(client):
    """The two readings of docs/rules/, as the club reads them on the rules page (in English)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    clockwise, cue_run = (
        html.unescape(part)
        for part in page_text(client).split('data-game="clockwise"')[1].split('data-game="cue_run"')
    )
    assert "the first to 8 points wins, and a foul costs the value of the ball on, i.e. 1" in (
        clockwise
    )
    assert (
        "With three or more the best adjusted total wins; when several share it, they draw — a "
        "normal draw when each of them ran 16 in 16, otherwise a conditional draw — and the "
        "others lose." in cue_run.split('data-game="cue_vs_hand"')[0]
    )
