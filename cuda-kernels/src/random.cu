// jtc_random: the CPU's random draws (jt_random) on the device, bit for bit: a grid-stride loop of
// threads each drawing one Philox block (random_block.h). bernoulli_tensor first finds the first
// probability outside [0, 1] in row-major order (an atomicMin of linear indices into scratch from
// the CUDA allocator) and draws only when there is none.
#include <cstring>

#include "jt/no_throw.h"
#include "scratch.cuh"
#include "jt/plans.h"
#include "random_block.h"
#include "runtime.cuh"

namespace jt {
namespace cuda {
namespace {

template <typename T>
__global__ void random_kernel(const __grid_constant__ RandomArgs a) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; b < a.blocks; b += step) random_block<T>(a, b);
}

__global__ void check_kernel(const __grid_constant__ RandomArgs a, unsigned long long* first) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < a.n; e += step) {
    const int64_t bad = random_bad_index(a, e);
    if (bad >= 0) atomicMin(first, (unsigned long long)bad);
  }
}

// JT_OK with *found the first bad element's linear index, or a.n when every p is in [0, 1].
int first_bad(const RandomArgs& a, int64_t* found) {
  Scratch scratch(sizeof(unsigned long long));
  if (!scratch) return JT_OUT_OF_MEMORY;
  unsigned long long* first = scratch.data<unsigned long long>();
  cudaStream_t s = current_stream();
  int st = status_of(cudaMemsetAsync(first, 0xff, sizeof *first, s));  // UINT64_MAX: none yet
  if (st == JT_OK) {
    check_kernel<<<blocks_for(a.n), kThreads, 0, s>>>(a, first);
    st = launch_status();
  }
  unsigned long long host = ~0ull;
  if (st == JT_OK) st = copy_sync(&host, first, sizeof host, cudaMemcpyDeviceToHost);
  *found = host < (unsigned long long)a.n ? (int64_t)host : a.n;
  return st;
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

static int random_unguarded(const int64_t* words, double* bad) {
  random_plan r(words);
  if (!r.current() || !valid_dtype((int)r.dtype)) return JT_INVALID;
  const DType t = (DType)r.dtype;
  RandomArgs a;
  if (!random_prepare(r, (int64_t)dtype_size(t), a)) return JT_INVALID;
  if (a.n == 0) return JT_OK;
  if (a.draw.kind == RandomKind::BernoulliTensor) {  // checked before any byte is written
    int64_t e = 0;
    int st = first_bad(a, &e);
    if (st != JT_OK) return st;
    if (e < a.n) {
      int64_t off[2];
      a.g.offsets(e, off);
      st = copy_sync(bad, a.p + off[1], sizeof *bad, cudaMemcpyDeviceToHost);
      return st == JT_OK ? JT_VALUE_OUT_OF_RANGE : st;
    }
  }
  dispatch_dtype(t, [&](auto tag) {
    random_kernel<typename decltype(tag)::type><<<blocks_for(a.blocks), kThreads, 0, current_stream()>>>(a);
  });
  return launch_status();
}
int jtc_random(const int64_t* words, double* bad) {
  return jt::guarded_status([&] { return random_unguarded(words, bad); });
}
