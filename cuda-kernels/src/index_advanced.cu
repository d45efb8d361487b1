// jtc_index_advanced: x[i, j] with index tensors, get (other = self[indices]) and put (self[indices]
// = other), the per-item logic of index_items.cuh run one result element per thread. A put's
// repeated positions keep any one of their values, as PyTorch on CUDA.
#include "jt/no_throw.h"
#include "index_plans.cuh"
#include "index_grid.cuh"

namespace jt {
namespace cuda {
namespace {

// T void: the check walk, which writes nothing; get reports as it writes.
template <typename T, int K, bool PUT, bool REPORT>
__global__ void advanced_kernel(const __grid_constant__ AdvancedArgs<K> a, uint64_t* first_bad) {
  for (int64_t i = first_item(); i < a.n; i += item_step()) {
    const int j = advanced_item<T, K, PUT>(a, i);
    if (REPORT && j >= 0) note_bad(first_bad, advanced_bad_key(a, i, j));
  }
}

struct AdvancedGrid : FirstBadWord {
  template <int K>
  int check(const AdvancedArgs<K>& a) {
    advanced_kernel<void, K, true, true><<<blocks_for(a.n), kThreads, 0, current_stream()>>>(a, word());
    return launch_status();
  }
  template <typename T, bool PUT, int K>
  int write(const AdvancedArgs<K>& a) {
    advanced_kernel<T, K, PUT, !PUT><<<blocks_for(a.n), kThreads, 0, current_stream()>>>(a, word());
    return launch_status();
  }
};

}  // namespace
}  // namespace cuda
}  // namespace jt

static int index_advanced_unguarded(const int64_t* plan, int64_t* bad) {
  jt::cuda::AdvancedGrid grid;
  return jt::cuda::run_advanced(plan, bad, grid);
}
int jtc_index_advanced(const int64_t* plan, int64_t* bad) {
  return jt::guarded_status([&] { return index_advanced_unguarded(plan, bad); });
}
