#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/bench.sh — reproduce the CPU synthesis table of docs/BENCHMARKS.md.
#
#   scripts/bench.sh            2 KiB and 32 GiB-shape (1 challenge) synthesis figures
#   BENCH_LARGE=1 scripts/bench.sh
#                               also the full 32 GiB partition (18 challenges, ~130M
#                               constraints); it needs about 20 GiB of free memory and is run
#                               only when /proc/meminfo shows that much available
#   RUNS=N                      measured runs per figure (default 5; 1 for the full partition)
#
# It prints one markdown table row per figure: machine, exact command, result, commit. Run it
# on an idle machine; on a shared one, say so in the machine column.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-5}
GO=${GO:-go}

echo "+ env CGO_ENABLED=0 $GO build -o bin/cuseal ./cli/cuseal" >&2
mkdir -p bin
CGO_ENABLED=0 "$GO" build -o bin/cuseal ./cli/cuseal

cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)
mem_gib=$(awk '/^MemTotal:/ { printf "%d", $2 / 1048576 }' /proc/meminfo)
avail_gib=$(awk '/^MemAvailable:/ { printf "%d", $2 / 1048576 }' /proc/meminfo)
machine="${cpu:-unknown CPU}, $(nproc) cores, ${mem_gib} GiB"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

num() { sed -n "s/^ *\"$2\": *\\([-0-9.eE+]*\\),\\{0,1\\}\$/\\1/p" "$1" | head -n 1; }

# row ARGS...: run `bin/cuseal bench synth ARGS --json` and print a table row.
row() {
	local out
	out=$(mktemp)
	echo "+ bin/cuseal --log-level warn bench synth $* --json" >&2
	bin/cuseal --log-level warn bench synth "$@" --json >"$out"
	awk -v machine="$machine" -v cmd="bin/cuseal bench synth $*" -v commit="$commit" \
		-v c="$(num "$out" constraints)" -v s="$(num "$out" seconds)" -v lo="$(num "$out" seconds_min)" \
		-v hi="$(num "$out" seconds_max)" -v r="$(num "$out" constraints_per_second)" \
		-v al="$(num "$out" allocs)" -v ab="$(num "$out" alloc_bytes)" -v rss="$(num "$out" peak_rss_bytes)" \
		-v runs="$(num "$out" runs)" 'BEGIN {
		printf "| %s | `%s` | %.2f M constraints/s; %d constraints in %.3f s (median of %d, min %.3f, max %.3f); %d allocs, %.0f MiB allocated per run; peak RSS %.0f MiB | %s |\n",
			machine, cmd, r / 1e6, c, s, runs, lo, hi, al, ab / 1048576, rss / 1048576, commit }'
	rm -f "$out"
}

echo "| Machine | Command | Result | Commit |"
echo "|---|---|---|---|"
row --sector-size 2KiB --synthetic --runs "$RUNS"
row --sector-size 32GiB --synthetic --challenges 1 --runs "$RUNS"
if [ "${BENCH_LARGE:-0}" = 1 ]; then
	if [ "$avail_gib" -ge 20 ]; then
		row --sector-size 32GiB --synthetic --challenges 18 --runs 1
	else
		echo "bench.sh: skipping the 18-challenge 32 GiB partition: ${avail_gib} GiB available, about 20 GiB needed" >&2
	fi
fi
