"""Bradley-Terry ratings on the Elo scale, by maximum likelihood, for the bot ladder.

A game between several players is scored as pairwise results from its final ranking
(bench/bot_ladder.py does that): each result is ``(a, b, score)`` with ``score`` 1 when
``a`` finished ahead of ``b``, 0.5 when they shared a rank, 0 when behind. Under
Bradley-Terry, ``P(a beats b) = g_a / (g_a + g_b)``; the fit is Hunter's MM iteration
(each ``g_i = W_i / sum_j n_ij / (g_i + g_j)``, a draw counted as half a win each way),
which climbs the likelihood at every step without a step size to tune. The anchor
player is held at a fixed rating, so the scale means "Elo points above the anchor".

A player that never lost has no finite maximum-likelihood rating; ``PRIOR`` virtual
draws between every two players that met keep it finite (a small pull toward each
other, the usual fix: BayesElo's prior does the same). Intervals come from refitting
bootstrap resamples of the games (the pairwise results of one game move together, so
games, not results, are resampled; each pairing keeps its number of games).

No dependency beyond the standard library; tests/bots/test_bt_fit.py checks the fit on
synthetic games from known strengths.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Sequence

Result = tuple[str, str, float]  # (a, b, a's score against b: 1, 0.5 or 0)
Game = Sequence[Result]  # the pairwise results of one game
ELO = 400 / math.log(10)  # natural-log strength to Elo points
PRIOR = 1.0  # virtual draws added between every two players that met


def fit(
    games: Sequence[Game],
    anchor: str,
    anchor_elo: float = 0.0,
    prior: float = PRIOR,
    iterations: int = 10_000,
    tolerance: float = 1e-9,
) -> dict[str, float]:
    """Elo rating of every player in ``games``, ``anchor`` held at ``anchor_elo``.

    Every player must be connected to the anchor by games (else its rating is
    undefined): a ValueError says which are not."""
    wins: dict[str, float] = defaultdict(float)
    met: dict[tuple[str, str], float] = defaultdict(float)  # games between a < b
    for game in games:
        for a, b, score in game:
            if a == b:
                continue
            wins[a] += score
            wins[b] += 1.0 - score
            met[(a, b) if a < b else (b, a)] += 1.0
    for pair in list(met):  # the prior: virtual draws, half a win each way
        met[pair] += prior
        wins[pair[0]] += prior / 2
        wins[pair[1]] += prior / 2
    players = sorted(wins)
    if anchor not in wins:
        raise ValueError(f"the anchor {anchor!r} played no game")
    _connected(players, met, anchor)
    opponents: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for (a, b), n in met.items():
        opponents[a].append((b, n))
        opponents[b].append((a, n))
    strength = dict.fromkeys(players, 1.0)
    for _ in range(iterations):
        new = {}
        for p in players:
            denominator = sum(n / (strength[p] + strength[q]) for q, n in opponents[p])
            new[p] = wins[p] / denominator if wins[p] > 0 else 1e-12
        scale = new[anchor]
        new = {p: g / scale for p, g in new.items()}
        change = max(abs(math.log(new[p] / strength[p])) for p in players)
        strength = new
        if change < tolerance:
            break
    return {p: anchor_elo + ELO * math.log(strength[p]) for p in players}


def _connected(players: list[str], met: dict[tuple[str, str], float], anchor: str) -> None:
    links: dict[str, set[str]] = defaultdict(set)
    for a, b in met:
        links[a].add(b)
        links[b].add(a)
    seen, front = {anchor}, [anchor]
    while front:
        p = front.pop()
        for q in links[p] - seen:
            seen.add(q)
            front.append(q)
    if missing := [p for p in players if p not in seen]:
        raise ValueError(f"not connected to the anchor by games: {', '.join(missing)}")


def bootstrap(
    pairings: dict[tuple[str, str], list[Game]],
    anchor: str,
    rounds: int = 200,
    seed: int = 1,
    anchor_elo: float = 0.0,
) -> dict[str, tuple[float, float]]:
    """95 % interval (2.5th and 97.5th percentiles) of each rating over ``rounds`` fits
    of the games resampled with replacement within each pairing."""
    rng = random.Random(seed)
    samples: dict[str, list[float]] = defaultdict(list)
    for _ in range(rounds):
        resampled = [
            games[rng.randrange(len(games))] for games in pairings.values() for _ in games
        ]
        for p, r in fit(resampled, anchor, anchor_elo).items():
            samples[p].append(r)
    out = {}
    for p, values in samples.items():
        values.sort()
        out[p] = (values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))])
    return out


def expected(elo_a: float, elo_b: float) -> float:
    """Bradley-Terry expected score of a against b from their Elo ratings."""
    return 1.0 / (1.0 + 10 ** ((elo_b - elo_a) / 400))
