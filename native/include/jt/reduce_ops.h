// The reduce plan's op codes, shared by the CPU kernel (kernels/reduce.h, vectorized/reduce.cpp)
// and the CUDA one (cuda-kernels/src/reduce.cu).
#pragma once

namespace jt {

// Numbered here only: Java finds each by its name in kReduceNames (same order).
enum ReduceOp { kReduceSum, kReduceProd, kReduceAmax, kReduceAmin, kReduceAny, kReduceAll, kReduceArgmax, kReduceArgmin,
                kNumReduceOps };
inline constexpr const char* kReduceNames[kNumReduceOps] = {"sum", "prod", "amax", "amin", "any", "all", "argmax", "argmin"};

}  // namespace jt
