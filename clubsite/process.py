"""What a server's worker process does once it has started (``clubsite.asgi``,
``clubsite.wsgi``; the benchmarks that time the request handler do it too, to time what a
worker runs)."""

import gc


def settle_garbage_collector():
    """What start-up made lives as long as the process: the garbage collector leaves it out of
    its passes (``gc.freeze``), and runs less often. Its full passes over every module's,
    template's and open stream's objects otherwise stall a request now and then by tens of
    milliseconds: a stroke's way to the screens (bench/board_push.py), the busiest player's
    page (p95 160–181 ms against 113–130 ms settled, bench/network.py's club of 2,000,000
    games)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)
