"""Notifications API: the list (unread first), marking read, the e-mail choices."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from bloqueio_site.api_input import validated
from bloqueio_site.api_schema import errors
from notifications import selectors, services
from notifications.api import serializers as io
from notifications.kinds import MAILED


class NotificationsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="notifications", parameters=[io.ListQuery],
                   responses={200: io.NotificationListOut, **errors(400, 401)})
    def get(self, request: Request) -> Response:
        query = validated(io.ListQuery, request.query_params)
        return Response(selectors.listing(request.user.pk,
                                          unread_only=query.get("unread") == "true",
                                          limit=query["limit"]))


class ReadView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="notifications_read", request=io.ReadIn,
                   responses={200: io.UnreadOut, **errors(400, 401)})
    def post(self, request: Request) -> Response:
        data = validated(io.ReadIn, request.data)
        ids = None if data["all"] else data["ids"]
        return Response({"unread": services.mark_read(request.user, ids)})


def settings_json(user: User) -> dict[str, object]:
    choice = services.email_choice(user.pk)
    return {"email": {kind: choice.wants(kind) for kind in MAILED},
            "email_address": user.email, "email_verified": user.email_verified}


class SettingsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="notification_settings",
                   responses={200: io.SettingsOut, **errors(401)})
    def get(self, request: Request) -> Response:
        return Response(settings_json(request.user))  # type: ignore[arg-type]

    @extend_schema(operation_id="notification_settings_update", request=io.SettingsIn,
                   responses={200: io.SettingsOut, **errors(400, 401)})
    def patch(self, request: Request) -> Response:
        services.set_email_choices(request.user, validated(io.SettingsIn, request.data)["email"])
        return Response(settings_json(request.user))  # type: ignore[arg-type]
