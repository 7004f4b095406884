"""The bots over the Rules protocol: legal play to the end, determinism, passes,
hints and node budgets, for every level of every kind. Small node budgets keep it fast."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import bots, engine
from games.bots.core import Budget, OutOfBudget
from games.engine.barrier.actions import Move

SMALL = {"hard": 60}  # nodes per hard move in these tests
# Every level each kind offers (`perfect` only where the kind is solved).
KIND_LEVELS = [(kind, level) for kind in engine.KINDS for level in bots.levels(engine.get(kind))]


def play_out(kind: str, levels: list[str], seed: int) -> Any:
    """A whole game between the given levels (one per seat); every action checked."""
    rules = engine.get(kind)
    state = rules.initial()
    while state.turn is not None:
        level = levels[state.turn % len(levels)]
        action = bots.choose(rules, state, level, seed=seed, nodes=SMALL.get(level))
        assert rules.is_legal(state, action), (kind, level, rules.format_action(action))
        state = rules.apply(state, action)
    return rules.result(state)


@pytest.mark.parametrize(("kind", "level"), KIND_LEVELS)
def test_every_level_plays_only_legal_actions_to_the_end(kind: str, level: str) -> None:
    rules = engine.get(kind)
    games = 1 if level == "hard" and rules.info.family == "blokus" else 2
    for seed in range(games):
        others = ["easy", "medium", "easy", "medium"][: rules.seats]
        others[seed % rules.seats] = level
        assert play_out(kind, others, seed) is not None


def _midgame(kind: str, plies: int = 6) -> tuple[Any, Any]:
    rules = engine.get(kind)
    state = rules.initial()
    for ply in range(plies):
        state = rules.apply(state, bots.choose(rules, state, "easy", seed=ply))
    return rules, state


@pytest.mark.parametrize(("kind", "level"), KIND_LEVELS)
def test_same_seed_gives_the_same_action(kind: str, level: str) -> None:
    rules, state = _midgame(kind)
    fresh = rules.state_from_json(state.to_json())  # a cold cache must not matter
    first = bots.choose(rules, state, level, seed=7, nodes=SMALL.get(level))
    again = bots.choose(rules, fresh, level, seed=7, nodes=SMALL.get(level))
    assert first == again


def test_different_seeds_vary_easy_play() -> None:
    rules = engine.get("blokus_duo")
    state = rules.initial()
    picks = {bots.choose(rules, state, "easy", seed=s) for s in range(20)}
    assert len(picks) > 1


def _only_pass_state() -> tuple[Any, Any]:
    """A Blokus Duo colour with no placement left: its only action is a pass."""
    rules = engine.get("blokus_duo")
    state = rules.initial()
    seed = 0
    while state.turn is not None and not rules.must_pass(state):
        state = rules.apply(state, bots.choose(rules, state, "easy", seed=seed))
        seed += 1
    assert state.turn is not None, "no forced pass reached"
    return rules, state


@pytest.mark.parametrize("level", bots.levels(engine.get("blokus_duo")))
def test_pass_when_it_is_the_only_action(level: str) -> None:
    rules, state = _only_pass_state()
    assert rules.legal_actions(state) == [engine.PASS]
    assert bots.choose(rules, state, level, seed=1) == engine.PASS
    assert bots.explain(rules, state, engine.PASS)


def test_choose_refuses_a_finished_game_and_unknown_levels() -> None:
    rules = engine.get("blockade")
    end = rules.replay(rules.parse_game("b0 b1 a1 a0"))
    with pytest.raises(ValueError):
        bots.choose(rules, end, "easy", seed=1)
    with pytest.raises(ValueError):
        bots.choose(rules, rules.initial(), "grandmaster", seed=1)


def test_perfect_is_offered_only_where_the_kind_is_solved() -> None:
    assert [k for k in engine.KINDS if "perfect" in bots.levels(engine.get(k))] == [
        "blockade", "blockade_run"]
    quoridor = engine.get("quoridor")
    assert bots.levels(quoridor) == ("easy", "medium", "hard")
    with pytest.raises(ValueError, match="no perfect level"):
        bots.choose(quoridor, quoridor.initial(), "perfect", seed=1)
    assert bots.solve(quoridor, quoridor.initial()) is None


@pytest.mark.parametrize("kind", engine.KINDS)
def test_explain_says_something_for_each_family(kind: str) -> None:
    rules, state = _midgame(kind, 4)
    action = bots.choose(rules, state, "medium", seed=3)
    text = bots.explain(rules, state, action)
    assert isinstance(text, str) and len(text.split()) >= 3 and "\n" not in text


def test_explain_names_the_seat_a_barrier_blocks() -> None:
    rules = engine.get("bloqueio2")
    state = rules.replay(rules.parse_game("f2 f8 f3 f7 f4 f6"))
    # green (seat 1) stands on f6, six steps from row 0; cut its way up
    text = bots.explain(rules, state, rules.parse_notation("e5h"))
    assert text.startswith("blocks Green, who is 6 steps from goal: their path grows")


def test_explain_counts_blockade_replies() -> None:
    rules = engine.get("blockade")
    state = rules.initial()
    text = bots.explain(rules, state, rules.parse_notation("a0"))
    assert text == "leaves O 2 places to go"


@pytest.mark.parametrize("kind", ["bloqueio", "quoridor", "blockade_run", "blokus2"])
@pytest.mark.parametrize("nodes", [1, 25, 200])
def test_hard_honours_its_node_budget_exactly(kind: str, nodes: int) -> None:
    rules, state = _midgame(kind)
    choice = bots.think(rules, state, "hard", seed=1, nodes=nodes, budget_s=60)
    assert 0 < choice.nodes <= nodes
    assert rules.is_legal(state, choice.action)
    if rules.info.family == "barrier":  # the opening tree is far bigger than the budget
        assert choice.nodes == nodes


def test_hard_searches_deeper_with_more_nodes() -> None:
    rules, state = _midgame("quoridor")
    small = bots.think(rules, state, "hard", seed=1, nodes=50, budget_s=60)
    large = bots.think(rules, state, "hard", seed=1, nodes=3000, budget_s=60)
    assert large.depth > small.depth


def test_budget_counts_exactly() -> None:
    budget = Budget(3, None)
    budget.spend()
    budget.spend(2)
    with pytest.raises(OutOfBudget):
        budget.spend()
    assert budget.used == 3 and budget.left == 0


@pytest.mark.parametrize("level", bots.LEVELS[1:])
def test_a_winning_step_is_taken(level: str) -> None:
    rules = engine.get("blockade_run")
    # red on c3; green has just left c4, so stepping there reaches row 4 and wins
    state = rules.replay(rules.parse_game("c1^a0 d4^a1 c2^a2 d3^b0 c3^b1 d2^e0"))
    action = bots.choose(rules, state, level, seed=1, nodes=200)
    assert rules.result(rules.apply(state, action)).winner == 0
    assert bots.explain(rules, state, action) == "reaches Red's goal row and wins the game"


def test_hard_wins_blockade_from_the_first_move() -> None:
    rules = engine.get("blockade")
    choice = bots.think(rules, rules.initial(), "hard", seed=1, nodes=20000)
    assert choice.score > 0  # Blockade is a first-player win; hard finds a winning cell


@pytest.mark.parametrize(("kind", "game"), [("bloqueio", 1), ("quoridor4", 2)])
def test_four_seat_medium_wins_a_race_it_would_lose_on_turn_order(kind: str, game: int) -> None:
    """Three greedy racers and medium, all equally far, medium not first to move: a
    one-ply medium walked and lost every such race; its race plan finds the blocks (and
    the steps into the middle) that win it. These are ladder games, seat ``game % 4``."""
    from bench.bot_ladder import play

    assert game % 4 != 0
    assert play(kind, "medium", "greedy", game, 1, True).won


def test_medium_does_not_step_into_a_jump() -> None:
    rules = engine.get("quoridor")
    # the pawns face each other two cells apart: stepping between them hands a jump over
    state = rules.replay(rules.parse_game("e7 e1 e6 e2 e5 e3"))
    action = bots.choose(rules, state, "medium", seed=1)
    after = rules.apply(state, action)
    assert after.pawns[0] != (4, 4) or rules.distance(after, 1) > rules.distance(state, 1)


def test_hard_expects_the_reply_medium_would_play() -> None:
    from games.engine.barrier.bot_eval import (
        REPLY_WIDTH,
        BarrierEvaluator,
        HardEvaluator,
        position_score,
    )

    rules = engine.get("quoridor")
    # seat 0 (hard, say) has just moved: seat 1 replies, walls in hand, paths crossing
    state = rules.replay(rules.parse_game("e7 e1 e6 e2 e5 e3 d5h"))
    me, seat = 0, 1
    assert state.turn == seat
    replies = HardEvaluator(rules, state.ply - 1).candidates(state, me, False)
    assert 0 < len(replies) <= REPLY_WIDTH
    assert all(rules.is_legal(state, a) for a in replies)
    ev = BarrierEvaluator(rules)
    value, target = ev.stance(state, seat)

    def score(action: Any) -> float:
        return position_score(ev, rules.apply(state, action), seat, value, target)

    for s in range(5):  # whatever medium picks among equals, hard's first guess scores as much
        picked = bots.choose(rules, state, "medium", seed=s)
        assert score(replies[0]) == pytest.approx(score(picked))


def test_medium_leaves_a_blockade_opponent_the_most_ways_to_go_wrong() -> None:
    rules = engine.get("blockade")
    state = rules.replay(rules.parse_game("b0"))
    # a0 leaves X the fewest places (one), but only after b1 does one of X's replies (a1)
    # let O place where X then has no reply: medium keeps X the most ways to go wrong
    for seed in range(5):
        assert bots.choose(rules, state, "medium", seed=seed) == rules.parse_notation("b1")


@pytest.mark.parametrize("kind", engine.KINDS)
def test_a_reason_names_the_mover_and_never_says_you(kind: str) -> None:
    """The reason is read by the player (a hint) and by spectators (a replay's best
    move): "shortens your path" told a spectator it was theirs."""
    rules = engine.get(kind)
    state = rules.initial()
    for ply in range(6):
        if rules.result(state) is not None or state.turn is None:
            break
        action = bots.choose(rules, state, "easy", seed=ply, nodes=50)
        reason = bots.explain(rules, state, action)
        assert not re.search(r"\byou(r|rs)?\b", reason, re.IGNORECASE), reason
        state = rules.apply(state, action)


def test_four_seat_hard_stops_a_leader_nobody_else_would() -> None:
    from bench import opponents

    rules = engine.get("quoridor4")
    # seat 0 ran while the others shuffled: it is 2 steps from its goal, everyone else 7
    # or 8; hard (seat 3) must stop it, as three greedy racers never block a 1-step
    # gain. Expecting the others to block it (as medium would), an old search walked;
    # today's blocks it a step later, where a barrier costs it more
    moves = "e7 d0 b4 h4 e6 e0 a4 i4 e5 d0 b4 h4 e4 e0 a4 i4 e3 d0 b4 h4 e2 e0 a4"
    start = rules.replay(rules.parse_game(moves))
    assert start.turn == 3 and rules.distance(start, 0) == 2
    for seed in range(2):
        state = start
        while state.turn is not None:
            if state.turn == 3:
                action = bots.choose(rules, state, "hard", seed=seed, nodes=1600, budget_s=60)
            else:
                action = opponents.play("racer", rules, state, seed * 10 + state.turn)
            state = rules.apply(state, action)
        result = rules.result(state)
        assert result is not None and result.winner != 0


def test_the_runner_model_steps_unless_a_barrier_gains_a_whole_step_more() -> None:
    from games.engine.barrier.bot import _runner
    from games.engine.barrier.bot_eval import BarrierEvaluator

    rules = engine.get("quoridor4")
    ev = BarrierEvaluator(rules)
    state = rules.initial()
    for _ in range(12):  # an open board: no single barrier gains two steps, so all run
        action = _runner(ev, state)
        assert isinstance(action, Move)
        assert rules.distance(rules.apply(state, action), state.turn) < rules.distance(
            state, state.turn
        )
        state = rules.apply(state, action)


@pytest.mark.parametrize("kind", ["bloqueio", "quoridor4"])
def test_four_seat_hard_at_its_full_budget_is_legal_bounded_and_seeded(kind: str) -> None:
    from games.engine.barrier.bot import LOOKAHEAD_ROUNDS, nodes_per_second

    rules, state = _midgame(kind, 9)
    nodes = nodes_per_second(rules)
    first = bots.think(rules, state, "hard", seed=4, nodes=nodes, budget_s=60)
    again = bots.think(rules, rules.state_from_json(state.to_json()), "hard", seed=4,
                       nodes=nodes, budget_s=60)
    assert rules.is_legal(state, first.action)
    assert first.action == again.action and 0 < first.nodes <= nodes
    assert first.depth == LOOKAHEAD_ROUNDS  # every candidate kept was played out in full


def test_a_lookahead_with_several_opponent_models_keeps_each_candidates_worst() -> None:
    from dataclasses import dataclass

    from games.bots.core import lookahead

    @dataclass(frozen=True)
    class Toy:  # two seats add their action to a running total; seat 0 wants it high
        turn: int
        ply: int
        total: int

    class ToyRules:
        def apply(self, state: Toy, action: int) -> Toy:
            return Toy(1 - state.turn, state.ply + 1, state.total + action)

    kind, cruel = (lambda s: 1), (lambda s: -5)  # two guesses at the opponent's reply
    start = Toy(0, 0, 0)
    for models, score in (([kind], 3), ([kind, cruel], -3)):
        choice = lookahead(
            ToyRules(), start, 0, [0, 2], models, lambda s: s.total, Budget(100, None)
        )
        assert (choice.action, choice.score) == (2, score)


@pytest.mark.parametrize("kind", ["bloqueio", "quoridor4"])
def test_the_pawn_race_counts_turn_order_and_jumps(kind: str) -> None:
    from games.engine.barrier.bot_race import race

    rules = engine.get(kind)
    state = rules.initial()
    # everyone equally far: the first to move wins, and the last is short of its goal
    assert race(rules, state, 0) == (0, 0)
    assert race(rules, state, 3)[1] > 0
    start = rules.distance(state, 0)
    aside = [
        a for a in rules.legal_actions(state)
        if isinstance(a, Move) and rules.distance(rules.apply(state, a), 0) >= start
    ]
    assert aside and all(race(rules, rules.apply(state, a))[0] != 0 for a in aside)


def test_four_seat_medium_keeps_the_action_whose_race_plan_is_best() -> None:
    from games.engine.barrier.bot import _plan
    from games.engine.barrier.bot_eval import BarrierEvaluator

    rules, state = _midgame("quoridor4", 9)
    me = state.turn
    actions = BarrierEvaluator(rules).root_actions(state)
    short = {a: _plan(rules, rules.apply(state, a), me) for a in actions}
    assert len(set(short.values())) > 1  # the plans tell the actions apart
    for seed in range(3):
        picked = bots.choose(rules, state, "medium", seed=seed)
        assert short[picked] == min(short.values())


def test_four_seat_bloqueio_hard_checks_its_best_candidates_against_medium() -> None:
    import random

    from games.bots.core import lookahead
    from games.engine.barrier.bot import (
        LOOKAHEAD_ROUNDS,
        _leaf,
        _medium_first,
        _reply,
        _verified,
        medium,
    )
    from games.engine.barrier.bot_eval import BarrierEvaluator

    rules, state = _midgame("bloqueio", 9)
    me, ev = state.turn, BarrierEvaluator(rules)
    candidates = ev.ranked(state, me)[:6]
    models = [lambda s: _reply(ev, s)]
    plain = {
        a: lookahead(rules, state, me, [a], models, lambda s: _leaf(ev, s, me),
                     Budget(10**6, None), rounds=LOOKAHEAD_ROUNDS).score
        for a in candidates
    }
    choice = _verified(ev, state, me, candidates, models, Budget(1600, None))
    # checked, it is worth at most what the lookahead said (the worse of the two values)
    assert choice.action in candidates and choice.score <= plain[choice.action]
    again = _verified(ev, state, me, candidates, models, Budget(1600, None))
    assert (again.action, again.score, again.nodes) == (choice.action, choice.score, choice.nodes)
    # the check's opponents answer first as medium itself would, then by _reply
    play = _medium_first(ev, state.ply + rules.seats)
    after = rules.apply(state, choice.action)
    assert play(after) == medium(rules, after, random.Random(after.ply))
    later = rules.apply(after, play(after))
    later = rules.apply(later, play(later))
    later = rules.apply(later, play(later))
    assert later.turn == me and play(later) == _reply(ev, later)


def test_the_waller_model_walls_off_the_leader_only_when_it_costs_more_than_a_step() -> None:
    from games.engine.barrier.actions import Barrier
    from games.engine.barrier.bot import _waller
    from games.engine.barrier.bot_eval import BarrierEvaluator

    # after a dozen random plies (easy's walls), four wallers play to the end; on an open
    # board one wall rarely costs a pawn two steps, and four wallers would only run
    rules, state = _midgame("quoridor4", 12)
    ev, walls = BarrierEvaluator(rules), 0
    while state.turn is not None:
        seat = state.turn
        others = [s for s in range(rules.seats) if s != seat]
        rival = min(others, key=lambda s: (rules.distance(state, s), (s - seat) % rules.seats))
        legal = rules.legal_actions(state)
        steps = [a for a in legal if isinstance(a, Move)]
        best = min(rules.distance(rules.apply(state, a), seat) for a in steps)
        gain = rules.distance(state, seat) - best
        longest = max(
            (rules.distance(rules.apply(state, a), rival) - rules.distance(state, rival)
             for a in legal if isinstance(a, Barrier)),
            default=0,
        )
        action = _waller(ev, state)
        assert action in legal
        after = rules.apply(state, action)
        if isinstance(action, Barrier):  # the longest wall on the leader, worth more than a step
            walls += 1
            assert rules.distance(after, rival) - rules.distance(state, rival) == longest > gain
        else:  # a best step: no wall on the leader costs it more than the step gains
            assert rules.distance(after, seat) == best and (longest <= gain or best == 0)
        state = after
    assert walls  # wallers do wall, so both branches were checked
