"""A checkpoint file is checked field by field before it is resumed: valid JSON of the wrong
shape (``{}``, a list, a section whose games are a string, counters of another size) is one
line naming the field, exit 2, never a traceback, and no game is played."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dragonsim import runner
from dragonsim.checkpoint import Checkpoint
from dragonsim.cli import main
from dragonsim.errors import UserError

IDENTITY = {"command": "test"}
KEY = {"kernel": "k", "n": 10, "seed": 1, "first": 0, "args": "x"}


@pytest.mark.parametrize(
    "content, fragment",
    [
        ({}, "the field 'identity' is missing"),
        ({"counters": "x"}, "unknown field 'counters'"),
        ([1, 2], "expected a JSON object with the fields identity and sections, got a list"),
        ("x", 'got "x"'),
        ({"identity": [], "sections": {}}, "the field 'identity' must be an object, got a list"),
        ({"identity": {}}, "the field 'sections' is missing"),
    ],
)
def test_a_file_of_another_shape_is_refused_in_one_line(
    content, fragment, tmp_path, monkeypatch, capsys
):
    ck = tmp_path / "ck.json"
    ck.write_text(json.dumps(content))

    def never(*a, **k):
        raise AssertionError("a game was played")

    monkeypatch.setattr(runner, "run_blocks", never)
    assert main(["duel", "Reaper", "Slash", "-n", "10", "--checkpoint", str(ck)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0]
    assert f"checkpoint {str(ck)!r}" in err[0] and fragment in err[0], err[0]


def _file(tmp_path, section) -> str:
    """A checkpoint file of this run's identity holding one section ``run``."""
    path = tmp_path / "ck.json"
    identity = Checkpoint(tmp_path / "new.json", IDENTITY).identity
    path.write_text(json.dumps({"identity": identity, "sections": {"run": section}}))
    return str(path)


GOOD = {"key": KEY, "done": 5, "counters": [1, 2, 3], "extra": ""}


@pytest.mark.parametrize(
    "section, fragment",
    [
        ("x", ' must be an object, got "x"'),
        ({**GOOD, "games": 3}, ": unknown field 'games'"),
        ({k: v for k, v in GOOD.items() if k != "done"}, ": the field 'done' is missing"),
        ({**GOOD, "key": 5}, ".key must be an object with the fields kernel, n"),
        ({**GOOD, "key": {**KEY, "n": "ten"}}, '.key.n must be a whole number, got "ten"'),
        ({**GOOD, "key": {**KEY, "args": 1}}, ".key.args must be a string, got 1"),
        ({**GOOD, "done": "x"}, ".done must be a whole number 0..10 (the games of key.n)"),
        ({**GOOD, "done": 11}, ".done must be a whole number 0..10"),
        ({**GOOD, "done": True}, ".done must be a whole number"),
        ({**GOOD, "counters": "x"}, '.counters must be a list of whole numbers, got "x"'),
        ({**GOOD, "counters": [1, 2.5]}, ".counters must be a list of whole numbers"),
        ({**GOOD, "extra": 3}, ".extra must be a string (base64), got 3"),
    ],
)
def test_each_field_of_a_section_is_checked(section, fragment, tmp_path):
    with pytest.raises(UserError) as e:
        Checkpoint(_file(tmp_path, section), IDENTITY)
    assert f"sections.run{fragment}" in str(e.value), str(e.value)


def test_bytes_that_are_not_what_a_checkpoint_writes_are_refused(tmp_path):
    c = Checkpoint(_file(tmp_path, {**GOOD, "extra": "!!not base64"}), IDENTITY)
    with pytest.raises(UserError, match=r"sections\.run\.extra is not what a checkpoint writes"):
        c.section("run").load()


def _three(start, stop, seed, *args):
    """A stand-in kernel: three counters a game."""
    return np.full(3, stop - start, dtype=np.int64)


def test_counters_of_another_size_are_refused_before_a_game_counts(tmp_path):
    """The section's key matches (same kernel, games, seed and arguments) but it holds two
    counters where the games count three: refused, not broadcast into a wrong total."""
    path = tmp_path / "ck.json"
    section = Checkpoint(path, IDENTITY).section("run")
    section.bind(kernel=runner._kernel_name(_three), n=10, seed=1, first=0, args=())
    section.save(5, np.array([5, 5]))
    again = Checkpoint(path, IDENTITY).section("run")
    with pytest.raises(UserError, match=r"sections\.run\.counters holds 2 counters, the games"):
        runner.run_blocks(_three, 10, 1, (), checkpoint=again, progress=False)
    assert json.loads(path.read_text())["sections"]["run"]["counters"] == [5, 5]  # kept


def test_a_good_file_still_resumes(tmp_path):
    path = tmp_path / "ck.json"
    section = Checkpoint(path, IDENTITY).section("run")
    section.bind(kernel=runner._kernel_name(_three), n=10, seed=1, first=0, args=())
    section.save(4, np.array([4, 4, 4]))
    again = Checkpoint(path, IDENTITY).section("run")
    out = runner.run_blocks(_three, 10, 1, (), checkpoint=again, progress=False, min_block=2)
    assert out.resumed == 4 and out.counters.tolist() == [10, 10, 10]
