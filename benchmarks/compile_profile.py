"""Where the cold start goes: every numba function a command compiles, with its own compile
time. Not a test: prints a table (``results/compile-profile.txt``).

    python benchmarks/compile_profile.py [--top 25] [-- duel Reaper Skyblazer -n 1000]

Runs the command (default the README's duel, on a small n) in a child process with an empty
``NUMBA_CACHE_DIR`` and an empty move-table folder, so every kernel compiles, and records
numba's ``numba:compile`` events (numba's event API: a START and an END per function
compiled, nested when typing a caller compiles its callees). A function's *own* time is its
compile time less that of the callees compiled inside it; the own times add up to the whole
compile. The table lists the functions by own time, with the module each lives in, and the
share of the compile each module takes: where a cut of the cold start has to come from.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
from numba.core import event
from dragonsim.cli import main
t0 = time.perf_counter()
with event.install_recorder("numba:compile") as rec:
    code = main(sys.argv[2:])
wall = time.perf_counter() - t0
stack, own, total, calls = [], {}, {}, {}
for ts, ev in rec.buffer:
    d = ev.data["dispatcher"]
    name = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
    if ev.is_start:
        stack.append([name, ts, 0.0])
        continue
    nm, start, child = stack.pop()
    dur = ts - start
    own[nm] = own.get(nm, 0.0) + dur - child
    total[nm] = total.get(nm, 0.0) + dur
    calls[nm] = calls.get(nm, 0) + 1
    if stack:
        stack[-1][2] += dur
json.dump({"code": code, "wall": wall, "own": own, "total": total, "calls": calls},
          open(sys.argv[1], "w"))
"""


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", type=int, default=25, help="functions to list (default 25)")
    ap.add_argument("--out", default=None, help="also write the table to this file")
    ap.add_argument("command", nargs="*", help="the dragonsim command (after --)")
    a = ap.parse_args(argv)
    command = a.command or ["duel", "Reaper", "Skyblazer", "-n", "1000", "--no-progress"]
    with tempfile.TemporaryDirectory() as numba_dir, tempfile.TemporaryDirectory() as tables:
        env = dict(os.environ, NUMBA_CACHE_DIR=numba_dir, DRAGONSIM_CACHE_DIR=tables)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
        report = Path(tables) / "compile.json"
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", CHILD, str(report), *command],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - t0
        got = json.loads(report.read_text())
    own = got["own"]
    compiled = sum(own.values())
    by_module: dict[str, float] = defaultdict(float)
    for name, secs in own.items():
        by_module[name.rsplit(".", 1)[0].split(".<locals>")[0]] += secs
    lines = [
        f"Cold start of `python -m dragonsim {' '.join(command)}`: {wall:.1f} s in all "
        f"(a child process, empty NUMBA_CACHE_DIR and move-table folder); numba compiled "
        f"{len(own)} functions in {compiled:.1f} s (their own times, callees apart)",
        "",
        f"  {'own s':>7} {'share':>6} {'with callees':>12} {'times':>5}  function",
    ]
    for name, secs in sorted(own.items(), key=lambda t: -t[1])[: a.top]:
        lines.append(
            f"  {secs:>7.1f} {secs / compiled:>6.1%} {got['total'][name]:>12.1f} "
            f"{got['calls'][name]:>5}  {name}"
        )
    lines += ["", "  by module (own times):"]
    for mod, secs in sorted(by_module.items(), key=lambda t: -t[1])[:15]:
        lines.append(f"  {secs:>7.1f} {secs / compiled:>6.1%}  {mod}")
    lines += ["", f"  python benchmarks/compile_profile.py -- {' '.join(command)}"]
    text = "\n".join(lines)
    print(text)
    if a.out:
        Path(a.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
