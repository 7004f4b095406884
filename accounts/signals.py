"""Signals other apps listen to, so accounts never imports them."""

from django.dispatch import Signal

# Sent after the commit that banned a user, with `user_id`. The real-time layer closes
# that user's open sockets; the token and session are already gone by then.
user_banned = Signal()
