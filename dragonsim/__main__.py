"""``python -m dragonsim``: the command line (:func:`dragonsim.cli.main`).

A Ctrl-C while the command line is still starting (importing, parsing: before
:func:`~dragonsim.cli.main` handles signals itself) ends with exit code 130 and one line, not a
traceback.
"""

import sys

try:
    from dragonsim.cli import main

    code = main()
except KeyboardInterrupt:
    print("interrupted (SIGINT) while starting: nothing was played", file=sys.stderr)
    code = 130
raise SystemExit(code)
