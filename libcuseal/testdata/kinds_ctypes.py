#!/usr/bin/env python3
"""kinds_ctypes.py — drives the ABI version 2 calls of libcuseal.so
(WindowPoSt, WinningPoSt, SnapDeals, SnarkPack aggregation) from Python
through ctypes, as a Python caller would (standard library only), on
rust-fil-proofs' reference vectors. Run by libcuseal/kinds_abi_test.go
(TestPythonKinds), which writes the manifest (format: kinds_test.c) and
compares the KEY=VALUE lines printed with the Go API's results.

usage: kinds_ctypes.py LIBCUSEAL_SO MANIFEST
"""
import ctypes as C
import sys

# include/cuseal_porep.h
ABI_VERSION = 2
OK, INVALID, ERR_BAD_INPUT, ERR_INTERNAL, ERR_CANCELLED = 0, 1, 2, 3, 4
LOG_OFF = 127
SNARKPACK_V2 = 1

LOG_FN = C.CFUNCTYPE(None, C.c_void_p, C.c_int32, C.c_char_p)
U8P = C.POINTER(C.c_uint8)
U64P = C.POINTER(C.c_uint64)


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
        ("test_only_randomness_seed", U8P),
    ]


class Bytes(C.Structure):
    _fields_ = [("ptr", U8P), ("len", C.c_size_t)]


class SectorInfo(C.Structure):
    _fields_ = [("sector_number", C.c_uint64), ("comm_r", C.c_uint8 * 32)]


class AggregationInput(C.Structure):
    _fields_ = [
        ("comm_r", C.c_uint8 * 32),
        ("comm_d", C.c_uint8 * 32),
        ("sector_number", C.c_uint64),
        ("ticket", C.c_uint8 * 32),
        ("seed", C.c_uint8 * 32),
    ]


failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("FAIL:", what, file=sys.stderr)
        failures += 1


def load(path):
    lib = C.CDLL(path)
    i64, u64, sz, msg = C.c_int64, C.c_uint64, C.c_size_t, C.POINTER(C.c_void_p)
    opts = C.POINTER(Options)
    sigs = {
        "cuseal_porep_abi_version": (C.c_uint32, []),
        "cuseal_porep_options_init": (None, [opts]),
        "cuseal_porep_generate_fallback_sector_challenges": (
            C.c_int, [i64, C.c_char_p, sz, U64P, sz, u64, C.POINTER(U64P), C.POINTER(sz), C.POINTER(U64P), C.POINTER(sz), msg]),
        "cuseal_porep_generate_window_post_with_vanilla": (
            C.c_int, [i64, C.c_char_p, sz, u64, C.POINTER(Bytes), sz, opts, C.POINTER(U8P), C.POINTER(sz), msg]),
        "cuseal_porep_generate_winning_post_with_vanilla": (
            C.c_int, [i64, C.c_char_p, sz, u64, C.POINTER(Bytes), sz, opts, C.POINTER(U8P), C.POINTER(sz), msg]),
        "cuseal_porep_verify_window_post": (
            C.c_int, [i64, C.c_char_p, sz, C.POINTER(SectorInfo), sz, C.c_char_p, sz, u64, opts, msg]),
        "cuseal_porep_verify_winning_post": (
            C.c_int, [i64, C.c_char_p, sz, C.POINTER(SectorInfo), sz, C.c_char_p, sz, u64, opts, msg]),
        "cuseal_porep_generate_empty_sector_update_proof_with_vanilla": (
            C.c_int, [i64, C.POINTER(Bytes), sz, C.c_char_p, C.c_char_p, C.c_char_p, opts, C.POINTER(U8P), C.POINTER(sz), msg]),
        "cuseal_porep_verify_empty_sector_update_proof": (
            C.c_int, [i64, C.c_char_p, sz, C.c_char_p, C.c_char_p, C.c_char_p, opts, msg]),
        "cuseal_porep_aggregate_seal_proofs": (
            C.c_int, [i64, i64, u64, C.POINTER(AggregationInput), C.POINTER(Bytes), sz, opts, C.POINTER(U8P), C.POINTER(sz), msg]),
        "cuseal_porep_verify_aggregate_seal_proof": (
            C.c_int, [i64, i64, u64, C.c_char_p, sz, C.POINTER(AggregationInput), sz, opts, msg]),
        "cuseal_porep_proof_free": (None, [U8P]),
        "cuseal_porep_string_free": (None, [C.c_void_p]),
        "cuseal_porep_u64_array_free": (None, [U64P]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


def take_string(lib, p):
    """Copy a library-owned string and free it with the library's free function."""
    if not p.value:
        return None
    s = C.string_at(p.value).decode("utf-8")
    lib.cuseal_porep_string_free(p)
    return s


def take_bytes(lib, p, n):
    if not p:
        return None
    b = C.string_at(p, n.value)
    lib.cuseal_porep_proof_free(p)
    return b


def bytes_array(items):
    """A cuseal_porep_bytes array over items (keep the result alive during the call)."""
    arr = (Bytes * max(len(items), 1))()
    bufs = []
    for i, b in enumerate(items):
        buf = (C.c_uint8 * len(b)).from_buffer_copy(b) if b else None
        bufs.append(buf)
        arr[i].ptr = C.cast(buf, U8P) if buf is not None else None
        arr[i].len = len(b)
    return arr, bufs


def read_manifest(path):
    m = {"window": {"vanilla": [], "sectors": []}, "winning": {"vanilla": [], "sectors": []}, "agg": []}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 2:
                continue
            key, args = parts[0], parts[1:]
            kind, _, field = key.partition("_")
            if kind in ("window", "winning"):
                v = m[kind]
                if field == "vanilla":
                    v["vanilla"].append(open(args[0], "rb").read())
                elif field == "sector":
                    v["sectors"].append((int(args[0]), bytes.fromhex(args[1])))
                elif field == "want":
                    v["want"] = open(args[0], "rb").read()
                elif field == "randomness":
                    v["randomness"] = bytes.fromhex(args[0])
                else:
                    v[field] = int(args[0])
            elif key == "agg_sector":
                m["agg"].append({"sector": int(args[0]), "comm_r": bytes.fromhex(args[1]), "comm_d": bytes.fromhex(args[2]),
                                 "ticket": bytes.fromhex(args[3]), "seed": bytes.fromhex(args[4]),
                                 "proof": open(args[5], "rb").read()})
            elif key in ("params",):
                m[key] = args[0]
            elif key in ("rs_seed", "update_comm_r_old", "update_comm_r_new", "update_comm_d_new"):
                m[key] = bytes.fromhex(args[0])
            elif key in ("update_vanilla", "update_want", "agg_want"):
                m[key] = open(args[0], "rb").read()
            else:
                m[key] = int(args[0])
    return m


class Lib:
    """The calls with Python arguments: (status, message, output bytes)."""

    def __init__(self, lib, m):
        self.lib, self.m = lib, m
        self.opts = Options()
        lib.cuseal_porep_options_init(C.byref(self.opts))
        check(self.opts.struct_size == C.sizeof(Options) and self.opts.log_level == LOG_OFF, "options_init / struct layout")
        self.opts.params_dir = m["params"].encode()
        self.opts.backend = b"cpu"
        self.seed = (C.c_uint8 * 32).from_buffer_copy(m["rs_seed"])  # TEST ONLY: reproducible blinding
        self.opts.test_only_randomness_seed = C.cast(self.seed, U8P)

    def _bytes_call(self, f, *args):
        out, n, msg = U8P(), C.c_size_t(0), C.c_void_p()
        rc = f(*args, C.byref(self.opts), C.byref(out), C.byref(n), C.byref(msg))
        return rc, take_string(self.lib, msg), take_bytes(self.lib, out, n)

    def prove_post(self, kind, vanilla, randomness=None):
        v = self.m[kind]
        rnd = v["randomness"] if randomness is None else randomness
        arr, keep = bytes_array(vanilla)
        f = getattr(self.lib, "cuseal_porep_generate_%s_post_with_vanilla" % kind)
        return self._bytes_call(f, v["proof"], rnd, len(rnd), v["miner"], arr, len(vanilla))

    def verify_post(self, kind, proof, randomness=None, proof_type=None):
        v = self.m[kind]
        rnd = v["randomness"] if randomness is None else randomness
        sectors = (SectorInfo * len(v["sectors"]))()
        for i, (num, comm_r) in enumerate(v["sectors"]):
            sectors[i].sector_number = num
            sectors[i].comm_r[:] = comm_r
        msg = C.c_void_p()
        f = getattr(self.lib, "cuseal_porep_verify_%s_post" % kind)
        rc = f(v["proof"] if proof_type is None else proof_type, rnd, len(rnd), sectors, len(sectors), proof, len(proof),
               v["miner"], C.byref(self.opts), C.byref(msg))
        return rc, take_string(self.lib, msg)

    def challenges(self, kind, proof_type=None):
        v = self.m[kind]
        ids = (C.c_uint64 * len(v["sectors"]))(*[s for s, _ in v["sectors"]])
        ids_out, n, chs, stride, msg = U64P(), C.c_size_t(0), U64P(), C.c_size_t(0), C.c_void_p()
        rc = self.lib.cuseal_porep_generate_fallback_sector_challenges(
            v["proof"] if proof_type is None else proof_type, v["randomness"], 32, ids, len(ids), v["miner"],
            C.byref(ids_out), C.byref(n), C.byref(chs), C.byref(stride), C.byref(msg))
        out = None
        if rc == OK:
            out = [(ids_out[i], [chs[i * stride.value + j] for j in range(stride.value)]) for i in range(n.value)]
            self.lib.cuseal_porep_u64_array_free(ids_out)
            self.lib.cuseal_porep_u64_array_free(chs)
        return rc, take_string(self.lib, msg), out

    def prove_update(self, vanilla):
        m = self.m
        arr, keep = bytes_array(vanilla)
        return self._bytes_call(self.lib.cuseal_porep_generate_empty_sector_update_proof_with_vanilla, m["update_proof"],
                                arr, len(vanilla), m["update_comm_r_old"], m["update_comm_r_new"], m["update_comm_d_new"])

    def verify_update(self, proof, swap=False):
        m = self.m
        r_old, r_new = m["update_comm_r_old"], m["update_comm_r_new"]
        if swap:
            r_old, r_new = r_new, r_old
        msg = C.c_void_p()
        rc = self.lib.cuseal_porep_verify_empty_sector_update_proof(m["update_proof"], proof, len(proof), r_old, r_new,
                                                                    m["update_comm_d_new"], C.byref(self.opts), C.byref(msg))
        return rc, take_string(self.lib, msg)

    def agg_inputs(self, sectors):
        inputs = (AggregationInput * len(sectors))()
        for i, s in enumerate(sectors):
            inputs[i].comm_r[:], inputs[i].comm_d[:] = s["comm_r"], s["comm_d"]
            inputs[i].sector_number = s["sector"]
            inputs[i].ticket[:], inputs[i].seed[:] = s["ticket"], s["seed"]
        return inputs

    def aggregate(self, sectors, proofs):
        m = self.m
        arr, keep = bytes_array(proofs)
        return self._bytes_call(self.lib.cuseal_porep_aggregate_seal_proofs, m["agg_proof"], SNARKPACK_V2, m["agg_miner"],
                                self.agg_inputs(sectors), arr, len(sectors))

    def verify_aggregate(self, agg, sectors):
        m, msg = self.m, C.c_void_p()
        rc = self.lib.cuseal_porep_verify_aggregate_seal_proof(m["agg_proof"], SNARKPACK_V2, m["agg_miner"], agg, len(agg),
                                                               self.agg_inputs(sectors), len(sectors), C.byref(self.opts),
                                                               C.byref(msg))
        return rc, take_string(self.lib, msg)


def swap_ac(p):
    """A and C exchanged: still curve points, not a valid proof."""
    return p[144:192] + p[48:144] + p[0:48]


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    lib = load(argv[1])
    m = read_manifest(argv[2])
    check(lib.cuseal_porep_abi_version() >= ABI_VERSION, "abi version")
    L = Lib(lib, m)
    w, win = m["window"], m["winning"]

    rc, msg, chs = L.challenges("window")
    check(rc == OK and msg is None and chs, "fallback challenges: %d %r" % (rc, msg))
    if chs:
        print("CHALLENGES_WINDOW=%s" % ";".join("%d:%s" % (s, ",".join(str(c) for c in cs)) for s, cs in chs))
    rc, msg, _ = L.challenges("window", proof_type=999)
    check(rc == ERR_BAD_INPUT and msg, "unknown proof: %d" % rc)
    print("MSG_UNKNOWN_POST_PROOF=%s" % msg)

    # Verification of each kind's reference proof, and of tampered ones.
    for kind in ("window", "winning"):
        v = m[kind]
        rc, msg = L.verify_post(kind, v["want"])
        check(rc == OK and msg is None, "verify %s: %d %r" % (kind, rc, msg))
        rc, msg = L.verify_post(kind, swap_ac(v["want"]))
        check(rc == INVALID and msg, "%s A/C swapped: %d" % (kind, rc))
        rnd = bytearray(v["randomness"])
        rnd[0] ^= 1
        rc, _ = L.verify_post(kind, v["want"], randomness=bytes(rnd))
        check(rc == INVALID, "%s other randomness: %d" % (kind, rc))
    print("MSG_INVALID=%s" % msg)
    rc, msg = L.verify_update(m["update_want"])
    check(rc == OK and msg is None, "verify update: %d %r" % (rc, msg))
    rc, msg = L.verify_update(m["update_want"], swap=True)
    check(rc == INVALID, "update commitments swapped: %d" % rc)

    # Aggregation: filecoin-proofs' bytes, and they verify.
    agg = m["agg"]
    rc, msg, out = L.aggregate(agg, [s["proof"] for s in agg])
    check(rc == OK and out == m["agg_want"], "aggregate: %d %r, %d bytes" % (rc, msg, len(out or b"")))
    rc, msg = L.verify_aggregate(m["agg_want"], agg)
    check(rc == OK and msg is None, "verify aggregate: %d %r" % (rc, msg))
    rc, msg = L.verify_aggregate(m["agg_want"], agg[::-1])
    check(rc == INVALID, "aggregate for the sectors swapped: %d" % rc)
    rc, msg, out = L.aggregate(agg, [s["proof"] for s in agg][::-1])
    check(rc == INVALID and out is None and msg, "aggregate of swapped proofs: %d" % rc)

    # Bad input: a randomness of 31 bytes, a truncated vanilla proof.
    rc, msg, out = L.prove_post("window", w["vanilla"], randomness=w["randomness"][:31])
    check(rc == ERR_BAD_INPUT and out is None and msg, "randomness 31 bytes: %d" % rc)
    print("MSG_PY_RANDOMNESS_SHORT=%s" % msg)
    rc, msg, out = L.prove_post("window", [w["vanilla"][0], w["vanilla"][1][:100]])
    check(rc == ERR_BAD_INPUT and out is None and msg, "truncated vanilla: %d" % rc)
    print("MSG_WINDOW_TRUNCATED_VANILLA=%s" % msg)

    if m["long"]:
        for kind in ("window", "winning"):
            rc, msg, proof = L.prove_post(kind, m[kind]["vanilla"])
            check(rc == OK and msg is None and proof == m[kind]["want"], "prove %s: %d %r" % (kind, rc, msg))
            if proof is not None:
                print("PROOF_%s=%s" % (kind.upper(), proof.hex()))
                rc, msg = L.verify_post(kind, proof)
                check(rc == OK, "verify the %s proof: %d %r" % (kind, rc, msg))
        rc, msg, proof = L.prove_update([m["update_vanilla"]])
        check(rc == OK and msg is None and proof == m["update_want"], "prove update: %d %r" % (rc, msg))
        if proof is not None:
            print("PROOF_UPDATE=%s" % proof.hex())
            rc, msg = L.verify_update(proof)
            check(rc == OK, "verify the update proof: %d %r" % (rc, msg))

    if failures:
        print("%d check(s) failed" % failures, file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
