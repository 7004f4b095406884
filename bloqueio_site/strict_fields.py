"""Serializer fields that take JSON as given: DRF's CharField turns a number into text
(`{"name": -7045674}` became the token name "-7045674"), against the schema's `string`
(schemathesis found it)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """A JSON string only; anything else is `invalid`."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)
