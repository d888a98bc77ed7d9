"""Two records of one person made one, and a merge taken back (the network admin's).

``merge_people(source, target, by)`` moves every row that names the source (through any
foreign key to ``Player``, in every club: the walls are down for it) to the target, keeps
the list of moved rows on a ``PersonMerge`` record and deactivates the source (his name is
the target's now); a row the target already has its own of (both on one club's roster,
both entered in one tournament) stays with the source, listed as kept. ``undo_merge`` moves
exactly the listed rows back, as a second record: nothing is ever deleted. The ratings are
derived from the games: they are recomputed at the next read.
"""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.scoping import all_clubs
from players.models import Player
from records import rating
from records.models import PersonMerge, Rating, RatingPoint

DERIVED = (Rating, RatingPoint, PersonMerge)  # recomputed, or the merges' own records


def person_links():
    """Every foreign key to a person: [(its model, its field)]."""
    return [
        (relation.related_model, relation.field)
        for relation in Player._meta.related_objects
        if not relation.many_to_many and relation.related_model not in DERIVED
    ]


def key(model, field):
    return f"{model._meta.label_lower}.{field.name}"


@transaction.atomic
def merge_people(source, target, by=None):
    if source.pk == target.pk:
        raise ValidationError(_("A person cannot be merged into himself."))
    with all_clubs():
        source = Player.everywhere.select_for_update().get(pk=source.pk)
        target = Player.everywhere.select_for_update().get(pk=target.pk)
        if not target.is_active:
            raise ValidationError(
                _("%(name)s is not active: merge into an active person.")
                % {"name": target.full_name}
            )
        moved, kept = {}, {}
        for model, field in person_links():
            ids = list(
                model._base_manager.filter(**{field.name: source}).values_list("pk", flat=True)
            )
            done = move(model, field, ids, target)
            if done:
                moved[key(model, field)] = done
            if len(done) < len(ids):
                kept[key(model, field)] = sorted(set(ids) - set(done))
        if source.user_id and not target.user_id:  # his phone's account follows him
            target.user_id, source.user_id = source.user_id, None
            source.save(update_fields=["user"])
            target.save(update_fields=["user"])
            moved["players.player.user"] = [target.pk]
        source.is_active = False
        source.save(update_fields=["is_active", "updated_at"])
        record = PersonMerge.objects.create(
            source=source, target=target, moved=moved, kept=kept, merged_by=by
        )
    transaction.on_commit(rating.forget)
    return record


def move(model, field, ids, person):
    """Point ``field`` of the rows ``ids`` at ``person``; the ids moved (all of them in one
    statement, else row by row, leaving those that would break a unique constraint)."""
    if not ids:
        return []
    rows = model._base_manager.filter(pk__in=ids)
    try:
        with transaction.atomic():
            rows.update(**{field.name: person})
        return ids
    except IntegrityError:
        pass
    done = []
    for pk in ids:
        try:
            with transaction.atomic():
                model._base_manager.filter(pk=pk).update(**{field.name: person})
            done.append(pk)
        except IntegrityError:
            continue
    return done


@transaction.atomic
def undo_merge(merge, by=None):
    """A second record that moves back exactly what ``merge`` moved, and makes the merged
    person active again (when his name is free)."""
    merge = PersonMerge.objects.select_for_update().get(pk=merge.pk)
    if merge.undoes_id is not None:
        raise ValidationError(_("This record takes a merge back; it cannot be taken back."))
    if PersonMerge.objects.filter(undoes=merge).exists():
        raise ValidationError(_("This merge has been taken back already."))
    with all_clubs():
        source = Player.everywhere.select_for_update().get(pk=merge.source_id)
        target = Player.everywhere.select_for_update().get(pk=merge.target_id)
        links = {key(model, field): (model, field) for model, field in person_links()}
        moved = {}
        for name, ids in merge.moved.items():
            if name == "players.player.user":
                source.user_id, target.user_id = target.user_id, None
                target.save(update_fields=["user"])
                source.save(update_fields=["user"])
                moved[name] = [source.pk]
                continue
            model, field = links[name]
            moved[name] = move(model, field, ids, source)
        source.is_active = True
        try:
            source.validate_constraints()
        except ValidationError:
            source.is_active = False  # another active person took his name meanwhile
        source.save(update_fields=["is_active", "updated_at"])
        record = PersonMerge.objects.create(
            source=target, target=source, moved=moved, undoes=merge, merged_by=by
        )
    transaction.on_commit(rating.forget)
    return record
