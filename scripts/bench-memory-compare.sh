#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/bench-memory-compare.sh — issue 40 item 4: peak RSS of the whole process, cuseal against
# bellperson 0.27.0 (rust-fil-proofs 19.1.0, CPU), for every kind both run on this box, one run,
# same inputs and the same .params file (docs/BENCHMARKS.md, "Peak memory against bellperson,
# every kind").
#
#   scripts/bench-memory-compare.sh [--rows LIST] [--cuseal PATH] [--refproofs PATH] [--work DIR]
#                                   [--params-dir DIR] [--reader mapped|read] [--exclusive]
#   scripts/bench-memory-compare.sh --report DIR       the table again from a finished --work DIR
#   scripts/bench-memory-compare.sh --parse-time FILE  one `/usr/bin/time -v` file as
#                                                      "peak_kib wall_s user_s sys_s exit_status"
#
#   --rows LIST      comma-separated, in this order by default: c2-2k, snap-2k, window-2k,
#                    winning-2k, winning-32g
#   --cuseal PATH    the cuseal binary (default: built here, CGO_ENABLED=0 go build ./cli/cuseal)
#   --refproofs PATH cuseal-refproofs (porep/stacked/testdata/refcircuit/README.md; default
#                    /work/cache/refproofs-target/release/cuseal-refproofs)
#   --work DIR       inputs, outputs and results (default: a new /tmp/cuseal-memcmp.XXXX); the 32 GiB
#                    WinningPoSt parameters and vanilla proof are made there once and reused
#   --params-dir DIR the 2 KiB test parameters of all four circuits under their official names with
#                    their .vk (default: $CUSEAL_TEST_PARAMS_DIR; read, never written)
#   --reader R       how bellperson reads the .params: mapped (default; what filecoin-proofs does,
#                    storage-proofs-core read_cached_params: build_mapped_parameters, each query
#                    decoded from the mapping when the prover asks for it) or read (the whole file
#                    decoded up front, Parameters::read)
#   --exclusive      hold the shared memory lock (/tmp/cuseal-mem.lock, or $LOCK) exclusively for
#                    each measured process (quieter times; default: shared, as bench-prove-ab.sh)
#
# Rows (both sides prove exactly the same one circuit, CPU only: cuseal --backend cpu, GOMAXPROCS =
# the cores; bellperson's rayon pool on the same cores):
#   c2-2k        PoRep C2, porep/stacked/testdata/c1-2KiB-V1_1.json (StackedDrg2KiBV1_1: one
#                partition): `cuseal commit2` against `cuseal-refproofs prove porep` (the real
#                StackedCompound::circuit of partition 0)
#   snap-2k      SnapDeals, porep/update/testdata/update-2KiB-s31 (one partition): `cuseal update
#                prove` against `cuseal-refproofs prove update`
#   window-2k    WindowPoSt, porep/post/testdata/post-window-2KiB-s21 (two sectors, one partition):
#                `cuseal post window` against `cuseal-refproofs prove post --kind window`
#   winning-2k   WinningPoSt, porep/post/testdata/post-winning-2KiB-s22: `cuseal post winning`
#                against `cuseal-refproofs prove post --kind winning`
#   winning-32g  WinningPoSt 32 GiB on porep/synthetic's vanilla proof (synthpost -proof 3 -seed 1
#                -miner 1000, as scripts/bench-post-compare.sh) and test parameters `cuseal params
#                generate --circuit winning-post --sector-size 32GiB --seed memcmp` (~190 MB)
# Each side is one process under `/usr/bin/time -v` (peak RSS = its "Maximum resident set size":
# anonymous memory and the resident pages of mapped files alike). cuseal verifies every proof with
# the .vk before it writes it (exit 0), and its proof file is verified again by `cuseal verify`,
# `post verify` or `update verify` (a separate process, not measured); bellperson's verified is
# verify_proof's answer in cuseal-refproofs' JSON.
#
# Output: a Markdown table on stdout (kind, peak RSS of each side, cuseal/bellperson, whether
# cuseal ≤ bellperson, wall and CPU seconds, verified); in --work: summary.tsv (the same in
# KiB and seconds), ROW/{cuseal,bellperson}.time (the /usr/bin/time -v files), their stdout (.json)
# and stderr (.log), ROW/cuseal.verify. Exit 0 when every side of every row ran and verified (a
# ratio above 1 is a figure, not a failure), 1 otherwise, 2 on a usage error.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ALL_ROWS="c2-2k snap-2k window-2k winning-2k winning-32g"
ROWS=$ALL_ROWS CUSEAL="" REFPROOFS=/work/cache/refproofs-target/release/cuseal-refproofs WORK=""
PARAMS=${CUSEAL_TEST_PARAMS_DIR:-} READER=mapped MODE=-s LOCK=${LOCK:-/tmp/cuseal-mem.lock}
GO=${GO:-go}
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
die() { echo "bench-memory-compare: $*" >&2; exit 2; }

# parse_time FILE: "peak_kib wall_s user_s sys_s exit_status" of a /usr/bin/time -v file (exit
# status 128+N for a process killed by signal N); fails on a file without a peak RSS line.
parse_time() {
	awk -F': ' '
		/Command terminated by signal/ { n = split($0, w, " "); sig = w[n] }
		/Maximum resident set size \(kbytes\)/ { rss = $NF }
		/Elapsed \(wall clock\) time/ { n = split($NF, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
		/User time \(seconds\)/ { usr = $NF }
		/System time \(seconds\)/ { sys = $NF }
		/Exit status/ { st = $NF }
		END {
			if (rss == "" || wall == "") exit 1
			if (sig != "") st = 128 + sig
			printf "%d %.2f %.2f %.2f %d\n", rss, wall, usr, sys, st
		}' "$1"
}

# report DIR: the table (stdout) and DIR/summary.tsv from DIR's finished rows; 1 if a side of a
# row failed or did not verify.
report() {
	local dir=$1 row c b ok=0 cv bv
	printf 'kind\tcuseal_peak_kib\tbellperson_peak_kib\tratio\tcuseal_wall_s\tcuseal_cpu_s\tbellperson_wall_s\tbellperson_cpu_s\tcuseal_verified\tbellperson_verified\n' >"$dir/summary.tsv"
	echo "| Kind | cuseal peak RSS | bellperson peak RSS | cuseal / bellperson | cuseal ≤ bellperson | cuseal wall (CPU) | bellperson wall (CPU) | verified (cuseal, bellperson) |"
	echo "|---|---|---|---|---|---|---|---|"
	for row in $ALL_ROWS; do
		[ -f "$dir/$row/cuseal.time" ] || [ -f "$dir/$row/bellperson.time" ] || continue
		c=$(parse_time "$dir/$row/cuseal.time" 2>/dev/null) || c="0 0 0 0 255"
		b=$(parse_time "$dir/$row/bellperson.time" 2>/dev/null) || b="0 0 0 0 255"
		# shellcheck disable=SC2086
		set -- $c $b
		cv=no bv=no
		[ "$5" = 0 ] && [ "$(cat "$dir/$row/cuseal.verify" 2>/dev/null)" = 0 ] && cv=yes
		[ "${10}" = 0 ] && grep -q '"verified": true' "$dir/$row/bellperson.json" 2>/dev/null && bv=yes
		[ $cv = yes ] && [ $bv = yes ] || ok=1
		awk -v kind="$(label "$row")" -v row="$row" -v cv=$cv -v bv=$bv -v ck="$1" -v cw="$2" -v cu="$3" -v cs="$4" \
			-v bk="$6" -v bw="$7" -v bu="$8" -v bs="$9" -v tsv="$dir/summary.tsv" 'BEGIN {
			ratio = bk > 0 ? sprintf("%.3f", ck / bk) : "-"
			le = bk > 0 ? (ck <= bk ? "yes" : "no") : "-"
			printf "| %s | %.3f GiB (%d KiB) | %.3f GiB (%d KiB) | %s | %s | %.2f s (%.2f) | %.2f s (%.2f) | %s, %s |\n",
				kind, ck / 1048576, ck, bk / 1048576, bk, ratio, le, cw, cu + cs, bw, bu + bs, cv, bv
			printf "%s\t%d\t%d\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t%s\n", row, ck, bk, ratio, cw, cu + cs, bw, bu + bs, cv, bv >>tsv
		}'
	done
	return $ok
}

label() {
	case $1 in
	c2-2k) echo "PoRep C2 2 KiB (1 partition)" ;; snap-2k) echo "SnapDeals 2 KiB" ;;
	window-2k) echo "WindowPoSt 2 KiB (2 sectors)" ;; winning-2k) echo "WinningPoSt 2 KiB" ;;
	winning-32g) echo "WinningPoSt 32 GiB" ;;
	esac
}

while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage ;;
	--exclusive) MODE=-x; shift; continue ;;
	--report | --parse-time | --rows | --cuseal | --refproofs | --work | --params-dir | --reader) ;;
	*) die "unknown argument $1 (--help)" ;;
	esac
	[ $# -ge 2 ] || die "$1: missing value"
	case $1 in
	--report) [ -d "$2" ] || die "--report $2: not a directory"; report "$2"; exit ;;
	--parse-time) parse_time "$2" || die "--parse-time $2: not a /usr/bin/time -v output"; exit 0 ;;
	--rows) ROWS=${2//,/ } ;;
	--cuseal) CUSEAL=$2 ;; --refproofs) REFPROOFS=$2 ;; --work) WORK=$2 ;; --params-dir) PARAMS=$2 ;;
	--reader) READER=$2 ;;
	esac
	shift 2
done
for row in $ROWS; do
	[[ " $ALL_ROWS " == *" $row "* ]] || die "--rows: unknown row $row (want some of: ${ALL_ROWS// /, })"
done
[ -n "${ROWS// /}" ] || die "--rows: empty"
[[ $READER == mapped || $READER == read ]] || die "--reader $READER: want mapped or read"
[ -x "$REFPROOFS" ] || die "--refproofs $REFPROOFS: not an executable (build it: porep/stacked/testdata/refcircuit/README.md)"
[ -x /usr/bin/time ] || die "/usr/bin/time not found (GNU time: apt-get install time)"
for tool in jq flock awk; do command -v $tool >/dev/null || die "$tool not found"; done
if [[ " $ROWS " == *-2k* ]]; then
	[ -n "$PARAMS" ] && [ -d "$PARAMS" ] || die "--params-dir '$PARAMS': not a directory (the 2 KiB test parameters; or set CUSEAL_TEST_PARAMS_DIR)"
fi
WORK=${WORK:-$(mktemp -d /tmp/cuseal-memcmp.XXXX)}
mkdir -p "$WORK" || die "--work $WORK: cannot create it"
WORK=$(cd "$WORK" && pwd)
if [ -z "$CUSEAL" ]; then
	CUSEAL=$WORK/cuseal
	(cd "$ROOT" && CGO_ENABLED=0 "$GO" build -o "$CUSEAL" ./cli/cuseal) || die "go build ./cli/cuseal failed"
fi
[ -x "$CUSEAL" ] || die "--cuseal $CUSEAL: not an executable"

# params2k META: the .params file a reference vector's meta.json names, in --params-dir.
params2k() {
	local f
	f=$PARAMS/$(jq -r .params_file "$1")
	[ -f "$f" ] && [ -f "${f%.params}.vk" ] || die "$f (or its .vk): missing from --params-dir"
	echo "$f"
}

# postrow DIR KIND: the arrays of a 2 KiB PoSt reference vector.
postrow() {
	local d=$ROOT/porep/post/testdata/$1 m f
	m=$d/meta.json
	P=$(params2k "$m") PD=$PARAMS
	mapfile -t f < <(jq -r '.vanilla[].file' "$m" | sed "s|^|$d/|")
	local common=(--proof-type "$(jq -r .registered_proof.ffi_id "$m")" --miner "t0$(jq -r .miner "$m")"
		--randomness "$(jq -r .randomness "$m")" --params-dir "$PD")
	CU=(post "$2" "${common[@]}" --backend cpu --json --force --out "$OUT/cuseal.proof" "${f[@]}")
	VE=(post verify "${common[@]}" --proof "$OUT/cuseal.proof" "${f[@]}")
	RP=(post --kind "$2" --sector-size "$(jq -r .sector_size "$m")" --randomness "$(jq -r .randomness "$m")"
		--prover-id "$(jq -r .prover_id "$m")" --vanilla-dir "$d/vanilla"
		--sectors-per-partition "$(jq -r .post_config.sector_count "$m")")
}

# setup ROW: P (the .params both read), PD (cuseal's --params-dir), CU (cuseal's prove
# arguments), VE (cuseal's verify arguments), RP (cuseal-refproofs prove's arguments).
setup() {
	OUT=$WORK/$1
	mkdir -p "$OUT"
	case $1 in
	c2-2k)
		local c1=$ROOT/porep/stacked/testdata/c1-2KiB-V1_1.json g=$ROOT/testdata/golden/2KiB-s10/meta.json
		# The 2 KiB V1_1 parameters' official name, from the reference vector of the same proof.
		[ "$(jq -r .registered_proof "$c1")" = "$(jq -r .registered_proof "$g")" ] || die "$c1: not $g's registered proof"
		P=$(params2k "$g") PD=$PARAMS
		# porep/stacked/testdata/SOURCES.md: miner 1000, sector 7.
		CU=(commit2 --c1 "$c1" --miner t01000 --sector 7 --params-dir "$PD" --backend cpu --json --force --out "$OUT/cuseal.proof")
		VE=(verify --c1 "$c1" --miner t01000 --sector 7 --params-dir "$PD" --proof "$OUT/cuseal.proof")
		RP=(porep --c1 "$c1" --partition 0)
		;;
	snap-2k)
		local d=$ROOT/porep/update/testdata/update-2KiB-s31 m
		m=$d/meta.json
		P=$(params2k "$m") PD=$PARAMS
		local comms=(--comm-r-old "$(jq -r .comm_r_old "$m")" --comm-r-new "$(jq -r .comm_r_new "$m")" --comm-d-new "$(jq -r .comm_d_new "$m")")
		CU=(update prove --sector-size 2KiB "${comms[@]}" --params-dir "$PD" --backend cpu --json --force --out "$OUT/cuseal.proof" --vanilla "$d/vanilla")
		VE=(update verify --sector-size 2KiB "${comms[@]}" --params-dir "$PD" --proof "$OUT/cuseal.proof")
		RP=(update --sector-size 2048 "${comms[@]}" --vanilla "$d/vanilla/partition-0.bin" --h "$(jq -r .update_config.h "$m")")
		;;
	window-2k) postrow post-window-2KiB-s21 window ;;
	winning-2k) postrow post-winning-2KiB-s22 winning ;;
	winning-32g)
		PD=$WORK/params-32g
		local v=$WORK/vanilla-winning-32g pat=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-
		echo "+ cuseal params generate --circuit winning-post --sector-size 32GiB --seed memcmp --out $PD --reuse" >&2
		flock "$MODE" "$LOCK" "$CUSEAL" --log-level warn params generate --circuit winning-post --sector-size 32GiB \
			--seed memcmp --out "$PD" --reuse >&2 || die "params generate (32 GiB WinningPoSt) failed"
		P=$(ls "$PD/$pat"*.params 2>/dev/null | head -n 1)
		[ -f "$P" ] || die "$PD: no ${pat}*.params after params generate"
		if [ ! -s "$v/args" ]; then
			echo "+ go run ./porep/stacked/testdata/refcircuit/synthpost -proof 3 -seed 1 -miner 1000 -out $v" >&2
			(cd "$ROOT" && "$GO" run ./porep/stacked/testdata/refcircuit/synthpost -proof 3 -seed 1 -miner 1000 -out "$v") >&2 ||
				die "synthpost failed"
		fi
		local rnd f
		rnd=$(sed -n 's/.*--randomness \([0-9a-f]*\).*/\1/p' "$v/args")
		f=("$v"/vanilla/*.bin)
		local common=(--proof-type 3 --miner t01000 --randomness "$rnd" --params-dir "$PD")
		CU=(post winning "${common[@]}" --backend cpu --json --force --out "$OUT/cuseal.proof" "${f[@]}")
		VE=(post verify "${common[@]}" --proof "$OUT/cuseal.proof" "${f[@]}")
		# shellcheck disable=SC2207
		RP=(post $(cat "$v/args"))
		;;
	esac
}

# measure SIDE CMD...: one process under the lock and /usr/bin/time -v.
measure() {
	local side=$1
	shift
	echo "+ $*" >&2
	flock "$MODE" "$LOCK" /usr/bin/time -v -o "$OUT/$side.time" "$@" >"$OUT/$side.json" 2>"$OUT/$side.log"
	local st=$?
	[ $st = 0 ] || { echo "  $side exited $st (log: $OUT/$side.log)" >&2; tail -n 5 "$OUT/$side.log" >&2; }
}

echo "# $(date -u +%FT%TZ) $(uname -n): $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo); load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "# $("$CUSEAL" version 2>/dev/null | head -n 1); bellperson reader: $READER; lock $LOCK ($MODE)" >&2
for row in $ROWS; do
	echo "== $(label "$row")" >&2
	setup "$row"
	rm -f "$OUT/cuseal.proof" "$OUT/cuseal.verify"
	measure cuseal "$CUSEAL" --log-level warn "${CU[@]}"
	if [ -s "$OUT/cuseal.proof" ]; then
		"$CUSEAL" --log-level warn "${VE[@]}" >"$OUT/cuseal.verify.log" 2>&1
		echo $? >"$OUT/cuseal.verify"
	fi
	measure bellperson "$REFPROOFS" prove "${RP[@]}" --params "$P" --params-reader "$READER"
	echo "  load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
echo "# done $(date -u +%FT%TZ); load average $(cut -d' ' -f1-3 /proc/loadavg); results: $WORK" >&2
report "$WORK"
