"""`/api/users/<name>/`: a user's public profile, with their games (`games.profiles`)."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors as accounts_selectors
from accounts.api.serializers import ProfileOut
from bloqueio_site.api_schema import errors
from games import profiles


class ProfileView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: ProfileOut, **errors(401, 404)})
    def get(self, request: Request, username: str) -> Response:
        user = accounts_selectors.active_user(username)
        if user is None:
            raise Http404
        return Response(profiles.profile_json(user, request.user))
