"""Tournaments: Swiss at tables of a kind's size and Arenas for the duels (issue 47).

The pure core (docs/tournaments.md): ``seating`` (who sits at which table and seat each
round), ``standings`` (placement points and tie-breaks) and ``arena`` (pairing free
players, lichess-like scoring); none of them imports Django (an import-linter
contract in pyproject.toml). The app around it runs the Swiss: ``models``,
``services`` (create, join, withdraw, start, and the advance from round to round),
``api``, ``jobs`` (the worker's), and ``live`` and ``socket`` (every change versioned and
pushed to the tournament's page over `/ws/tournaments/{id}/`).
"""
