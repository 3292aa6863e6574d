// SPDX-License-Identifier: Apache-2.0 OR MIT

/* empty.c: sole member of the empty libcuseal_cudart.a in CPU-only builds (see CMakeLists.txt). */
typedef int cuseal_empty_translation_unit;
