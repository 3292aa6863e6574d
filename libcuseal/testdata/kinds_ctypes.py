#!/usr/bin/env python3
"""kinds_ctypes.py — drives the ABI version 2 calls of libcuseal.so
(WindowPoSt, WinningPoSt, SnapDeals, SnarkPack aggregation) from Python
through ctypes, with the declarations users copy (examples/cuseal_porep.py),
on rust-fil-proofs' reference vectors. Run by libcuseal/kinds_abi_test.go
(TestPythonKinds), which writes the manifest (format: kinds_test.c) and
compares the KEY=VALUE lines printed with the Go API's results.

usage: kinds_ctypes.py LIBCUSEAL_SO MANIFEST
"""
import ctypes as C
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
import cuseal_porep as cp  # noqa: E402

failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("FAIL:", what, file=sys.stderr)
        failures += 1


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
                m["agg"].append({"sector_number": int(args[0]), "comm_r": bytes.fromhex(args[1]), "comm_d": bytes.fromhex(args[2]),
                                 "ticket": bytes.fromhex(args[3]), "seed": bytes.fromhex(args[4]),
                                 "proof": open(args[5], "rb").read()})
            elif key == "params":
                m[key] = args[0]
            elif key in ("rs_seed", "update_comm_r_old", "update_comm_r_new", "update_comm_d_new"):
                m[key] = bytes.fromhex(args[0])
            elif key in ("update_vanilla", "update_want", "agg_want"):
                m[key] = open(args[0], "rb").read()
            else:
                m[key] = int(args[0])
    return m


class Calls:
    """The calls with Python arguments, each returning (status, message, output)."""

    def __init__(self, lib, m):
        self.lib, self.m = lib, m
        self.opts = cp.options(lib, params_dir=m["params"], backend="cpu",
                               test_only_randomness_seed=m["rs_seed"])  # TEST ONLY: reproducible blinding
        check(self.opts.struct_size == C.sizeof(cp.Options) and self.opts.log_level == cp.LOG_OFF, "options_init / struct layout")

    def run(self, f, *args, out=True):
        c = cp.Call(self.lib)
        rc = f(*args, C.byref(self.opts), *(c.bytes_out() if out else (c.msg_ref(),)))
        check(rc == cp.OK or (not c.out and c.n.value == 0), "output set on status %d" % rc)
        try:
            return rc, None, c.result(rc)
        except cp.Error as e:
            return rc, e.message, None

    def prove_post(self, kind, vanilla, randomness=None):
        v = self.m[kind]
        rnd = v["randomness"] if randomness is None else randomness
        arr, keep = cp.bytes_array(vanilla)
        f = getattr(self.lib, "cuseal_porep_generate_%s_post_with_vanilla" % kind)
        return self.run(f, v["proof"], rnd, len(rnd), v["miner"], arr, len(vanilla))

    def prove_single(self, vanilla, partition):
        v = self.m["window"]
        arr, keep = cp.bytes_array(vanilla)
        return self.run(self.lib.cuseal_porep_generate_single_window_post_with_vanilla, v["proof"], v["randomness"], 32,
                        v["miner"], arr, len(vanilla), partition)

    def merge(self, parts):
        arr, keep = cp.bytes_array(parts)
        c = cp.Call(self.lib)
        rc = self.lib.cuseal_porep_merge_window_post_partition_proofs(self.m["window"]["proof"], arr, len(parts), *c.bytes_out())
        try:
            return rc, None, c.result(rc)
        except cp.Error as e:
            return rc, e.message, None

    def verify_post(self, kind, proof, randomness=None):
        v = self.m[kind]
        rnd = v["randomness"] if randomness is None else randomness
        f = getattr(self.lib, "cuseal_porep_verify_%s_post" % kind)
        rc, msg, _ = self.run(f, v["proof"], rnd, len(rnd), cp.sector_infos(v["sectors"]), len(v["sectors"]), proof, len(proof),
                              v["miner"], out=False)
        return rc, msg

    def challenges(self, kind, proof_type=None):
        v = self.m[kind]
        ids = (C.c_uint64 * len(v["sectors"]))(*[s for s, _ in v["sectors"]])
        ids_out, n, chs, stride, c = cp.U64P(), C.c_size_t(0), cp.U64P(), C.c_size_t(0), cp.Call(self.lib)
        rc = self.lib.cuseal_porep_generate_fallback_sector_challenges(
            v["proof"] if proof_type is None else proof_type, v["randomness"], 32, ids, len(ids), v["miner"],
            C.byref(ids_out), C.byref(n), C.byref(chs), C.byref(stride), c.msg_ref())
        try:
            c.result(rc)
        except cp.Error as e:
            check(not ids_out and not chs, "challenges set on status %d" % rc)
            return rc, e.message, None
        s = stride.value
        numbers, flat = cp.take_u64s(self.lib, ids_out, n.value), cp.take_u64s(self.lib, chs, n.value * s)
        return rc, None, [(numbers[i], flat[i * s:(i + 1) * s]) for i in range(n.value)]

    def winning_index(self, eligible):
        v = self.m["winning"]
        idx, n, c = cp.U64P(), C.c_size_t(0), cp.Call(self.lib)
        rc = self.lib.cuseal_porep_generate_winning_post_sector_challenge(v["proof"], v["randomness"], 32, eligible, v["miner"],
                                                                          C.byref(idx), C.byref(n), c.msg_ref())
        c.result(rc)
        return cp.take_u64s(self.lib, idx, n.value)

    def prove_update(self, vanilla):
        m = self.m
        arr, keep = cp.bytes_array(vanilla)
        return self.run(self.lib.cuseal_porep_generate_empty_sector_update_proof_with_vanilla, m["update_proof"], arr, len(vanilla),
                        m["update_comm_r_old"], m["update_comm_r_new"], m["update_comm_d_new"])

    def verify_update(self, proof, swap=False):
        m = self.m
        r_old, r_new = m["update_comm_r_old"], m["update_comm_r_new"]
        if swap:
            r_old, r_new = r_new, r_old
        rc, msg, _ = self.run(self.lib.cuseal_porep_verify_empty_sector_update_proof, m["update_proof"], proof, len(proof), r_old,
                              r_new, m["update_comm_d_new"], out=False)
        return rc, msg

    def aggregate(self, sectors, proofs):
        m = self.m
        arr, keep = cp.bytes_array(proofs)
        return self.run(self.lib.cuseal_porep_aggregate_seal_proofs, m["agg_proof"], cp.SNARKPACK_V2, m["agg_miner"],
                        cp.aggregation_inputs(sectors), arr, len(sectors))

    def verify_aggregate(self, agg, sectors):
        m = self.m
        rc, msg, _ = self.run(self.lib.cuseal_porep_verify_aggregate_seal_proof, m["agg_proof"], cp.SNARKPACK_V2, m["agg_miner"], agg,
                              len(agg), cp.aggregation_inputs(sectors), len(sectors), out=False)
        return rc, msg


def swap_ac(p):
    """A and C exchanged: still curve points, not a valid proof."""
    return p[144:192] + p[48:144] + p[0:48]


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    lib = cp.load(argv[1])
    m = read_manifest(argv[2])
    L = Calls(lib, m)
    w = m["window"]

    rc, msg, chs = L.challenges("window")
    check(rc == cp.OK and msg is None and chs, "fallback challenges: %d %r" % (rc, msg))
    if chs:
        print("CHALLENGES_WINDOW=%s" % ";".join("%d:%s" % (s, ",".join(str(c) for c in cs)) for s, cs in chs))
    rc, msg, _ = L.challenges("window", proof_type=999)
    check(rc == cp.ERR_BAD_INPUT and msg, "unknown proof: %d" % rc)
    print("MSG_UNKNOWN_POST_PROOF=%s" % msg)
    print("WINNING_INDEX_OF_1000=%d" % L.winning_index(1000)[0])

    # Verification of each kind's reference proof, and of tampered ones.
    for kind in ("window", "winning"):
        v = m[kind]
        rc, msg = L.verify_post(kind, v["want"])
        check(rc == cp.OK and msg is None, "verify %s: %d %r" % (kind, rc, msg))
        rc, msg = L.verify_post(kind, swap_ac(v["want"]))
        check(rc == cp.INVALID and msg, "%s A/C swapped: %d" % (kind, rc))
        if kind == "window":
            invalid = msg  # as kinds_test.c: verify_window_post's message
        rnd = bytearray(v["randomness"])
        rnd[0] ^= 1
        rc, _ = L.verify_post(kind, v["want"], randomness=bytes(rnd))
        check(rc == cp.INVALID, "%s other randomness: %d" % (kind, rc))
    print("MSG_INVALID=%s" % invalid)
    rc, msg, merged = L.merge([w["want"]])
    check(rc == cp.OK and merged == w["want"], "merge of one partition: %d %r" % (rc, msg))
    rc, msg = L.verify_update(m["update_want"])
    check(rc == cp.OK and msg is None, "verify update: %d %r" % (rc, msg))
    rc, msg = L.verify_update(m["update_want"], swap=True)
    check(rc == cp.INVALID, "update commitments swapped: %d" % rc)

    # $FIL_PROOFS_PARAMETER_CACHE is read when each call starts (opts NULL
    # here), not from the environment the process started with.
    def verify_window_default_dir():
        c = cp.Call(lib)
        rc = lib.cuseal_porep_verify_window_post(w["proof"], w["randomness"], 32, cp.sector_infos(w["sectors"]), len(w["sectors"]),
                                                 w["want"], len(w["want"]), w["miner"], None, c.msg_ref())
        try:
            c.result(rc)
            return rc, None
        except cp.Error as e:
            return rc, e.message
    old_env = os.environ.get("FIL_PROOFS_PARAMETER_CACHE")
    missing = os.path.join(m["params"], "not-there")
    os.environ["FIL_PROOFS_PARAMETER_CACHE"] = missing
    rc, msg = verify_window_default_dir()
    check(rc == cp.ERR_BAD_INPUT and msg and ("parameter file not found: " + missing) in msg,
          "FIL_PROOFS_PARAMETER_CACHE set after load to a missing directory: %d %r" % (rc, msg))
    os.environ["FIL_PROOFS_PARAMETER_CACHE"] = m["params"]
    rc, msg = verify_window_default_dir()
    check(rc == cp.OK, "FIL_PROOFS_PARAMETER_CACHE set after load: %d %r" % (rc, msg))
    if old_env is None:
        del os.environ["FIL_PROOFS_PARAMETER_CACHE"]
    else:
        os.environ["FIL_PROOFS_PARAMETER_CACHE"] = old_env

    # Aggregation: filecoin-proofs' bytes, and they verify.
    agg = m["agg"]
    rc, msg, out = L.aggregate(agg, [s["proof"] for s in agg])
    check(rc == cp.OK and out == m["agg_want"], "aggregate: %d %r, %d bytes" % (rc, msg, len(out or b"")))
    rc, msg = L.verify_aggregate(m["agg_want"], agg)
    check(rc == cp.OK and msg is None, "verify aggregate: %d %r" % (rc, msg))
    rc, msg = L.verify_aggregate(m["agg_want"], agg[::-1])
    check(rc == cp.INVALID, "aggregate for the sectors swapped: %d" % rc)
    rc, msg, out = L.aggregate(agg, [s["proof"] for s in agg][::-1])
    check(rc == cp.INVALID and out is None and msg, "aggregate of swapped proofs: %d" % rc)

    # Bad input: a randomness of 31 bytes, a truncated vanilla proof.
    rc, msg, out = L.prove_post("window", w["vanilla"], randomness=w["randomness"][:31])
    check(rc == cp.ERR_BAD_INPUT and out is None and msg, "randomness 31 bytes: %d" % rc)
    print("MSG_PY_RANDOMNESS_SHORT=%s" % msg)
    rc, msg, out = L.prove_post("window", [w["vanilla"][0], w["vanilla"][1][:100]])
    check(rc == cp.ERR_BAD_INPUT and out is None and msg, "truncated vanilla: %d" % rc)
    print("MSG_WINDOW_TRUNCATED_VANILLA=%s" % msg)

    if m["long"]:
        for kind in ("window", "winning"):
            rc, msg, proof = L.prove_post(kind, m[kind]["vanilla"])
            check(rc == cp.OK and msg is None and proof == m[kind]["want"], "prove %s: %d %r" % (kind, rc, msg))
            if proof is not None:
                print("PROOF_%s=%s" % (kind.upper(), proof.hex()))
                rc, msg = L.verify_post(kind, proof)
                check(rc == cp.OK, "verify the %s proof: %d %r" % (kind, rc, msg))
        rc, msg, part = L.prove_single(w["vanilla"], 0)
        check(rc == cp.OK and part == w["want"], "single partition: %d %r" % (rc, msg))
        rc, msg, proof = L.prove_update([m["update_vanilla"]])
        check(rc == cp.OK and msg is None and proof == m["update_want"], "prove update: %d %r" % (rc, msg))
        if proof is not None:
            print("PROOF_UPDATE=%s" % proof.hex())
            rc, msg = L.verify_update(proof)
            check(rc == cp.OK, "verify the update proof: %d %r" % (rc, msg))

    if failures:
        print("%d check(s) failed" % failures, file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
