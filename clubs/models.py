from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.http.request import split_domain_port
from django.utils.translation import gettext_lazy as _

from clubs.scoping import ClubOwned


def validate_time_zone(value):
    """A time zone of the IANA database as ``zoneinfo`` knows it (``Europe/Moscow``)."""
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationError(
            _("Unknown time zone %(zone)s (e.g. Europe/Moscow)."),
            code="time_zone",
            params={"zone": value},
        ) from None


def normalize_host(host):
    """A host name as the club compares it: lower case, without a port or a trailing dot."""
    host = host.strip().lower().rstrip(".")
    if host.startswith("["):  # an IPv6 address: [::1]:8000
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class Club(models.Model):
    """A club of the network. Its host names decide which requests are its own
    (``clubs.middleware``); a club without hosts answers any host while it is the only club.
    """

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name"), max_length=50, unique=True)
    hosts = models.JSONField(
        _("host names"),
        default=list,
        blank=True,
        help_text=_("The addresses it answers to, e.g. sokol.example (without http:// or port)."),
    )
    time_zone = models.CharField(_("time zone"), max_length=64, validators=[validate_time_zone])
    city = models.CharField(_("city"), max_length=100, blank=True)
    address = models.CharField(_("address"), max_length=200, blank=True)
    rank_provisional = models.BooleanField(
        _("places for provisional ratings"),
        default=False,
        help_text=_(
            "Leaderboards give a place to players whose rating is still provisional. "
            "Unticked: they are listed below the ranked players, without a place."
        ),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.hosts = normalized_hosts(self.hosts)
        super().save(*args, **kwargs)

    def home_url(self, request):
        """The club's home page at its first host name, with the scheme and the port of
        ``request`` (the network's clubs are served by one site); ``/`` for a club without
        host names, the only club, which answers any address."""
        if not self.hosts:
            return "/"
        _domain, port = split_domain_port(request.get_host())
        return f"{request.scheme}://{self.hosts[0]}{f':{port}' if port else ''}/"

    def clean(self):
        super().clean()
        self.hosts = normalized_hosts(self.hosts)
        taken = hosts_taken(self.hosts, other_than=self.pk)
        if taken:
            raise ValidationError(
                {
                    "hosts": _("Another club already answers to %(hosts)s.")
                    % {"hosts": ", ".join(taken)}
                }
            )
        # With several clubs a club answers only its own host names: none may be without.
        others = Club.objects.exclude(pk=self.pk) if self.pk else Club.objects.all()
        if others.exists() and not self.hosts:
            raise ValidationError(
                {"hosts": _("With several clubs each club needs its host names.")}
            )
        homeless = [club.name for club in others if not club.hosts]
        if homeless:
            raise ValidationError(
                _(
                    "Give %(clubs)s its host names first (Clubs in the admin): with several "
                    "clubs a club without host names answers no address."
                )
                % {"clubs": ", ".join(f"«{name}»" for name in homeless)}
            )


def normalized_hosts(hosts):
    """The hosts in lower case without ports, each once, in their order."""
    found = []
    for host in hosts or []:
        host = normalize_host(str(host))
        if host and host not in found:
            found.append(host)
    return found


def hosts_taken(hosts, other_than=None):
    """Those of ``hosts`` another club already answers to."""
    others = Club.objects.exclude(pk=other_than) if other_than else Club.objects.all()
    taken = {host for club_hosts in others.values_list("hosts", flat=True) for host in club_hosts}
    return [host for host in hosts if host in taken]


class StaffRole(ClubOwned):
    """A user's role at a club: its Admins, Markers or Cashiers (``toolbox.roles``). Staff
    roles are per club: the cashier of one club is nobody at another. The roles that are not
    a club's (a player's own account, the network's admins) stay Django groups."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_roles",
        verbose_name=_("user"),
    )
    group = models.ForeignKey(
        "auth.Group", on_delete=models.CASCADE, related_name="+", verbose_name=_("role")
    )

    class Meta:
        ordering = ["user__username", "group__name"]
        verbose_name = _("staff role")
        verbose_name_plural = _("staff roles")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user", "group"],
                name="one_role_once_per_club",
                violation_error_message=_("The user has this role at the club already."),
            )
        ]

    def __str__(self):
        return f"{self.user} · {self.group}"
