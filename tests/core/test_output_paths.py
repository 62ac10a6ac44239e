"""A file a command will write is checked before any game is played: its folder exists and can
be written, and its suffix is one the writer takes. A run of hours never ends in a traceback at
the write; the mistake is one line and exit 2 at once.

The commands' study functions are replaced by stand-ins that fail the test if they are called,
so a check made only after the games cannot pass.
"""

from __future__ import annotations

import importlib

import pytest

from dragonsim.cli import main
from dragonsim.errors import UserError, check_output

NOWHERE = "/no/such/folder"

#: (argv, the study the command would run, the line's fragment)
CASES = [
    (["prices", "--csv", f"{NOWHERE}/p.csv"], "dragonsim.lords.analysis.pricing:prices", "--csv"),
    (["prices", "--plot", f"{NOWHERE}/p.png"], "dragonsim.lords.analysis.pricing:prices", "--plot"),
    (["prices", "--csv", "p.txt"], "dragonsim.lords.analysis.pricing:prices", "must end in .csv"),
    (
        ["prices", "--save-fit", f"{NOWHERE}/f.json"],
        "dragonsim.lords.analysis.pricing:prices",
        "--save-fit file",
    ),
    (
        ["prices", "--save-fit", "f.txt"],
        "dragonsim.lords.analysis.pricing:prices",
        "must end in .json",
    ),
    (
        ["gauntlet", "Slash", "--plot", f"{NOWHERE}/g.png"],
        "dragonsim.lords.analysis.fieldscore:gauntlet",
        "--plot",
    ),
    (["best", "--plot", f"{NOWHERE}/b.png"], "dragonsim.lords.analysis.race:best", "--plot"),
    (["best", "--csv", f"{NOWHERE}/b.csv"], "dragonsim.lords.analysis.race:best", "--csv"),
    (["skill", "--plot", f"{NOWHERE}/s.png"], "dragonsim.lords.analysis.skill:skill", "--plot"),
    (
        ["robustness", "Reaper", "Slash", "--csv", f"{NOWHERE}/r.csv"],
        "dragonsim.lords.analysis.robustness:robustness",
        "--csv",
    ),
    (
        ["robustness", "Reaper", "Slash", "--plot", f"{NOWHERE}/r.png"],
        "dragonsim.lords.analysis.robustness:robustness",
        "--plot",
    ),
    (
        ["baseline", "write", "--file", "/dev/null/b.json"],
        "dragonsim.lords.analysis.baseline:write",
        "is not a folder",
    ),
    (
        ["replay", "Reaper", "Slash", "--jsonl", f"{NOWHERE}/g.jsonl"],
        "dragonsim.lords.views.replay:replay",
        "--jsonl",
    ),
    (
        ["show", "Reaper", "Slash", "--out", f"{NOWHERE}/g.png"],
        "dragonsim.lords.views.replay:replay",
        "--out",
    ),
    (
        ["duel", "Reaper", "Slash", "--records", f"{NOWHERE}/g.csv"],
        "dragonsim.runner:run_blocks",
        "records file",
    ),
]


@pytest.mark.parametrize("argv, study, fragment", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_an_output_path_that_cannot_be_written_is_refused_before_any_game(
    argv, study, fragment, monkeypatch, capsys
):
    module, name = study.split(":")

    def never(*args, **kw):
        raise AssertionError(f"{study} was called: the path was not checked first")

    monkeypatch.setattr(importlib.import_module(module), name, never)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and fragment in err[0], err
    if "must end" not in fragment and "not a folder" not in fragment:
        assert f"no folder '{NOWHERE}'" in err[0]


def test_check_output_names_what_is_wrong(tmp_path):
    assert check_output(tmp_path / "a.png", "--plot file", (".png",)) == str(tmp_path / "a.png")
    cases = [
        ((tmp_path / "a.svg", "--plot file", (".png",)), "must end in .png"),
        ((tmp_path, "--plot file", ()), "is a directory; name a file"),
        ((tmp_path / "none" / "a.png", "--plot file", ()), "no folder"),
        (("", "--plot file", ()), "expected a file path"),
        ((5, "--plot file", ()), "expected a file path"),
    ]
    for args, fragment in cases:
        with pytest.raises(UserError, match=fragment):
            check_output(*args)
    # a writer that makes the folders it needs: any folder above that exists will do
    deep = tmp_path / "x" / "y" / "b.json"
    assert check_output(deep, "baseline file", make_folder=True) == str(deep)
