#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/bench-synth-compare.sh — synthesis before/after, side by side in one run
# (docs/BENCHMARKS.md, "Parallel synthesis of one partition").
#
#   scripts/bench-synth-compare.sh [BEFORE_REF]   default BEFORE_REF: main
#   BENCH_LARGE=1 ...                             also the full 32 GiB partition (18 challenges,
#                                                 130M constraints, ~16 GiB each, 3 runs): before
#                                                 and after at GOMAXPROCS 2 and at GOMAXPROCS 1
#   SKIP_SMALL=1                                  only the full partition (with BENCH_LARGE=1)
#   KINDS=1                                       every circuit at 32 GiB, before and after back to
#                                                 back: PoRep, SnapDeals and WindowPoSt partitions
#                                                 (--runs 2, ~16 GiB each) and WinningPoSt (--runs 9)
#                                                 (docs/BENCHMARKS.md, "Poseidon synthesis")
#   OUT=DIR                                       keep every --json result in DIR
#
# "before" is bin/cuseal built from BEFORE_REF (git archive into a temporary directory), "after"
# the working tree. Each figure runs both binaries back to back. On a machine shared with other
# jobs, every command takes the shared memory lock (/tmp/cuseal-mem.lock; exclusive for the
# full partition), and the "cores" column (CPU seconds / wall seconds) says how much of the
# machine the command actually got.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BEFORE_REF=${1:-main}
GO=${GO:-go}
OUT=${OUT:-$(mktemp -d)}
LOCK=${LOCK:-/tmp/cuseal-mem.lock}
mkdir -p "$OUT" bin

echo "+ env CGO_ENABLED=0 $GO build -o bin/cuseal ./cli/cuseal" >&2
CGO_ENABLED=0 "$GO" build -o bin/cuseal ./cli/cuseal
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
echo "+ git archive $BEFORE_REF | tar -x -C $src && go build -o $OUT/cuseal-before ./cli/cuseal (./cli before the move)" >&2
git archive "$BEFORE_REF" | tar -x -C "$src"
# The main package moved from cli/ to cli/cuseal/ (issue 43); an older ref has it in cli/.
(cd "$src" && if [ -d cli/cuseal ]; then pkg=./cli/cuseal; else pkg=./cli; fi && CGO_ENABLED=0 "$GO" build -o "$OUT/cuseal-before" "$pkg")

num() { sed -n "s/^ *\"$2\": *\\([-0-9.eE+]*\\),\\{0,1\\}\$/\\1/p" "$1" | head -n 1; }

# fig NAME LOCKMODE ENV BIN ARGS...: run one bench synth, keep its JSON, print one line.
fig() {
	local name=$1 mode=$2 env=$3 bin=$4
	shift 4
	local out="$OUT/$name.json"
	echo "+ flock $mode $LOCK /usr/bin/time env $env $bin --log-level warn bench synth $* --json" >&2
	flock "$mode" "$LOCK" /usr/bin/time -f '%e %U %S %R' -o "$OUT/$name.time" env $env "$bin" --log-level warn bench synth "$@" --json >"$out"
	# Whole process (setup included: synthetic C1, SizeHintFor): wall, CPU, minor faults.
	read -r pwall puser psys pminflt <"$OUT/$name.time"
	awk -v name="$name" -v c="$(num "$out" constraints)" -v lo="$(num "$out" seconds_min)" \
		-v hi="$(num "$out" seconds_max)" -v med="$(num "$out" seconds)" -v rss="$(num "$out" peak_rss_bytes)" \
		-v cold="$(num "$out" cold_seconds)" -v warm="$(num "$out" warm_seconds)" \
		-v cf="$(num "$out" cold_minor_faults)" -v wf="$(num "$out" warm_minor_faults)" \
		-v cores="$(num "$out" cores_used)" -v allocs="$(num "$out" allocs)" 'BEGIN {
		printf "%-28s %11d constraints  median %7.3fs  min %7.3fs (%5.2f M/s)  max %7.3fs", name, c, med, lo, c / lo / 1e6, hi
		if (cold != "") printf "  cold %7.3fs (%d faults) warm %7.3fs (%d faults) cores %.2f", cold, cf, warm, wf, cores
		printf "  %d allocs  peak RSS %.2f GiB\n", allocs, rss / 1073741824 }'
	awk -v w="$pwall" -v u="$puser" -v s="$psys" -v f="$pminflt" 'BEGIN { printf "%-28s process: %.1fs wall, %.1fs CPU (%.1f user, %.1f sys), %d minor faults\n", "", w, u + s, u, s, f }'
}

B="$OUT/cuseal-before"
A=bin/cuseal
S=(--sector-size 32GiB --synthetic)
if [ "${SKIP_SMALL:-0}" != 1 ]; then
fig 2k-before -s GOMAXPROCS=2 "$B" --sector-size 2KiB --synthetic --runs 5
fig 2k-after-w1 -s GOMAXPROCS=2 "$A" --sector-size 2KiB --synthetic --runs 5 --workers 1
fig 2k-after -s GOMAXPROCS=2 "$A" --sector-size 2KiB --synthetic --runs 5
fig 1ch-before -s GOMAXPROCS=2 "$B" "${S[@]}" --challenges 1 --runs 3
fig 1ch-after -s GOMAXPROCS=2 "$A" "${S[@]}" --challenges 1 --runs 3
fig 1ch-after-huge -s GOMAXPROCS=2 "$A" "${S[@]}" --challenges 1 --runs 3 --hugepages on
fig 4ch-before -s GOMAXPROCS=2 "$B" "${S[@]}" --challenges 4 --runs 2
fig 4ch-after -s GOMAXPROCS=2 "$A" "${S[@]}" --challenges 4 --runs 2
fig 4ch-after-huge -s GOMAXPROCS=2 "$A" "${S[@]}" --challenges 4 --runs 2 --hugepages on
fig 4ch-after-p1 -s GOMAXPROCS=1 "$A" "${S[@]}" --challenges 4 --runs 2
fi
if [ "${BENCH_LARGE:-0}" = 1 ]; then
	fig full-before -x GOMAXPROCS=2 "$B" "${S[@]}" --runs 3
	fig full-after -x GOMAXPROCS=2 "$A" "${S[@]}" --runs 3
	fig full-before-p1 -x GOMAXPROCS=1 "$B" "${S[@]}" --runs 3
	fig full-after-p1 -x GOMAXPROCS=1 "$A" "${S[@]}" --runs 3
fi
if [ "${KINDS:-0}" = 1 ]; then
	for kind in porep update window-post winning-post; do
		runs=2
		[ "$kind" = winning-post ] && runs=9
		fig "$kind-before" -x GOMAXPROCS=2 "$B" --circuit "$kind" "${S[@]}" --runs "$runs"
		fig "$kind-after" -x GOMAXPROCS=2 "$A" --circuit "$kind" "${S[@]}" --runs "$runs"
	done
	# The cold WindowPoSt partition with transparent huge pages advised.
	fig window-post-after-huge -x GOMAXPROCS=2 "$A" --circuit window-post "${S[@]}" --runs 2 --hugepages on
fi
echo "results: $OUT" >&2
