"""Warriors of Krynn rules data: every value the Krynn kernels use, with its provenance.

The Warriors of Krynn rulebook names the kinds of faces on the battle and skirmish dice but not
how many of each, and prints no unit or commander card texts; several rule sentences also
leave a choice open (which line an "any line" card hits, where a flank token moves, ...).
Each such value is a rule here, tagged ``printed`` (the rulebook's words are in ``source``),
``derived`` or ``assumed`` (the reasoning is in ``source``), with the values it may take.
Where a sentence has two readings, both are choices and the kernels play both.

:class:`dragonsim.krynn.data.KrynnRules` is the typed view the kernels' arrays come from,
built from :func:`dragonsim.rules.krynn_rules` (these defaults, a rules file's ``[krynn]``
table, keyword overrides).
"""

from __future__ import annotations

import re
from typing import Any

from .core import Rule

__all__ = [
    "RULES",
    "SIDES",
    "LINES",
    "DECK_ROWS",
    "FACE_KINDS",
    "SKIRMISH_FACES",
    "HIT_POLICIES",
    "HERO_POLICIES",
    "MUTUAL",
    "EFFECTS",
    "HOOKS",
    "parse_card",
    "parse_commander",
    "format_card",
    "format_commander",
]

_P = "printed"
_D = "derived"
_A = "assumed"
_BOOK = "Warriors of Krynn rulebook"

#: The two sides; index 0 is the Alliance, 1 the Dragon Army (kernel convention).
SIDES = ("alliance", "army")
#: Battle lines in fighting order (all-out battles fight Foot, Missile, then Mounted).
LINES = ("foot", "missile", "mounted")
#: the rows of ``krynn.decks``: one unit deck per side and unit type
DECK_ROWS = tuple(f"{s}_{line}" for s in SIDES for line in LINES)
#: the kinds of battle-die faces the rulebook names
FACE_KINDS = ("blank", "single", "double", "woe")
#: a skirmish-die face: a line symbol, with or without the commander symbol
SKIRMISH_FACES = tuple(line + cmd for cmd in ("", "+commander") for line in LINES)
HIT_POLICIES = ("shaken-first", "ready-first")
HERO_POLICIES = ("never", "removals", "all", "last")
MUTUAL = ("army", "alliance", "none")
#: a unit card's side effect (kernel codes in this order)
EFFECTS = ("none", "shake-commander", "rally", "tactic", "barricade", "shake")
#: a commander's power (kernel codes in this order)
HOOKS = ("none", "hits", "dice", "tactic", "barricade", "rally", "shake")
CARD_TARGETS = (*LINES, "any")
COMMANDER_TARGETS = (*LINES, "fighting")

MAX_DIE_FACES = 60  # of one kind: a die of up to 240 faces
MAX_COPIES = 20
MAX_AMOUNT = 40
MAX_DECK_ENTRIES = 20

# --- card and commander texts ----------------------------------------------------------------
_CARD = re.compile(
    r"^\s*(?:(?P<copies>\d+)\s*x\s+)?(?P<name>[^:]+?)\s*:\s*(?P<amount>\d+)\s+(?P<kind>dice|hits)"
    r"\s*->\s*(?P<target>[a-z]+)\s*(?:,\s*(?P<effect>[a-z-]+)\s+(?P<eamount>\d+))?\s*$"
)
_COMMANDER = re.compile(r"^\s*(?P<hook>[a-z]+)\s+(?P<amount>\d+)\s*->\s*(?P<target>[a-z]+)\s*$")
_CARD_FORM = "'[COPIES x ]NAME: AMOUNT dice|hits -> foot|missile|mounted|any[, EFFECT AMOUNT]'"
_COMMANDER_FORM = "'HOOK AMOUNT -> foot|missile|mounted|fighting'"


def _bounded(what: str, v: int, hi: int, lo: int = 0) -> None:
    if not lo <= v <= hi:
        raise ValueError(f"{what} must be between {lo} and {hi}, got {v}")


def parse_card(text: str) -> dict[str, Any]:
    """A unit card text ``"2x Advance: 2 dice -> foot"`` or ``"Hold: 1 dice -> foot,
    barricade 1"`` as ``{name, kind, amount, target, effect, effect_amount, copies}``; raises
    ValueError naming what is wrong."""
    m = _CARD.match(str(text))
    if not m:
        raise ValueError(f"unit card {text!r} is not of the form {_CARD_FORM}")
    copies = int(m["copies"]) if m["copies"] is not None else 1
    amount = int(m["amount"])
    effect = m["effect"] or "none"
    eamount = int(m["eamount"]) if m["eamount"] is not None else 0
    if m["target"] not in CARD_TARGETS:
        raise ValueError(
            f"unit card {text!r}: target {m['target']!r} is not one of {', '.join(CARD_TARGETS)}"
        )
    if effect not in EFFECTS:
        raise ValueError(
            f"unit card {text!r}: effect {effect!r} is not one of {', '.join(EFFECTS)}"
        )
    _bounded(f"unit card {text!r}: copies", copies, MAX_COPIES)
    _bounded(f"unit card {text!r}: amount", amount, MAX_AMOUNT)
    _bounded(f"unit card {text!r}: effect amount", eamount, MAX_AMOUNT)
    return {
        "name": m["name"],
        "kind": m["kind"],
        "amount": amount,
        "target": m["target"],
        "effect": effect,
        "effect_amount": eamount,
        "copies": copies,
    }


def format_card(name, kind, amount, target, effect="none", effect_amount=0, copies=1) -> str:
    """The text :func:`parse_card` reads."""
    head = f"{copies}x {name}" if copies != 1 else str(name)
    tail = f", {effect} {effect_amount}" if effect != "none" else ""
    return f"{head}: {amount} {kind} -> {target}{tail}"


def parse_commander(text: str) -> dict[str, Any]:
    """A commander text ``"dice 2 -> fighting"`` as ``{hook, amount, target}``."""
    m = _COMMANDER.match(str(text))
    if not m:
        raise ValueError(f"commander {text!r} is not of the form {_COMMANDER_FORM}")
    if m["hook"] not in HOOKS:
        raise ValueError(
            f"commander {text!r}: power {m['hook']!r} is not one of {', '.join(HOOKS)}"
        )
    if m["target"] not in COMMANDER_TARGETS:
        raise ValueError(
            f"commander {text!r}: target {m['target']!r} is not one of "
            f"{', '.join(COMMANDER_TARGETS)}"
        )
    amount = int(m["amount"])
    _bounded(f"commander {text!r}: amount", amount, MAX_AMOUNT)
    return {"hook": m["hook"], "amount": amount, "target": m["target"]}


def format_commander(hook: str, amount: int, target: str) -> str:
    return f"{hook} {amount} -> {target}"


# --- whole-value checks ------------------------------------------------------------------------
def _die_total(v) -> str | None:
    if sum(v.values()) < 1:
        return "the battle die needs at least one face (all counts are 0)"
    return None


def _decks_ok(v) -> str | None:
    for row, cards in v.items():
        copies = 0
        for text in cards:
            try:
                copies += parse_card(text)["copies"]
            except ValueError as e:
                return f"{row}: {e}"
        if copies < 1:
            return f"the {row.replace('_', ' ')} unit deck is empty (every card has 0 copies)"
    return None


def _commanders_ok(v) -> str | None:
    for name, text in v.items():
        try:
            parse_commander(text)
        except ValueError as e:
            return f"{name}: {e}"
    return None


# --- the default decks -------------------------------------------------------------------------
_DECK = {
    "foot": [
        "2x Advance: 2 dice -> foot",
        "Press: 3 dice -> foot",
        "Shield wall: 1 hits -> foot, rally 1",
        "Flank: 2 dice -> any",
        "Hold: 1 dice -> foot, barricade 1",
    ],
    "missile": [
        "2x Volley: 2 dice -> any",
        "2x Aimed fire: 2 dice -> missile",
        "Arrow storm: 2 hits -> foot",
        "Skirmishers: 1 dice -> mounted, tactic 1",
    ],
    "mounted": [
        "2x Charge: 3 dice -> mounted",
        "Ride down: 2 dice -> foot",
        "Outflank: 2 dice -> missile",
        "Lances: 2 hits -> missile",
        "Rout: 2 dice -> mounted, shake-commander 1",
    ],
}


def _rules() -> list[Rule]:
    R = Rule
    return [
        # ---------------------------------------------------------------- dice
        R(
            "krynn.die_faces",
            {"blank": [0, 0], "single": [1, 0], "double": [2, 0], "woe": [0, 1]},
            _P,
            f"{_BOOK}, 'Battle Dice' (p.5): \"Single Hit. 1 hit - Double Hit. 2 hits - Woe. 1 "
            'hit to a unit on the attacking line or 1 stress to a hero - Blank. No effect". '
            "Each row is [hits, Woe results] of one kind of face.",
            "every battle-die roll: battles, commander powers, conflicts",
            bounds=(0, 6),
        ),
        R(
            "krynn.battle_die",
            {"blank": 2, "single": 2, "double": 1, "woe": 1},
            _A,
            f"{_BOOK}, 'Battle Dice' (p.5): \"Each battle die has one or more of each of these "
            'faces" - how many of each is not printed. Assumed a six-sided die with two '
            "Blanks, two Single Hits, one Double Hit and one Woe: one or more of each face, "
            "the commonest results the weakest, 2/3 of a hit per die. The conflict example "
            "(p.8) rolls a Single Hit, a Double Hit and a Woe, consistent with it. A count may "
            f"be 0 (a study of a die without Woe) up to {MAX_DIE_FACES}; every kind must be "
            "given (override one with krynn.battle_die.KIND).",
            "every battle-die roll: battles, commander powers, conflicts",
            bounds=(0, MAX_DIE_FACES),
            validate=_die_total,
        ),
        R(
            "krynn.skirmish_die",
            list(SKIRMISH_FACES),
            _A,
            f"{_BOOK}, 'Skirmish Die' (p.5) names the symbols (Foot, Missile, Mounted, and the "
            "commander symbol above a line symbol) but not the faces. Assumed six faces: each "
            "line once alone and once with the commander symbol, so every line fights equally "
            "often and commanders activate before half of the skirmishes.",
            "skirmishes: which line fights, whether commanders activate",
            choices=SKIRMISH_FACES,
            lengths=(1, 12),
        ),
        # ---------------------------------------------------------------- cards
        R(
            "krynn.decks",
            {f"{s}_{line}": list(cards) for s in SIDES for line, cards in _DECK.items()},
            _A,
            f"{_BOOK}, 'Unit Cards' and '2: Reveal a Unit Card': each side has a "
            'unit deck per unit type and a card "states whether to apply a certain number of '
            'hits or to roll battle dice" and "which of the defending side\'s lines takes any '
            'hits" - no card texts are printed. Assumed decks of 5 to 7 cards per line, mostly '
            "2-3 dice at the facing line, some fixed hits, a few side effects (rally, "
            "barricade, tactic, shake the commander) and 'any line' cards; the same decks for "
            "both sides, so the printed asymmetries (ties to the Dragon Army, heroes absorbing "
            f"hits) are the only ones by default. A card is {_CARD_FORM}.",
            "every fight: the attacking line's unit card",
            lengths=(1, MAX_DECK_ENTRIES),
            validate=_decks_ok,
        ),
        R(
            "krynn.commanders",
            {
                "none": "none 0 -> fighting",
                "rally": "rally 1 -> fighting",
                "fortify": "barricade 1 -> fighting",
                "tactician": "tactic 1 -> fighting",
                "volley": "dice 2 -> fighting",
                "strike": "hits 1 -> fighting",
                "terror": "shake 1 -> fighting",
            },
            _A,
            f"{_BOOK}, 'Commander Cards': \"Ready commanders have powers that activate "
            "before some battles. A commander's power affects only that commander's battle "
            'tile" - no commander texts are printed. Assumed one power each, of the kinds unit '
            "cards have: refresh 1 shaken unit (rally), add a barricade (fortify) or a tactic "
            "token (tactician) to the side's own fighting line, roll 2 battle dice (volley) or "
            "apply 1 hit (strike) at the opposing fighting line, or Shake 1 ready unit there "
            f"(terror). The row none (derived) is a tile side without a commander: no power. A "
            f"commander is {_COMMANDER_FORM}.",
            "commander powers before battles (battle --alliance-commander / --army-commander)",
            row_provenance={"none": _D},
            validate=_commanders_ok,
        ),
        # ---------------------------------------------------------------- hits
        R(
            "krynn.alliance_hits",
            "shaken-first",
            _A,
            f"{_BOOK}, '3: Roll Battle Dice and Apply Hits': \"A ready unit that takes 1 "
            'hit is shaken. A shaken unit that takes 1 hit is removed." - which unit of a line '
            "takes a hit is not said. The players choose for the Alliance; they keep units "
            "ready, since a tile is lost when all its units are shaken, so a hit removes a "
            "shaken unit first.",
            "which Alliance unit a hit takes",
            choices=HIT_POLICIES,
        ),
        R(
            "krynn.army_hits",
            "ready-first",
            _A,
            f"{_BOOK}, '3: Roll Battle Dice and Apply Hits', as krynn.alliance_hits. The "
            "players also resolve hits on the Dragon Army; they shake its ready units first, "
            "which brings control of the tile (all opposing units shaken) soonest.",
            "which Dragon Army unit a hit takes",
            choices=HIT_POLICIES,
        ),
        R(
            "krynn.barricade_order",
            "shaken-first",
            _A,
            f"{_BOOK}, '3: Roll Battle Dice and Apply Hits': \"Hits to a line are applied "
            'to its barricades, if any, first" - when a line has barricades under both ready '
            "and shaken units, which one absorbs first is not said. Assumed those under shaken "
            "units (the owner keeps the barricades that stop a Shake of a ready unit); or "
            "ready-first.",
            "barricades absorbing hits (and so which units stay immune to Shake)",
            choices=("shaken-first", "ready-first"),
        ),
        R(
            "krynn.any_line",
            "hero-pick",
            _A,
            f"{_BOOK}, '3: Roll Battle Dice and Apply Hits': \"If a unit card says hits "
            "may be applied to any line, the hero whose turn it is decides which defending line "
            'to apply them to." How the hero decides is not said. hero-pick (default): '
            "attacking, the Dragon Army line with ready units needing the fewest hits to shake "
            "them all (else the line with most units); defending, the Alliance line with units "
            "and the most barricades + ready units; ties to Foot, Missile, Mounted. facing: "
            "the hits go to the defending line of the attacking line's type.",
            "unit cards whose hits may go to any line",
            choices=("hero-pick", "facing"),
        ),
        R(
            "krynn.empty_lines",
            "no-fight",
            _A,
            f"{_BOOK}, '1: Determine Combat Strength': \"If the lines' combat strength is "
            "equal, the Dragon Army's line is the attacking line.\" With both lines empty the "
            "strengths are equal (0). Reading no-fight (default): an empty line cannot attack, "
            "nothing is revealed. Reading army-reveals: the Dragon Army line attacks and "
            'reveals a card, whose hits go to its target line and "any other effects still '
            'happen" ("3: Roll Battle Dice and Apply Hits").',
            "fights between two empty lines",
            choices=("no-fight", "army-reveals"),
        ),
        # ---------------------------------------------------------------- heroes
        R(
            "krynn.hero_policy",
            "last",
            _A,
            f"{_BOOK}, '3: Roll Battle Dice and Apply Hits': \"Heroes on the active "
            "flank may choose to absorb hits instead of units or barricades. For each hit they "
            'absorb, a hero takes 1 stress." When they choose to is not said. Assumed last: '
            "only a hit that would leave the Alliance no ready unit on the tile (so the tile "
            "is not lost), keeping stress for conflicts; or never, removals (a hit that would "
            "remove a unit) or all.",
            "heroes absorbing hits as stress (battle --hero-policy)",
            choices=HERO_POLICIES,
        ),
        R(
            "krynn.hero_choice",
            "least-stressed",
            _A,
            f"{_BOOK}, 'Stress' (p.8): \"Once a hero has reached their maximum stress, they must "
            'remove 1 card from their hand per additional stress they would take." Ability '
            "cards are not modelled, so no hero absorbs beyond the maximum stress; which hero "
            "below it absorbs is not said. least-stressed (default) spreads the stress, "
            "most-stressed puts it on one hero.",
            "which hero absorbs a hit",
            choices=("least-stressed", "most-stressed"),
        ),
        R(
            "krynn.max_stress",
            4,
            _P,
            f"{_BOOK}, 'Hero Board and Stress Marker': \"For Recruit-tier scenarios, your "
            'maximum stress is 4" (the tier option picks krynn.tier_max_stress).',
            "how much stress a hero may absorb",
            bounds=(1, 20),
        ),
        R(
            "krynn.line_capacity",
            6,
            _P,
            f"{_BOOK}, 'Battle Tiles': \"Each battle line has space for 6 units.\" A house rule "
            "may lower it (the kernels' end-of-game line histograms are sized for 6).",
            "units per line on a tile (--alliance / --army), units moving on control",
            bounds=(1, 6),
        ),
        R(
            "krynn.tier_max_stress",
            {"recruit": 4, "veteran": 5, "legendary": 6},
            _P,
            f"{_BOOK}, 'Hero Board and Stress Marker': \"For Recruit-tier scenarios, your "
            "maximum stress is 4; for Veteran-tier scenarios, it's 5; and for Legendary-tier "
            "scenarios, it's 6.\"",
            "battle --tier",
            bounds=(1, 20),
        ),
        R(
            "krynn.stress_recovery",
            0,
            _A,
            f"{_BOOK}, '3: Respite Phase': \"if your hero is on a tile with no Dragon Army "
            "units or vile champions on it, you may take respite: ... reduce your hero's "
            'stress by 2". Heroes on a battle tile being fought over share it with Dragon '
            "Army units, so by default they keep their stress from one battle to the next "
            "(0); a value N lets each hero lose up to N stress between two battles (2: one "
            "respite elsewhere each turn, 20: fresh heroes every battle).",
            "heroes' stress between the battles of one game or scenario",
            bounds=(0, 20),
        ),
        # ---------------------------------------------------------------- battle phase
        R(
            "krynn.p_all_out_mixed",
            0.5,
            _A,
            f"{_BOOK}, '4: Battle Phase' (p.10): \"The kind of battle is set by the last event "
            'card revealed during the event phase." Event decks are per scenario and not '
            "modelled; battle_type 'mixed' draws an all-out battle with this probability each "
            "turn, assumed even.",
            "battle type 'mixed' (the battlefield default)",
            bounds=(0, 1),
        ),
        R(
            "krynn.p_all_out_commanders",
            0.5,
            _A,
            f"{_BOOK}, 'Activate Commander Powers' (p.10): \"All-Out Battle - activate if "
            "instructed to by the last event card's 'Battle Phase' text.\" Event cards are not "
            "modelled; assumed they say so half the time, as the assumed skirmish die does.",
            "commander powers in all-out battles",
            bounds=(0, 1),
        ),
        R(
            "krynn.commander_fighting_line",
            "foot",
            _A,
            f"{_BOOK}, 'Activate Commander Powers' (p.10): a power aimed at 'the fighting line' "
            "(the assumed commanders' target) is the skirmish's line; in an all-out battle all "
            "3 lines fight, and which one it means is not said. Assumed Foot, the first to "
            'fight ("Foot, Missile, then Mounted"), or missile or mounted.',
            "commander powers in all-out battles",
            choices=LINES,
        ),
        R(
            "krynn.commander_dice_woe",
            "ignored",
            _A,
            f"{_BOOK}, 'Battle Dice' (p.5): a Woe is \"1 hit to a unit on the attacking line\". A "
            "commander power that rolls battle dice has no attacking line: its Woe results are "
            "ignored (default), or own-line: they hit the commander's side's line the power "
            "aims at.",
            "commander powers that roll battle dice",
            choices=("ignored", "own-line"),
        ),
        R(
            "krynn.mutual_control",
            "army",
            _A,
            f"{_BOOK}, 'Update Controlled Battle Tiles': \"A tile becomes controlled by "
            "one side either when all the opposing side's units are removed from that tile or "
            "when all the opposing side's units on that tile are shaken.\" Both sides at once "
            "is not covered; assumed the Dragon Army, as ties of combat strength go to it; or "
            "alliance, or none (the battles go on).",
            "a battle that leaves neither side a ready unit",
            choices=MUTUAL,
        ),
        # ---------------------------------------------------------------- battlefield
        R(
            "krynn.flank_move",
            "nearest-open",
            _A,
            f"{_BOOK}, 'Update Controlled Battle Tiles': \"move that tile's flank token "
            'and 1 unit of each type from the victorious side to a neighboring battle tile"; '
            "'Adjacent/Neighboring Tiles': neighbouring = adjacent or separated only by "
            "adventure tiles. Reading nearest-open (default): the nearest uncontrolled battle "
            "tile on each side in the row, one of the two at random (the token stays in play). "
            "Reading adjacent: the next tile on each side, controlled or not. Ready units move "
            "first; a full line (6 units) takes none.",
            "battlefield: the flank token and units moving on control",
            choices=("nearest-open", "adjacent"),
        ),
        R(
            "krynn.active_flank",
            "by-flank-tokens",
            _A,
            f"{_BOOK}, 'Update Controlled Battle Tiles': \"uncontrolled battle tiles may "
            "gain multiple flank tokens, so they're more likely to be the active flank\"; "
            "event cards choose it and are not modelled. Assumed an uncontrolled tile chosen "
            "with probability proportional to its flank tokens (by-flank-tokens), or each "
            "uncontrolled tile alike (uniform).",
            "battlefield: which tile fights each turn",
            choices=("by-flank-tokens", "uniform"),
        ),
        # ---------------------------------------------------------------- conflicts
        R(
            "krynn.conflict_retry",
            "new-pool",
            _A,
            f"{_BOOK}, 'Initiate a Conflict' (p.8): \"You start with 1 battle die ... spend any "
            "number of your remaining actions and discard any number of ability cards ... to "
            'add that many dice"; "If you roll fewer hits, you fail, but you may spend 1 or '
            'more actions to try again." Two readings. new-pool (default): a retry is a new '
            "attempt, built as the first (1 die for the action that starts it, 1 per further "
            "action and per card). carry-over: the pool is kept and rolled again, the retry's "
            "first action buys the roll and each further action or card adds a die. "
            "(Difficulty 3, 4 actions, 2 cards, best play: 0.786 against 0.893.)",
            "conflicts with more than one attempt",
            choices=("new-pool", "carry-over"),
        ),
    ]


RULES: dict[str, Rule] = {r.key: r for r in _rules()}
