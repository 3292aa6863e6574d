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
file per sector. `cuseal post vanilla --circuit window-post --sector-dir
SECTOR --randomness HEX --out DIR` writes them for a sector `cuseal seal`
sealed (DIR/sector-N.bin, and DIR/vanilla.json naming the proof type,
randomness, sector numbers and comm_r); `cuseal demo` leaves one such
directory, post-window/.

usage:
  window_post.py --lib build/lib/libcuseal.so --params /var/tmp/filecoin-proof-parameters \\
      --proof-type 13 --miner 1000 --randomness HEX \\
      --sector NUMBER:COMM_R_HEX:VANILLA_FILE [--sector ...]

--proof-type is go-state-types' abi.RegisteredPoStProof of a WindowPoSt
(10..14 = StackedDrgWindow{2KiB,8MiB,512MiB,32GiB,64GiB}V1_1), a number or
that name; --miner the miner's actor ID (0..2^64-1; t01000 and f01000 are
taken as 1000); --randomness the 32-byte chain randomness in hex (0x
allowed), a canonical field element (Lotus clears the top two bits of byte
31); COMM_R each sector's sealed commitment (32 bytes of hex); NUMBER its
sector number (0..2^64-1); --params the directory holding the WindowPoSt
.params and .vk files.

Before the library is loaded every one of these is checked — the proof
type, the numbers' ranges, the hex, the randomness being canonical, the
params directory existing, each vanilla proof file being readable, being a
vanilla proof at all, and being that of its --sector (a vanilla proof
starts with its sector's number and comm_r). A mistake is one
"window_post.py: ..." line naming the argument, and exit status 2. What
only the library can see (a vanilla proof cut short or not answering the
challenges, a missing parameter file) it reports after step 1, still
before any proving, naming the --sector (number, comm_r and file) rather
than a position among the sorted sectors. It prints "proof=HEX" (192 bytes per partition), "verified=true"
and "OK"; the library warns on stderr when the parameters are TEST ones.
--test-only-randomness-seed makes the proof reproducible: FOR TESTS ONLY,
a real proof must be blinded with fresh randomness (the default).
"""
import argparse
import ctypes as C
import os
import re
import sys

import cuseal_porep as cp

U64_MAX = 2**64 - 1
I64_MIN, I64_MAX = -(2**63), 2**63 - 1
# The BLS12-381 scalar field's modulus: randomness must be below it (little-endian).
FR_MODULUS = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
SIZES = ["2KiB", "8MiB", "512MiB", "32GiB", "64GiB"]
WINDOW_PROOFS = {10 + i: "StackedDrgWindow%sV1_1" % s for i, s in enumerate(SIZES)}
VALUE_FLAGS = ("--lib", "--params", "--proof-type", "--miner", "--randomness", "--sector", "--test-only-randomness-seed")


class InputError(Exception):
    """A mistake in the command line or the files it names (exit status 2)."""


class Parser(argparse.ArgumentParser):
    """argparse with its errors as one InputError line (not usage + message)."""

    def error(self, message):
        raise InputError(message)


def join_values(argv):
    """argv with each value flag joined to its value ("--sector=-1:..."), so
    that a value starting with "-" (a negative number) is taken as the value
    and then checked, not mistaken for a flag."""
    out, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a in VALUE_FLAGS and i + 1 < len(argv) and not argv[i + 1].startswith("--"):
            out.append("%s=%s" % (a, argv[i + 1]))
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def integer(what, text, lo, hi, ctype):
    """text as an integer in [lo, hi] (ctype names the C type), or InputError."""
    try:
        v = int(text, 10)
    except ValueError:
        raise InputError("%s %r is not a decimal integer" % (what, text)) from None
    if not lo <= v <= hi:
        raise InputError("%s %s is out of range: want %d..%d (%s)" % (what, text, lo, hi, ctype))
    return v


def proof_type(text):
    """--proof-type as a WindowPoSt abi.RegisteredPoStProof (a number or its name)."""
    by_name = {n.lower(): p for p, n in WINDOW_PROOFS.items()}
    if text.lower() in by_name:
        return by_name[text.lower()]
    p = integer("--proof-type", text, I64_MIN, I64_MAX, "int64_t, abi.RegisteredPoStProof")
    if p in WINDOW_PROOFS:
        return p
    want = "want a WindowPoSt proof: %s" % ", ".join("%d = %s" % kv for kv in sorted(WINDOW_PROOFS.items()))
    if 0 <= p <= 4:
        raise InputError("--proof-type %d is StackedDrgWinning%sV1, a WinningPoSt proof; %s" % (p, SIZES[p], want))
    if 5 <= p <= 9:
        raise InputError("--proof-type %d is the legacy StackedDrgWindow%sV1 (not supported): use %d (%s)" % (p, SIZES[p - 5], p + 5, WINDOW_PROOFS[p + 5]))
    raise InputError("--proof-type %d is not a registered PoSt proof; %s" % (p, want))


def miner(text):
    """--miner as an actor ID: a number, or an ID address t0N / f0N."""
    m = re.fullmatch(r"[tf]0(\d+)", text)
    return integer("--miner", m.group(1) if m else text, 0, U64_MAX, "uint64_t, the miner's actor ID")


def hex32(what, text):
    """text (64 hex digits, an optional 0x prefix) as 32 bytes, or InputError naming what."""
    digits = text[2:] if text[:2] in ("0x", "0X") else text
    try:
        b = bytes.fromhex(digits)
    except ValueError:
        raise InputError("%s %r is not hex" % (what, text)) from None
    if len(b) != 32:
        raise InputError("%s is %d bytes, want 32" % (what, len(b)))
    return b


def canonical(what, b):
    """b, checked to be a canonical field element (little-endian, below the modulus)."""
    if int.from_bytes(b, "little") >= FR_MODULUS:
        raise InputError("%s %s is not a canonical field element (mask byte 31 with 0x3f, as Lotus does)" % (what, b.hex()))
    return b


def not_vanilla(path, data):
    """Why data is plainly not a vanilla proof (text, a SNARK proof, too short), or None."""
    if len(data) < 40:
        return "%s is %d bytes, not a vanilla proof (one begins with its sector's number and comm_r: 40 bytes)" % (path, len(data))
    head = data[:64]
    if head.lstrip()[:1] in (b"{", b"[") or all(32 <= c < 127 or c in b"\t\r\n" for c in head):
        return "%s is a text file (such as vanilla.json), not a vanilla proof: give the sector's binary vanilla proof (sector-N.bin of `cuseal post vanilla`)" % path
    if len(data) % 192 == 0 and len(data) <= 192 * 64:
        return "%s is %d bytes, a SNARK proof's size (192 per partition), not a vanilla proof" % (path, len(data))
    if int.from_bytes(data[8:40], "little") >= FR_MODULUS:
        return "%s is not a vanilla proof: its bytes 8..39 (a vanilla proof's comm_r) are not a field element" % path
    return None


def read_sector(arg):
    """(number, comm_r, vanilla proof, arg, path) of one --sector NUMBER:COMM_R_HEX:VANILLA_FILE,
    the vanilla proof checked against the number and comm_r: filecoin-ffi's
    vanilla proof begins with the sector's number (u64, little-endian) and its
    comm_r (32 bytes)."""
    parts = arg.split(":", 2)
    if len(parts) != 3:
        raise InputError("--sector %s: want NUMBER:COMM_R_HEX:VANILLA_FILE" % arg)
    number, comm_r, path = parts
    number = integer("--sector %s: the sector number" % arg, number, 0, U64_MAX, "uint64_t")
    comm_r = hex32("--sector %s: comm_r" % arg, comm_r)
    try:
        with open(path, "rb") as f:
            vanilla = f.read()
    except OSError as e:
        raise InputError("--sector %s: cannot read the vanilla proof: %s" % (arg, e)) from None
    why = not_vanilla(path, vanilla)
    if why:
        raise InputError("--sector %s: %s" % (arg, why))
    got_number, got_comm_r = int.from_bytes(vanilla[:8], "little"), vanilla[8:40]
    if got_number != number or got_comm_r != comm_r:
        raise InputError("--sector %s: %s is the vanilla proof of sector %d with comm_r %s" % (arg, path, got_number, got_comm_r.hex()))
    return number, comm_r, vanilla, arg, path


def name_sectors(message, sectors):
    """The library's message with each "vanilla proof K" / "vanilla_proofs[K]"
    (K an index among the sorted sectors) named by its --sector (number, comm_r, file)."""

    def named(m):
        k = int(m.group(1) or m.group(2))
        if k >= len(sectors):
            return m.group(0)
        return "the vanilla proof of --sector %s" % sectors[k][3]

    return re.sub(r"vanilla proof (\d+)|vanilla_proofs\[(\d+)\]", named, message)


def main(argv):
    ap = Parser(prog="window_post.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib", required=True, help="path of libcuseal.so")
    ap.add_argument("--params", required=True, help="directory of the Filecoin parameter files")
    ap.add_argument("--proof-type", required=True, help="abi.RegisteredPoStProof of a WindowPoSt (10..14, or its name)")
    ap.add_argument("--miner", required=True, help="the miner's actor ID")
    ap.add_argument("--randomness", required=True, help="32 bytes, hex")
    ap.add_argument("--sector", action="append", required=True, help="NUMBER:COMM_R_HEX:VANILLA_FILE")
    ap.add_argument("--test-only-randomness-seed", help="FOR TESTS ONLY: 32 bytes, hex")
    a = ap.parse_args(join_values(argv))

    # Every input first: a mistake costs no proving.
    ptype = proof_type(a.proof_type)
    miner_id = miner(a.miner)
    randomness = canonical("--randomness", hex32("--randomness", a.randomness))
    seed = hex32("--test-only-randomness-seed", a.test_only_randomness_seed) if a.test_only_randomness_seed else None
    if not os.path.isdir(a.params):
        raise InputError("--params %s: no such directory (the directory of the WindowPoSt .params and .vk files)" % a.params)
    # The prover wants ascending sector numbers, as the verifier lists them.
    sectors = sorted((read_sector(s) for s in a.sector), key=lambda s: s[0])
    for s0, s1 in zip(sectors, sectors[1:]):
        if s0[0] == s1[0]:
            raise InputError("--sector %s and --sector %s: sector %d is given twice" % (s0[3], s1[3], s0[0]))
    try:
        lib = cp.load(a.lib)
    except OSError as e:
        raise InputError("--lib %s: %s" % (a.lib, e)) from None
    try:
        return run(lib, a, ptype, miner_id, randomness, seed, sectors)
    except cp.Error as e:
        raise cp.Error(e.status, name_sectors(e.message or "", sectors)) from None


def run(lib, a, ptype, miner_id, randomness, seed, sectors):
    """Steps 1-3 with the checked inputs; the library's errors raise cp.Error."""
    # 1. The leaf challenges each sector's vanilla proof answers (what the
    #    storage machine's generate_single_vanilla_proof is given).
    ids = (C.c_uint64 * len(sectors))(*[s[0] for s in sectors])
    ids_out, n, chs, stride, c = cp.U64P(), C.c_size_t(), cp.U64P(), C.c_size_t(), cp.Call(lib)
    c.result(lib.cuseal_porep_generate_fallback_sector_challenges(ptype, randomness, len(randomness), ids, len(ids), miner_id,
                                                                  C.byref(ids_out), C.byref(n), C.byref(chs), C.byref(stride), c.msg_ref()))
    numbers = cp.take_u64s(lib, ids_out, n.value)
    challenges = cp.take_u64s(lib, chs, n.value * stride.value)
    for i, number in enumerate(numbers):
        row = challenges[i * stride.value:(i + 1) * stride.value]
        print("challenges %d: %s" % (number, " ".join(str(c) for c in row)), file=sys.stderr)

    # 2. The SNARK over the vanilla proofs: every partition verified before it is returned.
    opts = cp.options(lib, params_dir=a.params, test_only_randomness_seed=seed)
    vanilla = [s[2] for s in sectors]
    arr, keep = cp.bytes_array(vanilla)
    c = cp.Call(lib)
    proof = c.result(lib.cuseal_porep_generate_window_post_with_vanilla(ptype, randomness, len(randomness), miner_id,
                                                                       arr, len(vanilla), C.byref(opts), *c.bytes_out()))
    print("proof=%s" % proof.hex())

    # 3. What the chain checks: the proof against the sectors' comm_r.
    infos = cp.sector_infos([(s[0], s[1]) for s in sectors])
    c = cp.Call(lib)
    ok = c.verdict(lib.cuseal_porep_verify_window_post(ptype, randomness, len(randomness), infos, len(sectors), proof,
                                                       len(proof), miner_id, C.byref(opts), c.msg_ref()))
    print("verified=%s" % ("true" if ok else "false"))
    if not ok:
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except InputError as e:
        print("window_post.py: %s" % e, file=sys.stderr)
        sys.exit(2)
    except cp.Error as e:
        print("window_post.py: %s" % e, file=sys.stderr)
        sys.exit(e.status)
