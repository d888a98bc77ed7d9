"""Benchmark: preview and import of a 5,000-row roster CSV, as an admin does it.

    .venv/bin/python bench/csv_import.py [--rows 5000] [--smoke]

Uses DATABASE_URL (default postgres://postgres@127.0.0.1:5432/luza_bench) only to reach the
server: like the test runner it creates a throwaway database ``test_<name>``, migrates it and
drops it at the end (with SQLite: an in-memory one), so no real data is touched.

The roster holds half as many players as the file has rows; the file names all of them
(a third with a changed phone and class, the rest unchanged) and as many new ones. Both steps
go through the pages with Django's test client, everything included (upload, parsing, the
checks of every row, the preview's HTML; the confirm step's transaction): the upload that
shows the preview, then "Confirm and write". Prints the time of each (target: under 5 s each
for 5,000 rows) and checks what was written. ``--smoke``: 200 rows, for the test suite.
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/luza_bench")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

TARGET_S = 5.0
HEADER = "full_name,nickname,phone,email,skill_class,active,notes\n"


def roster_csv(rows):
    """(existing players, the file's text): ``rows`` rows, half of them players already kept."""
    from players.models import Player, name_key_for, search_key

    existing = rows // 2
    players = [
        Player(
            full_name=f"Игрок Номер {n:05d}",
            nickname=f"П{n}" if n % 3 == 0 else "",
            phone=f"+7 900 {n:03d}-00-00" if n % 2 else "",
            skill_class="novice",
            notes="левша" if n % 5 == 0 else "",
        )
        for n in range(existing)
    ]
    for player in players:  # what save() derives: bulk_create does not call it
        player.search_text = search_key(player.full_name, player.nickname, player.phone)
        player.name_key = name_key_for(player.full_name, player.nickname)
    lines = [HEADER]
    for n in range(rows):
        nickname = f"П{n}" if n % 3 == 0 else ""
        phone = f"+7 900 {n:03d}-00-00" if n % 2 else ""
        skill = "novice"
        if n < existing and n % 3 == 1:  # an update: new phone and class
            phone, skill = f"+7 911 {n:03d}-11-11", "2"
        notes = "левша" if n % 5 == 0 else ""
        lines.append(f"Игрок Номер {n:05d},{nickname},{phone},,{skill},1,{notes}\n")
    return players, "".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--smoke", action="store_true", help="200 rows: does it still run?")
    args = parser.parse_args()
    rows = 200 if args.smoke else args.rows

    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from bench.support import throwaway_database, verdict
    from clubs.staff import grant
    from players.models import Player
    from toolbox.roles import ADMINS, ensure_roles

    setup_test_environment()  # the test client's response.context, "testserver" allowed
    with throwaway_database():
        ensure_roles()
        admin = User.objects.create_user("bench-admin", password="bench-only")
        grant(admin, ADMINS)
        players, text = roster_csv(rows)
        Player.objects.bulk_create(players, batch_size=1000)
        client = Client(HTTP_ACCEPT_LANGUAGE="ru")
        client.force_login(admin)
        client.get(reverse("players:import"))  # warm up: templates, session, URL resolver

        began = time.perf_counter()
        upload = SimpleUploadedFile("players.csv", text.encode("utf-8"), content_type="text/csv")
        preview = client.post(reverse("players:import"), {"file": upload})
        preview_s = time.perf_counter() - began
        plan = preview.context["plan"]
        assert preview.status_code == 200 and plan.ok, [r.errors for r in plan.bad_rows][:3]
        expected = {
            "new": rows - len(players),
            "linked": 0,  # every player the file names is on this club's roster
            "updated": sum(1 for n in range(len(players)) if n % 3 == 1),
        }
        expected["unchanged"] = len(players) - expected["updated"]
        assert plan.counts == expected, (plan.counts, expected)

        began = time.perf_counter()
        done = client.post(reverse("players:import_confirm"), {"csv_text": text})
        import_s = time.perf_counter() - began
        assert done.status_code == 302, done.status_code
        assert Player.objects.count() == rows
        assert Player.objects.filter(skill_class="2").count() == expected["updated"]

    ok = preview_s < TARGET_S and import_s < TARGET_S
    print(
        f"{rows} rows ({expected['new']} new, {expected['updated']} updated, "
        f"{expected['unchanged']} unchanged)"
    )
    print(f"preview (upload, check every row, render): {preview_s:6.2f} s")
    print(f"import  (confirm: check again, write)     : {import_s:6.2f} s")
    target = f"target: under {TARGET_S:.0f} s each for 5,000 rows: {'met' if ok else 'MISSED'}"
    return verdict(smoke=args.smoke, ok=ok, target=target)


if __name__ == "__main__":
    sys.exit(main())
