"""Tables that only grow (a game's events and hand-overs, the moderation log): Django
refuses to change or remove their rows, as their database triggers do for every client.

A model subclasses `AppendOnlyModel` and names its rows in `append_only_refusal`."""

from __future__ import annotations

from typing import Any, ClassVar, NoReturn, TypeVar

from django.db import models


class AppendOnlyError(RuntimeError):
    """Raised on any attempt to change or remove a row of an append-only table."""


_Row = TypeVar("_Row", bound="AppendOnlyModel")


class AppendOnlyQuerySet(models.QuerySet[_Row]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(self.model.append_only_refusal)

    def delete(self) -> NoReturn:  # type: ignore[override]
        raise AppendOnlyError(self.model.append_only_refusal)


class AppendOnlyModel(models.Model):
    """Rows are inserted once, then never saved again nor deleted."""

    append_only_refusal: ClassVar[str] = "rows are append-only"

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise AppendOnlyError(self.append_only_refusal)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:  # type: ignore[override]
        raise AppendOnlyError(self.append_only_refusal)
