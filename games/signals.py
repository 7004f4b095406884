"""Signals games sends for the apps above it (notifications), so games never imports them."""

from django.dispatch import Signal

# Sent after the commit that invited a user by name to a game, once per invitation,
# with `invitation` (games.models.Invitation, its game, invited user and inviter loaded).
# The notifications app listens: it makes the notification and the e-mail.
invited = Signal()

# Sent after the commit that took an invitation back (games.invitations.revoke), with
# `invitation`: the notifications app settles its notice and the e-mail not yet sent.
invitation_revoked = Signal()

# Sent after the commit that made a rematch offer (games/rematch.py), once per offer,
# with `game` (the finished game), `offered_by` (a username) and `user_ids` (the other
# people at the table, who are asked). The notifications app tells them as it tells an
# invitation: a rematch is an invitation to play again.
rematch_offered = Signal()
