// cumsum/cumprod (and, a thread per line, cummax, cummin and logcumsumexp) along one dim (the scan plan), with the CPU's accumulator and output types
// (jt/scan_types.h). Many short lines: a thread per line (scan_logic.cuh), which reads
// coalesced when the dim is not the innermost. Few long lines: a block per line, scanning tiles of
// blockDim elements with warp shuffles and carrying each tile's total into the next.
#include "jt/no_throw.h"
#include "jt/jt.h"
#include "runtime.cuh"
#include "scan_logic.cuh"

namespace jt {
namespace cuda {
namespace {

template <typename T, bool Prod>
__global__ void scan_thread_per_line(const __grid_constant__ ScanArgs a) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t l = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; l < a.lines.count; l += step) scan_line<T, Prod>(a, l);
}

template <typename T, bool Prod>
__global__ void scan_block_per_line(const __grid_constant__ ScanArgs a) {
  using A = typename ScanTypes<T>::A;
  using O = typename ScanTypes<T>::O;
  __shared__ A warp_total[kThreads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  for (int64_t l = blockIdx.x; l < a.lines.count; l += gridDim.x) {
    int64_t off[2];
    a.lines.start(l, off);
    A carry = Prod ? A(1) : A(0);
    for (int64_t base = 0; base < a.lines.len; base += blockDim.x) {
      const int64_t i = base + threadIdx.x;
      A v = Prod ? A(1) : A(0);
      if (i < a.lines.len) v = (A)load_elem(reinterpret_cast<const T*>(a.in + off[1] + i * a.lines.step[1]));
      for (int d = 1; d < 32; d *= 2) {  // inclusive scan within the warp
        const A y = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v = scan_combine<A, Prod>(y, v);
      }
      if (lane == 31) warp_total[warp] = v;
      __syncthreads();
      if (warp == 0) {  // the warps' totals, scanned by the first warp
        A t = lane < warps ? warp_total[lane] : (Prod ? A(1) : A(0));
        for (int d = 1; d < 32; d *= 2) {
          const A y = __shfl_up_sync(0xffffffffu, t, d);
          if (lane >= d) t = scan_combine<A, Prod>(y, t);
        }
        if (lane < warps) warp_total[lane] = t;
      }
      __syncthreads();
      if (warp > 0) v = scan_combine<A, Prod>(warp_total[warp - 1], v);
      v = scan_combine<A, Prod>(carry, v);
      if (i < a.lines.len) *reinterpret_cast<O*>(a.out + off[0] + i * a.lines.step[0]) = (O)v;
      carry = scan_combine<A, Prod>(carry, warp_total[warps - 1]);
      __syncthreads();  // warp_total is rewritten by the next tile
    }
  }
}

template <typename T>
__global__ void ordered_scan_thread_per_line(const __grid_constant__ OrderedScanArgs a) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t l = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; l < a.lines.count; l += step) ordered_scan_line<T>(a, l);
}

template <typename T, bool Prod>
int launch(const ScanArgs& a) {
  // A block per line pays off once lines are long and too few to fill the device a thread each.
  if (a.lines.len >= 1024 && a.lines.count < 16384) {
    const unsigned blocks = (unsigned)(a.lines.count < 65535 ? a.lines.count : 65535);
    scan_block_per_line<T, Prod><<<blocks, kThreads, 0, current_stream()>>>(a);
  } else {
    scan_thread_per_line<T, Prod><<<blocks_for(a.lines.count), kThreads, 0, current_stream()>>>(a);
  }
  return launch_status();
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

static int scan_unguarded(const int64_t* words) {
  scan_plan r(words);
  if (!r.current()) return JT_INVALID;
  // the CPU's table through its exported C entry: libjtensor.so hides its C++ symbols
  const int out = jt_scan_out_dtype((int)r.op, (int)r.dtype);
  if (out < 0) return JT_NO_KERNEL;
  if (r.op >= 2) {  // cummax, cummin, logcumsumexp: a thread per line
    OrderedScanArgs a;
    if (r.out_dtype != out || !prepare_ordered_scan(r, a)) return JT_INVALID;
    if (a.lines.count == 0 || a.lines.len == 0) return JT_OK;
    dispatch_dtype((DType)r.dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      ordered_scan_thread_per_line<T><<<blocks_for(a.lines.count), kThreads, 0, current_stream()>>>(a);
    });
    return launch_status();
  }
  ScanArgs a;
  if (r.out_dtype != out || !prepare_scan(r, a)) return JT_INVALID;
  if (a.lines.count == 0 || a.lines.len == 0) return JT_OK;
  int st = JT_NO_KERNEL;
  dispatch_dtype((DType)r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    st = a.prod ? launch<T, true>(a) : launch<T, false>(a);
  });
  return st;
}
int jtc_scan(const int64_t* words) { return jt::guarded_status([&] { return scan_unguarded(words); }); }
