"""Shared OpenAPI pieces: the error body every refusal uses, the shape of a page."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

ErrorOut = inline_serializer(
    name="Error",
    fields={
        "code": serializers.CharField(help_text="machine-readable reason, e.g. stale_ply"),
        "detail": serializers.CharField(help_text="human-readable explanation"),
    },
)

_DESCRIPTIONS = {
    400: "invalid input (`invalid`, `illegal_action`, ...)",
    401: "not authenticated",
    403: "forbidden (`not_a_player`, `not_your_turn`, ...)",
    404: "not found",
    409: "conflict (`stale_ply`, `game_full`, `already_started`, `already_seated`, `game_over`)",
    429: "too many attempts (`locked_out`, `throttled`)",
    503: "a backing service is unavailable (`unavailable`)",
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """Schema entries for the given error statuses, all with the `{code, detail}` body."""
    return {c: OpenApiResponse(ErrorOut, description=_DESCRIPTIONS[c]) for c in codes}


# No docstring on purpose: drf-spectacular would give it to every page as its description.
class PageOut(serializers.Serializer):
    # One page of a list (DRF's PageNumberPagination); a subclass declares `results`.
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
