//! cuseal Groth16 reference generator (test tool).
//!
//! Usage: refgen <input.json> <out-prefix>
//!
//! Reads an R1CS with its witness, toxic waste and proof randomness
//! (written by `CUSEAL_REFGEN_OUT=… go test -run TestExportRefgenInput
//! ./porep/groth16`), replays it into bellperson's generator and prover and
//! writes `<out-prefix>.params` (Parameters::write), `<out-prefix>.vk`
//! (VerifyingKey::write) and `<out-prefix>.proof` (Proof::write).
use std::fs::File;
use std::io::BufWriter;

use bellpepper_core::{Circuit, ConstraintSystem, LinearCombination, SynthesisError, Variable};
use bellperson::groth16;
use blstrs::{Bls12, G1Projective, G2Projective, Scalar};
use group::Group;
use serde::Deserialize;

#[derive(Deserialize, Clone)]
struct Term(u8, usize, String); // kind (0 input, 1 aux), index, LE canonical hex

#[derive(Deserialize, Clone)]
struct Row {
    a: Vec<Term>,
    b: Vec<Term>,
    c: Vec<Term>,
}

#[derive(Deserialize, Clone)]
struct Input {
    num_inputs: usize, // including ONE
    num_aux: usize,
    rows: Vec<Row>, // circuit rows only; the per-input rows are added by bellperson
    inputs: Vec<String>, // without ONE
    aux: Vec<String>,
    tau: String,
    alpha: String,
    beta: String,
    gamma: String,
    delta: String,
    r: String,
    s: String,
}

fn scalar(h: &str) -> Scalar {
    let b = hex::decode(h).expect("hex");
    let arr: [u8; 32] = b.try_into().expect("32 bytes");
    Option::from(Scalar::from_bytes_le(&arr)).expect("canonical scalar")
}

#[derive(Clone)]
struct Replay(Input);

impl Circuit<Scalar> for Replay {
    fn synthesize<CS: ConstraintSystem<Scalar>>(self, cs: &mut CS) -> Result<(), SynthesisError> {
        let c = self.0;
        assert_eq!(c.inputs.len() + 1, c.num_inputs);
        assert_eq!(c.aux.len(), c.num_aux);
        let mut inputs = vec![CS::one()];
        for (i, v) in c.inputs.iter().enumerate() {
            let v = scalar(v);
            inputs.push(cs.alloc_input(|| format!("input {i}"), || Ok(v))?);
        }
        let mut aux = Vec::with_capacity(c.num_aux);
        for (i, v) in c.aux.iter().enumerate() {
            let v = scalar(v);
            aux.push(cs.alloc(|| format!("aux {i}"), || Ok(v))?);
        }
        let build = |terms: &[Term]| -> LinearCombination<Scalar> {
            let mut lc = LinearCombination::zero();
            for t in terms {
                let var: Variable = if t.0 == 0 { inputs[t.1] } else { aux[t.1] };
                lc = lc + (scalar(&t.2), var);
            }
            lc
        };
        for (j, row) in c.rows.iter().enumerate() {
            let (a, b, cc) = (build(&row.a), build(&row.b), build(&row.c));
            cs.enforce(|| format!("row {j}"), |_| a, |_| b, |_| cc);
        }
        Ok(())
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    assert_eq!(args.len(), 3, "usage: refgen <input.json> <out-prefix>");
    let input: Input = serde_json::from_reader(File::open(&args[1]).expect("open input")).expect("parse input");
    let circuit = Replay(input.clone());
    let params = groth16::generate_parameters::<Bls12, _>(
        circuit.clone(),
        G1Projective::generator(),
        G2Projective::generator(),
        scalar(&input.alpha),
        scalar(&input.beta),
        scalar(&input.gamma),
        scalar(&input.delta),
        scalar(&input.tau),
    )
    .expect("generate_parameters");
    let out = &args[2];
    params
        .write(BufWriter::new(File::create(format!("{out}.params")).unwrap()))
        .unwrap();
    params
        .vk
        .write(BufWriter::new(File::create(format!("{out}.vk")).unwrap()))
        .unwrap();
    let proof = groth16::create_proof(circuit, &params, scalar(&input.r), scalar(&input.s)).expect("create_proof");
    proof
        .write(BufWriter::new(File::create(format!("{out}.proof")).unwrap()))
        .unwrap();
    let pvk = groth16::prepare_verifying_key(&params.vk);
    let public: Vec<Scalar> = input.inputs.iter().map(|h| scalar(h)).collect();
    assert!(groth16::verify_proof(&pvk, &proof, &public).unwrap(), "bellperson rejects its own proof");
    eprintln!("wrote {out}.params, {out}.vk, {out}.proof");
}
