"""Close-combat tactics (Dragon Lords rulebook, optional rules, p.22 "Tactics (optional)").

The switch ``lords.optional.tactics`` (in ``advanced+optional``), the reading
``lords.defend_win``, the uses ``lords.tactic_uses`` and the table ``lords.tactics`` (its rows
cut off in the scan derived from the printed rows' antisymmetry and zero sums). Each sentence
with a scripted fight (Ozonic, MR G, close combat modifier 3; Reaper, MR E, 5; Reaper engages
Ozonic, which moved first); the engine's outcome frequencies for every pair of tactics against
the exact odds; the kernel's simplex against ``scipy.optimize.linprog``; the checker on every
bot's games.
"""

from __future__ import annotations

import json

import lords_reference as ref
import numpy as np
import pytest
from numba import njit
from scipy.optimize import linprog
from scipy.stats import chisquare

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords import engine as E
from dragonsim.lords.api import duel, prepare
from dragonsim.lords.bots import POLICIES
from dragonsim.lords.bots import scripted as SB
from dragonsim.lords.bots import tactics as T
from dragonsim.lords.game import odds
from dragonsim.lords.game import state as S
from dragonsim.lords.game.sheets import sheet
from dragonsim.lords.game.tables import S_TACTIC_RESET, S_TACTIC_USES
from dragonsim.lords.views.script import play_script
from dragonsim.rules import lords_rules
from dragonsim.rules.lords import TACTICS
from dragonsim.stats import binomial_consistent

TAC = {"lords.optional.tactics": True}
ALL = lords_rules(preset="advanced+optional")
ALPHA = 1e-6


def _fight(ozonic, reaper, dice, rules=None, turn2=None):
    """Ozonic flies 5 (moving first: initiative 5 against 9), Reaper 6 and engages it face to
    face at Medium: Reaper "instigated the close combat" and is the attacker (p.22)."""
    turns = [
        {
            "dice": dice,
            "moves": {
                "Ozonic": {"speed": 5, "path": "5F", **({"tactic": ozonic} if ozonic else {})},
                "Reaper": {
                    "speed": 6,
                    "path": "6F",
                    "engage": True,
                    **({"tactic": reaper} if reaper else {}),
                },
            },
        }
    ]
    if turn2:
        turns.append(turn2)
    return play_script(
        {
            "title": "a fight with tactics",
            "rules": {**TAC, **(rules or {})},
            "dragons": [
                {"dragon": "Ozonic", "hex": [10, 10], "facing": "E", "altitude": "Medium"},
                {"dragon": "Reaper", "hex": [22, 10], "facing": "W", "altitude": "Medium"},
            ],
            "turns": turns,
        }
    )


def _cc(rep):
    (cc,) = [e for e in rep.events if e["event"] == "close combat"]
    return cc


# ---- the sentences -------------------------------------------------------------------------------
def test_the_adjustment_goes_to_the_attacker_the_dragon_that_engaged():
    """ "The dragon that instigated the close combat is referred to as the attacker" and "The
    result is the adjustment to the attacker's modified close combat score" (p.22): Reaper
    engaged, so Lunge against Defend (-4) goes on Reaper's 5, although Ozonic comes first in
    the initiative order. 7 + 3 = 10 beats 8 + 5 - 4 = 9; without tactics Reaper's 13 wins."""
    rep = _fight("Defend", "Lunge", [5, 9, 7, 8, 3])
    cc = _cc(rep)
    assert cc["attacker"] == "Reaper" and cc["dragon"] == "Ozonic"
    assert (cc["attacker_tactic"], cc["defender_tactic"]) == ("Lunge", "Defend")
    assert cc["tactic_modifier"] == -4 and cc["modifier_difference"] == 3 - (5 - 4)
    assert cc["winner"] == "Ozonic" and cc["defend_win"]
    assert "Reaper attacks with Lunge, Ozonic defends with Defend (attacker -4" in rep.text()
    plain = play_script(
        {
            "rules": {},
            "dragons": [
                {"dragon": "Ozonic", "hex": [10, 10], "facing": "E", "altitude": "Medium"},
                {"dragon": "Reaper", "hex": [22, 10], "facing": "W", "altitude": "Medium"},
            ],
            "turns": [
                {
                    "dice": [5, 9, 7, 8, 1, 7, 12, 3, 3],
                    "moves": {
                        "Ozonic": {"speed": 5, "path": "5F"},
                        "Reaper": {"speed": 6, "path": "6F", "engage": True},
                    },
                }
            ],
        }
    )
    assert _cc(plain)["winner"] == "Reaper" and _cc(plain)["attacker_tactic"] is None


def test_a_defend_win_inflicts_no_damage_on_either_dragon():
    """ "If a dragon used a Defend tactic and won the combat round, no damage is inflicted on
    either dragon" (p.22): no column, location, damage or own-damage roll; by the default
    reading (lords.defend_win 'turn') the loser still rolls its new facing (a 3: template
    hexside 3 from W) and the winner chooses its facing (it keeps E)."""
    rep = _fight("Defend", "Lunge", [5, 9, 7, 8, 3])
    cc = _cc(rep)
    assert cc["loser_points_lost"] == 0 and cc["winner_points_lost"] == 0
    assert cc["column"] is None and cc["damage_roll"] is None and cc["self_roll"] is None
    assert cc["facing_roll"] == 3 and cc["winner_facing"] == 0
    assert [r["what"] for r in rep.forced if r["used"]][-1] == "new facing roll (1d6)"
    assert rep.damage_dealt == [0, 0]
    still = _fight("Defend", "Lunge", [5, 9, 7, 8, 3], rules={"lords.defend_win": "no-turn"})
    cs = _cc(still)
    assert cs["defend_win"] and cs["facing_roll"] is None
    assert [r["used"] for r in still.forced] == [True] * 4 + [False]


def test_lunge_adds_1d6_to_the_winners_damage():
    """ "If a dragon used a Lunge tactic and won the combat round, it inflicts an additional
    +1d6 points of damage" (p.22): Reaper (Razor Sharp, 4d6) Lunges against Slash (+1) and
    wins 7 + 6 against 7 + 3; its 12 on the body (column F, location 7) and Lunge's 5 take 17
    points; the same fight with Slash against Slash (0: 12 against 10) takes 12 and asks for
    no Lunge roll."""
    lunge = _fight("Slash", "Lunge", [5, 9, 7, 7, 1, 7, 12, 5, 2, 1])
    slash = _fight("Slash", "Slash", [5, 9, 7, 7, 1, 7, 12, 2, 1])
    a, b = _cc(lunge), _cc(slash)
    assert a["winner"] == b["winner"] == "Reaper"
    assert a["tactic_modifier"] == 1 and b["tactic_modifier"] == 0
    assert a["lunge_roll"] == 5 and b["lunge_roll"] is None
    assert (a["loser_points_lost"], b["loser_points_lost"]) == (17, 12)
    assert a["winner_points_lost"] == b["winner_points_lost"] == 2
    whats = [r["what"] for r in lunge.forced]
    assert whats[-4:] == [
        "tooth-and-claw damage roll",
        "Lunge's extra damage roll (1d6, p.22)",
        "own damage roll (the winner's, p.13)",
        "new facing roll (1d6)",
    ]
    assert all(r["used"] for r in lunge.forced + slash.forced)
    assert "Lunge's extra damage roll 5 (p.22)" in lunge.text()


def test_both_defend_rolls_nothing_but_altitude_and_speed_drop():
    """ "if both dragons use a Defend tactic, neither dragon can inflict damage, so no combat
    rolls are necessary. The altitude and speed of the dragons are still affected" (p.22):
    the two rolls given are not asked for, both drop from Medium to Low, and Reaper's speed
    6 - 2 stops at its minimum 5, so next turn it may record at most 8 (p.7), not 9."""
    rep = _fight("Defend", "Defend", [5, 9, 7, 7])
    cc = _cc(rep)
    assert cc["both_defend"] and cc["winner"] is None
    assert [r["used"] for r in rep.forced] == [True, True, False, False]
    (row,) = rep.log[rep.log[:, S.L_KIND] == S.K_CC]
    assert [row[S.L_SNAP + d * S.N_SNAP + 3] for d in (0, 1)] == [2, 2]
    assert "both defend, no rolls, no damage (p.22)" in rep.text()
    turn2 = {
        "dice": [5, 9],
        "moves": {
            "Ozonic": {"speed": 5, "path": "5F"},
            "Reaper": {"speed": 9, "path": "9F"},
        },
    }
    with pytest.raises(UserError, match=r"speed 9 is not allowed; it may record 5\.\.8"):
        _fight("Defend", "Defend", [5, 9], turn2=turn2)


def test_a_script_names_a_tactic_with_uses_left():
    """A tactic is one of the six ("Lunge, Slash, Bite, Tail Swing, Fake and Defend"); with
    tactics each side must choose one ("both players secretly choose their tactics")."""
    with pytest.raises(UserError, match="unknown tactic 'Kick'"):
        _fight("Kick", "Lunge", [5, 9, 7, 8, 3])
    with pytest.raises(UserError, match="gives it no 'tactic'"):
        _fight(None, "Lunge", [5, 9, 7, 8, 3])


@njit
def _use(ds, t, scal):
    return E.use_tactic(ds, 0, t, scal)


@njit
def _script_tactic(ds, scal, pst):
    return SB.script_tactic(ds, 0, scal, pst)


@njit
def _picks(ds, scal, pst, n):
    out = np.zeros(6, np.int64)
    for _ in range(n):
        out[T.pick_tactic(ds, 0, scal, pst)] += 1
    return out


def test_five_uses_of_each_and_a_fresh_set_after_30():
    """ "You may only use each tactic five times during a game. If ... 30 close combats,
    thereby using all your tactics up, you may erase your check marks and start over" (p.22;
    lords.tactic_uses): the 30th check mark erases them all; a random bot picks only
    tactics with uses left; a script's used-up tactic is an error."""
    prep = prepare("Ozonic", "Reaper", rules=TAC)
    scal = prep["tables"].scalars
    assert (scal[S_TACTIC_USES], scal[S_TACTIC_RESET]) == (5, 30)
    ds = np.zeros((S.MAXD, S.NF), np.int64)
    resets = [_use(ds, k % 6, scal) for k in range(30)]
    assert resets == [0] * 29 + [1] and not ds[0, S.F_TAC_USED : S.F_TAC_USED + 6].any()
    ds[0, S.F_TAC_USED : S.F_TAC_USED + 6] = [5, 5, 2, 5, 5, 5]
    got = _picks(ds, scal, np.array([7], np.uint64), 200)
    assert got[2] == 200
    pst = np.zeros(S.SD_ROWS + 2 * S.N_SR, np.uint64)
    pst[S.SD_DRAGONS], pst[S.SD_TURNS], pst[S.SD_COUNT] = 2, 1, 1
    pst[S.SD_ROWS + S.SR_TACTIC] = 1  # Lunge, used 5 times
    assert _script_tactic(ds, scal, pst) == 2
    assert pst[S.SD_ERROR] == S.SD_TACTIC_USED and pst[S.SD_ERR_B] == 5


# ---- Monte Carlo against the exact odds ----------------------------------------------------------
@njit
def _fights(ds0, n, opt, tb, w, cnt):
    """``n`` fresh close combats: dragon 1 engaged dragon 0, which is first in the order."""
    for _ in range(n):
        for i in range(ds0.shape[0]):
            for c in range(ds0.shape[1]):
                w.ds[i, c] = ds0[i, c]
        w.ds[0, S.F_ENG] = 1
        w.ds[1, S.F_ENG] = 0
        w.ds[0, S.F_ENGAGER] = 1
        w.ds[1, S.F_ENGAGER] = 1
        w.ds[0, S.F_INIT] = 0
        w.ds[1, S.F_INIT] = 1
        w.order[0] = 0
        w.order[1] = 1
        E.close_combat(w.ds, 2, E.rules_inputs(opt, tb), w, cnt, 1, None)


def _run_fights(a, b, policy, n, seed, rules=TAC):
    prep = prepare(a, b, policies=(policy, policy), rules=rules)
    rows, opt, tb = prep["args"][0], prep["options"], prep["tables"]
    ds0 = np.zeros((S.MAXD, S.NF), np.int64)
    E.init_dragons(ds0, rows, tb, opt)
    ds0[:, S.F_ALT] = 3
    ds0[:, S.F_SPEED] = 8
    w = E.new_work()
    w.gst[0], w.pst[0] = np.uint64(seed), np.uint64(seed + 1)
    cnt = np.zeros(S.N_COUNTERS, np.int64)
    _fights(ds0, n, opt, tb, w, cnt)
    return cnt


@pytest.fixture(scope="module")
def random_fights():
    """72,000 fresh fights of Reaper (the attacker) against Ozonic, random tactics."""
    return _run_fights("Ozonic", "Reaper", "random", 72_000, 11)


def test_outcomes_of_every_pair_match_the_exact_odds(random_fights):
    """Each pair's win / draw / loss from the attacker's side against ``odds.close_combat``
    with the tactics (2d6 + modifier + the table's entry, ties a draw, p.13 and p.22), each
    within an exact binomial test at alpha 1e-6; both Defend is always "a draw" with no roll;
    random bots use the six tactics uniformly."""
    c = random_fights
    pairs = c[S.C_TACTICS : S.C_TACTICS + 108].reshape(6, 6, 3)
    per_tactic = pairs.sum(axis=(1, 2))
    assert chisquare(per_tactic).pvalue > ALPHA
    for x, tx in enumerate(TACTICS):
        for y, ty in enumerate(TACTICS):
            n = int(pairs[x, y].sum())
            assert n > 1500
            if tx == ty == "Defend":
                assert pairs[x, y, 1] == n == c[S.C_BOTH_DEFEND]
                continue
            exact = odds.close_combat("Reaper", "Ozonic", tactics=(tx, ty))
            for k in range(3):
                assert binomial_consistent(int(pairs[x, y, k]), n, float(exact[k]), ALPHA), (
                    tx,
                    ty,
                    k,
                )
    wins_defending = pairs[5, :5, 0].sum() + pairs[:5, 5, 2].sum()
    assert c[S.C_DEFEND_WINS] == wins_defending


def test_lunge_extra_damage_is_a_d6(random_fights):
    """Lunge's "+1d6": rolled once for each fight a Lunge won (no rider checks in the basic
    rules), its faces uniform (chi-square at alpha 1e-6) and its sum theirs."""
    c = random_fights
    pairs = c[S.C_TACTICS : S.C_TACTICS + 108].reshape(6, 6, 3)
    assert c[S.C_LUNGE] == pairs[0, :, 0].sum() + pairs[:, 0, 2].sum()
    faces = c[S.C_LUNGE_FACES : S.C_LUNGE_FACES + 6]
    assert faces.sum() == c[S.C_LUNGE] and c[S.C_LUNGE_SUM] == (faces * np.arange(1, 7)).sum()
    assert chisquare(faces).pvalue > ALPHA


def test_the_planners_draw_the_equilibrium_mixture():
    """The hunters' tactics in fresh fights are drawn from the equilibrium of the tactics
    game that ``odds.tactics`` solves with linprog (Ozonic attacked by Fiercival, advanced
    rules: each tactic's share within a binomial test at alpha 1e-6, both sides)."""
    n = 20_000
    c = _run_fights(
        "Ozonic", "Fiercival", "hunter", n, 5, rules={**TAC, "lords.advanced.lancer": True}
    )
    pairs = c[S.C_TACTICS : S.C_TACTICS + 108].reshape(6, 6, 3)
    eq = odds.tactics(
        "Fiercival", "Ozonic", rules=lords_rules({**TAC, "lords.advanced.lancer": True})
    )
    for k in range(6):
        assert binomial_consistent(int(pairs[k].sum()), n, eq["attacker_mixture"][k], ALPHA)
        assert binomial_consistent(int(pairs[:, k].sum()), n, eq["defender_mixture"][k], ALPHA)


# ---- the kernel's simplex ------------------------------------------------------------------------
def _linprog_value(m):
    nr, nc = m.shape
    res = linprog(
        np.r_[np.zeros(nr), -1.0],
        A_ub=np.hstack([-m.T, np.ones((nc, 1))]),
        b_ub=np.zeros(nc),
        A_eq=np.r_[np.ones(nr), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * nr + [(None, None)],
        method="highs",
    )
    return -res.fun


def test_the_kernel_simplex_matches_linprog():
    """On 1,000 random games of 1x1 to 6x6 (normal, scaled, rounded to integers: degenerate
    games with ties), the kernel's value equals linprog's to 1e-9 and both its mixtures are
    optimal: they are distributions, and each guarantees the value against every reply
    (minimax theorem)."""
    rng = np.random.default_rng(14)
    for k in range(1000):
        nr, nc = rng.integers(1, 7, size=2)
        m = rng.normal(size=(nr, nc)) * rng.choice([0.1, 1.0, 20.0])
        if k % 3 == 0:
            m = np.round(m)
        v, x, y = T.solve_matrix(m)
        assert abs(v - _linprog_value(m)) < 1e-9
        assert abs(x.sum() - 1) < 1e-9 and abs(y.sum() - 1) < 1e-9
        assert x.min() > -1e-12 and y.min() > -1e-12
        assert (x @ m).min() > v - 1e-9 and (m @ y).max() < v + 1e-9


@njit
def _equilibrium(ds, tb, opt, buf):
    return T.equilibrium(ds, 1, 0, tb.tactics, tb.cc_by_mr, tb.weapon, tb.scalars, opt, buf)


@pytest.mark.parametrize(
    "a,b,rules",
    [
        ("Ozonic", "Reaper", TAC),
        ("Tankerous", "Zippinchill", TAC),
        ("Tankerous", "Zippinchill", {**TAC, "lords.advanced.lancer": True}),
        ("Fiercival", "Kelvinight", {**TAC, "lords.advanced.lancer": True}),
    ],
)
def test_the_kernel_game_is_the_odds_game(a, b, rules):
    """The kernel's payoff matrix (attacker ``b``, the second seat) equals ``odds.tactics``'s
    to 1e-12 and its value linprog's to 1e-9, with all tactics and with the attacker's Lunge
    and Defend and the defender's Fake used up (five check marks each)."""
    prep = prepare(a, b, rules=rules)
    rows, opt, tb = prep["args"][0], prep["options"], prep["tables"]
    ds = np.zeros((S.MAXD, S.NF), np.int64)
    E.init_dragons(ds, rows, tb, opt)
    buf = np.zeros(T.LP_CELLS)
    ex = odds.tactics(b, a, rules=lords_rules(rules))
    v = _equilibrium(ds, tb, opt, buf)
    assert np.allclose(buf[:36].reshape(6, 6), ex["payoff"], rtol=0, atol=1e-12)
    assert abs(v - ex["value"]) < 1e-9
    ds[1, S.F_TAC_USED + 0] = ds[1, S.F_TAC_USED + 5] = 5
    ds[0, S.F_TAC_USED + 4] = 5
    v = _equilibrium(ds, tb, opt, buf)
    ex = odds.tactics(
        b,
        a,
        attacker_tactics=TACTICS[1:5],
        defender_tactics=[t for t in TACTICS if t != "Fake"],
        rules=lords_rules(rules),
    )
    assert abs(v - ex["value"]) < 1e-9
    assert buf[T.LP_X] == buf[T.LP_X + 5] == 0 and buf[T.LP_Y + 4] == 0
    pay = np.array(ex["payoff"])
    x = buf[T.LP_X + 1 : T.LP_X + 5]
    y = np.delete(buf[T.LP_Y : T.LP_Y + 6], 4)
    assert (x @ pay).min() > v - 1e-9 and (pay @ y).max() < v + 1e-9


# ---- the checker ---------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("pol", POLICIES)
def test_every_bot_fights_with_tactics_legally(pol):
    """The independent checker finds no illegal step in games of every bot against a
    brawler (who engages) under ``advanced+optional``: the attacker is the dragon that
    engaged, the table's adjustment, at most five uses and the reset, Lunge, Defend."""
    fights = 0
    games = 1 if pol.startswith("search") else 6
    for k, (a, b) in enumerate((("Ozonic", "Fiercival"), ("Reaper", "Tankerous"))):
        for game in range(games):
            prep = prepare(a, b, policies=(pol, "brawler"), rules="advanced+optional")
            cnt, log = E.logged_game(game, 60 + k, *prep["args"], 5000)
            rows, tb = prep["args"][0], prep["tables"]
            v = ref.check_log(log, 2, rows, tb, options=prep["options"])
            v += ref.check_events(log, [sheet(a), sheet(b)], tb, cnt, rules=ALL)
            assert v == [], (pol, a, b, game, v[:3])
            fights += int((log[:, S.L_KIND] == S.K_CC).sum())
    assert fights > 0


def test_the_checker_refuses_a_tampered_tactic():
    """A log whose adjustment is not the table's, whose Lunge roll is dropped, or whose
    Defend winner took damage, is refused."""
    rep = _fight("Slash", "Lunge", [5, 9, 7, 7, 1, 7, 12, 5, 2, 1])
    sheets = [sheet("Ozonic"), sheet("Reaper")]
    rules = lords_rules(TAC)
    tb = prepare("Ozonic", "Reaper", rules=rules)["tables"]
    assert ref.check_events(rep.log, sheets, tb, rules=rules) == []
    (r,) = np.nonzero(rep.log[:, S.L_KIND] == S.K_CC)[0]
    bad = rep.log.copy()
    bad[r, S.L_A + 15] = 0
    assert {v.kind for v in ref.check_events(bad, sheets, tb, rules=rules)} == {"tactics"}
    bad = rep.log.copy()
    bad[r, S.L_A + 16] = 0
    assert "tactics" in {v.kind for v in ref.check_events(bad, sheets, tb, rules=rules)}
    bad = rep.log.copy()
    bad[r, S.L_A + 13] = 6  # the attacker Defended: its win may not do damage
    assert "tactics" in {v.kind for v in ref.check_events(bad, sheets, tb, rules=rules)}


# ---- switches and the CLI ------------------------------------------------------------------------
def test_the_switch_and_its_reading_reach_the_kernel():
    """Off by default (the basic and advanced counters are those without tactics, the new
    ones zero); ``lords.optional.tactics`` alone plays them; ``lords.defend_win`` sets its
    option."""
    kw = dict(n=200, seed=4, progress=False, policy="brawler")
    base = duel("Tankerous", "Zippinchill", **kw).counters
    assert not base[S.C_TACTICS :].any()
    on = duel("Tankerous", "Zippinchill", rules=TAC, **kw).counters
    assert on[S.C_TACTICS : S.C_TACTICS + 108].sum() == on[S.C_ENGAGES] > 0
    opt = prepare("Ozonic", "Reaper", rules={**TAC, "lords.defend_win": "no-turn"})["options"]
    assert opt[S.OPT_TACTICS] == 1 and opt[S.OPT_DEFEND_NO_TURN] == 1
    assert prepare("Ozonic", "Reaper", rules="advanced+optional")["options"][S.OPT_TACTICS] == 1


def test_cli_odds_tactics(capsys):
    """``python -m dragonsim odds tactics A B [--json]``: the matrix, both mixtures and the
    value of ``odds.tactics``; an unknown dragon is one line and exit 2."""
    assert main(["odds", "tactics", "Ozonic", "Fiercival", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    ex = odds.tactics("Ozonic", "Fiercival")
    assert d["payoff"] == ex["payoff"] and d["value"] == ex["value"]
    assert abs(sum(d["attacker_mixture"]) - 1) < 1e-9
    assert main(["odds", "tactics", "Ozonic", "Fiercival"]) == 0
    out = capsys.readouterr().out
    assert "value to Ozonic" in out and "Tail Swing" in out
    assert main(["odds", "tactics", "Ozonic", "Nope"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
