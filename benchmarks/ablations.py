"""What each of the default bot's capabilities is worth: the full bot against itself without it.
Not a test: prints a table (``results/ablations.txt``).

    python benchmarks/ablations.py [-n 4000] [--seed 21] [--out results/ablations.txt]

For every capability a planner can play without (``hunter~engage``,
:data:`dragonsim.lords.bots.registry.CAPABILITIES`) and every preset where its rule is in
force, the default bot plays the bot without that capability in the mirror pairings where the
capability can act (the same dragon on both sides, so only the capability differs): all 12
ready-made dragons for the speed, the engagements and the close-combat tactics; the Wizards'
dragons (Slash, Stalwyrm) for the spells; the dragons with a shooting rider (Blowderby,
Fiercival, Ozonic) for the rider. Each pairing is played with the full bot in each seat
(``n`` games a seat for the 12 mirrors, ``n * 12 / k`` for a set of ``k``, so every row rests on
about as many games). A row gives the full bot's share (wins plus half the draws) with a 95%
interval, the two-sided p of "worth nothing" (share 50%), and how often the capability's action
was taken a game in those games (both dragons together: the ablated one takes none). The
verdicts at the end hold the table's rows together (Holm at 5%: a table of many rows finds a
"significant" one by chance): ``pays`` (above 50%), ``hurts`` (below: the capability makes the
bot worse) or ``nothing measurable``.
"""

from __future__ import annotations

import argparse
import math
import time

import dragonsim.lords as L
from dragonsim.lords.bots import POLICIES
from dragonsim.lords.bots.registry import CAPABILITIES
from dragonsim.lords.game.sheets import roster

ALL = tuple(s.name for s in roster())
WIZARDS = ("Slash", "Stalwyrm")
SHOOTERS = ("Blowderby", "Fiercival", "Ozonic")
#: capability -> (the mirrors it can act in, the presets its rule is in force under)
PLAN = {
    "speed": (ALL, ("basic", "advanced", "advanced+optional")),
    "spells": (WIZARDS, ("advanced", "advanced+optional")),
    "cast": (WIZARDS, ("advanced", "advanced+optional")),
    "engage": (ALL, ("basic", "advanced", "advanced+optional")),
    "rider": (SHOOTERS, ("advanced", "advanced+optional")),
    "tactics": (ALL, ("advanced+optional",)),
}
NEXT_TURN = ("spell_slow", "spell_lethargy", "spell_quicken", "spell_vigor")


def use(cap: str, events: dict) -> tuple[str, float]:
    """What the capability's action is counted as, and how often it was taken a game."""
    if cap == "speed":
        return "speed gains above 3", events.get("speed_gain_over_3", 0)
    if cap == "spells":
        return "next-turn spells", sum(events.get(k, 0) for k in NEXT_TURN)
    if cap == "cast":
        return "spells", sum(v for k, v in events.items() if k.startswith("spell_"))
    if cap == "rider":
        return "rider shots", events.get("rider_shots", 0)
    return "close combats", events.get("close_combats", 0)


def holm(pvals: list[float], alpha: float = 0.05) -> list[bool]:
    """Which of ``pvals`` Holm's step-down procedure rejects at family-wise level ``alpha``."""
    order = sorted(range(len(pvals)), key=lambda k: pvals[k])
    out = [False] * len(pvals)
    for rank, k in enumerate(order):
        if pvals[k] > alpha / (len(pvals) - rank):
            break
        out[k] = True
    return out


def row(cap: str, rules: str, n: int, seed: int) -> tuple[str, float, float]:
    dragons, _ = PLAN[cap]
    per = max(1, round(n * len(ALL) / len(dragons)))
    full, cut = "hunter", f"hunter~{cap}"
    pts = 0.0
    games = 0
    taken = 0.0
    for name in dragons:
        for seat, pols in enumerate(((full, cut), (cut, full))):
            r = L.duel(name, name, n=per, seed=seed + seat, policies=pols, rules=rules)
            d = r.to_dict()
            won = r.wins_a if seat == 0 else r.wins_b
            pts += won + 0.5 * r.draws
            games += r.n
            taken += use(cap, d["events"])[1] * r.n
    p = pts / games
    se = math.sqrt(p * (1 - p) / games)
    pval = math.erfc(abs(p - 0.5) / se / math.sqrt(2)) if se > 0 else 1.0
    what = use(cap, {})[0]
    shown = "< 1e-12" if pval < 1e-12 else f"{pval:7.1e}"
    line = (
        f"{cap:<8} {rules:<18} {len(dragons):>2} x 2 x {per:<6} "
        f"{100 * p:6.2f}% +- {100 * 1.96 * se:4.2f}  p {shown}  {taken / games:6.2f} {what}"
    )
    return line, p, pval


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=4000, help="games a seat in each of the 12 mirrors")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--out", help="also write the table here")
    a = ap.parse_args()
    t0 = time.perf_counter()
    default = POLICIES["hunter"][1]
    lines = [
        f"The default bot ({default}) against itself without one capability (hunter~CAP), "
        f"mirror pairings, both seats",
        f"python benchmarks/ablations.py -n {a.n} --seed {a.seed}",
        "",
        f"{'without':<8} {'rules':<18} {'mirrors x seats x games':<23} "
        f"{'full bot share, 95%':<20} {'p':<9}  a game (both dragons)",
    ]
    print("\n".join(lines), flush=True)
    rows = []
    for cap in (c.name for c in CAPABILITIES):
        for rules in PLAN[cap][1]:
            line, share, pval = row(cap, rules, a.n, a.seed)
            rows.append((f"{cap} ({rules})", share, pval))
            print(line, flush=True)
            lines.append(line)
    verdicts: dict[str, list[str]] = {}
    for (name, share, _), sig in zip(rows, holm([r[2] for r in rows]), strict=True):
        verdict = "nothing measurable" if not sig else ("pays" if share > 0.5 else "hurts")
        verdicts.setdefault(verdict, []).append(name)
    tail = ["", f"Verdicts (Holm over the {len(rows)} rows at 5%):"]
    for v in ("pays", "nothing measurable", "hurts"):
        tail.append(f"  {v}: {', '.join(verdicts.get(v, [])) or 'none'}")
    tail.append(f"({time.perf_counter() - t0:.0f} s)")
    print("\n".join(tail))
    lines += tail[:-1]
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
