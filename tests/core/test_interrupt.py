"""Interruptions behave one way in every long command.

SIGINT and SIGTERM print (or return) what finished, with intervals for the games actually
played, marked interrupted in text and JSON, and exit 130 / 143; tournaments, sensitivity
studies and sweeps keep their finished pairs / values; a Ctrl-C during compilation exits at
once with a clear line.

Most cases run in-process: the runner's ``_after_block`` hook sends the signal to this process
after a chosen block, so the point of interruption is known (no sleeps). A few subprocesses
send real signals from outside: to a running command, and to one compiling on an empty cache.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from dragonsim import runner
from dragonsim.cli import main

BIG = "1000000"  # far more games than are played before the signal lands
FAST = "50000000"  # as much for the fastest game (Krynn's conflicts, 2.5 million a second)
LONG = {
    # command: (argv, blocks to finish before the signal, what the partial result keeps)
    "duel": (["duel", "Reaper", "Skyblazer", "-n", BIG], 1),
    "battle": (["battle", "Reaper", "Slash", "Ozonic", "-n", BIG], 1),
    "tournament": (["tournament", "Reaper", "Slash", "Ozonic", "-n", "2000"], 3),
    "sensitivity": (
        [
            "sensitivity",
            "Reaper",
            "Skyblazer",
            "--rule",
            "altitude_mod",
            "--values",
            "[0,0,1,1,2];[0,1,1,2,2]",
            "-n",
            "2000",
        ],
        3,
    ),
    "dice attack": (
        ["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-horde", "-n", BIG],
        1,
    ),
    "dice duel": (["dice", "duel", "--a", "red-wyrm", "--b", "blue-drake", "-n", BIG], 1),
    "dice melee": (
        ["dice", "melee", "--attacker", "goblin-horde", "--defender", "dwarf-guard", "-n", BIG],
        1,
    ),
    "dice sweep": (
        ["dice", "sweep", "--dragons", "red-wyrm,blue-drake", "--max-copies", "1", "-n", "2000"],
        2,
    ),
    "dice table": (
        [
            "dice",
            "table",
            "--army",
            "goblin-horde",
            "--dragons",
            "red-wyrm,red-drake",
            "-n",
            "2000",
        ],
        2,
    ),
    "krynn battle": (
        ["krynn", "battle", "--alliance", "foot=3,missile=2", "--army", "foot=4", "-n", BIG],
        1,
    ),
    "krynn battlefield": (
        [
            "krynn",
            "battlefield",
            "--tiles",
            "2",
            "--alliance",
            "foot=3",
            "--army",
            "foot=3",
            "-n",
            BIG,
        ],
        1,
    ),
    # with BIG the blocks after the first could all finish while a loaded machine has yet to
    # run the signal's handler
    "krynn conflict": (["krynn", "conflict", "--difficulty", "3", "--actions", "3", "-n", FAST], 1),
    "krynn sweep": (
        [
            "krynn",
            "sweep",
            "--alliance",
            "foot=3",
            "--army",
            "foot=4",
            "--vary",
            "heroes",
            "--values",
            "0..2",
            "-n",
            "2000",
        ],
        2,
    ),
}
CASES = [
    pytest.param(cmd, sig, id=f"{cmd} {sig.name}")
    for cmd in LONG
    for sig in (signal.SIGINT, signal.SIGTERM)
]


@pytest.fixture
def signal_after(monkeypatch):
    """Send ``sig`` to this process after the ``k``-th finished block of any run."""

    def arm(sig: int, k: int) -> None:
        calls = []

        def hook(done: int) -> None:
            calls.append(done)
            if len(calls) == k:
                os.kill(os.getpid(), sig)

        monkeypatch.setattr(runner, "_after_block", hook)

    return arm


@pytest.mark.parametrize("cmd, sig", CASES)
def test_every_long_command_keeps_what_finished(cmd, sig, signal_after, capsys):
    """Text: the partial result, an INTERRUPTED line; stderr: one 'interrupted:' line; exit
    128 + the signal (130 SIGINT, 143 SIGTERM)."""
    argv, k = LONG[cmd]
    signal_after(sig, k)
    code = main([*argv, "--no-progress"] if "-n" in argv and cmd not in _NO_PROGRESS else argv)
    out, err = capsys.readouterr()
    assert code == 128 + sig, err
    assert "INTERRUPTED:" in out
    assert "interrupted:" in err and "finished" in err
    assert "Traceback" not in err


_NO_PROGRESS = ("tournament", "sensitivity")


@pytest.mark.parametrize("cmd", list(LONG))
def test_json_says_interrupted(cmd, signal_after, capsys):
    """With --json the one JSON object says so: ``"interrupted": true``, and for a single run
    ``n`` (games played) below ``requested``."""
    argv, k = LONG[cmd]
    signal_after(signal.SIGTERM, k)
    assert main([*argv, "--json"]) == 143
    d = json.loads(capsys.readouterr().out)
    assert d["interrupted"] is True
    if k == 1:
        assert 0 < d["n"] < d["requested"] == int(float(argv[argv.index("-n") + 1]))


def test_partial_counters_are_those_of_the_games_played(signal_after):
    """Intervals 'for the n actually played': the interrupted run's counters equal an
    uninterrupted run of exactly that many games (same seed)."""
    from dragonsim import dice, duel, krynn

    runs = [
        lambda n, p: duel("Reaper", "Skyblazer", n=n, seed=3, progress=p),
        lambda n, p: dice.attack("red-wyrm", "goblin-horde", n=n, seed=3, progress=p),
        lambda n, p: krynn.battle(alliance="foot=3", army="foot=4", n=n, seed=3, progress=p),
    ]
    for run in runs:
        signal_after(signal.SIGINT, 1)
        with runner.handle_signals():
            part = run(10**6, False)
        assert part.interrupted and 0 < part.n < 10**6
        runner._after_block = None
        whole = run(part.n, False)
        assert not whole.interrupted
        np.testing.assert_array_equal(part.counters, whole.counters)


def test_tournament_keeps_finished_pairs(signal_after):
    """Interrupted during its second pair, a round robin returns the first pair's games."""
    from dragonsim.lords.analysis.study import tournament

    signal_after(signal.SIGINT, 3)
    with runner.handle_signals():
        t = tournament(["Reaper", "Slash", "Ozonic"], n=2000)
    assert t.interrupted and t.pairs_done == 1 and t.pairs == 3
    assert t.names == ["Reaper", "Slash"]
    assert t.wins.sum() == 2000  # every game of the finished pair, draws split half each
    runner._after_block = None
    full = tournament(["Reaper", "Slash"], n=2000)
    np.testing.assert_array_equal(t.wins, full.wins)


def test_sensitivity_keeps_finished_values(signal_after):
    from dragonsim.lords.analysis.study import sensitivity

    signal_after(signal.SIGTERM, 3)
    with runner.handle_signals():
        df = sensitivity(
            "Reaper",
            "Skyblazer",
            rule="altitude_mod",
            values=[[0, 0, 1, 1, 2], [0, 1, 1, 2, 2]],
            n=2000,
        )
    assert df.attrs["interrupted"] and len(df) == 1
    assert df["value"].tolist() == ["[0, 0, 1, 1, 2]"]


def test_interrupt_before_anything_finished_is_one_line(monkeypatch, capsys):
    """A signal while the first block still plays: nothing to print, one line, exit 130,
    at once (the block in flight is abandoned, not waited for)."""
    import threading

    from dragonsim import cli
    from dragonsim.krynn import api as KA

    real = KA.K.battle_kernel
    release = threading.Event()

    def slow(start, stop, *args):
        if stop > start:
            os.kill(os.getpid(), signal.SIGINT)
            release.wait(30)
        return real(start, stop, *args)

    monkeypatch.setattr(KA.K, "battle_kernel", slow)
    monkeypatch.setattr(cli, "_exit_now_if_busy", lambda code: None)  # not in pytest
    try:
        code = main(["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1", "-n", "100"])
    finally:
        release.set()
    out, err = capsys.readouterr()
    assert code == 130 and out == ""
    assert err.strip().splitlines() == [
        "interrupted (SIGINT) before any game finished: nothing to report"
    ]


def _child_env(**extra):
    env = dict(os.environ, PYTHONUNBUFFERED="1", **extra)
    return env


def _restore_sigint():
    # background jobs of a non-interactive shell start with SIGINT ignored; a command the
    # user runs in a terminal has the default handler, as here
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for(pred, timeout=120.0):
    t0 = time.monotonic()
    while not pred():
        if time.monotonic() - t0 > timeout:
            raise AssertionError("timed out")
        time.sleep(0.05)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_real_signal_from_outside(sig, tmp_path):
    """The real entry point, signalled from outside once a block is saved (the checkpoint
    file appears): the finished games' table on stdout, exit 143 / 130."""
    ck = tmp_path / "ck.json"
    p = subprocess.Popen(
        [sys.executable, "-m", "dragonsim", "krynn", "battle", "--alliance", "foot=3",
         "--army", "foot=4", "-n", "1e9", "--no-progress", "--checkpoint", str(ck)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_restore_sigint, env=_child_env(),
    )  # fmt: skip
    try:
        _wait_for(ck.exists)
        p.send_signal(sig)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 128 + sig, err
    assert "INTERRUPTED:" in out and "of 1,000,000,000 games finished" in out
    assert "Traceback" not in err


def test_ctrl_c_during_compilation_exits_at_once(tmp_path):
    """On an empty cache the first-run line shows; a Ctrl-C while compiling ends the command
    at once (not after the compile) with a clear line and exit 130."""
    p = subprocess.Popen(
        [sys.executable, "-m", "dragonsim", "dice", "attack", "--dragon", "red-wyrm",
         "--army", "goblin-thug:1", "-n", "1000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_restore_sigint, env=_child_env(NUMBA_CACHE_DIR=str(tmp_path / "cache")),
    )  # fmt: skip
    try:
        line = p.stderr.readline()  # the first-run line, printed before compiling
        assert "compiling the Dragon Dice kernels once" in line
        time.sleep(0.5)  # well inside the compile (seconds)
        p.send_signal(signal.SIGINT)
        t = time.monotonic()
        out, err = p.communicate(timeout=60)
        waited = time.monotonic() - t
    finally:
        p.kill()
    assert p.returncode == 130, err
    assert "while the kernels were compiling: nothing was played" in err
    assert out == ""
    # "at once": well before the compile would have ended (it takes several times longer)
    assert waited < 5.0
