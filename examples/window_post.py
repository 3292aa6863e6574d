#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""window_post.py — a complete WindowPoSt from Python through libcuseal's C
ABI (include/cuseal_porep.h), standard library only: the leaf challenges of
each sector, the partition proofs from the sectors' vanilla proofs, and the
verification of the result, as a miner's proving loop does it.

The vanilla proofs come from the machine holding the sealed sectors:
filecoin-ffi's generate_single_vanilla_proof (Lotus/Curio: GenerateSingleVanillaProof)
answers the challenges printed in step 1, one file per sector.

usage:
  window_post.py --lib build/lib/libcuseal.so --params /var/tmp/filecoin-proof-parameters \\
      --proof-type 13 --miner 1000 --randomness HEX \\
      --sector NUMBER:COMM_R_HEX:VANILLA_FILE [--sector ...]

--proof-type is go-state-types' abi.RegisteredPoStProof (13 = StackedDrgWindow32GiBV1_1,
10 = StackedDrgWindow2KiBV1_1); --randomness the 32-byte chain randomness (byte
31 masked to 0x3f); comm_r each sector's sealed commitment (32 bytes). It prints
"proof=HEX" (192 bytes per partition), "verified=true" and "OK". --test-only-randomness-seed
makes the proof reproducible: FOR TESTS ONLY, a real proof must be blinded with fresh
randomness (the default).
"""
import argparse
import ctypes as C
import sys

# include/cuseal_porep.h
ABI_VERSION = 2
OK, INVALID = 0, 1
U8P = C.POINTER(C.c_uint8)
U64P = C.POINTER(C.c_uint64)
LOG_FN = C.CFUNCTYPE(None, C.c_void_p, C.c_int32, C.c_char_p)


class Options(C.Structure):  # cuseal_porep_options
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


class Bytes(C.Structure):  # cuseal_porep_bytes
    _fields_ = [("ptr", U8P), ("len", C.c_size_t)]


class SectorInfo(C.Structure):  # cuseal_porep_sector_info
    _fields_ = [("sector_number", C.c_uint64), ("comm_r", C.c_uint8 * 32)]


class CusealError(Exception):
    def __init__(self, call, status, message):
        super().__init__("%s: status %d: %s" % (call, status, message))
        self.status = status


class Libcuseal:
    def __init__(self, path):
        lib = C.CDLL(path)
        sz, i64, u64, msg, opts = C.c_size_t, C.c_int64, C.c_uint64, C.POINTER(C.c_void_p), C.POINTER(Options)
        for name, res, args in [
            ("cuseal_porep_abi_version", C.c_uint32, []),
            ("cuseal_porep_options_init", None, [opts]),
            ("cuseal_porep_generate_fallback_sector_challenges", C.c_int,
             [i64, C.c_char_p, sz, U64P, sz, u64, C.POINTER(U64P), C.POINTER(sz), C.POINTER(U64P), C.POINTER(sz), msg]),
            ("cuseal_porep_generate_window_post_with_vanilla", C.c_int,
             [i64, C.c_char_p, sz, u64, C.POINTER(Bytes), sz, opts, C.POINTER(U8P), C.POINTER(sz), msg]),
            ("cuseal_porep_verify_window_post", C.c_int,
             [i64, C.c_char_p, sz, C.POINTER(SectorInfo), sz, C.c_char_p, sz, u64, opts, msg]),
            ("cuseal_porep_proof_free", None, [U8P]),
            ("cuseal_porep_string_free", None, [C.c_void_p]),
            ("cuseal_porep_u64_array_free", None, [U64P]),
        ]:
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        if lib.cuseal_porep_abi_version() < ABI_VERSION:
            raise RuntimeError("%s has C ABI version %d, this script needs %d" % (path, lib.cuseal_porep_abi_version(), ABI_VERSION))
        self.lib = lib

    def options(self, params_dir, test_seed=None):
        o = Options()
        self.lib.cuseal_porep_options_init(C.byref(o))
        o.params_dir = params_dir.encode()
        if test_seed is not None:
            o._seed = (C.c_uint8 * 32).from_buffer_copy(test_seed)  # kept alive with o
            o.test_only_randomness_seed = C.cast(o._seed, U8P)
        return o

    def _check(self, call, rc, msg):
        """Raise on a status other than OK, with the library's message (freed here)."""
        text = None
        if msg.value:
            text = C.string_at(msg.value).decode()
            self.lib.cuseal_porep_string_free(msg)
        if rc != OK:
            raise CusealError(call, rc, text)

    def fallback_challenges(self, proof_type, randomness, miner, sector_numbers):
        """{sector number: [leaf challenge, ...]} (cuseal_porep_generate_fallback_sector_challenges)."""
        ids = (C.c_uint64 * len(sector_numbers))(*sector_numbers)
        ids_out, n, chs, stride, msg = U64P(), C.c_size_t(), U64P(), C.c_size_t(), C.c_void_p()
        rc = self.lib.cuseal_porep_generate_fallback_sector_challenges(
            proof_type, randomness, len(randomness), ids, len(ids), miner,
            C.byref(ids_out), C.byref(n), C.byref(chs), C.byref(stride), C.byref(msg))
        self._check("generate_fallback_sector_challenges", rc, msg)
        try:
            s = stride.value
            return {ids_out[i]: [chs[i * s + j] for j in range(s)] for i in range(n.value)}
        finally:
            self.lib.cuseal_porep_u64_array_free(ids_out)
            self.lib.cuseal_porep_u64_array_free(chs)

    def window_post(self, proof_type, randomness, miner, vanilla_proofs, opts):
        """The proof bytes from one vanilla proof per sector, in ascending sector number."""
        arr = (Bytes * len(vanilla_proofs))()
        bufs = [(C.c_uint8 * len(v)).from_buffer_copy(v) for v in vanilla_proofs]
        for i, b in enumerate(bufs):
            arr[i].ptr, arr[i].len = C.cast(b, U8P), len(b)
        out, n, msg = U8P(), C.c_size_t(), C.c_void_p()
        rc = self.lib.cuseal_porep_generate_window_post_with_vanilla(
            proof_type, randomness, len(randomness), miner, arr, len(arr), C.byref(opts), C.byref(out), C.byref(n), C.byref(msg))
        self._check("generate_window_post_with_vanilla", rc, msg)
        try:
            return C.string_at(out, n.value)
        finally:
            self.lib.cuseal_porep_proof_free(out)

    def verify_window_post(self, proof_type, randomness, miner, sectors, proof, opts):
        """True for a valid proof, False for an invalid one; raises on bad input."""
        infos = (SectorInfo * len(sectors))()
        for i, (number, comm_r) in enumerate(sectors):
            infos[i].sector_number = number
            infos[i].comm_r[:] = comm_r
        msg = C.c_void_p()
        rc = self.lib.cuseal_porep_verify_window_post(
            proof_type, randomness, len(randomness), infos, len(infos), proof, len(proof), miner, C.byref(opts), C.byref(msg))
        if rc == INVALID:
            self._check("verify_window_post", OK, msg)  # frees the message
            return False
        self._check("verify_window_post", rc, msg)
        return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib", required=True, help="path of libcuseal.so")
    ap.add_argument("--params", required=True, help="directory of the Filecoin parameter files")
    ap.add_argument("--proof-type", type=int, required=True, help="abi.RegisteredPoStProof of a WindowPoSt")
    ap.add_argument("--miner", type=int, required=True, help="the miner's actor ID")
    ap.add_argument("--randomness", required=True, help="32 bytes, hex")
    ap.add_argument("--sector", action="append", required=True, help="NUMBER:COMM_R_HEX:VANILLA_FILE")
    ap.add_argument("--test-only-randomness-seed", help="FOR TESTS ONLY: 32 bytes, hex")
    a = ap.parse_args()

    lib = Libcuseal(a.lib)
    randomness = bytes.fromhex(a.randomness)
    sectors = []
    for s in a.sector:
        number, comm_r, path = s.split(":", 2)
        if len(bytes.fromhex(comm_r)) != 32:
            ap.error("--sector %s: comm_r is not 32 bytes of hex" % s)
        sectors.append((int(number), bytes.fromhex(comm_r), path))
    sectors.sort()  # the prover wants ascending sector numbers, as the verifier lists them

    # 1. The leaf challenges each sector's vanilla proof answers (what the
    #    storage machine's generate_single_vanilla_proof is given).
    for number, chs in lib.fallback_challenges(a.proof_type, randomness, a.miner, [n for n, _, _ in sectors]).items():
        print("challenges %d: %s" % (number, " ".join(str(c) for c in chs)), file=sys.stderr)

    # 2. The SNARK over the vanilla proofs: every partition verified before it is returned.
    seed = bytes.fromhex(a.test_only_randomness_seed) if a.test_only_randomness_seed else None
    opts = lib.options(a.params, seed)
    vanilla = []
    for _, _, path in sectors:
        with open(path, "rb") as f:
            vanilla.append(f.read())
    proof = lib.window_post(a.proof_type, randomness, a.miner, vanilla, opts)
    print("proof=%s" % proof.hex())

    # 3. What the chain checks: the proof against the sectors' comm_r.
    ok = lib.verify_window_post(a.proof_type, randomness, a.miner, [(n, c) for n, c, _ in sectors], proof, opts)
    print("verified=%s" % ("true" if ok else "false"))
    if not ok:
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except CusealError as e:
        print("window_post.py: %s" % e, file=sys.stderr)
        sys.exit(e.status)
