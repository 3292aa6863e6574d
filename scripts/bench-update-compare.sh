#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/bench-update-compare.sh — SnapDeals (EmptySectorUpdate), cuseal against bellperson 0.27.0
# (rust-fil-proofs 19.1.0, CPU) in one run (docs/BENCHMARKS.md, "SnapDeals against bellperson").
#
#   REFPROOFS=PATH scripts/bench-update-compare.sh   PATH: cuseal-refproofs (porep/stacked/testdata/
#                                                    refcircuit/README.md; default under /work/cache)
#   WORK=DIR           inputs and results
#   FIGURES="..."      synth32 (one 32 GiB partition: rate, peak RSS), e2e2k (the whole 2 KiB
#                      proof on the CPU); default both
#   PARAMS=FILE        2 KiB update test .params from the reference vector's toxic seed (default:
#                      the one under $CUSEAL_TEST_PARAMS_DIR/update/)
#
# synth32: ours is `cuseal bench synth --circuit update --synthetic --sector-size 32GiB`
# (porep/synthetic.Update, seed 1, partition 0; pre-sized ProvingAssignment, per-challenge
# parallel synthesis), bellperson's is its own ProvingAssignment inside create_random_proof
# (cuseal-refproofs synth update on the same partition proof, written by cuseal bench vanilla;
# parameters are never read). Both take the shared memory lock exclusively (~10 GB ours).
# e2e2k: `cuseal update prove --backend cpu` on the 2 KiB reference vector (process wall time:
# parameters read, synthesis, prover, verify with the .vk) against cuseal-refproofs prove update
# (create_random_proof + verify_proof on the same .params; read time reported apart).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

REFPROOFS=${REFPROOFS:-/work/cache/refproofs-target/release/cuseal-refproofs}
LOCK=${LOCK:-/tmp/cuseal-mem.lock}
WORK=${WORK:-$(mktemp -d)}
FIGURES=" ${FIGURES:-synth32 e2e2k} "
GO=${GO:-go}
mkdir -p "$WORK"
CGO_ENABLED=0 "$GO" build -o "$WORK/cuseal" ./cli/cuseal

j() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d$2)" "$1"; }

if [[ $FIGURES == *" synth32 "* ]]; then
	echo "== SnapDeals 32 GiB synthesis, one partition (partition 0, 86 challenges)"
	v=$WORK/update_32GiB
	"$WORK/cuseal" bench vanilla --circuit update --sector-size 32GiB --seed 1 --partition 0 --out "$v" --force >&2
	flock -x "$LOCK" /usr/bin/time -f '%M' -o "$WORK/ours-synth32.rss" "$WORK/cuseal" bench synth --circuit update \
		--synthetic --sector-size 32GiB --partitions 1 --runs 1 --json >"$WORK/ours-synth32.json"
	f=$WORK/ours-synth32.json
	printf "  cuseal      %11d constraints  %8.3f s  %6.3f M constraints/s  peak RSS %.2f GiB\n" \
		"$(j "$f" "['constraints']")" "$(j "$f" "['seconds']")" "$(j "$f" "['constraints_per_second'] / 1e6")" \
		"$(echo "$(cat "$WORK/ours-synth32.rss") / 1048576" | bc -l)"
	c=$v/commitments.json
	flock -x "$LOCK" "$REFPROOFS" synth update --sector-size 34359738368 --comm-r-old "$(jq -r .comm_r_old "$c")" \
		--comm-d-new "$(jq -r .comm_d_new "$c")" --comm-r-new "$(jq -r .comm_r_new "$c")" \
		--vanilla "$v/partition-0.bin" --partition 0 >"$WORK/theirs-synth32.json"
	f=$WORK/theirs-synth32.json
	awk -v c="$(j "$f" "['num_constraints']")" -v s="$(j "$f" "['bellperson_synthesis_s']")" -v rss="$(j "$f" "['peak_rss_kib']")" 'BEGIN {
		printf "  bellperson  %11s constraints  %8.3f s  %6.3f M constraints/s  peak RSS %.2f GiB\n", c, s, c / s / 1e6, rss / 1048576 }'
fi

if [[ $FIGURES == *" e2e2k "* ]]; then
	echo "== SnapDeals 2 KiB end to end on the CPU: vanilla proof to verified proof"
	ref=porep/update/testdata/update-2KiB-s31
	params=${PARAMS:-$(ls "${CUSEAL_TEST_PARAMS_DIR:-/work/cache/params}"/update/*.params | head -n 1)}
	vk=$(ls "$ref"/*.vk)
	pd=$WORK/params-2k
	mkdir -p "$pd"
	cp "$vk" "$pd/"
	ln -sf "$(realpath "$params")" "$pd/$(basename "${vk%.vk}").params"
	m=$ref/meta.json
	flock -s "$LOCK" /usr/bin/time -f '%e %M %U %S' -o "$WORK/ours-e2e.time" "$WORK/cuseal" update prove \
		--sector-size 2KiB --comm-r-old "$(j "$m" "['comm_r_old']")" --comm-r-new "$(j "$m" "['comm_r_new']")" \
		--comm-d-new "$(j "$m" "['comm_d_new']")" --params-dir "$pd" --backend cpu --out "$WORK/ours-e2e.proof" --force \
		--vanilla "$ref/vanilla"
	read -r wall rss usr sys <"$WORK/ours-e2e.time"
	printf "  cuseal      %7.2f s (process: params read, synthesis, prover, verify; %.1f CPU s)  peak RSS %.2f GiB\n" \
		"$wall" "$(echo "$usr + $sys" | bc -l)" "$(echo "$rss / 1048576" | bc -l)"
	flock -s "$LOCK" "$REFPROOFS" prove update --sector-size 2048 --comm-r-old "$(j "$m" "['comm_r_old']")" \
		--comm-d-new "$(j "$m" "['comm_d_new']")" --comm-r-new "$(j "$m" "['comm_r_new']")" \
		--vanilla "$ref/vanilla/partition-0.bin" --params "$params" >"$WORK/theirs-e2e.json"
	f=$WORK/theirs-e2e.json
	printf "  bellperson  %7.2f s (create_random_proof %.2f s: synthesis %.2f s, prover %.2f s; verify %.3f s) + params read %.2f s  peak RSS %.2f GiB\n" \
		"$(j "$f" "['vanilla_to_verified_s']")" "$(j "$f" "['prove_s']")" "$(j "$f" "['bellperson_synthesis_s']")" \
		"$(j "$f" "['bellperson_prover_s']")" "$(j "$f" "['verify_s']")" "$(j "$f" "['params_read_s']")" \
		"$(echo "$(j "$f" "['peak_rss_kib']") / 1048576" | bc -l)"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); results: $WORK" >&2
