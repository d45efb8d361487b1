// nonzero on the CPU: the coordinates of a strided tensor's non-zero elements, row-major, by the
// chunked scheme CUDA shares (jt/nonzero_chunks.h).
#pragma once
#include <cstdint>

#include "jt/nonzero_chunks.h"

namespace jt {

// Chunks for the CPU's threads: at least kGrainSize elements each, at most this many.
constexpr int64_t kNonzeroMaxChunks = 256;

// How many non-zero elements a has; with a.out set, also writes the coordinates of the first
// a.rows of them ([rows, ndim] int64; the count differs from rows if the source changed since it
// was counted).
int64_t nonzero_run(const NonzeroArgs& a);

}  // namespace jt
