"""A feed's screens in one process are one audience (``live.asgi``): one task writes each
change to all of them; a screen whose last write still waits (its client reads slowly) is
skipped meanwhile, and then gets the newest snapshot — not every one it missed."""

import asyncio

import pytest

from live import hub as hubs
from live import streams
from live.asgi import StreamRouter
from live.publishing import publish_now
from live.streams import Feed
from tests.helpers import asgi_scope, run_async

TOPIC = "test.audience"
PATH = "/t/stream/"


def ids(messages):
    """The snapshots a screen received, by their id (heartbeats and the opening have none)."""
    return [
        line[4:]
        for message in messages
        for line in message.get("body", b"").decode().split("\n")
        if line.startswith("id: ")
    ]


async def until(condition, seconds=5):
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "it did not happen"
        await asyncio.sleep(0.01)


@pytest.mark.django_db(transaction=True)
def test_every_screen_gets_each_change_and_a_stalled_one_the_newest(monkeypatch):
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", 60)  # no heartbeat in the way
    shown = {"fp": "v1"}
    feed = Feed(
        key="test-audience",
        topic=TOPIC,
        event="board",
        snapshot=lambda: (shown["fp"], f"<p>{shown['fp']}</p>"),
    )
    router = StreamRouter(None, lambda path: feed, prefixes=("/t/",))

    async def scenario():
        received = {name: [] for name in "ABC"}
        released, gone = asyncio.Event(), asyncio.Event()

        def screen(name):
            asked = []

            async def receive():
                asked.append(True)
                if len(asked) == 1:
                    return {"type": "http.request", "body": b"", "more_body": False}
                await gone.wait()
                return {"type": "http.disconnect"}

            async def send(message):
                if name == "C" and ids([message]) and not released.is_set():
                    await released.wait()  # C's client reads nothing for a while
                received[name].append(message)

            return router(asgi_scope(PATH, "fp=none"), receive, send)

        tasks = [asyncio.create_task(screen(name)) for name in "ABC"]
        await until(lambda: ids(received["A"]) == ids(received["B"]) == ["v1"])
        for fp in ("v2", "v3"):
            shown["fp"] = fp
            await asyncio.to_thread(publish_now, [TOPIC])
            await until(lambda fp=fp: ids(received["A"])[-1] == ids(received["B"])[-1] == fp)
        assert ids(received["A"]) == ["v1", "v2", "v3"]
        assert ids(received["C"]) == []  # its first snapshot's write still waits
        released.set()
        await until(lambda: ids(received["C"]) == ["v1", "v3"])  # then the newest, not v2
        gone.set()
        await asyncio.gather(*tasks)
        return received

    hub = hubs.get_hub()
    received = run_async(scenario())
    assert all(message["more_body"] for name in "ABC" for message in received[name][1:])
    assert not hub._subscribers.get(TOPIC)  # the audience left with its last screen
