"""A panel of Dragon Lords counters for bit-identical checks. Not a test: writes and compares.

    python benchmarks/panel.py write OUT.npz [--quick]
    python benchmarks/panel.py compare BEFORE.npz AFTER.npz

A change that must not move results (a redesign, a new bot version, a new switch that is off)
is checked by snapshotting the panel before it and comparing after every step. ``write`` plays
every preset x five ready-made pairings x eight bot versions, the three spell policies, mixed
bots, the look-ahead, a free-for-all of three and a team battle, and three replays, and saves
each configuration's counters, wins and replay text. ``compare`` prints how many are identical
and names the others; counters a newer engine appends at the end (a new count) are compared
on the older length, so only the counts both kept are held to the bit. Entries that play a
plain bot name (``hunter``) follow the default and change with it; pinned versions
(``hunter-4``) must not.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

PAIRS = [
    ("Reaper", "Skyblazer"),
    ("Slash", "Stalwyrm"),
    ("Ozonic", "Fiercival"),
    ("Tankerous", "Blowderby"),
    ("Zippinchill", "Lectronist"),
]
POLS = ["random", "hunter-2", "hunter-3", "hunter-4", "brawler", "sniper", "brawler-1", "sniper-1"]
RULES = ["basic", "advanced", "advanced+optional"]


def write(path: str, quick: bool) -> None:
    import dragonsim.lords as L
    from dragonsim.lords.views.replay import replay

    n = 300 if quick else 1500
    out: dict[str, np.ndarray] = {}
    kw = dict(progress=False, threads=2)

    def put(key, res):
        out[f"{key}|counters"] = np.asarray(res.counters)
        wins = [res.wins_a, res.wins_b, res.draws] if hasattr(res, "wins_a") else res.wins
        out[f"{key}|wins"] = np.asarray(wins)

    for rules in RULES:
        for a, b in PAIRS:
            for pol in POLS:
                put(
                    f"duel|{rules}|{a}|{b}|{pol}",
                    L.duel(a, b, n=n, seed=7, policy=pol, rules=rules, **kw),
                )
        for sp in ("random", "never"):
            res = L.duel("Slash", "Stalwyrm", n=n, seed=3, rules=rules, spells=sp, **kw)
            put(f"duel|{rules}|Slash|Stalwyrm|hunter|spells={sp}", res)
        mixed = L.duel(
            "Ozonic", "Slash", n=n, seed=5, policies=["sniper", "brawler"], rules=rules, **kw
        )
        put(f"duel|{rules}|mixed", mixed)
        for pol, key in (("search@1", "search"), ("search@2", "search-2")):
            search = L.duel(
                "Reaper", "Slash", n=40, seed=9, policy=pol, rules=rules, plan_samples=4, **kw
            )
            put(f"duel|{rules}|{key}", search)
        put(
            f"battle|{rules}|3",
            L.battle(["Reaper", "Slash", "Ozonic"], n=n // 3, seed=11, rules=rules, **kw),
        )
        teams = L.battle(
            ["Reaper", "Slash", "Ozonic", "Tankerous"],
            teams=[0, 0, 1, 1],
            n=n // 3,
            seed=12,
            rules=rules,
            **kw,
        )
        put(f"battle|{rules}|teams", teams)
        for g in range(3):
            r = replay("Slash", "Stalwyrm", seed=4, game=g, rules=rules)
            text = [repr(r.events), repr(r.log), r.winner, r.turns]
            out[f"replay|{rules}|{g}"] = np.array(text, dtype=object).astype(str)
    np.savez_compressed(path, **out)
    print(f"{len(out)} arrays -> {path}")


def compare(before: str, after: str) -> int:
    a, b = np.load(before, allow_pickle=False), np.load(after, allow_pickle=False)
    same, diff = [], []
    for k in sorted(set(a.files) & set(b.files)):
        x, y = a[k], b[k]
        if k.endswith("|counters") and x.ndim == y.ndim == 1 and y.shape[0] > x.shape[0]:
            y = y[: x.shape[0]]  # counts appended since: the older ones must hold
        (same if x.shape == y.shape and (x == y).all() else diff).append(k)
    only = sorted(set(a.files) ^ set(b.files))
    print(f"{len(same)} identical, {len(diff)} differ, {len(only)} in one file only")
    for k in diff:
        print(f"  differs: {k}")
    for k in only:
        print(f"  in one only: {k}")
    return 1 if diff or only else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write", help="play the panel and save it")
    w.add_argument("out")
    w.add_argument("--quick", action="store_true", help="300 games a configuration, not 1,500")
    c = sub.add_parser("compare", help="compare two saved panels")
    c.add_argument("before")
    c.add_argument("after")
    a = ap.parse_args()
    if a.cmd == "write":
        write(a.out, a.quick)
        return 0
    return compare(a.before, a.after)


if __name__ == "__main__":
    sys.exit(main())
