#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/refproofs-update-32g.sh — regenerates porep/update/testdata/rust_golden_32g.json: the
# counts, digests, density popcounts and public inputs rust-fil-proofs 19.1.0 gives for one
# 32 GiB SnapDeals (EmptySectorUpdate) partition made from porep/synthetic.Update's sparse
# sector (cuseal bench vanilla --circuit update; porep/stacked/testdata/refcircuit/README.md).
#
#   REFPROOFS=/path/to/cuseal-refproofs [SEED=1] [PARTITION=0] scripts/refproofs-update-32g.sh
#
# One partition: ~81M constraints; the Rust tool streams it (~5 GB RSS, b/c spooled under
# TMPDIR); it runs under the shared memory lock (/tmp/cuseal-mem.lock).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

REFPROOFS=${REFPROOFS:-/work/cache/refproofs-target/release/cuseal-refproofs}
LOCK=${LOCK:-/tmp/cuseal-mem.lock}
WORK=${WORK:-$(mktemp -d)}
SEED=${SEED:-1}
PARTITION=${PARTITION:-0}
OUTFILE=porep/update/testdata/rust_golden_32g.json
mkdir -p "$WORK"

dir=$WORK/update_32GiB
if [ ! -s "$dir/digests.json" ]; then # WORK=DIR reuses a finished run
	go build -o "$WORK/cuseal" ./cli/cuseal
	"$WORK/cuseal" bench vanilla --circuit update --sector-size 32GiB --seed "$SEED" \
		--partition "$PARTITION" --out "$dir" --force >&2
	c=$dir/commitments.json
	flock "$LOCK" nice "$REFPROOFS" digests update --sector-size 34359738368 \
		--comm-r-old "$(jq -r .comm_r_old "$c")" --comm-d-new "$(jq -r .comm_d_new "$c")" \
		--comm-r-new "$(jq -r .comm_r_new "$c")" --vanilla "$dir/partition-$PARTITION.bin" \
		--partition "$PARTITION" --tmp "${TMPDIR:-/tmp}" >"$dir/digests.json.tmp"
	mv "$dir/digests.json.tmp" "$dir/digests.json"
fi
python3 - "$dir/digests.json" "$dir/commitments.json" "$SEED" "$PARTITION" >"$OUTFILE.tmp" <<'PY'
import hashlib, json, sys
path, comms, seed, k = sys.argv[1:]
d = json.load(open(path))
c = json.load(open(comms))
pi = d.pop("public_inputs")
p = d.pop("params", {})
p.pop("vanilla", None)
p.update({"registered_update_proof": c["proof_type"], "seed": int(seed), "partition": int(k),
          "comm_r_old": c["comm_r_old"], "comm_d_new": c["comm_d_new"], "comm_r_new": c["comm_r_new"],
          "generator": "porep/synthetic.Update (cuseal bench vanilla --circuit update)"})
out = {"public_inputs": pi,
       "public_inputs_sha256": hashlib.sha256(b"".join(bytes.fromhex(x) for x in pi)).hexdigest()}
for key in ("public_inputs_match_generate_public_inputs", "recorded"):
    if key in d:
        out[key] = d.pop(key)
d.update({"name": "update_32GiB_partition%s" % k, "params": p, "outputs": out})
doc = {"source": "porep/stacked/testdata/refcircuit cuseal-refproofs digests update (storage-proofs-update 19.1.0 EmptySectorUpdateCompound::circuit / generate_public_inputs, bellperson 0.27.0), vanilla partition proof from porep/synthetic; scripts/refproofs-update-32g.sh",
       "digests": "docs/digests.md §1-§4 (cuseal-r1cs-v1, cuseal-witness-v1, cuseal-abc-v1, cuseal-density-v1); public_inputs_sha256 = SHA-256 of the canonical 32-byte LE public inputs (ONE excluded) concatenated",
       "cases": [d]}
print(json.dumps(doc, indent=1, sort_keys=True))
PY
mv "$OUTFILE.tmp" "$OUTFILE"
echo "wrote $OUTFILE" >&2
