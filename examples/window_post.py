#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""window_post.py — a complete WindowPoSt from Python through libcuseal's C
ABI (include/cuseal_porep.h; declarations in cuseal_porep.py beside this
file): the leaf challenges of each sector, the partition proofs from the
sectors' vanilla proofs, and the verification of the result, as a miner's
proving loop does it.

The vanilla proofs come from the machine holding the sealed sectors:
filecoin-ffi's generate_single_vanilla_proof (Lotus/Curio:
GenerateSingleVanillaProof) answers the challenges printed in step 1, one
file per sector.

usage:
  window_post.py --lib build/lib/libcuseal.so --params /var/tmp/filecoin-proof-parameters \\
      --proof-type 13 --miner 1000 --randomness HEX \\
      --sector NUMBER:COMM_R_HEX:VANILLA_FILE [--sector ...]

--proof-type is go-state-types' abi.RegisteredPoStProof (13 =
StackedDrgWindow32GiBV1_1, 10 = StackedDrgWindow2KiBV1_1); --randomness the
32-byte chain randomness (a canonical field element: Lotus clears the top
two bits of byte 31); COMM_R each sector's sealed commitment (32 bytes).
Every input is checked before the library is loaded, each vanilla proof
against its --sector (a vanilla proof starts with its sector's number and
comm_r): a mistake is one "window_post.py: ..." line and exit status 2,
before any proving. It prints "proof=HEX" (192 bytes per partition),
"verified=true" and "OK". --test-only-randomness-seed makes the proof
reproducible: FOR TESTS ONLY, a real proof must be blinded with fresh
randomness (the default).
"""
import argparse
import ctypes as C
import sys

import cuseal_porep as cp


class InputError(Exception):
    """A mistake in the command line or the files it names (exit status 2)."""


def hex32(what, text):
    """text as 32 bytes of hex, or InputError naming what."""
    try:
        b = bytes.fromhex(text)
    except ValueError:
        raise InputError("%s %r is not hex" % (what, text)) from None
    if len(b) != 32:
        raise InputError("%s is %d bytes, want 32" % (what, len(b)))
    return b


def read_sector(arg):
    """(number, comm_r, vanilla proof) of one --sector NUMBER:COMM_R_HEX:VANILLA_FILE,
    the vanilla proof checked against the number and comm_r: filecoin-ffi's
    vanilla proof begins with the sector's number (u64, little-endian) and its
    comm_r (32 bytes)."""
    parts = arg.split(":", 2)
    if len(parts) != 3:
        raise InputError("--sector %s: want NUMBER:COMM_R_HEX:VANILLA_FILE" % arg)
    number, comm_r, path = parts
    try:
        number = int(number)
    except ValueError:
        raise InputError("--sector %s: the sector number %r is not a number" % (arg, number)) from None
    comm_r = hex32("--sector %s: comm_r" % arg, comm_r)
    try:
        with open(path, "rb") as f:
            vanilla = f.read()
    except OSError as e:
        raise InputError("--sector %s: cannot read the vanilla proof: %s" % (arg, e)) from None
    if len(vanilla) < 40:
        raise InputError("--sector %s: %s is %d bytes, not a vanilla proof" % (arg, path, len(vanilla)))
    got_number, got_comm_r = int.from_bytes(vanilla[:8], "little"), vanilla[8:40]
    if got_number != number or got_comm_r != comm_r:
        raise InputError("--sector %s: %s is the vanilla proof of sector %d with comm_r %s" % (arg, path, got_number, got_comm_r.hex()))
    return number, comm_r, vanilla


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

    # Every input first: a mistake costs no proving.
    randomness = hex32("--randomness", a.randomness)
    seed = hex32("--test-only-randomness-seed", a.test_only_randomness_seed) if a.test_only_randomness_seed else None
    sectors = sorted(read_sector(s) for s in a.sector)  # the prover wants ascending sector numbers, as the verifier lists them
    for (n0, _, _), (n1, _, _) in zip(sectors, sectors[1:]):
        if n0 == n1:
            raise InputError("--sector: sector %d is given twice" % n0)
    try:
        lib = cp.load(a.lib)
    except OSError as e:
        raise InputError("--lib %s: %s" % (a.lib, e)) from None

    # 1. The leaf challenges each sector's vanilla proof answers (what the
    #    storage machine's generate_single_vanilla_proof is given).
    ids = (C.c_uint64 * len(sectors))(*[n for n, _, _ in sectors])
    ids_out, n, chs, stride, c = cp.U64P(), C.c_size_t(), cp.U64P(), C.c_size_t(), cp.Call(lib)
    c.result(lib.cuseal_porep_generate_fallback_sector_challenges(a.proof_type, randomness, len(randomness), ids, len(ids), a.miner,
                                                                  C.byref(ids_out), C.byref(n), C.byref(chs), C.byref(stride), c.msg_ref()))
    numbers = cp.take_u64s(lib, ids_out, n.value)
    challenges = cp.take_u64s(lib, chs, n.value * stride.value)
    for i, number in enumerate(numbers):
        row = challenges[i * stride.value:(i + 1) * stride.value]
        print("challenges %d: %s" % (number, " ".join(str(c) for c in row)), file=sys.stderr)

    # 2. The SNARK over the vanilla proofs: every partition verified before it is returned.
    opts = cp.options(lib, params_dir=a.params, test_only_randomness_seed=seed)
    vanilla = [v for _, _, v in sectors]
    arr, keep = cp.bytes_array(vanilla)
    c = cp.Call(lib)
    proof = c.result(lib.cuseal_porep_generate_window_post_with_vanilla(a.proof_type, randomness, len(randomness), a.miner,
                                                                       arr, len(vanilla), C.byref(opts), *c.bytes_out()))
    print("proof=%s" % proof.hex())

    # 3. What the chain checks: the proof against the sectors' comm_r.
    infos = cp.sector_infos([(number, comm_r) for number, comm_r, _ in sectors])
    c = cp.Call(lib)
    ok = c.verdict(lib.cuseal_porep_verify_window_post(a.proof_type, randomness, len(randomness), infos, len(sectors), proof,
                                                       len(proof), a.miner, C.byref(opts), c.msg_ref()))
    print("verified=%s" % ("true" if ok else "false"))
    if not ok:
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except InputError as e:
        print("window_post.py: %s" % e, file=sys.stderr)
        sys.exit(2)
    except cp.Error as e:
        print("window_post.py: %s" % e, file=sys.stderr)
        sys.exit(e.status)
