"""Every command that plays games takes the same run options, from one definition
(:func:`dragonsim.cli.common.add_speed_options`), and they reach the games: ``--threads N``
(numba threads; results do not depend on it) and ``--no-progress``. An option a command does
not take is refused by that command, naming its own ``--help`` and the nearest option it has.

Nothing here plays a game: the study functions and the runner's thread setting are replaced by
stand-ins that note what they were given and stop the run.
"""

from __future__ import annotations

import argparse

import pytest

from dragonsim.cli import build_parser, main
from dragonsim.errors import UserError

#: the commands that play no game: exact odds, one replayed game (played step by step in
#: Python, on one thread, without a progress bar), listings, files and compilation
PLAYS_NO_GAME = {
    "rules",
    "docs",
    "sheet",
    "roster",
    "odds close-combat",
    "odds tactics",
    "odds breath",
    "odds rider",
    "odds crash",
    "odds takeoff",
    "odds location",
    "replay",
    "show",
    "dice exact",
    "dice units",
    "dice assumed",
    "krynn assumed",
    "warmup",
    "reproduce",
}


def _leaves(parser, path=()):
    """(words, parser) of every command ``python -m dragonsim`` runs."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield " ".join(path), parser
    for action in subs:
        for name, sub in action.choices.items():
            yield from _leaves(sub, (*path, name))


def _value(action) -> str:
    """A word ``action`` takes: '1', or '0.5' where it wants a share."""
    for word in ("1", "0.5"):
        try:
            (action.type or str)(word)
            return word
        except (argparse.ArgumentTypeError, ValueError):
            pass
    raise AssertionError(f"no stand-in value for {action.dest}")


def _required(parser) -> list[str]:
    """The fewest words that parse: one for every positional and required option."""
    argv = []
    for a in parser._actions:
        if a.option_strings:
            if a.required:
                argv += [a.option_strings[0], _value(a)]
        elif a.nargs in (None, "+"):
            argv.append(_value(a))
    return argv


LEAVES = dict(_leaves(build_parser()))
PLAYING = sorted(set(LEAVES) - PLAYS_NO_GAME)


def test_the_list_of_commands_that_play_no_game_is_current():
    assert PLAYS_NO_GAME <= set(LEAVES), sorted(PLAYS_NO_GAME - set(LEAVES))
    assert len(PLAYING) >= 20


@pytest.mark.parametrize("command", PLAYING)
def test_every_command_that_plays_games_takes_threads_and_no_progress(command):
    """Walks the parser: each command that plays games parses ``--threads 2 --no-progress``."""
    argv = [*command.split(), *_required(LEAVES[command]), "--threads", "2", "--no-progress"]
    ns = build_parser().parse_args(argv)
    assert ns.threads == 2 and ns.no_progress is True


# ------------------------------------------------- the command line hands them to the study
#: command -> (argv, the public function it calls, as module:name)
CALLS = {
    "duel": (["duel", "Reaper", "Slash"], "dragonsim.lords.api:duel"),
    "battle": (["battle", "Reaper", "Slash", "Ozonic"], "dragonsim.lords.api:battle"),
    "tournament": (["tournament", "Reaper", "Slash"], "dragonsim.lords.analysis.study:tournament"),
    "sensitivity": (
        ["sensitivity", "Reaper", "Slash", "--rule", "altitude_mod", "--values", "[0,1,1,2,2]"],
        "dragonsim.lords.analysis.rulesweep:sensitivity",
    ),
    "robustness": (
        ["robustness", "Reaper", "Slash"],
        "dragonsim.lords.analysis.robustness:robustness",
    ),
    "find": (
        ["find", "Reaper", "Slash", "--shortest", "1"],
        "dragonsim.lords.views.replay:find_games",
    ),
    "prices": (["prices"], "dragonsim.lords.analysis.pricing:prices"),
    "best": (["best"], "dragonsim.lords.analysis.race:best"),
    "price": (["price", "Slash"], "dragonsim.lords.analysis.buildprice:price"),
    "gauntlet": (["gauntlet", "Slash"], "dragonsim.lords.analysis.fieldscore:gauntlet"),
    "skill": (["skill"], "dragonsim.lords.analysis.skill:skill"),
    "baseline write": (["baseline", "write"], "dragonsim.lords.analysis.baseline:write"),
    "baseline check": (["baseline", "check"], "dragonsim.lords.analysis.baseline:check"),
    "plan": (
        ["plan", "--difference", "0.05", "--paired", "Reaper", "Slash", "--against", "Ozonic"],
        "dragonsim.lords.analysis.paired:pilot",
    ),
    "dice attack": (
        ["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:1"],
        "dragonsim.dice.api:attack",
    ),
    "dice table": (["dice", "table", "--army", "goblin-thug:1"], "dragonsim.dice.api:dragon_table"),
    "dice duel": (
        ["dice", "duel", "--a", "red-wyrm", "--b", "blue-drake"],
        "dragonsim.dice.api:duel",
    ),
    "dice sweep": (["dice", "sweep"], "dragonsim.dice.api:sweep"),
    "dice melee": (
        ["dice", "melee", "--attacker", "goblin-thug:1", "--defender", "dwarf-guard"],
        "dragonsim.dice.api:melee",
    ),
    "krynn battle": (
        ["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1"],
        "dragonsim.krynn.api:battle",
    ),
    "krynn sweep": (
        ["krynn", "sweep", "--alliance", "foot=1", "--army", "foot=1", "--vary", "heroes"]
        + ["--values", "0,1"],
        "dragonsim.krynn.api:sweep",
    ),
    "krynn battlefield": (
        ["krynn", "battlefield", "--alliance", "foot=1", "--army", "foot=1"],
        "dragonsim.krynn.api:battlefield",
    ),
    "krynn conflict": (["krynn", "conflict", "--difficulty", "3"], "dragonsim.krynn.api:conflict"),
}


def test_every_command_that_plays_games_is_in_the_table():
    assert sorted(CALLS) == PLAYING


@pytest.mark.parametrize("command", sorted(CALLS))
def test_the_run_options_reach_the_study(command, monkeypatch, capsys):
    """``--threads 2 --no-progress`` become the study's ``threads=2, progress=False``."""
    import importlib

    argv, target = CALLS[command]
    module, name = target.split(":")
    got = {}

    def stand_in(*args, **kw):
        got.update(kw)
        raise UserError("stand-in called")

    monkeypatch.setattr(importlib.import_module(module), name, stand_in)
    assert main([*argv, "--threads", "2", "--no-progress"]) == 2
    assert "stand-in called" in capsys.readouterr().err
    assert got["threads"] == 2 and got["progress"] is False


# ------------------------------------------------------- ... and the study hands them on
def _study_calls():
    from dragonsim.dice.api import dragon_table
    from dragonsim.lords.analysis.buildprice import price
    from dragonsim.lords.analysis.fieldscore import gauntlet
    from dragonsim.lords.analysis.paired import pilot
    from dragonsim.lords.analysis.robustness import robustness
    from dragonsim.lords.analysis.study import sensitivity, tournament
    from dragonsim.lords.views.replay import find_battle_games, find_games

    two = ["Reaper", "Slash"]
    return {
        "tournament": lambda: tournament(two, n=10, threads=2),
        "sensitivity": lambda: sensitivity(
            *two, rule="altitude_mod", values=[[0, 1, 1, 2, 2]], n=10, threads=2
        ),
        "robustness": lambda: robustness(two, n=10, bots="hunter,hunter@2", threads=2),
        "find_games": lambda: find_games(*two, n=10, shortest=1, threads=2),
        "find_battle_games": lambda: find_battle_games(
            [*two, "Ozonic"], n=10, draws=True, threads=2
        ),
        "pilot": lambda: pilot(*two, against="Ozonic", n=10, threads=2),
        "gauntlet": lambda: gauntlet(two, n=10, threads=2),
        "price": lambda: price("Slash", n=10, threads=2),
        "dragon_table": lambda: dragon_table("goblin-thug:1", dragons="red-wyrm", n=10, threads=2),
    }


@pytest.mark.parametrize("study", sorted(_study_calls()))
def test_the_studies_hand_threads_to_the_runner(study, monkeypatch):
    """Each study that plays through other functions sets the thread count it was given."""
    from dragonsim import runner

    seen = []

    def set_threads(threads):
        seen.append(threads)
        raise UserError("stopped before a game")

    monkeypatch.setattr(runner, "set_threads", set_threads)
    with pytest.raises(UserError, match="stopped before a game"):
        _study_calls()[study]()
    assert seen == [2]


# ------------------------------------------------------------------ an option no command takes
@pytest.mark.parametrize(
    "argv, prog, hint",
    [
        (["duel", "Reaper", "Slash", "--thraeds", "2"], "duel", " (did you mean --threads?)"),
        (["tournament", "Reaper", "Slash", "--no-progess"], "tournament", "--no-progress?"),
        (["odds", "location", "F", "--jsno"], "odds location", " (did you mean --json?)"),
        (
            ["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:1", "--sede", "3"],
            "dice attack",
            " (did you mean --seed?)",
        ),  # fmt: skip
        (["krynn", "conflict", "--difficulty", "3", "--zzzzzz"], "krynn conflict", ""),
        (["duel", "Reaper", "Slash", "Ozonic"], "duel", ""),
    ],
)
def test_an_unknown_option_names_the_commands_own_help(argv, prog, hint, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    line = err[0]
    assert line.startswith(f"python -m dragonsim {prog}: error: unrecognized arguments: ")
    assert line.endswith(f"(see 'python -m dragonsim {prog} --help')")
    assert hint in line
    if not hint:
        assert "did you mean" not in line
