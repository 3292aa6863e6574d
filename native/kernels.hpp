// SPDX-License-Identifier: Apache-2.0 OR MIT

// kernels.hpp: which kernel set runs on a CUDA device.
//   sppark     sppark's MSM and NTT (native/sppark/, CUDA builds with
//              CUSEAL_SPPARK=ON): the production path;
//   reference  our own kernels (msm/ref_pippenger.cuh, ntt/ref_ntt.cuh): what the
//              host emulation (device CUSEAL_DEVICE_HOST) always runs, and what
//              GPU tests compare sppark against.
// CUSEAL_KERNELS selects: unset/"auto" = sppark when built in and the device
// is one sppark lists (compute capability >= 7.0 with cooperative launch),
// else reference; "sppark" = sppark or an error; "reference" = ours.
// An MSM with an explicit window_bits or chunk_points (our kernels' tuning
// knobs) runs on the reference kernels.
#pragma once

#include <string>

namespace cuseal {

enum class kernel_set { reference, sppark };

// kernels_for returns the set for CUDA device dev; throws cuseal::error
// (CUSEAL_ERR_INVALID_ARGUMENT) for a bad CUSEAL_KERNELS value or when
// "sppark" is requested but unavailable.
kernel_set kernels_for(int dev);

// kernels_info: one line for cuseal_version's build text, e.g.
// "kernels sppark-0.1.16" or "kernels reference (CUSEAL_KERNELS=reference; sppark-0.1.16 built in)".
std::string kernels_info();

} // namespace cuseal
