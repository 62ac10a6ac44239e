"""One test per rule sentence of the Dragon Dice Dragon Rules (09/13/96).

Most use custom dice (dice are data), so a rule's effect is deterministic and the assertion is
exact: e.g. a dragon whose twelve faces are all claws against units that roll nothing.
Probabilistic checks use binomial tests at a tiny alpha (dragonsim.stats.binomial_consistent).
"""

from fractions import Fraction
from itertools import product

import pytest

from dragonsim.dice import attack, duel
from dragonsim.dice import data as D
from dragonsim.dice import kernel as K
from dragonsim.errors import UserError
from dragonsim.stats import binomial_consistent

N = 2000


def cat():
    c = D.Catalog()
    add = c.units.__setitem__
    add("blank", D.make_unit("blank", race="test", health=1, faces=["Maneuver 1"] * 6))
    add("big", D.make_unit("big", race="test2", health=2, faces=["Maneuver 1"] * 6))
    add("sword", D.make_unit("sword", race="test", health=1, faces=["Melee 1"] * 6))
    add("bow", D.make_unit("bow", race="test", health=1, faces=["Missile 1"] * 6))
    add("shield", D.make_unit("shield", race="test", health=1, faces=["Save 1"] * 6))
    add("idol", D.make_unit("idol", race="test", health=1, faces=["ID"] * 6))
    add(
        "half",
        D.make_unit("half", race="test", health=1, faces=["Save 1"] * 3 + ["Maneuver 1"] * 3),
    )
    # a promotion chain a -> b -> c
    add("a", D.make_unit("a", race="chain", health=1, faces=["Melee 1"] * 6, promotes_to="b"))
    add("b", D.make_unit("b", race="chain", health=2, faces=["Melee 1"] * 6, promotes_to="c"))
    add("c", D.make_unit("c", race="chain", health=3, faces=["Melee 1"] * 6))
    for col in ("red", "blue"):
        add(
            f"{col}-kin",
            D.make_unit(
                f"{col}-kin", race="kin", health=2, faces=["Maneuver 1"] * 6, kin_colour=col
            ),
        )
        add(
            f"{col}-kin-sword",
            D.make_unit(
                f"{col}-kin-sword", race="kin", health=1, faces=["Melee 1"] * 6, kin_colour=col
            ),
        )
        add(
            f"{col}-kin-bow",
            D.make_unit(
                f"{col}-kin-bow", race="kin", health=1, faces=["Missile 1"] * 6, kin_colour=col
            ),
        )
        add(
            f"{col}-kin-idol",
            D.make_unit(f"{col}-kin-idol", race="kin", health=1, faces=["ID"] * 6, kin_colour=col),
        )
    add(
        "blue-kin-belly",
        D.make_unit("blue-kin-belly", race="kin", health=2, faces=["Belly"] * 6, kin_colour="blue"),
    )
    add(
        "red-kin-1",
        D.make_unit("red-kin-1", race="kin", health=1, faces=["Maneuver 1"] * 6, kin_colour="red"),
    )
    return c


CAT = cat()


def dragon(colour="red", **icons):
    faces = []
    for icon, c in icons.items():
        faces += [icon] * c
    return D.make_dragon("test", colour=colour, faces=faces)


def run(dr, army, n=N, **kw):
    drs = dr if isinstance(dr, list) else [dr]
    return attack(drs, army, n=n, catalog=CAT, progress=False, **kw)


def always(r, key):
    return int(r.counters[key]) == r.n


def never(r, key):
    return int(r.counters[key]) == 0


def lost_always(r, h):
    return int(r.lost_hist[h]) == r.n


# ---------------------------------------------------------------- action icons
def test_claws_inflict_5_points_of_damage():
    """'Claws: A dragon's claws inflict 5 points of damage on an army.'"""
    assert lost_always(run(dragon(claw=12), {"blank": 8}), 5)


def test_jaws_inflict_10_points_of_damage():
    """'Jaws: A dragon's jaws inflict 10 points of damage on an army.'"""
    assert lost_always(run(dragon(jaws=12), {"blank": 12}), 10)


def test_tail_inflicts_3_and_rolls_again_until_something_else():
    """'Tail: ... 3 points of damage ... the dragon immediately rolls again ... This continues
    until something other than a tail icon comes up.' Half tails, half belly: lost = 3K with
    K geometric, P(K = k) = (1/2)**(k+1)."""
    n = 100_000
    r = run(dragon(tail=6, belly=6), {"blank": 200}, n=n)
    h = r.lost_hist
    assert h[[i for i in range(h.size) if i % 3]].sum() == 0
    for k in range(6):
        assert binomial_consistent(int(h[3 * k]), n, 0.5 ** (k + 1))


def test_tail_applies_the_new_result():
    """'applying the new results': tails then claws do 3K + 5."""
    r = run(dragon(tail=6, claw=6), {"blank": 200}, n=20_000)
    h = r.lost_hist
    assert h[:5].sum() == 0
    assert binomial_consistent(int(h[5]), r.n, 0.5)
    assert binomial_consistent(int(h[8]), r.n, 0.25)


def test_belly_no_automatic_saves_5_damage_slays():
    """'Belly: The dragon's 5 automatic saves don't count during the attack. In other words,
    5 point of damage will slay the dragon this turn.'"""
    assert always(run(dragon(belly=12), {"sword": 5}), K.C_ANY_SLAIN)
    assert never(run(dragon(belly=12), {"sword": 4}), K.C_ANY_SLAIN)
    assert never(run(dragon(claw=12), {"sword": 5}), K.C_ANY_SLAIN)


def test_5_health_and_5_saves_10_damage_slays():
    """'Each dragon has 5 health and 5 automatic saves ... it takes a total of 10 damage to
    slay a dragon (or only 5 when it rolls a belly icon).'"""
    assert never(run(dragon(claw=12), {"sword": 9}), K.C_ANY_SLAIN)
    assert always(run(dragon(claw=12), {"sword": 10}), K.C_ANY_SLAIN)
    # the printed values are arguments a study may vary
    assert never(run(dragon(claw=12), {"sword": 10}, dragon_saves=6), K.C_ANY_SLAIN)


def test_treasure_promotes_one_unit():
    """'Treasure: After the attack is resolved, one unit in the target army may be
    promoted.'"""
    r = run(dragon(treasure=12), {"a": 3})
    assert int(r.counters[K.C_PROMO]) == r.n and int(r.counters[K.C_PROMO_SQ]) == r.n
    assert lost_always(r, 0)


def test_treasure_only_on_wyrms_wing_only_on_drakes():
    """'This icon is found only on Wyrms.' / 'This icon is found only on drakes.'"""
    assert "treasure" in D.DRAGON_DICE["wyrm"].faces
    assert "treasure" not in D.DRAGON_DICE["drake"].faces
    assert "wing" in D.DRAGON_DICE["drake"].faces
    assert "wing" not in D.DRAGON_DICE["wyrm"].faces
    assert all(len(d.faces) == 12 for d in D.DRAGON_DICE.values())


def test_wing_flies_away_after_the_attack():
    """'Wing: After the attack is resolved, the dragon flies away.'"""
    r = run(dragon(wing=12), {"blank": 5}, turns=5)
    assert always(r, K.C_FLEW) and r.turns_played[0] == 1
    assert never(r, K.C_ANY_SLAIN)
    # ... after the attack is resolved: an army that slays it still slays it
    r = run(dragon(wing=12), {"sword": 10}, turns=5)
    assert always(r, K.C_ANY_SLAIN) and never(r, K.C_FLEW)


def test_a_wing_on_the_attack_that_destroys_the_army_ends_the_game_as_destroyed():
    """'After the attack is resolved, the dragon flies away': the attack that destroys the army
    leaves no battle to fly from, so that game counts as the army destroyed, never as both.
    Tails (3 damage each) then a wing destroy a lone 1-health unit; a wing first flies."""
    r = run(dragon(tail=6, wing=6), {"blank": 1}, n=20_000, turns=5)
    c = r.counters
    assert int(c[K.C_DESTROYED]) + int(c[K.C_FLEW]) == r.n  # disjoint, and every game ends
    assert binomial_consistent(int(c[K.C_FLEW]), r.n, 0.5)
    assert r.p_slain_and_destroyed.k == 0 and never(r, K.C_TIMEOUT)


# ---------------------------------------------------------------- the army's response
def test_army_uses_melee_or_missile_whichever_higher():
    """'The army's owner chooses either melee or missile results (whichever are higher) to
    inflict on the dragon'."""
    assert always(run(dragon(claw=12), {"bow": 10}), K.C_ANY_SLAIN)
    assert never(run(dragon(claw=12), {"bow": 5, "sword": 5}), K.C_ANY_SLAIN)


def test_saves_defend_against_the_dragons_damage():
    """'all saves defend against damage inflicted by the dragon's attack.'"""
    assert lost_always(run(dragon(claw=12), {"shield": 5, "blank": 5}), 0)
    assert lost_always(run(dragon(claw=12), {"shield": 4, "blank": 6}), 1)


def test_id_icons_as_melee_missile_or_save():
    """'ID icons can be used as melee, missile, or save results as the army's owner desires.'
    The split of one roll is an option: slay-first (default) and save-first."""
    r = run(dragon(claw=12), {"idol": 10})
    assert always(r, K.C_ANY_SLAIN) and lost_always(r, 5)
    r = run(dragon(claw=12), {"idol": 10}, id_split="save-first")
    assert never(r, K.C_ANY_SLAIN) and lost_always(r, 0)
    r = run(dragon(claw=12), {"idol": 15}, id_split="save-first")
    assert always(r, K.C_ANY_SLAIN) and lost_always(r, 0)


def test_dragon_attack_happens_each_turn_until_one_is_gone():
    """'Whenever a single dragon and an army are at the same terrain, a dragon attack occurs
    ... at the start of each player's turn': 12 units, 5 lost per attack, gone on the 3rd."""
    r = run(dragon(claw=12), {"blank": 12}, turns=10)
    assert r.turns_played[0] == 3 and always(r, K.C_DESTROYED) and lost_always(r, 12)
    s = r.survival()["army"]
    assert list(s[:4]) == [1.0, 1.0, 1.0, 0.0]


# ---------------------------------------------------------------- slaying and promotion
def test_slaying_promotes_as_many_units_as_possible_simultaneously():
    """'If an army slays a dragon, it may promote as many units as possible. ... All
    promotions occur simultaneously.' 5 a and 2 b: 7 promotions, none promoted twice."""
    r = run(dragon(belly=12), {"a": 5, "b": 2})
    assert always(r, K.C_ANY_SLAIN)
    assert int(r.counters[K.C_PROMO]) == 7 * r.n


def test_each_dragon_slain_grants_its_promotions():
    """Two dragons slain by one roll (melee on one, missile on the other): two rounds of
    promotions (assumed dice.promotion_rounds), a -> b -> c."""
    CAT.units["a-bow"] = D.make_unit(
        "a-bow", race="chain", health=1, faces=["Missile 1"] * 6, promotes_to="b"
    )
    r = run([dragon(belly=12), dragon(belly=12)], {"a": 5, "a-bow": 5})
    assert int(r.counters[K.C_SLAIN_SUM]) == 2 * r.n
    assert int(r.counters[K.C_PROMO]) == 20 * r.n  # 10 a -> b, then 10 b -> c


def test_promotion_rounds_option_once():
    """The assumed promotion_rounds can be overridden: one round per attack."""
    r = run([dragon(belly=12), dragon(belly=12)], {"a": 5, "a-bow": 5}, promotion_rounds="once")
    assert int(r.counters[K.C_PROMO]) == 10 * r.n


def test_partial_damage_lost_or_round_up():
    """Assumed partial_damage: 5 damage on three 2-health units kills two (1 point is lost);
    'round-up' kills the third too."""
    assert lost_always(run(dragon(claw=12), {"big": 3}), 4)
    r = run(dragon(claw=12), {"big": 3}, partial_damage="round-up")
    assert lost_always(r, 6) and always(r, K.C_DESTROYED)


def test_promotion_trades_for_a_dead_unit_of_the_same_race():
    """'Trade each unit for a dead unit of the same race but worth 1 health more.' With only
    the dead unit area as supply, two b in it allow two promotions."""
    r = run(dragon(belly=12), {"a": 5}, promotion_supply="dead-area", dead_area={"b": 2})
    assert int(r.counters[K.C_PROMO]) == 2 * r.n
    assert CAT.units["goblin-thug"].promotes_to == "goblin-slingman"
    assert CAT.units["coral-elf-bowman"].promotes_to == "coral-elf-trooper"


# ---------------------------------------------------------------- breath
def test_black_breath_kills_and_buries_units_rolling_id():
    """'Black -- Disase: All units in the target army are rolled; any that roll ID icons are
    killed and buried.'"""
    r = run(dragon("black", breath=12), {"idol": 6})
    assert always(r, K.C_DESTROYED) and int(r.counters[K.C_BURIED]) == 6 * r.n
    assert always(r, K.C_DESTROYED_BY_BREATH)  # resolved before the army could respond
    r = run(dragon("black", breath=12), {"blank": 6})
    assert lost_always(r, 0)
    n = 50_000
    r = run(dragon("black", breath=12), {"goblin-thug": 1, "blank": 1}, n=n)
    assert binomial_consistent(int(r.lost_hist[1]), n, 1 / 6)


def test_blue_breath_army_can_only_roll_saves():
    """'Blue -- Paralysis: The target army can only roll for saves ... it cannot roll for
    missile or melee results against the dragon that turn.' (ID counts only as saves.)"""
    assert never(run(dragon("blue", breath=12), {"sword": 12}), K.C_ANY_SLAIN)
    # tails then breath: 3K damage; the 12 ID results can only be saves, so nothing is
    # slain and units are lost only when 3K > 12 (K >= 5)
    n = 20_000
    r = run(dragon("blue", tail=6, breath=6), {"idol": 12}, n=n)
    assert never(r, K.C_ANY_SLAIN)
    assert binomial_consistent(int(r.lost_hist[0]), n, 1 - 0.5**5)
    assert binomial_consistent(int(r.lost_hist[3]), n, 0.5**6)


def test_gold_breath_five_units_killed_unless_they_save():
    """'Gold -- Turn to Stone: Five units from the target army are killed unless they can
    generate save results. Each unit must be rolled individually'."""
    r = run(dragon("gold", breath=12), {"blank": 7})
    assert lost_always(r, 5) and int(r.counters[K.C_BURIED]) == 0  # killed, not buried
    assert lost_always(run(dragon("gold", breath=12), {"shield": 7}), 0)
    n = 50_000
    r = run(dragon("gold", breath=12), {"half": 5, "blank": 1}, n=n)
    for k in range(6):  # each of the five saves on its own with probability 1/2
        assert binomial_consistent(
            int(r.lost_hist[k]), n, float(Fraction(1, 32) * [1, 5, 10, 10, 5, 1][k])
        )


def test_gold_breath_owner_chooses_targets():
    """'The army's owner chooses which units are targeted.'"""
    r = run(dragon("gold", breath=12), {"blank": 5, "shield": 5}, policy=("shield", "blank"))
    assert lost_always(r, 0)
    r = run(dragon("gold", breath=12), {"blank": 5, "shield": 5}, policy=("blank", "shield"))
    assert lost_always(r, 5)


def test_green_breath_halves_all_rolls():
    """'Green -- Frost: All rolls made by the target army ... are halved (rounded down)'."""
    assert never(run(dragon("green", breath=12), {"sword": 19}), K.C_ANY_SLAIN)
    assert always(run(dragon("green", breath=12), {"sword": 20}), K.C_ANY_SLAIN)
    # ID results halved too (frost_halving: per result type, before ID is allocated)
    assert never(run(dragon("green", breath=12), {"idol": 19}), K.C_ANY_SLAIN)
    assert always(run(dragon("green", breath=12), {"idol": 20}), K.C_ANY_SLAIN)
    # saves halved too: tails then breath, 3K damage against 6 shields halved to 3 saves
    n = 20_000
    r = run(dragon("green", tail=6, breath=6), {"shield": 6, "blank": 30}, n=n)
    assert binomial_consistent(int(r.lost_hist[0]), n, 0.75)  # K <= 1
    assert binomial_consistent(int(r.lost_hist[3]), n, 0.125)  # K = 2


def test_red_breath_five_health_killed_and_buried():
    """'Red -- Flame: Five health-worth of units from the target army are killed and
    buried.'"""
    r = run(dragon("red", breath=12), {"blank": 8})
    assert lost_always(r, 5) and int(r.counters[K.C_BURIED]) == 5 * r.n


def test_red_breath_owner_chooses_which_units_are_left():
    """'The army's owner chooses which units are left.' cheapest: 1,1,2 die (4 health), a 2
    is left; largest: 2,2,1 (5 health), a 1 is left."""
    assert lost_always(run(dragon("red", breath=12), {"big": 2, "blank": 2}), 4)
    assert lost_always(run(dragon("red", breath=12), {"big": 2, "blank": 2}, policy="largest"), 5)


def test_breath_resolved_before_the_army_responds():
    """'the effects of any dragon breath are resolved immediately (before the acting army
    responds to the dragon's attack)': a flamed army responds with what is left."""
    r = run(dragon("red", breath=12), {"sword": 10}, dragon_saves=0)
    # 5 swords burn first; the 5 left still slay a dragon with 5 health and no saves
    assert always(r, K.C_ANY_SLAIN)
    r = run(dragon("red", breath=12), {"sword": 9}, dragon_saves=1)
    assert never(r, K.C_ANY_SLAIN)


# ---------------------------------------------------------------- several dragons
def test_same_colour_dragons_attack_the_army_together():
    """'If multiple dragons of the same color are in the same terrain, they attack the acting
    player's army at the same time.'"""
    r = run([dragon(claw=12), dragon(claw=12)], {"blank": 12})
    assert lost_always(r, 10)


def test_melee_against_one_missile_against_another():
    """'An army attacked by multiple dragons may count its melee results against one and its
    missile results against another, possibly killing both with the same roll.'"""
    r = run([dragon(claw=12), dragon(claw=12)], {"sword": 10, "bow": 10, "blank": 20})
    assert always(r, K.C_ALL_SLAIN) and int(r.counters[K.C_SLAIN_SUM]) == 2 * r.n
    r = run([dragon(claw=12), dragon(claw=12)], {"sword": 20, "blank": 20})
    assert int(r.counters[K.C_SLAIN_SUM]) == r.n


def test_different_colours_attack_each_other_not_the_army():
    """'When dragons of different colors are in the same terrain, they attack one another
    rather than the acting player's army.'"""
    with pytest.raises(UserError, match="attack each other"):
        attack("red-wyrm,blue-drake", "goblin-horde", n=10)
    with pytest.raises(UserError, match="same colour"):
        duel("red-wyrm", "red-drake", n=10)


def _duel(a, b, **kw):
    return duel(a, b, n=N, catalog=CAT, progress=False, **kw)


def test_breath_negates_saves_in_dragon_vs_dragon():
    """'Any breaths rolled negate the 5 automatic saves': a breather and a clawer (red)
    against one blue dragon: 5 claw damage slays it because its saves are negated."""
    b = D.make_dragon("blue-claw", colour="blue", faces=["claw"] * 12)
    breather = D.make_dragon("breather", colour="red", faces=["breath"] * 12)
    clawer = D.make_dragon("clawer", colour="red", faces=["claw"] * 12)
    r = _duel([breather, clawer], [b])
    assert int(r.counters[K.V_B_ANY_SLAIN]) == r.n
    r = _duel([clawer], [b])
    assert int(r.counters[K.V_B_ANY_SLAIN]) == 0


def test_same_colours_team_up_against_another_colour():
    """'dragons of the same color team up against a dragon of a different color': two red
    clawers put 10 damage on the one blue dragon."""
    b = D.make_dragon("blue-claw", colour="blue", faces=["claw"] * 12)
    clawer = D.make_dragon("clawer", colour="red", faces=["claw"] * 12)
    r = _duel([clawer, clawer], [b])
    assert int(r.counters[K.V_B_ANY_SLAIN]) == r.n
    assert int(r.counters[K.V_A_ANY_SLAIN]) == 0  # 5 on one red: not enough


def _negation_exact(rounds: int, negate: int) -> Fraction:
    """P(the blue dragon is slain within `rounds`) by enumerating the red dragon's rolls:
    faces breath/claw/treasure (1/3 each), blue does nothing; claw slays iff negated."""
    total = Fraction(0)
    for seq in product("BCT", repeat=rounds):
        last_breath = -100
        for r, x in enumerate(seq):
            if x == "B":
                last_breath = r
            elif x == "C" and r - last_breath <= negate:
                total += Fraction(1, 3**rounds)
                break
    return total


@pytest.mark.parametrize("negate", [0, 1, 2])
def test_breath_negation_lasts_until_end_of_next_turn(negate):
    """'negate the 5 automatic saves until the end of the acting player's next turn': with
    two players that is this round and the next two (option breath_negation_rounds=2)."""
    red = D.make_dragon("r", colour="red", faces=["breath"] * 4 + ["claw"] * 4 + ["treasure"] * 4)
    blue = D.make_dragon("b", colour="blue", faces=["treasure"] * 12)
    n = 60_000
    r = duel(
        [red], [blue], n=n, turns=4, catalog=CAT, progress=False, breath_negation_rounds=negate
    )
    assert binomial_consistent(
        int(r.counters[K.V_B_ANY_SLAIN]), n, float(_negation_exact(4, negate))
    )


# ---------------------------------------------------------------- dragonkin
def test_dragonkin_armored_skin_saves_equal_to_health():
    """'Dragonkin have armored skin, giving them automatic saves equal to their health. These
    apply to the army's ... save rolls.'"""
    assert lost_always(run(dragon(claw=12), {"blank": 5, "blue-kin": 1}), 3)


def test_dragonkin_belly_loses_armor():
    """'Whenever a belly icon is rolled on a dragonkin unit, it loses its automatic saves for
    its armored skin during this action.'"""
    assert lost_always(run(dragon(claw=12), {"blank": 6, "blue-kin-belly": 1}), 5)


def test_dragonkin_armor_applies_to_its_own_save_roll():
    """'These apply to the army's and the dragonkin's own save rolls': turned to stone only
    on a belly."""
    r = run(dragon("gold", breath=12), {"blank": 1, "blue-kin": 5}, policy="kin-first")
    assert lost_always(r, 0)
    r = run(dragon("gold", breath=12), {"blank": 1, "blue-kin-belly": 5}, policy="kin-first")
    assert lost_always(r, 10)


def test_dragonkin_not_rolled_for_missile():
    """'Dragonkin are not included in any rolls for missile or magic.'"""
    assert never(run(dragon(belly=12), {"blank": 1, "blue-kin-bow": 5}), K.C_ANY_SLAIN)
    assert always(run(dragon(belly=12), {"blank": 1, "blue-kin-sword": 5}), K.C_ANY_SLAIN)


def test_dragonkin_do_not_battle_dragons_of_their_colour():
    """'Dragonkin will not battle dragons of their own color. During a dragon attack, the
    dragonkin are not rolled, and their saves do not apply.'"""
    assert never(run(dragon(belly=12), {"blank": 1, "red-kin-sword": 5}), K.C_ANY_SLAIN)
    assert lost_always(run(dragon(claw=12), {"blank": 6, "red-kin": 1}), 5)
    # not rolled for black disease either
    r = run(dragon("black", breath=12), {"blank": 1, "blue-kin-idol": 3})
    assert lost_always(r, 3)
    r = run(dragon("blue", breath=12), {"blank": 1, "blue-kin-idol": 3})
    assert lost_always(r, 0)


def test_dragonkin_can_be_chosen_as_casualties():
    """'However, they can be chosen as casualties during the attack.' and 'If all other army
    units are killed ..., the dragonkin are removed from play'."""
    r = run(dragon(claw=12), {"blank": 1, "red-kin-1": 5}, policy="kin-first")
    assert never(r, K.C_DESTROYED) and lost_always(r, 5)
    r = run(dragon(claw=12), {"blank": 1, "red-kin-1": 5}, policy="army-order")
    assert always(r, K.C_DESTROYED) and lost_always(r, 6)


def test_army_cannot_consist_solely_of_dragonkin():
    """'Any army cannot consist solely of dragonkin.'"""
    with pytest.raises(UserError, match="solely of dragonkin"):
        run(dragon(claw=12), {"blue-kin": 3})


def test_multiple_colours_attack_each_other_same_colours_team_up():
    """'If there are multiple dragons of different colors, they attack each other. In such
    cases, dragons of the same color team up against a dragon of a different color.' Two red
    clawers slay the blue clawer (10 damage), then the idle green one; red wins in 2 rounds."""
    red = D.make_dragon("red-claw", colour="red", faces=["claw"] * 12)
    blue = D.make_dragon("blue-claw", colour="blue", faces=["claw"] * 12)
    green = D.make_dragon("green-idle", colour="green", faces=["treasure"] * 12)
    r = duel([red, red], [blue], [green], n=N, turns=5, catalog=CAT, progress=False)
    assert r.colours == ["red", "blue", "green"]
    assert r.p_team_wins(0).k == r.n and r.rounds[0] == 2
    assert r.p_team_slain(1).k == r.n and r.p_team_slain(2).k == r.n
    assert r.p_team_slain(0).k == 0  # blue and green each put 5 or 0 on one red: not enough
    # one spec, grouped by colour
    r2 = duel([red, blue, red, green], n=N, turns=5, catalog=CAT, progress=False)
    assert r2.colours == ["red", "blue", "green"] and r2.p_team_wins(0).k == r2.n


# ---------------------------------------------------------------- kernel limits
def test_big_army_response_does_not_overflow_the_packed_sum():
    """The kernel sums a die's packed results in K.RB-bit fields: 205 units of Melee 20 roll
    4100 melee, more than one field holds (4095), so the kernel must sum in blocks; the dragon
    (200 health + saves) is then always slain, and a wrapped sum (4100 - 4096 = 4) never."""
    c = cat()
    c.units["titan"] = D.make_unit("titan", race="big", health=1, faces=["Melee 20"] * 6)
    r = attack(
        [dragon(claw=12)],
        {"titan": 205},
        n=200,
        catalog=c,
        progress=False,
        dragon_health=100,
        dragon_saves=100,
    )
    assert always(r, K.C_ANY_SLAIN)


def test_face_values_the_packed_sum_cannot_hold_are_refused():
    import dataclasses

    from dragonsim.dice.api import build_army

    c = cat()
    u = c.units["sword"]
    c.units["sword"] = dataclasses.replace(u, faces=(("melee", K.MAX_FACE_VALUE + 1),) * 6)
    with pytest.raises(UserError, match="face counts"):
        build_army({"sword": 1}, c, colour=D.COLOURS.index("red"))
