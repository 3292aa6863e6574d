#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# gpu-check.sh — GPU tests and benchmarks of the native core (MSM/NTT) and the
# GPU Groth16 prover, run on a GPU machine from prebuilt binaries, in < 10 min,
# without network access or a Go toolchain there. One log holds every figure.
#
#   scripts/gpu-check.sh build [DIR]   (here, with nvcc + Go) build the CUDA
#                                      library and every binary into DIR
#                                      (default build/gpu-check) and DIR.tar.xz
#   scripts/gpu-check.sh run [DIR [GROUP...]]
#                                      (on the GPU machine) run them; writes
#                                      DIR/gpu-check.log (or $GPU_CHECK_LOG);
#                                      GROUPs (default all): tests bench prover c2;
#                                      supraseal runs only when named (see 7.)
#   scripts/gpu-check.sh dry-run [DIR] run with the device checks forced off:
#                                      every step must say it skipped, and why
#   scripts/gpu-check.sh params [DIR]  (on the GPU machine, before `run`, not
#                                      timed) generate the 2 KiB test parameters
#                                      into DIR/params for the c2 group
#   scripts/gpu-check.sh               no arguments: run the bundle in
#                                      build/gpu-check if there is one, else
#                                      (with nvcc, cmake and Go on the GPU
#                                      machine) build it in place, then run
# The log goes to $OUT/gpu-check.log when $OUT is set (a device slot
# returns what is written under $OUT). Device-slot recipe: here
#   scripts/gpu-check.sh build        (nvcc + Go; ~14 MB build/gpu-check.tar.xz)
# then on the slot, carrying build/gpu-check.tar.xz:
#   tar -xJf build/gpu-check.tar.xz -C build && build/gpu-check/gpu-check.sh run build/gpu-check
#
# What `run` does, each step with its own time limit; the default budget
# (GPU_CHECK_BUDGET=540 s) leaves a 10-minute device command a minute for
# unpacking and the log. Kernel sets: the CUDA build's default is sppark's MSM/NTT;
# CUSEAL_KERNELS=reference steps run ours on the same device, for comparison.
#   1. nvidia-smi and the native library's device list
#   2. CTest GPU binaries: test_gpu (MSM G1/G2, NTT vs gnark-crypto vectors;
#      windows 5/12 run the reference kernels), test_gpu_scale (MSM linearity
#      at 2^24 and 2^27, window cross-check, NTT round trip 2^27 sppark vs
#      reference, G2 MSM on a nearly full device), test_groth16_gpu (prover on
#      device 0 vs an independent reference: split modes, batches,
#      pinned/streamed SRS, concurrent calls)
#   3. Go test binaries (go test -c -tags cuda): bridge (MSM/NTT/prover GPU
#      tests vs gnark-crypto, sppark vs reference), porep/groth16 (CUDA backend
#      proofs byte-equal to the CPU backend's). A Go step passes only when a
#      GPU test passed in it; only skips (no device) → SKIPPED.
#   4. bench_native: MSM G1 2^16..2^$MSM_LOG (24), G2 up to 2^22, NTT
#      2^16..2^$NTT_LOG (27), default kernels then CUSEAL_KERNELS=reference;
#      the bridge's Go GPU benchmarks (MSM/NTT, 3 runs)
#   5. bench_groth16: per-stage prover times for the 2^22 shape (2 KiB PoRep
#      domain) and the synthetic 2^27 shape (a 32 GiB partition), B_G2 on the
#      device, default kernels and reference; plus 2^22 with the split disabled
#   6. porep test binary: 2 KiB C2 GPU vs CPU bytes, time of each, concurrent
#      proofs. Needs the 2 KiB test parameters (minutes to generate, ~1.1 GB):
#      CUSEAL_TEST_PARAMS_DIR, or DIR/params from `gpu-check.sh params` run
#      before; without them the step is SKIPPED with that reason.
#   7. (group supraseal, when the bundle has bin/cuseal-supraseal: ./build.sh supraseal
#      before `build`) cuseal's CUDA backend vs supraseal-c2: the 2 KiB C2 with cpu, cuda
#      and supraseal from one process (proofs must be byte-identical), then the synthetic
#      2^22 and 2^27 shapes (`cuseal bench groth16`, one process per backend) and the
#      supraseal/cuda time ratios. The 2^27 parameters are a 47 GiB file written to
#      $GPU_CHECK_SYNTH_DIR (default $TMPDIR) and removed afterwards; give this group about
#      8 minutes of its own (GPU_CHECK_BUDGET=480 ... run DIR supraseal).
# A summary of the figures closes the log. Exit status: 0 when every step that
# ran passed (skips are not failures), 1 otherwise.
#
# Environment: CUSEAL_ARCHS or CUDA_ARCHS (CMake CUDA architectures for `build`, default
# "90" — the H200; use the CMakeLists default list for a release bundle),
# GPU_CHECK_NATIVE (use an existing CMake build dir instead of configuring
# build/native with nvcc — e.g. a CPU-only build to rehearse the bundle),
# GPU_CHECK_BUDGET (seconds for `run`, default 540), CUSEAL_TEST_DEVICE,
# CUDAHOSTCXX (nvcc's host compiler for `build`, passed as -ccbin; default g++-11 on PATH),
# CUSEAL_SCALE_LG (largest test_gpu_scale size, default 27),
# MSM_LOG / NTT_LOG (largest bench_native sizes, default 24 / 27).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cmd=${1:-}
DIR=${2:-$ROOT/build/gpu-check}
# The shared 2 KiB test parameters' toxic seed (testsupport/testparams.Seed, build.sh's
# TEST_PARAMS_SEED): the porep GPU tests reuse only parameters stamped with it.
TEST_PARAMS_SEED=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

die() { printf 'gpu-check: %s\n' "$*" >&2; exit 2; }

# ---------------------------------------------------------------------------------------------
build() {
	command -v go >/dev/null || die "go not found"
	local native=${GPU_CHECK_NATIVE:-} archs=${CUSEAL_ARCHS:-${CUDA_ARCHS:-90}} hostcxx=()
	mkdir -p "$DIR/bin" "$DIR/testdata" || die "cannot create $DIR"
	if [ -z "$native" ]; then
		command -v nvcc >/dev/null || die "nvcc not found (scripts/install-nvcc.sh)"
		local cxx=${CUDAHOSTCXX:-$(command -v g++-11 || true)}
		[ -n "$cxx" ] && hostcxx=(-DCMAKE_CUDA_HOST_COMPILER="$cxx")
		native=$ROOT/build/native
		must cmake -S "$ROOT" -B "$native" -DCUSEAL_CUDA=ON -DCMAKE_BUILD_TYPE=Release \
			-DCMAKE_CUDA_ARCHITECTURES="$archs" "${hostcxx[@]}"
	else
		# GPU_CHECK_NATIVE=DIR: an existing CMake build (e.g. CPU-only, to
		# rehearse the bundle).
		native=$(cd "$native" && pwd) || die "GPU_CHECK_NATIVE: no such directory"
	fi
	# go's build cache keys on CGO_LDFLAGS, not on pkg-config's output: naming the
	# directory there too rebuilds bridge against it (never a bridge that a `go
	# build -tags cuda` by hand, with another PKG_CONFIG_PATH, left in the cache).
	export CGO_LDFLAGS="-L$native ${CGO_LDFLAGS:-}"
	# bridge/*.go (tag cuda) links the library through pkg-config: the cuseal.pc
	# CMake writes into the build directory.
	export PKG_CONFIG_PATH="$native${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
	must cmake --build "$native" -j "${JOBS:-2}" --target test_gpu test_gpu_scale test_groth16_gpu bench_native bench_groth16
	must cp "$native"/test_gpu "$native"/test_gpu_scale "$native"/test_groth16_gpu "$native"/bench_native \
		"$native"/bench_groth16 "$DIR/bin/"
	# The pure-Go CLI, for `gpu-check.sh params` (2 KiB test parameters on the GPU machine).
	(cd "$ROOT" && CGO_ENABLED=0 go build -ldflags='-s -w' -o "$DIR/bin/cuseal" ./cli/cuseal) || die "go build ./cli/cuseal failed"
	must cp "$ROOT"/testdata/native/*.bin "$DIR/testdata/"
	local pkg
	for pkg in bridge:./bridge groth16:./porep/groth16 porep:./porep; do
		(cd "$ROOT" && go test -c -tags cuda -ldflags='-s -w' -o "$DIR/bin/${pkg%%:*}.test" "${pkg#*:}") ||
			die "go test -c -tags cuda ${pkg#*:} failed"
	done
	build_supraseal
	must cp "$ROOT/scripts/gpu-check.sh" "$DIR/"
	# A compressed copy for transfer (~14 MB for sm_90; the directory is ~85 MB).
	must tar -cJf "$DIR.tar.xz" -C "$(dirname "$DIR")" "$(basename "$DIR")"
	du -sh "$DIR" "$DIR.tar.xz"
	echo "gpu-check: bundle ready in $DIR ($DIR.tar.xz); on the GPU machine:"
	echo "  tar -xJf $(basename "$DIR").tar.xz && $(basename "$DIR")/gpu-check.sh run $(basename "$DIR")"
}

must() { "$@" || die "failed: $*"; }

# build_supraseal: bin/cuseal-supraseal (tags cuda,supraseal) when native/supraseal was built
# (./build.sh supraseal); the bundle works without it (group supraseal then skips).
build_supraseal() {
	if [ ! -f "$ROOT/native/supraseal/target/release/libcuseal_supraseal.a" ]; then
		echo "gpu-check: no native/supraseal build (./build.sh supraseal): bundle without bin/cuseal-supraseal"
		return 0
	fi
	(cd "$ROOT" && go build -tags cuda,supraseal -ldflags='-s -w' -o "$DIR/bin/cuseal-supraseal" ./cli/cuseal) ||
		die "go build -tags cuda,supraseal ./cli/cuseal failed"
}

# ---------------------------------------------------------------------------------------------
LOG=
START=$(date +%s)
BUDGET=${GPU_CHECK_BUDGET:-540}
FAILED=0
DRY=0

log() { printf '%s\n' "$*" | tee -a "$LOG"; }
left() { echo $((BUDGET - ($(date +%s) - START))); }

# step NAME LIMIT CMD...: run CMD with a time limit (capped by what is left of
# the budget), tee its output into the log, record pass / fail / skip (77).
step() {
	local name=$1 limit=$2
	shift 2
	local rem
	rem=$(left)
	[ "$limit" -gt "$rem" ] && limit=$rem
	if [ "$limit" -lt 10 ]; then
		log "=== $name: SKIPPED (time budget of ${BUDGET}s used up)"
		return
	fi
	log "=== $name (limit ${limit}s): $*"
	local t0 rc out
	t0=$(date +%s)
	out=$(mktemp)
	timeout --kill-after=5 "$limit" "$@" 2>&1 | tee -a "$LOG" "$out"
	rc=${PIPESTATUS[0]}
	# A Go test binary exits 0 when its tests only skipped, or when only its non-GPU tests
	# passed: unless a test matching $NEED_PASS (e.g. 'Test[A-Za-z0-9_]*GPU') passed, report
	# the step as skipped, with the skip reasons.
	if [ "$rc" = 0 ] && [ -n "${NEED_PASS:-}" ] && ! grep -Eq -- "--- PASS: ${NEED_PASS}( |\$)" "$out"; then
		log "(no test matching ${NEED_PASS} passed; skip reasons:)"
		grep -A1 -- '--- SKIP' "$out" | grep -v -- '^--$' | sed 's/^/    /' | tee -a "$LOG" >/dev/null
		rc=77
	elif [ "$rc" = 0 ] && grep -q -- '--- SKIP' "$out" && ! grep -q -- '--- PASS' "$out"; then
		rc=77
	fi
	rm -f "$out"
	local dt=$(($(date +%s) - t0))
	case $rc in
	0) log "=== $name: PASS (${dt}s)" ;;
	77) log "=== $name: SKIPPED by the test (${dt}s)" ;;
	124 | 137) log "=== $name: TIMEOUT after ${dt}s"; FAILED=1 ;;
	*) log "=== $name: FAIL (exit $rc, ${dt}s)"; FAILED=1 ;;
	esac
}

# gotest NAME LIMIT BINARY ARGS...: a Go test binary; "--- SKIP" only → skipped.
gotest() {
	local name=$1 limit=$2 bin=$3
	shift 3
	step "$name" "$limit" "$bin" -test.v -test.count=1 "$@"
}

# gpugotest NAME LIMIT BINARY ARGS...: a Go test binary that counts as passed only when one
# of its GPU tests (name containing GPU) passed.
gpugotest() {
	NEED_PASS='Test[A-Za-z0-9_]*GPU[A-Za-z0-9_/]*' gotest "$@"
}

run() {
	[ -d "$DIR/bin" ] || die "$DIR/bin missing: run 'scripts/gpu-check.sh build' on a machine with nvcc and Go"
	# Straight into $OUT when set, so a run cut short still leaves its log.
	if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then
		LOG=${GPU_CHECK_LOG:-$OUT/gpu-check.log}
	else
		LOG=${GPU_CHECK_LOG:-$DIR/gpu-check.log}
	fi
	: >"$LOG"
	local B=$DIR/bin T=$DIR/testdata
	log "gpu-check $(date -u +%FT%TZ) on $(hostname); budget ${BUDGET}s; bundle $DIR"

	# 1. Devices.
	local have_gpu=1
	if [ "$DRY" = 1 ]; then
		have_gpu=0
		log "dry run: CUDA devices hidden (CUDA_VISIBLE_DEVICES=\"\"), every GPU step must skip"
		export CUDA_VISIBLE_DEVICES=""
	elif ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
		have_gpu=0
		log "no GPU: nvidia-smi missing or finds no device; the GPU steps below will report SKIP"
	else
		nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv 2>&1 | tee -a "$LOG"
	fi

	local groups=" ${GROUPS_WANTED:-tests bench prover c2} "
	want() { [[ $groups == *" $1 "* ]]; }
	# 2. CTest GPU binaries.
	if want tests; then
		step "native: MSM/NTT GPU tests (test_gpu)" 60 "$B/test_gpu" "$T"
		step "native: production-size MSM/NTT checks (test_gpu_scale)" 150 "$B/test_gpu_scale" "$T"
		step "native: Groth16 prover GPU test (test_groth16_gpu)" 60 "$B/test_groth16_gpu" "$T"
		# 3. Go GPU tests (bridge, porep/groth16); host-emulation tests are CI's.
		gpugotest "go: bridge GPU tests" 60 "$B/bridge.test" -test.run 'GPU'
		gpugotest "go: porep/groth16 CUDA backend GPU test" 60 "$B/groth16.test" -test.run 'TestCUDABackendGPU'
	fi
	# 4. MSM / NTT figures (native core).
	if want bench; then
		step "bench: MSM G1/G2, NTT (bench_native)" 60 "$B/bench_native" "$T" "${MSM_LOG:-24}" "${NTT_LOG:-27}"
		step "bench: MSM G1/G2, NTT, reference kernels (bench_native)" 60 \
			env CUSEAL_KERNELS=reference "$B/bench_native" "$T" "${MSM_LOG:-24}" "${NTT_LOG:-27}"
		gotest "bench: bridge Go GPU benchmarks" 45 "$B/bridge.test" -test.run '^$' -test.bench GPU -test.benchtime 3x
	fi
	# 5. Prover stage times.
	if want prover; then
		step "bench: Groth16 prover 2^22" 40 "$B/bench_groth16" "$T" --log 22 --runs 2
		step "bench: Groth16 prover 2^27 (32 GiB partition shape)" 90 "$B/bench_groth16" "$T" --log 27 --runs 1
		step "bench: Groth16 prover 2^27, reference kernels" 90 \
			env CUSEAL_KERNELS=reference "$B/bench_groth16" "$T" --log 27 --runs 1
		step "bench: Groth16 prover 2^22, split never" 25 "$B/bench_groth16" "$T" --log 22 --runs 1 --split never
	fi
	# 6. 2 KiB C2 end to end, GPU vs CPU (whatever time is left). Generating the
	# 2 KiB parameters takes minutes, so it is never done inside the timed run.
	if want c2; then
		local params=${CUSEAL_TEST_PARAMS_DIR:-$DIR/params}
		if ls "$params"/*.params >/dev/null 2>&1; then
			CUSEAL_TEST_PARAMS_DIR=$params NEED_PASS=TestSealCommitPhase2CUDA gotest "go: 2 KiB C2 GPU vs CPU (porep)" 600 "$B/porep.test" \
				-test.run 'TestSealCommitPhase2CUDA' -test.timeout 10m
		else
			log "=== go: 2 KiB C2 GPU vs CPU (porep): SKIPPED (no 2 KiB test parameters in $params; generating them takes minutes: run 'gpu-check.sh params $DIR' before, or set CUSEAL_TEST_PARAMS_DIR)"
		fi
	fi
	# 7. cuseal's CUDA backend vs supraseal-c2 (only when asked for).
	[[ $groups == *" supraseal "* ]] && supraseal_group "$B"

	log ""
	log "=== figures"
	grep -E '^(msm |ntt |groth16 |device 0:|Benchmark|supraseal: )|2 KiB C2:|prover_cuda_test.go.*gpu|test_groth16_gpu: [0-9.]+ s|SKIP' "$LOG" |
		grep -v '^=== figures' | sed 's/^/  /' | tee -a "$LOG.summary" >/dev/null
	cat "$LOG.summary" >>"$LOG"
	cat "$LOG.summary"
	rm -f "$LOG.summary"
	log "=== gpu-check: $([ $FAILED = 0 ] && echo "ok" || echo "FAILED") in $(($(date +%s) - START))s (gpu=$have_gpu); log $LOG"
	if [ -n "${OUT:-}" ] && [ -d "$OUT" ] && [ "$LOG" != "$OUT/gpu-check.log" ]; then
		cp "$LOG" "$OUT/gpu-check.log"
	fi
	return $FAILED
}

# supraseal_group BIN: step 7 (see the header). Figures: lines "supraseal: ..." in the log.
supraseal_group() {
	local cs=$1/cuseal-supraseal
	if [ ! -x "$cs" ]; then
		log "=== supraseal: SKIPPED (bundle built without bin/cuseal-supraseal: ./build.sh supraseal, then build)"
		return
	fi
	if [ "$have_gpu" = 0 ]; then
		log "=== supraseal: SKIPPED (no GPU)"
		return
	fi
	step "supraseal: info" 20 "$cs" info --json
	# 2 KiB C2: a sealed sample and test parameters (generated unless CUSEAL_TEST_PARAMS_DIR has them).
	local work params
	work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-check-ss.XXXXXX")
	params=${CUSEAL_TEST_PARAMS_DIR:-$work/params}
	printf 'cuseal gpu-check supraseal sample\n' >"$work/data.txt"
	step "supraseal: 2 KiB seal" 60 "$cs" --log-level warn seal --sector-size 2KiB --data "$work/data.txt" \
		--out "$work/sector" --miner t01000 --sector 1 --ticket 0101010101010101010101010101010101010101010101010101010101010101 \
		--seed 0202020202020202020202020202020202020202020202020202020202020202
	step "supraseal: 2 KiB test params" 300 "$cs" --log-level warn params generate --sector-size 2KiB --seed "$TEST_PARAMS_SEED" --out "$params" --reuse
	step "supraseal: 2 KiB C2 cpu,cuda,supraseal (byte-identical proofs)" 180 "$cs" --log-level warn bench prove \
		--c1 "$work/sector/c1.json" --params-dir "$params" --miner t01000 --sector 1 --backend cpu,cuda,supraseal --runs 2
	# Synthetic shapes, one process per backend (2^27: 47 GiB of parameters each side).
	local sdir=${GPU_CHECK_SYNTH_DIR:-${TMPDIR:-/tmp}} k b t
	for k in 22 27; do
		local tc= ts=
		for b in cuda supraseal; do
			local n0
			n0=$(wc -l <"$LOG")
			step "supraseal: synthetic 2^$k on $b" 240 "$cs" bench groth16 --log "$k" --backend "$b" --runs 2 \
				--params "$sdir/cuseal-synthetic-2^$k.params" --json
			# this step's own JSON only (a failed step leaves none)
			t=$(tail -n +$((n0 + 1)) "$LOG" | sed -n 's/^ *"seconds": *\([0-9.eE+-]*\),\{0,1\}$/\1/p' | tail -n 1)
			[ "$b" = cuda ] && tc=$t || ts=$t
		done
		if [ -n "$tc" ] && [ -n "$ts" ]; then
			log "supraseal: 2^$k median seconds: cuda $tc, supraseal $ts, supraseal/cuda $(awk -v a="$ts" -v b="$tc" 'BEGIN { printf "%.2f", a / b }')"
		fi
		rm -f "$sdir/cuseal-synthetic-2^$k.params"
	done
	rm -rf "$work"
}

GROUPS_WANTED="${*:3}"
case "$cmd" in
build) build ;;
run) run ;;
dry-run) DRY=1; BUDGET=${GPU_CHECK_BUDGET:-120}; run ;;
params)
	[ -x "$DIR/bin/cuseal" ] || die "$DIR/bin/cuseal missing: rebuild the bundle"
	"$DIR/bin/cuseal" --log-level warn params generate --sector-size 2KiB --seed "$TEST_PARAMS_SEED" --out "$DIR/params" --reuse ;;
"")
	# In place (e.g. a device slot with the working tree): reuse a bundle, or
	# build one here when the toolchains exist.
	if [ ! -d "$DIR/bin" ]; then
		if command -v nvcc >/dev/null && command -v go >/dev/null && command -v cmake >/dev/null; then
			BUILD_START=$(date +%s)
			JOBS=${JOBS:-$(nproc)} build || exit 1
			echo "gpu-check: bundle built in $(($(date +%s) - BUILD_START))s"
		else
			die "no bundle in $DIR and no nvcc/cmake/go here to build one: run 'scripts/gpu-check.sh build' on a machine with them and copy $DIR"
		fi
	fi
	run ;;
*) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2 ;;
esac
