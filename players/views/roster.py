from django.http import HttpResponse


def not_built_yet(request, *args, **kwargs):
    return HttpResponse("Not built yet", status=501)
