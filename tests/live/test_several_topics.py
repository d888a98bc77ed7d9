"""A screen may follow several topics (a player's page: his own and his tournament's): a
change of any wakes it, and its generation grows with each."""

import asyncio

from live.hub import Hub, ThreadSubscription


class NoBroker:
    name = "none"

    async def listen(self, deliver, ready):  # never connects: the test delivers by hand
        await asyncio.Event().wait()


def test_a_subscription_to_two_topics_wakes_for_either():
    hub = Hub(NoBroker())
    topics = ("player.7", "tournament.3")
    screen = hub.subscribe(ThreadSubscription(topics))
    try:
        assert hub.generation(topics) == 0
        hub.deliver(["tournament.3"])
        assert screen.wait(1) is True and hub.generation(topics) == 1
        hub.deliver(["player.7", "tournament.3"])  # one message naming both: one wake-up
        assert screen.wait(1) is True and hub.generation(topics) == 3
        hub.deliver(["table.1"])
        assert screen.wait(0.05) is False
        assert hub.subscriber_count() == 1
    finally:
        hub.unsubscribe(screen)
        hub.stop()
    assert hub.subscriber_count() == 0
