from django.conf import settings
from django.utils import translation


class LanguageFromQueryMiddleware:
    """``?lang=ru`` or ``?lang=en`` on any page picks its language and remembers it.

    The boards have no language switcher (nothing but the game on a TV): a TV set up in
    another language than the club's opens ``/board/?lang=ru`` once. The choice is kept in
    the same cookie the site's switcher sets, so the boards' polls keep it too.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = request.GET.get("lang")
        if language not in dict(settings.LANGUAGES):
            return self.get_response(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
        return response
