// SPDX-License-Identifier: Apache-2.0 OR MIT

/*
 * cuseal_porep.h — the C ABI of libcuseal (libcuseal.so / libcuseal.a, built
 * from the Go package libcuseal/ by `./build.sh lib`): Filecoin's SNARK
 * proofs for Rust, C/C++ and Python callers — PoRep commit phase 2 and seal
 * verification, WindowPoSt and WinningPoSt, SnapDeals (empty-sector update)
 * and SnarkPack aggregation of seal proofs. The calls carry the names of
 * filecoin-ffi's filcrypto.h (rust/src/proofs/api.rs) after the
 * cuseal_porep_ prefix, and mirror the Go API in package porep
 * (SealCommitPhase2, VerifySeal, the PoSt calls of post.go, the SnapDeals
 * calls of update.go, AggregateSealProofs, VerifyAggregateSeals) and
 * porep/paramfile (GenerateTestParams).
 *
 * (include/cuseal_native.h is a different, lower-level ABI: the native MSM/NTT
 * core used by the Go bridge. The two use distinct names and can be
 * included together.)
 *
 * Conventions (every function):
 *  - Returns an int status: CUSEAL_POREP_OK (0) or one of the codes below,
 *    the classes of the cuseal CLI's exit codes. When the status is not OK
 *    and err_msg is not NULL, *err_msg receives a NUL-terminated one-line
 *    message that the caller frees with cuseal_porep_string_free:
 *    "libcuseal: CALL: " (CALL the function's name after cuseal_porep_),
 *    then the Go API's error text unchanged, or a text naming the C
 *    argument as this header names it, the index in an array and the
 *    field. On OK, *err_msg is set to NULL.
 *  - Every buffer the library returns has exactly one free function:
 *    proofs (and aggregates) cuseal_porep_proof_free, strings (messages,
 *    JSON) cuseal_porep_string_free, uint64_t arrays
 *    cuseal_porep_u64_array_free, cancel handles cuseal_porep_cancel_free.
 *    All accept NULL. Never free them with free(): the library may use its
 *    own allocator. Output pointers (the arguments named *_out, *_len,
 *    challenges_stride) must not be NULL: a NULL one is bad input naming
 *    it. Every output is set to NULL or 0 when the call starts and holds a
 *    result only on CUSEAL_POREP_OK: after any other status all of them
 *    are NULL and 0, never a partial output.
 *  - Caller memory is only read during the call and never retained.
 *  - Registered proofs are go-state-types' numbers (abi.RegisteredSealProof,
 *    abi.RegisteredPoStProof, abi.RegisteredUpdateProof,
 *    abi.RegisteredAggregationProof), which Lotus and Curio pass to
 *    filecoin-ffi. The miner is its actor ID (uint64): filecoin-ffi's
 *    32-byte prover_id is the ID address payload derived from it.
 *  - All functions are safe to call concurrently from several threads.
 *    A Go panic never crosses the boundary: it becomes
 *    CUSEAL_POREP_ERR_INTERNAL with the panic in the message.
 *  - The library embeds the Go runtime, started when the library is loaded
 *    (it installs signal handlers with SA_ONSTACK and forwards signals it
 *    does not handle to handlers installed before it). Load at most one
 *    Go-built library into a process. The CUDA variant (-tags cuda) links
 *    the static CUDA runtime, whose page-aligned TLS block glibc cannot
 *    place in a library dlopen'ed after start-up: link it (-lcuseal) or
 *    LD_PRELOAD it; the pure-Go variant may be dlopen'ed.
 *  - fork(): the Go runtime does not survive fork() without exec(). In a
 *    child forked after the library was loaded (Python multiprocessing's
 *    "fork" start method, the default on Linux before Python 3.14) every
 *    call returns CUSEAL_POREP_ERR_INTERNAL at once, naming fork(), with
 *    its outputs NULL and 0, and cuseal_porep_cancel_new returns NULL
 *    (options_init, abi_version and the free functions work). Load the
 *    library in the child instead: multiprocessing's "spawn" or
 *    "forkserver" start method with the library loaded in the worker, or
 *    fork() followed by exec(). The library also exports libcuseal_go_*
 *    symbols: the Go side behind each call, internal, never to be called.
 *  - Environment: FIL_PROOFS_PARAMETER_CACHE (see params_dir) and
 *    FIL_PROOFS_VERIFY_PRODUCTION_PARAMS (1/true/yes: only the official
 *    parameter files are accepted) are read with getenv when each call
 *    starts; do not change the environment while a call starts on another
 *    thread (POSIX). BELLMAN_NO_GPU, CUDA_VISIBLE_DEVICES and
 *    CUSEAL_CUDA_DEVICES are read only from the environment the process
 *    started with (the Go runtime's copy, taken when the library is
 *    loaded from the process's initial environment): set them before
 *    starting the process.
 *  - ABI versioning: cuseal_porep_abi_version() returns the library's
 *    CUSEAL_POREP_ABI_VERSION. A library serves callers built against its
 *    own or any earlier version: versions only add functions and append
 *    fields to structs (cuseal_porep_options.struct_size tells the library
 *    which fields a caller has). Check
 *    cuseal_porep_abi_version() >= CUSEAL_POREP_ABI_VERSION before the
 *    first call. (A version 1 caller that compared with ==, as version
 *    1's test program did, refuses this library: change the check to >=;
 *    nothing else. docs/c-abi.md, "Versions".)
 *      1: seal_commit_phase2, verify_seal, generate_test_params, info,
 *         options, cancel handles.
 *      2: WindowPoSt / WinningPoSt (challenges, proving from vanilla
 *         proofs, merging, verification), SnapDeals (proving from vanilla
 *         partition proofs, verification), SnarkPack aggregation and its
 *         verification; cuseal_porep_bytes, cuseal_porep_sector_info,
 *         cuseal_porep_aggregation_input, cuseal_porep_u64_array_free.
 *         cuseal_porep_options is unchanged.
 *      3: cuseal_porep_generate_circuit_test_params (test parameters of
 *         the PoSt and SnapDeals circuits too); cuseal_porep_info's
 *         "warnings"; a warning given during a call with logging off goes
 *         to stderr. cuseal_porep_options is unchanged.
 *
 * Thread-safety of callbacks: the log callback may be called from any
 * thread (Go's, not the caller's), one record at a time per call, while a
 * call that was given it is running, and never after that call returned.
 */
#ifndef CUSEAL_POREP_H
#define CUSEAL_POREP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUSEAL_POREP_ABI_VERSION 3

/* CUSEAL_POREP_IN marks pointer parameters the library only reads: const
 * for callers. The library's own build (cgo, which cannot declare const
 * parameters) defines CUSEAL_POREP_BUILDING_LIBRARY, so that the compiler
 * checks its exported functions against these very prototypes. */
#ifdef CUSEAL_POREP_BUILDING_LIBRARY
#define CUSEAL_POREP_IN
#else
#define CUSEAL_POREP_IN const
#endif

/* ---- status codes ----------------------------------------------------- */

#define CUSEAL_POREP_OK 0
/* The proof does not verify (the cuseal_porep_verify_* calls), or a proof
 * that a proving call produced failed its own verification (for
 * cuseal_porep_aggregate_seal_proofs: the seal proofs given are not valid
 * proofs of the sectors given). */
#define CUSEAL_POREP_INVALID 1
/* The caller's input: malformed or inconsistent C1 output or vanilla
 * proofs (wrong sector, wrong challenges, truncated, out of order), a wrong
 * sector number or miner, randomness of the wrong length, missing parameter
 * files or parameters for another circuit, a bad option (unknown backend,
 * wrong struct_size), commitments that are not canonical field elements,
 * undecodable proof bytes, NULL where a pointer is required, an unknown or
 * unsupported registered proof. The message names the argument, the index
 * in an array and the field. */
#define CUSEAL_POREP_ERR_BAD_INPUT 2
/* A failure of cuseal or its environment (I/O, out of memory, a panic). */
#define CUSEAL_POREP_ERR_INTERNAL 3
/* The call was cancelled through its cuseal_porep_cancel handle. */
#define CUSEAL_POREP_ERR_CANCELLED 4

/* ---- cancellation ----------------------------------------------------- */

/* A cancel handle is passed to calls in cuseal_porep_options.cancel. Once
 * cuseal_porep_cancel_trigger is called (from any thread, at any time), the
 * calls using it stop at the next check and return
 * CUSEAL_POREP_ERR_CANCELLED; later calls with it return that at once. The
 * checks sit between gadgets during synthesis and between proving stages
 * (on the CPU backend: the H, L, A, B_G1 and B_G2 multi-scalar
 * multiplications of each partition), not inside a stage: a cancellation
 * takes effect when the stage running at the trigger ends — seconds for
 * 2 KiB sectors (a 2 KiB SnapDeals proof on a busy 2-core CPU returned
 * 32 s after the trigger), possibly minutes for a 32 GiB partition on the
 * CPU backend.
 * Free it with cuseal_porep_cancel_free after every call using it has
 * returned. */
typedef struct cuseal_porep_cancel cuseal_porep_cancel;

cuseal_porep_cancel* cuseal_porep_cancel_new(void);
void cuseal_porep_cancel_trigger(cuseal_porep_cancel* c);
void cuseal_porep_cancel_free(cuseal_porep_cancel* c);

/* ---- options ---------------------------------------------------------- */

/* Log levels (the values of Go's log/slog levels). */
#define CUSEAL_POREP_LOG_DEBUG (-4)
#define CUSEAL_POREP_LOG_INFO 0
#define CUSEAL_POREP_LOG_WARN 4
#define CUSEAL_POREP_LOG_ERROR 8
#define CUSEAL_POREP_LOG_OFF 127

/* level: one of CUSEAL_POREP_LOG_*; message: one formatted record
 * ("level=INFO msg=... key=value ...", no time: add your own), valid
 * during the call only. */
typedef void (*cuseal_porep_log_fn)(void* user, int32_t level, const char* message);

typedef struct {
	/* sizeof(cuseal_porep_options), set by cuseal_porep_options_init: lets
	 * a later library version accept structs from older callers (fields
	 * are only ever appended; those past struct_size take their defaults). */
	uint32_t struct_size;
	/* Assignments alive at once (0 = 1); 2 overlaps synthesis with proving
	 * (32 GiB: ~16 GiB each). */
	uint32_t partitions_in_flight;
	/* Directory of the Filecoin parameter files (.params/.vk); NULL or ""
	 * = $FIL_PROOFS_PARAMETER_CACHE as the environment holds it when the
	 * call starts (a setenv, or Python's os.environ[...] = ..., before the
	 * call is seen), else /var/tmp/filecoin-proof-parameters. */
	const char* params_dir;
	/* "auto" (NULL or "": CUDA when built in and a device is found, else
	 * CPU), "cpu" or "cuda" (libraries built with -tags cuda only). Any
	 * other name is bad input for every call that takes options, also
	 * for those that do not prove (the verify calls use no backend). */
	const char* backend;
	/* Records at or above log_level go to log_fn, or to stderr when log_fn
	 * is NULL (one line each, "time=... level=... msg=..."):
	 * CUSEAL_POREP_LOG_OFF (the default) drops them all but warnings. A
	 * warning (test parameters in use: "TEST parameters: ...", given once
	 * per process and parameter set) is never dropped: with logging off it
	 * is written to stderr as one line "libcuseal: warning: ...", and
	 * cuseal_porep_info lists every warning given so far. */
	int32_t log_level;
	/* 1: decode the whole .params file up front (memory: its size). */
	int32_t preload_params;
	cuseal_porep_log_fn log_fn;
	void* log_user; /* passed to log_fn unchanged */
	/* NULL, or a handle that cancels the call (see above). */
	cuseal_porep_cancel* cancel;
	/* FOR TESTS ONLY. NULL (the default): every proof is blinded with fresh
	 * randomness from the OS, as a production prover must. Otherwise 32
	 * bytes from which the blinding (r, s) of each partition is derived
	 * (porep.WithDeterministicRandomness), so that proofs are reproducible
	 * byte for byte; such proofs leak information about the witness. */
	const uint8_t* test_only_randomness_seed;
} cuseal_porep_options;

/* cuseal_porep_options_init fills *opts with the defaults (struct_size set,
 * everything else 0/NULL, log_level CUSEAL_POREP_LOG_OFF). */
void cuseal_porep_options_init(cuseal_porep_options* opts);

/* ---- the calls -------------------------------------------------------- */

/* The ABI version the library was built with (CUSEAL_POREP_ABI_VERSION). */
uint32_t cuseal_porep_abi_version(void);

/* cuseal_porep_info: *json_out = one JSON object describing the library:
 * {"abi_version", "version", "go_version", "os", "arch", "cuda" (built
 * with -tags cuda), "backends" (registered), "native_version" (cuda
 * builds), "warnings" (ABI 3: every warning the calls of this process
 * gave so far, in order, such as "TEST parameters: proofs will not verify
 * on chain (FILE ...)"; [] when none), "build" (ABI 3: what `cuseal
 * version --json` prints: "version", "module_version", "revision",
 * "time", "modified" where the build recorded them, "go_version",
 * "tags", ...)}. Free with cuseal_porep_string_free. */
int cuseal_porep_info(char** json_out, char** err_msg);

/* cuseal_porep_seal_commit_phase2: filecoin-ffi's seal_commit_phase2.
 *   c1, c1_len: commit phase 1 output, the serde JSON filecoin-ffi writes,
 *               or lotus-bench's Commit2In JSON wrapping it
 *   sector_number, miner_id: the sector's number and the miner's actor ID
 *   opts:       NULL for the defaults
 *   *proof_out, *proof_len: 192 bytes per partition, concatenated; free
 *               with cuseal_porep_proof_free. Set only on CUSEAL_POREP_OK.
 * The C1 output is validated before any synthesis, and every proof is
 * verified before it is returned: a returned proof is a valid proof. */
int cuseal_porep_seal_commit_phase2(CUSEAL_POREP_IN uint8_t* c1, size_t c1_len, uint64_t sector_number,
                                    uint64_t miner_id, CUSEAL_POREP_IN cuseal_porep_options* opts,
                                    uint8_t** proof_out, size_t* proof_len, char** err_msg);

/* cuseal_porep_verify_seal: filecoin-ffi's verify_seal. Returns
 * CUSEAL_POREP_OK for a valid proof, CUSEAL_POREP_INVALID for a well-formed
 * proof that does not verify, an error code otherwise (proof bytes that do
 * not decode are CUSEAL_POREP_ERR_BAD_INPUT, as in rust-fil-proofs).
 *   registered_proof: abi.RegisteredSealProof (e.g. 5 = StackedDrg2KiBV1_1,
 *                     8 = StackedDrg32GiBV1_1)
 *   comm_r, comm_d, ticket, seed: 32 bytes each (comm_r/comm_d as
 *                     filecoin-ffi passes them: the field elements' bytes)
 *   proof, proof_len: seal_commit_phase2's output: 192 bytes per
 *                     partition, or for NI-PoRep (registered proofs 15..19)
 *                     the SnarkPack aggregate of the sector's partition
 *                     proofs (14164 bytes for 13 partitions); another
 *                     length is bad input saying which
 *   opts:             NULL for the defaults (params_dir, cancel and logging
 *                     are used, backend is checked; the rest is ignored) */
int cuseal_porep_verify_seal(int64_t registered_proof, CUSEAL_POREP_IN uint8_t* comm_r,
                             CUSEAL_POREP_IN uint8_t* comm_d, uint64_t miner_id, uint64_t sector_number,
                             CUSEAL_POREP_IN uint8_t* ticket, CUSEAL_POREP_IN uint8_t* seed,
                             CUSEAL_POREP_IN uint8_t* proof, size_t proof_len,
                             CUSEAL_POREP_IN cuseal_porep_options* opts, char** err_msg);

#define CUSEAL_POREP_GEN_FORCE 1u /* generate even when the memory estimate exceeds MemAvailable */

/* cuseal_porep_generate_test_params: INSECURE Groth16 parameters for
 * registered_proof's circuit, written into dir under the Filecoin file
 * names (`cuseal params generate`; paramfile.GenerateTestParams). FOR TESTS
 * ONLY: anyone who knows the seed can forge proofs.
 *   seed:  32 bytes of toxic-waste seed, or NULL for the CLI's default
 *          ("cuseal-porep-test", zero-padded)
 *   flags: CUSEAL_POREP_GEN_* ; without CUSEAL_POREP_GEN_FORCE a setup whose
 *          estimated memory exceeds MemAvailable is refused (bad input)
 *   opts:  NULL, or logging options; a cancel handle is checked before the
 *          setup starts only (the setup itself cannot be interrupted)
 *   *json_out: {"params", "vk", "meta", "stamp", "r1cs_digest", "reused",
 *          "constraints", "inputs", "aux", "not_for_production" (always
 *          true: these parameters are for tests)}; free with
 *          cuseal_porep_string_free.
 * Matching parameters from the same seed are reused; parameters from
 * another seed or of unknown origin are never overwritten (bad input). */
int cuseal_porep_generate_test_params(int64_t registered_proof, CUSEAL_POREP_IN char* dir,
                                      CUSEAL_POREP_IN uint8_t* seed, uint32_t flags,
                                      CUSEAL_POREP_IN cuseal_porep_options* opts, char** json_out, char** err_msg);

/* Circuits of cuseal_porep_generate_circuit_test_params: which family
 * registered_proof is a number of. */
#define CUSEAL_POREP_CIRCUIT_SEAL 0   /* abi.RegisteredSealProof: PoRep */
#define CUSEAL_POREP_CIRCUIT_POST 1   /* abi.RegisteredPoStProof: WinningPoSt 0..4, WindowPoSt 10..14 */
#define CUSEAL_POREP_CIRCUIT_UPDATE 2 /* abi.RegisteredUpdateProof: SnapDeals */

/* cuseal_porep_generate_circuit_test_params (ABI 3):
 * cuseal_porep_generate_test_params for any circuit (`cuseal params
 * generate --circuit porep|winning-post|window-post|update`): circuit is
 * one of CUSEAL_POREP_CIRCUIT_*, registered_proof a number of that family
 * (CUSEAL_POREP_CIRCUIT_SEAL behaves exactly as generate_test_params).
 * Every other argument, the JSON and the errors are generate_test_params'.
 * FOR TESTS ONLY. */
int cuseal_porep_generate_circuit_test_params(int32_t circuit, int64_t registered_proof, CUSEAL_POREP_IN char* dir,
                                              CUSEAL_POREP_IN uint8_t* seed, uint32_t flags,
                                              CUSEAL_POREP_IN cuseal_porep_options* opts, char** json_out,
                                              char** err_msg);

/* ---- inputs shared by the PoSt, SnapDeals and aggregation calls -------- */

/* One variable-length byte string the caller passes in (filecoin-ffi's
 * c_slice: a vanilla proof, a partition proof, a seal proof): len bytes at
 * ptr. ptr may be NULL only when len is 0. Arrays of them are passed as a
 * pointer to the first element and a count. */
typedef struct {
	const uint8_t* ptr;
	size_t len;
} cuseal_porep_bytes;

/* A challenged sector as the PoSt verifier sees it (filecoin-ffi's
 * PublicReplicaInfo, go-state-types' proof.SectorInfo): its number and
 * comm_r, the 32 bytes of its sealed CID's commitment
 * (commcid.CIDToReplicaCommitmentV1). 40 bytes, no padding. */
typedef struct {
	uint64_t sector_number;
	uint8_t comm_r[32];
} cuseal_porep_sector_info;

/* One sealed sector of an aggregate (filecoin-ffi's AggregationInputs,
 * go-state-types' proof.AggregateSealVerifyInfo): the commitments as
 * filecoin-ffi passes them (the field elements' bytes), the sector number,
 * the ticket (Randomness) and the seed (InteractiveRandomness). 136 bytes,
 * no padding. */
typedef struct {
	uint8_t comm_r[32];
	uint8_t comm_d[32];
	uint64_t sector_number;
	uint8_t ticket[32];
	uint8_t seed[32];
} cuseal_porep_aggregation_input;

/* ---- WindowPoSt and WinningPoSt ---------------------------------------- */

/* The PoSt calls take the registered PoSt proof (go-state-types'
 * abi.RegisteredPoStProof: e.g. 0 = StackedDrgWinning2KiBV1,
 * 3 = StackedDrgWinning32GiBV1, 10 = StackedDrgWindow2KiBV1_1,
 * 13 = StackedDrgWindow32GiBV1_1), the chain's PoSt randomness
 * (randomness, randomness_len: 32 bytes that must be a canonical
 * BLS12-381 scalar, little-endian and below the field's modulus, as
 * rust-fil-proofs requires (as_safe_commitment; filecoin-ffi passes the
 * bytes through): Lotus ensures it by clearing the top two bits,
 * randomness[31] &= 0x3f; any value below the modulus is accepted, another
 * is bad input "... is not a canonical field element (mask byte 31 with
 * 0x3f)") and the miner's actor ID (miner_id). rust-fil-proofs' PoSt
 * circuits and leaf challenges do not include the miner: it selects the
 * WinningPoSt sector (generate_winning_post_sector_challenge) and nothing
 * else — the proving and verify calls accept it, as filecoin-ffi's do, but
 * it changes neither a proof nor a verdict. A vanilla
 * proof is one sector's bytes exactly as filecoin-ffi's
 * generate_single_vanilla_proof returns them (bincode of FallbackPoSt's
 * vanilla proof; for 2 KiB sectors 5680 bytes for WindowPoSt, 36816 for
 * WinningPoSt). */

/* cuseal_porep_generate_winning_post_sector_challenge: filecoin-ffi's
 * generate_winning_post_sector_challenge (porep.GenerateWinningPoStSectorChallenge).
 *   registered_proof: a WinningPoSt proof
 *   sector_set_len:   the number of eligible sectors (at least 1)
 *   *indices_out, *indices_len: the indices, among the eligible sectors in
 *                     the caller's order, of the challenged sectors (one
 *                     today); free with cuseal_porep_u64_array_free. */
int cuseal_porep_generate_winning_post_sector_challenge(int64_t registered_proof, CUSEAL_POREP_IN uint8_t* randomness,
                                                        size_t randomness_len, uint64_t sector_set_len,
                                                        uint64_t miner_id, uint64_t** indices_out,
                                                        size_t* indices_len, char** err_msg);

/* cuseal_porep_generate_fallback_sector_challenges: filecoin-ffi's
 * generate_fallback_sector_challenges (porep.GeneratePoStFallbackSectorChallenges):
 * the leaf challenges each sector's vanilla proof must answer — 10 per
 * sector for WindowPoSt; for WinningPoSt only the first sector is
 * challenged, with 66.
 *   sector_ids, sector_ids_len: the sector numbers (at least one)
 *   *sector_ids_out, *sector_ids_out_len: the challenged sectors in
 *                     ascending order, each once, as filecoin-ffi returns
 *                     them (rust-fil-proofs' BTreeMap; a sector given twice
 *                     has the challenges of its last position)
 *   *challenges_out, *challenges_stride: challenges_out[i * stride + j] is
 *                     leaf challenge j of sector_ids_out[i]
 *                     (sector_ids_out_len × stride entries).
 * Free both arrays with cuseal_porep_u64_array_free. */
int cuseal_porep_generate_fallback_sector_challenges(int64_t registered_proof, CUSEAL_POREP_IN uint8_t* randomness,
                                                     size_t randomness_len, CUSEAL_POREP_IN uint64_t* sector_ids,
                                                     size_t sector_ids_len, uint64_t miner_id,
                                                     uint64_t** sector_ids_out, size_t* sector_ids_out_len,
                                                     uint64_t** challenges_out, size_t* challenges_stride,
                                                     char** err_msg);

/* cuseal_porep_generate_winning_post_with_vanilla: filecoin-ffi's
 * generate_winning_post_with_vanilla (porep.GenerateWinningPoStWithVanilla).
 *   vanilla_proofs, vanilla_proofs_len: exactly one vanilla proof, the
 *                     challenged sector's (66 inclusion proofs)
 *   opts:             NULL for the defaults; params_dir must hold the
 *                     WinningPoSt .params and .vk
 *   *proof_out, *proof_len: 192 bytes (one Groth16 proof, filecoin-ffi's
 *                     PoStProof.proof of registered_proof); free with
 *                     cuseal_porep_proof_free.
 * The vanilla proof is checked against the randomness's challenges before
 * any SNARK work, and the proof is verified before it is returned. */
int cuseal_porep_generate_winning_post_with_vanilla(int64_t registered_proof, CUSEAL_POREP_IN uint8_t* randomness,
                                                    size_t randomness_len, uint64_t miner_id,
                                                    CUSEAL_POREP_IN cuseal_porep_bytes* vanilla_proofs,
                                                    size_t vanilla_proofs_len,
                                                    CUSEAL_POREP_IN cuseal_porep_options* opts, uint8_t** proof_out,
                                                    size_t* proof_len, char** err_msg);

/* cuseal_porep_generate_window_post_with_vanilla: filecoin-ffi's
 * generate_window_post_with_vanilla (porep.GenerateWindowPoStWithVanilla).
 *   vanilla_proofs, vanilla_proofs_len: one vanilla proof per sector, in
 *                     ascending sector number (the order the verifier
 *                     lists them); a sector twice or out of order is bad
 *                     input naming both indices
 *   *proof_out, *proof_len: 192 bytes per partition (sectors per partition:
 *                     2 for 2 KiB, 2349 for 32 GiB; the last padded),
 *                     concatenated in partition order; every partition
 *                     verified before it is returned. */
int cuseal_porep_generate_window_post_with_vanilla(int64_t registered_proof, CUSEAL_POREP_IN uint8_t* randomness,
                                                   size_t randomness_len, uint64_t miner_id,
                                                   CUSEAL_POREP_IN cuseal_porep_bytes* vanilla_proofs,
                                                   size_t vanilla_proofs_len,
                                                   CUSEAL_POREP_IN cuseal_porep_options* opts, uint8_t** proof_out,
                                                   size_t* proof_len, char** err_msg);

/* cuseal_porep_generate_single_window_post_with_vanilla: filecoin-ffi's
 * generate_single_window_post_with_vanilla
 * (porep.GenerateSinglePartitionWindowPoStWithVanilla): one partition's
 * proof from the vanilla proofs of that partition's sectors (at most the
 * sectors per partition, ascending; fewer are padded).
 *   partition_index:  the partition's index in the whole WindowPoSt. As in
 *                     rust-fil-proofs it enters neither the public inputs
 *                     nor the challenges (the vanilla proofs carry those),
 *                     and, as in rust-fil-proofs and filecoin-ffi, it is
 *                     not checked against a number of sectors: it only
 *                     selects, with test_only_randomness_seed, this
 *                     partition's blinding, so that the bytes equal
 *                     partition partition_index of
 *                     generate_window_post_with_vanilla's. At most 2^24
 *                     (16777216); more is bad input
 *   *proof_out, *proof_len: 192 bytes (filecoin-ffi's PartitionSnarkProof),
 *                     verified before it is returned. */
int cuseal_porep_generate_single_window_post_with_vanilla(int64_t registered_proof,
                                                          CUSEAL_POREP_IN uint8_t* randomness, size_t randomness_len,
                                                          uint64_t miner_id,
                                                          CUSEAL_POREP_IN cuseal_porep_bytes* vanilla_proofs,
                                                          size_t vanilla_proofs_len, size_t partition_index,
                                                          CUSEAL_POREP_IN cuseal_porep_options* opts,
                                                          uint8_t** proof_out, size_t* proof_len, char** err_msg);

/* cuseal_porep_merge_window_post_partition_proofs: filecoin-ffi's
 * merge_window_post_partition_proofs (porep.MergeWindowPoStPartitionProofs):
 * the partition proofs concatenated in the order given, which must be
 * partition order. Each must be 192 bytes; registered_proof must be a
 * WindowPoSt proof. It takes no sectors or randomness, so it cannot verify
 * the result: each partition proof was verified when it was made, and
 * cuseal_porep_verify_window_post checks the whole.
 *   *proof_out, *proof_len: 192 × partition_proofs_len bytes. */
int cuseal_porep_merge_window_post_partition_proofs(int64_t registered_proof,
                                                    CUSEAL_POREP_IN cuseal_porep_bytes* partition_proofs,
                                                    size_t partition_proofs_len, uint8_t** proof_out,
                                                    size_t* proof_len, char** err_msg);

/* cuseal_porep_verify_winning_post: filecoin-ffi's verify_winning_post
 * (porep.VerifyWinningPoSt). Returns CUSEAL_POREP_OK for a valid proof,
 * CUSEAL_POREP_INVALID for a well-formed proof that does not verify, an
 * error code otherwise (a proof of the wrong length or whose bytes are not
 * curve points, a window proof type, not exactly one sector, a comm_r that
 * is not a canonical field element, a missing .vk).
 *   sectors, sectors_len: the challenged sector (exactly one)
 *   proof, proof_len:     192 bytes
 *   opts:                 NULL for the defaults (params_dir — the .vk is
 *                         enough —, cancel and logging are used) */
int cuseal_porep_verify_winning_post(int64_t registered_proof, CUSEAL_POREP_IN uint8_t* randomness,
                                     size_t randomness_len, CUSEAL_POREP_IN cuseal_porep_sector_info* sectors,
                                     size_t sectors_len, CUSEAL_POREP_IN uint8_t* proof, size_t proof_len,
                                     uint64_t miner_id, CUSEAL_POREP_IN cuseal_porep_options* opts, char** err_msg);

/* cuseal_porep_verify_window_post: filecoin-ffi's verify_window_post
 * (porep.VerifyWindowPoSt): sectors in any order (the verifier sorts them
 * by number, as Rust's BTreeMap; a sector listed twice is bad input),
 * proof the 192 × partitions bytes of generate_window_post_with_vanilla
 * or of merge_window_post_partition_proofs. Results as
 * cuseal_porep_verify_winning_post. */
int cuseal_porep_verify_window_post(int64_t registered_proof, CUSEAL_POREP_IN uint8_t* randomness,
                                    size_t randomness_len, CUSEAL_POREP_IN cuseal_porep_sector_info* sectors,
                                    size_t sectors_len, CUSEAL_POREP_IN uint8_t* proof, size_t proof_len,
                                    uint64_t miner_id, CUSEAL_POREP_IN cuseal_porep_options* opts, char** err_msg);

/* ---- SnapDeals (empty-sector update) ----------------------------------- */

/* cuseal_porep_generate_empty_sector_update_proof_with_vanilla:
 * filecoin-ffi's generate_empty_sector_update_proof_with_vanilla
 * (porep.GenerateUpdateProofWithVanilla, Lotus's ProveReplicaUpdate2).
 *   registered_proof: abi.RegisteredUpdateProof (0 = StackedDrg2KiBV1,
 *                     3 = StackedDrg32GiBV1, ...)
 *   vanilla_proofs, vanilla_proofs_len: one vanilla partition proof per
 *                     partition, in partition order (1 for 2 KiB, 4 for
 *                     8 MiB, 16 from 512 MiB on), exactly as filecoin-ffi's
 *                     generate_partition_proofs returns them
 *   comm_r_old, comm_r_new, comm_d_new: 32 bytes each, as filecoin-ffi
 *                     passes them (the field elements' bytes: the old and
 *                     new sealed and the new unsealed commitments)
 *   *proof_out, *proof_len: 192 bytes per partition, concatenated; every
 *                     partition verified before it is returned.
 * Each vanilla proof is parsed and checked against the commitments before
 * any SNARK work. */
int cuseal_porep_generate_empty_sector_update_proof_with_vanilla(
    int64_t registered_proof, CUSEAL_POREP_IN cuseal_porep_bytes* vanilla_proofs, size_t vanilla_proofs_len,
    CUSEAL_POREP_IN uint8_t* comm_r_old, CUSEAL_POREP_IN uint8_t* comm_r_new, CUSEAL_POREP_IN uint8_t* comm_d_new,
    CUSEAL_POREP_IN cuseal_porep_options* opts, uint8_t** proof_out, size_t* proof_len, char** err_msg);

/* cuseal_porep_verify_empty_sector_update_proof: filecoin-ffi's
 * verify_empty_sector_update_proof (porep.VerifyReplicaUpdate): proof is
 * 192 × partitions bytes. Results as cuseal_porep_verify_winning_post. */
int cuseal_porep_verify_empty_sector_update_proof(int64_t registered_proof, CUSEAL_POREP_IN uint8_t* proof,
                                                  size_t proof_len, CUSEAL_POREP_IN uint8_t* comm_r_old,
                                                  CUSEAL_POREP_IN uint8_t* comm_r_new,
                                                  CUSEAL_POREP_IN uint8_t* comm_d_new,
                                                  CUSEAL_POREP_IN cuseal_porep_options* opts, char** err_msg);

/* ---- SnarkPack aggregation of seal proofs ------------------------------ */

/* cuseal_porep_aggregate_seal_proofs: filecoin-ffi's aggregate_seal_proofs
 * (porep.AggregateSealProofs, filecoin-proofs aggregate_seal_commit_proofs).
 *   registered_proof:       the sectors' abi.RegisteredSealProof
 *   registered_aggregation: abi.RegisteredAggregationProof; only
 *                           1 = SnarkPackV2 is supported
 *   miner_id:               the sectors' miner
 *   inputs, seal_proofs, sectors_len: per sector its inputs and its C2
 *                           output (192 bytes per partition), in the order
 *                           the aggregate binds them (at least one)
 *   opts:                   params_dir must hold the seal proof's .vk and
 *                           the SRS v28-fil-inner-product-v1.srs
 *   *aggregate_out, *aggregate_len: bellperson's AggregateProof bytes (the
 *                           partition proofs padded to a power of two);
 *                           free with cuseal_porep_proof_free.
 * The aggregate binds comm_r and seed of each sector (filecoin-ffi passes
 * only those); cuseal then verifies it against all the inputs, as
 * cuseal_porep_verify_aggregate_seal_proof would, before returning it:
 * seal proofs that are not valid for their sectors give
 * CUSEAL_POREP_INVALID. */
int cuseal_porep_aggregate_seal_proofs(int64_t registered_proof, int64_t registered_aggregation, uint64_t miner_id,
                                       CUSEAL_POREP_IN cuseal_porep_aggregation_input* inputs,
                                       CUSEAL_POREP_IN cuseal_porep_bytes* seal_proofs, size_t sectors_len,
                                       CUSEAL_POREP_IN cuseal_porep_options* opts, uint8_t** aggregate_out,
                                       size_t* aggregate_len, char** err_msg);

/* cuseal_porep_verify_aggregate_seal_proof: filecoin-ffi's
 * verify_aggregate_seal_proof (porep.VerifyAggregateSeals): the aggregate
 * of the seal proofs of inputs[0..inputs_len) (in that order) by miner_id.
 * Results as cuseal_porep_verify_winning_post (an aggregate that does not
 * parse is bad input naming the field and byte offset). */
int cuseal_porep_verify_aggregate_seal_proof(int64_t registered_proof, int64_t registered_aggregation,
                                             uint64_t miner_id, CUSEAL_POREP_IN uint8_t* aggregate,
                                             size_t aggregate_len,
                                             CUSEAL_POREP_IN cuseal_porep_aggregation_input* inputs,
                                             size_t inputs_len, CUSEAL_POREP_IN cuseal_porep_options* opts,
                                             char** err_msg);

/* ---- freeing what the library returned -------------------------------- */

void cuseal_porep_proof_free(uint8_t* proof);
void cuseal_porep_string_free(char* s);
void cuseal_porep_u64_array_free(uint64_t* a);

#ifdef __cplusplus
}
#endif

#endif /* CUSEAL_POREP_H */
