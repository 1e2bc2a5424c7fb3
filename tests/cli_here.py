"""The command line run in this process, as a user runs it: (exit status, stdout, stderr),
and in the folder a user runs it from."""
import contextlib
import io
import os

from urdf2dyn import cli


def run_here(argv):
    """cli.main(argv) with its output captured; argparse's exits become their status."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as e:
            status = e.code
    return status, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def working_in(folder):
    """folder as the current directory for the block, the caller's restored after it
    (contextlib.chdir, new in Python 3.11; the project supports 3.10)."""
    here = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(here)
