"""A relay as Tasmota behaves, for the tests and the bench: it keeps a retained last will
(``tele/<topic>/LWT``: ``Online``, ``Offline`` when its connection dies), obeys
``cmnd/<topic>/POWER`` and tells every change on ``stat/<topic>/POWER`` — a press by hand
included."""

import threading
import time
import uuid

import paho.mqtt.client as mqtt


class TasmotaRelay:
    def __init__(self, topic=None, *, host="127.0.0.1", port=1883, answers=True):
        self.topic = topic or f"t{uuid.uuid4().hex[:10]}"
        self.host, self.port, self.answers = host, port, answers
        self.on = False
        self.commands = []  # (monotonic time, "ON"/"OFF") of every command received
        self._connected = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"relay-{self.topic}")
        self.client.will_set(f"tele/{self.topic}/LWT", "Offline", qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_disconnect = lambda *args: self._connected.clear()
        self.client.reconnect_delay_set(0.2, 1)

    def start(self, timeout=5):
        self.client.connect_async(self.host, self.port, keepalive=5)
        self.client.loop_start()
        assert self._connected.wait(timeout), "the relay could not reach the broker"
        return self

    def wait_connected(self, timeout=15):
        return self._connected.wait(timeout)

    def _on_connect(self, client, userdata, flags, reason, properties):
        client.publish(f"tele/{self.topic}/LWT", "Online", qos=1, retain=True)
        client.subscribe(f"cmnd/{self.topic}/POWER", qos=1)
        self._connected.set()

    def _on_message(self, client, userdata, message):
        payload = message.payload.decode().upper()
        self.commands.append((time.monotonic(), payload))
        if self.answers and payload in ("ON", "OFF"):
            self.on = payload == "ON"
            client.publish(f"stat/{self.topic}/POWER", payload, qos=1)

    def press(self, on):
        """Switched by hand (at the wall): the relay tells its new state."""
        self.on = on
        self.client.publish(f"stat/{self.topic}/POWER", "ON" if on else "OFF", qos=1)

    def stop(self, *, clean=True):
        """Gone: ``clean`` also wipes its retained will (the broker forgets the relay)."""
        if clean:
            wiped = self.client.publish(f"tele/{self.topic}/LWT", b"", qos=1, retain=True)
            try:
                wiped.wait_for_publish(2)
            except (RuntimeError, ValueError):
                pass  # its connection is gone already: its will was sent, nothing to wipe
        self.client.disconnect()
        self.client.loop_stop()


def wait_until(condition, timeout=15.0, step=0.02):
    """Polls ``condition`` until it is true (True) or ``timeout`` passes (False). The default
    is for what must happen eventually (a controller connecting, a state stored) on a busy
    machine running the suite in parallel; what must happen within a time passes its own."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return bool(condition())
