// SPDX-License-Identifier: Apache-2.0 OR MIT

/*
 * cuseal_porep.h — the C ABI of libcuseal (libcuseal.so / libcuseal.a, built
 * from the Go package libcuseal/ by `./build.sh lib`): Filecoin PoRep
 * commit phase 2 and seal verification, for Rust, C/C++ and Python callers.
 * It mirrors filecoin-ffi's seal_commit_phase2 / verify_seal and the Go API
 * in package porep (SealCommitPhase2, VerifySeal) and porep/paramfile
 * (GenerateTestParams).
 *
 * (include/cuseal_native.h is a different, lower-level ABI: the native MSM/NTT
 * core used by the Go bridge. The two use distinct names and can be
 * included together.)
 *
 * Conventions (every function):
 *  - Returns an int status: CUSEAL_POREP_OK (0) or one of the codes below,
 *    the classes of the cuseal CLI's exit codes. When the status is not OK
 *    and err_msg is not NULL, *err_msg receives a NUL-terminated one-line
 *    message (the Go API's error text, unchanged) that the caller frees with
 *    cuseal_porep_string_free; on OK, *err_msg is set to NULL.
 *  - Every buffer the library returns has exactly one free function:
 *    proofs cuseal_porep_proof_free, strings (messages, JSON)
 *    cuseal_porep_string_free, cancel handles cuseal_porep_cancel_free. All
 *    accept NULL. Never free them with free(): the library may use its own
 *    allocator.
 *  - Caller memory is only read during the call and never retained.
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
 *  - ABI versioning: CUSEAL_POREP_ABI_VERSION is bumped when a function
 *    changes meaning or a struct changes layout; cuseal_porep_abi_version()
 *    returns the library's. Compare them before the first call.
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

#define CUSEAL_POREP_ABI_VERSION 1

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
/* The proof does not verify (cuseal_porep_verify_seal), or a proof that
 * cuseal_porep_seal_commit_phase2 produced failed its own verification. */
#define CUSEAL_POREP_INVALID 1
/* The caller's input: malformed or inconsistent C1 output, a wrong sector
 * number or miner, missing parameter files or parameters for another
 * circuit, a bad option (unknown backend, wrong struct_size), commitments
 * that are not canonical field elements, undecodable proof bytes, NULL
 * where a pointer is required, an unsupported registered proof (NI-PoRep). */
#define CUSEAL_POREP_ERR_BAD_INPUT 2
/* A failure of cuseal or its environment (I/O, out of memory, a panic). */
#define CUSEAL_POREP_ERR_INTERNAL 3
/* The call was cancelled through its cuseal_porep_cancel handle. */
#define CUSEAL_POREP_ERR_CANCELLED 4

/* ---- cancellation ----------------------------------------------------- */

/* A cancel handle is passed to calls in cuseal_porep_options.cancel. Once
 * cuseal_porep_cancel_trigger is called (from any thread, at any time), the
 * calls using it stop at the next check inside synthesis or proving
 * (within seconds: the checks sit between gadgets and proving stages) and return
 * CUSEAL_POREP_ERR_CANCELLED; later calls with it return that at once.
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
 * ("level=INFO msg=... key=value ..."), valid during the call only. */
typedef void (*cuseal_porep_log_fn)(void* user, int32_t level, const char* message);

typedef struct {
	/* sizeof(cuseal_porep_options), set by cuseal_porep_options_init: lets
	 * a later library version accept structs from older callers. */
	uint32_t struct_size;
	/* Assignments alive at once (0 = 1); 2 overlaps synthesis with proving
	 * (32 GiB: ~16 GiB each). */
	uint32_t partitions_in_flight;
	/* Directory of the Filecoin parameter files (.params/.vk); NULL or ""
	 * = $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters. */
	const char* params_dir;
	/* "auto" (NULL or "": CUDA when built in and a device is found, else
	 * CPU), "cpu" or "cuda" (libraries built with -tags cuda only). */
	const char* backend;
	/* Records at or above log_level go to log_fn, or to stderr when log_fn
	 * is NULL; CUSEAL_POREP_LOG_OFF (the default) drops them all. */
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
 * builds)}. Free with cuseal_porep_string_free. */
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
 *   opts:             NULL for the defaults (params_dir, cancel and logging
 *                     are used; the rest is ignored) */
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
 *          "constraints", "inputs", "aux"}; free with cuseal_porep_string_free.
 * Matching parameters from the same seed are reused; parameters from
 * another seed or of unknown origin are never overwritten (bad input). */
int cuseal_porep_generate_test_params(int64_t registered_proof, CUSEAL_POREP_IN char* dir,
                                      CUSEAL_POREP_IN uint8_t* seed, uint32_t flags,
                                      CUSEAL_POREP_IN cuseal_porep_options* opts, char** json_out, char** err_msg);

/* ---- freeing what the library returned -------------------------------- */

void cuseal_porep_proof_free(uint8_t* proof);
void cuseal_porep_string_free(char* s);

#ifdef __cplusplus
}
#endif

#endif /* CUSEAL_POREP_H */
