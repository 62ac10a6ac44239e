"""Every user error is one line and exit 2 from the command line, and a
documented :class:`dragonsim.errors.UserError` (a ValueError) from the API.

One table of bad inputs over every command and public function, each with the exit code and a
fragment of the message it must give. The CLI cases run in-process (``main([...])``, stderr
captured), so the table stays fast; two run the real entry point in a subprocess. Every case
is refused before a game is played (``n`` is small where a bug would let a run start).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from dragonsim.cli import main
from dragonsim.errors import UserError

# ------------------------------------------------------------------ the files the table reads
FILES = {
    "missing": None,  # a path that does not exist
    "directory": None,
    "latin1": b"[lords]\nname = '\xe9'\n",  # not UTF-8
    "empty": b"",
    "blank": b"  \n\n",
    "big": b"#" * (1024 * 1024 + 1),  # one byte over the 1 MiB limit
    "badtoml": b"[lords\n",
    "table": b"[chess]\nqueen = 9\n",
    "lots": b'[krynn]\nmax_stress = "lots"\n',
    "huge_face": b'[krynn]\n"battle_die.woe" = 1000000000\n',
    "half_die": b"[krynn]\nbattle_die = { woe = 1, blank = 2 }\n",
    "notjson": b"nope\n",
    "jsonlist": b"[1, 2]\n",
    "scen_key": b'[[tile]]\nalliance = "foot=1"\narmy = "foot=1"\ncolour = 3\n',
    "scen_flank": b'[[tile]]\nalliance = "foot=1"\narmy = "foot=1"\nflank = 1000000\n',
    "scen_limit": b'control_limit = "x"\n[[tile]]\nalliance = "foot=1"\narmy = "foot=1"\n',
    "scen_none": b"control_limit = 1\n",
    "scen_top": b'[krynn]\nmax_stress = 3\n[[tile]]\nalliance = "foot=1"\narmy = "foot=1"\n',
    "unit_face": b'[units.x]\nrace = "orcs"\nhealth = 1\n'
    b'faces = ["ID", "Melee 1000000000", "Melee 2", "Save 1", "Maneuver 2", "Missile 1"]\n',
    "unit_few": b'[units.x]\nrace = "orcs"\nhealth = 1\nfaces = ["ID", "Melee 1"]\n',
    "unit_health": b'[units.x]\nrace = "orcs"\nhealth = 1000000000\n'
    b'faces = ["ID", "Melee 1", "Melee 2", "Save 1", "Maneuver 2", "Missile 1"]\n',
    "dragon_few": b'[dragons.big]\ncolour = "red"\nfaces = ["claw"]\n',
    "army_huge": b"[armies.huge]\ngoblin-thug = 100000\n",
    "deck_copies": b'[krynn]\n"decks.army_foot" = ["1000x Horde: 3 dice -> foot"]\n',
    "deck_dice": b'[krynn]\n"decks.army_foot" = ["3x Horde: 100000 dice -> foot"]\n',
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("bad")
    out = {}
    for name, data in FILES.items():
        p = d / f"{name}.toml"
        if name == "directory":
            p.mkdir()
        elif data is not None:
            p.write_bytes(data)
        out[name] = str(p)
    out["device"] = "/dev/null"  # not a regular file (reading /dev/zero would never end)
    return out


def _fill(argv, files):
    return [a.format(**files) if "{" in a else a for a in argv]


def run_cli(argv, capsys):
    """``main(argv)`` in-process: (exit code, stderr)."""
    try:
        code = main(argv)
    except SystemExit as e:  # argparse
        code = e.code
    return code, capsys.readouterr().err


# ------------------------------------------------------------------ --rules FILE, every command
RULES_COMMANDS = {
    "rules": ["rules"],
    "sheet": ["sheet", "Reaper"],
    "roster": ["roster"],
    "odds close-combat": ["odds", "close-combat", "Reaper", "Slash"],
    "odds breath": ["odds", "breath", "Reaper", "Slash", "--range", "3"],
    "odds location": ["odds", "location", "F"],
    "baseline check": ["baseline", "check", "-n", "10"],
    "duel": ["duel", "Reaper", "Skyblazer", "-n", "10"],
    "battle": ["battle", "Reaper", "Slash", "-n", "10"],
    "tournament": ["tournament", "Reaper", "Slash", "-n", "10"],
    "robustness": ["robustness", "Reaper", "Slash", "--bots", "hunter,hunter@2", "-n", "10"],
    "prices": ["prices", "--budget", "6", "--band", "1", "--designs", "20", "-n", "1"],
    "best": ["best", "--budget", "6", "--n0", "1", "--rounds", "1", "--field", "Slash,Reaper"],
    "price": ["price", "Slash", "-n", "10"],
    "gauntlet": ["gauntlet", "Slash", "Reaper", "-n", "10"],
    "sensitivity": [
        "sensitivity",
        "Reaper",
        "Slash",
        "--rule",
        "altitude_mod",
        "--values",
        "[0,1,1,2,2]",
        "-n",
        "10",
    ],
    "dice attack": [
        "dice",
        "attack",
        "--dragon",
        "red-wyrm",
        "--army",
        "goblin-thug:1",
        "-n",
        "10",
    ],
    "dice table": ["dice", "table", "--army", "goblin-thug:1", "-n", "10"],
    "dice duel": ["dice", "duel", "--a", "red-wyrm", "--b", "blue-drake", "-n", "10"],
    "dice sweep": ["dice", "sweep", "-n", "10"],
    "dice melee": [
        "dice",
        "melee",
        "--attacker",
        "goblin-thug:1",
        "--defender",
        "dwarf-guard",
        "-n",
        "10",
    ],
    "dice exact": ["dice", "exact", "--dragon", "red-wyrm", "--army", "goblin-thug:1"],
    "dice assumed": ["dice", "assumed"],
    "krynn battle": ["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1", "-n", "10"],
    "krynn sweep": [
        "krynn",
        "sweep",
        "--alliance",
        "foot=1",
        "--army",
        "foot=1",
        "--vary",
        "heroes",
        "--values",
        "0,1",
        "-n",
        "10",
    ],
    "krynn battlefield": [
        "krynn",
        "battlefield",
        "--alliance",
        "foot=1",
        "--army",
        "foot=1",
        "-n",
        "10",
    ],
    "krynn conflict": ["krynn", "conflict", "--difficulty", "3", "-n", "10"],
    "krynn assumed": ["krynn", "assumed"],
}

#: (file, the message fragment): what every reader of a user's file must say
RULES_FILE_CASES = {
    "missing": "not found",
    "directory": "is a directory",
    "device": "not a regular file",
    "latin1": "not UTF-8",
    "empty": "is empty",
    "blank": "is empty",
    "big": "the limit is 1,048,576 bytes",
    "badtoml": "not valid TOML",
    "table": "unknown table [chess]",
}

CLI_CASES = [
    pytest.param([*argv, "--rules", "{%s}" % f], 2, msg, id=f"{cmd} --rules {f}")  # noqa: UP031 - the braces are format fields
    for cmd, argv in RULES_COMMANDS.items()
    for f, msg in RULES_FILE_CASES.items()
]
CLI_CASES += [
    pytest.param([*RULES_COMMANDS[cmd], "--rules", ""], 2, "empty path", id=f"{cmd} --rules ''")
    for cmd in ("rules", "duel", "dice attack", "krynn battle")
]
# a wrong value in the file, read by each game's commands
CLI_CASES += [
    pytest.param(
        [*RULES_COMMANDS[cmd], "--rules", "{%s}" % f],  # noqa: UP031
        2,
        msg,
        id=f"{cmd} --rules {f}",
    )
    for cmd in ("krynn battle", "krynn conflict", "duel", "dice attack", "rules")
    for f, msg in {
        "lots": "krynn.max_stress: expected a whole number, got 'lots'",
        "huge_face": "1000000000 is out of range; allowed 0..60",
        "half_die": "table is missing row(s) single, double",
        "deck_copies": "copies must be between 0 and 20, got 1000",
        "deck_dice": "amount must be between 0 and 40, got 100000",
    }.items()
]

# ------------------------------------------------- the run options, every Monte Carlo command
MC_COMMANDS = [
    "duel",
    "battle",
    "tournament",
    "robustness",
    "sensitivity",
    "dice attack",
    "dice table",
    "dice duel",
    "dice sweep",
    "dice melee",
    "krynn battle",
    "krynn sweep",
    "krynn battlefield",
    "krynn conflict",
]
RUN_OPTION_CASES = {
    ("-n", "0"): "n must be at least 1",
    ("-n", "1.5"): "n must be a positive whole number",
    ("-n", "lots"): "n must be a positive whole number such as 1000 or 1e6",
    ("-n", "1e13"): "n must be at most 1e12",
    ("-n", "inf"): "n must be a positive whole number",
    ("--seed", "-1"): "seed must be between 0 and 2**63-1",
    ("--seed", "x"): "seed must be a whole number",
    ("--seed", "9223372036854775808"): "seed must be between 0 and 2**63-1",
}
THREAD_CASES = {
    ("--threads", "0"): "must be a whole number >= 1",
    ("--threads", "1.5"): "must be a whole number >= 1",
    ("--threads", "1000000"): "threads must be 1..",
}
RECORDS_CASES = {
    ("--records", "games.txt"): "must end in .parquet or .csv",
    ("--records", "/no/such/folder/games.parquet"): "no folder",
    ("--records", "{directory}"): "must end in .parquet or .csv",
}
CHECKPOINT_CASES = {
    ("--checkpoint", ""): "checkpoint: expected a file path",
    ("--checkpoint", "{directory}"): "is a directory",
    ("--checkpoint", "/no/such/folder/ck.json"): "no folder",
}


def _base(cmd):
    argv = list(RULES_COMMANDS[cmd])
    if "-n" in argv:
        i = argv.index("-n")
        del argv[i : i + 2]
    return argv


CLI_CASES += [
    pytest.param([*_base(cmd), *opt], 2, msg, id=f"{cmd} {' '.join(opt)}")
    for cmd in MC_COMMANDS
    for opt, msg in RUN_OPTION_CASES.items()
]
CLI_CASES += [
    pytest.param([*_base(cmd), "-n", "10", *opt], 2, msg, id=f"{cmd} {' '.join(opt)}")
    for cmd in MC_COMMANDS
    for opt, msg in THREAD_CASES.items()
]
CLI_CASES += [
    pytest.param([*_base(cmd), "-n", "10", *opt], 2, msg, id=f"{cmd} {' '.join(opt)}")
    for cmd in MC_COMMANDS
    for opt, msg in CHECKPOINT_CASES.items()
]
CLI_CASES += [
    pytest.param([*_base(cmd), "-n", "10", *opt], 2, msg, id=f"{cmd} {' '.join(opt)}")
    for cmd in MC_COMMANDS
    for opt, msg in RECORDS_CASES.items()
]

# ------------------------------------------------------------------ each command's own mistakes
OWN = [
    (["duel", "Reaper", "Skyblazer", "-n", "10", "--records", ""], "records must name a .parquet"),
    (["duel", "Reaper", "Skyblazer", "-n", "10", "--turn-limit", "1e9"], "turn limit must be"),
    (["duel", "Reaper", "Skyblazer", "-n", "10", "--turn-limit", "0"], "whole number >= 1"),
    (["duel", "Reaper", "Nobody", "-n", "10"], "unknown dragon 'Nobody'"),
    (["duel", "Reaper", "body=Heavy", "-n", "10"], "is missing wings, breath, claws"),
    (["duel", "Reaper", "body=Heavy,wings=Huge,breath=Ice,claws=Sharp,hat=1"], "design key"),
    (["duel", "Reaper", "Slash", "-n", "10", "--policy", "hunter:100000"], "1..1024"),
    (["duel", "Reaper", "Slash", "-n", "10", "--policy", "random:4"], "takes no breadth"),
    (["duel", "Reaper", "Slash", "-n", "10", "--policies", "hunter"], "policies must name two"),
    (["duel", "Reaper", "Slash", "-n", "10", "--policy", "chess"], "unknown policy 'chess'"),
    (["battle", "Reaper", "-n", "10"], "a battle needs 2..8 dragons"),
    (["battle", "Reaper", "Slash", "-n", "10", "--teams", "0,x"], "--teams takes whole numbers"),
    (["battle", "Reaper", "Slash", "-n", "10", "--teams", "0"], "one team number per dragon"),
    (["battle", "Reaper", "Slash", "-n", "10", "--teams", "0,2"], "without gaps"),
    (["battle", *["Reaper", "Slash"] * 5, "-n", "10"], "a battle needs 2..8 dragons, got 10"),
    (["battle", "basic-9", "-n", "10"], "unknown team pairing"),
    (["tournament", "Reaper", "-n", "10"], "2 to 32 dragons, got 1"),
    (["tournament", "Reaper", "Reaper", "-n", "10"], "at least two different dragons"),
    (["tournament", *["Reaper"] * 33, "-n", "10"], "2 to 32 dragons"),
    (["robustness", "Reaper", "Slash", "--bots", "hunter"], "two or more different bots"),
    (["robustness", "Reaper", "--bots", "hunter,search"], "2 to 32 dragons, got 1"),
    (["robustness", "Reaper", "Slash", "--reference", "sniper"], "reference bot 'sniper'"),
    (["prices", "--budget", "3"], "budget must be 4..1000, got 3"),
    (["prices", "--budget", "40"], "no legal design costs 37..43"),
    (["prices", "--designs", "5"], "designs must be 10..5000, got 5"),
    (["prices", "--holdout", "2"], "holdout must be a share in 0..0.9"),
    (["prices", "--policy", "chess"], "unknown policy 'chess'"),
    (["prices", "--field", "Reaper"], "the field needs at least two dragons"),
    (["prices", "--csv", "p.txt"], "must end in .csv"),
    (["best", "--budget", "26"], "no legal design costs exactly 26 design points"),
    (["best", "--alpha", "0"], "alpha must be in (0, 1)"),
    (["best", "--rounds", "21"], "rounds must be 1..20"),
    (["best", "--field", "Nobody"], "unknown dragon 'Nobody'"),
    (["best", "--plot", "b.svg"], "must end in .png"),
    (["price", "Nobody"], "unknown dragon 'Nobody'"),
    (["price", "Slash", "--fit", "{notjson}"], "is not valid JSON"),
    (["price", "Slash", "--fit", "{jsonlist}"], "is not a price fit"),
    (["price", "Slash", "--budget", "9"], "no stored price fit for 9 DP"),
    (["price", "Slash", "-n", "0"], "n must be at least 1"),
    (["price", "Slash", "--threads", "0"], "must be a whole number >= 1"),
    (["gauntlet", "Slash", "Nobody"], "unknown dragon 'Nobody'"),
    (["gauntlet", "Slash", "Slash"], "Slash given twice"),
    (["gauntlet", "Slash", "-n", "1"], "n must be 2..10000000, got 1"),
    (["gauntlet", "Slash", "--seed", "-1"], "seed must be between 0 and 2**63-1"),
    (["gauntlet", "Slash", "--field", "{missing}"], "not found"),
    (["gauntlet", "Slash", "--plot", "g.svg"], "must end in .png"),
    (
        ["sensitivity", "Reaper", "Slash", "--rule", "altitude_mod", "--values", "", "-n", "10"],
        "--values needs at least one value",
    ),
    (
        ["sensitivity", "Reaper", "Slash", "--rule", "altitude_mod", "--values", ";;", "-n", "9"],
        "--values needs at least one value",
    ),
    (
        ["sensitivity", "Reaper", "Slash", "--rule", "nope", "--values", "1", "-n", "10"],
        "unknown rule 'lords.nope'",
    ),
    (
        ["sensitivity", "Reaper", "Slash", "--rule", "altitude_mod", "--values", "[1]"],
        "expected 5 entries, got 1",
    ),
    (["baseline", "check", "--file", "{empty}"], "is empty"),
    (["baseline", "check", "--file", "{notjson}"], "is not valid JSON"),
    (["baseline", "check", "--file", "{jsonlist}"], "is not a baseline"),
    (["baseline", "check", "--file", "{directory}"], "is a directory"),
    (["baseline", "check", "--file", "{latin1}"], "not UTF-8"),
    (["baseline", "check", "--file", "{missing}"], "no baseline at"),
    (["baseline", "check", "--alpha", "2"], "--alpha must be between 0 and 1"),
    (["baseline", "write", "-n", "0"], "n must be at least 1"),
    (["sheet", "Reaper", "--budget", "x"], "invalid int value"),
    (["sheet", "Reaper", "--budget", "3"], "over the budget of 3"),
    (["sheet", "body=Heavy,wings=Large,breath=Ice,claws=Plastic"], "unknown tooth and claw"),
    (["odds", "breath", "Reaper", "Slash", "--range", "99"], "allowed 1..6"),
    (["odds", "breath", "Reaper", "Slash", "--range", "3", "--area", "pink"], "unknown arc area"),
    (["odds", "breath", "Reaper", "Slash", "--range", "3", "--altitude-steps", "9"], "0..4"),
    (["odds", "location", "Q"], "unknown direction 'Q'"),
    (["odds", "close-combat", "Reaper", "Slash", "--tactics", "a"], "two tactics A,B"),
    (["rules", "--game", "chess"], "invalid choice"),
    (["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:100000"], "at most 500"),
    (["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:x"], "must be a whole"),
    (["dice", "attack", "--dragon", "red-wyrm", "--army", ""], "empty army"),
    (
        ["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:1,goblin-thug:2"],
        "unit 'goblin-thug' given twice; give each unit once with its count, e.g. goblin-thug:3",
    ),
    (["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:1,,"], "an empty entry"),
    (["dice", "table", "--army", ",goblin-thug:1"], "has an empty entry"),
    (
        ["dice", "melee", "--attacker", "goblin-thug:1,Goblin Thug:1", "--defender", "dwarf-guard"],
        "unit 'goblin-thug' given twice",
    ),
    (["dice", "attack", "--dragon", "red-wyrm:99", "--army", "goblin-thug:1"], "1..16, got 99"),
    (["dice", "attack", "--dragon", "42", "--army", "goblin-thug:1"], "unknown dragon '42'"),
    (["dice", "attack", "--dragon", "red-wyrm,blue-drake", "--army", "goblin-thug:1"], "colours"),
    (["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:1", "--turns", "1e9"], ""),
    (["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:1", "--turns", "0"], ""),
    (
        ["dice", "attack", "--dragon", "red-wyrm", "--army", "red-dragonkin-common:2"],
        "solely of dragonkin",
    ),
    (
        ["dice", "attack", "--dragon", "red-wyrm", "--army", "x:1", "--army-file", "{unit_face}"],
        "face counts must be 0..20",
    ),
    (
        ["dice", "attack", "--dragon", "red-wyrm", "--army", "x:1", "--army-file", "{unit_few}"],
        "a unit die has 6 faces, got 2",
    ),
    (
        ["dice", "attack", "--dragon", "red-wyrm", "--army", "x:1", "--army-file", "{unit_health}"],
        "health must be a whole number 1..4",
    ),
    (
        [
            "dice",
            "attack",
            "--dragon",
            "big",
            "--army",
            "goblin-thug:1",
            "--army-file",
            "{dragon_few}",
        ],
        "a dragon die has 12 faces, got 1",
    ),
    (
        ["dice", "attack", "--dragon", "red-wyrm", "--army", "huge", "--army-file", "{army_huge}"],
        "count must be at most 500",
    ),
    (
        [
            "dice",
            "attack",
            "--dragon",
            "red-wyrm",
            "--army",
            "goblin-thug:1",
            "--army-file",
            "{latin1}",
        ],
        "army file",
    ),
    (
        [
            "dice",
            "attack",
            "--dragon",
            "red-wyrm",
            "--army",
            "goblin-thug:1",
            "--army-file",
            "{directory}",
        ],
        "is a directory",
    ),
    (
        [
            "dice",
            "attack",
            "--dragon",
            "red-wyrm",
            "--army",
            "goblin-thug:1",
            "--army-file",
            "{big}",
        ],
        "the limit is",
    ),
    (
        ["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:1", "--id-split", "x"],
        "unknown id_split 'x'",
    ),
    (["dice", "sweep", "--p", "2"], "strictly between 0 and 1"),
    (["dice", "sweep", "--p", "x"], "--p must be a probability"),
    (["dice", "sweep", "--max-copies", "1e9"], "--max-copies must be a whole number"),
    (["dice", "sweep", "--max-copies", "0"], "max_copies must be 1..500"),
    (["dice", "sweep", "--dragons", ","], "no dragons to sweep"),
    (["dice", "duel", "--a", "red-wyrm"], "give --a and --b"),
    (["dice", "duel", "--a", "red-wyrm", "--b", "red-drake"], "share a colour"),
    (["dice", "duel", "--a", "red-wyrm", "--b", "blue-drake", "--negation-rounds", "1000000"], ""),
    (["dice", "duel", "--dragons", "red-wyrm", "--a", "blue-drake"], "not both"),
    (["dice", "melee", "--attacker", "goblin-thug:1", "--defender", "x:1"], "unknown unit 'x'"),
    (
        [
            "dice",
            "melee",
            "--attacker",
            "goblin-thug:1",
            "--defender",
            "dwarf-guard",
            "--policy",
            "x",
        ],
        "unknown casualty_policy 'x'",
    ),
    (["dice", "exact", "--dragon", "red-wyrm", "--army", "goblin-thug:400"], "at most 14 units"),
    (
        ["dice", "exact", "--dragon", "red-drake", "--army", "goblin-thug:3", "--turns", "1000"],
        "exact games follow 1..20 attacks, got 1000: every army state is carried with exact",
    ),
    (["dice", "units", "--army-file", "{badtoml}"], "not valid TOML"),
    (["dice", "table", "--army", "goblin-thug:1", "--dragons", "nope"], "unknown dragon 'nope'"),
    (["krynn", "battle", "--alliance", "foot=99", "--army", "foot=1"], "between 0 and 6, got 99"),
    (["krynn", "battle", "--alliance", "foot", "--army", "foot=1"], "expected LINE=COUNT"),
    (["krynn", "battle", "--alliance", "horse=1", "--army", "foot=1"], "unknown line"),
    (["krynn", "battle", "--alliance", "foot=1,foot=2", "--army", "foot=1"], "given twice"),
    (["krynn", "battle", "--alliance", "foot=0", "--army", "foot=1"], "at least one unit"),
    (["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1", "--heroes", "99"], "0..5"),
    (["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1", "--heroes", "x"], "whole"),
    (["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1", "--max-turns", "1000000"], ""),
    (["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1", "--tactics", "foot=99"], ""),
    (["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1", "--barricades", "foot=2"], ""),
    (["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1", "--battle", "war"], ""),
    (["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1", "--tier", "god"], "tier"),
    (["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1", "--hero-policy", "x"], ""),
    (
        ["krynn", "battle", "--alliance", "foot=1", "--army", "foot=1", "--army-commander", "x"],
        "unknown commander",
    ),
    (
        ["krynn", "battlefield", "--tiles", "10", "--alliance", "foot=1", "--army", "foot=1"],
        "1 and 9",
    ),
    (["krynn", "battlefield", "--alliance", "foot=1"], "needs --scenario FILE or both"),
    (["krynn", "battlefield", "--scenario", "{latin1}"], "scenario file"),
    (["krynn", "battlefield", "--scenario", "{directory}"], "is a directory"),
    (["krynn", "battlefield", "--scenario", ""], "empty path"),
    (["krynn", "battlefield", "--scenario", "{missing}"], "not found"),
    (["krynn", "battlefield", "--scenario", "{badtoml}"], "not valid TOML"),
    (["krynn", "battlefield", "--scenario", "{scen_key}"], "unknown key 'colour'"),
    (["krynn", "battlefield", "--scenario", "{scen_flank}"], "flank tokens must be 0..20"),
    (["krynn", "battlefield", "--scenario", "{scen_limit}"], "control_limit (0: none)"),
    (["krynn", "battlefield", "--scenario", "{scen_none}"], "at least one [[tile]]"),
    (["krynn", "battlefield", "--scenario", "{scen_top}"], "unknown key(s) krynn"),
    (["krynn", "conflict", "--difficulty", "3", "--dice", "1000000"], "dice must be 1..40"),
    (["krynn", "conflict", "--difficulty", "1000000"], "difficulty must be 1..20"),
    (["krynn", "conflict", "--difficulty", "3", "--actions", "1000000"], "actions must be 1..12"),
    (["krynn", "conflict", "--difficulty", "3", "--cards", "1000000"], "cards must be 0..12"),
    (["krynn", "conflict", "--difficulty", "3", "--actions", "-1"], "actions must be 1..12"),
    (["krynn", "conflict", "--difficulty", "x"], "--difficulty must be a whole number"),
    (
        [
            "krynn",
            "sweep",
            "--alliance",
            "foot=1",
            "--army",
            "foot=1",
            "--vary",
            "heroes",
            "--values",
            "0..1000",
        ],
        "--values must be whole numbers",
    ),
    (
        [
            "krynn",
            "sweep",
            "--alliance",
            "foot=1",
            "--army",
            "foot=1",
            "--vary",
            "heroes",
            "--values",
            "0..9",
        ],
        "heroes must be 0..5",
    ),
    (
        [
            "krynn",
            "sweep",
            "--alliance",
            "foot=1",
            "--army",
            "foot=1",
            "--vary",
            "x",
            "--values",
            "1",
        ],
        "unknown sweep quantity",
    ),
    (
        [
            "krynn",
            "sweep",
            "--alliance",
            "foot=1",
            "--army",
            "foot=1",
            "--vary",
            "heroes",
            "--values",
            ",",
        ],
        "--values needs at least one value",
    ),
    (["reproduce", "{missing}"], "not found"),
    (["reproduce", "{empty}"], "is empty"),
    (["reproduce", "{notjson}"], "is not valid JSON"),
    (["reproduce", "{jsonlist}"], "no command line in its manifest"),
    (["warmup", "--game", "chess"], "invalid choice"),
    (["nosuchcommand"], "invalid choice"),
    (["docs", "--nope"], "unrecognized arguments: --nope"),
    (["docs", "--out", "{empty}"], "is a file; give a folder"),
    (["docs", "--check", "--out", "{empty}"], "is a file; give the folder"),
    (["odds", "tactics", "Nope", "Reaper"], "unknown dragon 'Nope'"),
    (["odds", "rider", "Reaper", "Slash", "--range", "3"], "has no ranged attack"),
    (["odds", "crash", "--from", "9"], "--from takes 1..5 altitude levels"),
    (["odds", "takeoff", "Nope"], "unknown dragon 'Nope'"),
    (["replay", "Reaper", "Nope"], "unknown dragon 'Nope'"),
    (["show", "Reaper", "Nope", "--out", "game.png"], "unknown dragon 'Nope'"),
    (["find", "Reaper", "Nope", "-n", "10", "--shortest", "1"], "unknown dragon 'Nope'"),
    (["skill", "--bots", "hunter"], "skill compares two or more different bots"),
    (["plan", "--difference", "2"], "must be a non-zero number in (-1, 1)"),
]
CLI_CASES += [
    pytest.param(argv, 2, msg, id=" ".join(a for a in argv if len(a) < 30)[:80])
    for argv, msg in OWN
]


@pytest.mark.parametrize("argv, code, fragment", CLI_CASES)
def test_cli_refuses_in_one_line(argv, code, fragment, files, capsys, tmp_path, monkeypatch):
    """Exit 2 and one line on stderr naming the mistake (never a traceback, never a run).
    Every run would print its first-run line here, cold cache or warm, so a mistake found only
    after some games were played (a sweep's last value, say) fails the test on every machine,
    not only on a fresh one where the kernels compile first."""
    monkeypatch.chdir(tmp_path)  # a case that writes (records, checkpoints) writes here
    monkeypatch.setattr("dragonsim.firstrun.compile_note", lambda *a, **k: "a run started")
    monkeypatch.setattr("dragonsim.firstrun._ANNOUNCED", set())  # said once a process
    got, err = run_cli(_fill(argv, files), capsys)
    assert got == code, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert fragment in lines[0], lines[0]


# ------------------------------------------------------------------ the Python API
def _api_cases():
    import dragonsim
    from dragonsim import dice, krynn
    from dragonsim.dice.odds import exact_game
    from dragonsim.krynn import odds as kodds
    from dragonsim.lords import api as L
    from dragonsim.lords.analysis import study
    from dragonsim.lords.game import odds
    from dragonsim.rules import dice_rules, krynn_rules, lords_rules
    from dragonsim.runner import run_blocks, set_threads

    ok = ("Reaper", "Skyblazer")
    army = "goblin-thug:1"
    line = {"alliance": "foot=1", "army": "foot=1"}
    return [
        (lambda: dragonsim.duel({"body": "Heavy"}, "Reaper", n=10), "is missing wings"),
        (lambda: dragonsim.duel({"hat": 1}, "Reaper", n=10), "unknown design key 'hat'"),
        (lambda: dragonsim.duel(42, "Reaper", n=10), "a dragon is a ready-made name"),
        (lambda: dragonsim.duel(None, "Reaper", n=10), "a dragon is a ready-made name"),
        (lambda: dragonsim.duel(*ok, n=10, threads=1.5), "threads must be a whole number"),
        (lambda: dragonsim.duel(*ok, n=10, threads="2"), "threads must be a whole number"),
        (lambda: dragonsim.duel(*ok, n=10, threads=True), "threads must be a whole number"),
        (lambda: dragonsim.duel(*ok, n=10, threads=0), "threads must be 1.."),
        (lambda: dragonsim.duel(*ok, n=10, seed=1.5), "seed must be a whole number"),
        (lambda: dragonsim.duel(*ok, n=10, seed=-1), "seed must be a whole number"),
        (lambda: dragonsim.duel(*ok, n=10, turn_limit=10**9), "turn limit must be 1..100000"),
        (lambda: dragonsim.duel(*ok, n=10, turn_limit=2.5), "turn limit must be a whole"),
        (lambda: dragonsim.duel(*ok, n=10, records=""), "records must name a .parquet or .csv"),
        (lambda: dragonsim.duel(*ok, n=10, records=5), "records must name a .parquet or .csv"),
        (lambda: dragonsim.duel(*ok, n=10, records="g.json"), "must end in .parquet or .csv"),
        (lambda: dragonsim.duel(*ok, n=10, policy=3), "unknown policy '3'"),
        (lambda: dragonsim.duel(*ok, n=10, policies=3), "policies must be 'P,Q'"),
        (lambda: dragonsim.duel(*ok, n=10, rules=[1, 2]), "rules must be a RuleSet"),
        (lambda: dragonsim.duel(*ok, n=10, plan_samples=10**9), "plan_samples must be 1..1024"),
        (lambda: dragonsim.duel(*ok, n=None), "n must be a positive whole number"),
        (lambda: dragonsim.duel(*ok, n=[1]), "n must be a positive whole number"),
        (lambda: dragonsim.duel(*ok, n=0), "n must be at least 1"),
        (lambda: dragonsim.duel(*ok, n=10, backend="gpu"), "unknown backend"),
        (lambda: dragonsim.duel(*ok, n=10, checkpoint=""), "checkpoint: expected a file path"),
        (lambda: lords_rules([1, 2]), "must be a mapping of rule names to values, got list"),
        (lambda: lords_rules({"altitude_mod": "x"}), "expected a list of 5 ints"),
        (lambda: lords_rules({"nope": 1}), "unknown rule 'lords.nope'"),
        (lambda: lords_rules(file=42), "expected a file path, got 42"),
        (lambda: lords_rules(file=""), "empty path"),
        (lambda: dragonsim.sheet(42), "a dragon is a ready-made name"),
        (lambda: dragonsim.sheet({"body": "Heavy"}), "is missing wings"),
        (lambda: dragonsim.sheet({}), "is missing body, wings, breath, claws"),
        (lambda: dragonsim.design(body=1, wings="Large", breath="Ice", claws="Sharp"), "body"),
        (lambda: odds.location("Q"), "unknown direction"),
        (lambda: L.battle(42, n=10), "dragons must be a list"),
        (lambda: L.battle(["Reaper", "Slash"], n=10, teams=["a", "b"]), "a team number must"),
        (lambda: L.battle(["Reaper", "Slash"], n=10, teams=5), "teams must be a list"),
        (lambda: L.battle(["Reaper", "Slash"], n=10, policies=5), "policies must be"),
        (lambda: L.battle(["Reaper", "Slash"], n=10, seed="x"), "seed must be a whole"),
        (lambda: L.battle(["Reaper"] * 9, n=10), "a battle needs 2..8 dragons"),
        (lambda: study.tournament("Reaper", n=10), "dragons must be a list"),
        (lambda: study.tournament(["Reaper", 42], n=10), "a dragon is a ready-made name"),
        (lambda: study.tournament(["Reaper"] * 40, n=10), "2 to 32 dragons"),
        (lambda: study.sensitivity(*ok, rule=5, values=[1], n=10), "rule must be a rule key"),
        (lambda: study.sensitivity(*ok, rule="altitude_mod", values=5, n=10), "values must"),
        (lambda: study.sensitivity(*ok, rule="altitude_mod", values=[], n=10), "1 to 100"),
        (lambda: study.sensitivity(*ok, rule="altitude_mod", values="01", n=10), "values must"),
        (lambda: study.compare(*ok, n=10, alt=5), "base and alt must be mappings"),
        (lambda: study.compare(*ok, n=10, alt={"colour": 1}), "unknown configuration key"),
        (lambda: study.outcomes(*ok, n=10, policies="hunter"), "policies must name two bots"),
        (lambda: dice.attack(42, army, n=10), "dragons must be a name such as 'red-wyrm'"),
        (lambda: dice.attack(["red-wyrm", 42], army, n=10), "unknown dragon '42'"),
        (lambda: dice.attack("red-wyrm", 42, n=10), "unknown army or unit '42'"),
        (lambda: dice.attack("red-wyrm", {"goblin-thug": 1.5}, n=10), "count must be a whole"),
        (lambda: dice.attack("red-wyrm", {"goblin-thug": 10**9}, n=10), "at most 500"),
        (lambda: dice.attack("red-wyrm", {"goblin-thug": 1, "Goblin Thug": 2}, n=10), "twice"),
        (lambda: dice.attack("red-wyrm", "goblin-thug:1, ,goblin-pelter:1", n=10), "empty entry"),
        (lambda: dice.attack("red-wyrm", army, n=10, turns=1.5), "turns must be a whole"),
        (lambda: dice.attack("red-wyrm", army, n=10, turns=10**6), "turns must be 1..1000"),
        (lambda: dice.attack("red-wyrm", army, n=10, threads=1.5), "threads must be a whole"),
        (lambda: dice.attack("red-wyrm", army, n=10, seed="x"), "seed must be a whole"),
        (lambda: dice.attack("red-wyrm", army, n=10, seed=-1), "seed must be a whole"),
        (lambda: dice.attack("red-wyrm", army, n=10, nope=1), "unknown option 'nope'"),
        (lambda: dice.attack("red-wyrm", army, n=10, rules=5), "rules must be a RuleSet"),
        (lambda: dice.attack("red-wyrm", army, n=10, army_file=5), "expected a file path"),
        (lambda: dice.attack("red-wyrm", army, n=10, dead_area=5), "dead_area must be"),
        (lambda: dice.attack("red-wyrm", army, n=10, options=5), "options must be dice"),
        (lambda: dice.attack("red-wyrm", army, n=10, catalog=5), "catalog must be"),
        (lambda: dice.attack("red-wyrm", army, n=10, claw_damage=10**9), "allowed 0..100"),
        (lambda: exact_game("red-drake", army, turns=21), "exact games follow 1..20 attacks"),
        (lambda: exact_game("red-drake", army, turns=0), "exact games follow 1..20 attacks"),
        (lambda: exact_game("red-drake", army, turns=2.5), "exact games follow 1..20"),
        (lambda: dice.duel(42, "blue-drake", n=10), "dragons must be a name"),
        (lambda: dice.duel("red-wyrm", n=10), "at least two colours"),
        (lambda: dice.melee(army, "x:1", n=10), "unknown unit 'x'"),
        (lambda: dice.melee(army, army, n=10, threads=0), "threads must be 1.."),
        (lambda: dice.sweep(army, p="x", n=10), "p must be a probability"),
        (lambda: dice.sweep(army, dragons=42, n=10), "dragons must be names"),
        (lambda: dice.sweep(army, max_copies=10**6, n=10), "max_copies must be 1..500"),
        (lambda: dice.dragon_table(army, dragons=42, n=10), "dragons must be names"),
        (lambda: dice_rules({"claw_damage": 10**9}), "allowed 0..100"),
        (lambda: dice_rules(5), "must be a mapping"),
        (lambda: krynn.battle(alliance=42, army="foot=1", n=10), "expected 'foot=3,missile=2'"),
        (lambda: krynn.battle(**line, n=10, heroes="x"), "heroes must be a whole number"),
        (lambda: krynn.battle(**line, n=10, heroes=1.5), "heroes must be a whole number"),
        (lambda: krynn.battle(**line, n=10, max_turns="x"), "max_turns must be a whole"),
        (lambda: krynn.battle(**line, n=10, max_turns=2.5), "max_turns must be a whole"),
        (lambda: krynn.battle(**line, n=10, max_turns=10**6), "max_turns must be 1..10000"),
        (lambda: krynn.battle(**line, n=10, seed="x"), "seed must be a whole number"),
        (lambda: krynn.battle(**line, n=10, seed=-3), "seed must be a whole number"),
        (lambda: krynn.battle(**line, n=10, threads=1.5), "threads must be a whole number"),
        (lambda: krynn.battle(**line, n=10, battle_type=5), "must be in [0, 1]"),
        (lambda: krynn.battle(**line, n=10, nope=5), "unknown rule 'krynn.nope'"),
        (lambda: krynn.battle(**line, n=10, max_stress="lots"), "expected a whole number"),
        (lambda: krynn.battle(**line, n=10, rules=5), "rules must be a KrynnRules"),
        (lambda: krynn.battle(alliance={"foot": 1.5}, army="foot=1", n=10), "whole number"),
        (lambda: krynn.battlefield(5, n=10), "tiles must be a list"),
        (lambda: krynn.battlefield([5], n=10), "tile 0: expected a Tile"),
        (lambda: krynn.battlefield([{**line, "colour": 1}], n=10), "unknown key 'colour'"),
        (lambda: krynn.battlefield([{**line, "flank": "x"}], n=10), "flank tokens must be"),
        (lambda: krynn.battlefield([line], n=10, control_limit="x"), "control_limit"),
        (lambda: krynn.battlefield([line] * 10, n=10), "1 to 9 battle tiles"),
        (lambda: krynn.conflict("x", n=10), "difficulty must be a whole number"),
        (lambda: krynn.conflict(3, dice="x", n=10), "dice must be a whole number"),
        (lambda: krynn.conflict(3, dice=2.5, n=10), "dice must be a whole number"),
        (lambda: krynn.conflict(3, actions="x", n=10), "actions must be a whole number"),
        (lambda: krynn.conflict(3, actions=2.5, n=10), "actions must be a whole number"),
        (lambda: kodds.pool_distribution(10**6), "dice pool must be 0..40"),
        (lambda: kodds.best_conflict_plan(3, actions=99), "actions must be 1..12"),
        (lambda: krynn.sweep("heroes", 5, **line, n=10), "values must be a list"),
        (lambda: krynn.sweep("heroes", ["x"], **line, n=10), "sweep value of heroes"),
        (lambda: krynn.sweep("heroes", list(range(200)), **line, n=10), "1 to 101 values"),
        (lambda: krynn.sweep(5, [1], **line, n=10), "unknown sweep quantity '5'"),
        (lambda: krynn_rules({"battle_die.woe": 10**9}), "allowed 0..60"),
        (lambda: krynn_rules({"battle_die": {"woe": 1, "hit": 2}}), "is missing row(s)"),
        (lambda: set_threads(1.5), "threads must be a whole number"),
        (lambda: run_blocks(lambda *a: None, 1.5, 1), "n must be a whole number"),
        (lambda: run_blocks(lambda *a: None, 10, "x"), "seed must be a whole number"),
    ]


API_CASES = _api_cases()


@pytest.mark.parametrize("i", range(len(API_CASES)))
def test_api_raises_user_error(i):
    """A UserError (a ValueError: ``except ValueError`` keeps working) naming the mistake."""
    call, fragment = API_CASES[i]
    with pytest.raises(UserError) as e:
        call()
    assert isinstance(e.value, ValueError)
    assert fragment in str(e.value), str(e.value)


def _leaf_commands(parser, path=()):
    """Every command of ``python -m dragonsim`` that runs something: the words that reach it."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path
    for action in subs:
        for name, sub in action.choices.items():
            yield from _leaf_commands(sub, (*path, name))


def test_every_command_has_bad_input_in_the_table():
    """The table covers every command: each one ``python -m dragonsim --help`` lists (down to
    ``odds crash`` and ``dice units``) has at least one bad input that it must refuse in one
    line, so a new command cannot join without its user errors checked."""
    from dragonsim.cli import build_parser

    commands = list(_leaf_commands(build_parser()))
    assert len(commands) >= 40
    argvs = [tuple(p.values[0]) for p in CLI_CASES]
    missing = [" ".join(c) for c in commands if not any(a[: len(c)] == c for a in argvs)]
    assert not missing, f"commands with no bad input in the table: {missing}"


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["duel", "Reaper", "Skyblazer", "-n", "0"], "n must be at least 1"),
        (["krynn", "battlefield", "--scenario", "/"], "is a directory"),
    ],
)
def test_the_real_entry_point_exits_2(argv, fragment):
    """``python -m dragonsim`` itself (not only ``main``): exit status 2, one line."""
    p = subprocess.run(
        [sys.executable, "-m", "dragonsim", *argv], capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and fragment in p.stderr
