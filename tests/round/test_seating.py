"""The seating rules (games/round/seating.py), pure: who may sit, stand and take a bot
off, when a table starts or is aborted, who may hand a leaver's seat to the computer,
and that a refusal never changes a table."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.round import Status, refusals
from games.round.seating import HandOver, Holder, Seated, Sit, Stand, Table, Unseat, seat
from tests.purity import impure_modules

ANN, BEN, CAT, BOT = 1, 2, 3, 100


def table(*holders: Holder | None, status: Status = Status.WAITING,
          ranked: bool = False) -> Table:
    return Table(len(holders), status, ranked, tuple(holders))


def test_a_person_takes_the_lowest_free_seat_and_the_last_one_starts_the_game():
    first = seat(table(Holder(ANN), None, None), Sit(BEN))
    assert (first.seat, first.change, first.starts) == (1, "joined", False)
    last = seat(first.table_after, Sit(CAT))
    assert (last.seat, last.starts) == (2, True)
    assert last.table_after.holders == (Holder(ANN), Holder(BEN), Holder(CAT))


@pytest.mark.parametrize(("before", "change", "refused"), [
    (table(Holder(ANN), None), Sit(ANN), refusals.AlreadySeated),
    (table(Holder(ANN), Holder(BEN)), Sit(CAT), refusals.GameFull),
    (table(Holder(ANN), None, None), Sit(BEN, seat=0), refusals.SeatTaken),
    (table(Holder(ANN), None), Sit(BEN, seat=2), refusals.NoSuchSeat),
    (table(Holder(ANN), None), Sit(BEN, seat=-1), refusals.NoSuchSeat),
    (table(Holder(ANN), None, status=Status.ACTIVE), Sit(BEN), refusals.AlreadyStarted),
    (table(Holder(ANN), None, status=Status.FINISHED), Sit(BEN), refusals.GameOver),
    (table(Holder(ANN), None, ranked=True), Sit(BOT, bot=True, by=ANN), refusals.HumansOnly),
    (table(Holder(ANN), None), Sit(BOT, bot=True, by=BEN), refusals.NotSeated),
    (table(Holder(ANN), None), Sit(BOT, bot=True), refusals.NotSeated),
    (table(Holder(ANN), None), Stand(BEN), refusals.NotSeated),
    (table(Holder(ANN), Holder(BEN), status=Status.ACTIVE), Stand(BEN),
     refusals.AlreadyStarted),
    (table(Holder(ANN), Holder(BEN), None), Unseat(ANN, 1), refusals.NotABot),
    (table(Holder(ANN), None), Unseat(ANN, 1), refusals.NotABot),
    (table(Holder(ANN), None), Unseat(ANN, 7), refusals.NotABot),
    (table(Holder(ANN), Holder(BOT, bot=True)), Unseat(BEN, 1), refusals.NotSeated),
    (table(Holder(ANN), Holder(BOT, bot=True), None, status=Status.ABORTED),
     Unseat(ANN, 1), refusals.GameOver),
])
def test_what_the_seating_rules_refuse(before, change, refused):
    with pytest.raises(refused) as caught:
        seat(before, change)
    assert type(caught.value) is refused  # not a parent's code


def test_leaving_after_the_start_is_resigning_and_the_refusal_says_so():
    with pytest.raises(refusals.AlreadyStarted) as caught:
        seat(table(Holder(ANN), Holder(BEN), status=Status.FINISHED), Stand(ANN))
    assert caught.value.params == {"status": "finished", "leaving": True}


def test_bots_alone_never_start_a_game_the_last_person_leaving_aborts_it():
    with_bot = table(Holder(ANN), Holder(BOT, bot=True), None)
    gone = seat(with_bot, Stand(ANN))
    assert gone.aborts and gone.table_after.holders == (None, Holder(BOT, bot=True), None)
    stays = seat(table(Holder(ANN), Holder(BEN), None), Stand(ANN))
    assert not stays.aborts and stays.change == "left"


def test_a_seated_person_puts_a_bot_on_a_seat_and_takes_it_off():
    added = seat(table(Holder(ANN), None, None), Sit(BOT, seat=2, bot=True, by=ANN))
    assert added.seat == 2 and added.table_after.holders[2] == Holder(BOT, bot=True)
    removed = seat(added.table_after, Unseat(ANN, 2))
    assert removed.table_after.holders == (Holder(ANN), None, None)
    assert (removed.seat, removed.change, removed.aborts) == (2, "left", False)


# -- the hand-over of a leaver's seat -------------------------------------------------------


def running(*holders: Holder | None, in_game: tuple[bool, ...] = (), ranked: bool = False,
            turn_based: bool = False, status: Status = Status.ACTIVE) -> Table:
    return Table(len(holders), status, ranked, tuple(holders), in_game, turn_based)


FOUR = (Holder(ANN), Holder(BEN), Holder(CAT), Holder(4))


def test_a_player_still_in_the_game_hands_a_leavers_seat_to_the_computer():
    done = seat(running(*FOUR), HandOver(ANN, 2, BOT))
    assert (done.seat, done.change, done.starts, done.aborts) == (2, "handover", False, False)
    assert done.table_after.holders == (Holder(ANN), Holder(BEN), Holder(BOT, bot=True),
                                        Holder(4))


@pytest.mark.parametrize(("before", "change", "refused"), [
    (running(*FOUR), HandOver(ANN, 4, BOT), refusals.NoSuchSeat),
    (running(*FOUR), HandOver(ANN, -1, BOT), refusals.NoSuchSeat),
    (running(*FOUR, ranked=True), HandOver(ANN, 2, BOT), refusals.HumansOnly),
    (running(Holder(ANN), Holder(BEN)), HandOver(CAT, 1, BOT), refusals.NotSeated),
    (running(*FOUR, in_game=(False, True, True, True)), HandOver(ANN, 2, BOT),
     refusals.NotSeated),  # a player who resigned hands nothing over
    (running(*FOUR, status=Status.WAITING), HandOver(ANN, 2, BOT), refusals.NotStarted),
    (running(*FOUR, status=Status.FINISHED), HandOver(ANN, 2, BOT), refusals.GameOver),
    (running(*FOUR, turn_based=True), HandOver(ANN, 2, BOT), refusals.TurnBasedGame),
    (running(*FOUR), HandOver(ANN, 0, BOT), refusals.OwnSeat),
    (running(Holder(ANN), None), HandOver(ANN, 1, BOT), refusals.SeatFree),
    (running(*FOUR, in_game=(True, True, False, True)), HandOver(ANN, 2, BOT),
     refusals.AlreadyLeft),
    (running(Holder(ANN), Holder(BOT, bot=True)), HandOver(ANN, 1, BOT),
     refusals.AlreadyABot),
])
def test_what_a_hand_over_refuses(before, change, refused):
    with pytest.raises(refused) as caught:
        seat(before, change)
    assert type(caught.value) is refused


def test_a_ranked_seat_is_played_out_by_its_clock_and_the_refusal_says_so():
    with pytest.raises(refusals.HumansOnly) as caught:
        seat(running(*FOUR, ranked=True), HandOver(ANN, 2, BOT))
    assert caught.value.params == {"handover": True}


# -- properties ---------------------------------------------------------------------------

people = st.sampled_from([ANN, BEN, CAT, 4])
changes = st.one_of(
    st.builds(Sit, people, st.none() | st.integers(-1, 4)),
    st.builds(lambda by, s: Sit(BOT, s, bot=True, by=by), people,
              st.none() | st.integers(-1, 4)),
    st.builds(Stand, people),
    st.builds(Unseat, people, st.integers(-1, 4)),
    st.builds(lambda by, s: HandOver(by, s, BOT), people, st.integers(-1, 4)))


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 4), st.booleans(), st.lists(changes, max_size=12))
def test_any_sequence_of_changes_keeps_the_table_sound(count, ranked, sequence):
    """Whatever is asked in whatever order: a person holds one seat at most, a table
    starts exactly when its last seat is taken and is aborted exactly when its last
    person leaves (and changes no more after either), and a refused change leaves the
    table as it was."""
    current = table(Holder(ANN), *([None] * (count - 1)), ranked=ranked)
    for change in sequence:
        try:
            done = seat(current, change)
        except refusals.Refusal:
            continue  # a frozen table cannot have been changed; the next is asked of it
        assert isinstance(done, Seated)
        after = done.table_after
        persons = [h.user_id for h in after.holders if h is not None and not h.bot]
        assert len(persons) == len(set(persons))
        assert done.starts == all(h is not None for h in after.holders)
        assert done.aborts == (not persons)
        assert not (ranked and any(h is not None and h.bot for h in after.holders))
        changed = [n for n in range(count) if after.holders[n] != current.holders[n]]
        assert changed == [done.seat]
        if done.starts or done.aborts:
            return
        current = after


def test_the_seating_rules_import_no_django():
    probe = ("from games.round.seating import Holder, Sit, Table, seat\n"
             "from games.round import Status\n"
             "seat(Table(2, Status.WAITING, False, (Holder(1), None)), Sit(2))\n")
    assert impure_modules(probe) == "[]"
