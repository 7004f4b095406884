"""Chat refuses messages that show nothing, and marks stacked past MAX_MARKS (issue #25)."""

from __future__ import annotations

import pytest

from chat import services
from chat.errors import InvalidMessage
from chat.models import ChatMessage
from tests.chat.conftest import post

pytestmark = pytest.mark.django_db

TAGS = "".join(chr(0xE0000 + ord(c)) for c in "hidden")  # tag characters: invisible


@pytest.mark.parametrize("text", [
    "\u200b", "\u200b\u200c\u200d\u2060\ufeff", "\u3164", "\u3164 \u3164", "\u2800\u2800",
    "\u115f\u1160", "\uffa0", TAGS, "\U000e0001" + TAGS + "\U000e007f", "\ufe0f\ufe0e",
    "\u00ad", "\u180e", "\u034f", " \u200b \u3000 \u2800 ", "\u0301\u0308",
    "\U000f0000",  # private use: no standard glyph
])
def test_a_message_with_nothing_visible_is_invalid(game, alice, text):
    with pytest.raises(InvalidMessage) as err:
        post(game, alice, text)
    assert (err.value.code, err.value.status) == ("invalid", 400)
    assert not ChatMessage.objects.exists()


def test_stacked_marks_past_the_limit_are_invalid(game, alice):
    for text in ["a" + "\u0301" * 279, "zalgo" + "\u0336\u0334\u0335\u0337\u0338",
                 "x" + "\u0301\u200d" * (services.MAX_MARKS + 1)]:
        with pytest.raises(InvalidMessage) as err:
            post(game, alice, text)
        assert err.value.code == "invalid" and "marks" in err.value.detail
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize("text", [
    "Tiếng Việt", "\u00e9t\u00e9", "क्षत्रिय", "1\ufe0f\u20e3",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family: joiners between emoji
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland
    "\u2764\ufe0f",  # a red heart: the selector at the end stays
    "x\u0301\u0302\u0303\u0304",  # four marks on one letter: the most allowed
    "gg", "…",
])
def test_ordinary_writing_in_any_script_is_kept(game, alice, text):
    assert post(game, alice, text).text == text


def test_invisible_characters_at_either_end_are_trimmed(game, alice):
    assert post(game, alice, "\u200b\u3164 hi \u200b\ufeff").text == "hi"
    assert post(game, alice, "\u2800ok\u2800").text == "ok"
