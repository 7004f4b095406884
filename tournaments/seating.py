"""Swiss seating at tables of a kind's size (docs/tournaments.md#seating).

Seating four to a table is not a matching problem, so a round is built in three steps:
the leftovers (``leftover``: byes, or one table with a bot seat) are set aside; the
players are ordered by score brackets (each bracket folded, top quarter against the
next, as the Dutch system pairs top half against bottom half) and seated greedily at
the first table that breaks no constraint; then a local search swaps players between
tables to lower a cost that ranks, from heaviest to lightest: table-mates who met
before, seat (turn order) imbalance, repeated bot tables, and the spread of scores at
a table. Fields small enough to enumerate (``EXHAUSTIVE``) are solved exactly. The
search has a fixed budget of evaluations and draws from ``random.Random(seed)``, so a
round is the same for the same inputs and seed.

Pure: no Django, no I/O. The table size is the kind's seat count from the engine's
registry (``table_size``); nothing here names a kind.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

Player = int | str

# The cost's weights (docs/tournaments.md#algorithm): a repeat outweighs any seat
# imbalance, which outweighs any realistic score spread.
W_REPEAT = 1_000_000  # per earlier meeting of a pair at a table (1, 3, 6, ... for 1, 2, 3)
W_RECENT = 200_000  # more if that meeting was last round
W_SEAT = 10_000  # per squared step of a seat above the player's least-used seat
W_BOT = 5_000  # per earlier bot table of a player seated at the bot table
W_BOT_SEAT = 1_000  # the bot's seat balance (so that the humans can balance theirs)
W_SCORE = 100  # per point of score difference between two table-mates
W_SAME_SEAT = 1  # the seat a player had last round (duels: alternate who moves first)
HARD = W_BOT  # a table whose cost from the terms above W_SCORE is at least this is "troubled"

# Fields of at most this many seats (humans and bot seats) are enumerated exactly.
EXHAUSTIVE = {2: 12, 3: 12, 4: 12}
# The local search's budget in swap evaluations (a swap evaluates two tables).
BUDGET = 10_000
# Random kicks out of a local minimum without lowering the hard cost before it stops.
KICKS = 30


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player still in the tournament: their points so far and rating (for the fold)."""

    id: Player
    score: float = 0.0
    rating: float = 0.0


@dataclass(frozen=True, slots=True)
class Table:
    """One table; ``seats[s]`` sits in seat s (turn order), None is a bot's seat."""

    seats: tuple[Player | None, ...]

    @property
    def players(self) -> tuple[Player, ...]:
        return tuple(p for p in self.seats if p is not None)

    @property
    def has_bot(self) -> bool:
        return None in self.seats


@dataclass(frozen=True, slots=True)
class Round:
    """A round's seating: its tables, leaders first, and the players given a bye."""

    tables: tuple[Table, ...]
    byes: tuple[Player, ...] = ()

    def players(self) -> Iterator[Player]:
        for table in self.tables:
            yield from table.players
        yield from self.byes


@dataclass(frozen=True, slots=True)
class Leftover:
    """How a round of ``players`` at ``seats``-seat tables deals with the remainder."""

    tables: int  # tables in all, the bot table included
    bot_seats: int  # bot seats at the last table (0: none)
    byes: int


def table_size(kind: str) -> int:
    """The kind's seat count (the engine's registry): a Swiss table of that kind."""
    from games.engine import registry

    return registry.get(kind).info.seats


def leftover(players: int, seats: int, max_bots: int = 1) -> Leftover:
    """The leftover rule (docs/tournaments.md#leftovers). No registered kind plays with
    fewer seats than it has, so a remainder r = players mod seats is either one table
    of r players and seats - r bot seats, when r >= 2 and seats - r <= ``max_bots``
    (a four-seat kind with three left over: one bot seat), or r byes."""
    if seats < 2:
        raise ValueError("a table has at least two seats")
    if players < seats:
        raise ValueError(f"a round needs at least {seats} players, not {players}")
    full, rest = divmod(players, seats)
    if rest >= 2 and seats - rest <= max_bots:
        return Leftover(tables=full + 1, bot_seats=seats - rest, byes=0)
    return Leftover(tables=full, bot_seats=0, byes=rest)


@dataclass(slots=True)
class History:
    """What earlier rounds say about each player: meetings, seats, byes, bot tables."""

    met: dict[frozenset[Player], int]
    last_met: set[frozenset[Player]]
    seat_counts: dict[Player | None, list[int]]  # None: the bot seats
    last_seat: dict[Player | None, int]
    byes: Counter[Player]
    bot_tables: Counter[Player]

    @classmethod
    def of(cls, rounds: Sequence[Round], seats: int) -> History:
        met: Counter[frozenset[Player]] = Counter()
        last_met: set[frozenset[Player]] = set()
        counts: dict[Player | None, list[int]] = {}
        last_seat: dict[Player | None, int] = {}
        byes: Counter[Player] = Counter()
        bots: Counter[Player] = Counter()
        for number, done in enumerate(rounds, 1):
            byes.update(done.byes)
            for table in done.tables:
                mates = table.players
                for a, b in itertools.combinations(mates, 2):
                    pair = frozenset((a, b))
                    met[pair] += 1
                    if number == len(rounds):
                        last_met.add(pair)
                if table.has_bot:
                    bots.update(mates)
                for s, p in enumerate(table.seats):
                    # bot seats (None) are counted too: if the bot always took the same
                    # seat, the humans could not all balance theirs
                    counts.setdefault(p, [0] * seats)[s] += 1
                    last_seat[p] = s
        return cls(dict(met), last_met, counts, last_seat, byes, bots)


def seat_round(entrants: Sequence[Entrant], history: Sequence[Round], seats: int, *,
               seed: int = 0, max_bots: int = 1) -> Round:
    """The next round for ``entrants`` (the players still in) after ``history``.

    Every entrant is seated or given a bye; byes go to those with the fewest byes, then
    the lowest score and rating (so nobody gets a second bye while another has none).
    """
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant is listed twice")
    past = History.of(history, seats)
    rule = leftover(len(entrants), seats, max_bots)
    rng = random.Random(seed)
    draw = {e.id: rng.random() for e in entrants}
    by_bye = sorted(entrants, key=lambda e: (past.byes[e.id], e.score, e.rating, draw[e.id]))
    byes = tuple(e.id for e in by_bye[:rule.byes])
    seated = [e for e in entrants if e.id not in set(byes)]
    search = _Search(seated, rule.bot_seats, seats, past, rng)
    return Round(tables=search.solve(), byes=byes)


class _Search:
    """One round's seating problem over indices: humans 0..n-1, bot seats n.."""

    def __init__(self, seated: Sequence[Entrant], bot_seats: int, seats: int,
                 past: History, rng: random.Random) -> None:
        self.k = seats
        self.rng = rng
        low = min(e.score for e in seated)
        ordered = sorted(seated, key=lambda e: (-e.score, -e.rating, str(e.id)))
        self.ids: list[Player | None] = [e.id for e in ordered] + [None] * bot_seats
        self.score = [e.score for e in ordered] + [low] * bot_seats
        self.n = len(self.ids)
        # seat orders of a table of m members (m < k while the greedy fills a table)
        self.perms = [list(itertools.permutations(range(seats), m)) for m in range(seats + 1)]
        self.pair_hard, pair_soft = self._pair_costs(past)
        self.pair = [[h + g for h, g in zip(hr, sr, strict=True)]
                     for hr, sr in zip(self.pair_hard, pair_soft, strict=True)]
        self.seat_hard, self.seat_whole = self._seat_costs(past)
        self.cache: dict[tuple[int, ...], tuple[int, int, int]] = {}
        # per index, the seats that cost it nothing (a bot: any seat), and per sorted
        # tuple of such masks, how many members must take a seat that costs
        full = (1 << seats) - 1
        self.mask = [full if p is None else sum(1 << s for s, c in enumerate(row) if c == 0)
                     for p, row in zip(self.ids, self.seat_hard, strict=True)]
        self.short: dict[tuple[int, ...], int] = {}

    def _pair_costs(self, past: History) -> tuple[list[list[int]], list[list[int]]]:
        """Per pair of indices: the hard cost (earlier meetings, bot duty), and the score gap."""
        n, ids, score = self.n, self.ids, self.score
        points = [round(W_SCORE * x) for x in score]
        soft = [[abs(si - sj) for sj in points] for si in points]
        hard = [[0] * n for _ in range(n)]
        index = {p: i for i, p in enumerate(ids) if p is not None}
        for pair, times in past.met.items():
            a, b = sorted(index.get(p, -1) for p in pair)
            if a >= 0:
                cost = W_REPEAT * times * (times + 1) // 2
                if pair in past.last_met:
                    cost += W_RECENT
                hard[a][b] = hard[b][a] = cost
        for bot in range(n):
            if ids[bot] is None:
                for i, p in enumerate(ids):
                    if p is not None:
                        hard[bot][i] = hard[i][bot] = W_BOT * past.bot_tables[p]
        return hard, soft

    def _seat_costs(self, past: History) -> tuple[list[list[int]], list[list[int]]]:
        """Per index and seat: the hard cost (imbalance) and the whole cost of that seat."""
        hard, whole = [], []
        for p in self.ids:
            counts = past.seat_counts.get(p)
            if counts is None:
                # a first game: a seat drawn by the seed is preferred, lightly, so that
                # the top of round one's fold does not always move first
                row = [0] * self.k
                lot = self.rng.randrange(self.k)
                hard.append(row)
                whole.append([0 if s == lot else W_SAME_SEAT for s in range(self.k)])
                continue
            least = min(counts)
            weight = W_SEAT if p is not None else W_BOT_SEAT
            row = [weight * (c - least) ** 2 for c in counts]
            last = past.last_seat.get(p)
            hard.append(row)
            whole.append([c + (W_SAME_SEAT if s == last else 0) for s, c in enumerate(row)])
        return hard, whole

    # costs

    def cost(self, table: Sequence[int]) -> tuple[int, int, int]:
        """A table's costs: hard (meetings, bot duty, seat imbalance), whole, and the
        part of the whole from its best seat order."""
        key = tuple(sorted(table))
        found = self.cache.get(key)
        if found is not None:
            return found
        hard = whole = 0
        for x in range(len(key)):
            hrow, row = self.pair_hard[key[x]], self.pair[key[x]]
            for y in range(x + 1, len(key)):
                hard += hrow[key[y]]
                whole += row[key[y]]
        seat_hard, seat_whole = self._best_seats(key)[1:]
        found = (hard + seat_hard, whole + seat_whole, seat_whole)
        self.cache[key] = found
        return found

    def _best_seats(self, table: Sequence[int]) -> tuple[tuple[int, ...], int, int]:
        """The seat order (a permutation: member i takes seat perm[i]) of least whole
        cost; its hard and whole costs."""
        rows = [self.seat_whole[m] for m in table]
        perms = self.perms[len(table)]
        if len(rows) == 4:
            r0, r1, r2, r3 = rows
            sums = [r0[a] + r1[b] + r2[c] + r3[d] for a, b, c, d in perms]
        elif len(rows) == 2:
            r0, r1 = rows
            sums = [r0[a] + r1[b] for a, b in perms]
        else:
            sums = [sum(row[s] for row, s in zip(rows, perm, strict=True)) for perm in perms]
        best = min(range(len(sums)), key=sums.__getitem__)
        perm = perms[best]
        hard = sum(self.seat_hard[m][s] for m, s in zip(table, perm, strict=True))
        return perm, hard, sums[best]

    # construction

    def ordered(self) -> list[int]:
        """Indices by score brackets, each bracket folded into tables (quarter against
        quarter); the lowest of a bracket that does not fill its tables float down."""
        out: list[int] = []
        carry: list[int] = []
        for _, group in itertools.groupby(range(self.n), key=lambda i: self.score[i]):
            bracket = carry + list(group)
            whole = len(bracket) // self.k * self.k
            carry = bracket[whole:]
            rows = whole // self.k
            strata = [bracket[j * rows:(j + 1) * rows] for j in range(self.k)]
            for t in range(rows):
                out.extend(stratum[t] for stratum in strata)
        return out + carry

    def greedy(self) -> list[list[int]]:
        """Seat in order: each table takes the next players who add no hard cost."""
        left = self.ordered()
        tables = []
        while left:
            table = [left.pop(0)]
            while len(table) < self.k:
                pick = None
                best = None
                for pos, cand in enumerate(left[:40]):
                    added = self.cost([*table, cand])[0] - self.cost(table)[0]
                    if added == 0:
                        pick = pos
                        break
                    if best is None or added < best[0]:
                        best = (added, pos)
                if pick is None:
                    assert best is not None
                    pick = best[1]
                table.append(left.pop(pick))
            tables.append(table)
        return tables

    def solve(self) -> tuple[Table, ...]:
        if self.n <= EXHAUSTIVE.get(self.k, 0):
            tables = self.exhaustive()
        else:
            tables = self.improve(self.greedy())
        return self.finish(tables)

    def exhaustive(self) -> list[list[int]]:
        """Every partition into tables (fold order first): the least total cost."""
        best: tuple[int, list[list[int]]] | None = None

        def walk(left: list[int], done: list[list[int]], total: int) -> None:
            nonlocal best
            if best is not None and total >= best[0]:
                return
            if not left:
                best = (total, [list(t) for t in done])
                return
            head, rest = left[0], left[1:]
            for others in itertools.combinations(rest, self.k - 1):
                table = [head, *others]
                remaining = [i for i in rest if i not in others]
                walk(remaining, [*done, table], total + self.cost(table)[1])

        walk(self.ordered(), [], 0)
        assert best is not None
        return best[1]

    def improve(self, tables: list[list[int]]) -> list[list[int]]:
        """Swap players between tables while it lowers the cost; troubled tables first,
        trying nearer tables (in score order) before farther ones; out of a local minimum
        kick with a random swap, up to ``KICKS`` kicks without lowering the hard cost; keep
        the best seating seen."""
        costs = [self.cost(t) for t in tables]
        best_total = sum(c[1] for c in costs)
        best_hard = sum(c[0] for c in costs)
        best = [list(t) for t in tables]
        evals = kicks = 0
        stuck: set[int] = set()
        floor = W_SEAT * self.seat_deficiency(len(tables))
        while evals < BUDGET and best_hard > floor:
            troubled = [t for t, c in enumerate(costs) if c[0] >= HARD and t not in stuck]
            if not troubled:
                if not stuck or kicks >= KICKS:
                    break
                # every troubled table is stuck: kick one with a random swap
                t = self.rng.choice(sorted(stuck))
                u = self.rng.choice([x for x in range(len(tables)) if x != t])
                a, b = self.rng.randrange(self.k), self.rng.randrange(self.k)
                self._swap(tables, costs, t, a, u, b)
                stuck.clear()
                kicks += 1
                evals += 1
                continue
            t = max(troubled, key=lambda x: (costs[x][0], -x))
            move, spent = self._best_swap(tables, costs, t)
            evals += spent
            if move is None:
                stuck.add(t)
                continue
            self._swap(tables, costs, t, move[0], move[1], move[2])
            stuck.clear()
            total = sum(c[1] for c in costs)
            if total < best_total:
                hard = sum(c[0] for c in costs)
                if hard < best_hard:
                    best_hard, kicks = hard, 0
                best_total, best = total, [list(x) for x in tables]
        # polish: a table of mixed scores tries swaps with its neighbours (score groups)
        costs = [self.cost(t) for t in best]
        for t in range(len(best)):
            if len({self.score[m] for m in best[t]}) > 1:
                move, _spent = self._best_swap(best, costs, t, windows=(1,))
                if move is not None:
                    self._swap(best, costs, t, *move)
        return best

    def seat_deficiency(self, tables: int) -> int:
        """How many players at least must take a seat that is not among their least used,
        however they are seated (Hall's deficiency: the most by which the players whose
        least-used seats all lie in a set S outnumber the tables' seats in S)."""
        wants = Counter(frozenset(s for s, c in enumerate(row) if c == 0)
                        for p, row in zip(self.ids, self.seat_hard, strict=True) if p is not None)
        worst = 0
        for size in range(1, self.k):
            for chosen in itertools.combinations(range(self.k), size):
                inside = sum(n for want, n in wants.items() if want <= set(chosen))
                worst = max(worst, inside - tables * size)
        return worst

    def _best_swap(self, tables: list[list[int]], costs: list[tuple[int, int, int]], t: int,
                   windows: Sequence[int] = (2, 6, 0)) -> tuple[tuple[int, int, int] | None, int]:
        """The best cost-lowering swap of a member of table t with a player of a table
        within each window in turn (0: any table); and the swaps evaluated in full.

        A swap's change in pair costs is exact and cheap, and the new tables' seat costs
        are at least W_SEAT for each member who cannot get a seat that costs them nothing
        (cached per set of seat masks): a swap that cannot lower the cost by these bounds
        is skipped before its seat orders are searched."""
        spent = 0
        seen: set[int] = set()
        pair = self.pair
        mine = tables[t]
        out_t = [sum(pair[pa][x] for x in mine) for pa in mine]
        rows_t = [pair[x] for x in mine]
        into_t = [sum(col) for col in zip(*rows_t, strict=True)]  # per player: to table t
        for w in windows:
            near = [u for u in range(len(tables))
                    if u != t and u not in seen and (w == 0 or abs(u - t) <= w)]
            seen.update(near)
            best_delta, best = 0, None
            for u in near:
                theirs = tables[u]
                out_u = [sum(pair[pb][y] for y in theirs) for pb in theirs]
                seats_now = costs[t][2] + costs[u][2]
                for a, pa in enumerate(mine):
                    row_a = pair[pa]
                    into_u = [sum(row_a[y] for y in theirs) - row_a[pb] for pb in theirs]
                    for b, pb in enumerate(theirs):
                        if self.ids[pa] is None and self.ids[pb] is None:
                            continue
                        change = (into_t[pb] - row_a[pb] - out_t[a]
                                  + into_u[b] - out_u[b])
                        if change - seats_now >= best_delta:
                            continue
                        # a bound on the new seat costs: members who cannot all get a
                        # seat that costs them nothing pay W_SEAT each at least
                        floor = W_SEAT * (
                            self._shortfall([*mine[:a], pb, *mine[a + 1:]])
                            + self._shortfall([*theirs[:b], pa, *theirs[b + 1:]]))
                        if change + floor - seats_now >= best_delta:
                            continue
                        spent += 1
                        new_t = [*mine[:a], pb, *mine[a + 1:]]
                        new_u = [*theirs[:b], pa, *theirs[b + 1:]]
                        delta = (self.cost(new_t)[1] + self.cost(new_u)[1]
                                 - costs[t][1] - costs[u][1])
                        if delta < best_delta:
                            best_delta, best = delta, (a, u, b)
            if best is not None:
                return best, spent
        return None, spent

    def _shortfall(self, table: Sequence[int]) -> int:
        """How many of the table's members cannot get a seat that costs them nothing."""
        key = tuple(sorted(self.mask[m] for m in table))
        found = self.short.get(key)
        if found is None:
            found = len(key) - max(
                sum(1 for mask, s in zip(key, perm, strict=True) if mask >> s & 1)
                for perm in self.perms[len(key)])
            self.short[key] = found
        return found

    def _swap(self, tables: list[list[int]], costs: list[tuple[int, int, int]],
              t: int, a: int, u: int, b: int) -> None:
        tables[t][a], tables[u][b] = tables[u][b], tables[t][a]
        costs[t] = self.cost(tables[t])
        costs[u] = self.cost(tables[u])

    def finish(self, tables: list[list[int]]) -> tuple[Table, ...]:
        """Each table in its best seat order, the tables leaders first."""
        out = []
        for table in tables:
            members = sorted(table)
            perm = self._best_seats(members)[0]
            seats: list[Player | None] = [None] * self.k
            for member, s in zip(members, perm, strict=True):
                seats[s] = self.ids[member]
            top = max(self.score[m] for m in table if self.ids[m] is not None)
            mean = math.fsum(self.score[m] for m in table) / len(table)
            out.append((-top, -mean, min(table), Table(tuple(seats))))
        out.sort(key=lambda x: x[:3])
        return tuple(x[3] for x in out)
