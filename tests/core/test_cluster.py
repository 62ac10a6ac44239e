"""Studies on a ``dask.distributed`` cluster give the local answer, bit for bit.

Every block of games plays from the streams ``(seed, game index)`` (:mod:`dragonsim.random`), so
which worker plays a block, in what order the blocks come back, and whether a block is played
twice (its first worker died) cannot change a counter; the runner adds the blocks in block
order. The cluster is two single-threaded worker processes on 127.0.0.1, started once for the
module and always closed. The kernels are compiled (and cached on disk) by the local run that
each test makes first, so the workers load them from the cache.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from dragonsim import runner
from dragonsim.errors import UserError

try:  # the cluster tests need it; the missing-dask tests do not
    import distributed
except ImportError:  # pragma: no cover - the dev extra installs it
    distributed = None

ROOT = Path(__file__).resolve().parents[2]
TRIO = ["Lectronist", "Kelvinight", "Reaper"]


@pytest.fixture(scope="module")
def client():
    """A LocalCluster of two worker processes on loopback (the workers import this tree)."""
    pytest.importorskip("distributed")
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), old) if p)
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    )
    try:
        with distributed.Client(cluster, timeout=60) as c:
            yield c
    finally:
        cluster.close()
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


def test_tournament_on_the_cluster_is_the_local_one(client):
    """Three dragons, every pair from both seats: the win matrix, the Bradley-Terry ratings
    and the cycles equal the local round robin's exactly."""
    from dragonsim.lords.analysis.study import tournament

    kw = dict(n=300, seed=3)
    local = tournament(TRIO, **kw)
    remote = tournament(TRIO, backend="dask", dask_client=client, **kw)
    assert np.array_equal(local.wins, remote.wins)
    assert local.ratings.equals(remote.ratings)
    assert local.cycles == remote.cycles
    assert local.wins.sum() == 3 * 300  # every game of every pair counted once


def test_duel_and_sensitivity_on_the_cluster_are_the_local_ones(client):
    """A duel's counters (first-mover counts included), and a sensitivity study's paired rows
    (the per-game winners come back from the workers with the counters), equal the local
    ones."""
    from dragonsim.lords.analysis.study import sensitivity
    from dragonsim.lords.api import duel

    local = duel("Lectronist", "Kelvinight", n=3000, seed=9, progress=False)
    remote = duel(
        "Lectronist", "Kelvinight", n=3000, seed=9, progress=False, backend="dask",
        dask_client=client,
    )  # fmt: skip
    assert np.array_equal(local.counters, remote.counters)
    kw = dict(rule="altitude_mod", values=[[0, 0, 1, 1, 2], [0, 1, 1, 2, 2]], n=400, seed=4)
    a = sensitivity("Lectronist", "Kelvinight", **kw)
    b = sensitivity("Lectronist", "Kelvinight", backend="dask", dask_client=client, **kw)
    assert a.equals(b)


def test_best_build_on_the_cluster_is_the_local_one(client):
    """A small real race (6 DP, two field dragons): every design's points and games, the
    eliminations and the survivors equal the local race's."""
    from dragonsim.lords.analysis.race import best

    kw = dict(n0=4, rounds=3, seed=2, field_dragons=["Zippinchill", "Tankerous"])
    local = best(6, **kw)
    remote = best(6, backend="dask", dask_client=client, **kw)
    assert np.array_equal(local.points, remote.points)
    assert np.array_equal(local.games, remote.games)
    assert np.array_equal(local.eliminated, remote.eliminated)
    assert local.survivors == remote.survivors


def test_interrupted_cluster_run_keeps_its_prefix_and_resumes(client, tmp_path, monkeypatch):
    """Ctrl-C after the first block: the run returns the games of the finished blocks (in
    block order) and the checkpoint holds them; the same call then resumes to the counters
    of an uninterrupted local run."""
    from dragonsim.lords.api import duel

    calls = []

    def hook(done):
        calls.append(done)
        if len(calls) == 1:
            raise KeyboardInterrupt

    ck = tmp_path / "duel.ck"
    kw = dict(n=1024, seed=11, progress=False)
    monkeypatch.setattr(runner, "_after_block", hook)
    part = duel("Reaper", "Kelvinight", backend="dask", dask_client=client, checkpoint=ck, **kw)
    monkeypatch.setattr(runner, "_after_block", None)
    # the first block (runner.dask_edges) was taken when the interruption came
    workers = sum(client.nthreads().values())
    assert part.interrupted and part.n == runner.dask_edges(1024, workers)[1] < 1024
    rest = duel("Reaper", "Kelvinight", backend="dask", dask_client=client, checkpoint=ck, **kw)
    local = duel("Reaper", "Kelvinight", **kw)
    assert not rest.interrupted and rest.n == 1024
    assert np.array_equal(local.counters, rest.counters)


def test_cli_tournament_on_a_scheduler_address(client, capsys):
    """``--backend dask --scheduler ADDRESS`` prints the ratings of the local command."""
    from dragonsim.cli import main

    argv = ["tournament", *TRIO, "-n", "300", "--seed", "2", "--json"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    addr = client.scheduler.address
    assert addr.startswith("tcp://127.0.0.1:")
    assert main([*argv, "--backend", "dask", "--scheduler", addr]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert local["ratings"] == remote["ratings"] and local["matrix"] == remote["matrix"]


@pytest.mark.parametrize("missing", ["dask", "distributed"])
def test_missing_dask_is_one_line(missing, monkeypatch, capsys):
    """Without dask (or distributed, for a scheduler) the API raises one UserError naming the
    install command, and the command line exits 2 with that one line, before any game."""
    from dragonsim.cli import main
    from dragonsim.lords.api import duel

    monkeypatch.setitem(sys.modules, missing, None)  # `import dask` now raises ImportError
    if missing == "dask":
        with pytest.raises(UserError, match=r"pip install 'dragonsim\[dask\]'"):
            duel("Reaper", "Kelvinight", n=10, backend="dask", progress=False)
    argv = ["duel", "Reaper", "Kelvinight", "-n", "10", "--backend", "dask"]
    assert main([*argv, "--scheduler", "local:2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'dragonsim[dask]'" in err
    assert "Traceback" not in err


def test_scheduler_options_are_checked(capsys):
    """A scheduler without the dask backend, or a local cluster of no workers, is one line and
    exit 2 (no cluster is started)."""
    from dragonsim.cli import main

    argv = ["duel", "Reaper", "Kelvinight", "-n", "10"]
    assert main([*argv, "--scheduler", "local:2"]) == 2
    assert "--scheduler needs --backend dask" in capsys.readouterr().err
    for bad in ("local:0", "local:two"):
        assert main([*argv, "--backend", "dask", "--scheduler", bad]) == 2
        assert "1..256" in capsys.readouterr().err


def _killer(marker: str, suffix: str):
    """A worker plugin: the first worker to start the task whose key ends with ``suffix``
    exits at once (``os._exit``, as a killed process would), once per ``marker`` file."""

    class KillFirstAttempt(distributed.WorkerPlugin):
        name = "kill-first-attempt"

        def transition(self, key, start, finish, **kw):
            if finish != "executing" or not str(key).endswith(suffix):
                return
            try:
                fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                return  # a second attempt: play it
            os.write(fd, str(key).encode())
            os.close(fd)
            os._exit(1)

    return KillFirstAttempt()


def test_a_worker_killed_mid_run_changes_nothing(client, tmp_path):
    """The worker that starts the second block of the first pairing dies in it; the scheduler
    gives the block to the other worker (a pure, keyed task), and the round robin still equals
    the local one. The marker file proves the kill happened. (Last in this module: the nanny
    restarts the dead worker in the background.)"""
    from dragonsim.lords.analysis.study import tournament

    kw = dict(n=512, seed=6)
    local = tournament(TRIO, **kw)
    # 256 games a seat are four blocks on two workers (runner.dask_edges): 0-64, 64-128, ...
    assert list(runner.dask_edges(256, 2)) == [0, 64, 128, 192, 256]
    marker = tmp_path / "killed"
    client.register_plugin(_killer(str(marker), "-64-128"))
    try:
        remote = tournament(TRIO, backend="dask", dask_client=client, **kw)
    finally:
        client.unregister_worker_plugin("kill-first-attempt")
    assert marker.exists() and marker.read_text().endswith("-64-128")
    assert np.array_equal(local.wins, remote.wins)
    assert local.ratings.equals(remote.ratings)


@pytest.mark.parametrize("command", ["duel", "tournament", "sensitivity", "prices", "best"])
def test_every_study_command_offers_the_cluster(command, capsys):
    """Every study command (tournaments, sensitivity, prices, best builds and the duel) runs on
    Dask: each command's --help documents --backend and --scheduler."""
    from dragonsim.cli import main

    with pytest.raises(SystemExit) as e:
        main([command, "--help"])
    assert e.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--backend {local,dask}" in out and "--scheduler local:N|ADDRESS" in out
