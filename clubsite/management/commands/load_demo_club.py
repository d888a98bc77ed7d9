"""A demo club to try the site with: tables, players, an admin, a marker and some games.

Idempotent: what exists is left exactly as it is; the users' random passwords are printed
only when the users are created; the demo games are played only into a club without games.

With ``--network``: a network of three clubs in two cities on one site, each answering its
own host name under ``*.localhost`` (which browsers and curl resolve to 127.0.0.1). The demo
club is the first; each of the two others gets the same demo of its own (tables, tariffs,
games, bills, tournaments) and its own staff (``sokol-admin``, ``sokol-marker``…, passwords
printed); the players are the network's, one person in every club's games. The network's
team league plays its match days at the first two clubs.
"""

import os
import secrets
from contextlib import nullcontext
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from billing.demo import load_demo_clocks, load_demo_history, load_demo_tariffs
from clubs.current import default_club, using_club
from clubs.models import Club
from clubs.services import free_slug
from clubs.staff import grant
from games import rules
from games.demo import load_demo_games
from games.models import Game
from ladder.demo import load_demo_ladder
from leagues.demo import load_demo_league, load_demo_network_league
from me import services as me_services
from players.models import Player, SkillClass, join_club
from season.demo import load_demo_series
from tables.models import Table, TableKind
from toolbox.roles import ADMINS, CASHIERS, MARKERS, ensure_roles
from toolbox.roles import PLAYERS as PLAYERS_GROUP
from tournaments.demo import load_demo_tournament_money, load_demo_tournaments

TABLES = [
    (1, "Зелёный", TableKind.PYRAMID_12),
    (2, "Турнирный", TableKind.PYRAMID_12),
    (3, "У окна", TableKind.PYRAMID_11),
    (4, "Малый", TableKind.PYRAMID_10),
    (5, "Клубный", TableKind.PYRAMID_12),
    (6, "Дальний", TableKind.PYRAMID_11),
]

PLAYERS = [
    ("Иван Петрович Соколов", "Сокол", SkillClass.MASTER),
    ("Алексей Смирнов", "Лёха", SkillClass.CANDIDATE_MASTER),
    ("Дмитрий Кузнецов", "", SkillClass.FIRST),
    ("Сергей Попов", "Профессор", SkillClass.FIRST),
    ("Андрей Васильев", "", SkillClass.SECOND),
    ("Михаил Новиков", "Миша", SkillClass.SECOND),
    ("Николай Фёдоров", "", SkillClass.THIRD),
    ("Павел Морозов", "Паша", SkillClass.THIRD),
    ("Ольга Волкова", "", SkillClass.SECOND),
    ("Елена Лебедева", "Лена", SkillClass.NOVICE),
    ("Владимир Козлов", "Дед", SkillClass.CANDIDATE_MASTER),
    ("Артём Егоров", "", SkillClass.NOVICE),
    ("Константин Преображенский", "", SkillClass.FIRST),  # the longest name the boards show
]


def demo_tables():
    """The named tables, and numbered ones if the rules have more games than that: every game
    is left in progress at a table of its own, and two tables stay free."""
    rows = list(TABLES)
    while len(rows) < len(rules.VARIANTS) + 2:
        rows.append((len(rows) + 1, f"Стол {len(rows) + 1}", TableKind.PYRAMID_12))
    return rows


USERS = [("admin", ADMINS, True), ("marker", MARKERS, False), ("cashier", CASHIERS, False)]
# Two players with accounts of their own (/me/): (full name, nickname, username).
PLAYER_ACCOUNTS = [("Иван Петрович Соколов", "Сокол", "sokol"), ("Елена Лебедева", "Лена", "lena")]
# Where the printed sign-in links point: DEMO_SITE, which `make run` sets to the address it
# serves (its HOST); this without it.
DEFAULT_SITE = "http://127.0.0.1:8000"


# The demo network (--network): the demo club first, then two clubs of their own rows only.
# (slug, name, host names, city, address); the first club keeps its name (CLUB_NAME's).
NETWORK = [
    (None, None, ["tsentr.localhost", "localhost", "127.0.0.1"], "Москва", "ул. Тверская, 1"),
    ("sokol", "Сокол", ["sokol.localhost"], "Москва", "Ленинградский пр-т, 75"),
    ("neva", "Нева", ["neva.localhost"], "Санкт-Петербург", "Невский пр-т, 28"),
]
NETWORK_TIME_ZONE = "Europe/Moscow"


def demo_site():
    return os.environ.get("DEMO_SITE", DEFAULT_SITE).rstrip("/")


class Command(BaseCommand):
    help = "Load a demo club (tables, players, an admin and a marker); safe to run again."

    def add_arguments(self, parser):
        parser.add_argument(
            "--network",
            action="store_true",
            help="three clubs in two cities, at tsentr.localhost, sokol.localhost and "
            "neva.localhost (the demo club is the first)",
        )

    @transaction.atomic
    def handle(self, *args, **options):
        clubs = self.network() if options["network"] else [None]
        ensure_roles()
        for club in clubs:
            with using_club(club) if club is not None else nullcontext():
                if club is not None:
                    self.stdout.write(self.style.MIGRATE_HEADING(f"{club.name}:"))
                self.club(first=club is None or club == clubs[0], slug=club and club.slug)
        if options["network"]:
            with using_club(clubs[0]):
                regulars = Player.objects.filter(
                    full_name__in=[row[0] for row in PLAYERS], is_active=True
                ).order_by("pk")
                leagues = load_demo_network_league(clubs=clubs, players=list(regulars))
            self.stdout.write(f"The network's leagues: {leagues} created.")

    def club(self, first, slug, history_days=7):
        """The demo of the club in scope: the first club's staff are ``admin``, ``marker`` and
        ``cashier``, another club's ``<slug>-admin``…; its relays' topics are its own; its
        billing history ``history_days`` long."""
        prefix = "" if first else f"{slug}-"
        tables = demo_tables()
        new_tables = sum(self.table(*row, topic_prefix=prefix) for row in tables)
        new_players = sum(self.player(*row) for row in PLAYERS)
        self.stdout.write(f"Tables: {new_tables} created, {len(tables) - new_tables} existed.")
        self.stdout.write(f"Players: {new_players} created, {len(PLAYERS) - new_players} existed.")
        for username, group, is_staff in USERS:
            self.user(prefix + username, group, is_staff)
        for full_name, nickname, username in PLAYER_ACCOUNTS if first else []:
            self.player_account(
                Player.objects.get(full_name=full_name, nickname=nickname), username
            )
        # The tournaments first: the demo games leave every table with a game in progress.
        tournaments = load_demo_tournaments(
            players=[Player.objects.get(full_name=row[0], nickname=row[1]) for row in PLAYERS],
            marker=get_user_model().objects.get(username=prefix + "marker"),
        )
        self.stdout.write(f"Tournaments: {tournaments} created.")
        self.stdout.write(f"Series: {load_demo_series()} created.")
        ladders = load_demo_ladder(
            players=[Player.objects.get(full_name=row[0], nickname=row[1]) for row in PLAYERS]
        )
        self.stdout.write(f"Ladders: {ladders} created.")
        accounts = [Player.objects.get(full_name=f, nickname=n) for f, n, _u in PLAYER_ACCOUNTS]
        leagues = load_demo_league(
            players=[Player.objects.get(full_name=row[0], nickname=row[1]) for row in PLAYERS],
            captains=accounts if first else (),
        )
        self.stdout.write(f"Leagues: {leagues} created.")
        games_before = Game.objects.filter(match_frame=None).count()
        games = load_demo_games(
            tables=[Table.objects.get(number=row[0]) for row in tables],
            players=[Player.objects.get(full_name=row[0], nickname=row[1]) for row in PLAYERS],
            marker=get_user_model().objects.get(username=prefix + "marker"),
        )
        tariffs = load_demo_tariffs()
        self.stdout.write(f"Tariffs: {tariffs} created.")
        tables = [Table.objects.get(number=row[0]) for row in tables]
        admin = get_user_model().objects.get(username=prefix + "admin")
        sessions = load_demo_history(
            tables=tables,
            players=list(Player.objects.filter(is_active=True)[:12]),
            user=admin,
            marker=get_user_model().objects.get(username=prefix + "marker"),
            days=history_days,
        )
        self.stdout.write(f"Billing history: {sessions} past sessions created.")
        if sessions:  # in the history's open shift
            payouts = load_demo_tournament_money(user=admin)
            self.stdout.write(f"The cup's fees taken and prizes paid: {payouts} payouts.")
        # The running clocks come with the history only: a rerun starts nothing new.
        clocks = load_demo_clocks(tables=tables, user=admin) if sessions else 0
        self.stdout.write(f"Table clocks: {clocks} started.")
        # The billing history plays some games of its own (the loser pays for them).
        games = Game.objects.filter(match_frame=None).count() - games_before
        self.stdout.write(f"Games: {games} created." if games else "Games: the club has games.")

    def network(self):
        """The demo club's row gets its host names, and two more clubs are added (once): the
        clubs, the demo club first."""
        port = urlsplit(demo_site()).port
        clubs = []
        for slug, name, hosts, city, address in NETWORK:
            if slug is None:  # the demo club: the first club (the migration's)
                club = Club.objects.order_by("pk").first() or default_club()
                if not club.slug:
                    club.slug = free_slug(club.name, hosts)
            else:
                club = Club.objects.filter(slug=slug).first() or Club(
                    name=name, slug=slug, time_zone=NETWORK_TIME_ZONE
                )
            club.hosts = club.hosts + [host for host in hosts if host not in club.hosts]
            if not club.city:
                club.city, club.address = city, address
            club.save()
            where = f"http://{hosts[0]}" + (f":{port}" if port else "") + "/"
            self.stdout.write(f"Club {club.name!r} ({club.city}): {where}")
            clubs.append(club)
        return clubs

    def table(self, number, name, kind, topic_prefix=""):
        # Each table's light relay has the Topic "table<N>" (lights/, with MQTT_URL set); in
        # another club of the network "<slug>-table<N>" (the broker is the site's).
        defaults = {"name": name, "kind": kind, "light_topic": f"{topic_prefix}table{number}"}
        _table, created = Table.objects.get_or_create(number=number, defaults=defaults)
        return created

    def player(self, full_name, nickname, skill_class):
        """A person of the demo, on the roster of the club in scope: the network's clubs share
        their regulars (one person, a membership at each)."""
        person = Player.everywhere.filter(full_name=full_name, nickname=nickname).first()
        if person is not None:
            join_club(person)
            return False
        Player.objects.create(full_name=full_name, nickname=nickname, skill_class=skill_class)
        return True

    def player_account(self, player, username):
        """A player's own account (the Players group), and a one-time sign-in link printed
        like the staff passwords: the first time only."""
        User = get_user_model()
        if player.user_id or User.objects.filter(username=username).exists():
            self.stdout.write(f"Player account {username!r} exists; the desk issues new links.")
            return
        user = User.objects.create_user(username)
        grant(user, PLAYERS_GROUP)
        player.user = user
        player.save(update_fields=["user"])
        token = me_services.issue_link(player=player, user=None)
        self.stdout.write(
            self.style.SUCCESS(
                f"Created player account {username!r} ({player.display_name}); sign in on a "
                f"phone once, within 24 h: {demo_site()}/me/join/{token}/"
            )
        )

    def user(self, username, group, is_staff):
        User = get_user_model()
        if User.objects.filter(username=username).exists():
            self.stdout.write(f"User {username!r} exists; its password is unchanged.")
            return
        password = secrets.token_urlsafe(12)
        user = User.objects.create_user(username, password=password, is_staff=is_staff)
        grant(user, group)
        self.stdout.write(
            self.style.SUCCESS(f"Created user {username!r} ({group}) with password: {password}")
        )
