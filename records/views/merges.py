"""The network admin's page of people: the network's likely duplicates, a merge previewed
then confirmed, and every merge with its undo (``records.merges``)."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from records import merges, selectors
from records.forms import MergeForm
from records.models import PersonMerge
from toolbox.roles import MERGE_PEOPLE, staff_required

network_admin_required = staff_required(MERGE_PEOPLE)


@network_admin_required
def people(request):
    form = MergeForm(request.POST or request.GET or None)
    preview = None
    if form.is_bound and form.is_valid():
        source, target = form.cleaned_data["source"], form.cleaned_data["target"]
        if request.method == "POST":
            try:
                record = merges.merge_people(source, target, by=request.user)
            except ValidationError as error:
                messages.error(request, error.messages[0])
            else:
                messages.success(
                    request,
                    _("%(source)s merged into %(target)s: %(rows)d rows moved.")
                    % {"source": source.full_name, "target": target.full_name, "rows": record.rows},
                )
                return redirect("players:merges")
        preview = [selectors.person_summary(source), selectors.person_summary(target)]
    context = {
        "form": form,
        "preview": preview,
        "duplicates": selectors.likely_duplicates(request.GET.get("q", "")),
        "query": request.GET.get("q", ""),
        "merges": selectors.merges(),
    }
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "records/people.html", context, status=status)


@network_admin_required
@require_POST
def undo(request, pk):
    merge = get_object_or_404(PersonMerge, pk=pk)
    try:
        merges.undo_merge(merge, by=request.user)
    except ValidationError as error:
        messages.error(request, error.messages[0])
    else:
        messages.success(
            request,
            _("The merge is taken back: the record of %(name)s stands apart again.")
            % {"name": merge.source.full_name},
        )
    return redirect("players:merges")
