"""The public rules page: the four games, what the source states and what this software decided."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.rules_overview import all_game_rules
from toolbox.shared_pages import shared_briefly


@require_GET
@shared_briefly
def rules_page(request):
    return render(request, "games/rules/rules.html", {"games": all_game_rules()})
