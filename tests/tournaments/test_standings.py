"""A Swiss's standings (docs/tournaments.md#points), checked by hand."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tournaments.seating import Round, Table
from tournaments.standings import RoundResult, bye_points, standings, table_points

# Nine players at four-seat tables, two rounds, one bye a round (docs/tournaments.md
# works this example through).
ROUND_1 = RoundResult(Round((Table(("a", "b", "c", "d")), Table(("e", "f", "g", "h"))),
                            byes=("i",)),
                      ((1, 2, 3, 4), (2, 1, 4, 2)))
ROUND_2 = RoundResult(Round((Table(("a", "f", "e", "i")), Table(("b", "h", "c", "g"))),
                            byes=("d",)),
                      ((2, 1, 3, 4), (1, 1, 3, 4)))


def test_placement_points_split_ties_and_leave_bots_out():
    assert table_points(Table(("a", "b", "c", "d")), (1, 2, 3, 4), 4) == {
        "a": 3, "b": 2, "c": 1, "d": 0}
    # second and third share (2 + 1) / 2
    assert table_points(Table(("a", "b", "c", "d")), (1, 2, 2, 4), 4) == {
        "a": 3, "b": F(3, 2), "c": F(3, 2), "d": 0}
    # the bot won: the three players are paid by their order among themselves, 3/1.5/0
    assert table_points(Table(("p", "q", None, "r")), (2, 4, 1, 3), 4) == {
        "p": 3, "r": F(3, 2), "q": 0}
    # duels: win 1, loss 0, a draw half each
    assert table_points(Table(("x", "y")), (2, 1), 2) == {"x": 0, "y": 1}
    assert table_points(Table(("x", "y")), (1, 1), 2) == {"x": F(1, 2), "y": F(1, 2)}
    assert bye_points(4) == F(3, 2) and bye_points(2) == F(1, 2)


def test_a_small_swiss_by_hand():
    lines = standings([ROUND_1, ROUND_2], 4)
    got = {s.player: s for s in lines}
    # points: round 1 + round 2
    assert {p: s.points for p, s in got.items()} == {
        "a": 3 + 2, "b": 2 + F(5, 2), "c": 1 + 1, "d": 0 + F(3, 2), "e": F(3, 2) + 1,
        "f": 3 + 3, "g": 0, "h": F(3, 2) + F(5, 2), "i": F(3, 2) + 0}
    # Buchholz: per table the mean of the mates' final points, per bye one's own
    assert got["a"].buchholz == (F(9, 2) + 2 + F(3, 2)) / 3 + (6 + F(5, 2) + F(3, 2)) / 3
    assert got["d"].buchholz == (5 + F(9, 2) + 2) / 3 + F(3, 2)
    assert got["i"].buchholz == F(3, 2) + (5 + 6 + F(5, 2)) / 3
    # Berger: the mates one finished ahead of (half for a tie), over the mates
    assert got["b"].berger == (2 + F(3, 2)) / 3 + (F(4, 2) + 2 + 0) / 3
    assert got["f"].berger == (F(5, 2) + 0 + 4) / 3 + (5 + F(5, 2) + F(3, 2)) / 3
    # wins: first place, shared or not
    assert {p: s.wins for p, s in got.items() if s.wins} == {"a": 1, "b": 1, "f": 2, "h": 1}
    assert (got["i"].games, got["i"].byes, got["a"].games, got["a"].byes) == (1, 1, 2, 0)
    # d and i both have 1.5: i's Buchholz (6) beats d's (16/3)
    assert [(s.rank, s.player) for s in lines] == [
        (1, "f"), (2, "a"), (3, "b"), (4, "h"), (5, "e"), (6, "c"), (7, "i"), (8, "d"),
        (9, "g")]
    assert lines[0].to_json() == {"rank": 1, "player": "f", "points": 6.0,
                                  "tiebreak": pytest.approx(31 / 6),
                                  "berger": pytest.approx(31 / 6), "wins": 2, "games": 2,
                                  "byes": 0}


def test_equal_lines_share_a_rank_and_unplayed_tables_count_nothing():
    duel = RoundResult(Round((Table(("x", "y")), Table(("z", "w")))), ((1, 1), None))
    lines = standings([duel], 2, players=["v"])
    assert [(s.rank, s.player, s.points, s.games) for s in lines] == [
        (1, "x", F(1, 2), 1), (1, "y", F(1, 2), 1),
        (3, "v", 0, 0), (3, "w", 0, 0), (3, "z", 0, 0)]


def test_malformed_results_are_refused():
    with pytest.raises(ValueError):
        table_points(Table(("a", "b")), (1, 2, 3), 2)
    with pytest.raises(ValueError):
        standings([RoundResult(ROUND_1.round, ((1, 2, 3, 4),))], 4)
