"""One test per rule sentence of the Warriors of Krynn battle phase (rulebook pages 4-11).

Each test quotes the sentence it checks. Dice and decks are kernel arguments, so most tests use
deterministic dice (every face the same) and one-card decks: the outcome is then forced and the
test fails if the rule is missing.
"""

import numpy as np
import pytest

from dragonsim.krynn import engine as K
from dragonsim.krynn.api import Tile, battlefield
from dragonsim.krynn.data import Commander, UnitCard, default_rules
from dragonsim.krynn.odds import apply_hits_reference


# --- helpers --------------------------------------------------------------------------------------
def die(hits, woe):
    """A battle die whose every face gives (hits, woe)."""
    return np.array([hits] * 6, np.int64), np.array([woe] * 6, np.int64)


def deck_rules(cards=None, **kw):
    """Rules whose every deck is one card (or the given per-(side, line) cards)."""
    r = default_rules()
    one = UnitCard("x", "hits", 0, "foot")
    decks = {
        s: {line: (one,) for line in ("foot", "missile", "mounted")} for s in ("alliance", "army")
    }
    for (s, line), c in (cards or {}).items():
        decks[s][line] = c if isinstance(c, tuple) else (c,)
    return r.replace(decks=decks, **kw)


def opts_for(rules, heroes=0, max_turns=1, limit=0):
    o = np.zeros(K.N_OPTS, np.int64)
    o[: K.N_RULE_OPTS] = rules.options_array()
    o[K.O_HEROES] = heroes
    o[K.O_MAX_TURNS] = max_turns
    o[K.O_STRESS_BINS] = heroes * rules.max_stress + 1
    o[K.O_CONTROL_LIMIT] = limit
    return o


class Game:
    """One tile's state and everything a kernel function needs, for calling rule functions."""

    def __init__(self, rules=None, hits=(1, 0), heroes=0, **tile):
        self.rules = rules or deck_rules()
        u, cmd, tab = Tile(**tile).arrays()
        self.u, self.cmd, self.tab = u[None].copy(), cmd[None].copy(), tab[None].copy()
        self.cards, self.sizes = self.rules.deck_arrays()
        self.order = np.zeros((2, 3, self.cards.shape[2]), np.int64)
        for s in range(2):
            for li in range(3):
                self.order[s, li, : self.sizes[s, li]] = np.arange(self.sizes[s, li])
        self.ptr = np.zeros((2, 3), np.int64)
        self.dh, self.dw = die(*hits)
        self.opts = opts_for(self.rules, heroes=heroes)
        self.stress = np.zeros(max(1, heroes), np.int64)
        self.g = np.zeros(K.N_G, np.int64)
        self.st = [np.zeros(1, np.uint64) for _ in range(3)]
        for i, s in enumerate(self.st):
            s[0] = np.uint64(12345 + i)

    def line(self, side, line):
        s = ("alliance", "army").index(side)
        li = ("foot", "missile", "mounted").index(line)
        return tuple(int(x) for x in self.u[0, s, li])

    def records(self, sk_line=(0,), sk_cmd=(0,), p_all_out=0.0, p_cmd=0.0):
        """The engine's records over this game's arrays (they share the arrays)."""
        gm = K.Game(
            self.u,
            self.cmd,
            self.order,
            self.ptr,
            np.ones(1, np.int64),
            np.full(1, -1, np.int64),
            self.stress,
            self.g,
            *self.st,
        )
        tb = K.Tables(
            self.cards,
            self.sizes,
            self.dh,
            self.dw,
            np.array(sk_line, np.int64),
            np.array(sk_cmd, np.int64),
            self.opts,
            np.array([p_all_out, p_cmd]),
        )
        return gm, tb

    def fight(self, line):
        li = ("foot", "missile", "mounted").index(line)
        gm, tb = self.records()
        return K.fight(gm, 0, li, tb)

    def battle(self, sk_line, sk_cmd, p_all_out=0.0, p_cmd=0.0):
        gm, tb = self.records(sk_line, sk_cmd, p_all_out, p_cmd)
        return K.battle_step(gm, 0, self.tab, tb)

    def hit(self, side, line, n):
        s = ("alliance", "army").index(side)
        li = ("foot", "missile", "mounted").index(line)
        K.apply_hits(self.u, 0, s, li, n, self.opts, self.stress, self.g)


HIT = UnitCard("hit", "hits", 1, "foot")


# --- 1: Determine Combat Strength -----------------------------------------------------------------
def test_combat_strength_counts_ready_and_shaken_units():
    """ "add the number of units (ready or shaken) on that line to the number of tactic tokens
    on that line ... The line with the greater total is the attacking line." """
    g = Game(alliance="foot=2", army="foot=1,missile=1", alliance_shaken="foot=2")
    assert g.fight("foot") == K.ALLIANCE  # 2 shaken units beat 1 ready unit


def test_tactic_tokens_add_to_combat_strength():
    """ "Each tactic token on a battle line increases the combat strength of that line by 1 for
    its next fight." """
    g = Game(alliance="foot=2", army="foot=2")
    assert g.fight("foot") == K.ARMY
    g = Game(alliance="foot=2", army="foot=2", alliance_tactics="foot=1")
    assert g.fight("foot") == K.ALLIANCE


def test_equal_strength_goes_to_the_dragon_army():
    """ "If the lines' combat strength is equal, the Dragon Army's line is the attacking line." """
    g = Game(alliance="foot=3", army="foot=2", army_tactics="foot=1")
    assert g.fight("foot") == K.ARMY


def test_tactic_tokens_removed_once_strength_is_determined():
    """ "Once the combat strength of a line is determined, remove any tactic tokens on that
    line." (both lines, the losing one too)"""
    g = Game(alliance="foot=2", army="foot=2", alliance_tactics="foot=2", army_tactics="foot=1")
    g.fight("foot")
    assert g.line("alliance", "foot")[K.TAC] == 0
    assert g.line("army", "foot")[K.TAC] == 0


def test_tactic_tokens_on_a_line_whose_units_are_all_removed_are_removed():
    """ "If all the units on a line are removed, any tactic tokens on that line are also
    removed." """
    g = Game(alliance="foot=1", army="foot=1", alliance_shaken="foot=1", alliance_tactics="foot=2")
    g.hit("alliance", "foot", 1)
    assert g.line("alliance", "foot") == (0, 0, 0, 0, 0)


def test_tactic_tokens_cannot_go_on_an_empty_line():
    """ "Tactic tokens can't be added to a battle line with no units." """
    g = Game(alliance="foot=1", army="foot=1")
    K.add_tactics(g.u, 0, 0, 1, 2)
    assert g.line("alliance", "missile")[K.TAC] == 0
    from dragonsim.errors import UserError

    with pytest.raises(UserError, match="tactic tokens can't be added"):
        Tile(alliance="foot=1", army="foot=1", alliance_tactics="missile=1").arrays()


# --- 2: Reveal a Unit Card ------------------------------------------------------------------------
def test_card_comes_from_the_attacking_lines_deck():
    """ "Reveal a unit card from the deck matching the attacking line's unit type." The Alliance
    Foot deck hits the Dragon Army Missile line, the Army's Foot deck its Mounted line."""
    r = deck_rules(
        {
            ("alliance", "foot"): UnitCard("a", "hits", 1, "missile"),
            ("army", "foot"): UnitCard("b", "hits", 1, "mounted"),
        }
    )
    g = Game(r, alliance="foot=3,mounted=1", army="foot=1,missile=1")
    g.fight("foot")
    assert g.line("army", "missile")[:2] == (0, 1)
    g = Game(r, alliance="foot=1,mounted=1", army="foot=3,missile=1")
    g.fight("foot")
    assert g.line("alliance", "mounted")[:2] == (0, 1)


def test_empty_deck_reshuffles_its_discard_pile():
    """ "If that line's unit deck is empty, shuffle its discard pile to form a new unit deck
    first." Every run of 3 reveals from a 3-card deck is a permutation (no card comes back
    before the deck is used up), and each card is equally likely to open a new deck."""
    from dragonsim.stats import binomial_consistent

    order = np.zeros((2, 3, 3), np.int64)
    order[0, 0] = [0, 1, 2]
    ptr = np.zeros((2, 3), np.int64)
    st = np.zeros(1, np.uint64)
    st[0] = np.uint64(7)
    first = np.zeros(3, np.int64)
    blocks = 3000
    for _ in range(blocks):
        got = [K.draw_card(st, order, ptr, 0, 0, 3) for _ in range(3)]
        assert sorted(got) == [0, 1, 2]
        first[got[0]] += 1
    for k in first:
        assert binomial_consistent(k, blocks, 1 / 3)


def test_revealed_card_goes_to_the_discard_pile():
    """ "resolve the unit card and put it in the corresponding discard pile." """
    g = Game(
        deck_rules({("alliance", "foot"): (HIT, UnitCard("y", "hits", 0, "foot"))}),
        alliance="foot=3",
        army="foot=1,missile=1",
    )
    g.fight("foot")
    assert g.ptr[0, 0] == 1 and g.ptr.sum() == 1


# --- 3: Roll Battle Dice and Apply Hits -----------------------------------------------------------
def test_card_applies_fixed_hits_or_rolls_dice():
    """ "A unit card states whether to apply a certain number of hits or to roll battle dice."
    With a blank die, a fixed-hits card still hits and a dice card does not."""
    fixed = deck_rules({("alliance", "foot"): UnitCard("f", "hits", 2, "foot")})
    dice = deck_rules({("alliance", "foot"): UnitCard("d", "dice", 2, "foot")})
    g = Game(fixed, hits=(0, 0), alliance="foot=3", army="foot=2,missile=1")
    g.fight("foot")
    assert g.line("army", "foot")[:2] == (0, 2)
    g = Game(dice, hits=(0, 0), alliance="foot=3", army="foot=2,missile=1")
    g.fight("foot")
    assert g.line("army", "foot")[:2] == (2, 0)
    g = Game(dice, hits=(1, 0), alliance="foot=3", army="foot=2,missile=1")
    g.fight("foot")
    assert g.line("army", "foot")[:2] == (0, 2)


def test_woe_hits_the_attacking_line_after_the_defending_line():
    """ "Once hits have been applied to the defending line, any hits from Woe results are
    applied to the attacking line." A die of Woe only: the attacker loses, the defender not."""
    r = deck_rules({("alliance", "foot"): UnitCard("d", "dice", 2, "foot")})
    g = Game(r, hits=(0, 1), alliance="foot=3,missile=1", army="foot=2")
    g.fight("foot")
    assert g.line("army", "foot")[:2] == (2, 0)
    assert g.line("alliance", "foot")[:2] == (2, 0)  # 2 Woe: shaken, then removed (shaken-first)


def test_any_line_card_goes_where_the_hero_decides():
    """ "If a unit card says hits may be applied to any line, the hero whose turn it is decides
    which defending line to apply them to." Attacking, the hero hits the Army line that is
    easiest to shake; defending, the Alliance line with the most barricades and ready units."""
    r = deck_rules(
        {
            ("alliance", "foot"): UnitCard("a", "hits", 1, "any"),
            ("army", "foot"): UnitCard("b", "hits", 1, "any"),
        }
    )
    g = Game(r, alliance="foot=3", army="foot=2,missile=3,mounted=1")
    g.fight("foot")
    assert g.line("army", "mounted")[:2] == (0, 1)
    g = Game(r, alliance="foot=1,missile=1,mounted=3", army="foot=3")
    g.fight("foot")
    assert g.line("alliance", "mounted")[:2] == (2, 1)
    # a line already all shaken is not worth hitting while another has a ready unit
    g = Game(r, alliance="foot=3", army="foot=2,missile=1,mounted=1", army_shaken="missile=1")
    g.fight("foot")
    assert g.line("army", "missile")[:2] == (0, 1) and g.line("army", "mounted")[:2] == (0, 1)


def test_barricades_absorb_hits_first_and_are_removed():
    """ "Hits to a line are applied to its barricades, if any, first. After a barricade has
    absorbed a hit, it is removed. Any remaining hits are applied to that line's units." """
    g = Game(alliance="foot=3", army="foot=1", alliance_barricades="foot=2")
    g.hit("alliance", "foot", 3)
    r, s, br, bs, _ = g.line("alliance", "foot")
    assert (br + bs, r, s) == (0, 2, 1)


def test_ready_unit_hit_is_shaken_and_shaken_unit_hit_is_removed():
    """ "A ready unit that takes 1 hit is shaken. A shaken unit that takes 1 hit is removed." """
    g = Game(alliance="foot=1", army="foot=1")
    g.hit("alliance", "foot", 1)
    assert g.line("alliance", "foot")[:2] == (0, 1)
    g.hit("alliance", "foot", 1)
    assert g.line("alliance", "foot")[:2] == (0, 0)


@pytest.mark.parametrize("heroes", [0, 1])
@pytest.mark.parametrize("ready_first", [False, True])
def test_hit_order_policy_matches_the_reference(ready_first, heroes):
    """Which unit of a line takes a hit is not printed; both policies match the slow reference
    for every small line state, in the closed form (no heroes) and in the hit-by-hit path
    (a hero present but already at maximum stress)."""
    name = "ready-first" if ready_first else "shaken-first"
    rules = deck_rules(alliance_hits=name, hero_policy="all")
    g = Game(rules, heroes=heroes, alliance="foot=1", army="foot=1")
    g.stress[:] = rules.max_stress
    for r in range(4):
        for s in range(4 - r):
            for b in range(r + s + 1):
                for hits in range(7):
                    br = min(b, r)
                    g.u[0, 0, 0] = (r, s, br, b - br, 0)
                    g.hit("alliance", "foot", hits)
                    want = apply_hits_reference((r, s, br, b - br), hits, ready_first=ready_first)
                    assert g.line("alliance", "foot")[:4] == want


def test_heroes_absorb_hits_as_stress():
    """ "Heroes on the active flank may choose to absorb hits instead of units or barricades.
    For each hit they absorb, a hero takes 1 stress." Policy 'all', 2 heroes at maximum stress
    4: 8 hits are absorbed, the 9th shakes a unit."""
    rules = deck_rules(hero_policy="all")
    g = Game(rules, heroes=2, alliance="foot=2", army="foot=1")
    g.hit("alliance", "foot", 9)
    assert list(g.stress) == [4, 4]
    assert g.g[K.G_STRESS] == 8
    assert g.line("alliance", "foot")[:2] == (1, 1)


def test_heroes_never_absorb_for_the_dragon_army_or_under_policy_never():
    rules = deck_rules(hero_policy="all")
    g = Game(rules, heroes=2, alliance="foot=2", army="foot=2")
    g.hit("army", "foot", 1)
    assert g.g[K.G_STRESS] == 0
    g = Game(deck_rules(hero_policy="never"), heroes=2, alliance="foot=2", army="foot=2")
    g.hit("alliance", "foot", 1)
    assert g.g[K.G_STRESS] == 0


def test_hero_policy_last_saves_the_last_ready_unit():
    """Policy 'last' (assumed default): a hero absorbs only the hit that would leave the
    Alliance without a ready unit on the tile."""
    g = Game(deck_rules(hero_policy="last"), heroes=1, alliance="foot=2", army="foot=1")
    g.hit("alliance", "foot", 2)  # shaken-first: shake one, remove it
    assert g.g[K.G_STRESS] == 0
    g.hit("alliance", "foot", 1)  # would shake the last ready unit
    assert g.g[K.G_STRESS] == 1 and g.line("alliance", "foot")[:2] == (1, 0)


def test_hits_stop_when_no_units_remain():
    """ "Apply hits to a line until the hits have all been applied or no units remain on that
    line." Extra hits are lost, not moved to another line."""
    g = Game(alliance="foot=2,missile=2", army="foot=1")
    g.hit("alliance", "foot", 10)
    assert g.line("alliance", "foot")[:2] == (0, 0)
    assert g.line("alliance", "missile")[:2] == (2, 0)


def test_card_at_an_empty_line_still_has_its_other_effects():
    """ "If a unit card is targeting a line with no units, it doesn't apply hits to that line,
    but any other effects still happen." """
    r = deck_rules({("alliance", "foot"): UnitCard("t", "hits", 3, "mounted", "tactic", 2)})
    g = Game(r, alliance="foot=3", army="foot=1,missile=1")
    g.fight("foot")
    assert g.line("alliance", "foot")[K.TAC] == 2
    assert g.line("army", "missile")[:2] == (1, 0)


def test_shake_effect_cannot_shake_units_on_barricades():
    """ "Any card or power that would directly Shake a unit on a barricade has no effect on the
    barricade or the unit." """
    g = Game(alliance="foot=3", army="foot=1", alliance_barricades="foot=2")
    K.shake_units(g.u, 0, 0, 0, 3)
    assert g.line("alliance", "foot")[:4] == (2, 1, 2, 0)


def test_one_barricade_per_unit():
    """ "Each unit can have only 1 barricade, and barricades can't be placed on spaces without
    units." """
    g = Game(alliance="foot=2", army="foot=1")
    K.add_barricades(g.u, 0, 0, 0, 5)
    K.add_barricades(g.u, 0, 0, 1, 5)
    assert g.line("alliance", "foot")[2] + g.line("alliance", "foot")[3] == 2
    assert g.line("alliance", "missile")[2:4] == (0, 0)


# --- battle types and commanders ------------------------------------------------------------------
def test_skirmish_only_the_rolled_line_fights():
    """ "If you roll the Foot, Missile, or Mounted symbol, only that line fights." """
    r = deck_rules(
        {
            (s, line): UnitCard("h", "hits", 1, line)
            for s in ("alliance", "army")
            for line in ("foot", "missile", "mounted")
        }
    )
    g = Game(r, alliance="foot=2,missile=2,mounted=2", army="foot=1,missile=1,mounted=1")
    g.battle([1], [0])
    assert g.line("army", "missile")[:2] == (0, 1)
    assert g.line("army", "foot")[:2] == (1, 0) and g.line("army", "mounted")[:2] == (1, 0)


def test_all_out_battle_fights_foot_then_missile_then_mounted():
    """ "all 3 lines fight in the following order: Foot, Missile, then Mounted". The Alliance
    Foot card removes a Dragon Army Missile unit first, so the Alliance Missile line then
    attacks (2 > 1) and hits the Army's Mounted line; fought the other way round, the Army
    Missile line would attack (2 = 2)."""
    r = deck_rules(
        {
            ("alliance", "foot"): UnitCard("f", "hits", 2, "missile"),
            ("alliance", "missile"): UnitCard("m", "hits", 1, "mounted"),
            ("army", "missile"): UnitCard("am", "hits", 1, "mounted"),
        },
        army_hits="shaken-first",
    )
    g = Game(r, alliance="foot=3,missile=2,mounted=2", army="foot=1,missile=2,mounted=3")
    g.battle([0], [0], p_all_out=1.0)
    assert g.line("army", "missile")[:2] == (1, 0)
    assert g.line("army", "mounted")[:2] == (2, 1)
    assert g.line("alliance", "mounted")[:2] == (2, 0)


def test_commander_symbol_activates_ready_commanders():
    """ "If you roll the Foot, Missile, or Mounted symbol plus the commander symbol on the same
    face, commander powers may also come into play" (and not without it)."""
    strike = Commander("s", "hits", 1, "mounted")
    for flag, want in ((0, (1, 0)), (1, (0, 1))):
        g = Game(alliance="foot=1,mounted=1", army="foot=1,missile=1", army_commander=strike)
        g.battle([1], [flag])
        assert g.line("alliance", "mounted")[:2] == want


def test_shaken_commander_does_not_activate():
    """ "Ready commanders have powers that activate before some battles." """
    g = Game(
        alliance="foot=1,mounted=1",
        army="foot=1,missile=1",
        alliance_commander=Commander("s", "hits", 1, "foot"),
        alliance_commander_shaken=True,
    )
    g.battle([1], [1])
    assert g.line("army", "foot")[:2] == (1, 0)
    g.cmd[0, 0] = 1  # the same commander, ready, does shake it
    g.battle([1], [1])
    assert g.line("army", "foot")[:2] == (0, 1)


def test_dragon_army_commander_activates_first():
    """ "If commanders on both sides are ready, activate the Dragon Army commander's powers
    first." The Army shakes an Alliance Foot unit, then the Alliance rally refreshes it; the
    other order would leave it shaken."""
    g = Game(
        alliance="foot=2",
        army="foot=1,missile=1",
        army_commander=Commander("s", "hits", 1, "foot"),
        alliance_commander=Commander("r", "rally", 1, "foot"),
    )
    g.battle([1], [1])
    assert g.line("alliance", "foot")[:2] == (2, 0)


@pytest.mark.parametrize("p_cmd, want", [(0.0, (1, 0)), (1.0, (0, 1))])
def test_all_out_commanders_follow_the_event_card(p_cmd, want):
    """ "All-Out Battle—activate if instructed to by the last event card's "Battle Phase"
    text." (the event card is the probability ``p_all_out_commanders``)"""
    g = Game(
        alliance="foot=1,mounted=1",
        army="missile=1",
        army_commander=Commander("s", "hits", 1, "mounted"),
    )
    g.battle([0], [0], p_all_out=1.0, p_cmd=p_cmd)
    assert g.line("alliance", "mounted")[:2] == want


def test_card_effect_shakes_the_defending_commander():
    r = deck_rules({("alliance", "foot"): UnitCard("c", "hits", 0, "foot", "shake-commander")})
    g = Game(r, alliance="foot=3", army="foot=1,missile=1", army_commander="strike")
    g.fight("foot")
    assert g.cmd[0, 1] == 2


# --- Update Controlled Battle Tiles ---------------------------------------------------------------
def test_control_when_all_opposing_units_removed_or_shaken():
    """ "A tile becomes controlled by one side either when all the opposing side's units are
    removed from that tile or when all the opposing side's units on that tile are shaken." """
    g = Game(alliance="foot=1", army="foot=1,missile=1", army_shaken="foot=1,missile=1")
    assert K.control(g.u, 0, g.opts) == K.ALLIANCE
    g = Game(alliance="foot=1", army="foot=1,missile=1", army_shaken="foot=1")
    assert K.control(g.u, 0, g.opts) == -1
    g.hit("army", "missile", 2)  # ready-first: shaken, then removed
    assert g.line("army", "missile")[:2] == (0, 0)
    assert K.control(g.u, 0, g.opts) == K.ALLIANCE
    g = Game(alliance="foot=2", army="foot=1", alliance_shaken="foot=2")
    assert K.control(g.u, 0, g.opts) == K.ARMY


def test_on_control_commanders_and_defeated_shaken_units_removed():
    """ "When a tile becomes controlled, remove all commanders from that tile. Then remove all
    shaken units from the defeated side." The victor keeps its shaken units."""
    g = Game(
        alliance="foot=2,missile=1",
        army="foot=3",
        alliance_shaken="foot=1",
        army_shaken="foot=3",
        alliance_commander="rally",
        army_commander="strike",
    )
    K.take_control(g.u, 0, K.ALLIANCE, g.cmd)
    assert list(g.cmd[0]) == [0, 0]
    assert g.line("army", "foot")[:2] == (0, 0)
    assert g.line("alliance", "foot")[:2] == (1, 1)


def test_flank_token_and_one_unit_of_each_type_move_to_a_neighbour():
    """ "move that tile's flank token and 1 unit of each type from the victorious side to a
    neighboring battle tile" (nearest uncontrolled tile; ready units first)."""
    t0 = Tile(alliance="foot=2,missile=1", army="foot=1").arrays()
    t1 = Tile(alliance="foot=1", army="foot=1").arrays()
    u = np.stack([t0[0], t1[0], t1[0]])
    ctl = np.array([0, -1, -1], np.int64)
    flank = np.array([2, 1, 1], np.int64)
    st = np.zeros(1, np.uint64)
    K.move_flank(u, 0, 0, ctl, flank, st, 0, 6)
    assert list(flank) == [0, 3, 1]
    assert u[1, 0, 0, K.R] == 2 and u[1, 0, 1, K.R] == 1 and u[1, 0, 2, K.R] == 0
    assert u[0, 0, 0, K.R] == 1 and u[0, 0, 1, K.R] == 0


def _decisive_rules():
    """Every card: 6 fixed hits at the facing line; skirmish die always Foot."""
    cards = {
        (s, line): UnitCard("x", "hits", 6, line)
        for s in ("alliance", "army")
        for line in ("foot", "missile", "mounted")
    }
    return deck_rules(cards, skirmish_die=["foot"] * 6)


def test_all_tiles_controlled_outcome_by_who_controls_more():
    """ "If all the battle tiles become controlled and the scenario hasn't ended in a loss, the
    scenario immediately ends. The outcome depends on which side controls more tiles." """
    strong, weak = "foot=6", "foot=1"
    a_tile = Tile(alliance=strong, army=weak)
    d_tile = Tile(alliance=weak, army=strong)
    kw = dict(n=300, progress=False, rules=_decisive_rules(), battle_type="skirmish")
    assert battlefield([a_tile, a_tile, d_tile], **kw).rate("win").k == 300
    assert battlefield([a_tile, d_tile], **kw).rate("hold").k == 300
    assert battlefield([a_tile, d_tile, d_tile], **kw).rate("loss").k == 300


def test_dragon_army_control_limit_ends_in_a_loss():
    """Scenario ends when "The Dragon Army takes control of too many battle tiles"."""
    a_tile = Tile(alliance="foot=6", army="foot=1")
    d_tile = Tile(alliance="foot=1", army="foot=6")
    res = battlefield(
        [a_tile, a_tile, d_tile],
        control_limit=1,
        n=300,
        progress=False,
        rules=_decisive_rules(),
        battle_type="skirmish",
    )
    assert res.rate("loss_by_limit").k == 300


def test_repeated_battles_until_the_tile_is_controlled():
    """Battles repeat turn after turn; a tile whose single-hit fights need 2 battles to shake
    both Army units is controlled on turn 2 exactly."""
    from dragonsim.krynn.api import battle

    r = deck_rules(
        {("alliance", "foot"): UnitCard("h", "hits", 1, "foot")},
        skirmish_die=["foot"] * 6,
        army_hits="ready-first",
    )
    res = battle(alliance="foot=3", army="foot=2", n=200, progress=False, rules=r)
    assert res.p_alliance_controls.k == 200
    assert res.mean_turns[0] == 2.0


def test_active_flank_is_chosen_in_proportion_to_flank_tokens():
    """ "uncontrolled battle tiles may gain multiple flank tokens, so they're more likely to be
    the active flank" (assumed: in proportion). Tile 0 (3 tokens) falls to the Alliance in one
    battle, tile 1 (1 token) to the Army, and a control limit of 1 ends the scenario when the
    Army takes tile 1: on turn 1 if it fought first (chance 1/4), else on turn 2."""
    from dragonsim.stats import binomial_consistent

    a_tile = Tile(alliance="foot=6", army="foot=1", flank=3)
    d_tile = Tile(alliance="foot=1", army="foot=6", flank=1)
    n = 20_000
    res = battlefield(
        [a_tile, d_tile],
        control_limit=1,
        n=n,
        progress=False,
        rules=_decisive_rules(),
        battle_type="skirmish",
    )
    assert res.rate("loss_by_limit").k == n
    second = int(res.counters[K.F_TURNS_SUM]) - n
    assert binomial_consistent(second, n, 0.75)


def test_control_is_updated_after_all_fights_of_the_battle():
    """Battle phase order: "Resolve fights between lines." then "Update controlled battle
    tiles." In an all-out battle the Missile line still fights after the Foot fight has left
    the Dragon Army without units; control is then given to the Alliance."""
    r = deck_rules(
        {
            ("alliance", "foot"): UnitCard("f", "hits", 2, "foot"),
            ("alliance", "missile"): UnitCard("m", "hits", 0, "foot", "tactic", 1),
        }
    )
    g = Game(r, alliance="foot=2,missile=1", army="foot=1")
    assert g.battle([0], [0], p_all_out=1.0) == K.ALLIANCE
    assert g.line("army", "foot")[:2] == (0, 0)
    assert g.line("alliance", "missile")[K.TAC] == 1
