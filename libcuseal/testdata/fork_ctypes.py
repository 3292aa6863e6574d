#!/usr/bin/env python3
"""fork_ctypes.py — libcuseal from Python multiprocessing: a worker started
with "fork" (the default on Linux before Python 3.14) inherits the loaded
library and gets CUSEAL_POREP_ERR_INTERNAL naming fork() at once, instead of
hanging; a worker started with "spawn" that loads the library itself works.
Run by libcuseal/fork_abi_test.go (TestForkedChild).

usage: fork_ctypes.py LIBCUSEAL_SO   (prints FORK_RC=, FORK_MSG=, SPAWN_RC=, OK)
"""
import ctypes as C
import multiprocessing as mp
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
import cuseal_porep as cp  # noqa: E402

_lib = None


def info(path, q):
    """Calls cuseal_porep_info with the library at path (loaded here unless inherited)."""
    global _lib
    if _lib is None:
        _lib = cp.load(path)
    c = cp.Call(_lib)
    js = C.c_void_p()
    rc = _lib.cuseal_porep_info(C.byref(js), c.msg_ref())
    if js.value:
        _lib.cuseal_porep_string_free(js)
    try:
        c.result(rc)
        q.put((rc, None))
    except cp.Error as e:
        q.put((rc, e.message))


def run(method, path):
    ctx = mp.get_context(method)
    q = ctx.Queue()
    p = ctx.Process(target=info, args=(path, q))
    p.start()
    p.join(30)
    if p.is_alive():
        p.kill()
        return None, "%s worker hung" % method
    return q.get(timeout=5)


def main(argv):
    global _lib
    path = argv[1]
    _lib = cp.load(path)
    q = mp.Queue()
    info(path, q)  # the parent uses the library first
    rc, msg = q.get()
    ok = rc == cp.OK
    rc, msg = run("fork", path)
    print("FORK_RC=%s" % rc)
    print("FORK_MSG=%s" % msg)
    ok = ok and rc == cp.ERR_INTERNAL and msg is not None and "fork()" in msg
    rc, msg = run("spawn", path)
    print("SPAWN_RC=%s" % rc)
    ok = ok and rc == cp.OK
    if not ok:
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
