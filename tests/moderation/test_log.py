"""The moderation log: written through `record`, append-only in Django and in PostgreSQL,
read-only in admin for everyone, superusers included."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.utils import IntegrityError, InternalError

from bloqueio_site.append_only import AppendOnlyError
from moderation import services
from moderation.errors import ReasonRequired
from moderation.models import ModerationLog
from tests.games.helpers import started_game
from tests.moderation.conftest import browser

pytestmark = pytest.mark.django_db


def test_record_names_the_target_by_its_model(alice, bob, mod):
    game = started_game([alice, bob], kind="quoridor")
    entry = services.record(actor=mod, action="abort_game", target=game, reason=" cheating ")
    assert (entry.target_type, entry.target_id, entry.reason, entry.outcome) == (
        "game", str(game.pk), "cheating", "done")
    assert str(game.pk) in entry.target_repr
    entry = services.record(actor=None, action="ban_user", target=alice, reason="spam",
                            outcome="refused: because")
    assert (entry.actor, entry.target_type, entry.target_repr) == (None, "user", "alice")


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_a_blank_reason_is_refused(alice, mod, reason):
    with pytest.raises(ReasonRequired) as caught:
        services.record(actor=mod, action="ban_user", target=alice, reason=reason)
    assert (caught.value.code, caught.value.status) == ("reason_required", 400)
    assert not ModerationLog.objects.exists()


def test_the_model_refuses_changes_and_deletes(alice, mod):
    entry = services.record(actor=mod, action="ban_user", target=alice, reason="spam")
    entry.reason = "nothing to see"
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        ModerationLog.objects.filter(pk=entry.pk).update(reason="x")
    with pytest.raises(AppendOnlyError):
        ModerationLog.objects.all().delete()


@pytest.mark.parametrize("sql", [
    "UPDATE moderation_moderationlog SET reason = 'rewritten'",
    "UPDATE moderation_moderationlog SET outcome = 'done' WHERE id = %s",
    "DELETE FROM moderation_moderationlog WHERE id = %s",
    "DELETE FROM moderation_moderationlog",
])
def test_the_database_refuses_updates_and_deletes(alice, mod, sql):
    entry = services.record(actor=mod, action="ban_user", target=alice, reason="spam")
    with (pytest.raises((InternalError, IntegrityError), match="append-only"),
          transaction.atomic(), connection.cursor() as cursor):
        cursor.execute(sql, [entry.pk] if "%s" in sql else None)
    assert ModerationLog.objects.get(pk=entry.pk).reason == "spam"


def test_the_database_refuses_a_blank_reason(alice):
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO moderation_moderationlog (action, target_type, target_id, "
            "target_repr, reason, outcome, at) VALUES "
            "('ban_user', 'user', '1', 'x', '', 'done', now())")


@pytest.mark.parametrize("who", ["root", "mod"])
def test_admin_shows_the_log_but_never_adds_changes_or_deletes(request, alice, who):
    user = request.getfixturevalue(who)
    entry = services.record(actor=user, action="ban_user", target=alice, reason="spam")
    client = browser(user)
    listing = client.get("/admin/moderation/moderationlog/")
    assert listing.status_code == 200 and b"spam" in listing.content
    assert b'name="action"' not in listing.content  # no delete_selected, no actions
    page = client.get(f"/admin/moderation/moderationlog/{entry.pk}/change/")
    assert page.status_code == 200
    assert b'name="_save"' not in page.content and b"deletelink" not in page.content
    assert client.get("/admin/moderation/moderationlog/add/").status_code == 403
    delete_url = f"/admin/moderation/moderationlog/{entry.pk}/delete/"
    assert client.get(delete_url).status_code == 403
    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    client.post(f"/admin/moderation/moderationlog/{entry.pk}/change/", {"reason": "x"})
    assert ModerationLog.objects.get(pk=entry.pk).reason == "spam"


def test_admin_filters_and_searches_the_log(alice, bob, mod):
    services.record(actor=mod, action="ban_user", target=alice, reason="spam")
    services.record(actor=mod, action="abort_game",
                    target=started_game([alice, bob], kind="quoridor"), reason="stuck")
    client = browser(mod)
    assert b"stuck" not in client.get(
        "/admin/moderation/moderationlog/?action__exact=ban_user").content
    found = client.get("/admin/moderation/moderationlog/?q=stuck").content
    assert b"stuck" in found and b"spam" not in found
    assert client.get(
        f"/admin/moderation/moderationlog/?actor__id__exact={mod.pk}").status_code == 200
