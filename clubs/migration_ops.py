"""What the apps' migrations that gave their rows a club share (issue 32): every row that was
there before belongs to the site's first club."""

from django.conf import settings
from django.db import migrations


def first_club(apps):
    """The site's first club; made from the settings when the database holds none."""
    club_model = apps.get_model("clubs", "Club")
    club = club_model.objects.order_by("pk").first()
    if club is None:
        club = club_model.objects.create(
            name=settings.CLUB_NAME, slug="club", time_zone=settings.TIME_ZONE
        )
    return club


def to_first_club(app_label, *model_names):
    """A migration operation: the rows of these models without a club are the first club's."""

    def fill(apps, schema_editor):
        models = [apps.get_model(app_label, name) for name in model_names]
        if not any(model.objects.filter(club__isnull=True).exists() for model in models):
            return
        club = first_club(apps)
        for model in models:
            model.objects.filter(club__isnull=True).update(club=club)

    return migrations.RunPython(fill, migrations.RunPython.noop, elidable=True)


# The second wall (issue 32, ``clubs.db_wall``): PostgreSQL's row-level security on the money
# tables. The role a superuser's connection works within a club as; the session setting the
# club in scope is said in.
WALL_ROLE = "luza_club_wall"
WALL_SETTING = "luza.club"
# The club said, or NULL: none said (unset, or emptied) — then every row.
SAID_CLUB = f"NULLIF(current_setting('{WALL_SETTING}', true), '')::bigint"
POLICY = "club_wall"


def own_club_condition(column="club_id"):
    return f"({SAID_CLUB} IS NULL OR {column} = {SAID_CLUB})"


def parent_club_condition(table, column, parent_table):
    return (
        f"({SAID_CLUB} IS NULL OR EXISTS (SELECT 1 FROM {parent_table} parent "
        f"WHERE parent.id = {table}.{column} AND parent.club_id = {SAID_CLUB}))"
    )


def club_wall(own=(), via=None):
    """A migration operation: row-level security on the tables ``own`` (their rows' club is
    their ``club_id``) and ``via`` ({table: (column, parent table)}: their rows' club is their
    parent's), with the role ``WALL_ROLE`` made (when the user may) and granted the schema's
    tables and sequences, now and to come. A no-op off PostgreSQL."""
    via = dict(via or {})

    def forward(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            ensure_wall_role(cursor)
            for table in own:
                wall_table(cursor, table, own_club_condition())
            for table, (column, parent) in via.items():
                wall_table(cursor, table, parent_club_condition(table, column, parent))

    def backward(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            for table in [*own, *via]:
                cursor.execute(f"DROP POLICY IF EXISTS {POLICY} ON {table}")
                cursor.execute(f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY")
                cursor.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")

    return migrations.RunPython(forward, backward)


def wall_table(cursor, table, condition):
    cursor.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
    # The owner of the table (production's user) is walled too, not only the other roles.
    cursor.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
    cursor.execute(f"DROP POLICY IF EXISTS {POLICY} ON {table}")
    cursor.execute(f"CREATE POLICY {POLICY} ON {table} USING {condition} WITH CHECK {condition}")


def ensure_wall_role(cursor):
    """The role ``WALL_ROLE`` (no login, no bypass), made if missing and the user may make
    roles, granted every table and sequence of the schema and, by default, those the user's
    later migrations make. Roles are the cluster's: another database (a test database made
    beside) may have made it already."""
    cursor.execute(
        "SELECT rolsuper OR rolcreaterole, "
        "EXISTS (SELECT 1 FROM pg_roles WHERE rolname = %s) "
        "FROM pg_roles WHERE rolname = current_user",
        [WALL_ROLE],
    )
    may_create, exists = cursor.fetchone()
    if not exists and may_create:
        cursor.execute(
            "DO $$ BEGIN "
            f"CREATE ROLE {WALL_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS; "
            "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; "
            "END $$"
        )
        exists = True
    if not exists:
        return  # production's user, not a superuser: FORCE walls it without the role
    cursor.execute("SELECT current_schema()")
    schema = '"' + cursor.fetchone()[0].replace('"', '""') + '"'
    tables = "SELECT, INSERT, UPDATE, DELETE"
    sequences = "USAGE, SELECT, UPDATE"
    for statement in (
        f"GRANT USAGE ON SCHEMA {schema} TO {WALL_ROLE}",
        f"GRANT {tables} ON ALL TABLES IN SCHEMA {schema} TO {WALL_ROLE}",
        f"GRANT {sequences} ON ALL SEQUENCES IN SCHEMA {schema} TO {WALL_ROLE}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA {schema} GRANT {tables} ON TABLES TO {WALL_ROLE}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA {schema} GRANT {sequences} ON SEQUENCES "
        f"TO {WALL_ROLE}",
    ):
        cursor.execute(statement)
