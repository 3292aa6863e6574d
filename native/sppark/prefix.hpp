// SPDX-License-Identifier: Apache-2.0 OR MIT

// prefix.hpp: included first in every sppark_*.cu. Renames the non-inline
// functions that sppark's util/all_gpus.cpp defines (and its extern "C"
// exports) so that a binary which also links another copy of sppark (e.g.
// supraseal-c2's) gets no duplicate symbols; and sets sppark's build flags.
#pragma once

#ifndef FEATURE_BLS12_381
#define FEATURE_BLS12_381
#endif
#ifndef TAKE_RESPONSIBILITY_FOR_ERROR_MESSAGE
#define TAKE_RESPONSIBILITY_FOR_ERROR_MESSAGE
#endif

#define select_gpu cuseal_spk_select_gpu
#define gpu_props cuseal_spk_gpu_props
#define all_gpus cuseal_spk_all_gpus
#define ngpus cuseal_spk_ngpus
#define cuda_available cuseal_spk_cuda_available
#define drop_gpu_ptr_t cuseal_spk_drop_gpu_ptr_t
#define clone_gpu_ptr_t cuseal_spk_clone_gpu_ptr_t
#define drop_error_message cuseal_spk_drop_error_message
