// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package paramfile is the Filecoin Groth16 parameter files of a sector's
// circuit (v28-stacked-proof-of-replication-….params / .vk / .meta, as
// rust-fil-proofs 19.1.0 names them, stacked.SectorConfig.ParameterPaths):
//
//   - loading: LoadParams, LoadVK and LoadProvingKeys open a parameter
//     directory's files once per process (keyed by path, size and mtime:
//     the parameter residency) and check them against the circuit (.meta
//     sector size, IC/L/domain counts, the .vk being the .params file's
//     key); errors name the file and wrap ErrParamsNotFound or ErrBadInput;
//   - status: the official table (rust-fil-proofs parameters.json and
//     srs-inner-product.json), ParamsStatus (official, test, mismatch,
//     unknown; the Filecoin digest, BLAKE2b-512[:16]), the digest cache
//     file (WithDigestCacheFile), RequireProductionParams and the
//     TEST-parameters warning;
//   - test parameters: GenerateTestParams writes INSECURE parameters from a
//     toxic-waste seed with a "<stem>.cuseal-test.json" stamp (TestStamp),
//     EstimateTestParamsMemory, CleanPartialTestParams.
//
// porep's SealCommitPhase2, VerifySeal and aggregate verification load
// their parameters here and apply the production policy
// (FIL_PROOFS_VERIFY_PRODUCTION_PARAMS) on top; the cli's params commands
// and libcuseal's test-parameter export call it directly. ErrBadInput and
// ErrParamsNotFound are porep's errors of the same names (one value each).
package paramfile
