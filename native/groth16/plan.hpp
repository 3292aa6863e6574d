// SPDX-License-Identifier: Apache-2.0 OR MIT

// plan.hpp: host-side batch planning for the Groth16 query sums.
//
//   check_batch   shapes against the SRS and every circuit's density bitmaps
//                 against circuit 0's, word for word (a batch shares one set of
//                 compacted bases, gpu-prover-notes.md §2.3 "hidden invariant").
//   slot maps     query slot k → variable (formats.md §1.2): L = aux j;
//                 A = input i (all dense), then A-dense aux; B = B-dense
//                 inputs, then B-dense aux (offset = B-input popcount).
//   classify      each slot's scalar per circuit: 0 (skipped), 1 (its base is
//                 batch-added) or significant (tail MSM). A query is split when
//                 the union of significant slots over the batch is ≤ half the
//                 slots (supraseal's rule, §2.2), or as forced by split_mode.
//   compaction    split: per circuit the scalars at the union's slots (shared
//                 gathered bases) and the 1-slots outside it; not split: the
//                 scalars of every slot (L: the aux vector itself, no copy).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../srs/srs.hpp"

namespace cuseal::g16 {

using ff::fr_t;

enum : int { PQ_L = 0, PQ_A = 1, PQ_B = 2, NPQ = 3 };
const char* plan_query_name(int q);

// scalars: a view of n Fr elements, owning them when own is non-empty.
struct scalars {
	const fr_t* p = nullptr;
	uint64_t n = 0;
	std::vector<fr_t> own;
};

struct query_plan {
	uint64_t slots = 0; // query length (= SRS query size)
	bool split = false;
	std::vector<uint32_t> tail_slots;           // split: union of significant slots, ascending
	std::vector<scalars> sc;                    // per circuit: split ? at tail_slots : at every slot
	std::vector<std::vector<uint32_t>> ones;    // per circuit, split only: 1-slots outside tail_slots
	uint64_t ones_total = 0;
};

struct batch_plan {
	size_t n = 0;          // circuits
	unsigned lg = 0;       // H domain log2 (m = 2^lg = n_h + 1)
	uint64_t n_input = 0, n_aux = 0;
	query_plan q[NPQ];
};

// popcount_density counts the set bits of d's first bit_len bits and fails if
// bits past bit_len are set in the last word.
uint64_t popcount_density(const cuseal_density& d, const char* name, size_t circuit);

// check_batch validates shapes against s and densities against circuit 0.
// Throws cuseal::error (CUSEAL_ERR_INVALID_ARGUMENT) naming circuit and field.
void check_batch(const srs::srs& s, const cuseal_assignment* cs, size_t n);

// slot_map returns, for query q (PQ_A or PQ_B), the variable of each slot as
// a combined index (input i → i, aux j → n_input + j), from c's bitmaps.
std::vector<uint32_t> slot_map(const cuseal_assignment& c, int q);

// plan_batch classifies and compacts (after check_batch). split_mode is a
// CUSEAL_SPLIT_* value.
void plan_batch(const srs::srs& s, const cuseal_assignment* cs, size_t n, int split_mode, batch_plan& out);

} // namespace cuseal::g16
