"""The table lights follow the clocks: relays (Tasmota over MQTT) switched on while a table's
time is paid for, and an alarm when a table is lit off the books.

- ``wanted.py``: what each light should be, from the clock (pure: no Django, no I/O);
- ``drivers/``: the one small relay interface and its MQTT implementation (Tasmota's topics);
- ``controller.py``: the loop that keeps every relay as the clocks say, run by one process
  (``manage.py lights``, elected through ``leader.py``);
- ``models.py``, ``selectors.py``, ``services.py``, ``views.py``: what the desk and the home
  page show of the lights, an admin's light for cleaning, the lights' log.
"""
