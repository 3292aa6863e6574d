//! cuseal-refproofs: the FallbackPoSt (WindowPoSt / WinningPoSt) and
//! EmptySectorUpdate (SnapDeals) circuits of rust-fil-proofs 19.1.0
//! (storage-proofs-post / storage-proofs-update from crates.io, bellperson
//! 0.27.0 on the CPU), built from vanilla-proof files exactly as
//! filecoin-proofs builds them, for cuseal's reference vectors and
//! side-by-side measurements. See README.md.
//!
//! Subcommands (all print one JSON object on stdout, progress on stderr):
//!   digests post|update ARGS   counts, digests (docs/digests.md §1–§4),
//!                              density popcounts and public inputs
//!   check-golden DIR           the 2 KiB golden folders: digests against meta.json
//!   synth post|update|porep ARGS
//!                              bellperson's own synthesis (ProvingAssignment via
//!                              create_random_proof, stopped before the params are read)
//!   prove post|update|porep ARGS --params FILE [--params-reader read|mapped]
//!                              bellperson's CPU prover + verify_proof, timed; the
//!                              parameters read whole (Parameters::read, default) or
//!                              mapped as filecoin-proofs reads them (read_cached_params:
//!                              build_mapped_parameters)
//!
//! post ARGS:   --kind winning|window --sector-size BYTES --randomness HEX
//!              --prover-id HEX --vanilla-dir DIR (files in name order, as
//!              passed to Generate*PoStWithVanilla) [--partition K]
//! update ARGS: --sector-size BYTES --comm-r-old HEX --comm-d-new HEX
//!              --comm-r-new HEX --vanilla FILE [--partition K] [--h H]
//! porep ARGS:  --c1 FILE (the C1 output JSON of an interactive V1 / V1_1
//!              proof, what `cuseal commit2 --c1` reads) [--partition K]

#[path = "../rec.rs"]
mod rec;
#[path = "../c1.rs"]
mod c1;

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bellperson::groth16::{
    create_random_proof, prepare_verifying_key, verify_proof, MappedParameters, ParameterSource,
    Parameters, Proof, VerifyingKey,
};
use bellperson::{Circuit, SynthesisError};
use blstrs::{Bls12, G1Affine, G2Affine, Scalar as Fr};
use filecoin_hashers::{
    poseidon::PoseidonDomain,
    sha256::{Sha256Domain, Sha256Hasher},
    Domain,
};
use generic_array::typenum::{U0, U2, U8};
use rand::SeedableRng;
use rand_xorshift::XorShiftRng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use storage_proofs_core::{
    api_version::ApiVersion, compound_proof::CompoundProof, merkle::DiskTree,
    merkle::MerkleTreeTrait, sector::SectorId,
};
use storage_proofs_post::fallback::{
    self, FallbackPoStCircuit, FallbackPoStCompound, PublicParams as PostParams, PublicSector,
    SectorProof,
};
use storage_proofs_porep::stacked::{
    PublicParams as StackedParams, StackedCircuit, StackedCompound,
};
use storage_proofs_update::{
    constants::{h_default, TreeRHasher},
    EmptySectorUpdateCircuit, EmptySectorUpdateCompound, PartitionProof,
    PublicInputs as UpdateInputs, PublicParams as UpdateParams,
};

use c1::{SealProof, C1};
use rec::{fr_hex, Counter, Counts, RecCS};

// ---------------------------------------------------------------------------
// Arguments

struct Args {
    kv: HashMap<String, String>,
}

impl Args {
    fn parse(v: &[String]) -> Self {
        let mut kv = HashMap::new();
        let mut i = 0;
        while i < v.len() {
            let k = v[i]
                .strip_prefix("--")
                .unwrap_or_else(|| die(&format!("unexpected argument {}", v[i])));
            if i + 1 >= v.len() {
                die(&format!("--{} needs a value", k));
            }
            kv.insert(k.to_string(), v[i + 1].clone());
            i += 2;
        }
        Args { kv }
    }
    fn get(&self, k: &str) -> &str {
        self.kv
            .get(k)
            .map(|s| s.as_str())
            .unwrap_or_else(|| die(&format!("missing --{}", k)))
    }
    fn opt(&self, k: &str) -> Option<&str> {
        self.kv.get(k).map(|s| s.as_str())
    }
    fn usize(&self, k: &str, def: usize) -> usize {
        self.opt(k).map_or(def, |s| {
            s.parse()
                .unwrap_or_else(|_| die(&format!("--{} {}: not a number", k, s)))
        })
    }
    fn b32(&self, k: &str) -> [u8; 32] {
        let s = self.get(k);
        let v = hex::decode(s).unwrap_or_else(|_| die(&format!("--{} {}: not hex", k, s)));
        v.try_into()
            .unwrap_or_else(|_| die(&format!("--{} {}: want 32 bytes", k, s)))
    }
}

fn die(msg: &str) -> ! {
    eprintln!("cuseal-refproofs: {}", msg);
    std::process::exit(2)
}

fn peak_rss_kib() -> u64 {
    let s = fs::read_to_string("/proc/self/status").unwrap_or_default();
    for l in s.lines() {
        if let Some(v) = l.strip_prefix("VmHWM:") {
            return v.trim().trim_end_matches("kB").trim().parse().unwrap_or(0);
        }
    }
    0
}

// ---------------------------------------------------------------------------
// Circuits

/// filecoin_proofs::FallbackPoStSectorProof<Tree>: the bytes
/// generate_single_vanilla_proof returns (bincode 1.x).
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
struct SectorVanilla<Tree: MerkleTreeTrait> {
    sector_id: SectorId,
    comm_r: PoseidonDomain,
    vanilla_proof: fallback::Proof<Tree::Proof>,
}

/// A circuit to record or prove, with its public inputs (ONE excluded), a
/// blank circuit of the same shape and what the JSON says about it.
trait Job {
    type C: Circuit<Fr> + Send;
    fn circuit(&self) -> Self::C;
    fn blank(&self) -> Self::C;
    fn public_inputs(&self) -> Vec<Fr>;
    fn params(&self) -> Value;
    /// The counts of the blank circuit (a counting pass).
    fn counts(&self) -> Counts {
        let mut c = Counter::new();
        self.blank().synthesize(&mut c).expect("blank synthesize");
        c.counts()
    }
}

struct PostJob<Tree: 'static + MerkleTreeTrait> {
    pp: PostParams,
    pub_in: fallback::PublicInputs<PoseidonDomain>,
    proof: fallback::Proof<Tree::Proof>,
    k: usize,
    info: Value,
}

impl<Tree: 'static + MerkleTreeTrait<Hasher = TreeRHasher>> Job for PostJob<Tree> {
    type C = FallbackPoStCircuit<Tree>;
    fn circuit(&self) -> Self::C {
        <FallbackPoStCompound<Tree> as CompoundProof<_, _>>::circuit(
            &self.pub_in,
            Default::default(),
            &self.proof,
            &self.pp,
            Some(self.k),
        )
        .expect("FallbackPoStCompound::circuit")
    }
    fn blank(&self) -> Self::C {
        <FallbackPoStCompound<Tree> as CompoundProof<_, _>>::blank_circuit(&self.pp)
    }
    fn public_inputs(&self) -> Vec<Fr> {
        <FallbackPoStCompound<Tree> as CompoundProof<_, _>>::generate_public_inputs(
            &self.pub_in,
            &self.pp,
            Some(self.k),
        )
        .expect("generate_public_inputs")
    }
    fn params(&self) -> Value {
        self.info.clone()
    }
    /// Sectors are identical blocks of the circuit: the counts of a full
    /// partition are those of one sector plus (n-1) times the difference to
    /// two (a counting pass over 2349 blank sectors takes minutes). The
    /// recording pass asserts them.
    fn counts(&self) -> Counts {
        let n = self.pp.sector_count as u64;
        if n <= 2 {
            let mut c = Counter::new();
            self.blank().synthesize(&mut c).expect("blank synthesize");
            return c.counts();
        }
        let count = |m: usize| {
            let mut pp = self.pp.clone();
            pp.sector_count = m;
            let mut c = Counter::new();
            <FallbackPoStCompound<Tree> as CompoundProof<_, _>>::blank_circuit(&pp)
                .synthesize(&mut c)
                .expect("blank synthesize");
            c.counts()
        };
        let (c1, c2) = (count(1), count(2));
        let ext = |x1: u64, x2: u64| x1 + (n - 1) * (x2 - x1);
        Counts {
            inputs: ext(c1.inputs, c2.inputs),
            aux: ext(c1.aux, c2.aux),
            constraints: ext(c1.constraints, c2.constraints),
        }
    }
}

/// The partition's vanilla proof as filecoin-proofs' partition_vanilla_proofs
/// builds it from the per-sector files, and the public inputs its
/// generate_*_post_with_vanilla / verify_*_post use.
fn post_job<Tree: 'static + MerkleTreeTrait<Hasher = TreeRHasher>>(a: &Args) -> PostJob<Tree> {
    let kind = a.get("kind");
    let sector_size: u64 = a.get("sector-size").parse().unwrap_or_else(|_| die("--sector-size"));
    let randomness = PoseidonDomain::try_from_bytes(&a.b32("randomness"))
        .unwrap_or_else(|_| die("--randomness: not a canonical field element"));
    let prover_id = PoseidonDomain::try_from_bytes(&a.b32("prover-id"))
        .unwrap_or_else(|_| die("--prover-id: not a canonical field element"));
    let k = a.usize("partition", 0);
    let dir = PathBuf::from(a.get("vanilla-dir"));
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| die(&format!("{}: {}", dir.display(), e)))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map_or(false, |x| x == "bin"))
        .collect();
    files.sort();
    let mut vanilla: Vec<SectorVanilla<Tree>> = Vec::new();
    let mut roundtrip = true;
    for f in &files {
        let raw = fs::read(f).unwrap_or_else(|e| die(&format!("{}: {}", f.display(), e)));
        let v: SectorVanilla<Tree> = bincode::deserialize(&raw)
            .unwrap_or_else(|e| die(&format!("{}: {}", f.display(), e)));
        roundtrip &= bincode::serialize(&v).unwrap() == raw;
        vanilla.push(v);
    }
    if vanilla.is_empty() {
        die(&format!("{}: no .bin vanilla proofs", dir.display()));
    }
    let nodes = sector_size / 32;
    let (pp, pub_sectors, sectors) = match kind {
        // filecoin-proofs winning_post_setup_params: sector_count = 66
        // challenges, challenge_count = 1 per slot; the verifier's sector
        // list is the one sector 66 times; each inclusion proof is a slot.
        "winning" => {
            if vanilla.len() != 1 {
                die("winning: want exactly one vanilla proof");
            }
            let v = &vanilla[0];
            let sp = &v.vanilla_proof.sectors[0];
            let n = sp.inclusion_proofs.len();
            let pp = PostParams {
                sector_size,
                challenge_count: 1,
                sector_count: n,
                api_version: ApiVersion::V1_0_0,
            };
            let slots: Vec<SectorProof<Tree::Proof>> = sp
                .inclusion_proofs
                .iter()
                .map(|p| SectorProof {
                    inclusion_proofs: vec![p.clone()],
                    comm_c: sp.comm_c,
                    comm_r_last: sp.comm_r_last,
                })
                .collect();
            let pubs = vec![
                PublicSector {
                    id: v.sector_id,
                    comm_r: v.comm_r
                };
                n
            ];
            (pp, pubs, slots)
        }
        // window: sector_count sectors per partition (2349 at 32 GiB), 10
        // challenges each, ApiVersion 1.2.0 (FFI V1_1); the last sector is
        // repeated to fill the partition.
        "window" => {
            let per = a.usize(
                "sectors-per-partition",
                match nodes {
                    64 | 4096 | 262144 | 16777216 => 2, // 2 KiB, 128 KiB, 8 MiB, 512 MiB
                    _ => 2349,                          // 32 GiB (2300 at 64 GiB: pass it)
                },
            );
            let cc = vanilla[0].vanilla_proof.sectors[0].inclusion_proofs.len();
            let pp = PostParams {
                sector_size,
                challenge_count: cc,
                sector_count: per,
                api_version: ApiVersion::V1_2_0,
            };
            let pubs: Vec<PublicSector<PoseidonDomain>> = vanilla
                .iter()
                .map(|v| PublicSector {
                    id: v.sector_id,
                    comm_r: v.comm_r,
                })
                .collect();
            let chunk = pubs
                .chunks(per)
                .nth(k)
                .unwrap_or_else(|| die("--partition: no such partition"));
            let mut slots: Vec<SectorProof<Tree::Proof>> = Vec::new();
            for s in chunk {
                let v = vanilla.iter().find(|v| v.sector_id == s.id).unwrap();
                slots.extend(v.vanilla_proof.sectors.iter().cloned());
            }
            while slots.len() < per {
                slots.push(slots[slots.len() - 1].clone());
            }
            (pp, pubs, slots)
        }
        _ => die("--kind: winning or window"),
    };
    let info = json!({
        "kind": kind,
        "sector_size": sector_size,
        "randomness": a.get("randomness"),
        "prover_id": a.get("prover-id"),
        "partition": k,
        "vanilla_files": files.len(),
        "vanilla_bincode_roundtrip_identical": roundtrip,
        "sector_count": pp.sector_count,
        "challenge_count": pp.challenge_count,
        "api_version": format!("{}", pp.api_version),
    });
    PostJob {
        pp,
        pub_in: fallback::PublicInputs {
            randomness,
            prover_id,
            sectors: pub_sectors,
            k: Some(k),
        },
        proof: fallback::Proof { sectors },
        k,
        info,
    }
}

struct UpdateJob<Tree: 'static + MerkleTreeTrait<Hasher = TreeRHasher>> {
    pp: UpdateParams,
    pub_in: UpdateInputs,
    proof: PartitionProof<Tree>,
    info: Value,
}

impl<Tree: 'static + MerkleTreeTrait<Hasher = TreeRHasher>> Job for UpdateJob<Tree> {
    type C = EmptySectorUpdateCircuit<Tree>;
    fn circuit(&self) -> Self::C {
        <EmptySectorUpdateCompound<Tree> as CompoundProof<_, _>>::circuit(
            &self.pub_in,
            Default::default(),
            &self.proof,
            &self.pp,
            Some(self.pub_in.k),
        )
        .expect("EmptySectorUpdateCompound::circuit")
    }
    fn blank(&self) -> Self::C {
        <EmptySectorUpdateCompound<Tree> as CompoundProof<_, _>>::blank_circuit(&self.pp)
    }
    fn public_inputs(&self) -> Vec<Fr> {
        <EmptySectorUpdateCompound<Tree> as CompoundProof<_, _>>::generate_public_inputs(
            &self.pub_in,
            &self.pp,
            Some(self.pub_in.k),
        )
        .expect("generate_public_inputs")
    }
    fn params(&self) -> Value {
        self.info.clone()
    }
}

fn update_job<Tree: 'static + MerkleTreeTrait<Hasher = TreeRHasher>>(
    a: &Args,
) -> UpdateJob<Tree> {
    let sector_size: u64 = a.get("sector-size").parse().unwrap_or_else(|_| die("--sector-size"));
    let pp = UpdateParams::from_sector_size(sector_size);
    let k = a.usize("partition", 0);
    let h = a.usize("h", h_default(pp.sector_nodes));
    let file = PathBuf::from(a.get("vanilla"));
    let raw = fs::read(&file).unwrap_or_else(|e| die(&format!("{}: {}", file.display(), e)));
    let proof: PartitionProof<Tree> = bincode::deserialize(&raw)
        .unwrap_or_else(|e| die(&format!("{}: {}", file.display(), e)));
    let roundtrip = bincode::serialize(&proof).unwrap() == raw;
    let dom = |k: &str| {
        PoseidonDomain::try_from_bytes(&a.b32(k))
            .unwrap_or_else(|_| die(&format!("--{}: not canonical", k)))
    };
    let comm_d_new = Sha256Domain::try_from_bytes(&a.b32("comm-d-new"))
        .unwrap_or_else(|_| die("--comm-d-new: not canonical"));
    let info = json!({
        "sector_size": sector_size,
        "partition": k,
        "h": h,
        "comm_r_old": a.get("comm-r-old"),
        "comm_d_new": a.get("comm-d-new"),
        "comm_r_new": a.get("comm-r-new"),
        "vanilla_file": file.file_name().unwrap().to_str().unwrap(),
        "vanilla_bincode_roundtrip_identical": roundtrip,
        "partition_count": pp.partition_count,
        "challenge_count": pp.challenge_count,
    });
    UpdateJob {
        pub_in: UpdateInputs {
            k,
            comm_r_old: dom("comm-r-old"),
            comm_d_new,
            comm_r_new: dom("comm-r-new"),
            h,
        },
        pp,
        proof,
        info,
    }
}

struct PorepJob<Tree: 'static + MerkleTreeTrait<Hasher = TreeRHasher>> {
    pp: StackedParams<Tree>,
    c1: C1<Tree>,
    k: usize,
    info: Value,
}

impl<Tree: 'static + MerkleTreeTrait<Hasher = TreeRHasher>> Job for PorepJob<Tree> {
    type C = StackedCircuit<Tree, Sha256Hasher>;
    fn circuit(&self) -> Self::C {
        <StackedCompound<Tree, Sha256Hasher> as CompoundProof<_, _>>::circuit(
            &self.c1.public_inputs(self.k),
            (),
            &self.c1.partitions()[self.k],
            &self.pp,
            Some(self.k),
        )
        .expect("StackedCompound::circuit")
    }
    fn blank(&self) -> Self::C {
        <StackedCompound<Tree, Sha256Hasher> as CompoundProof<_, _>>::blank_circuit(&self.pp)
    }
    fn public_inputs(&self) -> Vec<Fr> {
        <StackedCompound<Tree, Sha256Hasher> as CompoundProof<_, _>>::generate_public_inputs(
            &self.c1.public_inputs(self.k),
            &self.pp,
            Some(self.k),
        )
        .expect("generate_public_inputs")
    }
    fn params(&self) -> Value {
        self.info.clone()
    }
}

/// Partition K of a C1 output (vanilla proofs deserialized with
/// storage-proofs-porep's own types), as seal_commit_phase2 proves it.
fn porep_job<Tree: 'static + MerkleTreeTrait<Hasher = TreeRHasher>>(
    a: &Args,
    sp: &SealProof,
    raw: &[u8],
) -> PorepJob<Tree> {
    let file = a.get("c1");
    let c1: C1<Tree> =
        serde_json::from_slice(raw).unwrap_or_else(|e| die(&format!("{}: {}", file, e)));
    let roundtrip = serde_json::to_vec(&c1).map_or(false, |v| v == raw);
    let k = a.usize("partition", 0);
    let n = c1.partitions().len();
    if n != sp.partitions {
        die(&format!("{}: {} partitions of vanilla proofs, {} wants {}", file, n, c1.registered_proof, sp.partitions));
    }
    if k >= n {
        die(&format!("--partition {}: the C1 has partitions 0..{}", k, n - 1));
    }
    let info = json!({
        "c1": Path::new(file).file_name().unwrap().to_str().unwrap(),
        "registered_proof": c1.registered_proof,
        "sector_size": sp.sector_size,
        "partition": k,
        "partitions": n,
        "layers": sp.layers,
        "challenges_per_partition": sp.challenges_per_partition,
        "porep_id": hex::encode(sp.porep_id()),
        "c1_serde_roundtrip_identical": roundtrip,
    });
    PorepJob { pp: sp.setup::<Tree>(), c1, k, info }
}

// ---------------------------------------------------------------------------
// Actions

/// Records the circuit: in memory below --stream-above constraints (default
/// 8M), else streaming after a counting pass over the blank circuit.
fn digests<J: Job>(j: &J, a: &Args) -> Value {
    let t = Instant::now();
    let inputs = j.public_inputs();
    let counts = j.counts();
    eprintln!(
        "counting pass: {} inputs, {} aux, {} constraints, {:.1?}",
        counts.inputs,
        counts.aux,
        counts.constraints,
        t.elapsed()
    );
    let t = Instant::now();
    let stream = counts.constraints as usize > a.usize("stream-above", 8 << 20);
    let mut cs = if stream {
        let tmp = PathBuf::from(a.opt("tmp").unwrap_or("/tmp"));
        RecCS::new_streaming(counts, &inputs, &tmp)
    } else {
        RecCS::new(false, false)
    };
    j.circuit().synthesize(&mut cs).expect("synthesize");
    if !stream {
        assert_eq!(cs.inputs.len(), inputs.len() + 1, "input count");
        for (i, g) in inputs.iter().enumerate() {
            assert_eq!(*g, cs.inputs[i + 1], "input {}", i + 1);
        }
    }
    let (mut d, _) = cs.finish();
    assert_eq!(
        (
            d["num_inputs"].as_u64().unwrap(),
            d["num_aux"].as_u64().unwrap(),
            d["num_constraints"].as_u64().unwrap()
        ),
        (counts.inputs, counts.aux, counts.constraints),
        "blank and real circuit counts differ"
    );
    eprintln!("recording pass ({}): {:.1?}", if stream { "streaming" } else { "memory" }, t.elapsed());
    d["params"] = j.params();
    d["public_inputs"] = json!(inputs.iter().map(fr_hex).collect::<Vec<_>>());
    d["public_inputs_match_generate_public_inputs"] = json!(true);
    d["recorded"] = json!(if stream { "streaming" } else { "memory" });
    d
}

/// A ParameterSource that fails at the first parameter it is asked for:
/// create_random_proof then runs bellperson's own synthesis
/// (ProvingAssignment, extensible, as for a real proof) and returns.
struct NoParams;

impl ParameterSource<Bls12> for NoParams {
    type G1Builder = (Arc<Vec<G1Affine>>, usize);
    type G2Builder = (Arc<Vec<G2Affine>>, usize);
    fn get_vk(&self, _: usize) -> Result<&VerifyingKey<Bls12>, SynthesisError> {
        Err(SynthesisError::AssignmentMissing)
    }
    fn get_h(&self, _: usize) -> Result<Self::G1Builder, SynthesisError> {
        Err(SynthesisError::AssignmentMissing)
    }
    fn get_l(&self, _: usize) -> Result<Self::G1Builder, SynthesisError> {
        Err(SynthesisError::AssignmentMissing)
    }
    fn get_a(&self, _: usize, _: usize) -> Result<(Self::G1Builder, Self::G1Builder), SynthesisError> {
        Err(SynthesisError::AssignmentMissing)
    }
    fn get_b_g1(&self, _: usize, _: usize) -> Result<(Self::G1Builder, Self::G1Builder), SynthesisError> {
        Err(SynthesisError::AssignmentMissing)
    }
    fn get_b_g2(&self, _: usize, _: usize) -> Result<(Self::G2Builder, Self::G2Builder), SynthesisError> {
        Err(SynthesisError::AssignmentMissing)
    }
}

/// Captures bellperson's "synthesis time: …" log line (prover/native.rs).
struct Capture(Mutex<Vec<String>>);

impl log::Log for Capture {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::Level::Info
    }
    fn log(&self, r: &log::Record) {
        if self.enabled(r.metadata()) {
            self.0.lock().unwrap().push(format!("{}", r.args()));
        }
    }
    fn flush(&self) {}
}

static CAPTURE: Capture = Capture(Mutex::new(Vec::new()));

fn logged_secs(prefix: &str) -> Option<f64> {
    let lines = CAPTURE.0.lock().unwrap();
    let l = lines.iter().rev().find(|l| l.starts_with(prefix))?;
    let d = l[prefix.len()..].trim();
    // Debug format of a Duration: "1.234s", "12.3ms", "45µs"
    let (num, unit) = d.split_at(d.find(|c: char| c.is_alphabetic() || c == 'µ').unwrap_or(d.len()));
    let x: f64 = num.parse().ok()?;
    Some(match unit {
        "s" => x,
        "ms" => x / 1e3,
        "µs" | "us" => x / 1e6,
        "ns" => x / 1e9,
        _ => return None,
    })
}

fn synth<J: Job>(j: &J) -> Value {
    let c = j.circuit();
    let mut rng = XorShiftRng::from_seed([7; 16]);
    let t = Instant::now();
    let r = create_random_proof(c, NoParams, &mut rng);
    let wall = t.elapsed().as_secs_f64();
    assert!(r.is_err(), "NoParams must stop the prover");
    let n = j.counts();
    json!({
        "params": j.params(),
        "num_inputs": n.inputs,
        "num_aux": n.aux,
        "num_constraints": n.constraints,
        "bellperson_synthesis_s": logged_secs("synthesis time:"),
        "wall_s_incl_assignment_copy": wall,
        "peak_rss_kib": peak_rss_kib(),
        "threads": rayon_threads(),
    })
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The parameters as --params-reader says: "read" decodes the whole file
/// into memory (Parameters::read, unchecked), "mapped" maps it and decodes
/// each query when the prover asks for it, as filecoin-proofs'
/// read_cached_params does (build_mapped_parameters, unchecked).
enum Params {
    Read(Parameters<Bls12>),
    Mapped(MappedParameters<Bls12>),
}

impl Params {
    fn open(a: &Args) -> (Params, PathBuf) {
        let path = PathBuf::from(a.get("params"));
        let err = |e: std::io::Error| format!("{}: {}", path.display(), e);
        let p = match a.opt("params-reader").unwrap_or("read") {
            "read" => {
                let f = fs::File::open(&path).unwrap_or_else(|e| die(&err(e)));
                let r = std::io::BufReader::with_capacity(1 << 20, f);
                Params::Read(Parameters::read(r, false).unwrap_or_else(|e| die(&err(e))))
            }
            "mapped" => Params::Mapped(
                Parameters::build_mapped_parameters(path.clone(), false).unwrap_or_else(|e| die(&err(e))),
            ),
            r => die(&format!("--params-reader {}: read or mapped", r)),
        };
        (p, path)
    }
    fn vk(&self) -> &VerifyingKey<Bls12> {
        match self {
            Params::Read(p) => &p.vk,
            Params::Mapped(p) => &p.vk,
        }
    }
    fn prove<C: Circuit<Fr> + Send>(&self, c: C, rng: &mut XorShiftRng) -> Proof<Bls12> {
        match self {
            Params::Read(p) => create_random_proof(c, p, rng),
            Params::Mapped(p) => create_random_proof(c, p, rng),
        }
        .expect("create_random_proof")
    }
}

fn prove<J: Job>(j: &J, a: &Args) -> Value {
    let t = Instant::now();
    let (params, path) = Params::open(a);
    let read_s = t.elapsed().as_secs_f64();
    let pvk = prepare_verifying_key(params.vk());
    let inputs = j.public_inputs();
    let mut rng = XorShiftRng::from_seed([9; 16]);
    let t = Instant::now();
    let circuit = j.circuit();
    let proof = params.prove(circuit, &mut rng);
    let prove_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let ok = verify_proof(&pvk, &proof, &inputs).expect("verify_proof");
    let verify_s = t.elapsed().as_secs_f64();
    if !ok {
        die("bellperson's proof does not verify");
    }
    json!({
        "params": j.params(),
        "params_file": path.file_name().unwrap().to_str().unwrap(),
        "params_reader": a.opt("params-reader").unwrap_or("read"),
        "params_read_s": read_s,
        "bellperson_synthesis_s": logged_secs("synthesis time:"),
        "bellperson_prover_s": logged_secs("prover time:"),
        "prove_s": prove_s,
        "verify_s": verify_s,
        "vanilla_to_verified_s": prove_s + verify_s,
        "verified": ok,
        "peak_rss_kib": peak_rss_kib(),
        "threads": rayon_threads(),
    })
}

fn run<J: Job>(action: &str, j: &J, a: &Args) -> Value {
    match action {
        "digests" => digests(j, a),
        "synth" => synth(j),
        "prove" => prove(j, a),
        _ => die("action: digests, synth or prove"),
    }
}

/// The registered proof a C1 file names (its "registered_proof").
#[derive(Deserialize)]
struct C1Head {
    registered_proof: String,
}

/// Dispatches on the sector size's tree shape (tree R: 8-0-0 up to 512 MiB,
/// 8-8-0 at 32 GiB, 8-8-2 at 64 GiB); porep's size is its C1's proof's.
fn dispatch(action: &str, circuit: &str, a: &Args) -> Value {
    let mut c1: Option<(SealProof, Vec<u8>)> = None;
    let size: u64 = if circuit == "porep" {
        let file = a.get("c1");
        let raw = fs::read(file).unwrap_or_else(|e| die(&format!("{}: {}", file, e)));
        let head: C1Head = serde_json::from_slice(&raw).unwrap_or_else(|e| die(&format!("{}: {}", file, e)));
        let sp = SealProof::by_name(&head.registered_proof).unwrap_or_else(|| {
            die(&format!(
                "{}: registered_proof {:?}: want an interactive StackedDrg<size>V1 or V1_1 proof",
                file, head.registered_proof
            ))
        });
        let size = sp.sector_size;
        c1 = Some((sp, raw));
        size
    } else {
        a.get("sector-size").parse().unwrap_or_else(|_| die("--sector-size"))
    };
    macro_rules! go {
        ($t:ty) => {
            match circuit {
                "post" => run(action, &post_job::<$t>(a), a),
                "update" => run(action, &update_job::<$t>(a), a),
                "porep" => {
                    // The C1's bytes are dropped before the proof.
                    let job = {
                        let (sp, raw) = c1.take().unwrap();
                        porep_job::<$t>(a, &sp, &raw)
                    };
                    run(action, &job, a)
                }
                _ => die("circuit: post, update or porep"),
            }
        };
    }
    match size {
        s if s == 32 << 30 => go!(DiskTree<TreeRHasher, U8, U8, U0>),
        s if s == 64 << 30 => go!(DiskTree<TreeRHasher, U8, U8, U2>),
        _ => go!(DiskTree<TreeRHasher, U8, U0, U0>),
    }
}

/// Reproduces the per-partition digests of a golden folder (meta.json).
fn check_golden(dir: &Path) -> Value {
    let meta: Value = serde_json::from_slice(
        &fs::read(dir.join("meta.json")).unwrap_or_else(|e| die(&format!("{}: {}", dir.display(), e))),
    )
    .unwrap();
    let s = |v: &Value| v.as_str().unwrap().to_string();
    let mut kv: Vec<String> = vec![
        "--sector-size".into(),
        meta["sector_size"].to_string(),
    ];
    let circuit = if meta.get("post_config").is_some() {
        kv.extend([
            "--kind".into(),
            s(&meta["kind"]),
            "--randomness".into(),
            s(&meta["randomness"]),
            "--prover-id".into(),
            s(&meta["prover_id"]),
            "--vanilla-dir".into(),
            dir.join("vanilla").to_str().unwrap().into(),
            "--sectors-per-partition".into(),
            meta["post_config"]["sector_count"].to_string(),
        ]);
        "post"
    } else {
        kv.extend([
            "--comm-r-old".into(),
            s(&meta["comm_r_old"]),
            "--comm-d-new".into(),
            s(&meta["comm_d_new"]),
            "--comm-r-new".into(),
            s(&meta["comm_r_new"]),
            "--vanilla".into(),
            dir.join("vanilla/partition-0.bin").to_str().unwrap().into(),
            "--h".into(),
            meta["update_config"]["h"].to_string(),
        ]);
        "update"
    };
    let a = Args::parse(&kv);
    let d = dispatch("digests", circuit, &a);
    let want = &meta["partition"][0];
    let mut ok = true;
    for key in [
        "num_inputs",
        "num_aux",
        "num_constraints",
        "r1cs_digest",
        "witness_digest",
        "abc_digest",
        "density_digest",
        "public_inputs",
    ] {
        let same = d[key] == want[key];
        if !same {
            eprintln!("{}: {}: tool {} golden {}", dir.display(), key, d[key], want[key]);
        }
        ok &= same;
    }
    for (mine, theirs) in [
        ("a_aux_popcount", "a_aux"),
        ("b_input_popcount", "b_input"),
        ("b_aux_popcount", "b_aux"),
    ] {
        let same = d[mine] == want["density_popcounts"][theirs];
        ok &= same;
    }
    json!({"golden": dir.file_name().unwrap().to_str().unwrap(), "all_equal": ok, "tool": d})
}

fn main() {
    log::set_logger(&CAPTURE).unwrap();
    log::set_max_level(log::LevelFilter::Info);
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        die("usage: cuseal-refproofs digests|synth|prove post|update|porep ARGS, or check-golden DIR...");
    }
    let out = if args[1] == "check-golden" {
        let mut all = Vec::new();
        let mut ok = true;
        for d in &args[2..] {
            let r = check_golden(Path::new(d));
            ok &= r["all_equal"].as_bool().unwrap();
            eprintln!("{}: all equal: {}", d, r["all_equal"]);
            all.push(r);
        }
        if !ok {
            println!("{}", serde_json::to_string_pretty(&all).unwrap());
            std::process::exit(1);
        }
        json!(all)
    } else {
        let a = Args::parse(&args[3..]);
        dispatch(&args[1], &args[2], &a)
    };
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
