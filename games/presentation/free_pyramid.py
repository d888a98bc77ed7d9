"""The free pyramid as the console, the boards, the game page and the records show it: the
free-pyramid family's presentation (``games.presentation.pyramid``)."""

from games.presentation.pyramid import FamilyPresentation
from games.rules import free_pyramid

PRESENTATION = FamilyPresentation(free_pyramid.FAMILY)
