"""Reports API: a signed-in player reports a user, a game or a chat message, and lists
their own reports with their status. Thin over moderation.services."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bloqueio_site.api_input import validated
from bloqueio_site.api_schema import errors
from moderation import selectors, services
from moderation.api.serializers import ReportIn, ReportOut, ReportPageOut


class ReportsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="reports_list",
        responses={200: ReportPageOut, **errors(401, 404)},
        description="The caller's own reports, newest first, with their status.",
    )
    def get(self, request: Request) -> Response:
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(selectors.reports_of(request.user), request,
                                           view=self)
        return paginator.get_paginated_response(
            [selectors.report_json(r) for r in page or []])

    @extend_schema(
        operation_id="reports_create",
        request=ReportIn,
        responses={201: ReportOut, **errors(400, 401, 404, 409, 429)},
        description="Report a user, a game or a chat message to the moderators. 400 "
        "`invalid` or `cannot_report_self`; 404 unknown target; 409 `already_reported` "
        "(one open report per target); 429 `rate_limited` (10 an hour).",
    )
    def post(self, request: Request) -> Response:
        report = services.file_report(reporter=request.user,
                                      **validated(ReportIn, request.data))
        return Response(selectors.report_json(report), status=status.HTTP_201_CREATED)
