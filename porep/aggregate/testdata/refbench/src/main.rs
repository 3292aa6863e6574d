// Times bellperson's SnarkPack V2 (groth16::aggregate) on N proofs:
//   cargo run --release -- N [RUNS]
// Prints one JSON line. The proofs are valid Groth16 proofs of a one-input
// verifying key whose trapdoor is known (C = (a·b − α·β − IC(x)·γ)/δ), as
// cuseal's aggregate.FakeProofs builds them; the SRS is bellperson's
// setup_fake_srs. Written for cuseal; no bellperson code is copied.
use bellperson::groth16::aggregate::{
    aggregate_proofs, setup_fake_srs, verify_aggregate_proof, AggregateProof, AggregateVersion,
    GenericSRS,
};
use bellperson::groth16::{prepare_verifying_key, Proof, VerifyingKey};
use blstrs::{Bls12, G1Projective, G2Projective, Scalar as Fr};
use ff::Field;
use group::{Curve, Group};
use rand_core::SeedableRng;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(|s| s.as_str()) == Some("verify") {
        verify(&args[2..]);
        return;
    }
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(64);
    let runs: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let target = n.next_power_of_two().max(2);
    let mut rng = rand_chacha::ChaChaRng::seed_from_u64(7);
    let t0 = Instant::now();
    let (alpha, beta, gamma, delta, ic0, ic1) = (
        Fr::random(&mut rng), Fr::random(&mut rng), Fr::random(&mut rng),
        Fr::random(&mut rng), Fr::random(&mut rng), Fr::random(&mut rng),
    );
    let g1 = G1Projective::generator();
    let g2 = G2Projective::generator();
    let gi = gamma.invert().unwrap();
    let di = delta.invert().unwrap();
    let vk = VerifyingKey::<Bls12> {
        alpha_g1: (g1 * alpha).to_affine(),
        beta_g1: (g1 * beta).to_affine(),
        beta_g2: (g2 * beta).to_affine(),
        gamma_g2: (g2 * gamma).to_affine(),
        delta_g1: (g1 * delta).to_affine(),
        delta_g2: (g2 * delta).to_affine(),
        ic: vec![(g1 * (ic0 * gi)).to_affine(), (g1 * (ic1 * gi)).to_affine()],
    };
    let pvk = prepare_verifying_key(&vk);
    let mut proofs = Vec::with_capacity(target);
    let mut inputs = Vec::with_capacity(target);
    for _ in 0..n {
        let (a, b, x) = (Fr::random(&mut rng), Fr::random(&mut rng), Fr::random(&mut rng));
        let c = (a * b - alpha * beta - (ic0 + x * ic1)) * di;
        proofs.push(Proof::<Bls12> { a: (g1 * a).to_affine(), b: (g2 * b).to_affine(), c: (g1 * c).to_affine() });
        inputs.push(vec![x]);
    }
    while proofs.len() < target {
        proofs.push(proofs[proofs.len() - 1].clone());
        inputs.push(inputs[inputs.len() - 1].clone());
    }
    let srs = setup_fake_srs::<Bls12, _>(&mut rng, target);
    let (pk, vsrs) = srs.specialize(target);
    let setup = t0.elapsed().as_secs_f64();
    let include = b"cuseal bench aggregate";
    let mut agg_t = Vec::new();
    let mut ver_t = Vec::new();
    let mut agg = None;
    for _ in 0..runs {
        let t = Instant::now();
        agg = Some(aggregate_proofs::<Bls12>(&pk, include, &proofs, AggregateVersion::V2).unwrap());
        agg_t.push(t.elapsed().as_secs_f64());
    }
    let agg = agg.unwrap();
    for _ in 0..runs {
        let t = Instant::now();
        let ok = verify_aggregate_proof(&vsrs, &pvk, rand_chacha::ChaChaRng::seed_from_u64(11), &inputs, &agg, include, AggregateVersion::V2).unwrap();
        ver_t.push(t.elapsed().as_secs_f64());
        assert!(ok, "aggregate does not verify");
    }
    let med = |v: &mut Vec<f64>| { v.sort_by(|a, b| a.partial_cmp(b).unwrap()); v[v.len() / 2] };
    let (amin, vmin) = (agg_t.iter().cloned().fold(f64::MAX, f64::min), ver_t.iter().cloned().fold(f64::MAX, f64::min));
    println!(
        "{{\"tool\":\"bellperson 0.27.0\",\"proofs\":{},\"aggregated\":{},\"bytes\":{},\"runs\":{},\"threads\":{},\"setup_seconds\":{:.3},\"aggregate_seconds_min\":{:.4},\"aggregate_seconds_median\":{:.4},\"verify_seconds_min\":{:.4},\"verify_seconds_median\":{:.4}}}",
        n, target, agg.serialized_len(), runs, rayon_threads(), setup, amin, med(&mut agg_t), vmin, med(&mut ver_t)
    );
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

fn unhex(s: &str) -> Vec<u8> {
    let s = s.trim();
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

// verify SRS_FILE VK_FILE AGGREGATE_FILE INPUTS_FILE INCLUDE_HEX: bellperson's
// verify_aggregate_proof (V2) on an aggregate written by cuseal. INPUTS_FILE
// holds one line per aggregated proof: its public inputs as comma-separated
// 32-byte little-endian hex. Prints {"valid":…}; exit 0 valid, 1 invalid.
fn verify(a: &[String]) {
    let srs = GenericSRS::<Bls12>::read(&mut std::fs::File::open(&a[0]).expect("srs")).expect("read srs");
    let vk = VerifyingKey::<Bls12>::read(std::fs::File::open(&a[1]).expect("vk")).expect("read vk");
    let pvk = prepare_verifying_key(&vk);
    let agg = AggregateProof::<Bls12>::read(std::io::Cursor::new(std::fs::read(&a[2]).expect("agg"))).expect("read aggregate");
    let inputs: Vec<Vec<Fr>> = std::fs::read_to_string(&a[3])
        .expect("inputs")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split(',')
                .map(|h| {
                    let mut b = [0u8; 32];
                    b.copy_from_slice(&unhex(h));
                    Option::from(Fr::from_bytes_le(&b)).expect("scalar")
                })
                .collect()
        })
        .collect();
    let include = unhex(&a[4]);
    let (_, vsrs) = srs.specialize(agg.tmipp.gipa.nproofs as usize);
    let ok = verify_aggregate_proof(&vsrs, &pvk, rand_chacha::ChaChaRng::seed_from_u64(5), &inputs, &agg, &include, AggregateVersion::V2)
        .expect("verify");
    println!("{{\"valid\":{}}}", ok);
    std::process::exit(if ok { 0 } else { 1 });
}
