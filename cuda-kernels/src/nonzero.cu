// nonzero and its count (the nonzero plan): the chunked scheme of jt/nonzero_chunks.h, a
// thread per chunk of at least 1024 elements, at most 65536 chunks (their counts cross to the host,
// which needs the total to size the output, as PyTorch's nonzero does).
#include <vector>

#include "jt/no_throw.h"
#include "jt/nonzero_chunks.h"
#include "runtime.cuh"
#include "scratch.cuh"

namespace jt {
namespace cuda {
namespace {

template <typename T>
__global__ void count_kernel(const __grid_constant__ NonzeroArgs a, int64_t* counts) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t c = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; c < a.chunks; c += step) counts[c] = nonzero_chunk_count<T>(a, c);
}

template <typename T>
__global__ void write_kernel(const __grid_constant__ NonzeroArgs a, const int64_t* starts) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t c = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; c < a.chunks; c += step) nonzero_chunk_write<T>(a, c, starts[c]);
}

template <typename T>
int run(const NonzeroArgs& a, int64_t* found) {
  Scratch scratch((size_t)a.chunks * 8);
  if (!scratch) return JT_OUT_OF_MEMORY;
  int64_t* counts = scratch.data<int64_t>();
  std::vector<int64_t> host((size_t)a.chunks);
  count_kernel<T><<<blocks_for(a.chunks), kThreads, 0, current_stream()>>>(a, counts);
  int st = launch_status();
  if (st == JT_OK) st = copy_sync(host.data(), counts, a.chunks * 8, cudaMemcpyDeviceToHost);
  int64_t total = 0;
  for (int64_t& k : host) {  // each chunk's count becomes its first row
    const int64_t count = k;
    k = total;
    total += count;
  }
  if (st == JT_OK && a.out) {
    st = copy_sync(counts, host.data(), a.chunks * 8, cudaMemcpyHostToDevice);
    if (st == JT_OK) {
      write_kernel<T><<<blocks_for(a.chunks), kThreads, 0, current_stream()>>>(a, counts);
      st = launch_status();
    }
  }
  *found = total;
  return st;
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

static int nonzero_unguarded(const int64_t* words, int64_t* found) {
  nonzero_plan r(words);
  NonzeroArgs a;
  if (!prepare_nonzero(r, 1024, 65536, a)) return JT_INVALID;
  *found = 0;
  if (a.n == 0) return JT_OK;
  int st = JT_NO_KERNEL;
  dispatch_dtype(a.dtype, [&](auto tag) { st = run<typename decltype(tag)::type>(a, found); });
  return st;
}
int jtc_nonzero(const int64_t* words, int64_t* found) {
  return jt::guarded_status([&] { return nonzero_unguarded(words, found); });
}
