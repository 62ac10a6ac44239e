"""The move tables kept on disk (``dragonsim.lords.game.movetables.disk``): a file cut short
(a full disk, a killed copy) or with bytes changed fails its checks when it is read, and the
run builds it afresh, writes it again and says so on one line of stderr, never a traceback;
the tables and the games are those of an undamaged file."""

from __future__ import annotations

import numpy as np
import pytest

from dragonsim.lords.api import duel
from dragonsim.lords.game import movetables as MT
from dragonsim.lords.game.tables import kernel_tables

TB = kernel_tables()
G = 6  # maneuverability rating G
#: small tables with turning between move phases (kept on disk): a row per carried turn
SMALL = {"max_budget": 5, "mrs": [G], "turning": MT.Turning(True)}


def _forget():
    """Drop the tables and rows kept in memory, as a new process starts without them."""
    MT._TABLES.clear()
    MT._MOVE_PARTS.clear()
    MT._ALT_PARTS.clear()


def _same(a, b) -> bool:
    return all(np.array_equal(x, y) and x.dtype == y.dtype for x, y in zip(a, b, strict=True))


def _cut_short(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _flip_bytes(path):
    data = bytearray(path.read_bytes())
    mid = len(data) // 2
    data[mid : mid + 8] = bytes(b ^ 0xFF for b in data[mid : mid + 8])
    path.write_bytes(bytes(data))


def _change_one_value(path):
    """A file that reads whole, its zip checks and all, with one value changed: only the
    digest of its arrays tells."""
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["dq"][-1] += 1
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)


@pytest.fixture
def on_disk(tmp_path, monkeypatch):
    """An empty folder of move tables; yields its files, largest (the tables whole) first."""
    monkeypatch.setenv(MT.CACHE_ENV, str(tmp_path))
    _forget()
    yield lambda: sorted((tmp_path / "movetables").glob("*.npz"), key=lambda p: -p.stat().st_size)
    _forget()


@pytest.mark.parametrize(
    "damage",
    [_cut_short, _flip_bytes, _change_one_value],
    ids=["cut_short", "bytes_flipped", "one_value_changed"],
)
@pytest.mark.parametrize("which", ["tables", "row"])
def test_a_damaged_file_is_built_again_with_one_line_of_warning(on_disk, capsys, damage, which):
    """The tables whole, or one row (the tables whole then missing, so the rows are read),
    damaged: the next run warns once, naming the file, builds tables equal to the first,
    array by array, and writes the file again, which the run after reads back silently."""
    built = MT.move_tables(TB.turn_cost, **SMALL)
    files = on_disk()
    assert len(files) == len(MT.CARRIES) + 1  # a row per carried turn, and the tables whole
    whole, target = files[0], (files[0] if which == "tables" else files[1])
    damage(target)
    for run in range(2):
        _forget()
        if which == "row":
            whole.unlink()
        capsys.readouterr()
        again = MT.move_tables(TB.turn_cost, **SMALL)
        err = capsys.readouterr().err
        assert _same(again, built)
        assert target.exists()  # written again
        if run == 0:
            assert err.count("\n") == 1 and "is damaged" in err and target.name in err
        else:
            assert err == ""


def test_a_duel_after_a_damaged_file_plays_the_same_games(on_disk, capsys):
    """A duel under the advanced rules (banking: its tables are kept on disk) after its tables'
    file was cut short plays the same games, counter for counter, with one line of warning."""
    kw = {"n": 200, "seed": 3, "rules": "advanced", "progress": False}
    first = duel("Reaper", "Skyblazer", **kw)
    _forget()
    _cut_short(on_disk()[0])
    capsys.readouterr()
    again = duel("Reaper", "Skyblazer", **kw)
    assert capsys.readouterr().err.count("is damaged") == 1
    assert np.array_equal(again.counters, first.counters)
    assert (again.wins_a, again.wins_b, again.draws) == (first.wins_a, first.wins_b, first.draws)
