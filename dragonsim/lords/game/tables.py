"""Dragon Lords rules -> plain int64 arrays for numba kernels.

Kernels never read rules globals (numba would freeze them at compile time): everything a study
may vary travels as one of these arrays. Indices follow :mod:`dragonsim.rules.lords`:
body 0..4 Very Light..Very Heavy, wings 0..4 Tiny..Huge, breath/claws steps 0..4,
rider 0..5 None, Lancer, Javelin Thrower, Archer, Crossbow Shooter, Wizard,
MR 0..8 = A..I, parts 0..4 head, body, tail, left wing, right wing,
directions 0..5 F, FR, RR, R, RL, FL, altitude 0 Ground .. 5 Very High.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...rules import RuleSet, lords_rules
from ...rules.lords import BODIES, MRS, PART_CODES, RIDERS, SPELLS, TACTICS, WINGS
from .state import CRITICAL_EFFECTS

# indices into KernelTables.scalars
S_BASE_TO_HIT = 0
S_AUTO_MISS = 1
S_AUTO_HIT = 2
S_MAX_RANGE = 3
S_ACCEL = 4
S_STREAK_THRESHOLD = 5
S_STREAK_MAX_TURNS = 6
S_COOLDOWN_FACTOR = 7
S_BOARD_WIDTH = 8
S_BOARD_DEPTH = 9
S_HEAD_POINTS = 10
S_TAIL_POINTS = 11
S_CC_SPEED_LOSS = 12
S_CC_SELF_DAMAGE_DICE = 13
S_LANCER_CC = 14
S_LANCER_DAMAGE = 15
S_CC_ALTITUDE_DROP = 16
S_MOVE_FORWARD = 17
S_MOVE_CLIMB = 18
S_MOVE_DIVE = 19
S_SERIOUS_NUM = 20
S_SERIOUS_DEN = 21
S_BREATH_STEPS_LOST = 22
S_CLAW_STEPS_LOST = 23
S_SPEED_LOST_PER_WING = 24
S_MR_STEPS_LOST = 25
S_RIDER_HIT_ROLL = 26
S_ALTITUDE_LEVELS = 27
S_RIDER_MEDIUM_MOD = 28
S_RIDER_LONG_MOD = 29
S_ARC_DARK_DEG = 30
S_ARC_GREY_DEG = 31
S_ARC_LIGHT_DEG = 32
S_SELF_DAMAGE_POLICY = 33
# the ground (advanced rules, p.17; rule lords.ground)
S_GROUND_MOVE_DICE = 34  # a move on the ground: this many d6 ...
S_GROUND_MOVE_PLUS = 35  # ... plus this many hexes
S_TAKEOFF_MAX_SPEED = 36  # a take-off speed: no higher than this ...
S_TAKEOFF_OVER_MIN = 37  # ... and at least the minimum speed plus this
S_CRASH_DICE_PER_LEVEL = 38  # crash damage: d6 per altitude level fallen
S_RIDER_FALL_KILLS = 39  # a rider in a crash dies on a 1d6 of at most this
S_LANDING_COST = 40  # points a landing's last hex costs
S_RIDER_GROUND_MOD = 41  # a rider on a dragon on the ground (rule lords.rider_ground_attacker)
# the optional rules (pp. 19-20; rule lords.optional_combat)
S_CRIT_MAX_TARGET = 42  # a critical only at a modified to-hit number of at most this
S_BROKEN_LEGS = 43  # a broken leg that would make this many is rerolled
S_DAZED_INIT = 44  # added to a dazed dragon's initiative roll, once per daze
S_HIT_LIMIT = 45  # damaging breath attacks a dragon may suffer a turn
# close-combat tactics (optional rules, p.22; rule lords.tactic_uses)
S_TACTIC_USES = 46  # times each tactic may be used ...
S_TACTIC_RESET = 47  # ... until this many check marks in all, when all are erased
# the Wizard (advanced rules, p.18; rule lords.wizard); 48..51 are left free
S_MAGIC_POINTS = 52  # a Wizard's magic points at the start of a game
S_SELF_TARGET = 53  # the number to roll to cast a spell on its own dragon
# Quicken and Slow (p.25; rule lords.spell_effects), read by the speed limits
S_QUICKEN_OVER_LAST = 54
S_QUICKEN_ALLOWANCE = 55
S_QUICKEN_OVER_MAX = 56
S_SLOW_OVER_MIN = 57
N_SCALARS = 64  # (58..63 are left free)

#: indices into ``KernelTables.spell_fx`` (rule lords.spell_effects, pp. 24-25)
SPELL_FX_KEYS = (
    "fireball_dice",
    "fireball_plus",
    "bolt_dice",
    "bolt_plus",
    "shield",
    "heal_dice",
    "heal_plus",
    "mr_steps",
    "quicken_over_last",
    "quicken_allowance",
    "quicken_over_max",
    "slow_over_min",
    "spin_hexsides",
    "range_steps",
    "claw_steps",
)
(
    SX_FIREBALL_DICE,
    SX_FIREBALL_PLUS,
    SX_BOLT_DICE,
    SX_BOLT_PLUS,
    SX_SHIELD,
    SX_HEAL_DICE,
    SX_HEAL_PLUS,
    SX_MR_STEPS,
    SX_QUICKEN_OVER_LAST,
    SX_QUICKEN_ALLOWANCE,
    SX_QUICKEN_OVER_MAX,
    SX_SLOW_OVER_MIN,
    SX_SPIN_HEXSIDES,
    SX_RANGE_STEPS,
    SX_CLAW_STEPS,
) = range(15)

#: ``KernelTables.alt_mod`` holds the modifiers by altitude steps apart (0..5), then at this
#: index the grounded attacker's (rule lords.ground_attacker_mod, p.19)
ALT_MOD_GROUND = 6
#: the Damage Allocation Table's column a crash rolls on ("the Rear column", p.22)
SIDE_REAR = 3

SELF_DAMAGE_POLICIES = ("spread", "body", "largest")


class KernelTables(NamedTuple):
    """Plain arrays a kernel takes (all int64)."""

    turn_cost: np.ndarray  # [9, 4] cost to turn 0/60/120/180 deg, by MR
    mr_table: np.ndarray  # [5 body, 5 wings] -> MR index
    cc_by_mr: np.ndarray  # [9]
    init_mod: np.ndarray  # [9]
    weapon: np.ndarray  # [5, 2] (number of d6, plus) by step
    alloc: np.ndarray  # [13, 6] 2d6 x direction -> part; rows 0, 1 = -1
    wing_tohit: np.ndarray  # [5]
    body_tohit: np.ndarray  # [5]
    arc: np.ndarray  # [6] modifiers dark, grey, light; then their limits in degrees
    range_mod: np.ndarray  # [max_range + 1] by hex distance; index 0 = very short too
    alt_mod: np.ndarray  # [7] by altitude steps apart 0..5, then ALT_MOD_GROUND
    min_speed: np.ndarray  # [5] by body
    max_speed: np.ndarray  # [5] by wings
    dp_body: np.ndarray  # [5]
    dp_wing: np.ndarray  # [5]
    accel_wings: np.ndarray  # [5]
    tactics: np.ndarray  # [6, 6]
    rider_range: np.ndarray  # [6, 2] medium, long range (0: none)
    rider_dice: np.ndarray  # [6, 2, 2] [rider, medium/long, (d6, plus)]
    scalars: np.ndarray  # [N_SCALARS], see S_* constants
    critical: np.ndarray  # [13] 2d6 -> effect (state.CE_*); rows 0, 1 = CE_NONE
    fumble: np.ndarray  # [13, 2] 2d6 -> (d6 of damage, part); rows 0, 1 = (0, -1)
    spells: np.ndarray  # [13, 3] by spell (SPELLS order): cost, medium range, long range
    spell_fx: np.ndarray  # [15] the spells' numbers (SX_* indices)
    range_step: np.ndarray  # [len(range_mod)] the Range Key's step 0 Very Short..4 Very Long
    step_mod: np.ndarray  # [5] the range modifier by step (Distort Range)


def kernel_tables(rules: RuleSet | None = None) -> KernelTables:
    """Build the kernel arrays from the rules in force (defaults when ``rules`` is None)."""
    r = rules if rules is not None else lords_rules()
    i64 = np.int64

    tc = r.get("lords.turn_cost")
    turn_cost = np.array([[0, *tc[m]] for m in MRS], dtype=i64)
    mt = r.get("lords.maneuverability")
    mr_table = np.array([[MRS.index(mt[b][w]) for w in range(5)] for b in BODIES], dtype=i64)
    cc = r.get("lords.close_combat_modifier")
    im = r.get("lords.initiative_modifier")
    wd = r.get("lords.weapon_damage")
    weapon = np.array([wd[s] for s in range(5)], dtype=i64)
    da = r.get("lords.damage_allocation")
    alloc = np.full((13, 6), -1, dtype=i64)
    for roll in range(2, 13):
        alloc[roll] = [PART_CODES.index(c) for c in da[roll]]
    range_mod, range_step, step_mod = _range_tables(r)
    alt = r.get("lords.altitude_mod")
    # 5 steps apart (Very High over the ground) reads the last row; then the grounded attacker
    alt_mod = np.array([*alt, alt[-1], r.get("lords.ground_attacker_mod")], dtype=i64)
    dp = r.get("lords.damage_points")
    tac = r.get("lords.tactics")
    rider_range, rider_dice = _rider_tables(r)
    arc = r.get("lords.arc_degrees")
    sp = r.get("lords.spells")
    spells = np.array([sp[name] for name in SPELLS], dtype=i64)
    fx = r.get("lords.spell_effects")
    spell_fx = np.array([fx[k] for k in SPELL_FX_KEYS], dtype=i64)
    critical, fumble = _critical_tables(r)

    return KernelTables(
        turn_cost=turn_cost,
        mr_table=mr_table,
        cc_by_mr=np.array([cc[m] for m in MRS], dtype=i64),
        init_mod=np.array([im[m] for m in MRS], dtype=i64),
        weapon=weapon,
        alloc=alloc,
        wing_tohit=np.array([r.get("lords.wing_tohit")[w] for w in WINGS], dtype=i64),
        body_tohit=np.array([r.get("lords.body_tohit")[b] for b in BODIES], dtype=i64),
        arc=np.array(
            [r.get("lords.arc_mod")[a] for a in ("dark", "grey", "light")]
            + [arc[a] for a in ("dark", "grey", "light")],
            i64,
        ),
        range_mod=range_mod,
        alt_mod=alt_mod,
        min_speed=np.array([r.get("lords.min_speed_by_body")[b] for b in BODIES], dtype=i64),
        max_speed=np.array([r.get("lords.max_speed_by_wings")[w] for w in WINGS], dtype=i64),
        dp_body=np.array([dp[b] for b in BODIES], dtype=i64),
        dp_wing=np.array([dp[w] for w in WINGS], dtype=i64),
        accel_wings=np.array([r.get("lords.acceleration_by_wings")[w] for w in WINGS], i64),
        tactics=np.array([tac[t] for t in TACTICS], dtype=i64),
        rider_range=rider_range,
        rider_dice=rider_dice,
        scalars=_scalars(r),
        critical=critical,
        fumble=fumble,
        spells=spells,
        spell_fx=spell_fx,
        range_step=range_step,
        step_mod=step_mod,
    )


def _range_tables(r: RuleSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The breath's range modifier by distance in hexes (``range_mod``, the Range Key's row
    for distances 0..max range), each distance's step of the Range Key (``range_step``, 0 Very
    Short .. 4 Very Long) and each step's modifier (``step_mod``)."""
    i64 = np.int64
    rk = r.get("lords.range_key")
    rm = r.get("lords.range_mod")
    max_range = r.get("lords.max_breath_range")
    range_mod = np.zeros(max(7, max_range + 1), dtype=i64)
    for d in range(1, len(range_mod)):
        key = rk.get(d, "Very Long") if d <= 6 else "Very Long"
        range_mod[d] = rm[key]
    range_mod[0] = rm["Very Short"]
    steps = ("Very Short", "Short", "Medium", "Long", "Very Long")
    range_step = np.full(len(range_mod), len(steps) - 1, dtype=i64)
    range_step[0] = 0
    for d in range(1, min(len(range_mod), 7)):
        range_step[d] = steps.index(rk.get(d, "Very Long"))
    step_mod = np.array([rm[k] for k in steps], dtype=i64)
    return range_mod, range_step, step_mod


def _rider_tables(r: RuleSet) -> tuple[np.ndarray, np.ndarray]:
    """Each rider's (medium, long) range and its (dice, plus) damage at each (row 0: none)."""
    i64 = np.int64
    riders = r.get("lords.riders")
    rider_range = np.zeros((6, 2), dtype=i64)
    rider_dice = np.zeros((6, 2, 2), dtype=i64)
    for i, name in enumerate(RIDERS[1:], start=1):
        mr_, md, mp, lr, ld, lp = riders[name]
        rider_range[i] = (mr_, lr)
        rider_dice[i] = ((md, mp), (ld, lp))
    return rider_range, rider_dice


def _critical_tables(r: RuleSet) -> tuple[np.ndarray, np.ndarray]:
    """The Critical Hit Table's effect by 2d6 roll and the Fumble Table's (damage dice, part)
    by 2d6 roll (optional rules)."""
    i64 = np.int64
    ch = r.get("lords.critical_hits")
    critical = np.zeros(13, dtype=i64)
    fumble = np.zeros((13, 2), dtype=i64)
    fumble[:2, 1] = -1
    fb = r.get("lords.fumbles")
    for roll in range(2, 13):
        critical[roll] = CRITICAL_EFFECTS.index(ch[roll])
        fumble[roll] = (fb[roll][0], PART_CODES.index(fb[roll][1]))
    return critical, fumble


def _scalars(r: RuleSet) -> np.ndarray:
    """The single numbers of the rules in force, at their ``S_*`` slots."""
    mc = r.get("lords.move_cost")
    streak = r.get("lords.speed_streak")
    board = r.get("lords.board")
    ccr = r.get("lords.close_combat")
    lancer = r.get("lords.lancer")
    thr = r.get("lords.serious_threshold")
    sd = r.get("lords.serious_damage_amounts")
    dp = r.get("lords.damage_points")
    rth = r.get("lords.rider_to_hit")
    arc = r.get("lords.arc_degrees")
    fx = r.get("lords.spell_effects")

    s = np.zeros(N_SCALARS, dtype=np.int64)
    s[S_BASE_TO_HIT] = r.get("lords.base_to_hit")
    s[S_AUTO_MISS] = r.get("lords.auto_miss")
    s[S_AUTO_HIT] = r.get("lords.auto_hit")
    s[S_MAX_RANGE] = r.get("lords.max_breath_range")
    s[S_ACCEL] = r.get("lords.acceleration")
    s[S_STREAK_THRESHOLD] = streak["threshold"]
    s[S_STREAK_MAX_TURNS] = streak["max_turns"]
    s[S_COOLDOWN_FACTOR] = streak["cooldown_per_turn"]
    s[S_BOARD_WIDTH] = board["width"]
    s[S_BOARD_DEPTH] = board["depth"]
    s[S_HEAD_POINTS] = dp["head"]
    s[S_TAIL_POINTS] = dp["tail"]
    s[S_CC_SPEED_LOSS] = ccr["speed_loss"]
    s[S_CC_SELF_DAMAGE_DICE] = ccr["winner_self_damage_dice"]
    s[S_CC_ALTITUDE_DROP] = ccr["altitude_drop"]
    s[S_LANCER_CC] = lancer["close_combat"]
    s[S_LANCER_DAMAGE] = lancer["damage"]
    s[S_MOVE_FORWARD] = mc["forward"]
    s[S_MOVE_CLIMB] = mc["climb"]
    s[S_MOVE_DIVE] = mc["dive"]
    s[S_SERIOUS_NUM] = thr["num"]
    s[S_SERIOUS_DEN] = thr["den"]
    s[S_BREATH_STEPS_LOST] = sd["breath_steps"]
    s[S_CLAW_STEPS_LOST] = sd["claw_steps"]
    s[S_SPEED_LOST_PER_WING] = sd["max_speed_per_wing"]
    s[S_MR_STEPS_LOST] = sd["mr_steps"]
    s[S_RIDER_HIT_ROLL] = r.get("lords.rider_hit_roll")
    s[S_ALTITUDE_LEVELS] = r.get("lords.altitude_levels")
    s[S_RIDER_MEDIUM_MOD] = rth["medium"]
    s[S_RIDER_LONG_MOD] = rth["long"]
    s[S_ARC_DARK_DEG] = arc["dark"]
    s[S_ARC_GREY_DEG] = arc["grey"]
    s[S_ARC_LIGHT_DEG] = arc["light"]
    s[S_SELF_DAMAGE_POLICY] = SELF_DAMAGE_POLICIES.index(r.get("lords.self_damage_policy"))
    gr = r.get("lords.ground")
    s[S_GROUND_MOVE_DICE] = gr["move_dice"]
    s[S_GROUND_MOVE_PLUS] = gr["move_plus"]
    s[S_TAKEOFF_MAX_SPEED] = gr["takeoff_max_speed"]
    s[S_TAKEOFF_OVER_MIN] = gr["takeoff_min_over_min"]
    s[S_CRASH_DICE_PER_LEVEL] = gr["crash_dice_per_level"]
    s[S_RIDER_FALL_KILLS] = gr["rider_fall_kills"]
    s[S_LANDING_COST] = gr["landing_cost"]
    as_breath = r.get("lords.rider_ground_attacker") == "as-breath"
    s[S_RIDER_GROUND_MOD] = r.get("lords.ground_attacker_mod") if as_breath else 0
    oc = r.get("lords.optional_combat")
    s[S_CRIT_MAX_TARGET] = oc["critical_max_target"]
    s[S_BROKEN_LEGS] = oc["broken_legs"]
    s[S_DAZED_INIT] = oc["dazed_initiative"]
    s[S_HIT_LIMIT] = oc["hit_limit"]
    tu = r.get("lords.tactic_uses")
    s[S_TACTIC_USES] = tu["per_tactic"]
    s[S_TACTIC_RESET] = tu["reset_after"]
    wz = r.get("lords.wizard")
    s[S_MAGIC_POINTS] = wz["magic_points"]
    s[S_SELF_TARGET] = wz["self_target"]
    s[S_QUICKEN_OVER_LAST] = fx["quicken_over_last"]
    s[S_QUICKEN_ALLOWANCE] = fx["quicken_allowance"]
    s[S_QUICKEN_OVER_MAX] = fx["quicken_over_max"]
    s[S_SLOW_OVER_MIN] = fx["slow_over_min"]
    return s
