#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/refproofs-post-32g.sh — regenerates porep/post/testdata/rust_golden_32g.json: the
# counts, digests, density popcounts and public inputs rust-fil-proofs 19.1.0 gives for one
# 32 GiB WinningPoSt circuit, one full 32 GiB WindowPoSt partition (2349 sectors) and the same
# partition cut to its first 3 sectors (the default test's window case), made
# from porep/synthetic's vanilla proofs (porep/stacked/testdata/refcircuit/README.md).
#
#   REFPROOFS=/path/to/cuseal-refproofs scripts/refproofs-post-32g.sh
#
# The window partition: ~125M constraints, 5 GB RSS, spooling 8 GB of b/c under TMPDIR,
# about 10 CPU-minutes; it runs under the shared memory lock (/tmp/cuseal-mem.lock).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

REFPROOFS=${REFPROOFS:-/work/cache/refproofs-target/release/cuseal-refproofs}
LOCK=${LOCK:-/tmp/cuseal-mem.lock}
WORK=${WORK:-$(mktemp -d)}
OUTFILE=porep/post/testdata/rust_golden_32g.json
mkdir -p "$WORK"

# case NAME PROOF SEED SECTORS LARGE [CUT]: synthetic vanilla (Go), then the Rust circuit;
# CUT: a window partition cut to its first CUT sectors.
case_json() {
	local name=$1 proof=$2 seed=$3 sectors=$4 large=$5 cut=${6:-0} dir=$WORK/$1
	local extra=()
	[ "$cut" = 0 ] || extra=(--sectors-per-partition "$cut")
	if [ ! -s "$dir/digests.json" ]; then # WORK=DIR reuses finished runs
		go run ./porep/stacked/testdata/refcircuit/synthpost -proof "$proof" -seed "$seed" \
			-sectors "$sectors" -miner 1000 -out "$dir" >&2
		# shellcheck disable=SC2046
		flock "$LOCK" nice "$REFPROOFS" digests post $(cat "$dir/args") "${extra[@]}" --tmp "${TMPDIR:-/tmp}" \
			>"$dir/digests.json.tmp"
		mv "$dir/digests.json.tmp" "$dir/digests.json"
	fi
	python3 - "$dir/digests.json" "$name" "$proof" "$seed" "$sectors" "$large" "$cut" <<'PY'
import hashlib, json, sys
path, name, proof, seed, sectors, large, cut = sys.argv[1:]
d = json.load(open(path))
pi = d.pop("public_inputs")
p = d.pop("params")
p.update({"registered_post_proof": int(proof), "seed": int(seed), "sectors": int(sectors), "cut_sectors": int(cut),
          "miner": 1000, "generator": "porep/synthetic.PoSt (porep/stacked/testdata/refcircuit/synthpost)"})
p.pop("vanilla_files", None)
out = {"large": large == "1",
       "public_inputs_match_generate_public_inputs": d.pop("public_inputs_match_generate_public_inputs"),
       "public_inputs_sha256": hashlib.sha256(b"".join(bytes.fromhex(x) for x in pi)).hexdigest(),
       "recorded": d.pop("recorded")}
if len(pi) <= 1000:
    out["public_inputs"] = pi
d.update({"name": name, "params": p, "outputs": out})
print(json.dumps(d))
PY
}

{
	case_json winning_32GiB 3 1 0 0
	case_json window_32GiB_first3 13 2 3 0 3
	case_json window_32GiB_partition 13 2 0 1
} | python3 -c '
import json, sys
cases = [json.loads(l) for l in sys.stdin]
doc = {"source": "porep/stacked/testdata/refcircuit cuseal-refproofs digests post (storage-proofs-post 19.1.0 FallbackPoStCompound::circuit / generate_public_inputs, bellperson 0.27.0), vanilla proofs from porep/synthetic; scripts/refproofs-post-32g.sh",
       "digests": "docs/digests.md §1-§4 (cuseal-r1cs-v1, cuseal-witness-v1, cuseal-abc-v1, cuseal-density-v1); public_inputs_sha256 = SHA-256 of the canonical 32-byte LE public inputs (ONE excluded) concatenated",
       "cases": cases}
print(json.dumps(doc, indent=1, sort_keys=True))' >"$OUTFILE.tmp"
mv "$OUTFILE.tmp" "$OUTFILE"
echo "wrote $OUTFILE" >&2
