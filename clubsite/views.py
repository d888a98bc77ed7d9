from django.shortcuts import render

from tables.selectors import tables_with_status


def home(request):
    """The club's front page: every active table with its status and links."""
    return render(request, "home.html", {"tables": tables_with_status()})
