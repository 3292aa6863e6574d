#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/bench-prove-ab.sh — two cuseal binaries side by side on the same 2 KiB proofs, in one
# run (docs/BENCHMARKS.md, "One runner for every family: before and after"). For each circuit,
# `cuseal bench prove --backend cpu --runs 1 --json` of binary A then binary B, N times in turn
# (A B A B …, so that a machine whose load drifts slows both alike); prints per binary the median
# of bench prove's own seconds (keys loaded, synthesis, proving, self-verification with the .vk),
# the median CPU seconds of the process (/usr/bin/time: user + system) and the largest peak RSS,
# and the median of the pairwise A/B ratios of seconds.
#
#   A=PATH B=PATH scripts/bench-prove-ab.sh
#   N=5                  pairs per circuit
#   PARAMS_DIR=DIR       the 2 KiB test parameters of every circuit (default: testdata/cache/params,
#                        what ./build.sh test generates)
#   CIRCUITS="porep winning-post update"
#                        porep proves testdata/golden/2KiB-s10/c1.json (miner t01000, sector 10);
#                        winning-post and update prove --synthetic 2 KiB inputs
#   LOCK=/tmp/cuseal-mem.lock   every run holds it shared (flock -s)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

: "${A:?A=PATH of the first cuseal binary}" "${B:?B=PATH of the second cuseal binary}"
N=${N:-5}
PARAMS_DIR=${PARAMS_DIR:-testdata/cache/params}
CIRCUITS=${CIRCUITS:-porep winning-post update}
LOCK=${LOCK:-/tmp/cuseal-mem.lock}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

args() { # args CIRCUIT: bench prove's arguments for it
	case $1 in
	porep) echo "--c1 testdata/golden/2KiB-s10/c1.json --miner t01000 --sector 10" ;;
	*) echo "--circuit $1 --synthetic --sector-size 2KiB" ;;
	esac
}

one() { # one BIN CIRCUIT OUT: one run; appends "seconds cpu rss" to OUT
	local t="$WORK/time" j="$WORK/json"
	# shellcheck disable=SC2046
	flock -s "$LOCK" /usr/bin/time -f '%U %S' -o "$t" "$1" bench prove $(args "$2") \
		--params-dir "$PARAMS_DIR" --backend cpu --runs 1 --json >"$j" 2>/dev/null
	echo "$(jq .seconds "$j") $(awk '{print $1 + $2}' "$t") $(jq .peak_rss_bytes "$j")" >>"$3"
}

for c in $CIRCUITS; do
	: >"$WORK/$c.A"
	: >"$WORK/$c.B"
	for i in $(seq "$N"); do
		one "$A" "$c" "$WORK/$c.A"
		one "$B" "$c" "$WORK/$c.B"
	done
	python3 - "$c" "$WORK/$c.A" "$WORK/$c.B" <<'EOF'
import statistics, sys
c, fa, fb = sys.argv[1:]
rows = lambda f: [list(map(float, l.split())) for l in open(f) if l.strip()]
a, b = rows(fa), rows(fb)
med = lambda v: statistics.median(v)
for name, r in (("A", a), ("B", b)):
    s = [x[0] for x in r]
    print(f"{c:13s} {name}  {med(s):8.2f} s median ({min(s):.2f}-{max(s):.2f})  "
          f"cpu {med([x[1] for x in r]):7.2f} s  peak RSS {max(x[2] for x in r) / 2**30:5.2f} GiB  n={len(r)}")
print(f"{c:13s} A/B {med([x[0] / y[0] for x, y in zip(a, b)]):.3f} (median of pairwise ratios of seconds)")
EOF
done
