"""A request's body or query read through its input serializer: one way for every API
view, so a bad input is always the same 400 `invalid` with the fields at fault."""

from __future__ import annotations

from typing import Any

from rest_framework.fields import Field
from rest_framework.serializers import Serializer


def validated(serializer_class: type[Serializer], data: Any) -> dict[str, Any]:
    """`data` checked by `serializer_class`; raises DRF's ValidationError (a 400)."""
    serializer = serializer_class(data=data)
    try:
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)
    finally:
        _take_apart(serializer)


def _take_apart(field: Field) -> None:
    """Empty a used serializer and its fields. DRF binds each field to its parent (and a
    list field's child to the list), so a serializer and its fields form cycles that only
    the garbage collector frees: ~25 objects an API call, collected in pauses of the
    whole process (bloqueio_site/asgi_http.py, `_Made`, says why that matters)."""
    parts = [getattr(field, "child", None)]
    if "fields" in vars(field):  # a serializer whose fields were built
        parts += list(vars(field)["fields"].values())
    for part in parts:
        if isinstance(part, Field):
            _take_apart(part)
    vars(field).clear()
