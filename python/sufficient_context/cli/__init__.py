"""Command line: ``sufficient-context`` (also ``python -m sufficient_context``): check, claims, answer, eval,
calibrate, demo. Exit codes: 0 pass, 1 the check failed, 2 usage or input error (message on stderr, nothing on
stdout)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from .app import app
from .inputs import InputError

__all__ = ["app", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        # Without standalone mode click returns the code of a click Exit (our 0 / 1) instead of exiting.
        code = app.main(args=args, prog_name="sufficient-context", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.exceptions.Abort:
        sys.stderr.write("sufficient-context: aborted\n")
        return 2
    except click.ClickException as exc:  # usage errors: bad option, missing argument
        exc.show(file=sys.stderr)
        return 2
    except InputError as exc:
        sys.stderr.write(f"sufficient-context: {exc}\n")
        return 2
    except (ValueError, TypeError, OSError, ImportError) as exc:  # the library's named errors: bad input
        sys.stderr.write(f"sufficient-context: {exc}\n")
        return 2
    return code if isinstance(code, int) else 0
