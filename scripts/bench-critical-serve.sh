#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/bench-critical-serve.sh — issue #35's scenario as an operator runs it, for
# docs/BENCHMARKS.md ("Engine scheduling: real provers"): `cuseal serve --backend cpu` with
# `cuseal client prove`: a WinningPoSt alone (a warm-up, then three), then one sent 6 s after
# a 2 KiB PoRep C2 started; every proof is checked (post verify, verify), a failure stops it (exit 1).
#
#   scripts/bench-critical-serve.sh [BIN [PARAMS_DIR [serve flags...]]]
#   scripts/bench-critical-serve.sh bin/cuseal /work/cache/golden --no-critical-prover
#
# PARAMS_DIR holds the 2 KiB PoRep and WinningPoSt parameters (test ones are fine).
set -euo pipefail
B=${1:-bin/cuseal}
P=${2:-${FIL_PROOFS_PARAMETER_CACHE:-/var/tmp/filecoin-proof-parameters}}
shift $(( $# < 2 ? $# : 2 ))
W=$(mktemp -d "${TMPDIR:-/tmp}/cuseal-critical.XXXX")
T=1111111111111111111111111111111111111111111111111111111111111111
S=2222222222222222222222222222222222222222222222222222222222222222
R=3333333333333333333333333333333333333333333333333333333333333303 # byte 31 ≤ 0x3f
"$B" seal --random --out "$W/sector" --ticket $T --seed $S --json >/dev/null
"$B" post vanilla --circuit winning-post --sector-dir "$W/sector" --randomness $R --out "$W/vanilla" >/dev/null
"$B" serve --backend cpu --params-dir "$P" --listen "unix://$W/s.sock" "$@" 2>"$W/serve.log" &
SP=$!
trap 'kill $SP 2>/dev/null; wait $SP 2>/dev/null; rm -rf "$W"' EXIT
for _ in $(seq 100); do [ -S "$W/s.sock" ] && break; kill -0 $SP 2>/dev/null || break; sleep 0.2; done
if [ ! -S "$W/s.sock" ]; then
	echo "cuseal serve did not start:" >&2
	cat "$W/serve.log" >&2
	exit 1
fi
A=unix://$W/s.sock
now() { date +%s.%N; }
# win NAME: prove a WinningPoSt, check its proof with `cuseal post verify`, print the seconds;
# a failure stops the script (the caller assigns the output: `x=$(win …)` fails under set -e).
win() {
	local t0 t; t0=$(now)
	"$B" client prove --addr "$A" --kind winning-post --vanilla "$W/vanilla" --out "$W/win-$1.proof" >/dev/null
	t=$(echo "$(now) - $t0" | bc)
	"$B" post verify --params-dir "$P" --proof "$W/win-$1.proof" --randomness $R \
		--proof-type StackedDrgWinning2KiBV1 --vanilla "$W"/vanilla/sector-*.bin >/dev/null 2>&1 ||
		{ echo "WinningPoSt $1: its proof does not verify" >&2; return 1; }
	echo "$t"
}
echo "load $(cat /proc/loadavg)"
t=$(win w); echo "warm-up $t s"
for i in 1 2 3; do t=$(win "a$i"); echo "alone $i $t s"; done
t0=$(now)
"$B" client prove --addr "$A" --c1 "$W/sector/c1.json" --sector 1 --miner t01000 --out "$W/porep.proof" >/dev/null &
PP=$!
sleep 6
win d >"$W/during" &
DP=$!
sleep 1 # which prover took it (cpu:critical unless --no-critical-prover)
"$B" client status --addr "$A" 2>/dev/null | grep -E '^device' | sed 's/^/  1 s after it: /'
wait $DP
echo "during $(cat "$W/during") s (sent 6 s after the C2; its proof verifies)"
wait $PP
echo "porep C2 $(echo "$(now) - $t0" | bc) s"
if "$B" verify --c1 "$W/sector/c1.json" --proof "$W/porep.proof" --params-dir "$P" >/dev/null 2>&1; then
	echo "the C2 proof verifies"
else
	echo "the C2 proof does NOT verify" >&2
	exit 1
fi
"$B" client status --addr "$A" 2>/dev/null | grep -E '^(up|device)'
echo "load $(cat /proc/loadavg)"
