// The advanced-indexing plan's limit on index tensors, checked by the C API and by both devices'
// kernels (kernels/index_advanced.h, cuda-kernels/src/index_plans.cuh).
#pragma once

namespace jt {

constexpr int kMaxAdvancedIndices = 64;

}  // namespace jt
