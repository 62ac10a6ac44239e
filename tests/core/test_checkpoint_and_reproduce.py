"""Resume after a kill, reproduce a saved result, the first run.

* ``--checkpoint FILE`` keeps finished blocks; after ``kill -9`` the same command resumes and
  ends with the counters of a run that was never stopped; a checkpoint of another run is
  refused in one line.
* ``python -m dragonsim reproduce RESULT.json`` re-runs a saved ``--json`` result (exit 0 when
  it matches, 1 when not).
* The progress bar's rate and ETA start after the first block (compilation excluded); the
  first-run line shows only on a cold cache; ``warmup`` compiles ahead of time.
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
from dragonsim.checkpoint import Checkpoint
from dragonsim.cli import main
from dragonsim.errors import UserError


def _wait_for(pred, timeout=120.0):
    t0 = time.monotonic()
    while not pred():
        if time.monotonic() - t0 > timeout:
            raise AssertionError("timed out")
        time.sleep(0.05)


def _blocks_saved(path) -> int:
    try:
        d = json.loads(open(path).read())
    except (OSError, ValueError):
        return 0
    return sum(s["done"] for s in d["sections"].values())


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["krynn", "battle", "--alliance", "foot=3,missile=2", "--army", "foot=4", "-n", "300000"],
        ["duel", "Reaper", "Skyblazer", "-n", "40000"],
    ],
    ids=["krynn battle", "duel"],
)
def test_kill_9_and_resume_gives_the_uninterrupted_result(argv, tmp_path, capsys):
    """A run killed with SIGKILL after some blocks, then the same command again: the final
    counters (every count of the JSON result) equal an uninterrupted run's."""
    ck = tmp_path / "run.ck"
    cmd = [sys.executable, "-m", "dragonsim", *argv, "--json", "--checkpoint", str(ck)]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for(lambda: _blocks_saved(ck) > 0 or p.poll() is not None)
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=60)
    finally:
        p.kill()
    saved = _blocks_saved(ck)
    n = int(argv[argv.index("-n") + 1])
    assert 0 < saved < n, "the kill should land mid-run"
    resumed = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    got = json.loads(resumed.stdout)
    assert got["n"] == n and got["manifest"]["resumed"] == saved
    assert main([*argv, "--json", "--no-progress"]) == 0
    want = json.loads(capsys.readouterr().out)
    from dragonsim.cli.tools import differences

    assert differences(want, got) == []


def test_a_checkpoint_of_another_run_is_refused(tmp_path, capsys):
    """Same file, another seed (or command): one line naming what differs; the file is kept."""
    ck = tmp_path / "c.json"
    base = ["krynn", "conflict", "--difficulty", "3", "-n", "5000", "--checkpoint", str(ck)]
    assert main(base) == 0
    before = ck.read_bytes()
    capsys.readouterr()
    assert main([*base, "--seed", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "belongs to another run (seed: 2 here, 1 in the file)" in err[0]
    other = ["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1"]
    assert main([*other, "--checkpoint", str(ck)]) == 2
    assert "command" in capsys.readouterr().err
    assert main([*base[:3], "4", *base[4:]]) == 2  # another difficulty: other kernel arguments
    assert "games differ" in capsys.readouterr().err
    assert ck.read_bytes() == before


def test_a_finished_checkpoint_answers_at_once(tmp_path):
    """A checkpoint that holds the whole run gives its result without playing a game."""
    from dragonsim import dice

    ck = tmp_path / "a.ck"
    r1 = dice.attack("red-wyrm", "goblin-horde", n=20_000, checkpoint=str(ck), progress=False)
    calls = []
    runner._after_block = calls.append
    try:
        r2 = dice.attack("red-wyrm", "goblin-horde", n=20_000, checkpoint=str(ck), progress=False)
    finally:
        runner._after_block = None
    assert calls == []  # no block was played
    np.testing.assert_array_equal(r1.counters, r2.counters)


def test_checkpoints_are_written_atomically(tmp_path, monkeypatch):
    """The file is written whole to a temporary file and renamed over the old one
    (os.replace), so a kill mid-write leaves the old state."""
    seen = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (seen.append((str(a), str(b))), real(a, b)))
    c = Checkpoint(tmp_path / "x.ck", {"command": "test"})
    s = c.section("run")
    s.bind(kernel="k", n=10, seed=1, first=0, args=(np.arange(3),))
    s.save(5, np.array([1, 2, 3]))
    assert seen == [(str(tmp_path / f".x.ck.{os.getpid()}.tmp"), str(tmp_path / "x.ck"))]
    done, counters, _ = Checkpoint(tmp_path / "x.ck", {"command": "test"}).section("run").load()
    assert done == 5 and counters.tolist() == [1, 2, 3]
    with pytest.raises(UserError, match="belongs to another run"):
        Checkpoint(tmp_path / "x.ck", {"command": "other"})


def test_sensitivity_and_tournament_resume_to_the_same_answer(tmp_path):
    """Multi-run studies: interrupted after some runs, resumed from the checkpoint, the
    answer equals an uninterrupted study's (per-game outcomes are kept for the pairing)."""
    from dragonsim.lords.analysis.study import sensitivity, tournament

    kw = dict(rule="altitude_mod", values=[[0, 0, 1, 1, 2], [0, 1, 1, 2, 2]], n=1500)
    ck = tmp_path / "s.ck"
    calls = []

    def hook(done):
        calls.append(done)
        if len(calls) == 3:
            os.kill(os.getpid(), signal.SIGINT)

    runner._after_block = hook
    try:
        with runner.handle_signals():
            part = sensitivity("Reaper", "Skyblazer", checkpoint=str(ck), **kw)
    finally:
        runner._after_block = None
    assert part.attrs["interrupted"] and len(part) == 1
    again = sensitivity("Reaper", "Skyblazer", checkpoint=str(ck), **kw)
    clean = sensitivity("Reaper", "Skyblazer", **kw)
    assert not again.attrs["interrupted"]
    assert again.to_dict() == clean.to_dict()

    ck = tmp_path / "t.ck"
    a = tournament(["Reaper", "Slash", "Ozonic"], n=1000, checkpoint=str(ck))
    b = tournament(["Reaper", "Slash", "Ozonic"], n=1000, checkpoint=str(ck))  # from the file
    np.testing.assert_array_equal(a.wins, b.wins)


def test_reproduce_says_whether_a_result_matches(tmp_path, capsys):
    """reproduce re-runs the manifest's command line: exit 0 on a match, 1 with the
    differences listed when a saved value was changed."""
    argv = ["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-horde", "-n", "3000"]
    assert main([*argv, "--json"]) == 0
    saved = json.loads(capsys.readouterr().out)
    assert saved["manifest"]["argv"] == [*argv, "--json"]
    f = tmp_path / "r.json"
    f.write_text(json.dumps(saved))
    assert main(["reproduce", str(f)]) == 0
    assert "reproduced" in capsys.readouterr().out
    saved["p_dragon_slain"] += 0.01
    f.write_text(json.dumps(saved))
    assert main(["reproduce", str(f)]) == 1
    out = capsys.readouterr().out
    assert "does not reproduce" in out and "p_dragon_slain" in out


def test_progress_rate_and_eta_exclude_the_first_block(monkeypatch, capsys):
    """The clock starts when the first block (which may have compiled) is done: 1,000 games
    in the second second is a rate of 1,000/s and an ETA of 8 s for the 8,000 left, however
    long the first block took."""
    clock = iter([100.0, 101.0])
    monkeypatch.setattr(runner.time, "perf_counter", lambda: next(clock))
    bar = runner._Progress(10_000, "games", True)
    bar.update(1_000)  # the first block: no rate yet
    bar.update(2_000)
    err = capsys.readouterr().err
    first, second = err.split("\r")[1:]
    assert "/s" not in first
    assert "1,000/s" in second and "eta   8.0s" in second


@pytest.mark.slow
def test_first_run_line_only_on_a_cold_cache(tmp_path):
    """An empty numba cache: the compile line (with how long it takes) on stderr; the same
    command again (cache now warm): no such line."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    duel = ["dice", "duel", "--a", "red-wyrm", "--b", "blue-drake", "-n", "100"]
    cmd = [sys.executable, "-m", "dragonsim", *duel]
    cold = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert cold.returncode == 0, cold.stderr
    assert "compiling the Dragon Dice kernels once" in cold.stderr and "about" in cold.stderr
    warm = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert warm.returncode == 0 and "compiling" not in warm.stderr


def test_the_first_run_line_is_said_once_a_process(capsys, monkeypatch):
    """A command that runs many times (a tournament's pairs, a precision run's looks) says it
    compiles once, before the first compile, not before every run that finds a kernel still
    to compile; another game's kernels get their own line."""
    from dragonsim import firstrun

    monkeypatch.setattr(firstrun, "_ANNOUNCED", set())
    monkeypatch.setattr(firstrun, "is_cold", lambda d: True)
    for game in ("Dragon Lords", "Dragon Lords", "Dragon Dice", "Dragon Lords replay"):
        firstrun.announce([], game)
    err = capsys.readouterr().err.splitlines()
    assert [line.split(" kernels")[0] for line in err] == [
        "compiling the Dragon Lords",
        "compiling the Dragon Dice",
        "compiling the Dragon Lords replay",
    ]
    assert "about 160 s" in err[2]


def test_warmup_compiles_or_loads_every_game(capsys):
    assert main(["warmup", "--game", "krynn"]) == 0
    out = capsys.readouterr().out
    assert "Warriors of Krynn:" in out and " in " in out


# the sections' keys a checkpoint written before the Dice kernels became a package (one
# module, flat arguments) holds for these runs: they must still resume
_DICE_KEYS = {
    "attack": ("dragonsim.dice.kernel.army_kernel", "c252868fdf60c711f89fd8c517e8380f"),
    "multi": ("dragonsim.dice.kernel.army_kernel", "288a88fe04b7f0ee79a813caa03f4a8b"),
    "duel": ("dragonsim.dice.kernel.dvd_kernel", "dae777cb33a6b2522c618534d4c18183"),
    "melee": ("dragonsim.dice.kernel.melee_kernel", "8ed1b239946d8d43b97ce6ab7c0a5434"),
}


@pytest.mark.parametrize("game", sorted(_DICE_KEYS))
def test_dice_checkpoint_keys_are_those_written_before_the_kernel_package(game, tmp_path):
    from dragonsim.dice import attack, duel, melee

    path = tmp_path / "ck.json"
    army = "goblin-thug:6,goblin-pelter:4"
    kw = dict(n=300, seed=7, progress=False, checkpoint=path)
    run = {
        "attack": lambda: attack("red-wyrm", army, turns=3, **kw),
        "multi": lambda: attack("red-wyrm,red-drake", army, turns=3, **kw),
        "duel": lambda: duel("red-wyrm", "blue-wyrm", turns=5, **kw),
        "melee": lambda: melee("goblin-thug:6", "goblin-pelter:4", **kw),
    }[game]
    run()
    key = json.loads(path.read_text())["sections"]["run"]["key"]
    assert (key["kernel"], key["args"]) == _DICE_KEYS[game]
