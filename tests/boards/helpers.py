"""Helpers for the boards' tests: games through the console's services, HTML probes."""

import re

from games import rules, services


def start(table, variant, seats, marker, **settings):
    return services.start_game(
        table=table, variant=variant, settings=settings, seats=seats, marker=marker
    )


def record(game, marker, *events):
    """Records rules events one by one through the console's service."""
    for event in events:
        game = services.record_event(
            game=game, expected_seq=game.last_seq, event=event, user=marker
        )
    return game


def ev(kind, **details):
    return rules.Event(kind, **details)


def poll(client, url, fp):
    """What htmx sends every second: the fingerprint the board shows."""
    return client.get(url, {"fp": fp}, headers={"HX-Request": "true"})


def shown_fp(html):
    return re.search(r'data-fp="([^"]+)"', html).group(1)


def seats(html):
    """[(classes, name, score)] for each seat card of a table board, in playing order."""
    cards = re.findall(r'<li class="seat([^"]*)"\s+data-seat="\d+">(.*?)</li>', html, re.S)
    result = []
    for classes, body in cards:
        name = re.search(r'class="seat-name">([^<]*)<', body).group(1)
        score = re.search(r"data-score>([^<]*)<", body).group(1)
        result.append((classes.split(), name, score))
    return result


def text_of(html, attribute):
    """The text of the element carrying ``attribute`` (e.g. ``data-bank``)."""
    return re.search(rf"{attribute}>([^<]*)<", html).group(1).strip()
