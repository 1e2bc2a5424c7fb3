"""The command line run in this process, as a user runs it: (exit status, stdout, stderr)."""
import contextlib
import io

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
