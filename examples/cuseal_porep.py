# SPDX-License-Identifier: Apache-2.0 OR MIT
"""cuseal_porep.py — ctypes declarations of libcuseal's C ABI
(include/cuseal_porep.h, ABI version 3), standard library only: the status
codes, the structs, every call's signature, and helpers that copy what the
library returns and free it with the library's own free functions.

    import ctypes, cuseal_porep as cp
    lib = cp.load("build/lib/libcuseal.so")
    opts = cp.options(lib, params_dir="/var/tmp/filecoin-proof-parameters")
    vanilla, keep = cp.bytes_array([v0, v1])  # one per sector, ascending sector number
    c = cp.Call(lib)
    proof = c.result(lib.cuseal_porep_generate_window_post_with_vanilla(
        13, randomness, 32, miner, vanilla, 2, ctypes.byref(opts), *c.bytes_out()))

Copy this file next to your program; docs/c-abi.md documents the calls.
"""
import ctypes as C

ABI_VERSION = 3
OK, INVALID, ERR_BAD_INPUT, ERR_INTERNAL, ERR_CANCELLED = 0, 1, 2, 3, 4
LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR, LOG_OFF = -4, 0, 4, 8, 127
SNARKPACK_V2 = 1  # abi.RegisteredAggregationProof_SnarkPackV2
CIRCUIT_SEAL, CIRCUIT_POST, CIRCUIT_UPDATE = 0, 1, 2  # generate_circuit_test_params

U8P = C.POINTER(C.c_uint8)
U64P = C.POINTER(C.c_uint64)
LOG_FN = C.CFUNCTYPE(None, C.c_void_p, C.c_int32, C.c_char_p)


class Options(C.Structure):
    """cuseal_porep_options; fill with options() (cuseal_porep_options_init)."""
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
    """cuseal_porep_bytes: one byte string passed in (build arrays with bytes_array)."""
    _fields_ = [("ptr", U8P), ("len", C.c_size_t)]


class SectorInfo(C.Structure):
    """cuseal_porep_sector_info: a challenged sector (40 bytes)."""
    _fields_ = [("sector_number", C.c_uint64), ("comm_r", C.c_uint8 * 32)]


class AggregationInput(C.Structure):
    """cuseal_porep_aggregation_input: one sealed sector of an aggregate (136 bytes)."""
    _fields_ = [
        ("comm_r", C.c_uint8 * 32),
        ("comm_d", C.c_uint8 * 32),
        ("sector_number", C.c_uint64),
        ("ticket", C.c_uint8 * 32),
        ("seed", C.c_uint8 * 32),
    ]


def load(path):
    """Load libcuseal.so and declare every call (raises when its ABI is older than ABI_VERSION)."""
    lib = C.CDLL(path)
    i64, u64, sz, i32 = C.c_int64, C.c_uint64, C.c_size_t, C.c_int
    msg, opts, pbytes = C.POINTER(C.c_void_p), C.POINTER(Options), C.POINTER(Bytes)
    out = [C.POINTER(U8P), C.POINTER(sz), msg]  # proof_out, proof_len, err_msg
    sigs = {
        "cuseal_porep_abi_version": (C.c_uint32, []),
        "cuseal_porep_options_init": (None, [opts]),
        "cuseal_porep_cancel_new": (C.c_void_p, []),
        "cuseal_porep_cancel_trigger": (None, [C.c_void_p]),
        "cuseal_porep_cancel_free": (None, [C.c_void_p]),
        "cuseal_porep_info": (i32, [C.POINTER(C.c_void_p), msg]),
        "cuseal_porep_seal_commit_phase2": (i32, [C.c_char_p, sz, u64, u64, opts] + out),
        "cuseal_porep_verify_seal": (i32, [i64, C.c_char_p, C.c_char_p, u64, u64, C.c_char_p, C.c_char_p, C.c_char_p, sz, opts, msg]),
        "cuseal_porep_generate_test_params": (i32, [i64, C.c_char_p, C.c_char_p, C.c_uint32, opts, C.POINTER(C.c_void_p), msg]),
        "cuseal_porep_generate_circuit_test_params": (
            i32, [C.c_int32, i64, C.c_char_p, C.c_char_p, C.c_uint32, opts, C.POINTER(C.c_void_p), msg]),
        "cuseal_porep_generate_winning_post_sector_challenge": (i32, [i64, C.c_char_p, sz, u64, u64, C.POINTER(U64P), C.POINTER(sz), msg]),
        "cuseal_porep_generate_fallback_sector_challenges": (
            i32, [i64, C.c_char_p, sz, U64P, sz, u64, C.POINTER(U64P), C.POINTER(sz), C.POINTER(U64P), C.POINTER(sz), msg]),
        "cuseal_porep_generate_winning_post_with_vanilla": (i32, [i64, C.c_char_p, sz, u64, pbytes, sz, opts] + out),
        "cuseal_porep_generate_window_post_with_vanilla": (i32, [i64, C.c_char_p, sz, u64, pbytes, sz, opts] + out),
        "cuseal_porep_generate_single_window_post_with_vanilla": (i32, [i64, C.c_char_p, sz, u64, pbytes, sz, sz, opts] + out),
        "cuseal_porep_merge_window_post_partition_proofs": (i32, [i64, pbytes, sz] + out),
        "cuseal_porep_verify_winning_post": (i32, [i64, C.c_char_p, sz, C.POINTER(SectorInfo), sz, C.c_char_p, sz, u64, opts, msg]),
        "cuseal_porep_verify_window_post": (i32, [i64, C.c_char_p, sz, C.POINTER(SectorInfo), sz, C.c_char_p, sz, u64, opts, msg]),
        "cuseal_porep_generate_empty_sector_update_proof_with_vanilla": (
            i32, [i64, pbytes, sz, C.c_char_p, C.c_char_p, C.c_char_p, opts] + out),
        "cuseal_porep_verify_empty_sector_update_proof": (i32, [i64, C.c_char_p, sz, C.c_char_p, C.c_char_p, C.c_char_p, opts, msg]),
        "cuseal_porep_aggregate_seal_proofs": (i32, [i64, i64, u64, C.POINTER(AggregationInput), pbytes, sz, opts] + out),
        "cuseal_porep_verify_aggregate_seal_proof": (
            i32, [i64, i64, u64, C.c_char_p, sz, C.POINTER(AggregationInput), sz, opts, msg]),
        "cuseal_porep_proof_free": (None, [U8P]),
        "cuseal_porep_string_free": (None, [C.c_void_p]),
        "cuseal_porep_u64_array_free": (None, [U64P]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    v = lib.cuseal_porep_abi_version()
    if v < ABI_VERSION:
        raise RuntimeError("%s has C ABI version %d; cuseal_porep.py needs %d" % (path, v, ABI_VERSION))
    return lib


def options(lib, params_dir=None, backend=None, test_only_randomness_seed=None):
    """A cuseal_porep_options with the defaults and the given fields; pass C.byref(o).
    test_only_randomness_seed (32 bytes) makes proofs reproducible: FOR TESTS ONLY."""
    o = Options()
    lib.cuseal_porep_options_init(C.byref(o))
    if params_dir is not None:
        o.params_dir = params_dir.encode()
    if backend is not None:
        o.backend = backend.encode()
    if test_only_randomness_seed is not None:
        o._seed = (C.c_uint8 * 32).from_buffer_copy(test_only_randomness_seed)  # alive as long as o
        o.test_only_randomness_seed = C.cast(o._seed, U8P)
    return o


def bytes_array(items):
    """A cuseal_porep_bytes array over the byte strings items, and the buffers
    it points into: keep both alive during the call."""
    arr = (Bytes * max(len(items), 1))()
    keep = []
    for i, b in enumerate(items):
        if b:
            buf = (C.c_uint8 * len(b)).from_buffer_copy(b)
            keep.append(buf)
            arr[i].ptr = C.cast(buf, U8P)
        arr[i].len = len(b)
    return arr, keep


def sector_infos(sectors):
    """A cuseal_porep_sector_info array of (sector number, comm_r) pairs."""
    arr = (SectorInfo * max(len(sectors), 1))()
    for i, (number, comm_r) in enumerate(sectors):
        arr[i].sector_number = number
        arr[i].comm_r[:] = comm_r
    return arr


def aggregation_inputs(sectors):
    """A cuseal_porep_aggregation_input array of dicts with sector_number,
    comm_r, comm_d, ticket and seed (32 bytes each)."""
    arr = (AggregationInput * max(len(sectors), 1))()
    for i, s in enumerate(sectors):
        arr[i].comm_r[:], arr[i].comm_d[:] = s["comm_r"], s["comm_d"]
        arr[i].sector_number = s["sector_number"]
        arr[i].ticket[:], arr[i].seed[:] = s["ticket"], s["seed"]
    return arr


class Error(Exception):
    """A status other than OK, with the library's message."""

    def __init__(self, status, message):
        super().__init__("status %d: %s" % (status, message))
        self.status, self.message = status, message


class Call:
    """The output slots of one call: pass *call.bytes_out() (proof_out,
    proof_len, err_msg) or call.msg_ref() (err_msg), then call.result(rc)."""

    def __init__(self, lib):
        self.lib, self.out, self.n, self.msg = lib, U8P(), C.c_size_t(0), C.c_void_p()

    def bytes_out(self):
        return C.byref(self.out), C.byref(self.n), C.byref(self.msg)

    def msg_ref(self):
        return C.byref(self.msg)

    def result(self, rc):
        """The output bytes (or None), after freeing what the library returned;
        raises Error unless rc is OK."""
        text = None
        if self.msg.value:
            text = C.string_at(self.msg.value).decode("utf-8")
            self.lib.cuseal_porep_string_free(self.msg)
        data = None
        if self.out:
            data = C.string_at(self.out, self.n.value)
            self.lib.cuseal_porep_proof_free(self.out)
        if rc != OK:
            raise Error(rc, text)
        return data

    def verdict(self, rc):
        """True for OK, False for INVALID; raises Error otherwise."""
        try:
            self.result(rc)
        except Error as e:
            if e.status == INVALID:
                return False
            raise
        return True


def take_u64s(lib, p, n):
    """Copy n uint64s the library returned and free them."""
    try:
        return [p[i] for i in range(n)]
    finally:
        lib.cuseal_porep_u64_array_free(p)
