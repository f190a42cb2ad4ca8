"""Command line: ``sufficient-context`` (also ``python -m sufficient_context``): check, claims, answer, eval,
calibrate, demo. Exit codes: 0 pass, 1 the check failed, 2 usage or input error (message on stderr, nothing on
stdout), 130 interrupted (Ctrl-C), 141 stdout closed by the reader (``| head``), like a process killed by SIGPIPE."""

from __future__ import annotations

import errno
import io
import os
import sys
from collections.abc import Sequence

import click

from .app import app
from .inputs import InputError

__all__ = ["app", "main"]

INTERRUPTED = 130
BROKEN_PIPE = 141


class _ClosedStream(io.TextIOBase):
    """Stands for a closed stdout / stderr (``>&-``): a write is an error, so output is never lost in silence."""

    def __init__(self, name: str) -> None:
        self.stream_name = name

    def writable(self) -> bool:
        return True

    def write(self, s: str) -> int:
        raise OSError(errno.EBADF, f"cannot write to {self.stream_name}: it is closed")


def _error(message: str) -> None:
    if sys.stderr is not None and not isinstance(sys.stderr, _ClosedStream):
        try:
            sys.stderr.write(f"sufficient-context: {message}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def _prepare_streams() -> None:
    if sys.stdout is None:
        sys.stdout = _ClosedStream("stdout")
    elif (sys.stdout.encoding or "").lower().replace("-", "") != "utf8" and hasattr(sys.stdout, "reconfigure"):
        # An ASCII locale (LC_ALL=C, PYTHONIOENCODING=ascii): a non-ASCII answer is escaped, not a crash mid-output.
        sys.stdout.reconfigure(errors="backslashreplace")
    if sys.stderr is None:
        sys.stderr = _ClosedStream("stderr")


def _broken_pipe() -> int:
    # The reader is gone (`| head -1`): say nothing, and keep the interpreter's final flush from failing again.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass
    return BROKEN_PIPE


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    _prepare_streams()
    stdout = sys.stdout
    try:
        # Without standalone mode click returns the code of a click Exit (our 0 / 1, --help's 0) instead of exiting.
        code = app.main(args=args, prog_name="sufficient-context", standalone_mode=False)
        sys.stdout.flush()  # a write error (disk full, closed pipe) surfaces here, not in the interpreter's exit
    except SystemExit as exc:
        # click (after swapping sys.stdout for a wrapper that swallows the final flush) and rich answer a broken
        # pipe with exit(1); 1 means "the check failed" here.
        if exc.code == 1 and (sys.stdout is not stdout or isinstance(exc.__context__, BrokenPipeError)):
            return _broken_pipe()
        raise
    except click.exceptions.Abort as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):
            _error("interrupted")
            return INTERRUPTED
        _error("aborted")
        return 2
    except KeyboardInterrupt:
        _error("interrupted")
        return INTERRUPTED
    except click.ClickException as exc:  # usage errors: bad option, missing argument
        if not isinstance(sys.stderr, _ClosedStream):
            exc.show(file=sys.stderr)
        return 2
    except InputError as exc:
        _error(str(exc))
        return 2
    except BrokenPipeError:
        return _broken_pipe()
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EBADF, errno.EIO) and not exc.filename:
            _error(f"cannot write the output: {exc.strerror or exc}")
        else:
            _error(str(exc))
        return 2
    except (ValueError, TypeError, ImportError) as exc:  # the library's named errors: bad input
        _error(str(exc))
        return 2
    return code if isinstance(code, int) else 0
