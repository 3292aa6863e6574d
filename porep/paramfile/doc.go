// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package paramfile is the one home of the Filecoin Groth16 parameter files
// of every circuit — PoRep (v28-stacked-proof-of-replication-…), PoSt
// (v28-proof-of-spacetime-fallback-…) and SnapDeals
// (v28-empty-sector-update-…) .params / .vk / .meta, as rust-fil-proofs
// 19.1.0 names them:
//
//   - identity: Circuit, which the registered proofs' configurations
//     implement (*stacked.SectorConfig, *post.Config, *update.Config): file
//     names, identifier, public inputs, sector size, shape, blank circuit;
//   - loading: LoadParams, LoadVK and LoadProvingKeys open a parameter
//     directory's files once per process (keyed by path, size and mtime:
//     the parameter residency; Evict drops them) and check them against
//     the circuit (regular readable files, the .meta's sector size, IC/L/
//     domain counts, the .vk being the .params file's key, a mismatch
//     naming the first differing field); errors name the file and wrap
//     ErrParamsNotFound or ErrBadInput; ParamsBytes and EstimateParamsBytes
//     size what a loaded .params keeps resident;
//   - status: the official table (rust-fil-proofs parameters.json and
//     srs-inner-product.json), ParamsStatus (official, test, mismatch,
//     unknown; the Filecoin digest, BLAKE2b-512[:16]), the digest cache
//     file (WithDigestCacheFile), RequireProductionParams and the
//     TEST-parameters warning;
//   - test parameters: GenerateTestParams writes INSECURE parameters of any
//     circuit from a toxic-waste seed with a "<stem>.cuseal-test.json"
//     stamp (TestStamp), EstimateTestParamsMemory, CleanPartialTestParams.
//
// porep's provers and verifiers of every family load their keys here
// (porep.Keys) and apply the production policy
// (FIL_PROOFS_VERIFY_PRODUCTION_PARAMS) on top; the cli's params commands
// and libcuseal's test-parameter export call it directly. ErrBadInput and
// ErrParamsNotFound are porep's errors of the same names (one value each).
package paramfile
