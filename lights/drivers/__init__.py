"""The relays' one small interface. MQTT (Tasmota's topics) is the first implementation; a
relay board of another kind (KernelChip Laurent over HTTP, Modbus) is one more module here
with the same two methods.

    await driver.run(report, connected)   # keeps the connection: calls connected() once it
                                          # listens, report(topic, kind, value) for every
                                          # state a relay tells (kind "power": True/False;
                                          # "online": True/False); returns or raises when
                                          # the connection is lost
    await driver.switch(topic, on)        # asks the relay of ``topic`` to switch
"""

from django.conf import settings


class Driver:
    name = "?"

    async def run(self, report, connected):
        raise NotImplementedError

    async def switch(self, topic, on):
        raise NotImplementedError


def driver_from_settings():
    """The relays' driver the settings name (``MQTT_URL``), or None: lights are off."""
    url = getattr(settings, "MQTT_URL", "")
    if not url:
        return None
    from lights.drivers.mqtt import TasmotaMqtt

    return TasmotaMqtt(url)
