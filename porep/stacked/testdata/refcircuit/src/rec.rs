//! The recording constraint system shared by cuseal-refcircuit and
//! cuseal-refproofs. It behaves like bellperson's prover
//! (groth16/prover/mod.rs): ONE is allocated first as Input(0); after the
//! circuit one row `input_i · 0 = 0` per input is appended; LCs are
//! bellpepper's merged maps and terms whose merged coefficient is zero are
//! dropped; densities follow `eval_with_trackers` (A: aux only, B: inputs and
//! aux, non-zero terms only). `finish` returns the digests of docs/digests.md
//! §1–§4 plus counts and density popcounts.
//!
//! Two ways to record: in memory (`new`: the R1CS body and a/b/c are kept
//! until `finish`, fine up to a few million constraints) and streaming
//! (`new_streaming`: the counts and public inputs are known beforehand, from a
//! `Counter` pass over the blank circuit and from `generate_public_inputs`, so
//! the R1CS and witness digests are fed row by row and b/c go to temporary
//! files; only the aux vector stays in memory — a 32 GiB WindowPoSt partition
//! has ~130M constraints).

#![allow(dead_code)]

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use bellpepper_core::{ConstraintSystem, Index, LinearCombination, SynthesisError, Variable};
use blstrs::Scalar as Fr;
use ff::{Field, PrimeField};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

pub fn fr_hex(x: &Fr) -> String {
    hex::encode(x.to_repr())
}

/// Counts of a circuit, ONE and the per-input rows included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    pub inputs: u64,
    pub aux: u64,
    pub constraints: u64,
}

/// Counter counts variables and constraints without evaluating anything
/// (value and LC closures are never called), like a shape-only pass.
pub struct Counter {
    pub inputs: u64,
    pub aux: u64,
    pub constraints: u64,
}

impl Counter {
    pub fn new() -> Self {
        // ONE, as bellperson's prover allocates it
        Counter {
            inputs: 1,
            aux: 0,
            constraints: 0,
        }
    }

    /// The counts with the per-input rows the prover appends.
    pub fn counts(&self) -> Counts {
        Counts {
            inputs: self.inputs,
            aux: self.aux,
            constraints: self.constraints + self.inputs,
        }
    }
}

impl ConstraintSystem<Fr> for Counter {
    type Root = Self;
    fn alloc<F, A, AR>(&mut self, _: A, _: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        self.aux += 1;
        Ok(Variable::new_unchecked(Index::Aux(self.aux as usize - 1)))
    }
    fn alloc_input<F, A, AR>(&mut self, _: A, _: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        self.inputs += 1;
        Ok(Variable::new_unchecked(Index::Input(self.inputs as usize - 1)))
    }
    fn enforce<A, AR, LA, LB, LC>(&mut self, _: A, _: LA, _: LB, _: LC)
    where
        A: FnOnce() -> AR,
        AR: Into<String>,
        LA: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LB: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LC: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
    {
        self.constraints += 1;
    }
    fn push_namespace<NR, N>(&mut self, _: N)
    where
        NR: Into<String>,
        N: FnOnce() -> NR,
    {
    }
    fn pop_namespace(&mut self) {}
    fn get_root(&mut self) -> &mut Self::Root {
        self
    }
}

/// Streaming state: the digests fed as the circuit runs.
struct Stream {
    counts: Counts,
    expect_inputs: Vec<Fr>,
    r1cs: Sha256,
    witness: Sha256,
    a: Sha256,
    b_path: PathBuf,
    c_path: PathBuf,
    b: BufWriter<File>,
    c: BufWriter<File>,
}

pub struct RecCS {
    pub inputs: Vec<Fr>,
    pub aux: Vec<Fr>,
    n_constraints: u64,
    body: Vec<u8>, // serialized constraints for the R1CS digest (§1), memory mode
    a: Vec<Fr>,
    b: Vec<Fr>,
    c: Vec<Fr>,
    a_aux: Vec<bool>,
    b_in: Vec<bool>,
    b_aux: Vec<bool>,
    // optional text dump of every constraint, with its namespace path
    dump: Option<Vec<String>>,
    // shape only (like bellperson's KeypairAssembly): value closures are
    // never called, and only the R1CS and density digests are meaningful
    shape_only: bool,
    ns: Vec<String>,
    stream: Option<Stream>,
}

fn lc_terms(lc: &LinearCombination<Fr>) -> Vec<(u8, u32, Fr)> {
    let mut t: Vec<(u8, u32, Fr)> = Vec::new();
    for (i, c) in lc.iter_inputs() {
        if !bool::from(c.is_zero()) {
            t.push((0, *i as u32, *c));
        }
    }
    for (i, c) in lc.iter_aux() {
        if !bool::from(c.is_zero()) {
            t.push((1, *i as u32, *c));
        }
    }
    t.sort_by_key(|x| (x.0, x.1));
    t
}

impl RecCS {
    pub fn new(dump: bool, shape_only: bool) -> Self {
        let mut cs = RecCS {
            inputs: Vec::new(),
            aux: Vec::new(),
            n_constraints: 0,
            body: Vec::new(),
            a: Vec::new(),
            b: Vec::new(),
            c: Vec::new(),
            a_aux: Vec::new(),
            b_in: Vec::new(),
            b_aux: Vec::new(),
            dump: if dump { Some(Vec::new()) } else { None },
            shape_only,
            ns: Vec::new(),
            stream: None,
        };
        // bellperson's prover allocates ONE before synthesis.
        cs.alloc_input(|| "ONE", || Ok(Fr::ONE)).unwrap();
        cs
    }

    /// A streaming recorder for a circuit of the given counts whose public
    /// inputs (ONE excluded) are `inputs`; b and c go to files in `tmp`.
    /// `finish` panics if the circuit does not match.
    pub fn new_streaming(counts: Counts, inputs: &[Fr], tmp: &Path) -> Self {
        let mut expect = vec![Fr::ONE];
        expect.extend_from_slice(inputs);
        assert_eq!(expect.len() as u64, counts.inputs, "input count");
        let mut r1cs = Sha256::new();
        r1cs.update(b"cuseal-r1cs-v1");
        r1cs.update(counts.inputs.to_le_bytes());
        r1cs.update(counts.aux.to_le_bytes());
        r1cs.update(counts.constraints.to_le_bytes());
        let mut witness = Sha256::new();
        witness.update(b"cuseal-witness-v1");
        witness.update(counts.inputs.to_le_bytes());
        for x in &expect {
            witness.update(x.to_repr());
        }
        witness.update(counts.aux.to_le_bytes());
        let mut a = Sha256::new();
        a.update(b"cuseal-abc-v1");
        a.update(counts.constraints.to_le_bytes());
        let pid = std::process::id();
        let b_path = tmp.join(format!("refproofs-{}-b.bin", pid));
        let c_path = tmp.join(format!("refproofs-{}-c.bin", pid));
        let open = |p: &Path| {
            BufWriter::with_capacity(
                1 << 20,
                File::create(p).unwrap_or_else(|e| panic!("{}: {}", p.display(), e)),
            )
        };
        let b = open(&b_path);
        let c = open(&c_path);
        let mut cs = RecCS {
            inputs: Vec::new(),
            aux: Vec::with_capacity(counts.aux as usize),
            n_constraints: 0,
            body: Vec::new(),
            a: Vec::new(),
            b: Vec::new(),
            c: Vec::new(),
            a_aux: Vec::with_capacity(counts.aux as usize),
            b_in: Vec::new(),
            b_aux: Vec::with_capacity(counts.aux as usize),
            dump: None,
            shape_only: false,
            ns: Vec::new(),
            stream: Some(Stream {
                counts,
                expect_inputs: expect,
                r1cs,
                witness,
                a,
                b_path,
                c_path,
                b,
                c,
            }),
        };
        cs.alloc_input(|| "ONE", || Ok(Fr::ONE)).unwrap();
        cs
    }

    fn record(
        &mut self,
        name: &dyn Fn() -> String,
        la: &LinearCombination<Fr>,
        lb: &LinearCombination<Fr>,
        lc: &LinearCombination<Fr>,
    ) {
        let ta = lc_terms(la);
        let tb = lc_terms(lb);
        let tc = lc_terms(lc);
        let mut line = String::new();
        let mut row: Vec<u8> = Vec::new();
        let body = if self.stream.is_some() {
            &mut row
        } else {
            &mut self.body
        };
        for (m, terms) in [("A", &ta), ("B", &tb), ("C", &tc)] {
            body.extend_from_slice(&(terms.len() as u32).to_le_bytes());
            if self.dump.is_some() {
                line.push_str(&format!(" {}:", m));
            }
            for (k, i, c) in terms.iter() {
                body.push(*k);
                body.extend_from_slice(&i.to_le_bytes());
                body.extend_from_slice(c.to_repr().as_ref());
                if self.dump.is_some() {
                    line.push_str(&format!(
                        " {}{}*{}",
                        if *k == 0 { "i" } else { "a" },
                        i,
                        fr_hex(c)
                    ));
                }
            }
        }
        // evaluations and densities, as bellperson's eval_with_trackers
        let shape_only = self.shape_only;
        let eval = |terms: &Vec<(u8, u32, Fr)>, inputs: &Vec<Fr>, aux: &Vec<Fr>| -> Fr {
            let mut acc = Fr::ZERO;
            if shape_only {
                return acc;
            }
            for (k, i, c) in terms {
                let v = if *k == 0 {
                    inputs[*i as usize]
                } else {
                    aux[*i as usize]
                };
                acc += v * c;
            }
            acc
        };
        let va = eval(&ta, &self.inputs, &self.aux);
        let vb = eval(&tb, &self.inputs, &self.aux);
        let vc = eval(&tc, &self.inputs, &self.aux);
        for (k, i, _) in ta.iter() {
            if *k == 1 {
                self.a_aux[*i as usize] = true;
            }
        }
        for (k, i, _) in tb.iter() {
            if *k == 0 {
                self.b_in[*i as usize] = true;
            } else {
                self.b_aux[*i as usize] = true;
            }
        }
        if let Some(s) = self.stream.as_mut() {
            // a·b = c is checked row by row here (memory mode: in finish).
            assert_eq!(
                va * vb,
                vc,
                "constraint {} not satisfied",
                self.n_constraints
            );
            s.r1cs.update(&row);
            s.a.update(va.to_repr());
            s.b.write_all(vb.to_repr().as_ref()).unwrap();
            s.c.write_all(vc.to_repr().as_ref()).unwrap();
        } else if !self.shape_only {
            self.a.push(va);
            self.b.push(vb);
            self.c.push(vc);
        }
        if let Some(d) = self.dump.as_mut() {
            let mut path = self.ns.join("/");
            path.push('/');
            path.push_str(&name());
            d.push(format!(
                "{}\t{}\t{}",
                self.n_constraints,
                path,
                line.trim_start()
            ));
        }
        self.n_constraints += 1;
    }

    /// Appends the per-input rows input_i · 0 = 0 (bellperson
    /// synthesize_circuits_batch) and returns the digests.
    pub fn finish(mut self) -> (Value, Option<Vec<String>>) {
        for i in 0..self.inputs.len() {
            let la = LinearCombination::zero() + Variable::new_unchecked(Index::Input(i));
            let z = LinearCombination::zero();
            self.record(&|| format!("input row {}", i), &la, &z, &z);
        }
        let (r1cs, witness, abc) = match self.stream.take() {
            Some(s) => self.finish_stream(s),
            None => self.finish_memory(),
        };

        let mut h = Sha256::new();
        h.update(b"cuseal-density-v1");
        let mut pops = Vec::new();
        for d in [&self.a_aux, &self.b_in, &self.b_aux] {
            let pop = d.iter().filter(|x| **x).count() as u64;
            pops.push(pop);
            h.update((d.len() as u64).to_le_bytes());
            h.update(pop.to_le_bytes());
            let mut words = vec![0u64; (d.len() + 63) / 64];
            for (i, x) in d.iter().enumerate() {
                if *x {
                    words[i / 64] |= 1u64 << (i % 64);
                }
            }
            for w in words {
                h.update(w.to_le_bytes());
            }
        }
        let density = hex::encode(h.finalize());
        let mut out = json!({
            "num_inputs": self.inputs.len(),
            "num_aux": self.aux.len(),
            "num_constraints": self.n_constraints,
            "a_aux_popcount": pops[0],
            "b_input_popcount": pops[1],
            "b_aux_popcount": pops[2],
            "r1cs_digest": r1cs,
            "density_digest": density,
        });
        if !self.shape_only {
            out["witness_digest"] = json!(witness);
            out["abc_digest"] = json!(abc);
        }
        (out, self.dump)
    }

    fn finish_memory(&mut self) -> (String, String, String) {
        // Self-check: the witness satisfies every row (a·b = c).
        if !self.shape_only {
            for i in 0..self.a.len() {
                assert_eq!(
                    self.a[i] * self.b[i],
                    self.c[i],
                    "constraint {} not satisfied",
                    i
                );
            }
        }
        let mut h = Sha256::new();
        h.update(b"cuseal-r1cs-v1");
        h.update((self.inputs.len() as u64).to_le_bytes());
        h.update((self.aux.len() as u64).to_le_bytes());
        h.update(self.n_constraints.to_le_bytes());
        h.update(&self.body);
        let r1cs = hex::encode(h.finalize());

        let mut h = Sha256::new();
        h.update(b"cuseal-witness-v1");
        h.update((self.inputs.len() as u64).to_le_bytes());
        for x in &self.inputs {
            h.update(x.to_repr());
        }
        h.update((self.aux.len() as u64).to_le_bytes());
        for x in &self.aux {
            h.update(x.to_repr());
        }
        let witness = hex::encode(h.finalize());

        let mut h = Sha256::new();
        h.update(b"cuseal-abc-v1");
        h.update(self.n_constraints.to_le_bytes());
        for v in [&self.a, &self.b, &self.c] {
            for x in v.iter() {
                h.update(x.to_repr());
            }
        }
        let abc = hex::encode(h.finalize());
        (r1cs, witness, abc)
    }

    fn finish_stream(&mut self, mut s: Stream) -> (String, String, String) {
        let got = Counts {
            inputs: self.inputs.len() as u64,
            aux: self.aux.len() as u64,
            constraints: self.n_constraints,
        };
        assert_eq!(got, s.counts, "streamed circuit counts differ from the counting pass");
        assert!(
            self.inputs == s.expect_inputs,
            "synthesized public inputs differ from generate_public_inputs"
        );
        let r1cs = hex::encode(s.r1cs.finalize());
        let witness = hex::encode(s.witness.finalize());
        s.b.flush().unwrap();
        s.c.flush().unwrap();
        drop(s.b);
        drop(s.c);
        let mut buf = vec![0u8; 1 << 20];
        for p in [&s.b_path, &s.c_path] {
            let mut r = BufReader::new(File::open(p).unwrap());
            loop {
                let n = r.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                s.a.update(&buf[..n]);
            }
            std::fs::remove_file(p).unwrap();
        }
        let abc = hex::encode(s.a.finalize());
        (r1cs, witness, abc)
    }
}

impl ConstraintSystem<Fr> for RecCS {
    type Root = Self;

    fn alloc<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        let v = if self.shape_only { Fr::ZERO } else { f()? };
        if let Some(s) = self.stream.as_mut() {
            s.witness.update(v.to_repr());
        }
        self.aux.push(v);
        self.a_aux.push(false);
        self.b_aux.push(false);
        Ok(Variable::new_unchecked(Index::Aux(self.aux.len() - 1)))
    }

    fn alloc_input<F, A, AR>(&mut self, _: A, f: F) -> Result<Variable, SynthesisError>
    where
        F: FnOnce() -> Result<Fr, SynthesisError>,
        A: FnOnce() -> AR,
        AR: Into<String>,
    {
        self.inputs
            .push(if self.shape_only { Fr::ZERO } else { f()? });
        self.b_in.push(false);
        Ok(Variable::new_unchecked(Index::Input(self.inputs.len() - 1)))
    }

    fn enforce<A, AR, LA, LB, LC>(&mut self, annotation: A, a: LA, b: LB, c: LC)
    where
        A: FnOnce() -> AR,
        AR: Into<String>,
        LA: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LB: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
        LC: FnOnce(LinearCombination<Fr>) -> LinearCombination<Fr>,
    {
        let la = a(LinearCombination::zero());
        let lb = b(LinearCombination::zero());
        let lc = c(LinearCombination::zero());
        if self.dump.is_some() {
            let name: String = annotation().into();
            self.record(&|| name.clone(), &la, &lb, &lc);
        } else {
            self.record(&|| String::new(), &la, &lb, &lc);
        }
    }

    fn push_namespace<NR, N>(&mut self, name_fn: N)
    where
        NR: Into<String>,
        N: FnOnce() -> NR,
    {
        if self.dump.is_some() {
            self.ns.push(name_fn().into());
        }
    }

    fn pop_namespace(&mut self) {
        if self.dump.is_some() {
            self.ns.pop();
        }
    }

    fn get_root(&mut self) -> &mut Self::Root {
        self
    }
}
