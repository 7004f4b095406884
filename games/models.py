"""Games, their seats, and the append-only event log every game is derived from.

`Event` rows are the source of truth. `Game.state`, `Game.ply` and `Game.result` are a
projection of them, kept in the same transaction as each append for cheap reads and
rebuildable at any time (`manage.py rebuild_games`).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from bloqueio_site.append_only import AppendOnlyModel
from games.engine import LEAVE_REASONS


class Status(models.TextChoices):
    WAITING = "waiting", pgettext_lazy("game status", "waiting")
    ACTIVE = "active", pgettext_lazy("game status", "active")
    FINISHED = "finished", pgettext_lazy("game status", "finished")
    ABORTED = "aborted", pgettext_lazy("game status", "aborted")


LIVE_STATUSES = (Status.WAITING, Status.ACTIVE)
# The events of a seat leaving a running game (resign, timeout, removed): with a seat
# handed to a bot, what a profile counts as "games left".
LEAVING_ACTIONS = LEAVE_REASONS


def first_version() -> int:
    """A new game's version: its creation time in microseconds (see `Game.version`)."""
    return time.time_ns() // 1000


class Game(models.Model):
    kind = models.CharField(_("kind"), max_length=32)
    ranked = models.BooleanField(_("ranked"), default=False)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices,
                              default=Status.WAITING)
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    # {"initial": seconds, "increment": seconds} or null for untimed games.
    time_control = models.JSONField(_("time control"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # The projection: derived from the events, rebuilt by `rebuild_games`.
    ply = models.PositiveIntegerField(_("ply"), default=0)
    state = models.JSONField(_("state"))
    result = models.JSONField(_("result"), null=True, blank=True)
    # Server clock (games/round/clock.py): {"remaining_ms": [...], "moved": [...]} as of
    # `turn_started_at`; `deadline` is when the seat to move flags (null: none running).
    clock = models.JSONField(_("clock"), null=True, blank=True)
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    # Set when a moderator annuls a ranked game: its rating changes were reverted.
    annulled_at = models.DateTimeField(_("annulled at"), null=True, blank=True)
    # A private game is not listed anywhere and is seen only by its table, its invited
    # users and whoever holds `invite_token` (games/privacy.py).
    private = models.BooleanField(_("private"), default=False)
    # Decided at its start by whoever seated it (an organiser's table): a seat that never
    # makes its first move loses on time and the others play on, rather than the whole
    # game being aborted (games/round/clock.py).
    absence_forfeits = models.BooleanField(_("absence forfeits"), default=False)
    # The secret of the game's invitation link (/games/<id>/invite/<token>/): it seats
    # whoever opens it while seats are free, and lets them watch a private game.
    invite_token = models.CharField(_("invitation token"), max_length=32, null=True,
                                    blank=True, unique=True)
    # The game's version: every change to the row (a progress of play, a seat taken,
    # left or handed to a bot, an annulment, a repair by `rebuild_games`) adds one, in
    # the statement that makes it. The write path's guard compares it alone
    # (games/round_store.py) and every frame announcing a change carries it as `v`
    # (docs/realtime.md). It starts at the game's creation time in microseconds, not 0:
    # a database restored from a backup reuses game ids, and a process still holding a
    # game of the lost history must never find the new game at its version (that game
    # would need a million changes for its version to reach the new one's first).
    version = models.PositiveBigIntegerField(_("version"), default=first_version,
                                             editable=False)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["deadline"], name="game_deadline",
                         condition=Q(deadline__isnull=False)),
            models.Index(fields=["status", "-created_at"], name="game_status_created"),
            models.Index(fields=["kind", "status", "-created_at"], name="game_kind_status_created"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=2) & Q(seat_count__lte=4), name="game_seat_count"
            ),
            models.CheckConstraint(condition=Q(private=False) | Q(ranked=False),
                                   name="game_private_casual"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_STATUSES


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats",
                             verbose_name=_("game"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats",
        verbose_name=_("user"))
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    # The seat is held by a bot account (denormalized from its user): the worker plays it.
    bot = models.BooleanField(_("bot"), default=False)
    # The person a bot took this seat over from (games/leavers.py; its `Handover` row
    # is the history), denormalized as `bot` is, for the game's JSON and profiles.
    replaced = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
        related_name="+", verbose_name=_("replaced"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_index"),
            # A person holds one seat per game; a bot account may fill several
            # ("you against three medium bots").
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user",
                                    condition=Q(bot=False)),
        ]
        indexes = [
            models.Index(fields=["user", "-joined_at"], name="seat_user_recent"),
            models.Index(fields=["game"], name="seat_bot_game", condition=Q(bot=True)),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat}: {self.user_id}"


class Event(AppendOnlyModel):
    """One entry of a game's history: an action, a pass, or a seat leaving."""

    append_only_refusal = "events are append-only"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events",
                             verbose_name=_("game"))
    ply = models.PositiveIntegerField(_("ply"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.JSONField(_("action"))
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="event_unique_ply"),
            models.CheckConstraint(condition=Q(ply__gte=1), name="event_ply_positive"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} ply {self.ply}: {self.action.get('type')}"

    def as_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "seat": self.seat, "action": self.action,
                "at": self.at.isoformat().replace("+00:00", "Z")}


# -- invitations and rematches (games/invitations.py, games/rematch.py) -----------------


class InvitationStatus(models.TextChoices):
    PENDING = "pending", pgettext_lazy("invitation status", "pending")
    ACCEPTED = "accepted", pgettext_lazy("invitation status", "accepted")
    DECLINED = "declined", pgettext_lazy("invitation status", "declined")
    # Taken back by the table before an answer (games.invitations.revoke).
    REVOKED = "revoked", pgettext_lazy("invitation status", "revoked")


class Invitation(models.Model):
    """A seated player asked `invited` by name to join a waiting game; one per game and
    user (unique), so inviting twice is one invitation."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations",
                             verbose_name=_("game"))
    invited = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="invitations", verbose_name=_("invited user"))
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="+", verbose_name=_("invited by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=16, choices=InvitationStatus.choices,
                              default=InvitationStatus.PENDING)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "invited"], name="invitation_unique"),
        ]
        indexes = [
            models.Index(fields=["invited", "-created_at"], name="invitation_pending",
                         condition=Q(status="pending")),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.invited_id} ({self.status})"


class Rematch(models.Model):
    """The offer to play a finished game again with the same table: one per game (the
    primary key is the game), so two players asking at once make one offer.
    `answers` maps each person's user id (text) to true (accepted) or false (declined);
    `new_game` is set once every seat accepted."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="rematch", verbose_name=_("game"))
    offered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="+", verbose_name=_("offered by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    answers = models.JSONField(_("answers"), default=dict)
    new_game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="rematch_of", verbose_name=_("new game"))

    class Meta:
        verbose_name = _("rematch")
        verbose_name_plural = _("rematches")

    def __str__(self) -> str:
        return f"rematch of game {self.game_id}"


class Handover(AppendOnlyModel):
    """A seat of a casual game handed to a bot after its player left (games/leavers.py):
    append-only like the events, one per seat (the unique pair makes it happen once,
    however many players ask at once). `ply` is the game's ply when it happened, so a
    replay knows who held the seat at each ply."""

    append_only_refusal = "hand-overs are append-only"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="handovers",
                             verbose_name=_("game"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    ply = models.PositiveIntegerField(_("ply"))
    at = models.DateTimeField(_("at"))
    replaced = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                 related_name="+", verbose_name=_("replaced"))
    bot = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                            related_name="+", verbose_name=_("bot"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT,
                           related_name="+", verbose_name=_("asked by"))

    class Meta:
        verbose_name = _("hand-over")
        verbose_name_plural = _("hand-overs")
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="handover_once_per_seat"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat}: to a bot at ply {self.ply}"


# -- ranked play ---------------------------------------------------------------------------


class LiveRankedSeat(models.Model):
    """A user's one live ranked game: the unique user makes a second one impossible,
    whichever worker or request tries (status lives on Game, so a partial unique index
    on Seat cannot say "live ranked"). Rows go when the game ends or is aborted."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="live_ranked",
        verbose_name=_("user"))
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("game"))

    class Meta:
        verbose_name = _("live ranked seat")
        verbose_name_plural = _("live ranked seats")

    def __str__(self) -> str:
        return f"{self.user_id} in ranked game {self.game_id}"


class QueueEntry(models.Model):
    """A user waiting for a ranked game of `kind` (live, or `days` per move); one queue
    per user (unique user)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry",
        verbose_name=_("user"))
    kind = models.CharField(_("kind"), max_length=32)
    # Days per move for a turn-based game; null: the kind's live clock. Only entries of
    # the same kind and days are matched together.
    days = models.PositiveSmallIntegerField(_("days per move"), null=True, blank=True)
    skill = models.IntegerField(_("skill"), help_text=_("mu on the display scale when joining"))
    joined_at = models.DateTimeField(_("joined at"))
    expires_at = models.DateTimeField(_("expires at"))

    class Meta:
        verbose_name = _("queue entry")
        verbose_name_plural = _("queue entries")
        indexes = [models.Index(fields=["kind", "joined_at"], name="queue_kind_joined")]

    def __str__(self) -> str:
        return f"{self.user_id} queued for {self.kind}"


class PlayedFrom(models.Model):
    """Where an account took a ranked seat from (games/ranked/places.py): a keyed hash of
    its client address's place (an IPv4 address, an IPv6 /64), never the address itself;
    deleted RANKED_ADDRESS_DAYS after `last_seen`. Accounts that share a place are not
    rated against each other."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("user"))
    place = models.CharField(_("place"), max_length=64)
    last_seen = models.DateTimeField(_("last seen"))

    class Meta:
        verbose_name = _("place played from")
        verbose_name_plural = _("places played from")
        constraints = [
            models.UniqueConstraint(fields=["user", "place"], name="played_from_unique"),
        ]
        indexes = [models.Index(fields=["last_seen"], name="played_from_last_seen")]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.place[:8]}"


class Rating(models.Model):
    """One openskill rating per user and kind, with its displayed number denormalized
    (`rating`, `provisional`) so the leaderboard is an index range scan."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings",
        verbose_name=_("user"))
    kind = models.CharField(_("kind"), max_length=32)
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    games = models.PositiveIntegerField(_("games"), default=0)
    rating = models.IntegerField(_("rating"))
    provisional = models.BooleanField(_("provisional"), default=True)
    last_played_at = models.DateTimeField(_("last played at"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="rating_unique_user_kind"),
        ]
        indexes = [
            models.Index(
                "kind", models.F("rating").desc(), "user",
                name="rating_leaderboard", condition=Q(provisional=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: {self.rating}"


class RatingChange(models.Model):
    """What one ranked game did to one player's rating (before/after), for history
    and for annulling the game exactly."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes",
                             verbose_name=_("game"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("user"))
    kind = models.CharField(_("kind"), max_length=32)
    seat = models.PositiveSmallIntegerField(_("seat"))
    rank = models.PositiveSmallIntegerField(_("rank"))
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu_after = models.FloatField(_("mu after"))
    sigma_after = models.FloatField(_("sigma after"))
    rating_before = models.IntegerField(_("rating before"))
    rating_after = models.IntegerField(_("rating after"))
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_unique"),
        ]
        indexes = [
            models.Index(fields=["user", "kind", "at", "game"], name="rating_change_history"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} {self.user_id}: {self.rating_before}->{self.rating_after}"


class ClockHeartbeat(models.Model):
    """When the clock worker was last alive; a long gap is downtime nobody is charged for."""

    name = models.CharField(_("name"), max_length=32, primary_key=True)
    beat_at = models.DateTimeField(_("beat at"))

    class Meta:
        verbose_name = _("clock heartbeat")
        verbose_name_plural = _("clock heartbeats")

    def __str__(self) -> str:
        return f"{self.name} at {self.beat_at}"


class Outbox(models.Model):
    """A side effect of a change to a game (a "your turn", an invitation's notice...),
    written in the change's own transaction and carried out later by the worker
    (games/outbox.py): a crash between the two loses nothing, and a row marked done
    in the transaction of what it did is never done twice."""

    kind = models.CharField(_("kind"), max_length=32)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+", verbose_name=_("game"))
    payload = models.JSONField(_("payload"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"))
    due_at = models.DateTimeField(_("due at"))
    done_at = models.DateTimeField(_("done at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True, default="")

    class Meta:
        verbose_name = _("outbox row")
        verbose_name_plural = _("outbox rows")
        indexes = [models.Index(fields=["due_at", "id"], condition=Q(done_at__isnull=True),
                                name="outbox_pending")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"
