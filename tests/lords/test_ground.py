"""The ground in the advanced rules (Dragon Lords rulebook, pp. 15, 17, 19 and 22).

"There are three different ways that a dragon can land involuntarily, i.e. crash" (p.17): a
close combat at Very Low, close combat's -2 bringing the speed below the minimum, a tail or
wing reduced to 0 (``lords.advanced.crash_very_low``, ``crash_slow``, ``crash_zeroed``); and
"A dragon may land on the ground from Very Low altitude by moving forward 1 hex and spending 1
point" (``lords.advanced.landing``). On the ground a dragon moves 1d6+3 hexes with free turns
or takes off, breathes at -1, and fights other dragons on the ground without altitude or speed
loss (p.17); a crash costs 1d6 a level fallen on the Rear column and may kill the rider (p.22).

The independent checker (``tests/lords_reference.py``) knows every one of these rules; these
tests hold random games of every bot to it, show that it catches a broken step, and check each
rule's sentence on the engine's own functions. The exact odds of the dice are
``tests/lords/test_ground_odds.py``'s.
"""

from __future__ import annotations

from collections import Counter

import lords_reference as ref
import numpy as np
import pytest

from dragonsim.lords import engine as E
from dragonsim.lords.api import duel, prepare
from dragonsim.lords.bots import POLICIES
from dragonsim.lords.game import mechanics as M
from dragonsim.lords.game import state as S
from dragonsim.lords.game.tables import ALT_MOD_GROUND, S_BASE_TO_HIT
from dragonsim.rules import lords_rules

GROUND = {
    "lords.advanced.crash_very_low": True,
    "lords.advanced.crash_slow": True,
    "lords.advanced.crash_zeroed": True,
    "lords.advanced.landing": True,
}
ADVANCED = lords_rules(preset="advanced")
PAIRS = (("Ozonic", "Tankerous"), ("Skyblazer", "Reaper"), ("Slash", "Blowderby"))


def _violations(log, cnt, prep, rules):
    sheets = [prep["a"], prep["b"]]
    v = ref.check_log(log, 2, prep["args"][0], prep["tables"], options=prep["options"])
    v += ref.check_events(log, sheets, prep["tables"], cnt, rules=rules)
    v += ref.check_to_hit(log, sheets, rules)
    return v


def _games(pol, a, b, n, seed=5):
    prep = prepare(a, b, policies=(pol, "random"), rules=ADVANCED)
    for game in range(n):
        cnt, log = E.logged_game(game, seed, *prep["args"], 20000)
        yield prep, cnt, log


def _state(a="Reaper", b="Skyblazer", rules=ADVANCED):
    """Two dragons' state rows in play, on two teams, not engaged, 2 hexes apart."""
    prep = prepare(a, b, rules=rules)
    rows, _, opt, tb, _, _ = prep["args"]
    ds = np.zeros((2, S.NF), np.int64)
    E.init_dragons(ds, rows, tb, opt)
    ds[:, S.F_ALIVE] = 1
    ds[:, S.F_ENG] = -1
    ds[:, S.F_TEAM] = (0, 1)
    ds[:, S.F_Q], ds[:, S.F_R], ds[:, S.F_F], ds[:, S.F_ALT] = (10, 12), (10, 10), (0, 3), (3, 3)
    return ds, opt, tb


# ---- every bot plays the ground legally ---------------------------------------------------------
@pytest.mark.slow
def test_every_bot_plays_the_ground_legally():
    """Games of every bot (against the random bot, which lands, moves on the ground and takes
    off at random) under ``advanced`` break no rule of the checker, and between them show
    every new step: crashes of all three causes, landings, moves on the ground, take-offs,
    a close combat on the ground and a rider's roll in a fall."""
    seen = Counter()
    for pol in ("random", *POLICIES):
        for a, b in PAIRS:
            for prep, cnt, log in _games(pol, a, b, 1 if pol == "search" else 3):
                v = _violations(log, cnt, prep, ADVANCED)
                assert v == [], (pol, a, b, v[:3])
                for r in log:
                    k = int(r[S.L_KIND])
                    if k == S.K_CRASH:
                        seen[f"crash {int(r[S.L_A])}"] += 1
                        seen["fall roll"] += int(r[S.L_A + 6] > 0)
                    elif k == S.K_MOVE:
                        seen[f"move {int(r[S.L_A + 6])}"] += 1
                    elif k == S.K_CC:
                        snap = r[S.L_SNAP :].reshape(-1, S.N_SNAP)
                        seen["ground fight"] += int(snap[int(r[S.L_I]), 3] == 0)
    need = [f"crash {c}" for c in (S.CR_VERY_LOW, S.CR_SLOW, S.CR_ZEROED)]
    need += [f"move {k}" for k in (S.MK_TAKE_OFF, S.MK_LAND, S.MK_GROUND)]
    need += ["ground fight", "fall roll"]
    assert all(seen[k] > 0 for k in need), seen


def test_the_planners_never_land_and_take_off_when_they_can():
    """The planning bots never land on purpose (rule ``lords.advanced.landing``); on the
    ground with no zeroed tail or wing and the leap straight ahead on the board they take
    off (p.17: "A dragon may take off again next turn if none of its damage tracks have been
    reduced to 0 points") when the leap also ends in a free hex; they never engage at Very
    Low (p.17: both would crash)."""
    stays = takes = 0
    for pol in ("hunter", "brawler", "hunter@2"):
        for a, b in PAIRS:
            for prep, _, log in _games(pol, a, b, 4, seed=11):
                rows = prep["args"][0]
                for r in log:
                    k, i = int(r[S.L_KIND]), int(r[S.L_I])
                    if i != 0:
                        continue  # the planner's dragon (seat 1 is the random bot)
                    assert not (k == S.K_MOVE and r[S.L_A + 6] == S.MK_LAND), pol
                    snap = r[S.L_SNAP :].reshape(-1, S.N_SNAP)
                    if k == S.K_ENGAGE and pol != "brawler":
                        assert snap[0, 3] != 1, "engaged at Very Low"
                    if k == S.K_SPEED and r[S.L_A + 12] == 1:
                        mobile = min(r[S.L_A + 6], r[S.L_A + 7], r[S.L_A + 13]) > 0
                        q, rr, f = (int(x) for x in snap[0, :3])
                        mn = int(prep["tables"].min_speed[int(rows[0][S.D_BODY])])
                        hexes = ref.leap((q, rr, f), mn)
                        taken = {tuple(int(x) for x in snap[d, :2]) for d in (1,) if snap[d, 4]}
                        fits = all(ref.on_board(*h) for h in hexes) and hexes[-1] not in taken
                        if mobile and fits:
                            assert r[S.L_A] > 0, (pol, "stayed on the ground")
                            takes += 1
                        else:
                            stays += int(r[S.L_A] == 0)
    assert takes > 0 and stays > 0


# ---- the checker catches a broken step ---------------------------------------------------------
def _a_game_with(kind_test):
    for pol in ("random", "brawler"):
        for a, b in PAIRS:
            for prep, cnt, log in _games(pol, a, b, 6):
                rows = [n for n, r in enumerate(log) if kind_test(r)]
                if rows:
                    return prep, cnt, log, rows[0]
    raise AssertionError("no such step in the games")


def test_the_checker_refuses_a_walk_beyond_the_roll():
    """ "roll 1d6+3. The dragon can move up to this number of hexes" (p.17): a move on the
    ground logged with a smaller roll than its distance is refused."""
    prep, cnt, log, n = _a_game_with(
        lambda r: r[S.L_KIND] == S.K_MOVE and r[S.L_A + 6] == S.MK_GROUND and r[S.L_A + 7] > 0
    )
    bad = log.copy()
    q0, r0 = (int(x) for x in bad[n, S.L_SNAP + S.N_SNAP * int(bad[n, S.L_I]) :][:2])
    bad[n, S.L_A + 2] = q0 + int(bad[n, S.L_A + 7]) + 1  # one hex beyond the roll, east
    bad[n, S.L_A + 3] = r0
    assert any(v.kind == "ground" for v in _violations(bad, cnt, prep, ADVANCED))
    bad = log.copy()
    bad[n, S.L_A + 7] = 10  # not a 1d6+3
    assert any(v.kind == "ground" for v in _violations(bad, cnt, prep, ADVANCED))


def test_the_checker_refuses_a_wrong_crash():
    """ "A crashing dragon must roll on the Rear column ... 1d6 points of crash damage for
    each altitude the dragon fell" (p.22): a crash row with a part from another column, a
    roll too high for the levels fallen or the wrong number of levels is refused."""
    prep, cnt, log, n = _a_game_with(lambda r: r[S.L_KIND] == S.K_CRASH)
    for col, value in ((S.L_A + 3, 99), (S.L_A + 4, 6 * 5 + 1), (S.L_A + 1, 0)):
        bad = log.copy()
        bad[n, col] = value
        assert _violations(bad, cnt, prep, ADVANCED), col


def test_the_checker_wants_the_slow_crash():
    """ "If the mandatory two-step loss of speed in close combat brings a dragon's speed below
    its minimum speed, that dragon will crash to the ground after the close combat" (p.17):
    a game whose speed crash (one the dragon survives) is taken out of the log is refused."""
    found = 0
    for pol in ("random", "brawler"):
        for a, b in PAIRS:
            for prep, cnt, log in _games(pol, a, b, 6):
                for n, r in enumerate(log[:-1]):
                    i = int(r[S.L_I])
                    if r[S.L_KIND] == S.K_CRASH and r[S.L_A] == S.CR_SLOW:
                        if ref._snap(log[n + 1], i)[4] == 1:  # still in play after the fall
                            bad = np.delete(log, n, axis=0)
                            kinds = {v.kind for v in _violations(bad, cnt, prep, ADVANCED)}
                            assert "crash" in kinds
                            found += 1
    assert found >= 2


def test_the_checker_refuses_a_short_leap_and_a_landing_aside():
    """A take-off "always costs a number of movement points equal to its minimum speed plus
    1"; a landing moves "forward 1 hex" (p.17): a take-off row with the wrong points left and
    a landing in a hex not ahead of the flight are refused."""
    prep, cnt, log, n = _a_game_with(
        lambda r: r[S.L_KIND] == S.K_MOVE and r[S.L_A + 6] == S.MK_TAKE_OFF
    )
    bad = log.copy()
    bad[n, S.L_A] += 1
    assert any(v.kind == "take-off" for v in _violations(bad, cnt, prep, ADVANCED))
    prep, cnt, log, n = _a_game_with(
        lambda r: r[S.L_KIND] == S.K_MOVE and r[S.L_A + 6] == S.MK_LAND
    )
    bad = log.copy()
    bad[n, S.L_A + 8] += 1
    assert any(v.kind == "land" for v in _violations(bad, cnt, prep, ADVANCED))


# ---- each sentence on the engine's functions ---------------------------------------------------
def test_engaging_at_very_low_and_on_the_ground():
    """ "The dragons may not be at Very Low altitude" (p.9), unless "two dragons engage in
    close combat at Very Low altitude" and crash (advanced, p.17); "Close combat can happen
    between two dragons on the ground as well" (p.17)."""
    ds, opt, _ = _state()
    ds[0, S.F_Q], ds[0, S.F_F], ds[1, S.F_MOVED] = 11, 0, 1  # adjacent, facing it
    basic = S.default_options()
    for alt, in_basic, in_advanced in ((3, True, True), (1, False, True)):
        ds[:, S.F_ALT] = alt
        assert M.can_engage(ds, 0, 1, basic) == in_basic, alt
        assert M.can_engage(ds, 0, 1, opt) == in_advanced, alt
    ds[:, S.F_ALT] = 0  # the ground (only the advanced rules get a dragon there)
    assert M.can_engage(ds, 0, 1, opt)
    ds[0, S.F_ALT] = 1  # one on the ground, one in the air: not the same altitude
    assert not M.can_engage(ds, 0, 1, opt)


def test_a_zeroed_tail_or_wing_crashes_and_takes_no_more():
    """ "If a dragon is reduced to 0 damage points in its tail or either of its wings, it will
    crash ... If its head or body are reduced to 0 damage points, the dragon has been killed";
    "Any additional damage to a tail or wing after that part has been reduced to 0 transfers
    to the body instead" (p.17). In the basic rules any part at 0 removes the dragon (p.12)."""
    ds, opt, tb = _state()
    basic = S.default_options()
    for part in (S.PART_TAIL, S.PART_LEFT_WING, S.PART_RIGHT_WING):
        ds2 = ds.copy()
        ds2[0, S.F_DP + part] = 0
        assert M.crashes_by_damage(ds2, 0)
        M.refresh(ds2, 0, tb.scalars, opt)
        assert ds2[0, S.F_ALIVE] == 1
        assert M.hit_part(ds2, 0, part, opt) == S.PART_BODY
        assert M.hit_part(ds2, 0, part, basic) == part
        M.refresh(ds2, 0, tb.scalars, basic)
        assert ds2[0, S.F_ALIVE] == 0
    for part in (S.PART_HEAD, S.PART_BODY):
        ds2 = ds.copy()
        ds2[0, S.F_DP + part] = 0
        assert not M.crashes_by_damage(ds2, 0)
        M.refresh(ds2, 0, tb.scalars, opt)
        assert ds2[0, S.F_ALIVE] == 0
    assert M.hit_part(ds, 0, S.PART_TAIL, opt) == S.PART_TAIL  # not zeroed: its own part


def test_every_crash_keeps_the_dragon_in_its_hex_under_its_reading():
    """``lords.crash_stuck = every-crash`` reads "If the dragon survives the fall, it may turn
    in that hex but it may not move from it" (p.17) as said of all three ways to crash: after
    any crash the dragon rolls no ground move and never takes off, and the checker, told the
    reading, finds the games legal; by default a dragon that crashed at speed or at Very Low
    walks and takes off again. (The brawler engages, and crashes, often.)"""
    every = lords_rules({**ADVANCED.overrides, "crash_stuck": "every-crash"})
    moved_after = {ADVANCED.hash: 0, every.hash: 0}
    crashes = 0
    for rules in (ADVANCED, every):
        for a, b in PAIRS:
            prep = prepare(a, b, policies=("brawler", "random"), rules=rules)
            for game in range(6):
                cnt, log = E.logged_game(game, 5, *prep["args"], 5000)
                if rules is every:
                    assert _violations(log, cnt, prep, every) == []
                fell: set[int] = set()
                for r in log:
                    i = int(r[S.L_I])
                    if r[S.L_KIND] == S.K_CRASH and r[S.L_A] != S.CR_ZEROED:
                        fell.add(i)
                        crashes += rules is every
                    elif r[S.L_KIND] == S.K_MOVE and i in fell:
                        ground_walk = r[S.L_A + 6] == S.MK_GROUND and r[S.L_A + 7] > 0
                        if ground_walk or r[S.L_A + 6] != S.MK_GROUND:
                            moved_after[rules.hash] += 1
    assert crashes > 0
    assert moved_after[every.hash] == 0 and moved_after[ADVANCED.hash] > 0


def test_take_off_speeds_and_the_leap():
    """ "A dragon taking off must record a speed of at least 1 point more than the dragon's
    minimum speed and no higher than 7 ... move a number of hexes in a straight line equal to
    its minimum speed" (p.17); the maximum still binds (the reading lords.takeoff_speed's
    default), and 7 alone under its other reading."""
    ds, _, tb = _state()
    opt = S.default_options()
    lo, hi = M.takeoff_limits(ds, 0, tb.scalars, opt)
    assert (lo, hi) == (ds[0, S.F_MIN] + 1, min(7, ds[0, S.F_MAX]))
    ds[0, S.F_MAX] = ds[0, S.F_MIN]
    lo, hi = M.takeoff_limits(ds, 0, tb.scalars, opt)
    assert hi < lo  # cannot take off at all
    seven = S.default_options(takeoff_over_max=True)
    assert M.takeoff_limits(ds, 0, tb.scalars, seven) == (lo, 7)
    ds[0, S.F_Q], ds[0, S.F_R], ds[0, S.F_F] = 5, 10, 0  # facing E
    fits, q, r = M.takeoff_path(ds, 0, 33, 24)
    assert fits and (q, r) == (5 + ds[0, S.F_MIN], 10)
    ds[0, S.F_F] = 3  # facing W
    ds[0, S.F_Q] = -5  # axial q of column 0 on row 10: the leap west leaves the board
    assert not M.takeoff_path(ds, 0, 33, 24)[0]


def test_the_grounded_attacker_breathes_at_minus_one():
    """ "If the attacker is on the ground, it gets a -1 to its attack number" (p.19): the
    same shot from the ground is one lower than from Very Low one level up (the altitude row
    for 0 and 1 step apart is the same, ``lords.altitude_mod``), the value from
    ``lords.ground_attacker_mod``."""
    ds, opt, tb = _state()
    ds[1, S.F_ALT] = 1
    air = M.target_number(ds, 0, 1, (10, 10, 0, 1), tb, tb.range_mod)
    ground = M.target_number(ds, 0, 1, (10, 10, 0, 0), tb, tb.range_mod)
    assert tb.alt_mod[ALT_MOD_GROUND] == ADVANCED.get("lords.ground_attacker_mod") == -1
    assert ground == air - 1
    tb2 = prepare("Reaper", "Skyblazer", rules={"lords.ground_attacker_mod": -3})["tables"]
    assert M.target_number(ds, 0, 1, (10, 10, 0, 0), tb2, tb2.range_mod) == air - 3


def test_the_slow_crash_reads_the_recorded_speed():
    """Close combat's "both dragons subtract 2 from their current speed" (p.13); with the
    rule a dragon brought below its minimum crashes (p.17); without it, it records its
    minimum."""
    ds, opt, tb = _state()
    mn = ds[0, S.F_MIN]
    for speed, crash in ((mn + 2, False), (mn + 1, True), (mn, True)):
        ds[0, S.F_SPEED] = speed
        assert M.crash_after_combat(ds, 0, opt, tb.scalars) == crash
        assert not M.crash_after_combat(ds, 0, S.default_options(), tb.scalars)


@pytest.mark.parametrize("key", list(GROUND))
def test_each_ground_switch_alone_reaches_the_kernel(key):
    """Each of the four switches alone changes the random bot's games and shows in its own
    counters only: crashes of its cause, or landings."""
    rules = {key: True}
    off = duel("Ozonic", "Tankerous", n=400, seed=3, policy="random", progress=False)
    on = duel("Ozonic", "Tankerous", n=400, seed=3, policy="random", progress=False, rules=rules)
    c = on.counters
    crashes = c[S.C_CRASHES : S.C_CRASHES + 3]
    want = {
        "lords.advanced.crash_very_low": (S.CR_VERY_LOW, 0),
        "lords.advanced.crash_slow": (S.CR_SLOW, 0),
        "lords.advanced.crash_zeroed": (S.CR_ZEROED, 0),
        "lords.advanced.landing": (-1, 1),
    }[key]
    assert not np.array_equal(off.counters, c)
    for cause in range(3):
        assert (crashes[cause] > 0) == (cause == want[0]), (key, crashes)
    assert (c[S.C_LANDINGS] > 0) == bool(want[1])
    assert off.counters[S.C_CRASHES : S.C_GROUND_TURNS + 1].sum() == 0


def test_team_and_free_for_all_games_on_the_ground_are_legal():
    """Four dragons, two teams of two and a free-for-all, random bots under ``advanced``: the
    checker finds every step legal, crashes and moves on the ground included (the team game
    and the free-for-all of p.14 "with every rule above")."""
    from dragonsim.lords.api import battle_setup

    names = ["Ozonic", "Fiercival", "Reaper", "Tankerous"]
    crashes = ground = 0
    for teams in ([0, 0, 1, 1], None):
        sheets, _, _, rs, args = battle_setup(names, teams=teams, policy="random", rules=ADVANCED)
        for game in range(3):
            cnt, log = E.logged_game(game, 4, *args, 40000)
            v = ref.check_log(log, 4, args[0], args[3], options=args[2])
            v += ref.check_events(log, sheets, args[3], cnt, rules=rs)
            v += ref.check_to_hit(log, sheets, rs)
            assert v == [], (teams, v[:3])
            crashes += int((log[:, S.L_KIND] == S.K_CRASH).sum())
            ground += int(((log[:, S.L_KIND] == S.K_MOVE) & (log[:, S.L_A + 6] != 0)).sum())
    assert crashes > 0 and ground > 0


def test_a_rider_on_the_ground_shoots_as_breath_unless_the_reading_says_none():
    """The reading ``lords.rider_ground_attacker``: "as-breath" (default) gives a rider on a
    dragon on the ground the grounded attacker's -1 (p.19) as its breath; "none" does not."""
    for reading, less in (("as-breath", 1), ("none", 0)):
        ds, opt, tb = _state("Ozonic", "Reaper", rules={"lords.rider_ground_attacker": reading})
        base = tb.scalars[S_BASE_TO_HIT]
        ds[:, S.F_ALT] = 1
        air, _ = M.rider_target_number(ds, 0, 1, base, tb.alt_mod, tb.rider_range, tb.scalars)
        ds[0, S.F_ALT] = 0  # the shooter's dragon on the ground, the target one level up
        low, _ = M.rider_target_number(ds, 0, 1, base, tb.alt_mod, tb.rider_range, tb.scalars)
        assert low == air - less, reading


def test_a_script_that_takes_off_when_it_cannot_is_one_clear_line():
    """A dragon kept on the ground "may turn in that hex but it may not move from it" and
    cannot take off (pp. 17, 22): a script giving it a take-off speed is told so in one line
    (the speed error with no take-off speed allowed)."""
    from dragonsim.lords.views import script as SC

    move = {"speed": 6, "path": "6F"}
    sc = SC.load_script(
        {
            "title": "no take-off",
            "rules": GROUND,
            "dragons": [
                {"dragon": "Ozonic", "hex": [5, 10], "facing": "E", "altitude": "Ground"},
                {"dragon": "Reaper", "hex": [20, 10], "facing": "W", "altitude": "Medium"},
            ],
            "turns": [{"dice": [5, 9], "moves": {"Ozonic": move, "Reaper": move}}],
        }
    )
    sd = np.zeros(S.SD_ROWS, np.int64)
    sd[S.SD_ERROR], sd[S.SD_ERR_TURN], sd[S.SD_ERR_DRAGON] = S.SD_SPEED, 1, 0
    sd[S.SD_ERR_A], sd[S.SD_ERR_B], sd[S.SD_ERR_C] = 6, 6, 5  # lowest above highest: none
    ((_, msg),) = SC._decision_error(sc, sd, np.zeros((0, S.N_LOG), np.int64))
    assert "on the ground it may only record 0 (ground): it cannot take off" in msg
