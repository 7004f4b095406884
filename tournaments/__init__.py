"""Tournaments: Swiss at tables of a kind's size and Arenas for the duels (issue 47).

Only the pure core lives here for now (docs/tournaments.md): ``seating`` (who sits at
which table and seat each round), ``standings`` (placement points and tie-breaks) and
``arena`` (pairing free players, lichess-like scoring). None of them imports Django
(an import-linter contract in pyproject.toml); the models, API, pages and the games a
round starts come with the integration through the one door that creates games.
"""
