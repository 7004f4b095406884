"""Account API: register, obtain a token, who am I, public profiles."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors, services
from accounts.api.serializers import (
    MeOut,
    ProfileOut,
    RegisterIn,
    RegisterOut,
    TokenIn,
    TokenOut,
)
from bloqueio_site import limits
from bloqueio_site.api_schema import errors


class RegisterView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []

    @extend_schema(request=RegisterIn, responses={201: RegisterOut, **errors(400, 429)})
    def post(self, request: Request) -> Response:
        data = RegisterIn(data=request.data)
        data.is_valid(raise_exception=True)
        user, token = services.register_user(**data.validated_data,
                                             address=limits.address_of(request))
        return Response(
            {"id": user.pk, "username": user.username, "token": token},
            status=status.HTTP_201_CREATED,
        )


class TokenView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []

    @extend_schema(request=TokenIn, responses={200: TokenOut, **errors(400, 429)})
    def post(self, request: Request) -> Response:
        data = TokenIn(data=request.data)
        data.is_valid(raise_exception=True)
        token = services.token_for_credentials(request=request._request, **data.validated_data)
        return Response({"token": token})


class MeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: MeOut, **errors(401)})
    def get(self, request: Request) -> Response:
        return Response(selectors.me_json(request.user))


class ProfileView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: ProfileOut, **errors(401, 404)})
    def get(self, request: Request, username: str) -> Response:
        user = selectors.active_user(username)
        if user is None:
            raise Http404
        return Response(selectors.profile_json(user))
