"""Account API: register, tokens (obtain, list, create, revoke), password, who am I,
public profiles."""

from __future__ import annotations

from django.contrib.auth import update_session_auth_hash
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import addresses, credentials, language, selectors, services
from accounts.api.serializers import (
    MeIn,
    MeOut,
    NewTokenIn,
    NewTokenOut,
    PasswordIn,
    RegisterIn,
    RegisterOut,
    TokenIn,
    TokenInfoOut,
    TokenOut,
)
from bloqueio_site import limits
from bloqueio_site.api_input import validated
from bloqueio_site.api_schema import errors


# No docstring on purpose: drf-spectacular would give it to both operations.
class _WithoutCredentialsView(APIView):
    # For someone who has no credentials yet (signing up, asking for a token): no
    # authentication is tried, so a stale session or token cannot refuse the request.
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []


class RegisterView(_WithoutCredentialsView):
    @extend_schema(request=RegisterIn, responses={201: RegisterOut, **errors(400, 429)})
    def post(self, request: Request) -> Response:
        user, token = services.register_user(**validated(RegisterIn, request.data),
                                             address=limits.address_of(request))
        return Response(
            {"id": user.pk, "username": user.username, "token": token},
            status=status.HTTP_201_CREATED,
        )


class TokenView(_WithoutCredentialsView):
    @extend_schema(request=TokenIn, responses={200: TokenOut, **errors(400, 429)})
    def post(self, request: Request) -> Response:
        token = services.token_for_credentials(request=request._request,
                                               **validated(TokenIn, request.data))
        return Response({"token": token})


class TokensView(APIView):
    """The caller's API tokens (keys never shown again), and a new named one."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: TokenInfoOut(many=True), **errors(401)})
    def get(self, request: Request) -> Response:
        return Response(credentials.list_tokens(request.user))

    @extend_schema(request=NewTokenIn, responses={201: NewTokenOut, **errors(400, 401, 409)})
    def post(self, request: Request) -> Response:
        info, key = credentials.create_token(user=request.user,
                                             **validated(NewTokenIn, request.data))
        return Response({**info, "token": key}, status=status.HTTP_201_CREATED)


class TokenRevokeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={204: None, **errors(401, 404)})
    def delete(self, request: Request, token_id: str) -> Response:
        credentials.revoke_token(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordView(APIView):
    """Change the password: every other session and token ends (this request's stays)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=PasswordIn, responses={204: None, **errors(400, 401, 429)})
    def post(self, request: Request) -> Response:
        by_token = isinstance(request.auth, str)
        credentials.change_password(
            user=request.user, **validated(PasswordIn, request.data),
            keep_token=request.auth if by_token else None,
            keep_session=None if by_token else request.session.session_key)
        if not by_token:
            update_session_auth_hash(request, request.user)  # this session stays signed in
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: MeOut, **errors(401)})
    def get(self, request: Request) -> Response:
        return Response(selectors.me_json(request.user))

    @extend_schema(request=MeIn, responses={200: MeOut, **errors(400, 401, 429)})
    def patch(self, request: Request) -> Response:
        """Change the account's settings: `language` (its pages and error details),
        `email` (with the current `password`; verified by a mailed link)."""
        data = validated(MeIn, request.data)
        if "email" in data:  # first: a refused change changes nothing
            addresses.change_email(user=request.user, email=data["email"],
                                   password=data.get("password"))
        if "language" in data:
            language.choose(request.user, data["language"])
        return Response(selectors.me_json(request.user))
