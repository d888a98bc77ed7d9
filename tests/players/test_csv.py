import csv
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError
from django.urls import reverse

from players import csv_io
from players.models import Player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

HEADER = "full_name,nickname,phone,email,skill_class,active,notes\n"


def upload(client, text, encoding="utf-8"):
    file = SimpleUploadedFile("players.csv", text.encode(encoding), content_type="text/csv")
    return client.post(reverse("players:import"), {"file": file})


def snapshot():
    return list(Player.objects.order_by("pk").values())


# --- export -------------------------------------------------------------------------------


def test_export_is_utf8_with_bom_and_has_every_column(admin_client):
    PlayerFactory(
        full_name="Иван Петров",
        nickname="Ваня",
        phone="+7 900 123-45-67",
        email="ivan@example.ru",
        skill_class="cms",
        notes="левша",
    )
    PlayerFactory(full_name="Ушедший Игрок", is_active=False)
    response = admin_client.get(reverse("players:export"), {"status": "all"})
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="players-')
    body = response.content
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows == [
        ["full_name", "nickname", "phone", "email", "skill_class", "active", "notes"],
        # A leading + is a formula to a spreadsheet: the cell is marked as text (see
        # test_exports_cannot_carry_formulas); the import takes the mark off.
        ["Иван Петров", "Ваня", "'+7 900 123-45-67", "ivan@example.ru", "cms", "1", "левша"],
        ["Ушедший Игрок", "", "", "", "novice", "0", ""],
    ]


def test_export_follows_the_list_filters(admin_client):
    PlayerFactory(full_name="Иван Петров")
    PlayerFactory(full_name="Ушедший Игрок", is_active=False)
    body = admin_client.get(reverse("players:export")).content.decode("utf-8-sig")
    assert "Иван Петров" in body and "Ушедший" not in body
    body = admin_client.get(reverse("players:export"), {"q": "ушед", "status": "inactive"})
    assert "Иван" not in body.content.decode("utf-8-sig")


# --- import: a broken file changes nothing ----------------------------------------------


def test_a_broken_file_is_reported_row_by_row_and_nothing_is_written(admin_client):
    PlayerFactory(full_name="Иван Петров", phone="+7 900 000-00-00")
    before = snapshot()
    text = (
        HEADER
        + "Иван Петров,,+7 900 111-11-11,,,,\n"  # a good update
        + "Олег Орлов,,,oleg@,,,\n"  # bad e-mail
        + "Пётр Сидоров,,,,grandmaster,,\n"  # unknown class
        + ",Безымянный,,,,,\n"  # no name
        + "олег орлов,,,,,,\n"  # same as line 3, in another case
        + "Анна Смирнова,,,,,может быть,\n"  # bad active
    )
    response = upload(admin_client, text)
    assert response.status_code == 200
    plan = response.context["plan"]
    assert not plan.ok
    assert [row.line for row in plan.bad_rows] == [3, 4, 5, 6, 7]
    html = response.content.decode()
    assert "Олег Орлов" in html and "grandmaster" in html
    assert reverse("players:import_confirm") not in html
    assert snapshot() == before

    # Confirming the broken text anyway still writes nothing.
    response = admin_client.post(reverse("players:import_confirm"), {"csv_text": text})
    assert response.status_code == 200
    assert not response.context["plan"].ok
    assert snapshot() == before


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n\n",
        "name,phone\nИван,1\n",  # no full_name column, unknown "name"
        "full_name,full_name\nИван,Иван\n",
        HEADER,  # header only
        "full_name\nИван Петров,лишнее\n",  # more cells than columns
        "full_name,notes\nИван Петров," + "x" * 200_000 + "\n",  # over csv's cell limit
        'full_name\n"Иван Петров\n',  # unterminated quote
    ],
)
def test_malformed_files_write_nothing(admin_client, text):
    response = upload(admin_client, text)
    assert response.status_code == 200
    if text:
        assert not response.context["plan"].ok
        assert "import_confirm" not in response.content.decode()
    else:  # an empty upload is refused by the upload form itself
        assert response.context["form"].errors["file"]
    assert not csv_io.plan_import(text).ok
    assert not Player.objects.exists()


def test_a_broken_quote_is_reported_in_russian_with_its_line(admin_client):
    html = upload(admin_client, 'full_name\nИван Петров\n"Пётр, Сидоров\n').content.decode()
    assert "Файл не является правильным CSV в строке 3: проверьте там кавычки" in html


# --- import: a good file ------------------------------------------------------------------


def test_a_row_naming_a_player_in_another_case_updates_him(admin_client):
    ivan = PlayerFactory(full_name="Иван Петров", nickname="Ваня", phone="")
    response = upload(admin_client, HEADER + "иван петров,ваня,+7 900 000-00-01,,,1,\n")
    plan = response.context["plan"]
    assert plan.ok and [row.action for row in plan.rows] == ["updated"]
    admin_client.post(reverse("players:import_confirm"), {"csv_text": response.context["csv_text"]})
    ivan.refresh_from_db()
    assert Player.objects.count() == 1 and ivan.phone == "+7 900 000-00-01"


def test_a_good_file_is_previewed_then_written_on_confirm(admin_client):
    ivan = PlayerFactory(full_name="Иван Петров", phone="+7 900 000-00-00", skill_class="3")
    same = PlayerFactory(full_name="Сергей Попов", nickname="Профессор", skill_class="1")
    old = PlayerFactory(full_name="Ольга Волкова", is_active=False)
    text = (
        HEADER
        + "Иван Петров,,+7 900 111-11-11,,2,,\n"  # updated: phone and class
        + "Сергей Попов,Профессор,,,,,\n"  # unchanged (blank class keeps his)
        + "Ольга Волкова,,,,,1,\n"  # updated: reactivated
        + "  Олег   Орлов ,Орёл,8 (912) 345-67-89,oleg@example.ru,Мастер спорта,,\n"  # new
    )
    response = upload(admin_client, text)
    assert response.status_code == 200
    plan = response.context["plan"]
    assert plan.ok, [row.errors for row in plan.rows]
    assert plan.counts == {"new": 1, "linked": 0, "updated": 2, "unchanged": 1}
    assert [row.action for row in plan.rows] == ["updated", "unchanged", "updated", "new"]
    html = response.content.decode()
    assert "+7 900 000-00-00" in html and "+7 900 111-11-11" in html  # old → new
    assert reverse("players:import_confirm") in html
    # The preview wrote nothing.
    ivan.refresh_from_db()
    assert ivan.phone == "+7 900 000-00-00"
    assert Player.objects.count() == 3

    response = admin_client.post(
        reverse("players:import_confirm"), {"csv_text": response.context["csv_text"]}
    )
    assert response.status_code == 302
    ivan.refresh_from_db()
    old.refresh_from_db()
    same_before = same.updated_at
    same.refresh_from_db()
    assert (ivan.phone, ivan.skill_class) == ("+7 900 111-11-11", "2")
    assert old.is_active
    assert same.updated_at == same_before
    oleg = Player.objects.get(nickname="Орёл")
    assert (oleg.full_name, oleg.skill_class, oleg.email) == ("Олег Орлов", "ms", "oleg@example.ru")


def test_columns_left_out_of_the_file_are_kept(admin_client):
    ivan = PlayerFactory(full_name="Иван Петров", phone="+7 900 000-00-00", notes="левша")
    response = upload(admin_client, "full_name;skill_class\nИван Петров;1\n")
    plan = response.context["plan"]
    assert plan.counts["updated"] == 1
    admin_client.post(reverse("players:import_confirm"), {"csv_text": response.context["csv_text"]})
    ivan.refresh_from_db()
    assert (ivan.phone, ivan.notes, ivan.skill_class) == ("+7 900 000-00-00", "левша", "1")


def test_excel_style_windows_1251_with_semicolons_and_russian_headers(admin_client):
    text = "ФИО;Прозвище;Телефон\nАнна Смирнова;Аня;+7 900 555-44-33\n"
    response = upload(admin_client, text, encoding="cp1251")
    plan = response.context["plan"]
    assert plan.ok, plan.errors
    assert plan.counts["new"] == 1
    admin_client.post(reverse("players:import_confirm"), {"csv_text": response.context["csv_text"]})
    assert Player.objects.get().nickname == "Аня"


def test_export_then_import_changes_nothing(admin_client):
    PlayerFactory(full_name="Иван Петров", nickname="Ваня", phone="+7 900 123-45-67", notes="a,b")
    PlayerFactory(full_name="Ушедший Игрок", skill_class="ms", is_active=False)
    exported = admin_client.get(reverse("players:export"), {"status": "all"}).content
    plan = csv_io.plan_import(csv_io.decode(exported))
    assert plan.ok
    assert plan.counts == {"new": 0, "linked": 0, "updated": 0, "unchanged": 2}


def test_import_is_all_or_nothing_when_a_write_fails(monkeypatch):
    PlayerFactory(full_name="Старый Игрок")
    text = HEADER + "Первый Новый,,,,,,\nСтарый Игрок,,,,2,,\n"
    real_bulk_create = Player.objects.bulk_create

    def bulk_create_then_fail(*args, **kwargs):
        real_bulk_create(*args, **kwargs)  # the new players are written…
        raise IntegrityError("simulated race")

    monkeypatch.setattr(Player.objects, "bulk_create", bulk_create_then_fail)
    with pytest.raises(csv_io.ImportFailed):
        csv_io.apply_import(text)
    # …and rolled back with the rest.
    assert list(Player.objects.values_list("full_name", "skill_class")) == [
        ("Старый Игрок", "novice")
    ]


def test_confirm_replans_against_the_current_roster(admin_client):
    text = HEADER + "Иван Петров,,,,,,\n"
    preview = upload(admin_client, text)
    assert preview.context["plan"].counts["new"] == 1
    PlayerFactory(full_name="Иван Петров")  # someone added him meanwhile
    admin_client.post(reverse("players:import_confirm"), {"csv_text": text})
    assert Player.objects.count() == 1  # matched and unchanged, not duplicated


def test_a_file_over_the_size_limit_is_refused(admin_client):
    big = HEADER + "Иван Петров,,,,,,примечание\n" * 40000
    response = upload(admin_client, big)
    assert response.context["form"].errors["file"]
    assert not Player.objects.exists()


def test_the_largest_file_fits_through_the_confirm_step(admin_client):
    notes = "примечание " * 180  # under the notes' limit of 2,000 characters
    text = HEADER + "".join(f"Игрок Номер {i},,,,,,{notes}\n" for i in range(490))
    assert 900 * 1024 < len(text.encode("cp1251")) < 1024 * 1024 < len(text.encode("utf-8"))
    response = upload(admin_client, text, encoding="cp1251")
    assert response.context["plan"].counts["new"] == 490
    assert 'enctype="multipart/form-data"' in response.content.decode()
    # The preview posts the text back as multipart, as the browser does.
    response = admin_client.post(
        reverse("players:import_confirm"), {"csv_text": response.context["csv_text"]}
    )
    assert response.status_code == 302
    assert Player.objects.count() == 490


# --- import: the class names clubs write -------------------------------------------------

CLASSES_AS_CLUBS_WRITE_THEM = [
    ("КМС", "cms"),
    ("кмс", "cms"),
    ("к. м. с.", "cms"),
    ("Кандидат в мастера спорта", "cms"),
    ("МС", "ms"),
    ("Мастер спорта", "ms"),
    ("б/р", "novice"),
    ("Б/Р", "novice"),
    ("без разряда", "novice"),
    ("Без  разряда", "novice"),
    ("1 разряд", "1"),
    ("1-й разряд", "1"),
    ("1-й", "1"),
    ("1р", "1"),
    ("I", "1"),
    ("II", "2"),
    ("2 разряд", "2"),
    ("III", "3"),
    ("3р", "3"),
    (" 3 р ", "3"),
    ("3-й разряд", "3"),
    ("2nd class", "2"),
    # today's forms: our values and both languages' labels
    ("cms", "cms"),
    ("novice", "novice"),
    ("3", "3"),
    ("Без разряда (новичок)", "novice"),
    ("Master of Sport", "ms"),
]


@pytest.mark.parametrize(("written", "value"), CLASSES_AS_CLUBS_WRITE_THEM)
def test_the_class_names_clubs_write_are_understood(admin_client, written, value):
    response = upload(admin_client, f"full_name;разряд\nОлег Орлов;{written}\n")
    plan = response.context["plan"]
    assert [row.errors for row in plan.rows] == [[]]
    admin_client.post(reverse("players:import_confirm"), {"csv_text": response.context["csv_text"]})
    assert Player.objects.get(full_name="Олег Орлов").skill_class == value


# A club's own spreadsheet as Russian Excel saves it: semicolons, Windows-1251, the headers as
# people type them, and every way of writing the classes that issue 14 lists.
CLUB_SPREADSHEET = """\
Ф.И.О.;Кличка;Тел.;Эл. почта;Разряд;Примечание
Артём Николаевич Белов;Бэл;+7 916 123-45-67;belov@mail.ru;КМС;капитан сборной
Игорь Сергеевич Мальцев;;+7 903 555-10-20;;МС;
Светлана Викторовна Рыбакова;Света;8 (926) 700-00-01;;б/р;по пятницам
Павел Андреевич Зуев;;;;без разряда;
Роман Олегович Щербаков;Щербет;;;1 разряд;
Олег Петрович Гаврилов;;;;1-й разряд;
Тимур Рашидович Хабибуллин;Тимоха;;;I;
Виктор Семёнович Лапин;;;;II;
Евгений Ильич Корнеев;;;;III;
Денис Владимирович Осипов;Оса;;;3р;
Фёдор Ильич Тарасов;;;;первый разряд;
Юрий Алексеевич Дробышев;;;;второй;
"""


def test_a_club_spreadsheet_with_its_own_headers_and_class_names(admin_client):
    response = upload(admin_client, CLUB_SPREADSHEET, encoding="cp1251")
    plan = response.context["plan"]
    assert plan.ok, (plan.errors, [(row.line, row.errors) for row in plan.rows if row.errors])
    # the preview says how each class was read, to be checked before anything is written
    html = response.content.decode()
    read = re.findall(
        r"<td>([^<]*)</td>\s*<td><span[^>]*>новый</span></td>\s*<td><div data-read>"
        r"Разряд: ([^<]*)</div>",
        html,
    )
    assert read[6] == ("Тимур Рашидович Хабибуллин (Тимоха)", "1-й разряд")  # «I»
    assert [label for _name, label in read] == [
        *["Кандидат в мастера спорта", "Мастер спорта", "Без разряда (новичок)"],
        *["Без разряда (новичок)", "1-й разряд", "1-й разряд", "1-й разряд", "2-й разряд"],
        *["3-й разряд", "3-й разряд", "1-й разряд", "2-й разряд"],
    ]
    admin_client.post(reverse("players:import_confirm"), {"csv_text": response.context["csv_text"]})
    classes = dict(Player.objects.order_by("pk").values_list("full_name", "skill_class"))
    assert list(classes.values()) == (
        ["cms", "ms", "novice", "novice", "1", "1", "1", "2", "3", "3", "1", "2"]
    )
    belov = Player.objects.get(nickname="Бэл")
    assert (belov.phone, belov.email, belov.notes) == (
        "+7 916 123-45-67",
        "belov@mail.ru",
        "капитан сборной",
    )


@pytest.mark.parametrize(
    ("header", "column"),
    [
        ("Примечание", "notes"),
        ("Комментарий:", "notes"),
        ("ФИО*", "full_name"),
        ("Фамилия  Имя Отчество", "full_name"),
        ("Телефон", "phone"),
        ("E-mail", "email"),
        ("Ник", "nickname"),
        ("Спортивный разряд", "skill_class"),
    ],
)
def test_headers_as_people_type_them(admin_client, header, column):
    text = f"ФИО;{header}\nОлег Орлов;x\n" if column != "full_name" else f"{header}\nОлег Орлов\n"
    plan = upload(admin_client, text).context["plan"]
    assert not plan.errors  # the header is understood (a row may still be wrong)


@pytest.mark.parametrize("written", ["IV", "4 разряд", "гроссмейстер", "1-й дан", "кмс2"])
def test_an_unknown_class_is_reported_on_its_row(admin_client, written):
    text = f"full_name;разряд\nИван Петров;КМС\nОлег Орлов;{written}\n"
    plan = upload(admin_client, text).context["plan"]
    assert plan.rows[0].errors == []
    assert len(plan.rows[1].errors) == 1
    assert not Player.objects.exists()


def test_notes_longer_than_the_limit_are_a_row_error(admin_client):
    text = HEADER + f"Иван Петров,,,,,,{'x' * 2001}\nПётр Иванов,,,,,,{'y' * 2000}\n"
    plan = upload(admin_client, text).context["plan"]
    assert [row.action for row in plan.rows] == ["", "new"]
    assert "2000" in " ".join(plan.rows[0].errors)
    admin_client.post(reverse("players:import_confirm"), {"csv_text": text})
    assert not Player.objects.exists()  # all or nothing


def test_an_exported_phone_imports_unchanged(admin_client):
    PlayerFactory(full_name="Иван Петров", phone="+7 900 123-45-67", notes="-левша")
    exported = admin_client.get(reverse("players:export")).content.decode("utf-8-sig")
    assert "'+7 900 123-45-67" in exported and "'-левша" in exported
    plan = upload(admin_client, exported).context["plan"]
    assert [row.action for row in plan.rows] == ["unchanged"]
