"""The opening moves tests play, written once: seat 0's first move (Bloqueio for four and
for two: a step from its pawn's start) and seat 1's answer in four-seat Bloqueio."""

from __future__ import annotations

from typing import Any

MOVE0: dict[str, Any] = {"type": "move", "to": [2, 5]}
MOVE1: dict[str, Any] = {"type": "move", "to": [5, 8]}
