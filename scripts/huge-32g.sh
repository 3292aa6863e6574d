#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/huge-32g.sh — issue 40 item 3: one PoRep C2 partition and one full WindowPoSt partition
# of a 32 GiB sector proven on the CPU from test parameters, one kind at a time: generate the
# kind's test parameters, make its synthetic input (a valid synthetic C1: `bench vanilla --circuit
# porep`; one full partition of valid synthetic WindowPoSt vanilla proofs: `bench vanilla
# --circuit window-post`), prove one partition, verify it with the .vk, record wall time, peak
# RSS (/usr/bin/time -v) and disk used, then delete the parameters before the next kind (the two
# 32 GiB .params files, ~44 and ~57 GiB, do not fit the disk together).
#
#   scripts/huge-32g.sh [--sector-size SIZE] [--kinds "porep window-post"] [--work DIR]
#                       [--cuseal BIN] [--keep-params] [--params-from DIR] [--gen-flags "..."]
#                       [--prove-flags "..."]
#
#   --sector-size  default 32GiB; 2KiB or 8MiB check the script's logic in minutes
#   --kinds        which kinds, in order (default: porep window-post)
#   --work DIR     parameters (DIR/params, deleted per kind), inputs, logs and results.tsv
#                  (default: a new temporary directory)
#   --cuseal BIN   the binary (default: built into DIR/cuseal from this checkout)
#   --keep-params  keep each kind's parameters (only where they fit together)
#   --params-from DIR  use the parameter files already in DIR (made by an earlier run or by
#                  `cuseal params generate --sector-size SIZE --out DIR`): no generation, and DIR
#                  is never deleted
#   --gen-flags    extra flags of `cuseal params generate` (e.g. --force: its memory preflight
#                  refuses a 32 GiB setup until generation runs in bounded memory, issue 40 item 1)
#   --prove-flags  extra flags of the provers (e.g. --synth-workers 1; --force past the memory
#                  preflight of bench prove and commit2)
#
# PoRep: `bench prove --c1 c1.json --partition 0` proves partition 0 alone and verifies it with
# the .vk and the verifier's public inputs before it counts (porep.WithOnlyPartition; exit 1 if
# invalid); a one-partition sector (2KiB–512MiB) is also proven by `commit2` and checked by
# `cuseal verify`. WindowPoSt: `post window` proves the partition, `post verify` checks it with
# the .vk. results.tsv has one row per step: kind, step, wall seconds, peak RSS KiB, disk bytes
# (the parameter directory after generation; the work directory otherwise), exit status.
# At 32 GiB each kind first checks that its .params (47.4 GB PoRep, 60.8 GB WindowPoSt) and
# 2 GiB fit in the free space under --work, and stops if they do not.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SIZE=32GiB
KINDS="porep window-post"
WORK=""
CUSEAL=""
KEEP=0
GEN_FLAGS=""
PROVE_FLAGS=""
FROM=""
while [ $# -gt 0 ]; do
	case $1 in
	--sector-size) SIZE=$2; shift 2 ;;
	--kinds) KINDS=$2; shift 2 ;;
	--work) WORK=$2; shift 2 ;;
	--cuseal) CUSEAL=$2; shift 2 ;;
	--keep-params) KEEP=1; shift ;;
	--params-from) FROM=$2; shift 2 ;;
	--gen-flags) GEN_FLAGS=$2; shift 2 ;;
	--prove-flags) PROVE_FLAGS=$2; shift 2 ;;
	-h | --help) awk 'NR > 2 && /^set -euo/ {exit} NR > 2' "$0"; exit 0 ;;
	*) echo "huge-32g.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done
for k in $KINDS; do
	case $k in porep | window-post) ;; *) echo "huge-32g.sh: --kinds: $k is not porep or window-post" >&2; exit 2 ;; esac
done
[ -x /usr/bin/time ] || { echo "huge-32g.sh: /usr/bin/time (GNU time) is needed for peak RSS" >&2; exit 2; }
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK"
if [ -z "$CUSEAL" ]; then
	CUSEAL=$WORK/cuseal
	CGO_ENABLED=0 go build -o "$CUSEAL" ./cli/cuseal
fi
PARAMS=$WORK/params
if [ -n "$FROM" ]; then
	[ -d "$FROM" ] || { echo "huge-32g.sh: --params-from $FROM: not a directory" >&2; exit 2; }
	PARAMS=$(cd "$FROM" && pwd)
	KEEP=1
fi
RESULTS=$WORK/results.tsv
printf 'kind\tstep\twall_s\tpeak_rss_kib\tdisk_bytes\texit\n' >"$RESULTS"
echo "huge-32g.sh: $SIZE, kinds: $KINDS, work: $WORK" >&2

# step KIND NAME DISKDIR CMD...: runs CMD under /usr/bin/time -v (its output in
# WORK/KIND-NAME.out, the time report in .time), appends a row to results.tsv and stops the
# script on failure.
step() {
	local kind=$1 name=$2 disk=$3
	shift 3
	local log=$WORK/$kind-$name
	echo "+ $*" >&2
	local rc=0
	/usr/bin/time -v -o "$log.time" "$@" >"$log.out" 2>"$log.err" || rc=$?
	local wall rss bytes
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$log.time")
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log.time")
	bytes=$(du -sb "$disk" | cut -f1)
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$name" "$wall" "$rss" "$bytes" "$rc" >>"$RESULTS"
	echo "  $kind $name: ${wall}s wall, peak RSS ${rss} KiB, $bytes bytes in $disk, exit $rc" >&2
	if [ "$rc" != 0 ]; then
		echo "huge-32g.sh: $kind $name failed (exit $rc):" >&2
		tail -5 "$log.err" >&2
		exit 1
	fi
}

# params_bytes KIND: the size of KIND's 32 GiB .params (paramfile.EstimateParamsBytes, exact
# for every 2 KiB file: porep TestEstimateParamsBytes); empty for other sizes.
params_bytes() {
	[ "$SIZE" = 32GiB ] || return 0
	case $1 in porep) echo 47373928632 ;; window-post) echo 60780374232 ;; esac
}

for kind in $KINDS; do
	if [ -z "$FROM" ]; then
		rm -rf "$PARAMS"
		mkdir -p "$PARAMS"
	fi
	df -h "$WORK" | tail -1 >&2
	need=$(params_bytes "$kind")
	if [ -n "$need" ] && [ -z "$FROM" ]; then
		need=$((need + (2 << 30))) # the .vk, inputs, proofs and logs
		avail=$(df --output=avail -B1 "$WORK" | tail -1)
		if [ "$avail" -lt "$need" ]; then
			echo "huge-32g.sh: $kind: $need bytes needed in $WORK (its .params and 2 GiB), $avail available" >&2
			exit 1
		fi
	fi
	# shellcheck disable=SC2086
	if [ -z "$FROM" ]; then
		step "$kind" generate "$PARAMS" "$CUSEAL" params generate --circuit "$kind" --sector-size "$SIZE" --out "$PARAMS" --json $GEN_FLAGS
	fi
	in=$WORK/$kind-input
	rm -rf "$in"
	step "$kind" input "$in" "$CUSEAL" bench vanilla --circuit "$kind" --sector-size "$SIZE" --out "$in" --json
	case $kind in
	porep)
		# shellcheck disable=SC2086
		step "$kind" prove-partition0 "$WORK" "$CUSEAL" bench prove --c1 "$in/c1.json" --partition 0 --backend cpu \
			--params-dir "$PARAMS" --json $PROVE_FLAGS
		if grep -q '"partitions": 1,' "$in/c1-sector.json"; then
			rm -f "$WORK/$kind.proof"
			# shellcheck disable=SC2086
			step "$kind" commit2 "$WORK" "$CUSEAL" commit2 --c1 "$in/c1.json" --backend cpu --params-dir "$PARAMS" \
				--out "$WORK/$kind.proof" $PROVE_FLAGS
			step "$kind" verify "$WORK" "$CUSEAL" verify --c1 "$in/c1.json" --proof "$WORK/$kind.proof" --params-dir "$PARAMS"
		fi
		;;
	window-post)
		# shellcheck disable=SC2086
		step "$kind" prove "$WORK" "$CUSEAL" post window --vanilla "$in" --backend cpu --params-dir "$PARAMS" \
			--out "$WORK/$kind.proof" --force $PROVE_FLAGS
		step "$kind" verify "$WORK" "$CUSEAL" post verify --vanilla "$in" --proof "$WORK/$kind.proof" --params-dir "$PARAMS"
		;;
	esac
	if [ "$KEEP" = 0 ]; then
		rm -rf "$PARAMS"
	fi
done
echo "huge-32g.sh: done; $RESULTS:" >&2
column -t -s $'\t' "$RESULTS" >&2 || cat "$RESULTS" >&2
