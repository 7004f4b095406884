"""Signals other apps listen to, so accounts never imports them."""

from django.dispatch import Signal

# Sent after the commit that banned a user, with `user_id`. The real-time layer closes
# that user's open sockets; the token and session are already gone by then.
user_banned = Signal()

# Sent after the commit that revoked some of a user's credentials (a token revoked, a
# password changed), with `user_id`. The real-time layer closes the user's sockets whose
# token or session is gone (accounts/ws_auth.py `still_authenticated`).
credentials_revoked = Signal()
