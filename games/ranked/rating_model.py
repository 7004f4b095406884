"""The rating model: openskill settings, one rating update, and the displayed number.

Pure Python (no Django), so `bench/rating_fidelity.py` measures exactly the code the
site runs. The model and its settings were chosen by that benchmark (docs/ranked.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

MODELS: dict[str, Any] = {
    "bradley_terry_full": BradleyTerryFull,
    "plackett_luce": PlackettLuce,
    "thurstone_mosteller_full": ThurstoneMostellerFull,
}

MU = 25.0
SIGMA = 25.0 / 3.0


@dataclass(frozen=True)
class Settings:
    """Model name and its knobs; the defaults won bench/rating_fidelity.py (docs/ranked.md).

    `beta` is the per-game performance noise, `tau` the drift added to sigma before each
    game (keeps ratings movable so early misreadings wash out)."""

    model: str = "bradley_terry_full"
    beta: float = 2.5
    tau: float = 0.2
    kappa: float = 0.0001


DEFAULT = Settings()

# Display: a conservative estimate (mu - 3 sigma) on an Elo-like scale. A newcomer
# (25, 8.33) shows 800; a settled average player (sigma ~2.5) about 1500.
DISPLAY_BASE = 800
DISPLAY_SCALE = 40
PROVISIONAL_GAMES = 10
PROVISIONAL_SIGMA = 4.0


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA


def _model(settings: Settings) -> Any:
    return MODELS[settings.model](
        mu=MU, sigma=SIGMA, beta=settings.beta, tau=settings.tau, kappa=settings.kappa
    )


_CACHE: dict[Settings, Any] = {}


def model(settings: Settings = DEFAULT) -> Any:
    if settings not in _CACHE:
        _CACHE[settings] = _model(settings)
    return _CACHE[settings]


def rate(
    skills: Sequence[Skill], ranking: Sequence[int], settings: Settings = DEFAULT
) -> list[Skill]:
    """New skills after one game; `ranking` is the competition rank per seat (1 best,
    ties share a rank), exactly the engine's result ranking."""
    m = model(settings)
    teams = [[m.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = m.rate(teams, ranks=[float(r) for r in ranking])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def display(mu: float, sigma: float) -> int:
    """The number people see: 800 + 40 * (mu - 3 sigma), rounded."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


def skill_points(mu: float) -> int:
    """mu on the display scale, without the uncertainty penalty: 1500 + 40 * (mu - 25).
    Matchmaking compares these, so a newcomer meets average players, not the weakest."""
    return round(1500 + DISPLAY_SCALE * (mu - MU))


def provisional(games: int, sigma: float) -> bool:
    return games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA
