// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package gadget holds cuseal's circuit gadgets, each mirroring its
// bellpepper-core 0.2.1 / bellperson 0.27.0 / rust-fil-proofs twin
// allocation for allocation and constraint for constraint (same order, same
// merged coefficients), so that circuits built from them match the R1CS of
// the official Filecoin parameters: Boolean and AllocatedBit, Num and
// AllocatedNum, UInt32 with MultiEq, UInt64, SHA-256, multipack,
// reverse_bit_numbering, constraint::equal, insert/pick and the SHA-256
// Merkle node. See docs/porep-circuit.md §3.
//
// Values are always carried (a circuit synthesized only for its shape can
// pass zero values). Gadgets build their linear combinations in reusable
// scratch buffers, so the hot paths (SHA-256) do not allocate per bit.
package gadget
