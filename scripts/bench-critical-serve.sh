#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/bench-critical-serve.sh — issue #35's scenario as an operator runs it, for
# docs/BENCHMARKS.md ("Engine scheduling: real provers"): `cuseal serve --backend cpu` with
# `cuseal client prove`: a WinningPoSt alone (a warm-up, then three), then one sent 6 s after
# a 2 KiB PoRep C2 started; the C2's proof is verified at the end.
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
for _ in $(seq 100); do [ -S "$W/s.sock" ] && break; sleep 0.2; done
A=unix://$W/s.sock
now() { date +%s.%N; }
win() {
	local t0; t0=$(now)
	"$B" client prove --addr "$A" --kind winning-post --vanilla "$W/vanilla" --out "$W/win-$1.proof" >/dev/null
	echo "$(now) - $t0" | bc
}
echo "load $(cat /proc/loadavg)"
echo "warm-up $(win w) s"
for i in 1 2 3; do echo "alone $i $(win "a$i") s"; done
t0=$(now)
"$B" client prove --addr "$A" --c1 "$W/sector/c1.json" --sector 1 --miner t01000 --out "$W/porep.proof" >/dev/null &
PP=$!
sleep 6
echo "during $(win d) s (sent 6 s after the C2)"
wait $PP
echo "porep C2 $(echo "$(now) - $t0" | bc) s"
"$B" verify --c1 "$W/sector/c1.json" --proof "$W/porep.proof" --params-dir "$P" >/dev/null 2>&1 && echo "the C2 proof verifies"
"$B" client status --addr "$A" 2>/dev/null | grep -E '^(up|device)'
echo "load $(cat /proc/loadavg)"
