from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs")

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from clubs import db_wall
        from clubs.current import forget_clubs
        from clubs.models import Club

        # The clubs by host are kept in each process: a club saved or deleted here is read
        # again at once (the other processes read them again within CLUBS_REFRESH_SECONDS).
        post_save.connect(forget_clubs, sender=Club, dispatch_uid="clubs-forget-on-save")
        post_delete.connect(forget_clubs, sender=Club, dispatch_uid="clubs-forget-on-delete")
        # The second wall: PostgreSQL's row-level security told the club in scope.
        db_wall.install()
