"""A phone in Chromium through the Chrome DevTools Protocol: its CPU and its Wi-Fi slowed, on
the page and on the workers it starts (its service worker, the engine's worker), and every
response that crossed the network counted (``bench/offline_engine.py`` and
``tests/games/test_offline_browser.py``)."""

import json
import os
from collections import Counter
from urllib.parse import urlparse

NETWORK = {  # a slow Wi-Fi: 1.6 Mbit/s down, 750 kbit/s up, 150 ms latency
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1_600_000 / 8,
    "uploadThroughput": 750_000 / 8,
}
FAST = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


class Phone:
    """A page slowed as a phone on a slow Wi-Fi, and its targets too (its service worker, its
    engine's worker: auto-attached paused, slowed, then let run), every response that crossed
    the network counted, through the page's DevTools session."""

    def __init__(self, page, rate=1, network=NETWORK):
        self.rate = rate
        self.network = network
        self.bytes = 0
        self.fetched = Counter()  # path → how many times it crossed the network
        self.sizes = Counter()  # path → its bytes over the wire, all times together
        self.requested = Counter()  # path → how many times asked not of the service worker
        self.slowed = set()  # the kinds of targets slowed (page, service_worker, worker)
        self.urls = {}
        self.ids = 0
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.on("Network.responseReceived", self.response)
        self.cdp.on("Network.loadingFinished", self.finished)
        self.cdp.on("Target.attachedToTarget", lambda event: self.attached(None, event))
        self.cdp.on("Target.receivedMessageFromTarget", self.received)
        for method, params in self.commands():
            self.cdp.send(method, params)

    def commands(self):
        return [
            ("Network.enable", {}),
            ("Network.emulateNetworkConditions", self.network),
            ("Emulation.setCPUThrottlingRate", {"rate": self.rate}),
            ("Target.setAutoAttach", {
                "autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False,
            }),
            ("Runtime.runIfWaitingForDebugger", {}),
        ]  # fmt: skip

    def send(self, path, method, params):
        """Sends to the target at ``path`` (session ids, outermost first; [] is the page)."""
        self.ids += 1
        message = {"id": self.ids, "method": method, "params": params}
        for session in reversed(path[1:]):
            self.ids += 1
            inner = json.dumps(message)
            message = {
                "id": self.ids,
                "method": "Target.sendMessageToTarget",
                "params": {"sessionId": session, "message": inner},
            }
        if not path:
            self.cdp.send(method, params)
        else:
            self.cdp.send(
                "Target.sendMessageToTarget",
                {"sessionId": path[0], "message": json.dumps(message)},
            )

    def attached(self, parent, event):
        path = [*(parent or []), event["sessionId"]]
        self.slowed.add(event["targetInfo"]["type"])
        for method, params in self.commands():
            if method == "Emulation.setCPUThrottlingRate" and event["targetInfo"]["type"] not in (
                "worker",
                "service_worker",
            ):
                continue
            try:
                self.send(path, method, params)
            except Exception as error:  # a target gone meanwhile
                print(f"  ({event['targetInfo']['type']}: {method}: {error})")

    def received(self, event, parent=None):
        path = [*(parent or []), event["sessionId"]]
        message = json.loads(event["message"])
        method, params = message.get("method"), message.get("params") or {}
        if "error" in message and os.environ.get("LUZA_DEVTOOLS_DEBUG"):
            print("devtools:", path, message)
        if method == "Target.attachedToTarget":
            self.attached(path, params)
        elif method == "Target.receivedMessageFromTarget":
            self.received(params, path)
        elif method == "Network.responseReceived":
            self.response(params, path)
        elif method == "Network.loadingFinished":
            self.finished(params, path)

    def response(self, params, path=()):
        response = params["response"]
        if response.get("fromServiceWorker"):
            return
        self.requested[urlparse(response["url"]).path] += 1
        if not response.get("fromDiskCache"):
            self.urls[(tuple(path), params["requestId"])] = response["url"]

    def finished(self, params, path=()):
        url = self.urls.pop((tuple(path), params["requestId"]), None)
        if url is not None:
            size = int(params.get("encodedDataLength", 0))
            self.bytes += size
            self.fetched[urlparse(url).path] += 1
            self.sizes[urlparse(url).path] += size

    def close(self):
        self.cdp.detach()


class SlowRenderers:
    """Chromium's renderer processes (the page and its workers: the DevTools protocol slows
    a page's CPU only, «Operation is only supported for pages, not workers») given a CPU
    ``rate`` times slower: their CPU time together kept under the wall time since the start
    divided by ``rate``, by stopping them (SIGSTOP) while they are over it and continuing
    them (SIGCONT) once under, checked every few milliseconds. A context manager."""

    TICK = 0.005  # seconds
    HZ = os.sysconf("SC_CLK_TCK")

    def __init__(self, rate):
        self.rate = rate
        self.running = False

    def renderers(self):
        """This process's descendants that are Chromium renderers."""
        parents, renderers = {}, []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    if b"--type=renderer" in cmdline.read():
                        renderers.append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
        mine = []
        for pid in renderers:
            ancestor = parents.get(pid)
            while ancestor and ancestor != os.getpid():
                ancestor = parents.get(ancestor)
            if ancestor == os.getpid():
                mine.append(pid)
        return mine

    def cpu(self, pid):
        """The seconds of CPU ``pid`` has used (user and system), 0 once gone."""
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / self.HZ
        except (OSError, IndexError, ValueError):
            return 0.0

    def signal(self, pids, number):
        for pid in pids:
            try:
                os.kill(pid, number)
            except ProcessLookupError:
                pass

    def cycle(self):
        import signal
        import time

        started, found, pids, before = time.monotonic(), 0.0, [], {}
        stopped = False
        while self.running:
            now = time.monotonic()
            if now - found > 0.5:  # new workers, new renderers
                pids, found = self.renderers(), now
                before.update({pid: self.cpu(pid) for pid in pids if pid not in before})
            used = sum(self.cpu(pid) - before[pid] for pid in pids)
            over = used > (now - started) / self.rate
            if over and not stopped:
                self.signal(pids, signal.SIGSTOP)
            elif stopped and not over:
                self.signal(pids, signal.SIGCONT)
            stopped = over
            time.sleep(self.TICK)
        self.signal(pids, signal.SIGCONT)

    def __enter__(self):
        import threading

        if self.rate > 1:
            self.running = True
            self.thread = threading.Thread(target=self.cycle, daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc):
        import signal

        if self.running:
            self.running = False
            self.thread.join()
            self.signal(self.renderers(), signal.SIGCONT)
