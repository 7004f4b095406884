"""Serializer fields that take JSON as given: DRF's CharField turns a number into text
(`{"name": -7045674}` became the token name "-7045674"), against the schema's `string`
(schemathesis found it)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """A JSON string only; anything else is `invalid`. `max_length` bounds the string
    as sent, as the schema's `maxLength` does: DRF checks it after trimming, and
    Python's strip() also takes control characters such as U+001C, so 51 characters
    that began with one passed a limit of 50 (schemathesis found it)."""

    def run_validation(self, data: Any = serializers.empty) -> Any:
        if isinstance(data, str) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().run_validation(data)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)
