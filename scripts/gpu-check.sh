#!/usr/bin/env bash
# gpu-check.sh — the native GPU checks in one short run, for a machine with a
# CUDA device (sized to fit a ~10 minute device slot):
#   1. build libcuseal_native for sm_90 only (or $CUDA_ARCHS) into build/native
#   2. ctest -L gpu (MSM G1/G2 and NTT on device 0 vs gnark-crypto vectors and
#      the host emulation; concurrency on one device; Groth16 GPU test)
#   3. go test -tags cuda -run GPU ./bridge
#   4. bench_native (MSM 2^16..2^$MSM_LOG, NTT 2^16..2^$NTT_LOG) and the Go GPU benchmarks
# Output goes to stdout and, when $OUT is set, to $OUT/gpu-check.log.
set -euo pipefail
cd "$(dirname "$0")/.."
ARCHS=${CUDA_ARCHS:-90}
MSM_LOG=${MSM_LOG:-22}
NTT_LOG=${NTT_LOG:-26}
LOG=${OUT:+$OUT/gpu-check.log}
exec > >(tee ${LOG:-/dev/null}) 2>&1

nvidia-smi -L || true
cmake -S . -B build/native -DCUSEAL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$ARCHS" -DCMAKE_BUILD_TYPE=Release
cmake --build build/native -j"$(nproc)"
ctest --test-dir build/native -L gpu --output-on-failure
go test -count=1 -tags cuda -run 'GPU|Version' -v ./bridge
build/native/bench_native testdata/native "$MSM_LOG" "$NTT_LOG"
go test -count=1 -tags cuda -run '^$' -bench 'GPU' -benchtime 3x ./bridge
