#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/bench-post-compare.sh — 32 GiB PoSt, cuseal against bellperson 0.27.0 (rust-fil-proofs
# 19.1.0, CPU) in one run, on the same synthetic vanilla proofs (docs/BENCHMARKS.md, "PoSt
# against bellperson").
#
#   REFPROOFS=PATH scripts/bench-post-compare.sh   PATH: cuseal-refproofs (porep/stacked/testdata/
#                                                  refcircuit/README.md; default under /work/cache)
#   WORK=DIR           vanilla proofs and results (reused: synthpost runs only where missing)
#   WINDOW_SECTORS=N   window synthesis on the partition's first N sectors (default 235, a tenth)
#   BENCH_LARGE=1      also the full 2349-sector partition: ours (synthesis, peak RSS) and,
#                      with BENCH_LARGE_RUST=1, bellperson's (needs ~20 GB)
#   FIGURES="..."      which figures: winning window e2e (default: all three)
#   PARAMS_DIR=DIR     32 GiB WinningPoSt test parameters (cuseal params generate --circuit
#                      winning-post --sector-size 32GiB --seed refproofs-bench --out DIR);
#                      without it the end-to-end figure is skipped
#
# Every command takes the shared memory lock (/tmp/cuseal-mem.lock; exclusive for the full
# partition). Synthesis: ours is BenchmarkSynthesis32GiB (porep/post: pre-sized
# ProvingAssignment, SynthesizeParallel on GOMAXPROCS workers), bellperson's is its own
# ProvingAssignment inside create_random_proof (cuseal-refproofs synth: the "synthesis time" it
# logs; parameters are never read). End to end: `cuseal post winning --backend cpu` (process wall
# time: parameters read, synthesis, prover, verify with the .vk) against cuseal-refproofs prove
# (create_random_proof + verify_proof on the same .params file; read time reported apart).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

REFPROOFS=${REFPROOFS:-/work/cache/refproofs-target/release/cuseal-refproofs}
LOCK=${LOCK:-/tmp/cuseal-mem.lock}
WORK=${WORK:-$(mktemp -d)}
N=${WINDOW_SECTORS:-235}
FIGURES=" ${FIGURES:-winning window e2e} "
GO=${GO:-go}
mkdir -p "$WORK" bin

synth() { # synth NAME PROOF SEED
	[ -s "$WORK/$1/args" ] && return
	"$GO" run ./porep/stacked/testdata/refcircuit/synthpost -proof "$2" -seed "$3" -miner 1000 -out "$WORK/$1" >&2
}
synth winning_32GiB 3 1
synth window_32GiB_partition 13 2
echo "+ go test -c -o $WORK/post.test ./porep/post" >&2
"$GO" test -c -o "$WORK/post.test" ./porep/post
CGO_ENABLED=0 "$GO" build -o bin/cuseal ./cli/cuseal

j() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d$2)" "$1"; }

# ours NAME MODE ENV...: BenchmarkSynthesis32GiB/NAME, 3 runs; prints constraints/s and peak RSS.
ours() {
	local name=$1 mode=$2
	shift 2
	(cd porep/post && flock "$mode" "$LOCK" /usr/bin/time -f '%M' -o "$WORK/ours-$name.rss" env "$@" \
		"$WORK/post.test" -test.run '^$' -test.bench "BenchmarkSynthesis32GiB/$name\$" -test.benchtime 3x) \
		>"$WORK/ours-$name.txt"
	awk -v rss="$(cat "$WORK/ours-$name.rss")" '/constraints\/s/ { for (i = 1; i < NF; i++) {
		if ($(i+1) == "ns/op") s = $i / 1e9; if ($(i+1) == "constraints") c = $i; if ($(i+1) == "constraints/s") r = $i }
		printf "  cuseal      %11d constraints  %8.3f s  %6.3f M constraints/s  peak RSS %.2f GiB\n", c, s, r / 1e6, rss / 1048576 }' \
		"$WORK/ours-$name.txt"
}

# theirs NAME MODE ARGS...: cuseal-refproofs synth post (bellperson's ProvingAssignment).
theirs() {
	local name=$1 mode=$2
	shift 2
	# shellcheck disable=SC2046
	flock "$mode" "$LOCK" "$REFPROOFS" synth post $(cat "$WORK/$name/args") "$@" >"$WORK/theirs-$name.json"
	local f=$WORK/theirs-$name.json
	awk -v c="$(j "$f" "['num_constraints']")" -v s="$(j "$f" "['bellperson_synthesis_s']")" -v rss="$(j "$f" "['peak_rss_kib']")" 'BEGIN {
		printf "  bellperson  %11s constraints  %8.3f s  %6.3f M constraints/s  peak RSS %.2f GiB\n", c, s, c / s / 1e6, rss / 1048576 }'
}

if [[ $FIGURES == *" winning "* ]]; then
	echo "== WinningPoSt 32 GiB synthesis (1 circuit, 66 challenges)"
	ours winning_32GiB -s
	theirs winning_32GiB -s
fi

if [[ $FIGURES == *" window "* ]]; then
	echo "== WindowPoSt 32 GiB synthesis, first $N sectors of a partition"
	ours window_32GiB_partition -s CUSEAL_BENCH_WINDOW_SECTORS="$N"
	theirs window_32GiB_partition -s --sectors-per-partition "$N"
fi

if [ "${BENCH_LARGE:-0}" = 1 ]; then
	echo "== WindowPoSt 32 GiB synthesis, full partition (2349 sectors)"
	ours window_32GiB_partition -x CUSEAL_TEST=huge
	if [ "${BENCH_LARGE_RUST:-0}" = 1 ]; then
		theirs window_32GiB_partition -x
	fi
fi

if [ -n "${PARAMS_DIR:-}" ] && [[ $FIGURES == *" e2e "* ]]; then
	echo "== WinningPoSt 32 GiB end to end on the CPU: vanilla proof to verified proof"
	w=$WORK/winning_32GiB
	rnd=$(sed -n 's/.*--randomness \([0-9a-f]*\).*/\1/p' "$w/args")
	flock -s "$LOCK" /usr/bin/time -f '%e %M %U %S' -o "$WORK/ours-e2e.time" bin/cuseal post winning \
		--proof-type 3 --randomness "$rnd" --miner t01000 --params-dir "$PARAMS_DIR" --backend cpu \
		--out "$WORK/ours-e2e.proof" --force "$w"/vanilla/*.bin
	read -r wall rss usr sys <"$WORK/ours-e2e.time"
	printf "  cuseal      %7.2f s (process: params read, synthesis, prover, verify; %.1f CPU s)  peak RSS %.2f GiB\n" \
		"$wall" "$(echo "$usr + $sys" | bc -l)" "$(echo "$rss / 1048576" | bc -l)"
	params=$(ls "$PARAMS_DIR"/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-*.params | head -n 1)
	# shellcheck disable=SC2046
	flock -s "$LOCK" "$REFPROOFS" prove post $(cat "$w/args") --params "$params" >"$WORK/theirs-e2e.json"
	f=$WORK/theirs-e2e.json
	printf "  bellperson  %7.2f s (create_random_proof %.2f s: synthesis %.2f s, prover %.2f s; verify %.3f s) + params read %.2f s  peak RSS %.2f GiB\n" \
		"$(j "$f" "['vanilla_to_verified_s']")" "$(j "$f" "['prove_s']")" "$(j "$f" "['bellperson_synthesis_s']")" \
		"$(j "$f" "['bellperson_prover_s']")" "$(j "$f" "['verify_s']")" "$(j "$f" "['params_read_s']")" \
		"$(echo "$(j "$f" "['peak_rss_kib']") / 1048576" | bc -l)"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); results: $WORK" >&2
