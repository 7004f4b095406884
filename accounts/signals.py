"""Signals other apps listen to, so accounts never imports them."""

from django.dispatch import Signal

# Sent after the commit that banned a user, with `user_id`. The real-time layer closes
# that user's open sockets; the token and session are already gone by then.
user_banned = Signal()

# Sent after the commit that revoked some of a user's credentials (a token revoked, a
# password changed), with `user_id`. The real-time layer closes the user's sockets whose
# token or session is gone (accounts/ws_auth.py `still_authenticated`).
credentials_revoked = Signal()

# Sent inside a ban's transaction, with `user` and `report` (accounts.services.BanReport):
# games takes the user out of the ranked queue there (games.bans); an error undoes the ban.
user_banning = Signal()

# Sent after the ban's commit, once `user_banned` has closed the sockets, with `user` and
# `report`: games frees the seats the user held (games.bans), filling in the report.
user_banned_seats = Signal()
