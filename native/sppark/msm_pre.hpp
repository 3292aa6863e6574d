// SPDX-License-Identifier: Apache-2.0 OR MIT

// msm_pre.hpp: the headers sppark's msm/*.cuh depend on, included before
// sppark_msm_g{1,2}.cu define `sort` to a per-file name around
// <msm/pippenger.cuh>. sppark's sort kernel (msm/sort.cuh) is a plain
// __global__ function, so two translation units that include it (our G1 and
// G2 MSMs, or another sppark user in the same binary) would define the same
// symbol twice; everything else there is a template. Including these first
// keeps the rename away from the standard library's and CUDA's own `sort`s.
#pragma once

#include <algorithm>
#include <atomic>
#include <cassert>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <iostream>
#include <list>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <cooperative_groups.h>
#include <cuda.h>

#include <util/exception.cuh>
#include <util/gpu_t.cuh>
#include <util/rusterror.h>
#include <util/slice_t.hpp>
#include <util/vec2d_t.hpp>
