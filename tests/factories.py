"""factory-boy factories shared by the whole test suite (add yours with small edits)."""

import factory
from django.contrib.auth.models import Group, User

from clubsite.roles import ensure_roles
from players.models import Player, SkillClass
from tables.models import Table, TableKind


class UserFactory(factory.django.DjangoModelFactory):
    """``UserFactory(groups=["Admins"])`` puts the user in those role groups."""

    class Meta:
        model = User
        django_get_or_create = ["username"]
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pass-1234")

    @factory.post_generation
    def groups(self, create, names, **kwargs):
        if create and names:
            ensure_roles()
            self.groups.add(*Group.objects.filter(name__in=names))


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    full_name = factory.Sequence(lambda n: f"Игрок Номер {n}")
    nickname = ""
    skill_class = SkillClass.NOVICE
    is_active = True


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table
        django_get_or_create = ["number"]

    number = factory.Sequence(lambda n: n + 1)
    name = ""
    kind = TableKind.PYRAMID_12


class GameFactory(factory.django.DjangoModelFactory):
    """A game in progress, started through ``games.services.start_game`` (so validated):
    ``GameFactory(variant="cork", seats=[player, "Гость"], settings={"target": 50})``."""

    class Meta:
        model = "games.Game"

    table = factory.SubFactory(TableFactory)
    variant = "cork"
    settings = factory.Dict({})
    seats = factory.LazyFunction(lambda: ["Гость Первый", "Гость Второй"])
    marker = None

    @classmethod
    def _create(cls, model_class, *, table, variant, settings, seats, marker, **kwargs):
        from games import services

        return services.start_game(
            table=table, variant=variant, settings=settings, seats=seats, marker=marker
        )
