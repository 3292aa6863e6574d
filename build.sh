#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# build.sh — build, test and demo cuseal.
#
#   ./build.sh deps [--cuda]   install cmake, g++, python3 and protoc (and, with --cuda, nvcc + g++-11, and
#                              fetch sppark's sources with cargo for the CUDA kernels)
#   ./build.sh build           bin/cuseal (pure Go); also bin/cuseal-cuda when nvcc is present
#   ./build.sh test [--long|--huge]
#                              CTest host tests + go vet ./... + go test ./...: the unit tier (minutes);
#                              --long adds every layer's real proofs and sweeps (CI runs it), --huge also
#                              the 32 GiB goldens and big counts (CUSEAL_TEST=unit|long|huge: docs/testing.md)
#   ./build.sh lint            gofmt, go vet and staticcheck (pinned: STATICCHECK_VERSION, installed
#                              with go install when missing) for the default, cuda and supraseal
#                              tags; needs no native library or nvcc
#   ./build.sh cuda            CUDA variant: native lib (all archs; sppark + reference kernels) + its
#                              host tests + bin/cuseal-cuda
#   ./build.sh supraseal       supraseal-c2 variant: native/supraseal (cargo, nvcc) + bin/cuseal-supraseal
#                              (tags cuda,supraseal: both GPU backends in one binary; no GPU needed)
#   ./build.sh lib [--cuda]    libcuseal.so + libcuseal.a + cuseal_porep.h in build/lib (the C ABI;
#                              --cuda: with the native CUDA core, needs nvcc)
#   ./build.sh dist            release archives in dist/ (DIST_OUT): cuseal-VERSION-linux-amd64.tar.gz
#                              (bin/cuseal, lib/ libcuseal.so + .a, include/, systemd/, docs/), a -cuda
#                              one when nvcc is present (DIST_CUDA=0: none), SHA256SUMS; reproducible
#                              (docs/releasing.md)
#   ./build.sh demo [FLAGS]    bin/cuseal demo: seal, prove and verify a 2 KiB sector; print phase
#                              timings (test parameters cached in testdata/cache/params; FLAGS go
#                              to cuseal demo, e.g. --json, --no-gpu)
#   ./build.sh clean [--all]   remove build outputs (--all: also the cached test parameters)
#
# Every step prints the command it runs ("+ cmd"); a failing step stops the script and names
# the command that failed. Environment: GO (go binary), JOBS (parallel build jobs, default nproc),
# GOTESTFLAGS (extra flags for go test, e.g. -short), CMAKE_GENERATOR (passed through to cmake),
# CUDA_ARCHS (e.g. "89-real", instead of CMakeLists.txt's full list), NATIVE_BUILD (the CUDA
# build directory, default build/native; its cuseal.pc is put first on PKG_CONFIG_PATH, which is
# how bridge/ links the library), PKG_CONFIG (pkg-config binary), CUDAHOSTCXX / CUDA_HOST_CXX
# (nvcc's host compiler, passed as -ccbin; default g++-11 when found), CUSEAL_SPPARK=OFF (CUDA
# build with our reference kernels only: no cargo needed).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"

GO=${GO:-go}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# Where the CUDA-enabled native library is built. bridge/*.go (tag cuda) links it through
# pkg-config (`#cgo pkg-config: cuseal`): CMake writes cuseal.pc into this directory, and it
# goes first on PKG_CONFIG_PATH for every go command below.
NATIVE_BUILD=${NATIVE_BUILD:-build/native}
case "$NATIVE_BUILD" in
/*) NATIVE_BUILD_ABS=$NATIVE_BUILD ;;
*) NATIVE_BUILD_ABS=$ROOT/$NATIVE_BUILD ;;
esac
export PKG_CONFIG_PATH="$NATIVE_BUILD_ABS${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# go's build cache keys on CGO_LDFLAGS but not on pkg-config's output: the directory also goes
# into CGO_LDFLAGS, so bridge is rebuilt against it and never reuses a bridge that a `go build
# -tags cuda` by hand (other PKG_CONFIG_PATH, other library) left in the cache.
export CGO_LDFLAGS="-L$NATIVE_BUILD_ABS ${CGO_LDFLAGS:-}"
# A CPU-only configuration of the same sources, used for the CTest host tests, so they run
# (and stay green) on machines without nvcc.
HOST_BUILD=${HOST_BUILD:-build/host}
# The staticcheck release ./build.sh lint runs (and installs with go install when the one on
# PATH or in $(go env GOPATH)/bin is another): 2026.2.2, which supports go1.26.
STATICCHECK_VERSION=${STATICCHECK_VERSION:-v0.8.2}
# Cached 2 KiB test parameters (about 1.1 GB, minutes to generate): shared by the demo and the
# end-to-end tests. testdata/cache/ is ignored by git.
PARAMS_CACHE=${CUSEAL_TEST_PARAMS_DIR:-$ROOT/testdata/cache/params}
# Host compiler nvcc accepts (see scripts/install-nvcc.sh): CUDAHOSTCXX (CMake's and nvcc's
# variable) or CUDA_HOST_CXX when set, else g++-11 wherever it is on PATH.
CUDA_HOST_CXX=${CUDAHOSTCXX:-${CUDA_HOST_CXX:-$(command -v g++-11 2>/dev/null || true)}}

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
	have python3 || pkgs+=(python3) # libcuseal's ctypes test (libcuseal/testdata/porep_ctypes.py)
	# service/cuzkv1 TestGeneratedUpToDate compiles proving.proto and compares it with the
	# committed generated code (skipped without protoc)
	have protoc || pkgs+=(protobuf-compiler)
	# service TestStatusPageBrowser loads the status page in a headless Chromium (fails under CI without one)
	have chromium || have chromium-browser || have google-chrome || pkgs+=(chromium)
	# cgo finds the native library of the CUDA variant through pkg-config (build/native/cuseal.pc)
	[ "$cuda" = 1 ] && ! have "${PKG_CONFIG:-pkg-config}" && pkgs+=(pkg-config)
	if [ ${#pkgs[@]} -eq 0 ]; then
		log "deps: cmake, g++, make, python3, protoc and chromium already present"
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
		deps_sppark
	fi
}

# deps_sppark: sppark's sources in cargo's registry cache, so the CUDA build's configure step
# finds them without network (scripts/sppark-root.sh).
deps_sppark() {
	[ "${CUSEAL_SPPARK:-ON}" = OFF ] && { log "deps: CUSEAL_SPPARK=OFF: not fetching sppark"; return; }
	if ! have cargo && [ -x "$HOME/.cargo/bin/cargo" ]; then
		export PATH="$HOME/.cargo/bin:$PATH"
	fi
	# Debian's own cargo (0.66) is too old for the locked crates (some use edition 2024): Rust's
	# cargo >= 1.85 is needed, e.g. from https://rustup.rs.
	have cargo || die "deps: cargo not found: the CUDA build fetches sppark (crate sppark =0.1.16) with cargo >= 1.85; install Rust (https://rustup.rs), or build the reference kernels only with CUSEAL_SPPARK=OFF"
	run bash scripts/sppark-root.sh
}

# ---------------------------------------------------------------------------------------------
# Native library configurations.
cmake_host() {
	run cmake -S . -B "$HOST_BUILD" -DCUSEAL_CUDA=OFF -DCMAKE_BUILD_TYPE=Release
	run cmake --build "$HOST_BUILD" -j "$JOBS"
}

cmake_cuda() {
	have nvcc || die "nvcc not found: run ./build.sh deps --cuda (as root)"
	have "${PKG_CONFIG:-pkg-config}" || die "pkg-config not found: go build -tags cuda links the native library through it (build/native/cuseal.pc); run ./build.sh deps --cuda (as root) or install pkg-config"
	local hostcxx=() archs=(-UCMAKE_CUDA_ARCHITECTURES) spk=()
	if [ -n "$CUDA_HOST_CXX" ]; then
		[ -x "$CUDA_HOST_CXX" ] || have "$CUDA_HOST_CXX" || die "CUDA host compiler $CUDA_HOST_CXX not found (CUDAHOSTCXX / CUDA_HOST_CXX)"
		hostcxx=(-DCMAKE_CUDA_HOST_COMPILER="$CUDA_HOST_CXX")
	fi
	# sppark's kernels: CMake runs scripts/sppark-root.sh (cargo) unless CUSEAL_SPPARK=OFF.
	if [ "${CUSEAL_SPPARK:-ON}" = OFF ]; then
		spk=(-DCUSEAL_SPPARK=OFF)
	else
		spk=(-DCUSEAL_SPPARK=ON)
		if ! have cargo && [ -x "$HOME/.cargo/bin/cargo" ]; then export PATH="$HOME/.cargo/bin:$PATH"; fi
		if ! have cargo; then
			local why="cargo not found: the CUDA build takes sppark's kernels from cargo's registry; run ./build.sh deps --cuda, install Rust (https://rustup.rs), or set CUSEAL_SPPARK=OFF for the reference kernels only"
			[ "${1:-}" = strict ] && die "$why"
			log "build: $why; building the CUDA variant with the reference kernels only"
			spk=(-DCUSEAL_SPPARK=OFF)
		fi
	fi
	# The full arch list comes from CMakeLists.txt; -U drops an arch list an earlier
	# configuration of the same directory may have cached. CUDA_ARCHS overrides it.
	[ -n "${CUDA_ARCHS:-}" ] && archs=(-DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCHS")
	run cmake -S . -B "$NATIVE_BUILD" -DCUSEAL_CUDA=ON -DCMAKE_BUILD_TYPE=Release "${hostcxx[@]}" "${archs[@]}" "${spk[@]}"
	run cmake --build "$NATIVE_BUILD" -j "$JOBS"
}

has_native() { [ -f CMakeLists.txt ]; }

# ---------------------------------------------------------------------------------------------
# build
build_pure() {
	mkdir -p bin
	run env CGO_ENABLED=0 "$GO" build -o bin/cuseal ./cli/cuseal
}

cmd_build() {
	need_go
	build_pure
	if have nvcc && has_native && ! have "${PKG_CONFIG:-pkg-config}"; then
		log "build: pkg-config not found; skipping the CUDA variant (go build -tags cuda links the native library through build/native/cuseal.pc; ./build.sh deps --cuda installs pkg-config)"
	elif have nvcc && has_native; then
		cmake_cuda
		run "$GO" build -tags cuda -o bin/cuseal-cuda ./cli/cuseal
	else
		log "build: nvcc not found; skipping the CUDA variant (./build.sh deps --cuda installs it)"
	fi
	log "build: done: $(ls bin | tr '\n' ' ')"
}

# ---------------------------------------------------------------------------------------------
# test
# The toxic seed of the shared 2 KiB test parameters: the rust-fil-proofs reference vectors'
# (bytes 0x00…0x1f; testsupport/testparams.Seed), so one 1.1 GB set serves the end-to-end tests and
# the byte-identity tests against bellperson's proofs.
TEST_PARAMS_SEED=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

# count_test_stamps prints how many test-parameter stamps $PARAMS_CACHE holds (0 when it does
# not exist yet: a fresh clone).
count_test_stamps() {
	local stamps
	shopt -s nullglob
	stamps=("$PARAMS_CACHE"/*.cuseal-test.json)
	shopt -u nullglob
	echo "${#stamps[@]}"
}

# replace_foreign_test_params removes test parameters in $PARAMS_CACHE whose stamp records
# another seed than TEST_PARAMS_SEED (a cache from before the tests and the demo shared one):
# params generate --reuse refuses to overwrite them, and they are ours to regenerate.
replace_foreign_test_params() {
	local stamp
	for stamp in "$PARAMS_CACHE"/*.cuseal-test.json; do
		[ -f "$stamp" ] || continue
		if ! grep -q "\"$TEST_PARAMS_SEED\"" "$stamp"; then
			log "$(basename "${stamp%.cuseal-test.json}"): test parameters from another seed in $PARAMS_CACHE; replacing them"
			run rm -f "${stamp%.cuseal-test.json}".*
		fi
	done
}

# ensure_test_params builds bin/cuseal and generates the shared 2 KiB test parameters that
# $PARAMS_CACHE lacks (testsupport/testparams, testsupport/testpost.LinkParams); generating them
# once here, before go test runs packages in parallel, keeps them from doing it twice (or, with
# no CUSEAL_TEST_PARAMS_DIR, each package into $TMPDIR). Their time is reported apart.
ensure_test_params() {
	build_pure
	replace_foreign_test_params
	local t0=$SECONDS
	local circuit stamps
	stamps=$(count_test_stamps)
	if [ "$stamps" -lt 4 ]; then
		log "test: generating the 2 KiB test parameters that are missing (once; a few minutes, about 1.8 GB)"
	fi
	for circuit in porep winning-post window-post update; do
		run bin/cuseal --log-level warn params generate --circuit "$circuit" --sector-size 2KiB --seed "$TEST_PARAMS_SEED" --out "$PARAMS_CACHE" --reuse
	done
	local how="all reused"
	if [ "$(count_test_stamps)" -gt "$stamps" ]; then
		how="generated now, reused from then on"
	fi
	log "test: 2 KiB test parameters (PoRep, WinningPoSt, WindowPoSt, SnapDeals) ready in $((SECONDS - t0)) s ($how)"
}

cmd_test() {
	need_go
	local tier=${CUSEAL_TEST:-unit} count=() timeout=20m
	while [ $# -gt 0 ]; do
		case "$1" in
		--long) tier=long ;;
		--huge) tier=huge ;;
		--unit) tier=unit ;;
		*) die "test: unknown flag $1 (want --long or --huge)" ;;
		esac
		shift
	done
	case "$tier" in
	unit) ;;
	# A conformance run must run: no cached results.
	long) count=(-count=1) timeout=60m ;;
	huge) count=(-count=1) timeout=180m ;;
	*) die "test: CUSEAL_TEST=$tier: want unit, long or huge" ;;
	esac
	if has_native; then
		cmake_host
		run ctest --test-dir "$HOST_BUILD" -L host --output-on-failure -j "$JOBS"
	fi
	run "$GO" vet ./...
	ensure_test_params
	local t0=$SECONDS
	# shellcheck disable=SC2086
	run env CUSEAL_TEST="$tier" CUSEAL_TEST_PARAMS_DIR="$PARAMS_CACHE" "$GO" test "${count[@]}" -timeout "$timeout" ${GOTESTFLAGS:-} ./...
	log "test: all passed ($tier tier, go test in $((SECONDS - t0)) s)"
}

# ---------------------------------------------------------------------------------------------
# lint: gofmt, go vet and staticcheck over every build-tag combination. cgo type-checks against
# include/*.h only, so the cuda and supraseal tags need neither nvcc nor a built library.
cmd_lint() {
	need_go
	local unformatted
	unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './build/*'))
	[ -z "$unformatted" ] || die "lint: not gofmt'd: $(echo $unformatted)"
	# -tags cuda asks pkg-config for cuseal's flags (build/native/cuseal.pc, written by the
	# CMake build). Type-checking needs only the headers, so lint answers for it with a
	# stand-in that names include/ and links nothing: no native build, no pkg-config needed.
	local shim
	shim=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$shim'" RETURN
	printf '#!/bin/sh\n# ./build.sh lint: cgo flags for type-checking only\nfor a; do [ "$a" = --cflags ] && echo "-I%s/include"; done\nexit 0\n' "$ROOT" >"$shim/pkg-config"
	chmod +x "$shim/pkg-config"
	local PKG_CONFIG="$shim/pkg-config"
	export PKG_CONFIG
	# Go's build cache does not key cgo results on pkg-config's answers: vetting with the
	# stand-in in the shared cache would leave a `bridge` that links nothing, which a later
	# `./build.sh cuda` would reuse (undefined cuseal_* symbols). Lint gets its own cache.
	local GOCACHE
	GOCACHE="$("$GO" env GOCACHE)-cuseal-lint"
	export GOCACHE
	local tags
	for tags in "" cuda supraseal cuda,supraseal; do
		run "$GO" vet ${tags:+-tags "$tags"} ./...
	done
	local sc want=${STATICCHECK_VERSION#v}
	sc=$(command -v staticcheck || true)
	[ -n "$sc" ] || sc="$("$GO" env GOPATH)/bin/staticcheck"
	if ! { [ -x "$sc" ] && "$sc" -version 2>/dev/null | grep -q "($want)"; }; then
		run "$GO" install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
		sc="$("$GO" env GOBIN)"
		sc="${sc:-$("$GO" env GOPATH)/bin}/staticcheck"
	fi
	# One matrix run: an identifier used only under some tags (cgo files) is not "unused".
	printf '+ %s -matrix ./... (default, cuda, supraseal, cuda+supraseal)\n' "$sc" >&2
	printf 'default:\ncuda: -tags=cuda\nsupraseal: -tags=supraseal\ncuda_supraseal: -tags=cuda,supraseal\n' |
		"$sc" -matrix ./... || die "lint: staticcheck found problems (above)"
	log "lint: gofmt, go vet and staticcheck $STATICCHECK_VERSION clean"
}

# ---------------------------------------------------------------------------------------------
# cuda: the CUDA variant, compile + link for every arch, plus its host tests. Needs nvcc, not a GPU.
cmd_cuda() {
	need_go
	has_native || die "cuda: CMakeLists.txt missing"
	cmake_cuda strict
	run ctest --test-dir "$NATIVE_BUILD" -L host --output-on-failure -j "$JOBS"
	mkdir -p bin
	run "$GO" vet -tags cuda ./...
	run "$GO" build -tags cuda -o bin/cuseal-cuda ./cli/cuseal
	# The Go side of the CUDA variant: the bridge's tests (host emulation against gnark-crypto;
	# GPU tests skip themselves when no device is found), the CUDA backend's, the CLI's and
	# libcuseal's (its cuda c-shared library, called from C and Python).
	# The unit tier (-short): the CPU end-to-end tests already ran in ./build.sh test. The shared
	# test parameters, as ./build.sh test has them: without CUSEAL_TEST_PARAMS_DIR each package
	# would generate its own in parallel, which took libcuseal past go test's default 10 minutes.
	ensure_test_params
	run env CUSEAL_TEST=unit CUSEAL_TEST_PARAMS_DIR="$PARAMS_CACHE" "$GO" test -count=1 -short -timeout 30m -tags cuda ./bridge/... ./porep/... ./cli/... ./libcuseal/...
	run bin/cuseal-cuda info --json
	bin/cuseal-cuda info --json | grep -q '"cuda": *true' || die "cuda: bin/cuseal-cuda info --json does not report \"cuda\": true"
	if [ "${CUSEAL_SPPARK:-ON}" != OFF ] && [ "${CUSEAL_KERNELS:-auto}" != reference ]; then
		bin/cuseal-cuda info --json | grep -q '"kernels": *"sppark' ||
			die "cuda: bin/cuseal-cuda info --json does not name the sppark kernel set"
	fi
	log "cuda: CUDA variant built and its host tests passed"
}

# ---------------------------------------------------------------------------------------------
# supraseal: the supraseal-c2 comparison backend. native/supraseal is a Rust staticlib (our C
# shim over the supraseal-c2 crate, =0.1.2, whose build.rs compiles its CUDA with nvcc through
# sppark); bridge/supraseal links it through cgo under the build tag supraseal. The binary is
# built with -tags cuda,supraseal, so one process can run cuseal's own CUDA backend and
# supraseal side by side (`cuseal bench prove --backend cuda,supraseal`); the tag supraseal
# alone also builds (without cuseal's native library). Needs cargo/rustc, nvcc and the CUDA
# build (cmake_cuda); no GPU. Environment: CARGO (cargo binary), SUPRASEAL_SKIP_CUDA=1 (build
# only the supraseal tag, skipping cuseal's CUDA library), NVCC_APPEND_FLAGS (e.g.
# '-gencode arch=compute_90,code=sm_90' for Hopper SASS; sppark builds sm_70/sm_80 SASS and
# compute_80 PTX by itself).
SUPRASEAL_DIR=native/supraseal
CARGO=${CARGO:-cargo}

# cudart_static_path: libcudart_static.a of the nvcc on PATH.
cudart_static_path() {
	local nvcc_dir d
	nvcc_dir=$(dirname "$(readlink -f "$(command -v nvcc)")")
	for d in ${CUDA_HOME:+"$CUDA_HOME/lib64"} "$nvcc_dir/../lib64" "$nvcc_dir/../targets/$(uname -m)-linux/lib" \
		"/usr/lib/$(uname -m)-linux-gnu" /usr/local/cuda/lib64; do
		if [ -f "$d/libcudart_static.a" ]; then
			printf '%s\n' "$d/libcudart_static.a"
			return 0
		fi
	done
	return 1
}

# lock_version LOCKFILE CRATE: the version Cargo.lock pins for CRATE.
lock_version() {
	awk -v c="$2" '$1 == "name" && $3 == "\"" c "\"" { getline; gsub(/"/, "", $3); print $3; exit }' "$1"
}

# check_one_blst NATIVE_LIB SUPRASEAL_LIB: bin/cuseal-supraseal links both archives with no
# --allow-multiple-definition. Both carry blst's assembly (sppark's host code; supraseal's blst),
# built in portable mode on both sides: the two objects must define the same symbols, so the
# linker takes one. No other strong global symbol may be defined in both archives. Fails naming
# the symbols; the link would fail on them too, with less to go on.
check_one_blst() {
	local ours=$1 theirs=$2 tmp other diff
	have nm || die "supraseal: nm (binutils) not found: needed to compare $ours and $theirs"
	tmp=$(mktemp -d)
	# "archive:member:address TYPE name" -> "member<TAB>name", strong definitions only (weak W/V,
	# common C and unique u symbols merge at link time)
	local f
	for f in ours theirs; do
		nm -A -g --defined-only "${!f}" 2>/dev/null |
			awk '$2 !~ /^[WVCuvw]$/ { n = split($1, p, ":"); print p[n - 1] "\t" $3 }' >"$tmp/$f" ||
			{ rm -rf "$tmp"; die "supraseal: nm ${!f} failed"; }
		awk -F'\t' '$1 ~ /assembly/ { print $2 }' "$tmp/$f" | sort -u >"$tmp/$f.blst"
		cut -f2 "$tmp/$f" | sort -u >"$tmp/$f.all"
	done
	comm -12 "$tmp/ours.blst" "$tmp/theirs.blst" >"$tmp/blst"
	other=$(comm -12 "$tmp/ours.all" "$tmp/theirs.all" | comm -23 - "$tmp/blst" | head -n 20 | tr '\n' ' ')
	diff=$(comm -3 "$tmp/ours.blst" "$tmp/theirs.blst" | head -n 20 | tr -d '\t' | tr '\n' ' ')
	local n
	n=$(wc -l <"$tmp/ours.blst")
	rm -rf "$tmp"
	[ -z "$other" ] || die "supraseal: defined in both $ours and $theirs (outside blst's assembly): $other"
	if [ "$n" -gt 0 ] && [ -n "$diff" ]; then
		die "supraseal: blst's assembly objects of $ours and $theirs differ in: $diff(both must be blst $(lock_version native/sppark-dep/Cargo.lock blst) in portable mode)"
	fi
	log "supraseal: blst's assembly defines the same $n symbols in both archives; no other symbol is defined in both"
}

cmd_supraseal() {
	need_go
	have "$CARGO" && have rustc ||
		die "supraseal: cargo/rustc not found: install a Rust toolchain (rustc >= 1.78 for Cargo.lock v4, e.g. https://rustup.rs; Debian bookworm's cargo is too old) or set CARGO=/path/to/cargo"
	have nvcc || die "supraseal: nvcc not found: run ./build.sh deps --cuda (as root); supraseal-c2 compiles CUDA with it"
	local cxx=() cudart tags=cuda,supraseal
	# cc passes $CXX to nvcc as -ccbin: Debian's CUDA 11.8 needs g++-11.
	[ -x "$CUDA_HOST_CXX" ] && cxx=(CXX="$CUDA_HOST_CXX")
	local t0=$SECONDS
	# bin/cuseal-supraseal links two archives that carry blst (sppark's host code in build/native,
	# supraseal's crate) and takes blst from one of them: both must be the same blst release
	# (and mode, check_one_blst).
	local blst_ss blst_spk
	blst_ss=$(lock_version "$SUPRASEAL_DIR/Cargo.lock" blst)
	blst_spk=$(lock_version native/sppark-dep/Cargo.lock blst)
	[ "$blst_ss" = "$blst_spk" ] ||
		die "supraseal: blst $blst_ss in $SUPRASEAL_DIR/Cargo.lock but $blst_spk in native/sppark-dep/Cargo.lock: pin the same version in both"
	run env "${cxx[@]}" "$CARGO" build --release --locked --manifest-path "$SUPRASEAL_DIR/Cargo.toml"
	run env "${cxx[@]}" "$CARGO" test --release --locked --manifest-path "$SUPRASEAL_DIR/Cargo.toml"
	log "supraseal: native/supraseal built in $((SECONDS - t0))s"
	# The staticlib leaves libcudart_static to the final link; a copy next to it under our own
	# name (as CMake does for build/native) keeps cgo's -L path independent of the CUDA install.
	cudart=$(cudart_static_path) || die "supraseal: libcudart_static.a not found next to nvcc (set CUDA_HOME)"
	run cp "$cudart" "$SUPRASEAL_DIR/target/release/libcuseal_ss_cudart.a"
	if [ "${SUPRASEAL_SKIP_CUDA:-0}" = 1 ]; then
		tags=supraseal
	else
		has_native || die "supraseal: CMakeLists.txt missing"
		# (cuseal.pc: a build directory configured before the pkg-config link is reconfigured)
		[ -f "$NATIVE_BUILD/libcuseal_native.a" ] && [ -f "$NATIVE_BUILD/cuseal.pc" ] || cmake_cuda
		check_one_blst "$NATIVE_BUILD/libcuseal_native.a" "$SUPRASEAL_DIR/target/release/libcuseal_supraseal.a"
	fi
	mkdir -p bin
	run "$GO" vet -tags "$tags" ./bridge/... ./porep/... ./cli/...
	run "$GO" build -tags "$tags" -o bin/cuseal-supraseal ./cli/cuseal
	# Device-free tests of the variant: the shim's checks through cgo, backend selection; the
	# supraseal-vs-CPU byte-equality tests skip themselves without a device.
	# (The rest of these packages' tests ran in ./build.sh test and ./build.sh cuda.)
	ensure_test_params
	run env CUSEAL_TEST=unit CUSEAL_TEST_PARAMS_DIR="$PARAMS_CACHE" "$GO" test -count=1 -short -timeout 30m -tags "$tags" -run 'SupraSeal|Synthetic|BackendList|BackendRegistry|BenchGroth16|Popcount|WithoutDevice' \
		./bridge/supraseal/... ./porep/ ./porep/groth16/ ./cli/
	run bin/cuseal-supraseal info --json
	bin/cuseal-supraseal info --json | grep -q '"supraseal"' || die "supraseal: bin/cuseal-supraseal info --json does not list the supraseal backend"
	log "supraseal: bin/cuseal-supraseal built (tags $tags) in $((SECONDS - t0))s"
}

# ---------------------------------------------------------------------------------------------
# lib [--cuda]: the C ABI (include/cuseal_porep.h) as a shared and a static library, built from
# the Go package libcuseal/ with cgo. LIB_OUT (default build/lib) receives libcuseal.so,
# libcuseal.a and cuseal_porep.h. --cuda builds the native library first (as ./build.sh cuda
# does, CUDA_ARCHS honoured) and links it in: the libraries then carry the "cuda" backend, and
# programs linking libcuseal.a also need `pkg-config --libs cuseal` (PKG_CONFIG_PATH=build/native:
# -lcuseal_native -lcuseal_cudart -lstdc++ ...; libcuseal.so carries them).
cmd_lib() {
	local cuda=0 tags=()
	for a in "$@"; do
		case "$a" in
		--cuda) cuda=1 ;;
		*) die "lib: unknown flag $a (usage: ./build.sh lib [--cuda])" ;;
		esac
	done
	need_go
	have cc || have gcc || die "lib: no C compiler (cc) found: cgo needs one (./build.sh deps installs g++)"
	local out=${LIB_OUT:-build/lib}
	if [ "$cuda" = 1 ]; then
		has_native || die "lib: CMakeLists.txt missing"
		cmake_cuda
		tags=(-tags cuda)
	fi
	mkdir -p "$out"
	# Build into a temporary directory first: a failed build leaves the previous libraries intact.
	local tmp
	tmp=$(mktemp -d "$out/.tmp-lib.XXXXXX")
	# shellcheck disable=SC2064  # expand $tmp now: it is local
	trap "rm -rf '$tmp'" EXIT
	run env CGO_ENABLED=1 "$GO" build "${tags[@]}" -buildmode=c-shared -o "$tmp/libcuseal.so" ./libcuseal
	run env CGO_ENABLED=1 "$GO" build "${tags[@]}" -buildmode=c-archive -o "$tmp/libcuseal.a" ./libcuseal
	# cgo also writes libcuseal.h (its own prototypes, without const); callers use the
	# documented header.
	run cp include/cuseal_porep.h "$tmp/cuseal_porep.h"
	run mv -f "$tmp/libcuseal.so" "$tmp/libcuseal.a" "$tmp/cuseal_porep.h" "$out/"
	log "lib: $(cd "$out" && ls -l libcuseal.so libcuseal.a cuseal_porep.h | awk '{ printf "%s (%s bytes)  ", $NF, $5 }')"
	local abs
	abs=$(cd "$out" && pwd)
	log "lib: link with: cc app.c -I$abs -L$abs -lcuseal -Wl,-rpath,$abs   (or $abs/libcuseal.a -pthread -ldl -lm)"
}

# ---------------------------------------------------------------------------------------------
# dist: the release archives (docs/releasing.md lists them) and SHA256SUMS in DIST_OUT (default
# dist), staged in DIST_BUILD (default build/dist, emptied first). Reproducible: the same commit,
# Go toolchain and C compiler give the same bytes whatever the build cache, build directory or
# checkout path (-trimpath, cgo prefix maps, SOURCE_DATE_EPOCH from the last commit, sorted tar
# entries with fixed owners, modes and mtime, gzip -n).
cmd_dist() {
	need_go
	have cc || have gcc || die "dist: no C compiler (cc) found: libcuseal needs cgo (./build.sh deps installs g++)"
	[ "$("$GO" env GOOS)/$("$GO" env GOARCH)" = linux/amd64 ] || die "dist: builds linux/amd64 archives; this Go targets $("$GO" env GOOS)/$("$GO" env GOARCH)"
	local version out build epoch rev
	version=$(sed -n 's/^const Version = "\(.*\)"$/\1/p' internal/buildinfo/buildinfo.go)
	[ -n "$version" ] || die "dist: no const Version in internal/buildinfo/buildinfo.go"
	out=${DIST_OUT:-dist}
	build=${DIST_BUILD:-build/dist}
	rev=$(git rev-parse HEAD 2>/dev/null) || die "dist: not a git checkout: the archives are made from a commit"
	epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
	if [ "$(git tag --points-at HEAD 2>/dev/null | grep -cx "v$version")" = 0 ]; then
		log "dist: warning: HEAD is not tagged v$version: these archives are named $version but are not that release (docs/releasing.md)"
	fi
	local modified=false
	if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
		modified=true
		log "dist: warning: uncommitted changes: the archives are not the commit's ($rev)"
	fi
	export SOURCE_DATE_EPOCH=$epoch
	run rm -rf "$build"
	mkdir -p "$build" "$out"
	rm -f "$out/cuseal-$version-linux-amd64.tar.gz" "$out/cuseal-$version-linux-amd64-cuda.tar.gz" "$out/SHA256SUMS"
	# No path of this machine in the binaries: -trimpath (GOFLAGS reaches cmd_lib's builds too)
	# rewrites Go's paths and makes cgo pass the C compiler -ffile-prefix-map=<module dir>=<module
	# path> (and the same for the module cache). CGO_CFLAGS and CGO_LDFLAGS stay free of this
	# machine's paths: Go hashes them into the build ID, so a path there (an -L, a prefix map
	# naming the build directory) changes every byte-identical library. The commit goes in with
	# -X where the toolchain records no VCS facts (a git worktree; internal/buildinfo).
	local pkg=github.com/cuseal/cuseal/internal/buildinfo
	local vcstime
	vcstime=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ)
	export GOFLAGS="-trimpath -buildvcs=auto -ldflags=-X=$pkg.ldVCS=$rev,$vcstime,$modified"
	export CGO_CFLAGS="-O2 -g"
	local variants=(cpu)
	if [ "${DIST_CUDA:-}" = 0 ]; then
		log "dist: DIST_CUDA=0: no -cuda archive"
	elif have nvcc && has_native; then
		variants+=(cuda)
	else
		log "dist: nvcc not found: no -cuda archive"
	fi
	local v name stage tags f
	for v in "${variants[@]}"; do
		name=cuseal-$version-linux-amd64
		tags=()
		[ "$v" = cuda ] && name=$name-cuda && tags=(-tags cuda)
		stage=$build/$name
		mkdir -p "$stage/bin" "$stage/lib" "$stage/include" "$stage/systemd"
		if [ "$v" = cuda ]; then
			cmake_cuda strict
			run "$GO" build "${tags[@]}" -o "$stage/bin/cuseal" ./cli/cuseal
			(LIB_OUT=$stage/lib cmd_lib --cuda)
			run cp "$NATIVE_BUILD/libcuseal_native.a" "$NATIVE_BUILD/libcuseal_cudart.a" "$stage/lib/"
		else
			run env CGO_ENABLED=0 "$GO" build -o "$stage/bin/cuseal" ./cli/cuseal
			# (no native library to link: no -L of build/native in CGO_LDFLAGS, see above)
			(export CGO_LDFLAGS=; LIB_OUT=$stage/lib cmd_lib)
		fi
		run mv "$stage/lib/cuseal_porep.h" "$stage/include/"
		run cp docs/cuseal-serve.service "$stage/systemd/"
		run cp README.md CHANGELOG.md LICENSE-APACHE LICENSE-MIT "$stage/"
		git ls-files -z docs | while IFS= read -r -d '' f; do
			mkdir -p "$stage/$(dirname "$f")"
			cp "$f" "$stage/$f"
		done
		find "$stage" -type d -exec chmod 0755 {} +
		find "$stage" -type f -exec chmod 0644 {} +
		chmod 0755 "$stage/bin/cuseal" "$stage/lib/libcuseal.so"
		printf '+ tar ... %s | gzip -n > %s\n' "$name" "$out/$name.tar.gz" >&2
		tar -C "$build" --sort=name --format=gnu --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "$name" |
			gzip -n -9 >"$out/$name.tar.gz.tmp" || die "dist: tar/gzip of $name failed"
		mv "$out/$name.tar.gz.tmp" "$out/$name.tar.gz"
	done
	(cd "$out" && sha256sum "cuseal-$version-linux-amd64"*.tar.gz >SHA256SUMS)
	log "dist: $(cd "$out" && ls -l cuseal-"$version"-linux-amd64*.tar.gz | awk '{ printf "%s (%s bytes)  ", $NF, $5 }')"
	log "dist: $out/SHA256SUMS:"
	cat "$out/SHA256SUMS" >&2
}

# ---------------------------------------------------------------------------------------------
# demo: `cuseal demo` seals the sample embedded in the binary, generates (or reuses) the 2 KiB
# test parameters in PARAMS_CACHE, proves, verifies and prints the phase table itself.
cmd_demo() {
	need_go
	build_pure
	replace_foreign_test_params
	# A CUDA binary from ./build.sh build proves on the GPU when it finds a device.
	local bin=bin/cuseal
	if [ -x bin/cuseal-cuda ] && bin/cuseal-cuda info --json 2>/dev/null | grep -q '"backend": *"cuda"'; then
		bin=bin/cuseal-cuda
	fi
	run "$bin" demo --params-dir "$PARAMS_CACHE" "$@"
}

# ---------------------------------------------------------------------------------------------
cmd_clean() {
	run rm -rf bin build dist
	if [ "${1:-}" = --all ]; then
		run rm -rf testdata/cache
	else
		log "clean: kept the cached test parameters in testdata/cache (./build.sh clean --all removes them)"
	fi
}

usage() {
	awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
}

main() {
	local cmd=${1:-}
	[ $# -gt 0 ] && shift
	case "$cmd" in
	deps) cmd_deps "$@" ;;
	build) cmd_build "$@" ;;
	test) cmd_test "$@" ;;
	lint) cmd_lint "$@" ;;
	cuda) cmd_cuda "$@" ;;
	supraseal) cmd_supraseal "$@" ;;
	lib) cmd_lib "$@" ;;
	demo) cmd_demo "$@" ;;
	dist) cmd_dist "$@" ;;
	clean) cmd_clean "$@" ;;
	-h | --help | help) usage ;;
	"") usage; exit 2 ;;
	*) printf 'build.sh: unknown command %q\n' "$cmd" >&2; usage >&2; exit 2 ;;
	esac
}

main "$@"
