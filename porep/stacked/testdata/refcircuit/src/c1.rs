//! The C1 output JSON (filecoin-proofs' SealCommitPhase1Output, what
//! `cuseal commit2 --c1` reads) with storage-proofs-porep's own types, and
//! the StackedDrg setup and public inputs of one partition of it, as
//! filecoin-proofs' seal_commit_phase2 builds them. Shared by
//! cuseal-refcircuit (src/main.rs) and cuseal-refproofs (src/bin).
#![allow(dead_code)]

use std::collections::BTreeMap;

use filecoin_hashers::{poseidon::PoseidonDomain, sha256::Sha256Hasher, Domain, Hasher};
use serde::{Deserialize, Serialize};
use storage_proofs_core::{api_version::ApiVersion, merkle::MerkleTreeTrait, proof::ProofScheme};
use storage_proofs_porep::stacked::{
    Challenges, Proof as VanillaProof, PublicInputs, PublicParams, SetupParams, StackedDrg, Tau,
};

/// filecoin_proofs::SealCommitPhase1Output<Tree> as serde_json writes it.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct C1<Tree: 'static + MerkleTreeTrait> {
    pub registered_proof: String,
    pub vanilla_proofs: BTreeMap<String, Vec<Vec<VanillaProof<Tree, Sha256Hasher>>>>,
    pub comm_r: [u8; 32],
    pub comm_d: [u8; 32],
    pub replica_id: PoseidonDomain,
    pub seed: [u8; 32],
    pub ticket: [u8; 32],
}

impl<Tree: 'static + MerkleTreeTrait> C1<Tree> {
    /// The vanilla proofs of every partition (the map's one entry).
    pub fn partitions(&self) -> &Vec<Vec<VanillaProof<Tree, Sha256Hasher>>> {
        self.vanilla_proofs.values().next().expect("C1: no vanilla proofs")
    }

    /// PublicInputs of partition k, as seal_commit_phase2 builds them.
    pub fn public_inputs(&self, k: usize) -> PublicInputs<PoseidonDomain, <Sha256Hasher as Hasher>::Domain> {
        let comm_d = <Sha256Hasher as Hasher>::Domain::try_from_bytes(&self.comm_d).expect("comm_d");
        let comm_r = PoseidonDomain::try_from_bytes(&self.comm_r).expect("comm_r");
        PublicInputs {
            replica_id: self.replica_id,
            seed: Some(self.seed),
            tau: Some(Tau { comm_d, comm_r }),
            k: Some(k),
        }
    }
}

/// The interactive StackedDrg public parameters (degree 6, expansion 8, no
/// API features): filecoin-proofs' setup_params for a V1 / V1_1 proof.
pub fn stacked_setup<Tree: 'static + MerkleTreeTrait>(
    nodes: usize,
    layers: usize,
    challenges_per_partition: usize,
    porep_id: [u8; 32],
    api_version: ApiVersion,
) -> PublicParams<Tree> {
    let sp = SetupParams {
        nodes,
        degree: 6,
        expansion_degree: 8,
        porep_id,
        challenges: Challenges::new_interactive(challenges_per_partition),
        num_layers: layers,
        api_version,
        api_features: vec![],
    };
    StackedDrg::<Tree, Sha256Hasher>::setup(&sp).expect("StackedDrg::setup")
}

/// A registered interactive seal proof (rust-filecoin-proofs-api ids 0–9):
/// StackedDrg<size>V1 or StackedDrg<size>V1_1.
pub struct SealProof {
    pub id: u64,
    pub sector_size: u64,
    pub layers: usize,
    pub partitions: usize,
    pub challenges_per_partition: usize,
    pub api_version: ApiVersion,
}

impl SealProof {
    /// By its C1 name; None for the synthetic and NI-PoRep proofs (other
    /// challenge kinds) and unknown names.
    pub fn by_name(name: &str) -> Option<SealProof> {
        // filecoin-proofs: sizes in id order, their layers, partitions and
        // minimum challenges (POREP_MINIMUM_CHALLENGES).
        let sizes: [(&str, u64, usize, usize, usize); 5] = [
            ("2KiB", 2 << 10, 2, 1, 2),
            ("8MiB", 8 << 20, 2, 1, 2),
            ("512MiB", 512 << 20, 2, 1, 2),
            ("32GiB", 32 << 30, 11, 10, 176),
            ("64GiB", 64 << 30, 11, 10, 176),
        ];
        for (group, (suffix, api_version)) in [("V1", ApiVersion::V1_0_0), ("V1_1", ApiVersion::V1_1_0)]
            .into_iter()
            .enumerate()
        {
            for (i, (label, size, layers, parts, min)) in sizes.iter().enumerate() {
                if name == format!("StackedDrg{}{}", label, suffix) {
                    return Some(SealProof {
                        id: (group * 5 + i) as u64,
                        sector_size: *size,
                        layers: *layers,
                        partitions: *parts,
                        challenges_per_partition: (min + parts - 1) / parts,
                        api_version,
                    });
                }
            }
        }
        None
    }

    /// porep_id: id u64 LE ‖ nonce 0 u64 LE ‖ 16 zero bytes.
    pub fn porep_id(&self) -> [u8; 32] {
        let mut id = [0u8; 32];
        id[..8].copy_from_slice(&self.id.to_le_bytes());
        id
    }

    pub fn setup<Tree: 'static + MerkleTreeTrait>(&self) -> PublicParams<Tree> {
        stacked_setup(
            (self.sector_size / 32) as usize,
            self.layers,
            self.challenges_per_partition,
            self.porep_id(),
            self.api_version,
        )
    }
}
