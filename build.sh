#!/usr/bin/env bash
# build.sh — build, test and demo cuseal.
#
#   ./build.sh deps [--cuda]   install cmake and g++ (and, with --cuda, nvcc + g++-11)
#   ./build.sh build           bin/cuseal (pure Go); also bin/cuseal-cuda when nvcc is present
#   ./build.sh test            CTest host tests + go vet ./... + go test ./...
#   ./build.sh cuda            CUDA variant: native lib (all archs) + its host tests + bin/cuseal-cuda
#   ./build.sh demo            seal, prove and verify a 2 KiB sector; print phase timings
#   ./build.sh clean           remove build outputs
#
# Every step prints the command it runs ("+ cmd"); a failing step stops the script and names
# the command that failed. Environment: GO (go binary), JOBS (parallel build jobs, default nproc),
# GOTESTFLAGS (extra flags for go test, e.g. -short), CMAKE_GENERATOR (passed through to cmake).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"

GO=${GO:-go}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# Where the CUDA-enabled native library is built: bridge/*.go links it through
# ${SRCDIR}-relative cgo LDFLAGS, so this path must match them.
NATIVE_BUILD=${NATIVE_BUILD:-build/native}
# A CPU-only configuration of the same sources, used for the CTest host tests, so they run
# (and stay green) on machines without nvcc.
HOST_BUILD=${HOST_BUILD:-build/host}
# Host compiler nvcc accepts (see scripts/install-nvcc.sh).
CUDA_HOST_CXX=${CUDA_HOST_CXX:-/usr/bin/g++-11}

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

# run CMD...: print the command, run it, and name it if it fails.
run() {
	printf '+ %s\n' "$*" >&2
	local rc=0
	"$@" || rc=$?
	if [ "$rc" -ne 0 ]; then
		printf 'build.sh: FAILED (exit %d): %s\n' "$rc" "$*" >&2
		exit "$rc"
	fi
}

have() { command -v "$1" >/dev/null 2>&1; }

need_go() {
	have "$GO" || die "go not found: install Go >= $(sed -n 's/^go //p' go.mod) (https://go.dev/dl/) or set GO=/path/to/go"
}

# ---------------------------------------------------------------------------------------------
# deps [--cuda]
cmd_deps() {
	local cuda=0
	for a in "$@"; do
		case "$a" in
		--cuda) cuda=1 ;;
		*) die "deps: unknown flag $a (usage: ./build.sh deps [--cuda])" ;;
		esac
	done
	local pkgs=()
	have cmake || pkgs+=(cmake)
	have g++ || pkgs+=(g++)
	have make || pkgs+=(make)
	if [ ${#pkgs[@]} -eq 0 ]; then
		log "deps: cmake, g++ and make already present"
	elif [ "$(id -u)" != 0 ]; then
		printf 'build.sh: deps: not root; run as root:\n  apt-get update && apt-get install -y --no-install-recommends %s\n' "${pkgs[*]}" >&2
		exit 1
	else
		export DEBIAN_FRONTEND=noninteractive
		run apt-get update
		run apt-get install -y --no-install-recommends "${pkgs[@]}"
	fi
	if ! have "$GO"; then
		log "deps: go not found: install Go >= $(sed -n 's/^go //p' go.mod) (Debian's golang package is too old)"
	fi
	if [ "$cuda" = 1 ]; then
		run bash scripts/install-nvcc.sh
	fi
}

# ---------------------------------------------------------------------------------------------
# Native library configurations.
cmake_host() {
	run cmake -S . -B "$HOST_BUILD" -DCUSEAL_CUDA=OFF -DCMAKE_BUILD_TYPE=Release
	run cmake --build "$HOST_BUILD" -j "$JOBS"
}

cmake_cuda() {
	have nvcc || die "nvcc not found: run ./build.sh deps --cuda (as root)"
	local hostcxx=()
	[ -x "$CUDA_HOST_CXX" ] && hostcxx=(-DCMAKE_CUDA_HOST_COMPILER="$CUDA_HOST_CXX")
	run cmake -S . -B "$NATIVE_BUILD" -DCUSEAL_CUDA=ON -DCMAKE_BUILD_TYPE=Release "${hostcxx[@]}"
	run cmake --build "$NATIVE_BUILD" -j "$JOBS"
}

has_native() { [ -f CMakeLists.txt ]; }

# ---------------------------------------------------------------------------------------------
# build
cmd_build() {
	need_go
	mkdir -p bin
	run env CGO_ENABLED=0 "$GO" build -o bin/cuseal ./cli
	if have nvcc && has_native; then
		cmake_cuda
		run "$GO" build -tags cuda -o bin/cuseal-cuda ./cli
	else
		log "build: nvcc not found; skipping the CUDA variant (./build.sh deps --cuda installs it)"
	fi
	log "build: done: $(ls bin | tr '\n' ' ')"
}

# ---------------------------------------------------------------------------------------------
# test
cmd_test() {
	need_go
	if has_native; then
		cmake_host
		run ctest --test-dir "$HOST_BUILD" -L host --output-on-failure -j "$JOBS"
	fi
	run "$GO" vet ./...
	# shellcheck disable=SC2086
	run "$GO" test -count=1 -timeout 40m ${GOTESTFLAGS:-} ./...
	log "test: all passed"
}

# ---------------------------------------------------------------------------------------------
# cuda: the CUDA variant, compile + link for every arch, plus its host tests. Needs nvcc, not a GPU.
cmd_cuda() {
	need_go
	has_native || die "cuda: CMakeLists.txt missing"
	cmake_cuda
	run ctest --test-dir "$NATIVE_BUILD" -L host --output-on-failure -j "$JOBS"
	mkdir -p bin
	run "$GO" vet -tags cuda ./bridge/... ./cli/...
	run "$GO" build -tags cuda ./...
	run "$GO" build -tags cuda -o bin/cuseal-cuda ./cli
	# The bridge's own tests: GPU tests skip themselves when no device is found.
	run "$GO" test -count=1 -tags cuda ./bridge/...
	run bin/cuseal-cuda info --json
	bin/cuseal-cuda info --json | grep -q '"cuda": *true' || die "cuda: bin/cuseal-cuda info --json does not report \"cuda\": true"
	log "cuda: CUDA variant built and its host tests passed"
}

# ---------------------------------------------------------------------------------------------
# demo
cmd_demo() {
	need_go
	cat >&2 <<'EOF'
build.sh: demo is not wired yet. When the porep API (porep.SealCommitPhase2 / VerifySeal) and
the test sealer land, it will:
  1. build bin/cuseal (pure Go; bin/cuseal-cuda too when nvcc is present)
  2. seal a 2 KiB sector from testdata/demo/sample.txt (cuseal seal)
  3. generate, or reuse from testdata/cache/params, 2 KiB test parameters (cuseal params generate)
  4. run commit2 on the C1 output (cuseal commit2) and verify the proof (cuseal verify)
  5. print a table of phase timings
EOF
	exit 1
}

# ---------------------------------------------------------------------------------------------
cmd_clean() {
	run rm -rf bin build testdata/cache
}

usage() {
	sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
}

main() {
	local cmd=${1:-}
	[ $# -gt 0 ] && shift
	case "$cmd" in
	deps) cmd_deps "$@" ;;
	build) cmd_build "$@" ;;
	test) cmd_test "$@" ;;
	cuda) cmd_cuda "$@" ;;
	demo) cmd_demo "$@" ;;
	clean) cmd_clean "$@" ;;
	-h | --help | help) usage ;;
	"") usage; exit 2 ;;
	*) printf 'build.sh: unknown command %q\n' "$cmd" >&2; usage >&2; exit 2 ;;
	esac
}

main "$@"
