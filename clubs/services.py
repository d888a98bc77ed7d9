from django.core.exceptions import ValidationError
from django.utils.text import slugify

from clubs.models import Club, normalized_hosts


def add_club(name, hosts, time_zone, city="", address=""):
    """A new club answering ``hosts``; ``ValidationError`` for a host another club answers or
    a time zone ``zoneinfo`` does not know."""
    club = Club(
        name=name.strip(),
        slug=free_slug(name, hosts),
        hosts=normalized_hosts(hosts),
        time_zone=time_zone,
        city=city,
        address=address,
    )
    club.full_clean()
    club.save()
    return club


def free_slug(name, hosts=()):
    """A short name no club has: from the name, else the first host's first label."""
    base = slugify(name) or slugify((list(hosts) or ["club"])[0].split(".")[0]) or "club"
    base = base[:45]
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def messages_of(error):
    """A ValidationError's messages in one line."""
    if isinstance(error, ValidationError) and hasattr(error, "message_dict"):
        return "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in error.message_dict.items())
    return " ".join(getattr(error, "messages", [str(error)]))
