"""Account API routes (filled in by the accounts issue)."""

urlpatterns: list = []
