"""Invitations by name: a seated player of a waiting game asks another user to join it.

The invitation is a row (one per game and user); the invited user accepts (a join, the
one in games/services.py, under the game's row lock) or declines. After commit,
`games.signals.invited` tells the apps above (notifications: the notice and the e-mail).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from accounts import selectors as accounts_selectors
from bloqueio_site.jsontext import iso
from games import privacy, round_store, services, signals
from games.errors import (
    AlreadySeated,
    AlreadyStarted,
    CannotInvite,
    GameFull,
    GameNotFound,
    GameOver,
    InvitationClosed,
    NotAPlayer,
    UnknownUser,
)
from games.models import Game, Invitation, InvitationStatus, Status


def invite_user(*, game_id: int, user: AbstractBaseUser, username: Any) -> tuple[Invitation, bool]:
    """`user`, seated in waiting game `game_id`, invites `username`. Returns the
    invitation and whether it is new; inviting a user again while the invitation is
    pending changes nothing and sends nothing."""
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
        invitation, created = Invitation.objects.get_or_create(
            game=game, invited=invited, defaults={"invited_by": user})
        if not created and invitation.status == InvitationStatus.DECLINED:
            raise CannotInvite(_("%(name)s declined this game's invitation.")
                               % {"name": invited.username}, code="invitation_declined")
        if created:
            invitation.game, invitation.invited, invitation.invited_by = game, invited, user
            transaction.on_commit(partial(signals.invited.send, sender=Invitation,
                                          invitation=invitation))
    return invitation, created


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


def accept(*, invitation_id: int, user: AbstractBaseUser) -> Game:
    """Join the game the invitation is for (the join of services, which marks the
    invitation accepted); refused as any join is when the game is full or started."""
    with transaction.atomic():
        invitation = _pending(invitation_id, user)
        return services.join_game(game_id=invitation.game_id, user=user)


def decline(*, invitation_id: int, user: AbstractBaseUser) -> Invitation:
    with transaction.atomic():
        invitation = _pending(invitation_id, user)
        invitation.status = InvitationStatus.DECLINED
        invitation.save(update_fields=["status"])
    return invitation


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
