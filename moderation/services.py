"""Moderation writes: the log every moderator action goes through, the moderator actions
themselves (over the games and accounts services, never rows by hand), and reports.

A moderator action is carried out and logged in one transaction; a refused one is logged
with its refusal detail and then re-raised. Call them outside any transaction of your
own, or a refusal's log entry rolls back with it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import TypeVar

from django.apps import apps
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from accounts import services as accounts
from accounts.models import User
from bloqueio_site.errors import ServiceError
from games import privacy
from games import services as games
from games.errors import GameNotFound
from games.models import Game, Seat, Status
from moderation.errors import (
    AlreadyReported,
    CannotReportSelf,
    InvalidReport,
    NotAModerator,
    OwnGame,
    RateLimited,
    ReasonRequired,
    ReportClosed,
    StaffProtected,
    TargetNotFound,
)
from moderation.models import (
    DONE,
    REASON_MAX,
    Action,
    Category,
    ModerationLog,
    Report,
    ReportStatus,
    TargetType,
)
from notifications.models import Kind
from notifications.services import notify
from tournaments import services as tournaments
from tournaments.models import Entry, Tournament

log = logging.getLogger(__name__)

T = TypeVar("T")

REPORTS_PER_HOUR = 10

# The permission each moderator action needs (ModerationLog.Meta.permissions).
PERMISSION = {
    Action.ABORT_GAME: "moderation.abort_game",
    Action.ANNUL_GAME: "moderation.annul_game",
    Action.REMOVE_SEAT: "moderation.remove_seat",
    Action.BAN_USER: "moderation.ban_user",
    Action.UNBAN_USER: "moderation.ban_user",
    Action.MUTE_USER: "moderation.mute_user",
    Action.UNMUTE_USER: "moderation.mute_user",
    Action.DELETE_MESSAGE: "moderation.delete_message",
    Action.RESOLVE_REPORT: "moderation.change_report",
    Action.DISMISS_REPORT: "moderation.change_report",
    Action.CANCEL_TOURNAMENT: "moderation.cancel_tournament",
    Action.REMOVE_ENTRANT: "moderation.cancel_tournament",
}


# -- the log ---------------------------------------------------------------------------


def record(*, actor: AbstractBaseUser | None, action: str, target: models.Model, reason: str,
           outcome: str = DONE) -> ModerationLog:
    """Append one entry to the moderation log (actor None: the system).

    `target` is a model instance; its type is its model name ("game", "user",
    "chatmessage", ...). `outcome` is "done" or the refusal's detail.
    """
    reason = (reason or "").strip()
    if not reason:
        raise ReasonRequired(_("A moderator action needs a reason."))
    if action not in Action.values:
        raise ValueError(f"unknown moderation action {action!r}")
    entry = ModerationLog.objects.create(
        actor=actor if actor is not None and actor.pk is not None else None,
        action=action,
        target_type=target._meta.model_name or type(target).__name__.lower(),
        target_id=str(target.pk),
        target_repr=_describe(target),
        reason=reason,
        outcome=outcome or DONE,
    )
    log.info("moderation: %s %s %s by %s: %s", action, entry.target_type, entry.target_id,
             entry.actor_id, outcome)
    return entry


def _describe(target: models.Model) -> str:
    """A line that still says what the target was after it changes or goes."""
    name = target._meta.model_name
    if name == "seat":
        return f"game {target.game_id} seat {target.seat} ({target.user})"  # type: ignore[attr-defined]
    if name == "entry":
        return f"{target.user} in tournament {target.tournament_id}"  # type: ignore[attr-defined]
    if name == "chatmessage":
        author = getattr(target, "author", "?")
        text = str(getattr(target, "text", ""))
        return f"message #{target.pk} by {author} in game {target.game_id}: {text}"  # type: ignore[attr-defined]
    return str(target)


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ReasonRequired(_("A moderator action needs a reason."))
    return reason


def _require_permission(actor: AbstractBaseUser, action: str) -> None:
    if not (actor.is_active and actor.has_perm(PERMISSION[action])):  # type: ignore[attr-defined]
        raise NotAModerator(_("You may not do that."))


def check_can_moderate(*, actor: AbstractBaseUser, users: Iterable[User | None]) -> None:
    """Raise StaffProtected unless `actor` is a superuser or none of `users` (the people
    an action lands on) is staff or a superuser: a moderator could otherwise unban a
    moderator a superuser banned, or mute a superuser."""
    if actor.is_superuser:  # type: ignore[attr-defined]
        return
    for user in users:
        if user is not None and (user.is_staff or user.is_superuser):
            raise StaffProtected(_("%(name)s is staff: only a superuser can moderate a staff "
                                   "account, its messages, seats, games or reports.")
                                 % {"name": user.username})


def guard(*, actor: AbstractBaseUser, action: str, target: models.Model, reason: str,
          users: Iterable[User | None]) -> None:
    """`check_can_moderate` for a service that logs its own action (chat): a refusal is
    logged with its detail, then raised. Call it outside the action's transaction."""
    try:
        check_can_moderate(actor=actor, users=users)
    except StaffProtected as exc:
        record(actor=actor, action=action, target=target, reason=reason, outcome=exc.detail)
        raise


def check_not_playing(*, actor: AbstractBaseUser, game_id: int) -> None:
    """Raise OwnGame when `actor` sits in game `game_id`, or sat there before a bot took
    the seat over: a removal, an abort or an annulment there would decide their own
    result, so nobody moderates a game they play, superusers included."""
    if Seat.objects.filter(game_id=game_id).filter(
            models.Q(user_id=actor.pk, bot=False) | models.Q(replaced_id=actor.pk)).exists():
        raise OwnGame(_("You play in game %(id)s: another moderator must act on it.")
                      % {"id": game_id})


def _moderate(*, actor: AbstractBaseUser, action: str, target: models.Model, reason: str,
              run: Callable[[], T], users: Callable[[], Iterable[User | None]],
              game_id: int | None = None) -> T:
    """Check, run the service and log it in one transaction; log a refusal, re-raise it.
    `users` names the people the action lands on (check_can_moderate); `game_id` the
    game it lands on, if any (check_not_playing)."""
    reason = _require_reason(reason)
    _require_permission(actor, action)
    try:
        with transaction.atomic():
            if game_id is not None:
                check_not_playing(actor=actor, game_id=game_id)
            check_can_moderate(actor=actor, users=users())
            result = run()
            record(actor=actor, action=action, target=target, reason=reason)
    except ServiceError as exc:
        record(actor=actor, action=action, target=target, reason=reason, outcome=exc.detail)
        raise
    return result


# -- moderator actions -----------------------------------------------------------------


def _game(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(_("No game %(id)s.") % {"id": game_id})
    return game


def _players(game_id: int) -> list[User]:
    """The people of a game: seated, or replaced by a bot that took their seat over (bots
    are nobody's account to protect). An action on the game lands on each of them: the
    removal of one seat decides the others' result too."""
    seats = Seat.objects.filter(game_id=game_id)
    ids = {*seats.filter(bot=False).values_list("user_id", flat=True),
           *seats.exclude(replaced=None).values_list("replaced_id", flat=True)}
    return list(User.objects.filter(pk__in=ids))


def moderate_abort(*, actor: AbstractBaseUser, game_id: int, reason: str) -> Game:
    """Abort a waiting or active game: no result (games.services.abort_game)."""
    return _moderate(actor=actor, action=Action.ABORT_GAME, target=_game(game_id),
                     reason=reason, run=lambda: games.abort_game(game_id=game_id),
                     users=lambda: _players(game_id), game_id=game_id)


def moderate_annul(*, actor: AbstractBaseUser, game_id: int, reason: str) -> Game:
    """Annul a finished ranked game: its rating changes are reverted, the change written
    and announced like any other (games.services.annul_game)."""
    return _moderate(actor=actor, action=Action.ANNUL_GAME, target=_game(game_id),
                     reason=reason, run=lambda: games.annul_game(game_id=game_id),
                     users=lambda: _players(game_id), game_id=game_id)


def moderate_remove_seat(*, actor: AbstractBaseUser, game_id: int, seat: int,
                         reason: str) -> Game:
    """Take one seat out of a live game (a `removed` event; games.services.remove_seat).
    It lands on every player of the game, whose result it decides, not only on the
    seat's: a game where staff sit is a superuser's to act on."""
    game = _game(game_id)
    target: models.Model = (Seat.objects.select_related("user").filter(game=game, seat=seat)
                            .first() or game)
    return _moderate(actor=actor, action=Action.REMOVE_SEAT, target=target, reason=reason,
                     run=lambda: games.remove_seat(game_id=game_id, seat=seat),
                     users=lambda: _players(game_id), game_id=game_id)


def moderate_cancel_tournament(*, actor: AbstractBaseUser, tournament_id: int,
                               reason: str) -> Tournament:
    """Cancel an upcoming or running tournament (tournaments.services.cancel): no
    standings; its tables' games play on as ordinary games."""
    target = tournaments.get(tournament_id)
    return _moderate(actor=actor, action=Action.CANCEL_TOURNAMENT, target=target,
                     reason=reason, users=lambda: _entrants(tournament_id),
                     run=lambda: tournaments.cancel(tournament_id=tournament_id,
                                                    because="moderator"))


def moderate_remove_entrant(*, actor: AbstractBaseUser, entry: Entry, reason: str
                            ) -> Tournament:
    """Take a player out of a tournament (tournaments.services.remove_player)."""
    return _moderate(actor=actor, action=Action.REMOVE_ENTRANT, target=entry, reason=reason,
                     users=lambda: [User.objects.filter(pk=entry.user_id).first()],
                     run=lambda: tournaments.remove_player(tournament_id=entry.tournament_id,
                                                           user_id=entry.user_id))


def _entrants(tournament_id: int) -> list[User]:
    return list(User.objects.filter(pk__in=Entry.objects.filter(
        tournament_id=tournament_id).values("user_id")))


def check_can_ban(*, actor: AbstractBaseUser, user: User) -> None:
    """Raise BanRefused for a ban the services refuse (a superuser, yourself) and for a
    staff account banned by someone who is not a superuser (moderators stay off staff);
    OwnGame for someone the actor is playing against (check_not_opponent)."""
    accounts.check_can_ban(user=user, by=actor)  # type: ignore[arg-type]
    if user.is_staff and not actor.is_superuser:  # type: ignore[attr-defined]
        raise accounts.BanRefused(_("%(name)s is staff: only a superuser can ban a staff "
                                    "account.") % {"name": user.username})
    check_not_opponent(actor=actor, user=user)


def check_not_opponent(*, actor: AbstractBaseUser, user: User) -> None:
    """A ban removes `user` from their running games (games.bans), deciding the others'
    results there: refused (OwnGame) when `actor` plays one of them, and (StaffProtected)
    when staff play one and `actor` is not a superuser, as a seat's removal is."""
    games_of_user = Seat.objects.filter(user_id=user.pk, bot=False,
                                        game__status=Status.ACTIVE).values("game_id")
    others = (Seat.objects.filter(game_id__in=games_of_user, bot=False)
              .exclude(user_id=user.pk).select_related("user").order_by("game_id"))
    for seat in others:
        if seat.user_id == actor.pk:
            raise OwnGame(_("%(name)s plays game %(id)s with you: another moderator must "
                            "ban them.") % {"name": user.username, "id": seat.game_id})
    check_can_moderate(actor=actor, users=[seat.user for seat in others])


def moderate_ban(*, actor: AbstractBaseUser, user: User, reason: str) -> accounts.BanReport:
    """Ban `user` (accounts.services.ban_user). Only a superuser bans a staff account;
    nobody bans someone they are playing against (check_can_ban)."""

    def ban() -> accounts.BanReport:
        check_can_ban(actor=actor, user=user)
        return accounts.ban_user(user, by=actor)  # type: ignore[arg-type]

    # check_can_ban refuses staff (code `cannot_ban`) before check_can_moderate would.
    return _moderate(actor=actor, action=Action.BAN_USER, target=user, reason=reason, run=ban,
                     users=lambda: [])


def moderate_unban(*, actor: AbstractBaseUser, user: User, reason: str) -> None:
    """Re-enable a banned account (accounts.services.unban_user); only a superuser
    unbans staff (a ban of staff is a superuser's, so is lifting it)."""
    _moderate(actor=actor, action=Action.UNBAN_USER, target=user, reason=reason,
              run=lambda: accounts.unban_user(user), users=lambda: [user])


# -- reports ---------------------------------------------------------------------------


def report_target(target_type: str, target_id: int) -> models.Model | None:
    """The reported object, or None when there is none (or no chat app)."""
    if target_type == TargetType.USER:
        return User.objects.filter(pk=target_id, is_active=True).first()
    if target_type == TargetType.GAME:
        return Game.objects.filter(pk=target_id).first()
    if target_type == TargetType.CHAT_MESSAGE:
        try:
            message_model = apps.get_model("chat", "ChatMessage")
        except LookupError:
            return None
        return message_model.objects.select_related("author", "game").filter(pk=target_id).first()
    return None


def file_report(*, reporter: AbstractBaseUser, target_type: str, target_id: int,
                category: str, reason: str) -> Report:
    """Queue a report for moderators: one open report per reporter and target, at most
    REPORTS_PER_HOUR per reporter an hour, never about yourself."""
    if target_type not in TargetType.values:
        raise InvalidReport(_("target_type: one of %(values)s.")
                            % {"values": ", ".join(TargetType.values)})
    if category not in Category.values:
        raise InvalidReport(_("category: one of %(values)s.")
                            % {"values": ", ".join(Category.values)})
    reason = (reason or "").strip()
    if not reason or len(reason) > REASON_MAX:
        raise InvalidReport(_("reason: 1 to %(most)s characters.") % {"most": REASON_MAX})
    if not isinstance(target_id, int) or not 0 < target_id < 2**63:
        raise _no_target(target_type, target_id)
    target = report_target(target_type, target_id)
    if target is None or not _may_see(reporter, target):
        raise _no_target(target_type, target_id)
    author_id = target.pk if target_type == TargetType.USER else getattr(target, "author_id", None)
    if author_id == reporter.pk:
        raise CannotReportSelf(_("You cannot report yourself."))
    with transaction.atomic():
        # Lock the reporter's row: one reporter's reports are filed one at a time, so two
        # at once cannot both pass the hourly count below.
        User.objects.select_for_update().filter(pk=reporter.pk).first()
        since = timezone.now() - timedelta(hours=1)
        recent = Report.objects.filter(reporter_id=reporter.pk, created_at__gte=since).count()
        if recent >= REPORTS_PER_HOUR:
            raise RateLimited(_("At most %(most)s reports an hour; try again later.")
                              % {"most": REPORTS_PER_HOUR})
        if Report.objects.filter(reporter_id=reporter.pk, target_type=target_type,
                                 target_id=target_id, status=ReportStatus.OPEN).exists():
            raise AlreadyReported(_("You have an open report about this already."))
        try:
            with transaction.atomic():
                return Report.objects.create(
                    reporter_id=reporter.pk, target_type=target_type, target_id=target_id,
                    category=category, reason=reason)
        except IntegrityError:  # the partial unique index; the lock makes this unlikely
            raise AlreadyReported(_("You have an open report about this already.")) from None


def _may_see(reporter: AbstractBaseUser, target: models.Model) -> bool:
    """Whether the reporter may see the game reported, or the game of the message
    reported: to anyone else a private game's (games/privacy.py) is not there."""
    game = target if isinstance(target, Game) else getattr(target, "game", None)
    return game is None or privacy.may_view(game, reporter)


def _no_target(target_type: str, target_id: object) -> TargetNotFound:
    return TargetNotFound(_("No %(type)s %(id)s.") % {"type": target_type, "id": target_id})


# A closed report's status, in words (ReportClosed).
REPORT_STATUS = {
    ReportStatus.OPEN: pgettext_lazy("report", "open"),
    ReportStatus.RESOLVED: pgettext_lazy("report", "resolved"),
    ReportStatus.DISMISSED: pgettext_lazy("report", "dismissed"),
}


def resolve_report(*, moderator: AbstractBaseUser, report_id: int, note: str) -> Report:
    """Close an open report as acted upon; the note is logged as the reason."""
    return _handle(moderator, report_id, note, ReportStatus.RESOLVED, Action.RESOLVE_REPORT)


def dismiss_report(*, moderator: AbstractBaseUser, report_id: int, note: str) -> Report:
    """Close an open report as not needing action; the note is logged as the reason."""
    return _handle(moderator, report_id, note, ReportStatus.DISMISSED, Action.DISMISS_REPORT)


def _handle(moderator: AbstractBaseUser, report_id: int, note: str, status: str,
            action: str) -> Report:
    report = Report.objects.filter(pk=report_id).first()
    if report is None:
        raise TargetNotFound(_("No report %(id)s.") % {"id": report_id})

    def close() -> Report:
        # Lock the report: two moderators closing it at once, one of them is refused.
        locked = Report.objects.select_for_update().get(pk=report_id)
        if locked.status != ReportStatus.OPEN:
            raise ReportClosed(_("The report is already %(status)s.")
                               % {"status": REPORT_STATUS[locked.status]})
        locked.status = status
        locked.handled_by_id = moderator.pk
        locked.handled_at = timezone.now()
        locked.resolution = note.strip()
        locked.save(update_fields=["status", "handled_by", "handled_at", "resolution"])
        # The reporter is told the outcome, never the moderator's note or name.
        notify(locked.reporter, Kind.REPORT_OUTCOME,
               data={"outcome": status, "report": locked.pk})
        return locked

    game_id = report.target_id if report.target_type == TargetType.GAME else None
    return _moderate(actor=moderator, action=action, target=report, reason=note, run=close,
                     users=lambda: _reported_people(report), game_id=game_id)


def _reported_people(report: Report) -> list[User | None]:
    """Whom a report is about: the user, the message's author, or the game's players
    (banned accounts included: a report outlives the ban)."""
    if report.target_type == TargetType.USER:
        return [User.objects.filter(pk=report.target_id).first()]
    if report.target_type == TargetType.GAME:
        return list(_players(report.target_id))
    target = report_target(report.target_type, report.target_id)
    return [getattr(target, "author", None)]
