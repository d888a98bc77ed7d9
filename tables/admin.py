"""Tables in the Django admin: every save obeys the pages' rule (``tables.services``): a table
with a game in progress cannot be deactivated or put out of service, neither from its change
form nor from the list's editable "out of service" column."""

from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from tables import services
from tables.models import Table
from toolbox import forms as ascii_forms
from toolbox.forms import AsciiAdminMixin


class TableAdminForm(ascii_forms.ModelForm):
    class Meta:
        model = Table
        fields = ["number", "name", "kind", "is_active", "out_of_service", "light_topic"]

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk is None or self.errors:
            return cleaned
        # The instance already holds the posted values (ModelForm's _post_clean runs later
        # for the model's own checks; here only the flags matter).
        changed = Table(
            pk=self.instance.pk,
            number=self.instance.number,
            is_active=cleaned.get("is_active", self.instance.is_active),
            out_of_service=cleaned.get("out_of_service", self.instance.out_of_service),
        )
        try:
            services.check_in_play_rule(changed)
        except ValidationError as error:
            field = "out_of_service" if changed.out_of_service else "is_active"
            self.add_error(field if field in self.fields else None, error)
        return cleaned


@admin.register(Table)
class TableAdmin(AsciiAdminMixin, admin.ModelAdmin):
    form = TableAdminForm
    list_display = ["number", "name", "kind", "is_active", "out_of_service"]
    list_display_links = ["number", "name"]
    list_editable = ["out_of_service"]
    list_filter = ["is_active", "out_of_service", "kind"]
    search_fields = ["name", "=number"]

    def get_changelist_form(self, request, **kwargs):
        return super().get_changelist_form(request, form=TableAdminForm, **kwargs)

    def save_model(self, request, obj, form, change):
        try:
            services.save_table(obj)
        except ValidationError as error:  # a game started since the form was checked
            for message in error.messages:
                self.message_user(request, message, messages.ERROR)
