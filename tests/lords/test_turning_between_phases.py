"""Turning between move phases (Dragon Lords rulebook, p.16, "Advanced 3. Movement").

"Turning Between Move Phases: This rule is optional. All players must agree to use it. If a
dragon ends its move by turning 60 deg or 120 deg in a hex, it may continue to turn in that hex
at the beginning of the next movement phase. However, it may only turn in the same direction
(left or right) as in the previous movement phase, and it must spend the balance of the points
for the total turn. In other words, a turn does not "default back to zero" when its move ends."
(switch ``lords.advanced.turn_between``, in ``advanced+optional``; readings
``lords.turn_between_180``, ``lords.turn_between_close_combat``.)

Each sentence is checked on the move tables (one row group per carried turn) and on the
independent checker's search (``tests/lords_reference.py``); the tables' end states equal a
direct search's for every carried turn; random games of every bot break no rule of the
checker, which refuses a tampered log; with the switch off the tables and games are the basic
movement's.
"""

from __future__ import annotations

import os

import lords_reference as ref
import numpy as np
import pytest

from dragonsim.lords import engine as E
from dragonsim.lords.api import prepare
from dragonsim.lords.bots import POLICIES
from dragonsim.lords.game import mechanics as M
from dragonsim.lords.game import movetables as MT
from dragonsim.lords.game import state as S
from dragonsim.lords.game.tables import kernel_tables
from dragonsim.rules import lords_rules
from dragonsim.rules.lords import PRESETS

TB = kernel_tables()
MR = {m: k for k, m in enumerate("ABCDEFGHI")}
NB = 7  # budgets enumerated here (enough for every turn and a few hexes)
TURN = MT.Turning()
TABLES = MT.move_tables(TB.turn_cost, max_budget=NB, mrs=[MR["A"], MR["E"], MR["G"]], turning=TURN)
START = (10, 10, 0, 3)


def _loop(m: str) -> int:
    """The budget from which a path can fly out of its start hex and back into it (a hex
    forward, a fresh 180 deg turn there, a hex back), so that the start hex's facings are no
    longer only those turned in it."""
    return 2 + int(TB.turn_cost[MR[m]][3])


def _row(mr: int, carry: int) -> int:
    return int(MT.CARRY_GROUP[carry + 3]) * MT.MR_ROWS + mr


def _in_hex(mv, mr: int, carry: int, b: int) -> dict[int, tuple[int, int]]:
    """The entries of budget ``b`` that end in the start hex: facing change -> (turned, cont)."""
    row = _row(mr, carry)
    out = {}
    for e in range(int(mv.off[row, b]), int(mv.off[row, b + 1])):
        if mv.dq[e] == 0 and mv.dr[e] == 0:
            out[int(mv.f[e])] = (int(mv.bk[e, MT.BK_TURNED]), int(mv.bk[e, MT.BK_CONT]))
    return out


def test_the_rulebooks_example_turns_60_more_for_2_points_not_1():
    """ "A dragon with maneuverability rating E finishes its move by entering a hex and turning
    120 deg to the right ... may only turn an additional 60 deg to the right for a total of 180
    deg turned in that hex. The cost for turning this additional 60 deg is 2 points (not 1)":
    carrying 120 deg right (-2, right being towards lower facings), MR E turns 60 deg more to
    the right in 2 points, reaching 180 deg; no turn to the left, none for 1 point. A dragon
    that carries nothing turns 60 deg for 1 point."""
    e = MR["E"]
    assert _in_hex(TABLES, e, -2, 2) == {5: (3, 1)}  # 60 deg right, 180 deg in all
    assert _in_hex(TABLES, e, -2, 1) == {}
    assert all(f == 5 for b in range(_loop("E")) for f in _in_hex(TABLES, e, -2, b) if f)
    assert _in_hex(TABLES, e, 0, 1) == {1: (1, 0), 5: (-1, 0)}
    cost = TB.turn_cost[e]
    assert ref.find_move(START, (10, 10, 5, 3), 2, cost, carry=-2) == ["K1"]
    assert ref.find_move(START, (10, 10, 5, 3), 1, cost, carry=-2) is None
    assert ref.find_move(START, (10, 10, 1, 3), 1, cost, carry=-2) is None  # left: never
    assert ref.find_move(START, (10, 10, 5, 3), 1, cost) == ["R1"]


def test_the_balance_of_the_whole_turn_by_rating():
    """ "it must spend the balance of the points for the total turn": a dragon carrying 60 deg
    continues 60 deg more for cost(120) - cost(60) and 120 deg more for cost(180) - cost(60),
    by the Maneuver Diagram's costs (p.8): MR A 1 and 3, E 2 and 4, G 1 and 3 (G's 60 deg
    turn costs 2 afresh but 1 as a continuation)."""
    for m, (one, two) in {"A": (1, 3), "E": (2, 4), "G": (1, 3)}.items():
        tc = TB.turn_cost[MR[m]]
        assert (tc[2] - tc[1], tc[3] - tc[1]) == (one, two)
        got: dict[int, int] = {}
        for b in range(_loop(m)):  # the cheapest budget of each facing in the hex
            for f in _in_hex(TABLES, MR[m], 1, b):
                got.setdefault(f, b)
        assert got == {0: 0, 1: one, 2: two}, m


def test_never_past_180_degrees_in_a_hex():
    """ "for a total of 180 deg turned in that hex": a dragon carrying 120 deg continues 60 deg
    at most, and one that ended with a full 180 deg (reading ``lords.turn_between_180 =
    full``) turns no more there; under ``reset`` its next move turns afresh (the tables leave
    no carried 180)."""
    for m in ("A", "E", "G"):
        assert all(
            set(_in_hex(TABLES, MR[m], c, b)) <= {0, {2: 1, -2: 5}[c]}
            for c in (2, -2)
            for b in range(_loop(m))
        )
        assert all(set(_in_hex(TABLES, MR[m], 3, b)) <= {0} for b in range(_loop(m)))
    reset = MT.move_tables(TB.turn_cost, max_budget=NB, mrs=[MR["E"]], turning=MT.Turning(True))
    assert 3 not in np.abs(reset.bk[:, MT.BK_TURNED])
    assert 3 in np.abs(TABLES.bk[:, MT.BK_TURNED])
    rules = lords_rules({"turn_between_180": "reset"}, preset="advanced+optional")
    assert MT.turning_of(rules) == MT.Turning(True)


@pytest.mark.parametrize("m", ["E", "G"])
def test_tables_hold_exactly_the_direct_searchs_end_states(m):
    """Every carried turn's row holds exactly the end states (offset, facing) the checker's
    search reaches at each budget (no altitude change), and the turn each entry says its path
    leaves is one a legal path to it leaves."""
    cost = TB.turn_cost[MR[m]]
    for carry in MT.CARRIES:
        row = _row(MR[m], carry)
        for b in range(1, 6):
            lo, hi = int(TABLES.off[row, b]), int(TABLES.off[row, b + 1])
            table = {
                (int(TABLES.dq[e]), int(TABLES.dr[e]), int(TABLES.f[e])) for e in range(lo, hi)
            }
            found = set()
            for dq in range(-b, b + 1):
                for dr in range(-b, b + 1):
                    if abs(dq + dr) > b:
                        continue
                    for f in range(6):
                        end = (START[0] + dq, START[1] + dr, f, 3)
                        if ref.find_move(START, end, b, cost, carry=carry) is not None:
                            found.add((dq, dr, f))
            assert table == found, (m, carry, b)
            for e in range(lo, hi, 7):
                end = (
                    START[0] + int(TABLES.dq[e]),
                    START[1] + int(TABLES.dr[e]),
                    int(TABLES.f[e]),
                    3,
                )
                turned = int(TABLES.bk[e, MT.BK_TURNED])
                assert ref.find_move(START, end, b, cost, carry=carry, turned=turned), (m, carry, e)


def test_a_move_leaves_its_turn_to_the_next_and_the_paths_prefer_a_free_end():
    """Flying an entry leaves its turn in ``F_TURNED``, and the next move reads the row of that
    turn (``move_row``). Of the paths to an end state the tables keep one that ends with a
    step when there is one: a forward hex is flown with nothing carried."""
    ds = np.zeros((1, S.NF), np.int64)
    ds[0, S.F_Q], ds[0, S.F_R], ds[0, S.F_ALT], ds[0, S.F_MR] = 10, 10, 3, MR["E"]
    (e,) = [
        k
        for k in range(int(TABLES.off[_row(MR["E"], 0), 3]), int(TABLES.off[_row(MR["E"], 0), 4]))
        if (TABLES.dq[k], TABLES.dr[k], TABLES.f[k]) == (0, 0, 2)
    ]  # 120 deg left in place: 3 points at MR E
    M.apply_move(ds, 0, e, 0, TABLES.rq, TABLES.rr, TABLES.f, TABLES.bk)
    assert ds[0, S.F_TURNED] == 2
    assert M.move_row(ds, 0) == _row(MR["E"], 2)
    (e,) = [
        k
        for k in range(int(TABLES.off[_row(MR["E"], 2), 1]), int(TABLES.off[_row(MR["E"], 2), 2]))
        if (TABLES.dq[k], TABLES.dr[k], TABLES.f[k]) == (1, 0, 0)
    ]  # a hex forward: nothing carried after it
    M.apply_move(ds, 0, e, 0, TABLES.rq, TABLES.rr, TABLES.f, TABLES.bk)
    assert ds[0, S.F_TURNED] == 0 and M.move_row(ds, 0) == MR["E"]
    cost = TB.turn_cost[MR["E"]]
    row = _row(MR["E"], 0)
    checked = 0
    for b in (3, 4):
        for e in range(int(TABLES.off[row, b]), int(TABLES.off[row, b + 1])):
            if TABLES.bk[e, MT.BK_TURNED] == 0:
                continue
            end = (START[0] + int(TABLES.dq[e]), START[1] + int(TABLES.dr[e]), int(TABLES.f[e]))
            # no path to this end state ends with a step: the stored one had to end turning
            assert ref.find_move(START, (*end, 3), b, cost, turned=0) is None, (b, e)
            checked += 1
    assert checked > 10


def test_without_the_switch_the_tables_are_the_basic_ones():
    """The rule is optional ("All players must agree to use it"): ``advanced`` leaves it off,
    ``advanced+optional`` turns it on, and without it the tables have one row group and carry
    no turn (the games are those of the basic movement, checked bit for bit by the baseline
    and the presets' tests)."""
    assert "lords.advanced.turn_between" not in PRESETS["advanced"]
    assert PRESETS["advanced+optional"]["lords.advanced.turn_between"] is True
    assert MT.turning_of(lords_rules(preset="advanced")) is None
    plain = MT.move_tables(TB.turn_cost, max_budget=NB, mrs=[MR["E"]])
    assert plain.off.shape[0] == MT.MR_ROWS
    assert not plain.bk[:, MT.BK_TURNED].any() and not plain.bk[:, MT.BK_CONT].any()
    row = _row(MR["E"], 0)
    assert plain.off[MR["E"], NB + 1] - plain.off[MR["E"], 0] == (
        TABLES.off[row, NB + 1] - TABLES.off[row, 0]
    )


# ---- games ---------------------------------------------------------------------------------------
OPTIONAL = lords_rules(preset="advanced+optional")
READINGS = lords_rules(
    {"turn_between_180": "reset", "turn_between_close_combat": "facing"}, preset="advanced+optional"
)
PAIRS = (("Slash", "Zippinchill"), ("Skyblazer", "Reaper"))


def _violations(log, cnt, prep, rules):
    v = ref.check_log(log, 2, prep["args"][0], prep["tables"], options=prep["options"])
    v += ref.check_events(log, [prep["a"], prep["b"]], prep["tables"], cnt, rules=rules)
    return v


@pytest.mark.slow
@pytest.mark.parametrize("rules", [OPTIONAL, READINGS], ids=["default", "readings"])
def test_every_bot_carries_its_turns_legally(rules):
    """Games of every bot (against the random bot) under ``advanced+optional``, and under the
    other readings, break no rule of the checker: each move starts with the turn the last one
    left (none after a close combat under "ends", after landing or a crash), continues it
    only the same way for the balance, and leaves the turn the log says."""
    carried = {}
    for pol in ("random", *POLICIES):
        for a, b in PAIRS if pol != "search" else PAIRS[:1]:
            prep = prepare(a, b, policies=(pol, "random"), rules=rules)
            cnt, log = E.logged_game(1, 5, *prep["args"], 20000)
            v = _violations(log, cnt, prep, rules)
            assert v == [], (pol, a, b, v[:3])
            carried[pol] = carried.get(pol, 0) + int(cnt[S.C_TURN_CARRIED])
            del prep  # its tables (1.3 GB) go before the next bot's are built
    assert carried["random"] > 0 and carried["hunter"] > 0, carried


@pytest.mark.slow
def test_the_checker_refuses_a_tampered_turn():
    """A move logged as starting with a turn other than the one the last move left, or as
    leaving a turn no legal path leaves, is flagged."""
    prep = prepare("Slash", "Zippinchill", policies=("random", "random"), rules=OPTIONAL)
    found = 0
    for game in range(6):
        cnt, log = E.logged_game(game, 3, *prep["args"], 20000)
        assert _violations(log, cnt, prep, OPTIONAL) == []
        for n, r in enumerate(log):
            if int(r[S.L_KIND]) != S.K_MOVE or int(r[S.L_A + 6]) != S.MK_FLY:
                continue
            if int(r[S.L_A + 12]) == 0:
                continue
            bad = log.copy()
            bad[n, S.L_A + 12] = -int(r[S.L_A + 12])  # the other way
            v = _violations(bad, cnt, prep, OPTIONAL)
            assert any(x.kind == "turn" for x in v), v
            bad = log.copy()
            bad[n, S.L_A + 13] = 3 if int(r[S.L_A + 13]) != 3 else 1
            v = _violations(bad, cnt, prep, OPTIONAL)
            assert any(x.kind in ("turn", "move") for x in v), v
            found += 1
            break
    assert found >= 3


def test_the_readings_reach_the_kernel():
    """The switch and both readings change the games (the same seeds); none carry a turn
    without the switch. (Whether a close combat ends only a changed facing's turn moves the
    number of carried turns by less than the games' noise: 43,235 against 43,204 in 2,000
    games of this duel, so only the change is asserted.)"""
    counts = {}
    for name, ov in {
        "off": {"advanced.turn_between": False},
        "ends": {},
        "facing": {"turn_between_close_combat": "facing"},
        "reset": {"turn_between_180": "reset"},
    }.items():
        rules = lords_rules(ov, preset="advanced+optional")
        prep = prepare("Tankerous", "Reaper", policies=("brawler", "brawler"), rules=rules)
        cnt = E.duel_kernel(0, 400, 9, *prep["args"], np.zeros((0, S.N_REC), np.int64))
        counts[name] = (int(cnt[S.C_TURN_CARRIED]), int(cnt[S.C_WIN]), int(cnt[S.C_TURNS]))
    assert counts["off"][0] == 0
    assert counts["ends"][0] > 0
    assert counts["facing"] != counts["ends"]
    assert counts["reset"] != counts["ends"]


# ---- scripts and the replay ------------------------------------------------------------------
def _script(second: str, rules=None) -> dict:
    """Reaper (MR E: 60 deg 1 point, 120 deg 3, 180 deg 5) flies 5F and turns 120 deg right in
    its last hex (8 points), then ``second`` at speed 8."""
    return {
        "rules": {"lords.advanced.turn_between": True} if rules is None else rules,
        "dragons": [
            {"dragon": "Reaper", "hex": [10, 12], "facing": "E", "altitude": "Low"},
            {"dragon": "Skyblazer", "hex": [25, 3], "facing": "W", "altitude": "High"},
        ],
        "turns": [
            {
                "dice": [7, 6],
                "moves": {
                    "Reaper": {"speed": 8, "path": "5F R2"},
                    "Skyblazer": {"speed": 8, "path": "8F"},
                },
            },
            {
                "dice": [7, 6],
                "moves": {
                    "Reaper": {"speed": 8, "path": second},
                    "Skyblazer": {"speed": 8, "path": "8F"},
                },
            },
        ],
    }


def test_a_script_continues_its_turn_for_the_balance():
    """The rulebook's example in a script: Reaper ends turn 1 turned 120 deg right; on turn 2
    "R1" continues it for 2 points (5 - 3), so "R1 6F" is 8 points and it flies west; the
    replay tells the turn carried and the turn left."""
    from dragonsim.lords.views.script import play_script

    rp = play_script(_script("R1 6F"))
    moves = [e for e in rp.events if e.get("event") == "move" and e.get("dragon") == "Reaper"]
    assert [m.get("turn_left", 0) for m in moves] == [-2, 0]
    assert [m.get("carried_turn", 0) for m in moves] == [0, -2]
    assert _facing_name(moves[1]["facing"]) == "W"
    assert "120 deg turn to the right carried from its last move" in rp.text()


def _facing_name(f: int) -> str:
    from dragonsim.lords.game.hexes import DIRECTION_NAMES

    return DIRECTION_NAMES[int(f)]


@pytest.mark.parametrize(
    "second, needle",
    [
        ("L1 7F", "may only continue that turn the same way"),
        ("R2 5F", "would turn past 180 degrees"),
        ("R1 7F", "costs 9 movement points"),
    ],
)
def test_a_script_that_turns_the_other_way_is_one_line(second, needle):
    """ "it may only turn in the same direction (left or right) as in the previous movement
    phase, and it must spend the balance of the points for the total turn" (p.16): turning
    left after a right turn, past 180 deg, or paying 1 point for the 60 deg that cost 2, are
    each refused in one line; without the rule "R1 7F" is a fresh 60 deg turn for 1 point."""
    from dragonsim.errors import UserError
    from dragonsim.lords.views.script import play_script

    with pytest.raises(UserError, match=needle):
        play_script(_script(second))
    play_script(_script("R1 7F", rules={}))


# ---- the tables kept on disk ---------------------------------------------------------------------
def _forget():
    """Empty the move tables kept in memory, as a new process starts."""
    MT._TABLES.clear()
    MT._MOVE_PARTS.clear()
    MT._ALT_PARTS.clear()


def _same(a, b):
    return all(np.array_equal(x, y) and x.dtype == y.dtype for x, y in zip(a, b, strict=True))


def test_the_tables_kept_on_disk_are_the_tables_built(tmp_path, monkeypatch):
    """The banking and turning tables take seconds to build, so they are kept on disk for the
    next process, whole and row by row (one rating, one carried turn): what is read back equals
    what was built, array by array; a file that cannot be read is built afresh;
    ``DRAGONSIM_CACHE_DIR=off`` keeps none; the tables without banking or turning (fast to
    build) are not written."""
    monkeypatch.setenv(MT.CACHE_ENV, str(tmp_path))
    d = tmp_path / "movetables"
    kw = {"max_budget": 5, "mrs": [MR["G"]], "turning": MT.Turning(True)}
    _forget()
    built = MT.move_tables(TB.turn_cost, **kw)
    files = set(d.glob("*.npz"))
    assert len(files) == len(MT.CARRIES) + 1  # a row per carried turn, and the tables whole
    _forget()
    read = MT.move_tables(TB.turn_cost, **kw)
    assert read is not built
    assert _same(read, built)
    for f in files:
        f.write_bytes(b"not a table")
    _forget()
    again = MT.move_tables(TB.turn_cost, **kw)
    assert _same(again, built)
    assert all(f.stat().st_size > 1000 for f in files)  # written again, whole
    stale = d / "killed-while-writing.tmp"
    stale.write_bytes(b"half a table")
    os.utime(stale, (0, 0))  # written long ago by a process that died
    _forget()
    MT.move_tables(TB.turn_cost, max_budget=5, mrs=[MR["G"]], turning=MT.Turning(False))
    assert not stale.exists()  # cleared when the next tables were written
    kept = set(d.glob("*.npz"))
    MT.move_tables(TB.turn_cost, max_budget=5, mrs=[MR["G"]])
    assert set(d.glob("*.npz")) == kept
    monkeypatch.setenv(MT.CACHE_ENV, "off")
    assert MT.cache_dir() is None
    _forget()
    MT.move_tables(TB.turn_cost, max_budget=4, mrs=[MR["G"]], turning=MT.Turning(False))
    assert set(d.glob("*.npz")) == kept


def test_a_new_set_of_ratings_builds_only_its_new_rows(tmp_path, monkeypatch):
    """The tables kept on disk are keyed by row: tables for ratings G and A, after a run that
    built G's (with banking and turning between move phases, pp.16), build A's rows alone
    (one per carried turn), read G's back, and equal the tables built from nothing."""
    monkeypatch.setenv(MT.CACHE_ENV, str(tmp_path))
    bank = MT.Banking(np.array([1, 1, 1, 2, 2, 2, 4, 4, 4]))
    kw = {"max_budget": 5, "bank": bank, "turning": MT.Turning(True), "edges": True}
    _forget()
    MT.move_tables(TB.turn_cost, mrs=[MR["G"]], **kw)
    built = []

    def counted(row, cost, *args):
        built.append(int(np.flatnonzero((TB.turn_cost == row).all(axis=1))[0]))
        return bank_dp(row, cost, *args)

    bank_dp = MT._bank_dp
    monkeypatch.setattr(MT, "_bank_dp", counted)
    _forget()
    both = MT.move_tables(TB.turn_cost, mrs=[MR["G"], MR["A"]], **kw)
    assert sorted(built) == [MR["A"]] * len(MT.CARRIES)
    monkeypatch.setenv(MT.CACHE_ENV, "off")
    _forget()
    assert _same(both, MT.move_tables(TB.turn_cost, mrs=[MR["G"], MR["A"]], **kw))


def test_the_tables_are_the_same_on_one_thread_or_several(monkeypatch):
    """The rows are built on up to ``BUILD_THREADS`` threads: the tables (edges, banking and
    turning in) are the same, array by array, as on one thread, and as when the rows kept in
    memory are bounded to the last one built."""
    monkeypatch.setenv(MT.CACHE_ENV, "off")
    kw = {
        "max_budget": 6,
        "mrs": [MR["A"], MR["G"]],
        "edges": True,
        "bank": MT.Banking(np.array([1, 1, 1, 2, 2, 2, 4, 4, 4])),
        "turning": MT.Turning(),
    }
    got = []
    for threads, kept in ((1, 10**10), (4, 10**10), (4, 1)):
        monkeypatch.setattr(MT, "BUILD_THREADS", threads)
        monkeypatch.setattr(MT, "_PARTS_BYTES", kept)
        monkeypatch.setattr(MT, "_MOVE_PARTS", {})
        monkeypatch.setattr(MT, "_ALT_PARTS", {})
        MT._TABLES.clear()
        got.append(MT.move_tables(TB.turn_cost, **kw))
    assert all(np.array_equal(a, b) for a, b in zip(got[0], got[1], strict=True))
    # the rows kept in memory are bounded (here to the last one built), the tables the same
    assert len(MT._MOVE_PARTS) == 1 and len(MT._ALT_PARTS) == 1
    assert all(np.array_equal(a, b) for a, b in zip(got[0], got[2], strict=True))
