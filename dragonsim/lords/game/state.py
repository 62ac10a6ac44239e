"""The Dragon Lords kernel's data layouts, in one home (numba-free: plain integers).

Every array a game reads or writes by column is laid out here:

* the dragon state row (``F_*``, ``NF`` columns, int64): what the engine writes and the bots
  read about one dragon during a game;
* the sheet rows a kernel is given (``D_*``, ``N_DCOLS`` columns) for at most ``MAXD`` dragons;
* the scenario rows (``SC_*``) used when ``OPT_SETUP`` is 1;
* the options array (``OPT_*``, ``N_OPT`` entries) and :func:`default_options`;
* the counters a kernel returns (``C_*``, ``N_COUNTERS``), the per-game records (``R_*``,
  ``N_REC``) and the decision log rows (``L_*``, ``K_*`` kinds, ``N_LOG``) the tests replay.

A column is always written by its name (``ds[i, F_COOL]``), never by its number.
"""

from __future__ import annotations

import numpy as np

from ... import defaults
from ...rules import lords as _rules_lords
from ...rules.lords import KERNEL_SLOTS as _SLOT
from ...rules.lords import N_OPT, SLOT_RULES, slot_entry  # noqa: F401 (state's names too)

# ---- the per-dragon state row (int64 [MAXD, NF]) -------------------------------------------------
F_Q = 0  # axial q
F_R = 1  # axial r
F_F = 2  # facing 0..5
F_ALT = 3  # altitude 1 Very Low .. 5 Very High (0 Ground is advanced-rules only)
F_SPEED = 4  # speed recorded this turn
F_LAST = 5  # speed that limits next turn's acceleration (after close-combat loss); -1 = setup
F_STREAK = 6  # consecutive turns at speed >= 10
F_COOL = 7  # turns still to be flown at speed <= 9 after a streak
F_ALIVE = 8  # 1 in play, 0 removed
F_TEAM = 9
F_ENG = 10  # index of the dragon engaged with this turn, -1 none
F_MOVED = 11  # 1 once it has moved this turn
F_DP = 12  # 12..16 damage points left: head, body, tail, left wing, right wing
F_DP0 = 17  # 17..21 starting damage points
F_BODY = 22
F_WINGS = 23
F_BREATH0 = 24  # breath step on the sheet
F_CLAW0 = 25  # tooth-and-claw step on the sheet
F_MR0 = 26  # maneuverability index on the sheet
F_MIN = 27  # minimum speed
F_MAX0 = 28  # maximum speed on the sheet
F_RIDER = 29  # 0 none, 1 Lancer, 2 Javelin Thrower, 3 Archer, 4 Crossbow Shooter, 5 Wizard
F_BREATH = 30  # current breath step (after serious head damage)
F_CLAW = 31  # current tooth-and-claw step
F_MR = 32  # current maneuverability index
F_MAX = 33  # current maximum speed
F_POLICY = 34
F_INIT = 35  # position in this turn's initiative order
F_TARGET = 36  # recorded breath target, -1 none
F_DEALT = 37  # damage dealt this game
F_HITS = 38  # breath hits scored this game
F_TOHIT = 39  # this dragon's size modifier as a target (wings + body rows)
F_LEFT = 40  # 1 if it left the board
F_SAMPLES = 41  # end states its planner scores per move (its strength; see parse_policy)
F_CC_ADJ = 42  # sheet's close-combat modifier minus the table's at the sheet's MR (0 but printed)
F_RTARGET = 43  # recorded rider target (Record Rider Actions, p.15), -1 none
# critical hits (optional rules, p.19): effects "for remainder of game", applied by refresh on
# top of serious damage's
F_CRIT_BREATH = 44  # breath steps lost to head shots
F_LEGS = 45  # broken legs (each one tooth-and-claw step lost)
F_CRIT_MR = 46  # maneuverability steps lost to torn wings
F_DAZED = 47  # times dazed (each -2 to its initiative rolls)
F_CRIT_KILLED = 48  # 1: a critical "Killed!" (removed when all have breathed)
F_HIT_BY = 49  # damaging breath attacks suffered this turn (the three-hit limit, p.20)
# close-combat tactics (optional rules, p.22)
F_ENGAGER = 50  # the dragon that engaged (the fight's attacker), on both of the pair; -1 none
F_TAC_USED = 51  # 51..56: times each tactic (Lunge .. Defend) was used since the last reset
F_TACTIC = 57  # the tactic of this dragon's last close combat, -1 none
# the Wizard and its spells (advanced rules, pp. 18, 24-25)
F_MAGIC = 58  # magic points left ("Each Wizard begins the game with 60 magic points", p.18)
F_SPELL = 59  # spell recorded this turn (index into rules.lords.SPELLS), -1 none
F_STARGET = 60  # the spell's recorded target
F_SARG = 61  # the spell's argument (Distort Range +1 / -1 steps, Spin hexsides, Heal's part)
F_SHIELD = 62  # Force Shield points still to absorb (until the next rider actions phase)
F_SPELL_CLAW = 63  # tooth-and-claw steps from Dull (-1) and Sharpen (+1), to the next rider phase
F_DISTORT = 64  # range steps the dragon's breath perceives its target off by (Distort Range)
F_SORE = 65  # 1: Saddlesore: the rider loses its next rider action
F_SPELL_MR = 66  # maneuverability steps for the next movement phase (+2 Lethargy, -2 Vigor)
F_QUICKEN = 67  # 1: Quicken for the next record-speed phase
F_SLOW = 68  # 1: Slow for the next record-speed phase
F_ABSORBED = 69  # damage points Force Shields absorbed on this dragon this game
F_SPENT = 70  # magic points spent this game
F_HEALED = 71  # damage points Heal restored to this dragon this game
# turning between move phases (p.16): the signed 60-degree steps the dragon's last move left
# turned in its hex (+ towards higher facings; 3: a full 180), which its next move continues;
# 0 when it has none (always, without the rule: the move tables' BK_TURNED is then 0)
F_TURNED = 72
F_CC_FACING = 73  # its facing before this turn's close combat (lords.turn_between_close_combat)
F_STUCK = 74  # 1: crashed and may not move from its hex (p.17; lords.crash_stuck = every-crash)
#: the capabilities its bot plays without (``hunter~engage``: ``ABLATE_*`` bits of
#: :mod:`dragonsim.lords.bots.registry`; 0 for a bot as released)
F_ABLATE = 75
NF = 76

RIDER_LANCER, RIDER_WIZARD = 1, 5

#: body parts, in the order of the ``F_DP`` / ``F_DP0`` columns
PART_HEAD, PART_BODY, PART_TAIL, PART_LEFT_WING, PART_RIGHT_WING = range(5)
N_PARTS = 5

# ---- options: the one structure for rules options (int64 [N_OPT]) --------------------------------
# Every slot is declared in the rules registry (dragonsim.rules.lords: a rule's ``slot``, and
# RUN_SLOTS for the settings of a run); the names here are read from it, so the kernels see plain
# integer constants. A switch's slot holds 0 or 1, a reading's the index of its value in the
# rule's choices (the default 0).
#: the files these constants come from (every file of the rules registry's package), for the
#: numba cache guard (:func:`dragonsim._kernels.guard_caches`): a slot moved in the registry
#: recompiles every kernel that reads it
SOURCES = _rules_lords.SOURCES
#: the registry's tables the options are built and named from (the ``OPT_*`` constants above
#: are its slots)
_TABLES = _rules_lords.TABLES
OPT_TURN_LIMIT = _SLOT["turn_limit"]  # turns before a game is called a stalemate (a draw)
OPT_PLAN_SAMPLES = _SLOT["plan_samples"]  # end states a planning bot scores per altitude change
OPT_RANGE_MOD = _SLOT["range_mod"]  # 1: the range row of the To-Hit table (0: Example of Play)
OPT_SETUP = _SLOT["scenario"]  # 0: rulebook placement along edges; 1: the caller's scenario
OPT_SPELL_POLICY = _SLOT["spell_policy"]  # how Wizards choose spells: SP_BOT, SP_NEVER, SP_RANDOM
#: the spell policies (``OPT_SPELL_POLICY``; run option ``spells``)
SP_BOT, SP_NEVER, SP_RANDOM = range(3)
SPELL_POLICIES = ("bot", "never", "random")
# the rules' switches (1: played) and readings (1: the reading that is not the default)
OPT_INIT_MOD = _SLOT["init_mod"]  # lords.advanced.initiative (p.15)
OPT_INIT_TIE_MODIFIED = _SLOT["init_tie_modified"]  # lords.initiative_tie = modified
OPT_ACCEL_WINGS = _SLOT["accel_wings"]  # lords.advanced.acceleration (p.16)
OPT_RIDERS = _SLOT["riders"]  # lords.advanced.lancer: the Lancer's +2 / +4 (p.18)
OPT_RIDER_ATTACKS = _SLOT["rider_attacks"]  # lords.advanced.rider_attacks (pp. 15, 18)
OPT_RIDER_DEATHS = _SLOT["rider_deaths"]  # lords.advanced.rider_deaths: 2d6 = 7 (p.18)
OPT_RIDER_HIT_NO_CHECK = _SLOT["rider_hit_no_check"]  # lords.rider_check_rider_hits
OPT_RIDER_AT_ENGAGED = _SLOT["rider_at_engaged"]  # lords.rider_engaged_targets = any
OPT_RIDER_AT_ONCE = _SLOT["rider_at_once"]  # lords.rider_effects = at-once
OPT_MOVE_EARLY = _SLOT["move_early"]  # lords.advanced.move_early (p.15)
# the ground (advanced rules, p.17): the three ways to crash, and landing on purpose; any of
# them brings the rules of being on the ground (crash damage, moving on the ground, taking off,
# breathing and fighting there) into play
OPT_CRASH_VERY_LOW = _SLOT["crash_very_low"]  # an engagement at Very Low crashes both first
OPT_CRASH_SLOW = _SLOT["crash_slow"]  # close combat's -2 below the minimum speed crashes
OPT_CRASH_ZEROED = _SLOT["crash_zeroed"]  # a zeroed tail or wing crashes (head or body kills)
OPT_CRASH_STUCK_EVERY = _SLOT["crash_stuck_every"]  # lords.crash_stuck = every-crash
OPT_LANDING = _SLOT["landing"]  # a dragon at Very Low may land (forward 1 hex, its last point)
OPT_TAKEOFF_OVER_MAX = _SLOT["takeoff_over_max"]  # lords.takeoff_speed = 7
# optional rules (pp. 19-22)
OPT_CRITICALS = _SLOT["criticals"]  # an unmodified 12 at a target number <= 11 is a critical
OPT_FUMBLES = _SLOT["fumbles"]  # an unmodified 2 on a breath's hit roll is a fumble
OPT_HIT_LIMIT = _SLOT["hit_limit"]  # at most three damaging breath attacks on a dragon a turn
OPT_HIT_LIMIT_LOW_FIRST = _SLOT["hit_limit_low_first"]  # lords.hit_limit_order = low-first
OPT_CRIT_IN_PLACE = _SLOT["crit_in_place"]  # lords.critical_body_damage = in-place
OPT_FUMBLE_RIDER_ONLY = _SLOT["fumble_rider_only"]  # lords.fumble_rider = rider-only
OPT_TACTICS = _SLOT["tactics"]  # close-combat tactics (p.22)
OPT_DEFEND_NO_TURN = _SLOT["defend_no_turn"]  # lords.defend_win = no-turn
# the Wizard and its spells (advanced rules, pp. 18, 24-25)
OPT_WIZARD = _SLOT["wizard"]  # a Wizard casts one spell a turn in the rider actions phase
OPT_DULL_TO_BLUNT = _SLOT["dull_to_blunt"]  # lords.dull_floor = Blunt (Dull may reach Blunt)
# banking (advanced rules, p.16)
OPT_BANKING = _SLOT["banking"]  # a dragon may bank (the move tables then hold banking moves)
OPT_BANK_VERY_LOW_ANY = _SLOT["bank_very_low_any"]  # lords.bank_very_low = any
OPT_BANK_HEX_FORWARD = _SLOT["bank_hex_forward"]  # lords.bank_hex = forward
OPT_BANK_EACH = _SLOT["bank_each"]  # lords.bank_run = each (the move tables hold it)
# turning between move phases (p.16): the move tables hold the carried turns (their rows by
# F_TURNED); the kernel reads only the close-combat reading
OPT_TURN_BETWEEN = _SLOT["turn_between"]  # a turn carries into the next move phase
OPT_TURN_180_RESET = _SLOT["turn_180_reset"]  # lords.turn_between_180 = reset
OPT_TURN_CC_FACING = _SLOT["turn_cc_facing"]  # lords.turn_between_close_combat = facing


def default_options(
    *,
    turn_limit: int = defaults.TURN_LIMIT,
    plan_samples: int = defaults.PLAN_SAMPLES,
    range_mod: bool = True,
    scenario: bool = False,
    spell_policy: int = SP_BOT,
    **rules: int,
) -> np.ndarray:
    """The int64 options array (see the ``OPT_*`` constants): the run's settings, and for
    each rule slot named in ``rules`` (:data:`dragonsim.rules.lords.SLOT_RULES`, as
    :func:`dragonsim.lords.game.sheets.rule_switches` gives them) its value, 0 for every slot not
    named (the basic game).

    >>> int(default_options(init_mod=True)[OPT_INIT_MOD])
    1
    """
    o = np.zeros(_TABLES.n_opt, dtype=np.int64)
    o[OPT_TURN_LIMIT] = turn_limit
    o[OPT_PLAN_SAMPLES] = plan_samples
    o[OPT_RANGE_MOD] = int(range_mod)
    o[OPT_SETUP] = int(scenario)
    o[OPT_SPELL_POLICY] = int(spell_policy)
    for name, value in rules.items():
        if name not in _TABLES.slot_rules:
            raise TypeError(f"default_options() got an unexpected keyword argument {name!r}")
        o[_TABLES.kernel_slots[name]] = int(value)
    return o


def options_of(opt: np.ndarray) -> dict[str, int | bool]:
    """The rule slots of an options array by name (a switch or two-way reading as a bool):
    what a manifest records of the rules a kernel played."""
    t = _TABLES
    return {
        name: t.slot_entry(key, int(opt[t.kernel_slots[name]]))
        for name, key in t.slot_rules.items()
    }


# ---- dragons: one int64 sheet row per dragon for the kernel (int64 [nd, N_DCOLS]) ----------------
D_BODY, D_WINGS, D_BREATH, D_CLAWS, D_RIDER, D_MR, D_TEAM, D_POLICY = range(8)
#: D_POLICY holds the bot's kernel id in its low POLICY_BITS bits and, above them, the
#: capabilities it plays without (F_ABLATE): a bot as released writes its id alone, so the
#: rows (and the checkpoints' digests of them) of every earlier run are unchanged
POLICY_BITS = 8
D_SAMPLES = 8  # this dragon's planning breadth (``hunter:N``); 0: the run's OPT_PLAN_SAMPLES
D_CC = 9  # the sheet's close-combat modifier (Sheet.cc: derived, or printed with
# lords.printed_sheet_values), the value the exact odds use
N_DCOLS = 10
MAXD = 8

# ---- scenario rows (OPT_SETUP = 1; int64 [nd, 5]) ------------------------------------------------
SC_Q, SC_R, SC_F, SC_ALT, SC_SPEED = range(5)  # SC_SPEED: last turn's speed, -1 = free choice

# ---- counters (int64 [N_COUNTERS]) ---------------------------------------------------------------
C_GAMES = 0
C_DRAWS = 1
C_TURN_LIMIT = 2  # games stopped by the turn limit (also counted in C_DRAWS)
C_TURNS = 3
C_TURNS_SQ = 4
C_DICE = 5  # d6 rolled from the game streams
C_BREATHS = 6
C_BREATH_HITS = 7
C_ENGAGES = 8
C_LEFT_BOARD = 9
C_WIN = 10  # + team, MAXD slots
C_DEALT = C_WIN + MAXD  # + dragon slot: damage dealt
C_DEALT_SQ = C_DEALT + MAXD
N_TN = 32  # target numbers counted 0..N_TN-1 (larger ones in the last)
C_TN_TRIES = C_DEALT_SQ + MAXD  # + target number (clamped)
C_TN_HITS = C_TN_TRIES + N_TN
C_LOC = C_TN_HITS + N_TN  # + 5 * direction + part: breath hit locations
CC_DIFF_ZERO = 20  # close-combat modifier differences -20..+20 are counted ...
CC_DIFF_MAX = 2 * CC_DIFF_ZERO  # ... (clamped) at difference + CC_DIFF_ZERO
C_CC = C_LOC + 30  # + 3 * (modifier difference + 20) + outcome (0 win, 1 draw, 2 loss)
C_TURN_HIST = C_CC + 3 * (CC_DIFF_MAX + 1)  # + turns (clamped to HIST_MAX)
HIST_MAX = defaults.TURNS_HIST_MAX
# riders (advanced rules, p.18): attacks by band (0 medium, 1 long), by target number, the
# damage each dragon's rider dealt (also in C_DEALT), the body hits that rolled for the rider,
# and the riders killed by where the hit came from (RK_* below)
C_RIDER_TRIES = C_TURN_HIST + HIST_MAX + 1  # + band
C_RIDER_HITS = C_RIDER_TRIES + 2  # + band
C_RIDER_TN_TRIES = C_RIDER_HITS + 2  # + target number (clamped)
C_RIDER_TN_HITS = C_RIDER_TN_TRIES + N_TN
C_RIDER_DEALT = C_RIDER_TN_HITS + N_TN  # + dragon slot
C_RIDER_CHECKS = C_RIDER_DEALT + MAXD  # + RK_*: body hits on a dragon with a rider (2d6 rolled)
C_RIDER_KILLED = C_RIDER_CHECKS + 3  # + RK_*: of those, the 2d6 = 7 that killed the rider
RK_BREATH, RK_CLOSE_COMBAT, RK_RIDER = range(3)
C_EARLY = C_RIDER_KILLED + 3  # moves made earlier in the phase than the initiative order (p.15)
# the ground (advanced rules, p.17): crashes by cause (CR_* below); crash damage by altitude
# levels fallen (1..5: the crashes, the sum and the sum of squares of the points rolled); the
# riders' 1d6 in a fall and the riders it killed; landings; take-offs and the points their
# leap cost; the moves on the ground by the 1d6+3 rolled (4..9); the turns a dragon began on
# the ground
C_CRASHES = C_EARLY + 1  # + CR_*
CR_VERY_LOW, CR_SLOW, CR_ZEROED = range(3)
C_CRASH_N = C_CRASHES + 3  # + levels fallen - 1
C_CRASH_SUM = C_CRASH_N + 5  # + levels fallen - 1
C_CRASH_SQ = C_CRASH_SUM + 5  # + levels fallen - 1
C_FALL_CHECKS = C_CRASH_SQ + 5
C_FALL_KILLED = C_FALL_CHECKS + 1
C_LANDINGS = C_FALL_KILLED + 1
C_TAKEOFFS = C_LANDINGS + 1
C_TAKEOFF_POINTS = C_TAKEOFFS + 1
C_GROUND_ROLLS = C_TAKEOFF_POINTS + 1  # + the 1d6+3 rolled - 4
C_GROUND_TURNS = C_GROUND_ROLLS + 6
# optional rules (pp. 19-20): the breath hit rolls that could crit (target number 11 or less)
# and could fumble, the criticals and fumbles by their table's 2d6 (+ roll - 2, the roll that
# took effect), the Critical Hit Table rolls rerolled, and the breaths refused by the
# three-hit limit
C_CRIT_CHANCES = C_GROUND_TURNS + 1
C_CRITS = C_CRIT_CHANCES + 1  # + table roll - 2
C_CRIT_REROLLS = C_CRITS + 11
C_FUMBLE_CHANCES = C_CRIT_REROLLS + 1
C_FUMBLES = C_FUMBLE_CHANCES + 1  # + table roll - 2 (a fumble whose rider check killed: none)
C_FUMBLE_RIDER = C_FUMBLES + 11  # fumbles that rolled the rider check
C_FUMBLE_RIDER_KILLED = C_FUMBLE_RIDER + 1
C_HIT_LIMIT = C_FUMBLE_RIDER_KILLED + 1  # breaths refused by the three-hit limit
# close-combat tactics (optional rules, p.22): the fights by (attacker's tactic, defender's
# tactic) and outcome from the attacker's side (+ 3 * (6 * attacker's + defender's) + 0 win,
# 1 draw, 2 loss; both Defend counts as a draw there), Lunge's extra 1d6 (rolled, sum, by face),
# the Defend wins, the both-Defend fights (no rolls) and the resets after 30 uses
N_TACTICS = 6
TAC_LUNGE, TAC_DEFEND = 0, 5
C_TACTICS = C_HIT_LIMIT + 1
C_LUNGE = C_TACTICS + 3 * N_TACTICS * N_TACTICS  # Lunge extra damage rolls
C_LUNGE_SUM = C_LUNGE + 1
C_LUNGE_FACES = C_LUNGE_SUM + 1  # + face - 1
C_DEFEND_WINS = C_LUNGE_FACES + 6
C_BOTH_DEFEND = C_DEFEND_WINS + 1
C_TACTIC_RESETS = C_BOTH_DEFEND + 1
# the Wizard's spells (advanced rules, pp. 18, 24-25), by spell (+ its index in SPELLS): the
# casts (to-hit rolls) and hits, the casts and hits on the caster's own dragon, casts and hits
# by target number, the magic points spent, each spell's effect size (SPELL_EFFECT_SIZE says
# what) and its square, the d6 faces rolled by Fireball, Lightning Bolt and Heal (+ 6 * k +
# face - 1), the recorded spells not cast (the target gone or the caster's rider killed), and
# the rider actions Saddlesore took (an action recorded and lost)
N_SPELLS = 13
C_SPELLS = C_TACTIC_RESETS + 1  # + spell
C_SPELL_HITS = C_SPELLS + N_SPELLS  # + spell
C_SPELL_SELF = C_SPELL_HITS + N_SPELLS  # casts on its own dragon
C_SPELL_SELF_HITS = C_SPELL_SELF + 1
C_SPELL_TN_TRIES = C_SPELL_SELF_HITS + 1  # + target number (clamped; its own dragon's 7 too)
C_SPELL_TN_HITS = C_SPELL_TN_TRIES + N_TN
C_SPELL_POINTS = C_SPELL_TN_HITS + N_TN  # magic points spent
C_SPELL_FX = C_SPELL_POINTS + 1  # + spell: the effect's size
C_SPELL_FX_SQ = C_SPELL_FX + N_SPELLS  # + spell
C_SPELL_D6 = C_SPELL_FX_SQ + N_SPELLS  # + 6 * (0 Fireball, 1 Lightning Bolt, 2 Heal) + face - 1
C_SPELL_LOST = C_SPELL_D6 + 18  # recorded spells not cast
C_SORE_LOST = C_SPELL_LOST + 1  # rider actions lost to Saddlesore
#: what C_SPELL_FX counts, by spell
SPELL_EFFECT_SIZE = (
    "to-hit change of the target's breath (sum over its breaths)",
    "tooth-and-claw steps taken",
    "damage points taken",
    "damage points absorbed (counted when the shield ends)",
    "damage points restored",
    "maneuverability steps (taken in the next movement phase)",
    "damage points taken",
    "speed points above the limit without it (the next record-speed phase)",
    "1 when cast on a rider",
    "tooth-and-claw steps given",
    "speed points below the limit without it (the next record-speed phase)",
    "hexsides turned",
    "maneuverability steps (given in the next movement phase)",
)
#: the spells by their index in SPELLS
(
    SPELL_DISTORT,
    SPELL_DULL,
    SPELL_FIREBALL,
    SPELL_SHIELD,
    SPELL_HEAL,
    SPELL_LETHARGY,
    SPELL_BOLT,
    SPELL_QUICKEN,
    SPELL_SADDLESORE,
    SPELL_SHARPEN,
    SPELL_SLOW,
    SPELL_SPIN,
    SPELL_VIGOR,
) = range(13)
# banking (advanced rules, p.16): banks flown, levels dropped by two banks in sequence
C_BANKS = C_SORE_LOST + 1
C_BANK_DROPS = C_BANKS + 1
# turning between move phases (p.16): moves begun with a turn carried from the last phase, and
# those of them that continued it
C_TURN_CARRIED = C_BANK_DROPS + 1
C_TURN_CONTINUED = C_TURN_CARRIED + 1
# speeds recorded in the air more than the basic acceleration (3, p.7) above last turn's: what
# the wings' acceleration allowance (optional, p.16) or Quicken (p.25) let a dragon do
C_SPEED_GAIN = C_TURN_CONTINUED + 1
N_COUNTERS = C_SPEED_GAIN + 1

# ---- per-game records (int64 [games, N_REC]) -----------------------------------------------------
R_WINNER = 0  # winning team, -1 draw
R_TURNS = 1
R_TURN_LIMIT = 2
R_DEALT0 = 3  # damage dealt by dragon 0, 1
R_DEALT1 = 4
R_LEFT0 = 5  # damage points left, dragon 0, 1
R_LEFT1 = 6
R_HITS0 = 7
R_HITS1 = 8
R_ENGAGES = 9
R_FIRST = 10  # the dragon that moved first on turn 1 (lowest initiative roll, p.7)
N_REC = 11

# ---- decision log (tests: the legality checker; int64 [k, N_LOG]) --------------------------------
L_TURN, L_KIND, L_I, L_J = range(4)
L_A = 4  # N_LOG_VALUES kind-specific values from here
N_LOG_VALUES = 20
L_SNAP = L_A + N_LOG_VALUES  # snapshot: MAXD x (q, r, f, alt, alive, eng, moved) before it
N_SNAP = 7
N_LOG = L_SNAP + MAXD * N_SNAP
K_SETUP, K_SPEED, K_MOVE, K_LEAVE, K_ENGAGE, K_TARGET, K_CC, K_END = range(8)
#: event rows (the replay's, :mod:`dragonsim.lords.views.replay`): this turn's initiative order
#: (``L_A``: place), a breath attack rolled (``L_A``: target number, hit roll, hit, side,
#: location roll, part, damage roll, points the target lost, dice, range, arc area), serious
#: damage effects after a combat (``L_A``: breath, claws, MR index, maximum speed, in play,
#: then the same before)
K_INIT, K_BREATH, K_EFFECT = 8, 9, 10
#: riders (advanced rules, p.18): a rider target recorded (``K_RTARGET``), a rider attack
#: rolled (``K_RIDER``; ``L_A``: target number, hit roll, hit, side, location roll, part,
#: damage roll, points the target lost, band 0 medium 1 long, range, -1, the rider check's
#: 2d6 (0: none), the damage's plus). A breath row's ``L_A + 11`` and a close-combat row's
#: ``L_A + 12`` hold the rider check of a body hit (0: none; 7 killed the rider, p.18).
K_RTARGET, K_RIDER = 11, 12
#: a dragon announces that it moves earlier in the phase (p.15): ``L_I`` it, ``L_J`` the
#: dragon whose turn to move it was (both have not moved yet)
K_EARLY = 13
#: a dragon crashes (p.17; ``L_A``: cause CR_*, levels fallen, location roll, part, damage
#: roll, points taken, the rider's 1d6 in the fall (0: none), the facing roll of a crashing
#: close-combat winner (-1: none), its facing after the fall); a ``K_MOVE`` row's ``L_A + 6``
#: is the move's kind (``MK_*``), ``L_A + 7`` the 1d6+3 of a move on the ground, ``L_A + 8, 9``
#: a landing's flight end or the hex a take-off left the ground from (its row's snapshot is
#: after the leap); banking (p.16): ``L_A + 10`` the banks the move flew, ``L_A + 11`` the
#: levels two banks in sequence dropped (the end altitude ``L_A + 5`` is after them); turning
#: between move phases (p.16): ``L_A + 12`` the turn the dragon carried into the move
#: (``F_TURNED`` before it), ``L_A + 13`` the turn it leaves (after it)
K_CRASH = 14
#: the optional rules (pp. 19-20) on a ``K_BREATH`` row: ``L_A + 12`` the Critical Hit Table's
#: 2d6 that took effect (0: no critical), ``L_A + 13`` how many rolls before it were rerolled,
#: ``L_A + 14`` the critical's CE_* effect, ``L_A + 15`` the points its extra damage took from
#: the body; a fumble (hit roll 2): ``L_A + 16`` the rider check's 2d6 (0: none), ``L_A + 17``
#: the Fumble Table's 2d6 (0: not rolled), ``L_A + 18`` its damage roll, ``L_A + 19`` the
#: points the dragon lost. ``L_A`` = -2: a breath refused by the three-hit limit (p.20).
CE_NONE, CE_KILLED, CE_DOUBLE, CE_TRIPLE, CE_HEAD, CE_LEG, CE_DAZED, CE_WING, CE_RIDER = range(9)
#: the effect names of lords.critical_hits, by CE_* code
CRITICAL_EFFECTS = (
    "",
    "killed",
    "double body",
    "triple body",
    "head shot",
    "leg broken",
    "dazed",
    "wing torn",
    "rider thrown",
)
#: close-combat tactics (optional rules, p.22) on a ``K_CC`` row: ``L_A + 13`` the attacker's
#: tactic + 1 and ``L_A + 14`` the defender's (0: tactics not played), ``L_A + 15`` the Tactics
#: Result Table's adjustment to the attacker's score (already in ``L_A + 3``, the modifier
#: difference of ``L_I`` over ``L_J``), ``L_A + 16`` Lunge's extra 1d6 (0: none), ``L_A + 17``
#: the attacker (the dragon that engaged), ``L_A + 18`` the resets after this fight's uses (1
#: the attacker's, 2 the defender's, 3 both). Both Defend: ``L_A`` = -1 with rolls 0 (none).
MK_FLY, MK_TAKE_OFF, MK_LAND, MK_GROUND = range(4)
#: the Wizard (advanced rules, pp. 18, 24-25): a spell recorded (``K_SPELL_REC``; ``L_A``:
#: spell, argument, magic points left) and a spell cast (``K_SPELL``; ``L_A``: spell, target
#: number, hit roll, hit, argument, cost, magic points left after, the effect's size, side,
#: location roll, part, d6 rolled, rider check's 2d6 (0: none), band 0 medium 1 long 2 own
#: dragon, distance; ``L_A`` = -1: not cast, its target gone or its rider killed). A
#: rider action lost to Saddlesore is a ``K_SPELL`` row with ``L_A + 0`` = -2 and ``L_J`` -1.
K_SPELL, K_SPELL_REC = 15, 16

# ---- scripted games (:mod:`dragonsim.lords.views.script`) ----------------------------------------
# A scripted game plays with two arrays in place of its game and policy streams (``Work.gst``
# and ``Work.pst``, uint64 views of int64 arrays). A seeded stream is one state cell, so "the
# stream holds more than one cell" is what tells the roll functions and the dispatchers that
# the dice are forced and the decisions given; cell 0 stays the stream's state (seeded, never
# drawn from).

#: forced dice (``Work.gst``): header cells, then per-turn starts, the rolls, what each asked
FD_TURN = 1  # the turn being played (set by the game loop, logged games only)
FD_CURSOR = 2  # index of the next roll to read (counts on past the end when the dice run out)
FD_END = 3  # one past the last roll this turn may read
FD_TURN_START = 4  # the cursor when this turn began
FD_PER_TURN = 5  # 1: each turn reads its own rolls (FD_STARTS); 0: one list for the game
FD_TURNS = 6  # turns the script gives
FD_NROLLS = 7  # rolls given
FD_ERROR = 8  # the first error: FD_OK, FD_RAN_OUT or FD_BAD_VALUE
FD_ERR_TURN = 9
FD_ERR_ROLL = 10  # the roll's index in the list
FD_ERR_DICE = 11  # the d6 it asked for
FD_ERR_VALUE = 12  # the value the script gave (FD_BAD_VALUE)
FD_ROLLS_AT = 13  # where the rolls' values start (FD_NROLLS cells), then the d6 each asked for
FD_TURN_ASKED_AT = 14  # where the rolls each turn asked for are counted (turn t at + t)
FD_STARTS = 16  # turn t reads rolls FD_STARTS[t] .. FD_STARTS[t + 1] - 1 (t = 1..FD_TURNS)
FD_OK, FD_RAN_OUT, FD_BAD_VALUE = 0, 1, 2


#: scripted decisions (``Work.pst``): header cells, a turn counter per dragon, then one row
#: of ``N_SR`` cells per (turn, dragon): turn ``t`` (1-based), dragon ``i`` at row
#: ``(t - 1) * dragons + i``
SD_DRAGONS = 1
SD_TURNS = 2
SD_ERROR = 3  # the first error (SD_* codes below), then its turn, dragon and three details
SD_ERR_TURN = 4
SD_ERR_DRAGON = 5
SD_ERR_A = 6
SD_ERR_B = 7
SD_ERR_C = 8
SD_COUNT = 10  # + dragon: speeds recorded so far (= the turn being played)
SD_ROWS = SD_COUNT + MAXD
SR_GIVEN = 0  # 1: the script gives this dragon's move this turn
SR_SPEED = 1
SR_MODE = 2  # SR_PATH: (dq, dr, df, dalt) for a dragon facing E; SR_END: (q, r, facing, alt)
SR_Q = 3
SR_R = 4
SR_F = 5
SR_ALT = 6
SR_TARGET = 7  # breath target, -1 none
SR_ENGAGE = 8  # 1: engage the dragon in front after moving
SR_SIDE = 9  # a corner's side (0 F .. 5 FL), -1 not given
SR_FACING = 10  # a close-combat winner's new facing, -1 keep its facing
SR_RIDER = 11  # the rider's target (advanced rules, p.18), -1 none
SR_EARLY = 12  # 1: move earlier in the phase, at the first chance (advanced rules, p.15)
SR_LAND = 13  # 1: land after the move (its last point, forward 1 hex from Very Low, p.17)
SR_TACTIC = 14  # the close-combat tactic + 1 (optional rules, p.22), 0 not given
SR_SPELL = 15  # the Wizard's spell (index in SPELLS), -1 none
SR_SPELL_TARGET = 16  # its target (the caster itself for its own dragon)
SR_SPELL_ARG = 17  # Distort Range: +1 farther / -1 nearer; Spin: hexsides -2..2; Heal: first part
SR_DROP = 18  # banking (p.16): the levels the move's banks drop (-1: any; a path's own count)
# turning between move phases (p.16): the turn a scripted path leaves in its last hex, its own
# and not the stored path's to the same end; SR_TURN_MODE: SRT_TABLE (an end, or the rule off:
# the move table's), SRT_LEFT (the path turns last after a step: SR_TURN), SRT_ONLY (the path
# is one turn of SR_TURN, continuing the carried turn if any); SR_TURN_RESET 1 under reading
# lords.turn_between_180 = reset (a full 180 leaves none)
SR_TURN_MODE = 19
SR_TURN = 20
SR_TURN_RESET = 21
N_SR = 22
SRT_TABLE, SRT_LEFT, SRT_ONLY = 0, 1, 2
SR_PATH, SR_END = 0, 1
SD_OK = 0
SD_NO_MOVE = 1  # the script gives the dragon no move this turn
SD_SPEED = 2  # a speed outside the limits (A speed, B lowest, C highest)
SD_UNREACHABLE = 3  # no move of that speed ends there (A mr, B budget, C altitude after)
SD_OFF_BOARD = 4  # every path to the end state leaves the board
SD_OCCUPIED = 5  # the end hex holds another dragon (A the dragon)
SD_ENGAGE = 6  # no enemy to engage
SD_TARGET = 7  # the target cannot be breathed at (A target, B why: SD_WHY_*)
SD_SIDE = 8  # a corner's side not given or not one of the two (A side 1, B side 2, C given)
SD_RIDER = 9  # the rider cannot shoot at its target (A target, B why: SD_WHY_*)
SD_WHY_ENGAGED, SD_WHY_TARGET_ENGAGED, SD_WHY_GONE, SD_WHY_ARC, SD_WHY_SELF = range(5)
SD_WHY_NO_RIDER, SD_WHY_REACH = 5, 6  # no rider that shoots; out of the rider's long range
SD_SPELL = 13  # the spell cannot be cast (A spell, B why: SW_*)
SD_SPELL_TARGET = 14  # the spell cannot be cast at its target (A target, B spell, C why: SW_*)
SD_SPELL_ARG = 15  # the spell's argument is not one the spell takes (A spell, B argument)
SW_NO_WIZARD, SW_POINTS, SW_GONE, SW_REACH, SW_ENGAGED, SW_ENEMY, SW_SELF = range(7)
SD_LANDING = 10  # a landing the rules do not allow (A altitude the flight ends at, B 0 / 1 the
# hex ahead is on / off the board or taken)
SD_TACTIC = 11  # a close combat with tactics and the script gives the dragon none
SD_TACTIC_USED = 12  # the tactic has no uses left (A tactic, B times used, C the limit)
