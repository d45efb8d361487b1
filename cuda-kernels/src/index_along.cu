// jtc_index_along: gather, scatter and accumulate (scatter_add, index_add_) along one dim, the
// per-item logic of index_items.cuh run one element per thread. Accumulate adds atomically, so
// repeated positions all add (floats in whatever order the threads meet); scatter's repeated
// positions keep any one of their values, as PyTorch on CUDA.
#include "jt/no_throw.h"
#include "index_plans.cuh"
#include "index_grid.cuh"

namespace jt {
namespace cuda {
namespace {

template <typename T, int MODE>
__global__ void along_kernel(const __grid_constant__ AlongArgs a, uint64_t* first_bad) {
  for (int64_t i = first_item(); i < a.n; i += item_step())
    if (!along_item<T, MODE>(a, i) && MODE == kGather) note_bad(first_bad, (uint64_t)i);
}

__global__ void along_check_kernel(const __grid_constant__ AlongArgs a, uint64_t* first_bad) {
  for (int64_t i = first_item(); i < a.nchecked; i += item_step())
    if (!along_index_ok(a, i)) note_bad(first_bad, (uint64_t)i);
}

struct AlongGrid : FirstBadWord {
  int check(const AlongArgs& a) {
    along_check_kernel<<<blocks_for(a.nchecked), kThreads, 0, current_stream()>>>(a, word());
    return launch_status();
  }
  template <typename T, int MODE>
  int write(const AlongArgs& a) {
    along_kernel<T, MODE><<<blocks_for(a.n), kThreads, 0, current_stream()>>>(a, word());
    return launch_status();
  }
};

}  // namespace
}  // namespace cuda
}  // namespace jt

static int index_along_unguarded(const int64_t* plan, int64_t* bad) {
  jt::cuda::AlongGrid grid;
  return jt::cuda::run_along(plan, bad, grid);
}
int jtc_index_along(const int64_t* plan, int64_t* bad) {
  return jt::guarded_status([&] { return index_along_unguarded(plan, bad); });
}
