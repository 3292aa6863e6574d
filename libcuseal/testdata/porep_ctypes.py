#!/usr/bin/env python3
"""porep_ctypes.py — drives libcuseal.so from Python through ctypes, as a
Python caller would (no packages beyond the standard library). Run by
libcuseal/abi_test.go (TestPythonCtypes), which compares the KEY=VALUE lines
it prints with the Go API's results.

usage: porep_ctypes.py LIBCUSEAL_SO C1_FILE SECTOR MINER TICKET_HEX SEED_HEX
                       COMM_R_HEX COMM_D_HEX PARAMS_DIR|- RS_SEED_HEX
"""
import ctypes as C
import sys

# include/cuseal_porep.h
ABI_VERSION = 3
OK, INVALID, ERR_BAD_INPUT, ERR_INTERNAL, ERR_CANCELLED = 0, 1, 2, 3, 4
LOG_INFO, LOG_OFF = 0, 127
REG_PROOF_2KIB_V1_1 = 5

LOG_FN = C.CFUNCTYPE(None, C.c_void_p, C.c_int32, C.c_char_p)


class Options(C.Structure):
    _fields_ = [
        ("struct_size", C.c_uint32),
        ("partitions_in_flight", C.c_uint32),
        ("params_dir", C.c_char_p),
        ("backend", C.c_char_p),
        ("log_level", C.c_int32),
        ("preload_params", C.c_int32),
        ("log_fn", LOG_FN),
        ("log_user", C.c_void_p),
        ("cancel", C.c_void_p),
        ("test_only_randomness_seed", C.POINTER(C.c_uint8)),
    ]


failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("FAIL:", what, file=sys.stderr)
        failures += 1


def load(path):
    lib = C.CDLL(path)
    u8p = C.POINTER(C.c_uint8)
    lib.cuseal_porep_abi_version.restype = C.c_uint32
    lib.cuseal_porep_abi_version.argtypes = []
    lib.cuseal_porep_options_init.restype = None
    lib.cuseal_porep_options_init.argtypes = [C.POINTER(Options)]
    lib.cuseal_porep_info.restype = C.c_int
    lib.cuseal_porep_info.argtypes = [C.POINTER(C.c_void_p), C.POINTER(C.c_void_p)]
    lib.cuseal_porep_seal_commit_phase2.restype = C.c_int
    lib.cuseal_porep_seal_commit_phase2.argtypes = [
        C.c_char_p, C.c_size_t, C.c_uint64, C.c_uint64, C.POINTER(Options),
        C.POINTER(u8p), C.POINTER(C.c_size_t), C.POINTER(C.c_void_p)]
    lib.cuseal_porep_verify_seal.restype = C.c_int
    lib.cuseal_porep_verify_seal.argtypes = [
        C.c_int64, C.c_char_p, C.c_char_p, C.c_uint64, C.c_uint64, C.c_char_p, C.c_char_p,
        C.c_char_p, C.c_size_t, C.POINTER(Options), C.POINTER(C.c_void_p)]
    lib.cuseal_porep_proof_free.restype = None
    lib.cuseal_porep_proof_free.argtypes = [u8p]
    lib.cuseal_porep_string_free.restype = None
    lib.cuseal_porep_string_free.argtypes = [C.c_void_p]
    return lib


def take_string(lib, p):
    """Copy a library-owned string and free it with the library's free function."""
    if not p.value:
        return None
    s = C.string_at(p.value).decode("utf-8")
    lib.cuseal_porep_string_free(p)
    return s


def c2(lib, c1, sector, miner, opts):
    proof, n, msg = C.POINTER(C.c_uint8)(), C.c_size_t(0), C.c_void_p()
    rc = lib.cuseal_porep_seal_commit_phase2(c1, len(c1), sector, miner, opts, C.byref(proof), C.byref(n), C.byref(msg))
    out = None
    if proof:
        out = C.string_at(proof, n.value)
        lib.cuseal_porep_proof_free(proof)
    return rc, out, take_string(lib, msg)


def verify(lib, comm_r, comm_d, miner, sector, ticket, seed, proof, opts):
    msg = C.c_void_p()
    rc = lib.cuseal_porep_verify_seal(REG_PROOF_2KIB_V1_1, comm_r, comm_d, miner, sector, ticket, seed,
                                      proof, len(proof), opts, C.byref(msg))
    return rc, take_string(lib, msg)


def main(argv):
    if len(argv) != 11:
        print(__doc__, file=sys.stderr)
        return 2
    lib = load(argv[1])
    with open(argv[2], "rb") as f:
        c1 = f.read()
    sector, miner = int(argv[3]), int(argv[4])
    ticket, seed, comm_r, comm_d = (bytes.fromhex(a) for a in argv[5:9])
    params_dir = None if argv[9] == "-" else argv[9]
    rs_seed = bytes.fromhex(argv[10])

    check(lib.cuseal_porep_abi_version() == ABI_VERSION, "abi version")
    js, msg = C.c_void_p(), C.c_void_p()
    rc = lib.cuseal_porep_info(C.byref(js), C.byref(msg))
    info = take_string(lib, js)
    check(rc == OK and info and '"abi_version":%d' % ABI_VERSION in info, "info: %d %r" % (rc, info))
    print("INFO=%s" % info)

    rc, proof, msg = c2(lib, b'{"registered_proof": ', sector, miner, None)
    check(rc == ERR_BAD_INPUT and proof is None and msg, "garbage c1: %d" % rc)
    print("MSG_GARBAGE=%s" % msg)
    rc, proof, msg = c2(lib, c1, sector + 1, miner, None)
    check(rc == ERR_BAD_INPUT and proof is None and msg, "wrong sector: %d" % rc)
    print("MSG_WRONG_SECTOR=%s" % msg)

    if params_dir is not None:
        records = []

        @LOG_FN
        def on_log(user, level, message):
            records.append((level, message.decode("utf-8")))

        opts = Options()
        lib.cuseal_porep_options_init(C.byref(opts))
        check(opts.log_level == LOG_OFF and opts.struct_size == C.sizeof(Options), "options_init / struct layout")
        opts.params_dir = params_dir.encode()
        opts.backend = b"cpu"
        seed_buf = (C.c_uint8 * 32).from_buffer_copy(rs_seed)  # TEST ONLY: reproducible blinding
        opts.test_only_randomness_seed = C.cast(seed_buf, C.POINTER(C.c_uint8))
        opts.log_level = LOG_INFO
        opts.log_fn = on_log
        rc, proof, msg = c2(lib, c1, sector, miner, C.byref(opts))
        check(rc == OK and msg is None and proof is not None and len(proof) == 192, "c2: %d %r" % (rc, msg))
        check(any("commit2 start" in m for _, m in records), "log callback: %d records" % len(records))
        if proof is not None:
            print("PROOF=%s" % proof.hex())
            rc, msg = verify(lib, comm_r, comm_d, miner, sector, ticket, seed, proof, C.byref(opts))
            check(rc == OK and msg is None, "verify: %d %r" % (rc, msg))
            bad = bytearray(proof)
            bad[0] ^= 0x20  # negate A: still a point, the pairing check fails
            rc, msg = verify(lib, comm_r, comm_d, miner, sector, ticket, seed, bytes(bad), C.byref(opts))
            check(rc == INVALID and msg, "negated A: %d" % rc)
            print("MSG_INVALID=%s" % msg)
            rc, msg = verify(lib, comm_r, comm_d, miner, sector, ticket, seed, proof[:100], C.byref(opts))
            check(rc == ERR_BAD_INPUT and msg, "short proof: %d" % rc)
            print("MSG_SHORT_PROOF=%s" % msg)

    if failures:
        print("%d check(s) failed" % failures, file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
