// searchsorted (the search plan): a thread per value running jt/search.h's binary search, the
// CPU kernel's own code. Java has checked the sorter's entries on its private copy.
#include <type_traits>

#include "jt/jt.h"
#include "jt/no_throw.h"
#include "jt/search.h"
#include "runtime.cuh"

namespace jt {
namespace cuda {
namespace {

template <typename T>
__global__ void search_kernel(const __grid_constant__ search_plan p) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < p.n; i += step) search_store<T>(p, i);
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

static int search_unguarded(const int64_t* words) {
  search_plan r(words);
  if (!search_plan_valid(r)) return JT_INVALID;
  if ((DType)r.dtype == DType::Bool) return JT_NO_KERNEL;  // as the CPU: PyTorch has no bool searchsorted
  if (r.n == 0) return JT_OK;
  dispatch_dtype((DType)r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same<T, bool>::value) search_kernel<T><<<blocks_for(r.n), kThreads, 0, current_stream()>>>(r);
  });
  return launch_status();
}
int jtc_search(const int64_t* words) { return jt::guarded_status([&] { return search_unguarded(words); }); }
