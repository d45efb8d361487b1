// softmax/log_softmax along one dim (the softmax plan), with the CPU kernel's accumulator types and
// NaN rules (jt/softmax_math.h). Lines along the innermost dim, or too few lines to fill the
// device a thread each: a warp per line (short lines) or a block per line (long ones), each thread
// folding a strided share of the line (16-byte packs where aligned) into a running max and sum in
// one read, the shares merged by warp shuffles (and shared memory across warps), then the outputs
// written from registers (lines up to 8 packs a thread: 16384 float32 in a block of 512) or from
// a second read (the line still in L1/L2). Many lines along another dim: a thread per
// line (softmax_logic.cuh).
#include "jt/no_throw.h"
#include "jt/jt.h"
#include "runtime.cuh"
#include "softmax_logic.cuh"

namespace jt {
namespace cuda {
namespace {

constexpr int kBlockThreads = 512;

// Every lane of the warp ends with the merge of all lanes' (max, sum).
template <typename A>
__device__ OnlineSoftmax<A> warp_merge(OnlineSoftmax<A> acc) {
  for (int d = 16; d > 0; d /= 2) {
    const A m = __shfl_xor_sync(0xffffffffu, acc.max, d), s = __shfl_xor_sync(0xffffffffu, acc.sum, d);
    acc.merge(m, s);
  }
  return acc;
}

template <typename T, bool Log>
__global__ void softmax_thread_per_line(const __grid_constant__ SoftmaxArgs a) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t l = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; l < a.lines.count; l += step) softmax_line<T, Log>(a, l);
}

template <typename T, bool Log>
__global__ void softmax_warp_per_line(const __grid_constant__ SoftmaxArgs a) {
  const int lane = threadIdx.x % 32;
  const int64_t warps = (int64_t)gridDim.x * (blockDim.x / 32);
  for (int64_t l = blockIdx.x * (int64_t)(blockDim.x / 32) + threadIdx.x / 32; l < a.lines.count; l += warps) {
    int64_t off[2];
    a.lines.start(l, off);
    const bool packed = softmax_packed<T>(a, off), cached = softmax_cacheable<T>(a, packed, 32);
    SoftmaxPack<T> cache[kCachedPacks];
    const auto acc = warp_merge(cached ? softmax_share_cached<T>(a, off, lane, 32, cache)
                                       : softmax_group_share<T>(a, off, packed, lane, 32));
    if (cached) softmax_write_cached<T, Log>(a, off, lane, 32, cache, acc.max, acc.finished_sum());
    else softmax_group_write<T, Log>(a, off, packed, lane, 32, acc.max, acc.finished_sum());
  }
}

// Two blocks a SM at least (registers capped at 64): one block's loads overlap the other's barrier.
template <typename T, bool Log>
__global__ void __launch_bounds__(kBlockThreads, 2) softmax_block_per_line(const __grid_constant__ SoftmaxArgs a) {
  using A = opmath_t<T>;
  __shared__ A wmax[kBlockThreads / 32], wsum[kBlockThreads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  for (int64_t l = blockIdx.x; l < a.lines.count; l += gridDim.x) {
    int64_t off[2];
    a.lines.start(l, off);
    const bool packed = softmax_packed<T>(a, off), cached = softmax_cacheable<T>(a, packed, blockDim.x);
    SoftmaxPack<T> cache[kCachedPacks];
    auto acc = warp_merge(cached ? softmax_share_cached<T>(a, off, threadIdx.x, blockDim.x, cache)
                                 : softmax_group_share<T>(a, off, packed, threadIdx.x, blockDim.x));
    if (lane == 0) {
      wmax[warp] = acc.max;
      wsum[warp] = acc.sum;
    }
    __syncthreads();
    OnlineSoftmax<A> all;
    if (lane < warps) all.merge(wmax[lane], wsum[lane]);
    all = warp_merge(all);  // every warp merges the warps' shares: no second barrier to broadcast
    if (cached) softmax_write_cached<T, Log>(a, off, threadIdx.x, blockDim.x, cache, all.max, all.finished_sum());
    else softmax_group_write<T, Log>(a, off, packed, threadIdx.x, blockDim.x, all.max, all.finished_sum());
    __syncthreads();  // wmax/wsum are rewritten for the next line
  }
}

template <typename T, bool Log>
int launch(const SoftmaxArgs& a) {
  const bool innermost = a.lines.step[1] == (int64_t)sizeof(T);
  const int64_t grid_cap = 0x7fffffff;
  if (!innermost && a.lines.count >= 4096) {
    softmax_thread_per_line<T, Log><<<blocks_for(a.lines.count), kThreads, 0, current_stream()>>>(a);
  } else if (a.lines.len <= 1024) {
    const int64_t per_block = kThreads / 32, blocks = (a.lines.count + per_block - 1) / per_block;
    softmax_warp_per_line<T, Log><<<(unsigned)(blocks < grid_cap ? blocks : grid_cap), kThreads, 0, current_stream()>>>(a);
  } else {
    softmax_block_per_line<T, Log>
        <<<(unsigned)(a.lines.count < grid_cap ? a.lines.count : grid_cap), kBlockThreads, 0, current_stream()>>>(a);
  }
  return launch_status();
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

static int softmax_unguarded(const int64_t* words) {
  softmax_plan r(words);
  SoftmaxArgs a;
  if (!prepare_softmax(r, a)) return JT_INVALID;
  int st = JT_NO_KERNEL;
  dispatch_dtype((DType)r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_floating<T>::value) {
      if (a.lines.count == 0 || a.lines.len == 0) st = JT_OK;
      else st = a.log ? launch<T, true>(a) : launch<T, false>(a);
    }
  });
  return st;
}
int jtc_softmax(const int64_t* words) { return jt::guarded_status([&] { return softmax_unguarded(words); }); }
