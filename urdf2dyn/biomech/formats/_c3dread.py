"""ezc3d run in a process of its own, so that a file that crashes it cannot crash the caller.

ezc3d is C++ that trusts the file's sizes and counts: a corrupted parameter section can make it
read through a null or freed pointer and kill the interpreter with it (a notebook's kernel, a
batch of trials). The structural pre-check (``_c3dcheck``) refuses what is known to do that
with a message naming the fault; this module is the guarantee for the rest, for this ezc3d and
the next: one long-lived reader process, started on the first read (one interpreter start and
``import ezc3d``, about a second) and reused, so each later file costs a pickle through a pipe
(``benchmarks/bench_c3d.py`` measures it). If ezc3d crashes, the caller gets a MotionError
naming the file and the signal, and the next read starts a fresh reader.

The reader is this file run as a script by the same interpreter; it imports nothing of
urdf2dyn, and answers each request with what read_c3d uses of ezc3d's result as plain Python
and NumPy objects: ``{"header", "parameters", "data"}`` shaped as ezc3d's own.
"""
from __future__ import annotations

import atexit
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading

_LOCK = threading.Lock()
_READER: dict = {}          # {"proc": Popen, "pid": the process that started it}


class ReaderCrashed(Exception):
    """The reader process died while reading a file (a signal or an exit)."""


def read(path):
    """ezc3d's result for this file as {"header", "parameters", "data"} (plain objects).

    Raises ReaderCrashed if ezc3d killed the reader, and RuntimeError(type name, message) for
    an exception ezc3d raised."""
    request = os.fsencode(os.path.abspath(path))
    with _LOCK:
        proc = _reader()
        try:
            proc.stdin.write(struct.pack("<I", len(request)) + request)
            proc.stdin.flush()
            head = _read_exact(proc.stdout, 8)
            reply = pickle.loads(_read_exact(proc.stdout, struct.unpack("<Q", head)[0]))
        except BaseException as e:
            if not isinstance(e, (OSError, EOFError, struct.error, pickle.UnpicklingError)):
                # interrupted mid-exchange (KeyboardInterrupt, an alarm): the reply would be
                # read by the next request; this reader is dropped
                _READER.clear()
                proc.kill()
                proc.wait()
                _close_pipes(proc)
                raise
            _READER.clear()
            code = proc.wait()
            _close_pipes(proc)
            if code < 0:
                try:
                    why = f"signal {signal.Signals(-code).name}"
                except ValueError:
                    why = f"signal {-code}"
            else:
                why = f"exit status {code}"
            raise ReaderCrashed(why) from None
    if reply[0] == "ok":
        return reply[1]
    raise RuntimeError(reply[1], reply[2])


def _close_pipes(proc):
    """Close a dropped reader's pipes (left to the garbage collector, each is a
    ResourceWarning)."""
    for pipe in (proc.stdin, proc.stdout):
        try:
            pipe.close()
        except OSError:
            pass


def _read_exact(stream, n):
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def _reader():
    r = _READER
    if r and r["pid"] == os.getpid() and r["proc"].poll() is None:
        return r["proc"]
    # a reader inherited through fork belongs to the parent: leave its pipes alone. The
    # reader sees this interpreter's sys.path (a notebook may have added ezc3d's folder).
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    runner = ("import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__')")
    proc = subprocess.Popen([sys.executable, "-c", runner, os.path.abspath(__file__)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env)
    _READER.clear()
    _READER.update(proc=proc, pid=os.getpid())
    return proc


@atexit.register
def _stop():
    r = _READER
    if r and r["pid"] == os.getpid():
        try:
            r["proc"].stdin.close()
            r["proc"].wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            r["proc"].kill()
        r["proc"].stdout.close()


# ============================================================================ the reader process

def _plain(x):
    """ezc3d's containers (dict subclasses holding SWIG objects) as plain dicts."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_plain(v) for v in x)
    return x


def _serve():
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)                   # whatever ezc3d prints goes to stderr, not into replies
    source = sys.stdin.buffer
    import ezc3d
    while True:
        head = source.read(4)
        if len(head) < 4:
            return
        (n,) = struct.unpack("<I", head)
        path = os.fsdecode(source.read(n))
        try:
            c = ezc3d.c3d(path)
            data = c["data"]
            reply = ("ok", {
                "header": {"points": {"first_frame": c["header"]["points"]["first_frame"],
                                      "last_frame": c["header"]["points"]["last_frame"]},
                           "analogs": {"first_frame": c["header"]["analogs"]["first_frame"]}},
                "parameters": _plain(dict(c["parameters"])),
                "data": {"points": data["points"], "analogs": data["analogs"],
                         "meta_points": {"residuals": data["meta_points"]["residuals"]}}})
        except Exception as e:      # ezc3d raises RuntimeError/IndexError/... on bad bytes
            reply = ("error", type(e).__name__, str(e)[:500])
        blob = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        out.write(struct.pack("<Q", len(blob)) + blob)
        out.flush()


if __name__ == "__main__":
    _serve()
