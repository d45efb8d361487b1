// sort along one dim (the sort plan): stable, NaN largest, as the CPU. The element-wise steps are
// in sort_logic.cuh; here they are launched over every element of every line at once, in scratch
// from the CUDA allocator (keys and positions, twice, for the passes' ping-pong).
#include "jt/no_throw.h"
#include "runtime.cuh"
#include "scratch.cuh"
#include "sort_logic.cuh"

namespace jt {
namespace cuda {
namespace {

template <typename T>
__global__ void gather_kernel(const __grid_constant__ SortArgs a, T* keys, int64_t* pos) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < a.n; e += step) sort_gather<T>(a, e, keys, pos);
}

template <typename T>
__global__ void merge_kernel(int64_t n, int64_t len, int64_t w, bool descending, const T* keys, const int64_t* pos,
                             T* keys_out, int64_t* pos_out) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < n; e += step)
    sort_merge_step<T>(len, w, descending, e, keys, pos, keys_out, pos_out);
}

template <typename T>
__global__ void scatter_kernel(const __grid_constant__ SortArgs a, const T* keys, const int64_t* pos) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < a.n; e += step) sort_scatter<T>(a, e, keys, pos);
}

template <typename T>
int run(const SortArgs& a) {
  const size_t bytes = (size_t)a.n * (sizeof(T) + 8);
  Scratch scratch[2];
  for (Scratch& s : scratch)
    if (!s.allocate(bytes)) return JT_OUT_OF_MEMORY;
  T* keys[2];
  int64_t* pos[2];
  for (int b = 0; b < 2; ++b) {  // positions first: 8-byte aligned whatever T is
    pos[b] = scratch[b].data<int64_t>();
    keys[b] = reinterpret_cast<T*>(pos[b] + a.n);
  }
  cudaStream_t s = current_stream();
  const unsigned blocks = blocks_for(a.n);
  gather_kernel<T><<<blocks, kThreads, 0, s>>>(a, keys[0], pos[0]);
  int cur = 0;
  for (int64_t w = 1; w < a.lines.len; w *= 2, cur ^= 1)
    merge_kernel<T><<<blocks, kThreads, 0, s>>>(a.n, a.lines.len, w, a.descending, keys[cur], pos[cur], keys[cur ^ 1], pos[cur ^ 1]);
  scatter_kernel<T><<<blocks, kThreads, 0, s>>>(a, keys[cur], pos[cur]);
  return launch_status();
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

static int sort_unguarded(const int64_t* words) {
  sort_plan r(words);
  SortArgs a;
  if (!prepare_sort(r, a)) return JT_INVALID;
  if (a.n == 0) return JT_OK;
  int st = JT_NO_KERNEL;
  dispatch_dtype((DType)r.dtype, [&](auto tag) { st = run<typename decltype(tag)::type>(a); });
  return st;
}
int jtc_sort(const int64_t* words) { return jt::guarded_status([&] { return sort_unguarded(words); }); }
