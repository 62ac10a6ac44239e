"""The Wizard and its spells (Dragon Lords rulebook, p.18 and the Wizard's Spellbook, pp. 24-25).

"Each Wizard begins the game with 60 magic points"; "Wizards must also record on their
player's game log which spell they will cast during the upcoming rider actions phase" (p.15);
"To cast a spell, the Wizard must roll to hit just like the other riders ... even to cast a
spell on their own dragons or allied dragons"; "the Wizard must simply roll a 7 or more to
cast a spell on its own dragon"; "immediately deduct the cost of the spell"; "If there aren't
enough spell points, the spell cannot be cast"; "A Wizard can only try to cast one spell each
turn. If a Wizard misses a target when rolling to hit, the spell fails and the points are
lost" (p.18); "Once cast, each spell lasts until the beginning of the next rider actions
phase" (p.24). One switch, ``lords.advanced.wizard`` (in ``advanced+optional``), the reading
``lords.dull_floor``, and the run option ``spells`` (bot, never, random).
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import lords_reference as ref
import numpy as np
import pytest

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords import engine as E
from dragonsim.lords.api import duel, prepare
from dragonsim.lords.bots import POLICIES
from dragonsim.lords.game import mechanics as M
from dragonsim.lords.game import odds
from dragonsim.lords.game import state as S
from dragonsim.lords.game.sheets import sheet
from dragonsim.lords.game.tables import S_BASE_TO_HIT
from dragonsim.lords.views.script import play_script
from dragonsim.rules import lords_rules, presets
from dragonsim.rules.lords import SPELLS
from dragonsim.stats import binomial_consistent

ALPHA = 1e-6
OPTIONAL = lords_rules(preset="advanced+optional")
WIZARD = {"lords.advanced.wizard": True}
MOVE = {"speed": 6, "path": "6F"}


def p_roll_hits(tn: int) -> Fraction:
    """P(2d6 hits ``tn``): "A roll of 2 always misses, and a roll of 12 always hits" (p.10),
    which a spell's roll shares ("just like the other riders", p.18), over the 36 faces."""
    faces = [a + b for a, b in product(range(1, 7), repeat=2)]
    return Fraction(sum(s != 2 and (s == 12 or s >= tn) for s in faces), 36)


def _script(first: str, second: str, turns, rules=None):
    """``first`` at [5, 10] and ``second`` three hexes ahead at [8, 10], both facing E at
    Medium and flying 6 hexes a turn unless a turn says otherwise: the distance stays 3."""
    return {
        "title": "spells",
        "rules": {**WIZARD, **(rules or {})},
        "dragons": [
            {"dragon": first, "hex": [5, 10], "facing": "E", "altitude": "Medium"},
            {"dragon": second, "hex": [8, 10], "facing": "E", "altitude": "Medium"},
        ],
        "turns": [
            {"dice": d, "moves": {first: dict(MOVE, **a), second: dict(MOVE, **b)}}
            for d, a, b in turns
        ],
    }


def _spells(rep):
    return [e for e in rep.events if e["event"] == "spell"]


# ---- the to-hit number -----------------------------------------------------------------------
def test_spell_target_number_is_the_odds_number():
    """The engine's number for each spell at every distance of its reach and altitude
    difference is ``odds.spell``'s (the rider's to-hit with the spell's medium and long range,
    the Spellbook p.25); on its own dragon 7 ("roll a 7 or more", p.18), beyond the long
    range none."""
    rows, _, opt, tb, _, _ = prepare("Slash", "Reaper", rules=OPTIONAL)["args"]
    ds = np.zeros((2, S.NF), np.int64)
    E.init_dragons(ds, rows, tb, opt)
    ds[:, S.F_Q], ds[:, S.F_R] = (10, 10), (10, 10)
    base = tb.scalars[S_BASE_TO_HIT]
    assert ds[0, S.F_MAGIC] == 60 and ds[1, S.F_MAGIC] == 0  # "60 magic points" (p.18)
    for k, name in enumerate(SPELLS):
        far = int(tb.spells[k, 2])
        for dist, steps in product(range(1, far + 2), range(5)):
            ds[1, S.F_Q] = 10 + dist
            ds[0, S.F_ALT], ds[1, S.F_ALT] = 5, 5 - steps
            tn, band = M.spell_target_number(ds, 0, 1, k, base, tb.alt_mod, tb.spells, tb.scalars)
            if dist > far:
                assert (tn, band) == (-1, -1)
                continue
            want = odds.spell("Slash", "Reaper", name, distance=dist, altitude_steps=steps)
            assert tn == want["target_number"] and ("medium", "long")[band] == want["band"]
        tn, band = M.spell_target_number(ds, 0, 0, k, base, tb.alt_mod, tb.spells, tb.scalars)
        assert (tn, band) == (7, 2)


def test_spell_targets():
    """Its own dragon and allies may be targets ("even ... on their own dragons or allied
    dragons", p.18), an enemy as for a rider's attack; Fireball is tossed "at an opponent"
    (p.24), Lightning Bolt likewise."""
    rows, _, opt, tb, _, _ = prepare("Slash", "Reaper", rules=OPTIONAL)["args"]
    ds = np.zeros((3, S.NF), np.int64)
    ds[:, S.F_ALIVE], ds[:, S.F_ENG], ds[:, S.F_TEAM] = 1, -1, (0, 1, 0)
    fire, bolt, heal = (SPELLS.index(s) for s in ("Fireball", "Lightning Bolt", "Heal"))
    assert M.may_cast_at(ds, 0, 1, fire, opt) and M.may_cast_at(ds, 0, 1, bolt, opt)
    assert not M.may_cast_at(ds, 0, 0, fire, opt) and not M.may_cast_at(ds, 0, 2, bolt, opt)
    assert M.may_cast_at(ds, 0, 0, heal, opt) and M.may_cast_at(ds, 0, 2, heal, opt)
    ds[1, S.F_ENG] = 2  # engaged with another dragon: out of reach (p.10)
    assert not M.may_cast_at(ds, 0, 1, fire, opt)
    ds[1, S.F_ALIVE] = 0
    assert not M.may_cast_at(ds, 0, 1, heal, opt)


def test_dull_and_sharpen_steps():
    """Dull: "Sharp claws will do damage like Blunt claws. No sharpness rating may be forced
    below Dull" (the reading lords.dull_floor: Dull by default, Blunt the other); Sharpen:
    "Teeth and claws may never be sharper than Razor Sharp" (p.25). Steps 0 Blunt .. 4 Razor."""
    assert [M.spell_claws(c, -1, 1) for c in range(5)] == [0, 1, 1, 2, 3]
    assert [M.spell_claws(c, -1, 0) for c in range(5)] == [0, 0, 1, 2, 3]
    assert [M.spell_claws(c, 1, 1) for c in range(5)] == [1, 2, 3, 4, 4]
    assert M.spell_claws(4, -2, 1) == 2 and M.spell_claws(2, -2, 1) == 1


# ---- scripted games: each rule's sentence ----------------------------------------------------
def test_fireball_the_points_and_a_miss():
    """Slash's Wizard three hexes behind Reaper: Fireball (1 point, long range at 3 hexes)
    hits on a 12 and "inflicting 1d6+3 points of damage ... Resolve damage as for a breath
    attack" (the location roll, then 1d6: 4 + 3); next turn a 2 misses and "the points are
    lost"; then Force Shield on its own dragon misses on a 6 and hits on a 7 ("roll a 7 or
    more"). The points go 59, 58, 55, 52, and each spell is recorded before it is cast."""
    turns = [
        ([5, 9, 12, 8, 4], {"spell": "Fireball", "spell_target": "Reaper"}, {}),
        ([5, 9, 2], {"spell": "fireball", "spell_target": "Reaper"}, {}),
        ([5, 9, 6], {"spell": "Force Shield", "spell_target": "Slash"}, {}),
        ([5, 9, 7], {"spell": "Force Shield", "spell_target": "Slash"}, {}),
    ]
    rep = play_script(_script("Slash", "Reaper", turns))
    casts = _spells(rep)
    assert [e["hit"] for e in casts] == [True, False, False, True]
    assert [e["magic_left"] for e in casts] == [59, 58, 55, 52]
    far = odds.spell("Slash", "Reaper", "Fireball", distance=3)
    assert casts[0]["target_number"] == far["target_number"] and casts[0]["band"] == "long"
    assert casts[0]["dice_roll"] == 4 and casts[0]["effect"] == 7
    assert [e["target_number"] for e in casts[2:]] == [7, 7]
    assert rep.damage_dealt == [7, 0]
    kinds = [e["event"] for e in rep.events if e["turn"] == 1]
    assert kinds.index("spell recorded") < kinds.index("spell")
    whats = [r["what"] for r in rep.forced if r["turn"] == 1]
    assert whats[2:] == [
        "Fireball hit roll (2d6) at Reaper",
        "location roll (2d6)",
        "Fireball damage roll (1d6, p.24)",
    ]
    assert "Slash's Wizard casts Fireball at Reaper (range 3, long)" in rep.text()
    assert (
        ref.check_events(rep.log, [sheet("Slash"), sheet("Reaper")], _tables(), rules=_wr()) == []
    )


def _wr():
    return lords_rules(WIZARD)


def _tables():
    return prepare("Slash", "Reaper", rules=_wr())["tables"]


def test_force_shield_absorbs_until_the_next_rider_phase_and_heal_restores():
    """Reaper three hexes behind Slash breathes at it (Magma 4d6). Turn 1 Slash's Force
    Shield on itself (7) absorbs the 6 points ("absorb 10 points of damage ... before it
    fails", p.24); turn 2 the 6 points go through: the shield lasted only "until the
    beginning of the next rider actions phase". Turn 3 Heal on itself (7, then 1d6 = 2):
    "restores 1d6+3 damage points", 5 of the 6."""
    breath = {"target": "Slash"}
    turns = [
        ([5, 9, 7, 12, 8, 6], breath, {"spell": "Force Shield", "spell_target": "Slash"}),
        ([5, 9, 12, 8, 6], breath, {}),
        ([5, 9, 7, 2], {}, {"spell": "Heal", "spell_target": "Slash"}),
    ]
    rep = play_script(_script("Reaper", "Slash", turns))
    b = [e for e in rep.events if e["event"] == "breath"]
    assert [e["points_lost"] for e in b] == [0, 6]
    (heal,) = [e for e in _spells(rep) if e["spell"] == "Heal"]
    assert heal["hit"] and heal["dice_roll"] == 2 and heal["effect"] == 5
    assert rep.damage_dealt == [6, 0]
    s = sheet("Slash")
    assert ref.check_events(rep.log, [sheet("Reaper"), s], _tables(), rules=_wr()) == []
    assert "heals: roll 2, 5 points restored" in rep.text()


def test_saddlesore_takes_the_next_action():
    """ "The rider affected by this spell may do nothing during its next action phase. If the
    rider has not yet performed its action this turn, it loses it. If the rider has already
    performed an action this turn, it loses its action next turn instead" (p.25): turn 1
    Slash acts first, Stalwyrm's Fireball is lost that turn; turn 2 Stalwyrm acts first (a
    miss), so Slash's Saddlesore takes its turn-3 Fireball. Stalwyrm spends 1 point in all."""
    fire = {"spell": "Fireball", "spell_target": "Slash"}
    sore = {"spell": "Saddlesore", "spell_target": "Stalwyrm"}
    turns = [([5, 9, 12], sore, fire), ([9, 5, 2, 12], sore, fire), ([5, 9], {}, fire)]
    rep = play_script(_script("Slash", "Stalwyrm", turns))
    lost = [(e["turn"], e["dragon"]) for e in _spells(rep) if e.get("saddlesore")]
    assert lost == [(1, "Stalwyrm"), (3, "Stalwyrm")]
    cast = [e for e in _spells(rep) if e["dragon"] == "Stalwyrm" and "hit" in e]
    assert [(e["turn"], e["magic_left"]) for e in cast] == [(2, 59)]
    rows = prepare("Slash", "Stalwyrm", rules=_wr())
    v = ref.check_log(rep.log, 2, rows["args"][0], rows["tables"], options=rows["options"])
    assert v == []


def test_distort_range_and_spin():
    """Distort Range on Reaper, "farther": its breath at Slash three hexes away (Medium, +0)
    is rolled as at Long range (+1, p.11): "The affected dragon's to-hit roll is altered
    according to its new perception of reality" (p.24). Spin turns Reaper 120 degrees
    ("enables the wizard to turn the target up to 120", p.25): it then faces NW."""
    breath = {"target": "Slash"}
    plain = play_script(_script("Reaper", "Slash", [([5, 9, 2], breath, {})]))
    dist = {"spell": "Distort Range", "spell_target": "Reaper", "spell_arg": "farther"}
    spin = {"spell": "Spin", "spell_target": "Reaper", "spell_arg": 120}
    rep = play_script(
        _script("Reaper", "Slash", [([5, 9, 12, 2], breath, dist), ([5, 9, 12], {}, spin)])
    )
    (b0,) = [e["target_number"] for e in plain.events if e["event"] == "breath"]
    (b1,) = [e["target_number"] for e in rep.events if e["event"] == "breath"]
    assert b1 == b0 + 1
    end = rep.log[-1, S.L_SNAP : S.L_SNAP + S.N_SNAP]
    assert end[2] == 2  # E (0) turned 120 degrees to the left: NW
    s = [sheet("Reaper"), sheet("Slash")]
    assert ref.check_events(rep.log, s, _tables(), rules=_wr()) == []


def test_quicken_slow_and_lethargy():
    """Quicken on its own dragon: "record a speed 5 points greater than its previous turn's
    speed" (6 + 5 = 11); Slow on Reaper: "only up to 2 greater than its minimum speed" (5 +
    2); Lethargy on Reaper: "drop two maneuverability steps during the next movement phase"
    (E to G), and back to E after it (p.25)."""
    turns = [
        ([5, 9, 7], {"spell": "Quicken", "spell_target": "Slash"}, {}),
        ([5, 9, 12], {"speed": 11, "path": "11F", "spell": "Slow", "spell_target": "Reaper"}, {}),
        ([5, 9, 12], {"spell": "Lethargy", "spell_target": "Reaper"}, {}),
        ([5, 9], {"speed": 4, "path": "4F"}, {"speed": 5, "path": "5F"}),
    ]
    rep = play_script(_script("Slash", "Reaper", turns))
    sp = {(e["turn"], e["dragon"]): e for e in rep.events if e["event"] == "speed"}
    assert sp[(2, "Slash")]["allowed"] == [3, 11] and sp[(1, "Slash")]["allowed"][1] == 13
    assert sp[(3, "Reaper")]["allowed"] == [5, 7] and sp[(4, "Reaper")]["allowed"][1] == 9
    mv = {(e["turn"], e["dragon"]): e["mr"] for e in rep.events if e["event"] == "move"}
    assert mv[(3, "Reaper")] == "E" and mv[(4, "Reaper")] == "G"
    rows = prepare("Slash", "Reaper", rules=_wr())
    assert ref.check_log(rep.log, 2, rows["args"][0], rows["tables"], options=rows["options"]) == []
    bad = _script("Slash", "Reaper", turns[:1] + [([5, 9], {"speed": 12, "path": "12F"}, {})])
    with pytest.raises(UserError, match="speed 12 is not allowed; it may record 3..11"):
        play_script(bad)


def test_script_spell_errors_are_one_line():
    """A spell the rules refuse is one clear line: no Wizard, an opponent-only spell at its
    own dragon, beyond the long range, a bad argument, an unknown name."""
    cases = [
        ("Reaper", {"spell": "Heal", "spell_target": "Reaper"}, "has no Wizard"),
        ("Slash", {"spell": "Fireball", "spell_target": "Slash"}, "cast at an opponent"),
        ("Slash", {"spell": "Spin", "spell_target": "Reaper", "spell_arg": 90}, "-120, -60"),
        ("Slash", {"spell": "Fireball"}, "needs its 'spell_target'"),
        ("Slash", {"spell": "Frogify", "spell_target": "Reaper"}, "spell"),
    ]
    for who, spell, msg in cases:
        other = "Slash" if who == "Reaper" else "Reaper"
        with pytest.raises(UserError, match=msg):
            play_script(_script(who, other, [([5, 9], spell, {})]))
    spec = _script(
        "Slash", "Stalwyrm", [([5, 9], {"spell": "Heal", "spell_target": "Stalwyrm"}, {})]
    )
    spec["dragons"][1]["hex"] = [9, 10]  # 4 hexes after the moves: beyond Heal's long range 3
    with pytest.raises(UserError, match="beyond Heal's long range"):
        play_script(spec)


# ---- Monte Carlo: hit rates and the effects' dice ----------------------------------------------
@pytest.fixture(scope="module")
def field():
    """Slash against Stalwyrm (both Wizards) under advanced+optional, random bots and random
    spells: every spell at every range."""
    return duel(
        "Slash",
        "Stalwyrm",
        n=700,
        seed=11,
        progress=False,
        policy="random",
        spells="random",
        rules=OPTIONAL,
    ).counters


def test_spell_hit_rates_match_the_exact_odds(field):
    """At each target number the casts that hit are the exact 2d6 chance (p.10, 18; alpha
    1e-6), and on its own dragon 21/36 ("a 7 or more")."""
    tries = field[S.C_SPELL_TN_TRIES : S.C_SPELL_TN_TRIES + S.N_TN]
    hits = field[S.C_SPELL_TN_HITS : S.C_SPELL_TN_HITS + S.N_TN]
    assert tries.sum() > 1000 and tries.sum() == field[S.C_SPELLS : S.C_SPELLS + 13].sum()
    for tn in np.nonzero(tries)[0]:
        assert binomial_consistent(int(hits[tn]), int(tries[tn]), float(p_roll_hits(tn)), ALPHA)
    n_self, h_self = int(field[S.C_SPELL_SELF]), int(field[S.C_SPELL_SELF_HITS])
    assert n_self > 100
    assert binomial_consistent(h_self, n_self, float(odds.spell_on_own_dragon()), ALPHA)


def test_the_spells_dice_are_fair_and_the_points_add_up(field):
    """Fireball's, Lightning Bolt's and Heal's d6 each face 1/6 (alpha 1e-6); the points
    spent are each cast's cost (a miss's too)."""
    from dragonsim.lords.game.tables import kernel_tables

    d6 = field[S.C_SPELL_D6 : S.C_SPELL_D6 + 18].reshape(3, 6)
    for row in d6:
        assert row.sum() > 60
        for face in row:
            assert binomial_consistent(int(face), int(row.sum()), 1 / 6, ALPHA)
    costs = kernel_tables(OPTIONAL).spells[:, 0]
    assert field[S.C_SPELL_POINTS] == int(costs @ field[S.C_SPELLS : S.C_SPELLS + 13])
    fire = SPELLS.index("Fireball")
    assert field[S.C_SPELL_FX + fire] <= 9 * field[S.C_SPELL_HITS + fire]
    assert all(field[S.C_SPELL_HITS + k] > 0 for k in range(13))


def test_the_wizard_switch_alone():
    """With ``lords.advanced.wizard`` off a Wizard only rides: no spell is recorded or cast
    and every spell counter (``C_SPELLS`` .. ``C_SORE_LOST``) is 0; on, Slash casts."""
    no_spells = {**presets("lords")["advanced"], "lords.advanced.wizard": False}
    off = duel("Slash", "Reaper", n=50, seed=2, progress=False, rules=no_spells).counters
    assert not off[S.C_SPELLS : S.C_SORE_LOST + 1].any()
    on = duel("Slash", "Reaper", n=50, seed=2, progress=False, rules=OPTIONAL).counters
    assert on[S.C_SPELLS : S.C_SPELLS + 13].sum() > 0
    never = duel(
        "Slash", "Reaper", n=50, seed=2, progress=False, rules=OPTIONAL, spells="never"
    ).counters
    assert not never[S.C_SPELLS : S.C_SORE_LOST + 1].any()
    with pytest.raises(UserError, match="spells must be one of bot, never, random"):
        duel("Slash", "Reaper", n=5, spells="sometimes")


def test_the_bot_policy_beats_never_and_random():
    """The spell bot's Slash wins more against Reaper than the same Slash never casting or
    casting at random (common seeds; the 95% intervals apart)."""
    from dragonsim.stats import wilson

    got = {}
    for pol in ("bot", "never", "random"):
        r = duel("Slash", "Reaper", n=300, seed=5, progress=False, rules=OPTIONAL, spells=pol)
        got[pol] = wilson(r.wins_a, r.n)
    assert got["bot"][0] > max(got["never"][1], got["random"][1])


@pytest.mark.parametrize("pol", [p for p in POLICIES if not p.startswith("search")])
def test_every_bot_plays_the_spells_legally(pol):
    """The independent checker finds no illegal step in games of every bot (with each spell
    policy) under advanced+optional between Wizards: the points, one spell a turn recorded
    before any rider acts, each cast's number and effect, the shields, Saddlesore, Quicken
    and Slow in the speeds."""
    for k, spells in enumerate(("bot", "random")):
        prep = prepare("Slash", "Stalwyrm", policies=(pol, "random"), rules=OPTIONAL, spells=spells)
        rows, tb = prep["args"][0], prep["tables"]
        for game in range(2):
            cnt, log = E.logged_game(game, 60 + k, *prep["args"], 5000)
            v = ref.check_log(log, 2, rows, tb, options=prep["options"])
            v += ref.check_events(log, [sheet("Slash"), sheet("Stalwyrm")], tb, cnt, rules=OPTIONAL)
            assert v == [], (pol, spells, game, v[:3])
            assert (log[:, S.L_KIND] == S.K_SPELL).any()


def test_the_checker_refuses_a_tampered_spell():
    """A log whose Fireball takes no magic point, or whose Heal restores more than it rolled,
    is refused."""
    prep = prepare("Slash", "Stalwyrm", policies=("random", "random"), rules=OPTIONAL)
    prep["args"][2][S.OPT_SPELL_POLICY] = S.SP_RANDOM
    rows, tb = prep["args"][0], prep["tables"]
    cnt, log = E.logged_game(1, 61, *prep["args"], 5000)
    sheets = [sheet("Slash"), sheet("Stalwyrm")]
    assert ref.check_log(log, 2, rows, tb, options=prep["options"]) == []
    casts = np.nonzero((log[:, S.L_KIND] == S.K_SPELL) & (log[:, S.L_A] >= 0))[0]
    bad = log.copy()
    bad[casts[0], S.L_A + 6] += 1
    assert any(v.kind == "spell" for v in ref.check_log(bad, 2, rows, tb, options=prep["options"]))
    heals = [
        r
        for r in casts
        if log[r, S.L_A] == SPELLS.index("Heal") and log[r, S.L_A + 3] == 1 and log[r, S.L_A + 7]
    ]
    if heals:
        bad = log.copy()
        bad[heals[0], S.L_A + 7] += 1
        assert ref.check_events(bad, sheets, tb, rules=OPTIONAL) != []


def test_the_checker_flies_lethargy_and_vigor_at_their_rating():
    """Lethargy "causes the target to drop two maneuverability steps during the next
    movement phase", Vigor raises it two (p.25): the checker holds every move to its
    dragon's rating with them, and refuses a move after a Lethargy or Vigor logged at the
    rating the dragon had without it."""
    prep = prepare("Slash", "Stalwyrm", policies=("random", "random"), rules=OPTIONAL)
    prep["args"][2][S.OPT_SPELL_POLICY] = S.SP_RANDOM
    tb = prep["tables"]
    sheets = [sheet("Slash"), sheet("Stalwyrm")]
    mr_spells = (SPELLS.index("Lethargy"), SPELLS.index("Vigor"))
    found = 0
    for game in range(40):
        cnt, log = E.logged_game(game, 71, *prep["args"], 5000)
        assert ref.check_events(log, sheets, tb, cnt, rules=OPTIONAL) == []
        kind = log[:, S.L_KIND]
        for r in np.nonzero((kind == S.K_SPELL) & np.isin(log[:, S.L_A], mr_spells))[0]:
            if log[r, S.L_A + 3] != 1:
                continue
            t, turn = log[r, S.L_J], log[r, S.L_TURN]
            moves = (kind == S.K_MOVE) & (log[:, S.L_I] == t) & (log[:, S.L_A + 6] != S.MK_GROUND)
            before = np.nonzero(moves & (log[:, S.L_TURN] == turn))[0]
            after = np.nonzero(moves & (log[:, S.L_TURN] == turn + 1))[0]
            if not len(before) or not len(after):
                continue
            own, spelled = log[before[0], S.L_A + 1], log[after[0], S.L_A + 1]
            if own == spelled:
                continue  # at A or I already, or the dragon hurt in between (turns on the
                # ground are free, p.17: not a rating's moves)
            bad = log.copy()
            bad[after[0], S.L_A + 1] = own
            v = ref.check_events(bad, sheets, tb, rules=OPTIONAL)
            assert any(x.kind == "move" and "MR" in x.why for x in v), v[:3]
            found += 1
        if found >= 2:
            break
    assert found >= 2


def test_duel_spells_from_the_command_line(capsys):
    """``duel Slash Reaper --rules advanced+optional --spells never --json``: the manifest
    records the Wizard switch and the spell policy."""
    argv = ["duel", "Slash", "Reaper", "-n", "50", "--rules", "advanced+optional"]
    assert main([*argv, "--spells", "never", "--json"]) == 0
    opts = json.loads(capsys.readouterr().out)["manifest"]["options"]
    assert opts["wizard"] and opts["spells"] == "never" and not opts["dull_to_blunt"]
    with pytest.raises(SystemExit) as e:
        main([*argv, "--spells", "often"])
    assert e.value.code == 2
