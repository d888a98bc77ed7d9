"""The dynamic pyramid as the console, the boards, the game page and the records show it: the
free-pyramid family's presentation (``games.presentation.pyramid``)."""

from games.presentation.pyramid import FamilyPresentation
from games.rules import dynamic_pyramid

PRESENTATION = FamilyPresentation(dynamic_pyramid.FAMILY)
