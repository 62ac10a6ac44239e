"""Banking (Dragon Lords rulebook, p.16, "Advanced 3. Movement", "Banking").

"A dragon may bank, i.e. move forward at a 60 deg angle while retaining its facing, by spending
points equal to twice its 60 deg turn cost, with a minimum of 1 point spent ... A dragon may bank
several times in a row, but for every two banks in sequence, the dragon's altitude drops by one
level. However, a dragon may bank, move forward or turn, and then bank again with no altitude
change. A dragon can't bank twice in a row at Very Low altitude. This would cause the dragon to
crash to the ground." (switch ``lords.advanced.banking``; readings ``lords.bank_very_low``,
``lords.bank_hex``.)

Each sentence is checked on the move tables, the engine's functions and the independent
checker's search (``tests/lords_reference.py``); the tables' banking end states equal a direct
search's; random games of every bot under ``advanced`` break no rule of the checker, which
refuses a tampered log.
"""

from __future__ import annotations

import hashlib
from collections import deque

import lords_reference as ref
import numpy as np
import pytest

from dragonsim.errors import UserError
from dragonsim.lords import engine as E
from dragonsim.lords.api import prepare
from dragonsim.lords.bots import POLICIES
from dragonsim.lords.game import mechanics as M
from dragonsim.lords.game import movetables as MT
from dragonsim.lords.game import state as S
from dragonsim.lords.game.tables import kernel_tables
from dragonsim.lords.views.script import path_banks, play_script
from dragonsim.rules import lords_rules

ADVANCED = lords_rules(preset="advanced")
TB = kernel_tables(ADVANCED)
MR = {m: k for k, m in enumerate("ABCDEFGHI")}
BANK = MT.banking_of(ADVANCED)
NB = 8  # the budget of the small tables the sentence tests read
SMALL = MT.move_tables(TB.turn_cost, max_budget=NB, mrs=[MR["A"], MR["D"], MR["G"]], bank=BANK)
PLAIN = MT.move_tables(TB.turn_cost, max_budget=NB, mrs=[MR["D"]])
ADV_OPTIONS = prepare("Reaper", "Skyblazer", rules=ADVANCED)["options"]
E_ = 0  # facing E


def _entries(mv, mr, b, dq, dr, f):
    """The entries of block (mr, b) ending at offset (dq, dr) with facing change f."""
    a, z = int(mv.off[mr, b]), int(mv.off[mr, b + 1])
    return [e for e in range(a, z) if (mv.dq[e], mv.dr[e], mv.f[e]) == (dq, dr, f)]


def test_the_bank_cost_is_twice_the_60_degree_cost_at_least_1():
    """ "twice its 60 deg turn cost, with a minimum of 1 point": 60 deg costs 0 for A-C (so 1),
    1 for D-F (2), 2 for G-I (4) (Turning Costs, p.8)."""
    assert BANK.cost.tolist() == [1, 1, 1, 2, 2, 2, 4, 4, 4]
    assert SMALL.bank.tolist() == BANK.cost.tolist()
    assert MT.banking_of(lords_rules()) is None  # the basic game does not bank


def test_a_bank_moves_forward_left_or_right_keeping_its_facing():
    """ "move forward at a 60 deg angle while retaining its facing": MR D reaches the hex
    forward-left (offset (1, -1) for a dragon facing E) still facing E for its bank cost of 2;
    without banking that end state costs 3 (60 deg left, forward, 60 deg right)."""
    for dq, dr in ((1, -1), (0, 1)):  # forward-left, forward-right
        (e,) = _entries(SMALL, MR["D"], 2, dq, dr, E_)
        assert (SMALL.nb[e], SMALL.ll[e], SMALL.h[e]) == (1, 0, 0)
        assert _entries(PLAIN, MR["D"], 2, dq, dr, E_) == []
        assert len(_entries(PLAIN, MR["D"], 3, dq, dr, E_)) == 1
    # the checker's own search: MR G banks there for 4 points; without the bank it costs 5
    cost = TB.turn_cost[MR["G"]]
    assert ref.find_move((10, 10, E_, 3), (11, 9, E_, 3), 4, cost, bank=_bank()) == ["BL"]
    assert ref.find_move((10, 10, E_, 3), (11, 9, E_, 3), 4, cost) is None


def _bank(very_low_any=False, hex_forward=False):
    return ref.Bank(True, very_low_any, hex_forward)


def test_two_banks_in_sequence_drop_a_level():
    """ "for every two banks in sequence, the dragon's altitude drops by one level": MR G
    banking left then right (8 points) ends 1 hex ahead one level lower, and no path of 8
    points ends there at the same level with no drop; the engine's entry for it drops 1."""
    cost = TB.turn_cost[MR["G"]]
    p = ref.find_move((10, 10, E_, 3), (11, 10, E_, 2), 8, cost, bank=_bank(), drops=1)
    assert sorted(p) == ["BL", "BR"]
    assert ref.find_move((10, 10, E_, 3), (11, 10, E_, 3), 8, cost, bank=_bank(), drops=1) is None
    es = [e for e in _entries(SMALL, MR["G"], 8, 1, 0, E_) if SMALL.ll[e] == 1]
    assert len(es) == 1 and SMALL.nb[es[0]] == 2
    ds = np.zeros((1, S.NF), np.int64)
    ds[0, S.F_Q], ds[0, S.F_R], ds[0, S.F_ALT] = 10, 10, 3
    M.apply_move(ds, 0, es[0], 0, SMALL.rq, SMALL.rr, SMALL.f, SMALL.bk)
    assert (ds[0, S.F_Q], ds[0, S.F_R], ds[0, S.F_F], ds[0, S.F_ALT]) == (11, 10, E_, 2)
    # four in a row: two levels
    assert path_banks(("BL", "BR", "BL", "BR")) == (4, 2)


def test_bank_forward_or_turn_then_bank_again_drops_nothing():
    """ "a dragon may bank, move forward or turn, and then bank again with no altitude change":
    bank-forward-bank and bank-turn-bank keep the level (the checker finds them with no drop;
    the tables hold such end states with two banks on the stored path and no drop)."""
    assert path_banks(("BL", "F", "BR")) == (2, 0)
    assert path_banks(("BL", "L1", "BL")) == (2, 0)
    cost = TB.turn_cost[MR["G"]]
    # BL F BR: 9 points to (2, 0) facing E, no drop
    p = ref.find_move((10, 10, E_, 3), (12, 10, E_, 3), 9, cost, bank=_bank(), drops=0)
    assert p is not None
    # BL L1 BL (MR G: 4 + 2 + 4): to (11, 9) facing E, then from facing NE to (11, 8)
    p = ref.find_move((10, 10, E_, 3), (11, 8, 1, 3), 10, cost, bank=_bank(), drops=0)
    assert p is not None
    for e in range(int(SMALL.off[MR["D"], 0]), int(SMALL.off[MR["D"], NB + 1])):
        if SMALL.nb[e] >= 2 and SMALL.ll[e] == 0:
            break
    else:
        pytest.fail("no stored path banks twice without a drop")


def test_no_second_bank_in_a_row_at_very_low():
    """ "A dragon can't bank twice in a row at Very Low altitude. This would cause the dragon to
    crash to the ground": from Very Low the two banks' drop is refused by the checker and by
    the engine's check (``bank_fits``); from Low it is allowed. With the reading
    ``lords.bank_very_low = any`` no third bank in a row follows at Very Low either."""
    cost = TB.turn_cost[MR["G"]]
    assert ref.find_move((10, 10, E_, 1), (11, 10, E_, 1), 8, cost, bank=_bank(), drops=1) is None
    assert ref.find_move((10, 10, E_, 2), (11, 10, E_, 1), 8, cost, bank=_bank(), drops=1)
    (e,) = [e for e in _entries(SMALL, MR["G"], 8, 1, 0, E_) if SMALL.ll[e] == 1]
    ds = np.zeros((1, S.NF), np.int64)
    for alt, ok in ((1, False), (2, True)):
        ds[0, S.F_ALT] = alt
        assert M.bank_fits(ds, 0, e, 0, SMALL.bk) == ok
    # BL BR BL from Low (12 points at MR G: only a run of three reaches it): the third bank
    # is at Very Low after the drop
    start, end = (10, 10, E_, 2), (12, 9, E_, 1)
    assert ref.find_move(start, end, 12, cost, bank=_bank(), drops=1) is not None
    assert ref.find_move(start, end, 12, cost, bank=_bank(very_low_any=True), drops=1) is None
    # the engine's tables under that reading ask one level more of such a path
    anyb = MT.Banking(BANK.cost, True, False)
    mv = MT.move_tables(TB.turn_cost, max_budget=12, mrs=[MR["G"]], bank=anyb)
    (e,) = [e for e in _entries(mv, MR["G"], 12, 2, -1, E_) if mv.ll[e] == 1]
    assert (mv.nb[e], mv.lm[e]) == (3, 2)


def test_a_bank_hex_climbs_only_under_its_reading():
    """The reading ``lords.bank_hex``: 'level' (default) a bank's hex keeps its altitude, so
    a single bank (MR D, 2 points) cannot climb; 'forward' it may (for 1 point more)."""
    cost = TB.turn_cost[MR["D"]]
    assert ref.find_move((10, 10, E_, 3), (11, 9, E_, 4), 3, cost, bank=_bank()) is None
    assert ref.find_move((10, 10, E_, 3), (11, 9, E_, 4), 3, cost, bank=_bank(hex_forward=True))
    (e,) = _entries(SMALL, MR["D"], 2, 1, -1, E_)
    assert SMALL.h[e] == 0
    fwd = MT.move_tables(
        TB.turn_cost, max_budget=NB, mrs=[MR["D"]], bank=BANK._replace(hex_forward=True)
    )
    (e,) = _entries(fwd, MR["D"], 2, 1, -1, E_)
    assert fwd.h[e] == 1


def _digest(mv, fields):
    h = hashlib.sha256()
    for k in fields:
        a = getattr(mv, k)
        h.update(k.encode())
        h.update(str(a.dtype).encode())
        h.update(str(a.shape).encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def test_tables_without_banking_are_unchanged():
    """The tables without banking are byte for byte those before banking (the digest of MR D
    and H's, full budget, taken before the change), with every banking field 0."""
    mv = MT.move_tables(kernel_tables().turn_cost, mrs=[3, 7])
    old = MT.MoveTables._fields[: MT.MoveTables._fields.index("ll")]
    assert _digest(mv, old) == "370a64cd295d894df5c1970ef81e741cb029cdbf4185f738cd36f4ba8987f128"
    assert not mv.ll.any() and not mv.lm.any() and not mv.nb.any() and not mv.bank.any()


def _direct(cost, bank, nbud, each=False):
    """Every (budget, dq, dr, facing change, levels dropped) a move reaches, with its most
    hexes that may climb or dive (capped at 4), by a breadth-first walk over the rulebook's
    actions: forward, a turn (never two in a row), a bank (not a turn; a second in sequence
    drops a level; with ``each`` every bank after a bank does)."""
    dqs, drs = (1, 1, 0, -1, -1, 0), (0, -1, -1, 0, 1, 1)
    best = {}
    seen = set()
    todo = deque([(0, 0, 0, 0, 0, 0, 0)])  # s, q, r, f, last, drops, hexes
    while todo:
        st = todo.popleft()
        if st in seen:
            continue
        seen.add(st)
        s, q, r, f, last, dl, h = st
        k = (s, q, r, f, dl)
        best[k] = max(best.get(k, -1), h)
        if s + 1 <= nbud:
            todo.append((s + 1, q + dqs[f], r + drs[f], f, 0, dl, min(h + 1, 4)))
        if last != 1:
            for t, c in ((1, 1), (-1, 1), (2, 2), (-2, 2), (3, 3)):
                if s + cost[c] <= nbud:
                    todo.append((s + cost[c], q, r, (f + t) % 6, 1, dl, h))
        if s + bank <= nbud:
            drop = 1 if last == 2 or (each and last == 3) else 0
            if dl + drop <= 4:
                for side in (1, 5):
                    d = (f + side) % 6
                    nxt = (s + bank, q + dqs[d], r + drs[d], f, 3 if last == 2 else 2, dl + drop, h)
                    todo.append(nxt)
    return best


@pytest.mark.parametrize("mr", ["A", "D", "G"])
def test_banking_end_states_equal_a_direct_search(mr):
    """The banking tables hold exactly the end states and drops a direct search reaches, each
    with the most hexes that may climb or dive (budget 8)."""
    m = MR[mr]
    want = _direct([int(c) for c in TB.turn_cost[m]], int(BANK.cost[m]), NB)
    got = {}
    for b in range(NB + 1):
        for e in range(int(SMALL.off[m, b]), int(SMALL.off[m, b + 1])):
            got[(b, int(SMALL.dq[e]), int(SMALL.dr[e]), int(SMALL.f[e]), int(SMALL.ll[e]))] = int(
                SMALL.h[e]
            )
    assert got == want


@pytest.mark.parametrize("mr", ["A", "G"])
def test_banking_end_states_under_the_each_reading(mr):
    """``lords.bank_run = each`` ("If the dragon immediately banks again, it will lose 1
    altitude step", p.16, read of every bank): the tables hold exactly the end states and
    drops of a direct search where every bank after a bank drops; three banks in a row drop
    two levels (one under the default 'pairs')."""
    m = MR[mr]
    each = MT.banking_of(lords_rules({**ADVANCED.overrides, "bank_run": "each"}))
    assert each.each and not BANK.each
    mv = MT.move_tables(TB.turn_cost, max_budget=NB, mrs=[m], bank=each)
    want = _direct([int(c) for c in TB.turn_cost[m]], int(each.cost[m]), NB, each=True)
    got = {}
    for b in range(NB + 1):
        for e in range(int(mv.off[m, b]), int(mv.off[m, b + 1])):
            got[(b, int(mv.dq[e]), int(mv.dr[e]), int(mv.f[e]), int(mv.ll[e]))] = int(mv.h[e])
    assert got == want
    assert path_banks(("BL", "BR", "BL")) == (3, 1)
    assert path_banks(("BL", "BR", "BL"), each=True) == (3, 2)
    cost = TB.turn_cost[MR["G"]]
    start, end = (10, 10, E_, 4), (12, 9, E_, 2)  # BL BR BL at MR G: 12 points
    assert ref.find_move(start, end, 12, cost, bank=ref.Bank(True, each=True), drops=2)
    assert ref.find_move(start, end, 12, cost, bank=_bank(), drops=2) is None


# ---- games ---------------------------------------------------------------------------------------
PAIRS = (("Ozonic", "Tankerous"), ("Skyblazer", "Reaper"))


def _violations(log, cnt, prep):
    sheets = [prep["a"], prep["b"]]
    v = ref.check_log(log, 2, prep["args"][0], prep["tables"], options=prep["options"])
    v += ref.check_events(log, sheets, prep["tables"], cnt, rules=ADVANCED)
    v += ref.check_to_hit(log, sheets, ADVANCED)
    return v


@pytest.mark.slow
def test_every_bot_banks_legally():
    """Games of every bot (against the random bot) under ``advanced`` break no rule of the
    checker; the random bot banks in runs that drop levels, the planners bank one at a time
    (no drop), and no bot crashes itself by a bank (the checker's search never goes below Very
    Low)."""
    banks = {}
    drops = {}
    for pol in ("random", *POLICIES):
        for a, b in PAIRS:
            prep = prepare(a, b, policies=(pol, "random"), rules=ADVANCED)
            for game in range(1 if pol == "search" else 2):
                cnt, log = E.logged_game(game, 7, *prep["args"], 20000)
                v = _violations(log, cnt, prep)
                assert v == [], (pol, a, b, v[:3])
                for r in log:
                    if int(r[S.L_KIND]) == S.K_MOVE and int(r[S.L_I]) == 0:
                        banks[pol] = banks.get(pol, 0) + int(r[S.L_A + 10])
                        drops[pol] = drops.get(pol, 0) + int(r[S.L_A + 11])
    assert drops["random"] > 0
    assert all(drops[p] == 0 for p in POLICIES if p not in ("random", "search")), drops
    assert banks["hunter"] > 0, banks


@pytest.mark.slow
def test_the_random_bot_banks_legally_under_the_each_reading():
    """Under ``lords.bank_run = each`` the random bot's bank runs drop a level at every bank
    after the first, and the checker, told the reading, finds every game legal; told the
    default it refuses them."""
    rules = lords_rules({**ADVANCED.overrides, "bank_run": "each"})
    found = 0
    for a, b in PAIRS:
        prep = prepare(a, b, policies=("random", "random"), rules=rules)
        assert prep["options"][S.OPT_BANK_EACH] == 1
        for game in range(3):
            cnt, log = E.logged_game(game, 7, *prep["args"], 20000)
            sheets = [prep["a"], prep["b"]]
            v = ref.check_log(log, 2, prep["args"][0], prep["tables"], options=prep["options"])
            v += ref.check_events(log, sheets, prep["tables"], cnt, rules=rules)
            assert v == [], v[:3]
            for r in log:
                if int(r[S.L_KIND]) == S.K_MOVE and int(r[S.L_A + 11]) > int(r[S.L_A + 10]) // 2:
                    found += 1  # more drops than the pairs reading allows
                    pairs = ref.check_log(
                        log, 2, prep["args"][0], prep["tables"], options=ADV_OPTIONS
                    )
                    assert any(x.kind in ("bank", "move") for x in pairs)
    assert found > 0


def test_the_checker_refuses_a_tampered_bank():
    """A double bank logged without its drop (the end altitude one level higher per level
    dropped, no drop) where no path of that speed reaches that end is flagged; so is a drop
    logged without two banks. (Random games of Tankerous, MR I, against Lectronist, MR E.)"""
    prep = prepare("Tankerous", "Lectronist", policies=("random", "random"), rules=ADVANCED)
    tb, opts, rows = prep["tables"], prep["options"], prep["args"][0]
    for game in range(10):
        cnt, log = E.logged_game(game, 3, *prep["args"], 20000)
        for n, r in enumerate(log):
            drop = int(r[S.L_A + 11])
            if int(r[S.L_KIND]) != S.K_MOVE or drop == 0 or int(r[S.L_A + 6]) != S.MK_FLY:
                continue
            i = int(r[S.L_I])
            snap = r[S.L_SNAP :].reshape(-1, S.N_SNAP)
            start = tuple(int(x) for x in snap[i, :4])
            q1, r1, f1, a1 = (int(r[S.L_A + k]) for k in (2, 3, 4, 5))
            speed, mr = int(r[S.L_A]), int(r[S.L_A + 1])
            end = (q1, r1, f1, a1 + drop)
            if ref.find_move(start, end, speed, tb.turn_cost[mr], bank=_bank(), drops=0):
                continue  # the untampered altitude has a drop-free path: legal either way
            assert ref.check_log(log, 2, rows, tb, options=opts) == []
            bad = log.copy()
            bad[n, S.L_A + 5] = a1 + drop
            bad[n, S.L_A + 11] = 0
            v = ref.check_log(bad, 2, rows, tb, options=opts)
            assert any(x.turn == int(r[S.L_TURN]) and x.kind == "move" for x in v), v
            bad = log.copy()
            bad[n, S.L_A + 10] = 1
            v = ref.check_log(bad, 2, rows, tb, options=opts)
            assert any(x.kind == "bank" for x in v), v
            return
    pytest.fail("no double bank in 10 random games needed its drop")


# ---- scripts ----------------------------------------------------------------------------------
def _script(path, altitude="Low", rules=None):
    return {
        "rules": {"lords.advanced.banking": True} if rules is None else rules,
        "dragons": [
            {"dragon": "Reaper", "hex": [10, 12], "facing": "E", "altitude": altitude},
            {"dragon": "Skyblazer", "hex": [25, 3], "facing": "W", "altitude": "High"},
        ],
        "turns": [
            {
                "dice": [7, 6],
                "moves": {
                    "Reaper": {"speed": 8, "path": path},
                    "Skyblazer": {"speed": 8, "path": "8F"},
                },
            }
        ],
    }


def test_a_script_banks():
    """A scripted path banks ("BL", "BR"): Reaper (MR E, bank cost 2) banks twice in a row
    and forward 4 hexes, one level lower at the end; from Very Low the same path is refused
    (it would crash), and without the rule a bank is refused, each in one line."""
    rp = play_script(_script("BL BR 4F"))
    moves = [e for e in rp.events if e.get("event") == "move" and e.get("dragon") == "Reaper"]
    assert moves and moves[0]["altitude"] == "Very Low"
    with pytest.raises(UserError, match="twice in a row at Very Low"):
        play_script(_script("BL BR 4F", altitude="Very Low"))
    with pytest.raises(UserError, match="lords.advanced.banking"):
        play_script(_script("BL BR 4F", rules={}))
