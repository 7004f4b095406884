"""Invitations by name: a seated player of a waiting game asks another user to join it.

The invitation is a row (one per game and user); the invited user accepts (a join, the
one in games/services.py, under the game's row lock) or declines, and the table may take
it back while it is pending (`revoke`). Each writes, in its transaction, an outbox row
(games/outbox.py) that the apps above carry out (notifications: the notice and the
e-mail).

Bounded (issue #44: one two-seat game sent 40 invitations in 1.4 s, and games made again
and again re-invited one person 10 times in 0.6 s, each by e-mail): at most
INVITATIONS_PER_GAME people invited to a game, INVITE_RATE new invitations per inviter,
and INVITE_AGAIN_RATE of one person by one inviter.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import selectors as accounts_selectors
from bloqueio_site import limits
from bloqueio_site.jsontext import iso
from games import outbox, privacy, round_store, services
from games.errors import (
    AlreadySeated,
    AlreadyStarted,
    CannotInvite,
    GameFull,
    GameNotFound,
    GameOver,
    InvitationClosed,
    NotAPlayer,
    TooManyInvitations,
    UnknownUser,
)
from games.models import Game, Invitation, InvitationStatus, Seat, Status

INVITATIONS_PER_GAME = limits.cap("INVITATIONS_PER_GAME", 10)
INVITE_RATE = limits.rate("invite", "INVITATION_LIMIT", 20, 3600)
INVITE_AGAIN_RATE = limits.rate("invite_again", "INVITATION_REPEAT_LIMIT", 3, 3600)


def invite_user(*, game_id: int, user: AbstractBaseUser, username: Any) -> tuple[Invitation, bool]:
    """`user`, seated in waiting game `game_id`, invites `username`. Returns the
    invitation and whether it is new; inviting a user again while the invitation is
    pending changes nothing, sends nothing and counts against no limit. A new one (or
    one taken back, asked again) is held to the game's cap and the inviter's rates."""
    invited = accounts_selectors.active_user(username) if isinstance(username, str) else None
    if invited is None:
        raise UnknownUser(_("No user named %(name)s.") % {"name": repr(username)})
    if invited.pk == user.pk:
        raise CannotInvite(_("You cannot invite yourself."), code="cannot_invite_self")
    if invited.bot_level:
        raise CannotInvite(_("The computer is not invited: add a bot to a seat instead."),
                           code="cannot_invite_bot")
    with transaction.atomic():
        # Why lock the game: an invitation and the join that fills the last seat queue
        # here, so a full or started game is never sent an invitation.
        found = round_store.lock_row(game_id)
        if found is None:
            raise privacy.not_found(game_id)
        game, seats = found
        if not any(s.user_id == user.pk for s in seats):
            privacy.hide_from_strangers(game, user, seats=seats)
            raise NotAPlayer(_("Only a seated player can invite."))
        if game.status in (Status.FINISHED, Status.ABORTED):
            raise GameOver(_("The game is %(status)s.") % {"status": game.status})
        if game.status != Status.WAITING:
            raise AlreadyStarted(_("The game has already started."))
        if any(s.user_id == invited.pk for s in seats):
            raise AlreadySeated(_("%(name)s already has a seat in this game.")
                                % {"name": invited.username})
        if len(seats) >= game.seat_count:
            raise GameFull(_("Every seat is taken."))
        invitation = Invitation.objects.filter(game=game, invited=invited).first()
        if invitation is not None and invitation.status == InvitationStatus.DECLINED:
            raise CannotInvite(_("%(name)s declined this game's invitation.")
                               % {"name": invited.username}, code="invitation_declined")
        if invitation is not None and invitation.status != InvitationStatus.REVOKED:
            return invitation, False  # pending (or answered by a join): nothing is sent
        _check_limits(game, user, invited, again=invitation is not None)
        if invitation is None:
            invitation = Invitation.objects.create(game=game, invited=invited, invited_by=user)
        else:  # taken back before: asked again, as new
            invitation.status, invitation.invited_by = InvitationStatus.PENDING, user
            invitation.created_at = timezone.now()
            invitation.save(update_fields=["status", "invited_by", "created_at"])
        invitation.game, invitation.invited, invitation.invited_by = game, invited, user
        outbox.record(outbox.Effect(outbox.INVITED, game.pk, {"invitation": invitation.pk}))
    return invitation, True


def _check_limits(game: Game, user: AbstractBaseUser, invited: Any, *, again: bool) -> None:
    """Refuse an invitation past the game's cap (a row taken back counts: asking again
    reuses it) or past the inviter's rates (counted only for an invitation sent)."""
    if not again and Invitation.objects.filter(game=game).count() >= INVITATIONS_PER_GAME:
        raise TooManyInvitations(
            _("At most %(cap)s people can be invited to one game.")
            % {"cap": INVITATIONS_PER_GAME})
    limits.check(INVITE_RATE, str(user.pk), _("Too many invitations from your account"))
    limits.check(INVITE_AGAIN_RATE, f"{user.pk}:{invited.pk}",
                 _("Too many invitations of %(name)s from your account")
                 % {"name": invited.username})


def _pending(invitation_id: int, user: AbstractBaseUser) -> Invitation:
    """The user's invitation, locked; GameNotFound-like 404 for anyone else's."""
    invitation = (Invitation.objects.select_for_update().select_related("game")
                  .filter(pk=invitation_id, invited_id=user.pk).first())
    if invitation is None:
        raise GameNotFound(_("No invitation %(id)s.") % {"id": invitation_id})
    if invitation.status != InvitationStatus.PENDING:
        raise InvitationClosed(_("This invitation was %(status)s already.")
                               % {"status": invitation.get_status_display()})
    return invitation


def accept(*, invitation_id: int, user: AbstractBaseUser, address: str | None = None
           ) -> Game:
    """Join the game the invitation is for (the join of services, which marks the
    invitation accepted, and notes `address` for a ranked game); refused as any join
    is when the game is full or started."""
    with transaction.atomic():
        invitation = _pending(invitation_id, user)
        return services.join_game(game_id=invitation.game_id, user=user, address=address)


def decline(*, invitation_id: int, user: AbstractBaseUser) -> Invitation:
    with transaction.atomic():
        invitation = _pending(invitation_id, user)
        invitation.status = InvitationStatus.DECLINED
        invitation.save(update_fields=["status"])
    return invitation


def revoke(*, invitation_id: int, user: AbstractBaseUser) -> Invitation:
    """Take back a pending invitation: its inviter, or a player seated in its game, may.
    The invited user is no longer asked, no longer sees a private game by it, and is
    not e-mailed about it; anyone else is told there is no such invitation."""
    with transaction.atomic():
        # Locked: an acceptance and a revocation at once, the second is invitation_closed.
        invitation = (Invitation.objects.select_for_update()
                      .select_related("game", "invited", "invited_by")
                      .filter(pk=invitation_id).first())
        if invitation is None or not (
                invitation.invited_by_id == user.pk
                or Seat.objects.filter(game_id=invitation.game_id, user_id=user.pk,
                                       bot=False).exists()):
            raise GameNotFound(_("No invitation %(id)s.") % {"id": invitation_id})
        if invitation.status != InvitationStatus.PENDING:
            raise InvitationClosed(_("This invitation was %(status)s already.")
                                   % {"status": invitation.get_status_display()})
        invitation.status = InvitationStatus.REVOKED
        invitation.save(update_fields=["status"])
        outbox.record(outbox.Effect(outbox.INVITATION_REVOKED, invitation.game_id, {
            "invitation": invitation.pk, "invited": invitation.invited_id}))
    return invitation


def of_game(*, game_id: int, user: AbstractBaseUser) -> list[dict[str, Any]]:
    """The game's invitations by name, newest first, for its seated players (whom the
    page shows them to, with a way to take a pending one back)."""
    found = Game.objects.filter(pk=game_id).first()
    if found is None:
        raise privacy.not_found(game_id)
    seats = list(Seat.objects.filter(game=found))
    if not any(s.user_id == user.pk and not s.bot for s in seats):
        privacy.hide_from_strangers(found, user, seats=seats)
        raise NotAPlayer(_("Only a seated player sees the game's invitations."))
    rows = (Invitation.objects.filter(game=found).select_related("game", "invited", "invited_by")
            .order_by("-created_at", "-id"))
    return [invitation_json(i) for i in rows[:INVITATIONS_PER_GAME]]


def still_valid(invitation_id: Any) -> bool:
    """Whether an invitation still asks anything: pending, to a game still waiting for
    players. Its notice and e-mail are for such an invitation only."""
    return isinstance(invitation_id, int) and Invitation.objects.filter(
        pk=invitation_id, status=InvitationStatus.PENDING, game__status=Status.WAITING).exists()


def invitation_json(invitation: Invitation) -> dict[str, Any]:
    game = invitation.game
    return {
        "id": invitation.pk, "game": game.pk, "kind": game.kind,
        "game_status": game.status, "private": game.private,
        "invited": invitation.invited.username, "invited_by": invitation.invited_by.username,
        "status": invitation.status, "created_at": iso(invitation.created_at),
    }


def pending_for(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """The user's pending invitations to games still waiting for players, newest first."""
    rows = (Invitation.objects.filter(invited_id=user.pk, status=InvitationStatus.PENDING,
                                      game__status=Status.WAITING)
            .select_related("game", "invited", "invited_by").order_by("-created_at", "-id"))
    return [invitation_json(i) for i in rows[:100]]
