"""The web process's collector settings (bloqueio_site/gc_tuning.py)."""

from __future__ import annotations

import gc

import pytest

from bloqueio_site import gc_tuning


def test_the_asgi_application_freezes_its_start_and_sets_the_thresholds() -> None:
    import bloqueio_site.asgi  # noqa: F401  (imported: what every server loads)

    assert gc.get_threshold() == gc_tuning.DEFAULT
    assert gc.get_freeze_count() > 10_000  # Django and the site, loaded before the first request


@pytest.mark.parametrize(("text", "expected"), [
    (None, gc_tuning.DEFAULT), ("", None), (" ", None), ("5000,10,10", (5000, 10, 10))])
def test_gc_thresholds_from_the_environment(monkeypatch: pytest.MonkeyPatch, text: str | None,
                                            expected: tuple[int, ...] | None) -> None:
    if text is None:
        monkeypatch.delenv("GC_THRESHOLDS", raising=False)
    else:
        monkeypatch.setenv("GC_THRESHOLDS", text)
    assert gc_tuning.thresholds() == expected


@pytest.mark.parametrize("text", ["10000", "a,b,c", "0,10,10", "1,2,3,4"])
def test_a_malformed_setting_stops_the_process(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("GC_THRESHOLDS", text)
    with pytest.raises(ValueError):
        gc_tuning.thresholds()
