"""A tournament, its players and its rounds; each table of a round is a game (an
Arena's games are its pairings instead, paired as players come free).

What a round seats and what the standings say are decided by the pure core
(tournaments/seating.py, standings.py); these rows keep what was decided, so a round
is never seated twice and the standings are re-derived from the tables' games.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Game
from games.models import Status as GameStatus

# A tournament's game is over (it counts, or, aborted, pays nobody) in these statuses.
GAME_ENDED = (GameStatus.FINISHED, GameStatus.ABORTED)


class System(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    ARENA = "arena", _("Arena")


class State(models.TextChoices):
    UPCOMING = "upcoming", pgettext_lazy("tournament status", "upcoming")
    RUNNING = "running", pgettext_lazy("tournament status", "running")
    FINISHED = "finished", pgettext_lazy("tournament status", "finished")
    CANCELLED = "cancelled", pgettext_lazy("tournament status", "cancelled")


class Tournament(models.Model):
    kind = models.CharField(_("kind"), max_length=32)
    system = models.CharField(_("system"), max_length=8, choices=System.choices,
                              default=System.SWISS)
    # A Swiss plays `round_count` rounds; an Arena (None rounds) lasts `minutes`.
    round_count = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    minutes = models.PositiveSmallIntegerField(_("minutes"), null=True, blank=True)
    # A game's time control (games.services.validate_time_control): live, or {days}.
    time_control = models.JSONField(_("time control"), null=True, blank=True)
    ranked = models.BooleanField(_("ranked"), default=True)
    status = models.CharField(_("status"), max_length=16, choices=State.choices,
                              default=State.UPCOMING)
    # When the worker starts it (None: its creator does).
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Why it ended without standings (cancelled): "too_few_players", "moderator".
    cancelled_because = models.CharField(_("cancelled because"), max_length=32, blank=True)
    # The tournament's version: one more with every change its page shows (an entry, a
    # round seated or closed, a table's game ended, the end), in the change's own
    # transaction; its socket's frames carry it (tournaments/live.py).
    v = models.PositiveIntegerField(_("version"), default=0)
    # How many of its tables' games had ended at the last change: the worker's step
    # compares it with the database's to hear a game end (tournaments/live.py).
    games_ended = models.PositiveIntegerField(_("games ended"), default=0)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_due")]

    def __str__(self) -> str:
        return f"{self.kind} {self.system} #{self.pk} ({self.status})"


class Withdrawal(models.TextChoices):
    """Why an entry was withdrawn."""

    WITHDREW = "withdrew", pgettext_lazy("tournament withdrawal", "withdrew")
    REMOVED = "removed", pgettext_lazy("tournament withdrawal", "removed by a moderator")
    ABSENT = "absent", pgettext_lazy("tournament withdrawal", "absent twice")


class Entry(models.Model):
    """A player in a tournament; `withdrawn_at`: left (their tables still count), and
    `withdrawn_because` why."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="entries", verbose_name=_("tournament"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="+", verbose_name=_("user"))
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    withdrawn_because = models.CharField(_("withdrawn because"), max_length=16,
                                         choices=Withdrawal.choices, blank=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [models.UniqueConstraint(fields=["tournament", "user"],
                                               name="tournament_entry_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} in tournament {self.tournament_id}"


class Round(models.Model):
    """A round as seated: its tables (below) and the players given a bye."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="round_rows", verbose_name=_("tournament"))
    number = models.PositiveSmallIntegerField(_("number"))
    byes = models.JSONField(_("byes"), default=list)  # user ids
    started_at = models.DateTimeField(_("started at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"],
                                    name="tournament_round_unique"),
            # One round plays at a time.
            models.UniqueConstraint(fields=["tournament"], condition=Q(finished_at=None),
                                    name="tournament_one_round_playing"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of tournament {self.tournament_id}"


class Table(models.Model):
    """A table of a round: its game, and who sat where (user ids; None, a bot)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables",
                              verbose_name=_("round"))
    number = models.PositiveSmallIntegerField(_("number"))
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="+",
                                verbose_name=_("game"))
    seats = models.JSONField(_("seats"))

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"],
                                               name="tournament_table_unique")]

    def __str__(self) -> str:
        return f"table {self.number} (game {self.game_id})"


class Pairing(models.Model):
    """An Arena's game: who played it (user ids, in seat order) and when it started.

    Arena games are paired one at a time as players come free (tournaments/arenas.py),
    so they have no rounds; the standings are re-derived from these games."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="pairings", verbose_name=_("tournament"))
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="+",
                                verbose_name=_("game"))
    seats = models.JSONField(_("seats"))
    started_at = models.DateTimeField(_("started at"))

    class Meta:
        verbose_name = _("arena game")
        verbose_name_plural = _("arena games")
        ordering = ["tournament", "started_at", "pk"]

    def __str__(self) -> str:
        return f"arena game {self.game_id} of tournament {self.tournament_id}"
