"""Kernel counts against exact answers (dragonsim.dice.odds), with tolerances from the sample
size: each check is an exact binomial test at alpha = 1e-6 (dragonsim.stats)."""

import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from dragonsim.dice import attack, duel
from dragonsim.dice import data as D
from dragonsim.dice import kernel as K
from dragonsim.dice.api import Options, build_army
from dragonsim.dice.odds import exact_attack, exact_duel_round, exact_game, tail_chain
from dragonsim.runner import run_blocks
from dragonsim.stats import binomial_consistent, z_for

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from dice_floor import dragon_roll_kernel  # noqa: E402

N = 100_000


def test_tail_chain_exact_by_hand():
    """Tail: 'This continues until something other than a tail icon comes up.' Wyrm: 3 tails
    of 12, so P(tail) = 1/4 and the final icon has the other 9 faces."""
    tc = tail_chain(D.DRAGON_DICE["wyrm"].faces)
    assert tc["p_tail"] == Fraction(1, 4)
    assert tc["final"] == {
        "belly": Fraction(2, 9),
        "breath": Fraction(1, 9),
        "claw": Fraction(4, 9),
        "jaws": Fraction(1, 9),
        "treasure": Fraction(1, 9),
    }
    tc = tail_chain(D.DRAGON_DICE["drake"].faces)
    assert tc["p_tail"] == Fraction(1, 6)
    assert tc["final"]["wing"] == Fraction(2, 10)


@pytest.mark.parametrize("variant", ["wyrm", "drake"])
def test_kernel_tail_chain_matches_exact(variant):
    """The kernel's dragon roll: P(k tails then icon f) = p_tail**k * P(f)."""
    die = D.DRAGON_DICE[variant]
    faces = np.array(die.icon_codes(), np.int64)
    m = 6
    out = run_blocks(dragon_roll_kernel, N, 5, (faces, m), progress=False).counters
    tc = tail_chain(die.faces)
    for f, pf in tc["final"].items():
        code = D.DRAGON_ICONS.index(f)
        for k in range(m + 1):
            p = tc["p_tail"] ** k * pf * (1 - tc["p_tail"] if k < m else 1)
            assert binomial_consistent(int(out[k * 7 + code]), N, float(p)), (f, k)
    assert out.sum() == N


def test_exact_attack_by_hand():
    """Claws 5 on units that cannot save: P(lost 5) = P(no tail, claw) = 3/4 * 4/9."""
    cat = D.Catalog()
    cat.units["blank"] = D.make_unit("blank", race="t", health=1, faces=["Maneuver 1"] * 6)
    e = exact_attack("black-wyrm", {"blank": 12}, catalog=cat)
    lost = e.lost()
    assert lost[5] == Fraction(3, 4) * Fraction(4, 9)
    # nothing lost: no tail and belly, treasure or (harmless) black breath
    assert lost[0] == Fraction(3, 4) * Fraction(4, 9)
    assert lost[3] == Fraction(1, 4) * Fraction(3, 4) * Fraction(4, 9)  # tail then not-damage
    assert sum(e.dist.values()) == 1


def _check(res, ex):
    n = res.n
    assert binomial_consistent(int(res.counters[K.C_ANY_SLAIN]), n, float(ex.p_dragon_slain))
    assert binomial_consistent(int(res.counters[K.C_DESTROYED]), n, float(ex.p_army_destroyed))
    assert binomial_consistent(int(res.counters[K.C_PROMO_ANY]), n, float(ex.p_any_promotion))
    h = res.lost_hist
    lost = ex.lost()
    for v in range(h.size):
        assert binomial_consistent(int(h[v]), n, float(lost.get(v, 0))), ("lost", v)
    promo = ex.promotions()
    mean_p = sum(k * p for k, p in promo.items())
    m, lo, hi = res.promotions
    half = (hi - lo) / 2 / z_for(0.95) * z_for(1 - 1e-6)  # normal tolerance, alpha 1e-6
    assert abs(m - float(mean_p)) <= half + 1e-12


SMALL = {"goblin-thug": 2, "goblin-pelter": 2, "goblin-slingman": 1}


@pytest.mark.parametrize("dragon", list(D.dragons()))
def test_single_attack_matches_exact_every_dragon(dragon):
    """Every colour's breath and both variants against a small goblin army."""
    ex = exact_attack(dragon, SMALL)
    assert sum(ex.dist.values()) == 1
    _check(attack(dragon, SMALL, n=N, seed=3, progress=False), ex)


@pytest.mark.parametrize(
    "dragon,army,kw",
    [
        ("red-wyrm", {"coral-elf-fighter": 5, "coral-elf-bowman": 3}, {}),
        ("green-drake", {"dwarf-footman": 4, "dwarf-marksman": 2}, {"id_split": "save-first"}),
        ("red-drake", {"lava-elf-bladesman": 3, "lava-elf-duelist": 2}, {"policy": "largest"}),
        ("gold-wyrm", {"goblin-thug": 3, "blue-dragonkin-common": 2}, {"policy": "kin-first"}),
        ("black-wyrm", {"goblin-thug": 4, "black-dragonkin-uncommon": 1}, {}),
        ("blue-wyrm", {"goblin-thug": 3, "red-dragonkin-common": 2}, {}),
        (
            "red-wyrm",
            {"goblin-thug": 4, "goblin-pelter": 2},
            {"promotion_supply": "dead-area", "dead_area": {"goblin-slingman": 1}},
        ),
        (
            "red-drake",
            {"goblin-slingman": 2, "dwarf-marksman": 2, "goblin-thug": 1},
            {"partial_damage": "round-up"},
        ),
    ],
)
def test_single_attack_matches_exact_options(dragon, army, kw):
    """ID split, casualty policies, dragonkin (armor, belly, same colour) and the dead-area
    promotion supply, each against the exact enumeration."""
    ex = exact_attack(dragon, army, **kw)
    _check(attack(dragon, army, n=N, seed=4, progress=False, **kw), ex)


@pytest.mark.parametrize(
    "a,b", [("red-wyrm", "blue-drake"), ("gold-drake", "green-wyrm"), ("black-wyrm", "blue-drake")]
)
def test_duel_round_matches_exact(a, b):
    """Dragon vs dragon, one round: 'All dragons are rolled simultaneously and the results
    are applied. Any breaths rolled negate the 5 automatic saves'."""
    ex = exact_duel_round(a, b)
    r = duel(a, b, n=N, seed=6, turns=1, progress=False)
    c = r.counters
    for key, idx in (
        ("a_slain", K.V_A_ANY_SLAIN),
        ("b_slain", K.V_B_ANY_SLAIN),
        ("both_slain", K.V_BOTH_ANY_SLAIN),
        ("a_wins", K.V_A_WINS),
        ("b_wins", K.V_B_WINS),
        ("both_gone", K.V_BOTH_GONE),
        ("neither_gone", K.V_TIMEOUT),
    ):
        assert binomial_consistent(int(c[idx]), N, float(ex[key])), key


def test_results_do_not_depend_on_threads_or_blocks():
    """Per-game streams: the same counters for any block size and thread count."""
    r1 = attack("red-wyrm", "goblin-horde", n=20_000, seed=9, turns=3, progress=False, threads=1)
    r2 = attack("red-wyrm", "goblin-horde", n=20_000, seed=9, turns=3, progress=False)
    assert np.array_equal(r1.counters, r2.counters)
    a = K.army_kernel  # split by hand into two blocks
    cat = D.Catalog()
    arr = build_army(D.parse_army("goblin-horde"), cat, colour=D.RED)
    args = arr.kernel_args([cat.dragon("red-wyrm")], D.RED, Options.defaults(), 3)
    whole = a(0, 20_000, 9, *args)
    parts = a(0, 7_001, 9, *args) + a(7_001, 20_000, 9, *args)
    assert np.array_equal(whole, parts) and np.array_equal(whole, r1.counters)


@pytest.mark.parametrize(
    "dragon,army,turns,kw",
    [
        ("red-drake", {"goblin-thug": 3, "goblin-pelter": 2}, 3, {}),
        (
            "gold-wyrm",
            {"dwarf-footman": 2, "dwarf-crossbowman": 2, "blue-dragonkin-common": 1},
            3,
            {"policy": "kin-first"},
        ),
        (
            "black-drake",
            {"goblin-thug": 3, "goblin-slingman": 1},
            3,
            {"promotion_supply": "dead-area"},
        ),
    ],
)
def test_multi_turn_survival_matches_exact_markov_chain(dragon, army, turns, kw):
    """'Whenever a single dragon and an army are at the same terrain, a dragon attack occurs':
    turn after turn until the dragon is slain or flies away or the army is gone; per-turn
    survival, health lost and promotions against an exact Markov chain over army states."""
    g = exact_game(dragon, army, turns=turns, **kw)
    r = attack(dragon, army, n=N, seed=8, turns=turns, progress=False, **kw)
    lay = K.army_layout(r.hcap, turns)
    c = r.counters
    for t in range(1, turns + 1):
        assert binomial_consistent(int(c[lay["first_slain_at"]][t]), N, float(g.slain_at[t]))
        assert binomial_consistent(int(c[lay["army_gone_at"]][t]), N, float(g.destroyed_at[t]))
        assert binomial_consistent(int(c[lay["dragons_gone_at"]][t]), N, float(g.gone_at[t]))
    assert binomial_consistent(int(c[K.C_FLEW]), N, float(g.p_flew))
    assert binomial_consistent(int(c[K.C_TIMEOUT]), N, float(g.still_fighting))
    h = r.lost_hist
    for v in range(h.size):
        assert binomial_consistent(int(h[v]), N, float(g.lost.get(v, 0))), v
    assert binomial_consistent(int(c[K.C_PROMO_ANY]), N, float(1 - g.promotions.get(0, 0)))
