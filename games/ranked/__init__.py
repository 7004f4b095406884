"""Ranked play: clocks, matchmaking, ratings and leaderboards (docs/ranked.md)."""
