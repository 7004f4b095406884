"""A request's body or query read through its input serializer: one way for every API
view, so a bad input is always the same 400 `invalid` with the fields at fault."""

from __future__ import annotations

from typing import Any

from rest_framework.serializers import Serializer


def validated(serializer_class: type[Serializer], data: Any) -> dict[str, Any]:
    """`data` checked by `serializer_class`; raises DRF's ValidationError (a 400)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
