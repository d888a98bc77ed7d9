"""Relays flashed with Tasmota (Sonoff and the like), over MQTT (aiomqtt).

Tasmota's convention: a command to ``cmnd/<topic>/POWER`` (``ON``/``OFF``); the relay answers
— and tells every change, a switch pressed by hand included — on ``stat/<topic>/POWER``; its
presence is the retained last will ``tele/<topic>/LWT`` (``Online``/``Offline``).
"""

from urllib.parse import unquote, urlparse

import aiomqtt

from lights.drivers import Driver

POWER = "stat/+/POWER"
LWT = "tele/+/LWT"


def topic_of(full, prefix):
    """ "table3" from "stat/table3/POWER"."""
    parts = full.split("/")
    return parts[1] if len(parts) == 3 and parts[0] == prefix else None


class TasmotaMqtt(Driver):
    name = "mqtt"

    def __init__(self, url, identifier=None):
        parsed = urlparse(url)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 1883
        self.username = unquote(parsed.username) if parsed.username else None
        self.password = unquote(parsed.password) if parsed.password else None
        self.identifier = identifier
        self._client = None

    def client(self):
        return aiomqtt.Client(
            self.host,
            self.port,
            username=self.username,
            password=self.password,
            identifier=self.identifier,
            timeout=5,
            keepalive=15,
        )

    async def run(self, report, connected):
        async with self.client() as client:
            self._client = client
            try:
                await client.subscribe([(POWER, 1), (LWT, 1)])
                connected()
                async for message in client.messages:
                    self._deliver(message, report)
            finally:
                self._client = None

    def _deliver(self, message, report):
        full = str(message.topic)
        payload = bytes(message.payload or b"").decode(errors="replace").strip()
        if full.startswith("stat/") and (topic := topic_of(full, "stat")):
            if payload.upper() in ("ON", "OFF"):
                report(topic, "power", payload.upper() == "ON")
        elif full.startswith("tele/") and (topic := topic_of(full, "tele")):
            report(topic, "online", payload == "Online")

    async def switch(self, topic, on):
        if self._client is None:
            raise aiomqtt.MqttError("not connected")
        await self._client.publish(f"cmnd/{topic}/POWER", "ON" if on else "OFF", qos=1)
