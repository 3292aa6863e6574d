#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/soak.sh — issue 42 item 2, docs/reliability.md ("Soak"): `cuseal serve --backend cpu` on
# a unix socket in a temporary directory, and `cuseal client` processes sending a stated mix of
# the four kinds at 2 KiB (the reference vectors), with duplicates, retries, cancels, deadline
# expiries and malformed requests mixed in, round after round until N requests are sent, while a
# sampler records the server's RSS, open fds (/proc), goroutines (/metrics), parameter bytes and
# queue depth (/status) every second. Bounded: N requests, a wall-time limit, every client call
# with a timeout, loopback only (the socket and 127.0.0.1); it stops serve (SIGTERM) itself.
#
#   scripts/soak.sh [--requests N] [--time-limit SECONDS] [--mix SPEC] [--concurrency P]
#                   [--bin PATH] [--params-dir DIR] [--budget SIZE] [--out DIR] [--tolerance PCT]
#                   [--idle-slack MIB]
#
# A round is the mix, default win=9,window=5,windup=1,c2=1,snap=1,bad=3 (25 requests):
#   win     a WinningPoSt (no request id)                                        1 request
#   window  a WindowPoSt partition (no request id)                               1 request
#   windup  one WinningPoSt request id sent by two clients at once (one job)     2 requests
#   c2      a PoRep C2 chain on request id soak-c2-R: sent and cancelled (CancelProof) while
#           queued or proving; once that job has ended, sent again by two clients at once
#           (one job, a duplicate); once proven, sent a third time (attaches to the finished
#           job: no proof made)                                                  4 requests
#   snap    a SnapDeals chain on request id soak-snap-R: sent with a 3 s deadline (expires; the
#           server cancels the job), then retried once that job has ended        2 requests
#   bad     a malformed request, in turn: a WindowPoSt of a WinningPoSt's vanilla proof, a
#           WinningPoSt of another randomness, a SnapDeals update whose new comm_r is the old,
#           a WinningPoSt whose vanilla proof is cut short (1000 bytes), a C1 sent as
#           another sector's                                                     1 request
# Round 1 is the warm-up (parameters load). After each round the script waits until the server
# is idle and reads the idle point: RSS, goroutines, fds.
#
# Checks (each failure is one line "FAIL <check>: ..."; exit 1 if any, 2 on a usage error):
#   proofs       every valid request exited 0 and its proof verifies with the .vk (`cuseal
#                verify`, `cuseal post verify`, `cuseal update verify`); duplicates and the
#                re-sent request got the same job and the same bytes
#   refusals     every malformed request exited 2 with INVALID_ARGUMENT (and the server counted
#                as many InvalidArgument Prove calls); every cancel got CANCELLED, every deadline
#                DEADLINE_EXCEEDED
#   once         nothing proven twice: completed jobs per kind (cuseal_engine_jobs_total) equal
#                the distinct job ids the clients got; partitions proven (the prove histogram's
#                count) are those of the completed jobs plus at most the cancelled jobs'; no job
#                failed, no partition retried
#   rss          the memory in use at idle (RssAnon less the free heap the Go runtime keeps for
#                reuse, go_memstats_heap_idle_bytes - _released_bytes; RssFile, the binary's and
#                mapped files' page cache that the kernel evicts and faults back under other
#                processes' pressure, is recorded apart and not counted) after every round from the
#                third stays within round 2's (the first after warm-up) + PCT %, or + MIB MiB
#                where that is more (default 4: the idle process's own noise, ~1–2 MiB, is more
#                than 10 % of its ~12 MiB once the synthesis buffers are released), read after a
#                collection for round 2, the end and any round over the limit; each kind's peak
#                in use (the largest sample while it, and no heavier kind, runs) is flat: the
#                later half of the rounds' largest within +PCT % of the first half's (checked
#                with 5 rounds or more: two in each half)
#   leaks        goroutines and open fds at every idle point after warm-up and after the last
#                drain are at most the first idle point's (after warm-up) + 3
#   serve        serve stays up and exits 0 on SIGTERM
# Outputs in --out (default a new /tmp/cuseal-soak.XXXX): summary.txt (the figures), soak.svg
# (RSS, parameter bytes and queue depth over time, drawn here with awk), samples.tsv, idle.tsv,
# results.tsv (one line per request), serve.log.
# Needs: bash, jq, curl, awk; the 2 KiB test parameters of all four circuits in --params-dir
# (default $CUSEAL_TEST_PARAMS_DIR; read, never written); bin/cuseal is built (CGO_ENABLED=0, as
# ./build.sh build does) unless --bin names a binary.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
REQUESTS=300 LIMIT=1800 MIX="win=9,window=5,windup=1,c2=1,snap=1,bad=3" CONC=4 BIN="" PARAMS=${CUSEAL_TEST_PARAMS_DIR:-}
BUDGET=4GiB OUT="" TOL=10 IDLE_SLACK=4 SLACK=3 SETTLE=5
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
die() { echo "soak: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--requests) REQUESTS=$2 ;; --time-limit) LIMIT=$2 ;; --mix) MIX=$2 ;; --concurrency) CONC=$2 ;;
	--bin) BIN=$2 ;; --params-dir) PARAMS=$2 ;; --budget) BUDGET=$2 ;; --out) OUT=$2 ;;
	--tolerance) TOL=$2 ;; --idle-slack) IDLE_SLACK=$2 ;; -h | --help) usage ;;
	*) die "unknown argument $1 (--help)" ;;
	esac
	[ $# -ge 2 ] || die "$1: missing value"
	shift 2
done
for v in REQUESTS LIMIT CONC TOL IDLE_SLACK; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "--$(echo "$v" | tr 'A-Z_' 'a-z-') ${!v}: want a whole number > 0"
done
for tool in jq curl awk; do command -v $tool >/dev/null || die "$tool not found"; done
[ -n "$PARAMS" ] && [ -d "$PARAMS" ] || die "--params-dir '$PARAMS': not a directory (the 2 KiB test parameters; or set CUSEAL_TEST_PARAMS_DIR)"
declare -A M=([win]=0 [window]=0 [windup]=0 [c2]=0 [snap]=0 [bad]=0)
IFS=, read -ra parts <<<"$MIX"
for p in "${parts[@]}"; do
	k=${p%%=*} n=${p#*=}
	[[ -v M[$k] && $n =~ ^[0-9]+$ ]] || die "--mix $MIX: '$p' is not win|window|windup|c2|snap|bad=COUNT"
	M[$k]=$n
done
ROUND=$((M[win] + M[window] + 2 * M[windup] + 4 * M[c2] + 2 * M[snap] + M[bad]))
[ $ROUND -gt 0 ] || die "--mix $MIX: an empty round"
ROUNDS=$(((REQUESTS + ROUND - 1) / ROUND))
[ $ROUNDS -ge 3 ] || die "--requests $REQUESTS: $ROUNDS round(s) of $ROUND; the RSS check needs 3 (warm-up, reference, one more)"

if [ -z "$BIN" ]; then
	(cd "$ROOT" && CGO_ENABLED=0 go build -o bin/cuseal ./cli/cuseal) || die "go build ./cli/cuseal failed"
	BIN=$ROOT/bin/cuseal
fi
[ -x "$BIN" ] || die "--bin $BIN: not an executable"
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/cuseal-soak.XXXX")}
mkdir -p "$OUT/r" "$OUT/proofs" || die "--out $OUT: cannot create"
rm -f "$OUT"/r/* "$OUT"/proofs/*
SOCKDIR=$(mktemp -d /tmp/cuseal-soak-sock.XXXX) # short: a unix socket path is at most 107 bytes

# The inputs: the repository's 2 KiB reference vectors (see their README.md).
WIN=$ROOT/porep/post/testdata/post-winning-2KiB-s22 WND=$ROOT/porep/post/testdata/post-window-2KiB-s21
UPD=$ROOT/porep/update/testdata/update-2KiB-s31 C1=$ROOT/testdata/golden/2KiB-s10/c1.json
C1_SECTOR=$(jq -r .sector_id "$ROOT/testdata/golden/2KiB-s10/meta.json")
postargs() { # postargs DIR: --proof-type, --miner, --randomness and --vanilla of a PoSt vector
	local d=$1
	printf -- '--proof-type\n%s\n--miner\nt0%s\n--randomness\n%s\n' "$(jq -r .registered_proof.ffi_id "$d/meta.json")" \
		"$(jq -r .miner "$d/meta.json")" "$(jq -r .randomness "$d/meta.json")"
	jq -r '.vanilla[].file' "$d/meta.json" | while read -r f; do printf -- '--vanilla\n%s\n' "$d/$f"; done
}
mapfile -t WIN_ARGS < <(postargs "$WIN")
mapfile -t WND_ARGS < <(postargs "$WND")
WND_BAD=("${WND_ARGS[@]:0:6}" --vanilla "$WIN/vanilla/000.bin") # a WinningPoSt's vanilla proof
WIN_BAD=("${WIN_ARGS[@]}")
WIN_BAD[5]=$(jq -r .randomness "$WND/meta.json") # another randomness than the vanilla proof's
head -c 1000 "$WIN/vanilla/000.bin" >"$OUT/cut-vanilla.bin" || die "cannot write $OUT/cut-vanilla.bin"
WIN_CUT=("${WIN_ARGS[@]:0:6}" --vanilla "$OUT/cut-vanilla.bin") # a vanilla proof cut short
UPD_COMMS=(--comm-r-old "$(jq -r .comm_r_old "$UPD/meta.json")" --comm-r-new "$(jq -r .comm_r_new "$UPD/meta.json")"
	--comm-d-new "$(jq -r .comm_d_new "$UPD/meta.json")")
UPD_ARGS=(--sector-size 2KiB --miner "t0$(jq -r .miner "$UPD/meta.json")" --sector "$(jq -r .sector_number "$UPD/meta.json")" --vanilla "$UPD/vanilla")
UPD_BAD=(--sector-size 2KiB --comm-r-old "${UPD_COMMS[1]}" --comm-r-new "${UPD_COMMS[1]}" --comm-d-new "${UPD_COMMS[5]}" --vanilla "$UPD/vanilla")
C2_ARGS=(--c1 "$C1" --sector "$C1_SECTOR" --miner t01000)
for f in "$WIN/meta.json" "$WND/meta.json" "$UPD/meta.json" "$C1"; do [ -r "$f" ] || die "$f: missing (run from a cuseal checkout)"; done

now() { date +%s.%N; }
T0=$(now)
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
elapsed() { since "$T0" | cut -d. -f1; }

# --- serve --------------------------------------------------------------------------------
A=unix://$SOCKDIR/s.sock
"$BIN" --log-level warn serve --backend cpu --params-dir "$PARAMS" --listen "$A" --metrics-listen 127.0.0.1:0 --budget "$BUDGET" \
	--retain-jobs $((ROUNDS * ROUND + 100)) --drain-timeout 2m 2>"$OUT/serve.log" &
SP=$!
SAMPLER=""
cleanup() {
	[ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null
	for j in $(jobs -p); do [ "$j" != "$SP" ] && kill "$j" 2>/dev/null; done
	if kill -0 "$SP" 2>/dev/null; then
		kill -TERM "$SP" 2>/dev/null
		for _ in $(seq 150); do kill -0 "$SP" 2>/dev/null || break; sleep 0.2; done
		kill -KILL "$SP" 2>/dev/null
	fi
	rm -rf "$SOCKDIR"
}
trap cleanup EXIT
trap 'echo "soak: interrupted" >&2; exit 1' INT TERM
MADDR=""
for _ in $(seq 300); do
	MADDR=$(sed -n 's|.*status page on http://\([0-9.:]*\)/.*|\1|p' "$OUT/serve.log" | head -1)
	[ -n "$MADDR" ] && [ -S "$SOCKDIR/s.sock" ] && break
	kill -0 $SP 2>/dev/null || break
	sleep 0.2
done
[ -n "$MADDR" ] && [ -S "$SOCKDIR/s.sock" ] || { cat "$OUT/serve.log" >&2; die "cuseal serve did not start"; }
H=http://$MADDR

# --- sampling ------------------------------------------------------------------------------
# msum FILE NAME [LABEL=VALUE ...]: the sum of metric NAME's samples that carry those labels.
msum() {
	local f=$1 n=$2
	shift 2
	awk -v n="$n" -v want="$*" 'BEGIN { k = split(want, w, " ") }
		index($0, n "{") == 1 || $1 == n { ok = 1
			for (i = 1; i <= k; i++) { split(w[i], kv, "="); if (index($0, kv[1] "=\"" kv[2] "\"") == 0) ok = 0 }
			if (ok) s += $NF }
		END { printf "%.0f\n", s + 0 }' "$f"
}
KINDS="POREP_SEAL_COMMIT SNAP_DEALS_UPDATE WINDOW_POST_PARTITION WINNING_POST"
# sample: one line of samples.tsv: seconds, RSS KiB, fds, goroutines, parameter bytes, jobs
# queued, jobs in progress, then in progress per kind (KINDS' order); "-" where unreadable.
sample() {
	local rss fds m gor free st anon file
	read -r rss anon file < <(awk '/^VmRSS:/ { r = $2 } /^RssAnon:/ { a = $2 } /^RssFile:/ { f = $2 }
		END { print (r == "" ? "-" : r), (a == "" ? "-" : a), (f == "" ? "-" : f) }' /proc/$SP/status 2>/dev/null)
	fds=$(ls /proc/$SP/fd 2>/dev/null | wc -l)
	m=$(curl -sf --max-time 5 "$H/metrics")
	gor=$(awk '$1 == "go_goroutines" { print $2 }' <<<"$m")
	# free heap: spans the Go runtime holds for reuse, not yet returned to the OS (in the RSS)
	free=$(awk '$1 == "go_memstats_heap_idle_bytes" { i = $2 } $1 == "go_memstats_heap_released_bytes" { r = $2 }
		END { if (i != "") printf "%.0f", (i - r) / 1024 }' <<<"$m")
	st=$(curl -sf --max-time 5 "$H/status?jobs=0" | jq -r --arg kinds "$KINDS" '(.queues | map({(.kind): .in_progress}) | add // {}) as $q
		| [.memory.by_use.params_bytes // 0, ([.queues[].pending] | add // 0), ([.queues[].in_progress] | add // 0)]
		+ [($kinds | split(" "))[] | $q[.] // 0] | map(tostring) | join("\t")' 2>/dev/null)
	[ -n "$st" ] || st=$(printf -- '-\t-\t-\t-\t-\t-\t-')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(since "$T0")" "${rss:--}" "${fds:--}" "${gor:--}" "$st" "${free:--}" "${anon:--}" "${file:--}"
}
printf 'seconds\trss_kib\tfds\tgoroutines\tparams_bytes\tqueued\tin_progress\t%s\tfree_heap_kib\trss_anon_kib\trss_file_kib\n' "${KINDS// /$'\t'}" >"$OUT/samples.tsv"
(while kill -0 $SP 2>/dev/null; do sample >>"$OUT/samples.tsv"; sleep 1; done) &
SAMPLER=$!

# status_jq FILTER: FILTER over GET /status (every job).
status_jq() { curl -sf --max-time 10 "$H/status" | jq -r "$@"; }
# wait_idle: until no job is queued or in progress (and the clients are done), then SETTLE s.
wait_idle() {
	for _ in $(seq 600); do
		[ "$(status_jq '[.queues[] | .pending + .in_progress] | add')" = 0 ] && break
		sleep 1
	done
	sleep $SETTLE
}
# job_of ID STATES: the id of the job of request id ID whose state is one of STATES (a regex),
# waiting up to a minute for one.
job_of() {
	local j
	for _ in $(seq 300); do
		j=$(status_jq --arg r "$1" --arg s "$2" '[.jobs[] | select(.request_id == $r and (.state | ascii_upcase | test($s)))][-1].job_id // empty')
		[ -n "$j" ] && { echo "$j"; return 0; }
		sleep 0.2
	done
	return 1
}
# ended ID: wait until no job of request id ID is queued or running.
ended() {
	for _ in $(seq 600); do
		[ "$(status_jq --arg r "$1" '[.jobs[] | select(.request_id == $r and (.state | ascii_upcase | test("QUEUED|RUNNING")))] | length')" = 0 ] && return 0
		sleep 0.5
	done
}

# --- requests ------------------------------------------------------------------------------
# verify KIND PROOF: the proof checked against the .vk by the kind's verify command.
verify() {
	case $1 in
	porep) "$BIN" verify --params-dir "$PARAMS" --proof "$2" "${C2_ARGS[@]}" ;;
	winning-post) "$BIN" post verify --params-dir "$PARAMS" --proof "$2" "${WIN_ARGS[@]}" ;;
	window-post) "$BIN" post verify --params-dir "$PARAMS" --proof "$2" "${WND_ARGS[@]}" ;;
	update) "$BIN" update verify --params-dir "$PARAMS" --proof "$2" --sector-size 2KiB "${UPD_COMMS[@]}" ;;
	esac >/dev/null 2>&1
}
# prove ID CLASS KIND TIMEOUT ARGS...: one `cuseal client prove --json`; results.tsv's line in
# r/ID.res: id, round, class, kind, exit code, job id, seconds, verified (yes/no/-), its stderr's
# first line.
prove() {
	local id=$1 class=$2 kind=$3 to=$4 rc job t0 ok=- round=${1%%-*}
	shift 4
	t0=$(now)
	"$BIN" client prove --addr "$A" --kind "$kind" --timeout "$to" --json --out "$OUT/proofs/$id.proof" "$@" \
		>"$OUT/r/$id.json" 2>"$OUT/r/$id.err"
	rc=$?
	local secs
	secs=$(since "$t0")
	job=$(jq -r '.job_id // empty' "$OUT/r/$id.json" 2>/dev/null)
	if [ $rc = 0 ]; then
		if verify "$kind" "$OUT/proofs/$id.proof"; then ok=yes; else ok=no; fi
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$round" "$class" "$kind" $rc "${job:--}" "$secs" $ok \
		"$(grep -v '^client prove: ' "$OUT/r/$id.err" | tail -1 | tr '\t' ' ')" >"$OUT/r/$id.res"
}
TO=10m # a client call's limit (the whole run's is --time-limit)
c2_chain() {
	local r=$1 id=soak-c2-$1 pid job
	prove "$r-c2cancel" cancel porep $TO "${C2_ARGS[@]}" --request-id "$id" &
	pid=$!
	if job=$(job_of "$id" 'QUEUED|RUNNING'); then
		"$BIN" client cancel --addr "$A" "$job" >"$OUT/r/$r-c2cancel.cancel" 2>&1 || echo "client cancel $job: exit $?" >>"$OUT/r/$r-c2cancel.cancel"
	else
		echo "no job of request id $id appeared in /status" >"$OUT/r/$r-c2cancel.cancel"
	fi
	wait $pid
	ended "$id"
	prove "$r-c2dupa" dup porep $TO "${C2_ARGS[@]}" --request-id "$id" &
	prove "$r-c2dupb" dup porep $TO "${C2_ARGS[@]}" --request-id "$id" &
	wait
	prove "$r-c2again" again porep $TO "${C2_ARGS[@]}" --request-id "$id"
}
snap_chain() {
	local r=$1 id=soak-snap-$1
	prove "$r-snapdl" deadline update 3s "${UPD_ARGS[@]}" "${UPD_COMMS[@]}" --request-id "$id"
	ended "$id"
	prove "$r-snap" retry update $TO "${UPD_ARGS[@]}" "${UPD_COMMS[@]}" --request-id "$id"
}
windup() {
	prove "$1-winupa" dup winning-post $TO "${WIN_ARGS[@]}" --request-id "soak-win-$1" &
	prove "$1-winupb" dup winning-post $TO "${WIN_ARGS[@]}" --request-id "soak-win-$1" &
	wait
}
BADN=0
bad() { # the malformed requests, in turn
	local id=$1-bad$((BADN % 5))
	case $((BADN % 5)) in
	0) prove "$id" bad window-post $TO "${WND_BAD[@]}" ;;
	1) prove "$id" bad winning-post $TO "${WIN_BAD[@]}" ;;
	2) prove "$id" bad update $TO "${UPD_BAD[@]}" ;;
	3) prove "$id" bad winning-post $TO "${WIN_CUT[@]}" ;;
	4) prove "$id" bad porep $TO --c1 "$C1" --sector $((C1_SECTOR + 1)) --miner t01000 --request-id "soak-badc2-$1" ;;
	esac
}
# The round's tasks, long chains first, the rest interleaved (the same order every round).
TASKS=()
for _ in $(seq "${M[c2]}"); do TASKS+=(c2_chain); done
for _ in $(seq "${M[snap]}"); do TASKS+=(snap_chain); done
rest=$((M[win] + M[window] + M[windup] + M[bad]))
declare -A left=([win]=${M[win]} [window]=${M[window]} [windup]=${M[windup]} [bad]=${M[bad]})
while [ $rest -gt 0 ]; do
	for t in win window windup bad; do
		[ "${left[$t]}" -gt 0 ] && { TASKS+=("$t"); left[$t]=$((left[$t] - 1)); rest=$((rest - 1)); }
	done
done

# idle.tsv: in_use_kib is the anonymous RSS less the free heap: what the process holds in use.
printf 'round\tseconds\trss_kib\tgoroutines\tfds\tparams_bytes\tafter_gc\tfree_heap_kib\tin_use_kib\trss_anon_kib\trss_file_kib\n' >"$OUT/idle.tsv"
idle_point() { # idle_point ROUND AFTER_GC: a line of idle.tsv
	sample | awk -F'\t' -v OFS='\t' -v r="$1" -v gc="$2" '{ print r, $1, $2, $4, $3, $5, gc, $12, ($13 == "-" || $12 == "-") ? "-" : $13 - $12, $13, $14 }' >>"$OUT/idle.tsv"
}
# after_gc: wait (at most 150 s) for the server runtime's next garbage collection, which Go
# forces every 2 minutes when nothing allocates: an idle RSS read after it does not count the
# last jobs' garbage, which can be half the heap (GOGC=100) and would hide or fake a leak.
gcs() { curl -sf --max-time 5 "$H/metrics" | awk '$1 == "go_gc_duration_seconds_count" { print $2 }'; }
after_gc() {
	local g0 g
	g0=$(gcs)
	for _ in $(seq 75); do
		g=$(gcs)
		[ -n "$g" ] && [ "$g" != "$g0" ] && break
		sleep 2
	done
	sleep 3
}
LIM=""
# idle_checked ROUND: the idle point of ROUND; round 2's (the reference) after a collection, a
# later one read again after a collection when it is over the reference + TOL %.
idle_checked() {
	if [ "$1" = 2 ]; then
		after_gc
		idle_point 2 yes
		LIM=$(awk -F'\t' -v t="$TOL" -v m="$IDLE_SLACK" '$1 == 2 { d = $9 * t / 100; if (d < m * 1024) d = m * 1024; printf "%.0f", $9 + d }' "$OUT/idle.tsv")
		return
	fi
	idle_point "$1" no
	if [ -n "$LIM" ] && [ "$(tail -1 "$OUT/idle.tsv" | cut -f9)" -gt "$LIM" ]; then
		after_gc
		idle_point "$1" yes
	fi
}
echo "soak: $ROUNDS rounds of $ROUND requests ($MIX), $CONC clients at once, serve pid $SP, $H, out $OUT" >&2
idle_point 0 no
STOPPED=""
for r in $(seq "$ROUNDS"); do
	n=0
	for t in "${TASKS[@]}"; do
		if [ "$(elapsed)" -ge "$LIMIT" ]; then
			STOPPED="the time limit of $LIMIT s passed in round $r"
			break 2
		fi
		while [ "$(jobs -rp | grep -vc "^\($SP\|$SAMPLER\)$")" -ge "$CONC" ]; do wait -n; done
		n=$((n + 1))
		case $t in
		c2_chain | snap_chain) $t "$r" & ;;
		windup) windup "$r-$n" & ;;
		win) prove "$r-win$n" ok winning-post $TO "${WIN_ARGS[@]}" & ;;
		window) prove "$r-wnd$n" ok window-post $TO "${WND_ARGS[@]}" & ;;
		bad) bad "$r-$n" & BADN=$((BADN + 1)) ;;
		esac
	done
	for j in $(jobs -rp); do [ "$j" != "$SP" ] && [ "$j" != "$SAMPLER" ] && wait "$j"; done
	wait_idle
	idle_checked "$r"
	echo "soak: round $r/$ROUNDS done at $(elapsed) s: idle RSS $(tail -1 "$OUT/idle.tsv" | cut -f3) KiB, in use $(tail -1 "$OUT/idle.tsv" | cut -f9) KiB" >&2
done
for j in $(jobs -rp); do [ "$j" != "$SP" ] && [ "$j" != "$SAMPLER" ] && wait "$j"; done
wait_idle
# after a collection; the last round's second reading was one, and nothing ran since
[ "$(tail -1 "$OUT/idle.tsv" | cut -f7)" = yes ] || after_gc
idle_point end yes
curl -sf --max-time 10 "$H/metrics" >"$OUT/metrics.txt"
curl -sf --max-time 10 "$H/status" >"$OUT/status.json"
kill "$SAMPLER" 2>/dev/null
wait "$SAMPLER" 2>/dev/null
SAMPLER=""
kill -TERM $SP
for _ in $(seq 600); do kill -0 $SP 2>/dev/null || break; sleep 0.2; done
wait $SP
SERVE_RC=$?
WALL=$(elapsed)
cat "$OUT"/r/*.res 2>/dev/null | sort -t- -k1,1n -k2 >"$OUT/results.tsv"

# --- checks --------------------------------------------------------------------------------
FAILS=0
fail() { echo "FAIL $*" | tee -a "$OUT/failures.txt" >&2; FAILS=$((FAILS + 1)); }
rm -f "$OUT/failures.txt"
[ -z "$STOPPED" ] || fail "limits: $STOPPED; $(wc -l <"$OUT/results.tsv") of $((ROUNDS * ROUND)) requests sent"
[ "$SERVE_RC" = 0 ] || fail "serve: exit $SERVE_RC on SIGTERM (serve.log: $(tail -1 "$OUT/serve.log"))"
[ -s "$OUT/metrics.txt" ] && [ -s "$OUT/status.json" ] || fail "serve: /metrics or /status unreadable after the run"

# proofs and refusals, request by request (results.tsv: id round class kind rc job secs verified err)
while IFS=$'\t' read -r id round class kind rc job secs ok err; do
	case $class in
	ok | dup | again | retry) [ "$rc" = 0 ] && [ "$ok" = yes ] ||
		fail "proofs: $id ($class $kind): exit $rc, verified $ok: $err" ;;
	bad) [ "$rc" = 2 ] && [[ $err == *"(InvalidArgument)"* ]] ||
		fail "refusals: $id (malformed $kind): exit $rc, want 2 and InvalidArgument: $err" ;;
	cancel) [ "$rc" = 3 ] && [[ $err == *CANCELLED* ]] && grep -q '^cancelled job ' "$OUT/r/$id.cancel" ||
		fail "refusals: $id (cancelled $kind): exit $rc, want 3 and CANCELLED: $err; cancel: $(head -1 "$OUT/r/$id.cancel" 2>/dev/null)" ;;
	deadline) [ "$rc" = 3 ] && [[ $err == *DeadlineExceeded* ]] ||
		fail "refusals: $id (deadline $kind): exit $rc, want 3 and DeadlineExceeded: $err" ;;
	esac
done <"$OUT/results.tsv"
# same_job A B: requests A and B got one job and the same bytes
same_job() {
	local a b
	a=$(awk -F'\t' -v i="$1" '$1 == i { print $6 }' "$OUT/results.tsv") b=$(awk -F'\t' -v i="$2" '$1 == i { print $6 }' "$OUT/results.tsv")
	[ -n "$a" ] && [ "$a" != - ] && [ "$a" = "$b" ] && cmp -s "$OUT/proofs/$1.proof" "$OUT/proofs/$2.proof" ||
		fail "once: $1 and $2 (one request id) got jobs '$a' and '$b' or different proofs"
}
for a in $(awk -F'\t' '$1 ~ /-(c2dupa|winupa)$/ { print $1 }' "$OUT/results.tsv"); do
	same_job "$a" "${a%a}b"
	case $a in *-c2dupa) [ -e "$OUT/r/${a%dupa}again.res" ] && same_job "$a" "${a%dupa}again" ;; esac
done
count() { awk -F'\t' "$1" "$OUT/results.tsv" | wc -l; }
NBAD=$(count '$3 == "bad"') NCANCEL=$(count '$3 == "cancel"') NDEADLINE=$(count '$3 == "deadline"')
PROVE='method=/cuzk.v1.ProvingEngine/Prove'
got=$(msum "$OUT/metrics.txt" cuseal_rpc_requests_total $PROVE code=InvalidArgument)
[ "$got" = "$NBAD" ] || fail "refusals: the server counted $got InvalidArgument Prove calls, $NBAD malformed requests were sent"
got=$(msum "$OUT/metrics.txt" cuseal_rpc_requests_total $PROVE code=DeadlineExceeded)
[ "$got" -le "$NDEADLINE" ] || fail "refusals: the server counted $got DeadlineExceeded Prove calls for $NDEADLINE deadlines"

# nothing proven twice
declare -A KIND=([porep]=POREP_SEAL_COMMIT [update]=SNAP_DEALS_UPDATE [window-post]=WINDOW_POST_PARTITION [winning-post]=WINNING_POST)
CANCELLED=$(msum "$OUT/metrics.txt" cuseal_engine_jobs_total outcome=cancelled)
for k in porep update window-post winning-post; do
	K=${KIND[$k]}
	jobs_seen=$(awk -F'\t' -v k="$k" '$4 == k && $5 == 0 { print $6 }' "$OUT/results.tsv" | sort -u | wc -l)
	done_n=$(msum "$OUT/metrics.txt" cuseal_engine_jobs_total kind=$K outcome=completed)
	[ "$jobs_seen" = "$done_n" ] || fail "once: $K: $done_n jobs completed, the clients got $jobs_seen distinct ones"
	proved=$(msum "$OUT/metrics.txt" cuseal_engine_partition_prove_seconds_count kind=$K)
	read -r lo hi < <(jq -r --arg k "$K" '[.jobs[] | select(.kind == $k)] | [([.[] | select(.state == "COMPLETED") | .partitions_total] | add // 0),
		([.[] | select(.state == "COMPLETED" or .state == "CANCELLED") | .partitions_total] | add // 0)] | @tsv' "$OUT/status.json")
	[ "${proved:-0}" -ge "${lo:-0}" ] && [ "${proved:-0}" -le "${hi:-0}" ] ||
		fail "once: $K: $proved partitions proven, want those of the completed jobs ($lo) plus at most the cancelled ones' (up to $hi)"
done
got=$(msum "$OUT/metrics.txt" cuseal_engine_jobs_total outcome=failed)
[ "$got" = 0 ] || fail "once: $got job(s) FAILED: $(jq -r '[.jobs[] | select(.state == "FAILED") | .error][0:3] | join("; ")' "$OUT/status.json")"
got=$(msum "$OUT/metrics.txt" cuseal_engine_partition_retries_total)
[ "$got" = 0 ] || fail "once: $got partition(s) proven again after a prover failed them"
[ "$CANCELLED" -ge "$NCANCEL" ] && [ "$CANCELLED" -le $((NCANCEL + NDEADLINE)) ] ||
	fail "refusals: $CANCELLED jobs cancelled, want $NCANCEL cancels plus at most $NDEADLINE expired deadlines"

# RSS, goroutines and fds at the idle points (idle.tsv: round seconds rss goroutines fds params)
# the last reading of each idle point (a second one is after a collection)
awk -F'\t' '{ k = $1; if (!(k in row)) ord[++n] = k; row[k] = $0 } END { for (i = 1; i <= n; i++) print row[ord[i]] }' \
	"$OUT/idle.tsv" >"$OUT/idle-last.tsv"
[ -n "$LIM" ] || fail "rss: no idle point after round 2 (the reference)"
while IFS=$'\t' read -r round secs rss gor fds params gc free inuse _; do
	case $round in round | 0 | 1 | 2) continue ;; esac
	[ "$inuse" != - ] && [ "$inuse" -le "${LIM:-0}" ] ||
		fail "rss: idle after round $round: $inuse KiB in use (anonymous RSS less free heap $free, of RSS $rss; after a collection: $gc), over round 2's + max($TOL %, $IDLE_SLACK MiB) ($LIM KiB)"
done <"$OUT/idle-last.tsv"
read -r G0 F0 < <(awk -F'\t' '$1 == 1 { print $4, $5 }' "$OUT/idle-last.tsv")
while IFS=$'\t' read -r round secs rss gor fds params gc free inuse _; do
	case $round in round | 0 | 1) continue ;; esac
	[ "$gor" != - ] && [ "$gor" -le $((G0 + SLACK)) ] || fail "leaks: $gor goroutines idle after round $round, $G0 after warm-up"
	[ "$fds" != - ] && [ "$fds" -le $((F0 + SLACK)) ] || fail "leaks: $fds open fds idle after round $round, $F0 after warm-up"
done <"$OUT/idle-last.tsv"
# peaks.tsv: round, then each kind's peak in use (anonymous RSS less free heap, KiB): the largest sample while a job of that kind
# and none of a heavier one (KINDS' order) was in progress. "Flat": the largest of the later half
# of the rounds after warm-up is within +TOL % of the largest of the first half (each round's
# peak alone varies with where the runtime's collection cycle stands: the samples count the
# garbage not yet collected, up to the live heap again at GOGC=100, and one short run's C2 and
# SnapDeals peaks moved +27 % and +124 % from round 2 to round 3 with the idle memory flat).
# Checked only where each half has two rounds or more (--requests of 5 rounds or more);
# otherwise reported as unchecked.
awk -F'\t' -v OFS='\t' -v kinds="$KINDS" 'NR == FNR { if (FNR > 1 && $1 ~ /^[0-9]+$/) { n++; end[n] = $2; rd[n] = $1 } next }
	FNR == 1 { nk = split(kinds, K, " "); next }
	NF >= 9 + nk && $(9 + nk) != "-" && $(8 + nk) != "-" { r = "tail"; for (i = n; i >= 1; i--) if ($1 <= end[i]) r = rd[i]
		for (k = 1; k <= nk; k++) if ($(7 + k) > 0) break
		v = $(9 + nk) - $(8 + nk); if (k <= nk && v > pk[r, k]) pk[r, k] = v; seen[r] = 1 }
	END { printf "round"; for (k = 1; k <= nk; k++) printf "\t%s", K[k]; print ""
		for (i = 1; i <= n; i++) { if (!(rd[i] in seen)) continue; printf "%s", rd[i]
			for (k = 1; k <= nk; k++) printf "\t%s", ((rd[i], k) in pk) ? pk[rd[i], k] : "-"; print "" } }' \
	"$OUT/idle-last.tsv" "$OUT/samples.tsv" >"$OUT/peaks.tsv"
awk -F'\t' -v t="$TOL" 'NR == 1 { nk = NF; for (k = 2; k <= NF; k++) name[k] = $k; next }
	$1 >= 2 { last = $1; for (k = 2; k <= NF; k++) v[$1, k] = $k }
	END { mid = int((2 + last) / 2)
		for (k = 2; k <= nk; k++) { a = b = 0
			for (r = 2; r <= last; r++) if ((r, k) in v && v[r, k] != "-") { if (r <= mid) { if (v[r, k] > a) a = v[r, k] } else if (v[r, k] > b) b = v[r, k] }
			printf "%s\t%d\t%d\t%d\t%d\t%s\n", name[k], mid, last, a, b, (mid - 1 < 2 || last - mid < 2) ? "unchecked" : (a && b && b > a * (1 + t / 100)) ? "over" : "ok" } }' \
	"$OUT/peaks.tsv" >"$OUT/peakcheck.tsv"
while IFS=$'\t' read -r kind mid last a b verdict; do
	[ "$verdict" = ok ] || [ "$verdict" = unchecked ] || fail "rss: $kind peak in rounds $((mid + 1))-$last: $b KiB, over rounds 2-$mid's $a KiB + $TOL %"
done <"$OUT/peakcheck.tsv"

# --- the plot ------------------------------------------------------------------------------
# soak.svg: RSS and parameter bytes (MiB, left axis) and jobs queued + in progress (right axis)
# against seconds; the idle points marked, and the RSS limit (round 2's idle RSS + TOL %).
awk -F'\t' -v lim="${LIM:-0}" -v tol="$TOL" -v title="cuseal serve soak: $((ROUNDS * ROUND)) requests in $ROUNDS rounds ($MIX), $(date -u +%Y-%m-%d)" '
	NR == FNR { if (FNR > 1 && $3 != "-") { ni++; it[ni] = $2; ir[ni] = $3 / 1024; il[ni] = $1 } next }
	FNR > 1 && NF >= 7 && $2 != "-" { n++; t[n] = $1; r[n] = $2 / 1024; p[n] = $5 / 1048576; q[n] = $6 + $7
		if (t[n] > tmax) tmax = t[n]; if (r[n] > ymax) ymax = r[n]; if (q[n] > qmax) qmax = q[n] }
	function x(v) { return L + v / tmax * (W - L - R) }
	function y(v) { return T + (1 - v / ymax) * (H - T - B) }
	function yq(v) { return T + (1 - v / qmax) * (H - T - B) }
	function line(arr, col, fn,   i, s) { s = ""; for (i = 1; i <= n; i++) s = s sprintf("%.1f,%.1f ", x(t[i]), fn == "q" ? yq(arr[i]) : y(arr[i]))
		printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>\n", col, s }
	END { W = 960; H = 440; L = 70; R = 60; T = 40; B = 50
		if (n == 0) { print "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"40\"><text x=\"10\" y=\"25\">no samples</text></svg>"; exit }
		if (lim / 1024 > ymax) ymax = lim / 1024
		step = 256; while (ymax / step > 8) step *= 2; ymax = (int(ymax / step) + 1) * step
		if (qmax < 4) qmax = 4; qs = 1; while (qmax / qs > 8) qs *= 2; qmax = (int(qmax / qs) + 1) * qs
		ts = 60; while (tmax / ts > 12) ts *= 2
		printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H
		printf "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n<text x=\"%d\" y=\"22\" font-size=\"14\">%s</text>\n", W, H, L, title
		for (v = 0; v <= ymax; v += step) printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n", L, W - R, y(v), y(v), L - 6, y(v) + 4, v
		for (v = 0; v <= qmax; v += qs) printf "<text x=\"%d\" y=\"%.1f\" fill=\"#d9730d\">%d</text>\n", W - R + 6, yq(v) + 4, v
		for (v = 0; v <= tmax; v += ts) printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x(v), H - B + 16, v
		printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">seconds</text>\n", (L + W - R) / 2, H - 12
		printf "<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\">MiB</text>\n", (T + H - B) / 2
		printf "<text transform=\"translate(%d %d) rotate(90)\" text-anchor=\"middle\" fill=\"#d9730d\">jobs queued + in progress</text>\n", W - 14, (T + H - B) / 2
		for (i = 1; i <= ni; i++) { printf "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#999\" stroke-dasharray=\"2 3\"/>\n", x(it[i]), x(it[i]), T, H - B
			if (il[i] ~ /^[0-9]+$/ && il[i] > 0) printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"9\" fill=\"#666\">%s</text>\n", x(it[i]), T - 4, il[i] }
		if (lim > 0) printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" stroke-dasharray=\"6 4\"/><text x=\"%d\" y=\"%.1f\" fill=\"#c00\" text-anchor=\"end\">idle limit (in use)</text>\n", L, W - R, y(lim / 1024), y(lim / 1024), W - R - 4, y(lim / 1024) - 4, tol
		line(q, "#d9730d", "q"); line(p, "#2a9d3a", "y"); line(r, "#1f5fbf", "y")
		for (i = 1; i <= ni; i++) printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#1f5fbf\"/>\n", x(it[i]), y(ir[i])
		printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>\n", L, T, W - L - R, H - T - B
		lx = L + 10; ly = T + 16
		printf "<text x=\"%d\" y=\"%d\" fill=\"#1f5fbf\">RSS (dots: idle points, after each round)</text>\n", lx, ly
		printf "<text x=\"%d\" y=\"%d\" fill=\"#2a9d3a\">resident parameters</text>\n", lx, ly + 16
		printf "<text x=\"%d\" y=\"%d\" fill=\"#d9730d\">jobs queued + in progress (right axis)</text>\n", lx, ly + 32
		print "</svg>" }' "$OUT/idle.tsv" "$OUT/samples.tsv" >"$OUT/soak.svg"

# --- summary -------------------------------------------------------------------------------
{
	echo "cuseal serve soak, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "binary: $("$BIN" version 2>/dev/null | head -1)"
	echo "command: scripts/soak.sh --requests $REQUESTS --time-limit $LIMIT --mix $MIX --concurrency $CONC --budget $BUDGET --tolerance $TOL --idle-slack $IDLE_SLACK"
	echo "wall: $WALL s; rounds: $ROUNDS of $ROUND requests; requests sent: $(wc -l <"$OUT/results.tsv")"
	echo
	echo "requests by class and kind (exit code: count; median seconds of those that exited 0):"
	awk -F'\t' '{ key = $3 " " $4; n[key]++; c[key, $5]++; if ($5 == 0) { m[key] = m[key] " " $7 } codes[$5] = 1 }
		END { for (key in n) { s = sprintf("  %-24s %4d:", key, n[key]); for (cd in codes) if ((key, cd) in c) s = s sprintf(" exit %s: %d", cd, c[key, cd])
			k = split(m[key], v, " "); if (k) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] + 0 < v[i] + 0) { x = v[i]; v[i] = v[j]; v[j] = x }
			s = s sprintf("; median %.2f s", v[int((k + 1) / 2)]) } print s } }' "$OUT/results.tsv" | sort
	echo
	echo "server counters (/metrics at the end):"
	grep -E '^cuseal_engine_jobs_total\{' "$OUT/metrics.txt" | grep -v ' 0$' | sed 's/^/  /'
	grep -E '^cuseal_rpc_requests_total\{' "$OUT/metrics.txt" | sed 's/^/  /'
	grep -E '^cuseal_engine_partition_(prove_seconds_count|retries_total)' "$OUT/metrics.txt" | sed 's/^/  /'
	echo
	echo "idle points (after each round; round 1 is the warm-up, round 2 the reference; a second reading after a collection):"
	awk -F'\t' -v OFS='\t' 'function m(v) { return v == "-" ? "-" : sprintf("%.1f", v / 1024) }
		NR == 1 { print "  round", "seconds", "RSS MiB", "free heap MiB", "in use MiB", "goroutines", "fds", "params MiB", "after a GC", "anon MiB", "file MiB"; next }
		{ print "  " $1, $2, m($3), m($8), m($9), $4, $5, m($6 / 1024), $7, m($10), m($11) }' "$OUT/idle.tsv"
	awk -F'\t' '$1 == 2 { r = $9 } $1 ~ /^[0-9]+$/ && $1 > 2 || $1 == "end" { l = $9; if (l > m) m = l }
		END { if (r) printf "  idle in use (anonymous RSS less free heap; last reading of each point): round 2 %.1f MiB, largest after it %.1f MiB (%+.1f %%), at the end %.1f MiB (%+.1f %%); limit +%s %% or +%s MiB, the larger\n", r / 1024, m / 1024, (m / r - 1) * 100, l / 1024, (l / r - 1) * 100, tol, slack }' tol="$TOL" slack="$IDLE_SLACK" "$OUT/idle-last.tsv"
	echo
	echo "peak in use (anonymous RSS less free heap, MiB) per round while a job of each kind (and none of a kind left of it) was in progress:"
	awk -F'\t' 'NR == 1 { s = "  round"; for (k = 2; k <= NF; k++) s = s "\t" $k; print s; next }
		{ s = "  " $1; for (k = 2; k <= NF; k++) s = s "\t" ($k == "-" ? "-" : sprintf("%.1f", $k / 1024)); print s }' "$OUT/peaks.tsv"
	awk -F'\t' '{ printf "  %s: largest in rounds 2-%s %.1f MiB, in rounds %s-%s %.1f MiB (%+.1f %%)%s\n", $1, $2, $4 / 1024, $2 + 1, $3, $5 / 1024, $4 ? ($5 / $4 - 1) * 100 : 0, $6 == "unchecked" ? "; not checked: a half of one round" : "" }' "$OUT/peakcheck.tsv"
	awk -F'\t' 'NR > 1 && NF >= 7 && $2 != "-" { if ($2 > r) r = $2; if ($5 > p) p = $5; if ($6 + $7 > q) q = $6 + $7; if ($4 > g) g = $4; if ($3 > f) f = $3 }
		END { printf "  whole run: peak RSS %.1f MiB, resident parameters up to %.1f MiB, queue depth (queued + in progress) up to %d, goroutines up to %d, fds up to %d\n", r / 1024, p / 1048576, q, g, f }' "$OUT/samples.tsv"
	echo
	if [ "$FAILS" = 0 ]; then echo "result: PASS (every check)"; else echo "result: FAIL ($FAILS)"; sed 's/^/  /' "$OUT/failures.txt"; fi
} >"$OUT/summary.txt"
cat "$OUT/summary.txt"
echo "soak: outputs in $OUT (summary.txt, soak.svg, samples.tsv, idle.tsv, peaks.tsv, results.tsv, serve.log)" >&2
[ "$FAILS" = 0 ] || exit 1
