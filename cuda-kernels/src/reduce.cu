// sum, prod, amax, amin, any, all over any dims (the reduce plan), with the CPU's accumulator and
// output types. Each output is folded by `splits` blocks: threads stride over the block's share of
// the reduced elements, then warps and the block combine; with more than one split per output the
// partials go to scratch from the CUDA allocator and a second launch combines them. The arg
// reductions are in arg_reduce.cu.
#include <algorithm>
#include <cstdint>
#include <cuda/std/limits>

#include "jt/no_throw.h"
#include "scratch.cuh"
#include "reduce_args.cuh"
#include "jt/functors.h"
#include "jt/plans.h"
#include "jt/reduce_ops.h"  // the op codes, kReduceNames' order
#include "runtime.cuh"

namespace jt {
namespace cuda {
namespace {


template <typename A> struct Sum {
  static __device__ A init() { return A(0); }
  static __device__ A combine(A a, A b) { return a + b; }
};
template <typename A> struct Prod {
  static __device__ A init() { return A(1); }
  static __device__ A combine(A a, A b) { return a * b; }
};
template <typename A> struct Max {
  static __device__ A init() {
    using L = ::cuda::std::numeric_limits<A>;
    return L::has_infinity ? -L::infinity() : L::lowest();
  }
  static __device__ A combine(A a, A b) {
    if constexpr (kFloat<A>) if (a != a || b != b) return a != a ? a : b;
    return a > b ? a : b;
  }
};
template <typename A> struct Min {
  static __device__ A init() {
    using L = ::cuda::std::numeric_limits<A>;
    return L::has_infinity ? L::infinity() : L::max();
  }
  static __device__ A combine(A a, A b) {
    if constexpr (kFloat<A>) if (a != a || b != b) return a != a ? a : b;
    return a < b ? a : b;
  }
};
struct Any {
  static __device__ bool init() { return false; }
  static __device__ bool combine(bool a, bool b) { return a || b; }
};
struct All {
  static __device__ bool init() { return true; }
  static __device__ bool combine(bool a, bool b) { return a && b; }
};


// Block (o, s) folds output o's reduced elements [s * chunk, (s + 1) * chunk).
template <typename Op, typename A>
__device__ A block_fold(A acc) {
  __shared__ __align__(8) unsigned char smem[32 * sizeof(A)];
  A* warp_acc = reinterpret_cast<A*>(smem);
  for (int d = 16; d > 0; d /= 2) acc = Op::combine(acc, __shfl_down_sync(0xffffffffu, acc, d));
  if (threadIdx.x % 32 == 0) warp_acc[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    acc = threadIdx.x < blockDim.x / 32 ? warp_acc[threadIdx.x] : Op::init();
    for (int d = 16; d > 0; d /= 2) acc = Op::combine(acc, __shfl_down_sync(0xffffffffu, acc, d));
  }
  return acc;
}

template <typename A, typename O>
__device__ O finish(A a, double divisor) {
  if constexpr (kFloat<A>) return (O)(divisor == 1.0 ? a : (A)(a / (A)divisor));  // mean: sum / count, as PyTorch
  else return (O)a;
}

// A dense run of n reduced elements (a contiguous row, or a split of one): 16-byte packs, kInFlight
// of them loaded by each thread before any is folded, so that enough bytes are in flight to reach
// the memory's bandwidth (one 4-byte load a thread at a time left a 256M-element sum at 0.68 of
// PyTorch's on an H200). The head before the first 16-byte boundary and the tail are scalar.
template <typename T>
struct alignas(16) ReducePack {
  static constexpr int kSize = 16 / sizeof(T);
  T v[kSize];
};
constexpr int kInFlight = 4;

template <typename Op, typename T, typename A>
__device__ A fold_dense(const T* p, int64_t n) {
  using P = ReducePack<T>;
  A acc = Op::init();
  const int64_t misaligned = (int64_t)(reinterpret_cast<uintptr_t>(p) % 16) / (int64_t)sizeof(T);
  const int64_t head = misaligned ? min(n, (int64_t)P::kSize - misaligned) : 0;
  if (threadIdx.x < head) acc = Op::combine(acc, (A)load_elem(p + threadIdx.x));
  p += head;
  n -= head;
  const int64_t packs = n / P::kSize, step = blockDim.x;
  const P* pk = reinterpret_cast<const P*>(p);
  A part[kInFlight];
  for (int j = 0; j < kInFlight; ++j) part[j] = Op::init();
  int64_t i = threadIdx.x;
  for (; i + (kInFlight - 1) * step < packs; i += kInFlight * step) {
    P q[kInFlight];
    for (int j = 0; j < kInFlight; ++j) q[j] = pk[i + j * step];
    for (int j = 0; j < kInFlight; ++j)
      for (int k = 0; k < P::kSize; ++k) part[j] = Op::combine(part[j], (A)load_elem(&q[j].v[k]));
  }
  for (; i < packs; i += step) {
    const P q = pk[i];
    for (int k = 0; k < P::kSize; ++k) part[0] = Op::combine(part[0], (A)load_elem(&q.v[k]));
  }
  for (int64_t r = packs * P::kSize + threadIdx.x; r < n; r += step) acc = Op::combine(acc, (A)load_elem(p + r));
  for (int j = 0; j < kInFlight; ++j) acc = Op::combine(acc, part[j]);
  return acc;
}

template <typename Op, typename T, typename O, typename A>
__global__ void reduce_kernel(const __grid_constant__ RedArgs a, A* partial) {
  const int64_t o = blockIdx.x / a.splits, s = blockIdx.x % a.splits;
  int64_t koff[3];
  a.kept.offsets(o, koff);
  const int64_t begin = s * a.chunk, end = min(a.nred, begin + a.chunk);
  A acc = Op::init();
  if (a.reduced.ndim == 1 && a.reduced.stride[0][0] == (int64_t)sizeof(T)) {
    acc = fold_dense<Op, T, A>(at<T>(a.in, koff[1]) + begin, max(end - begin, (int64_t)0));
  } else if (a.reduced.ndim <= 1) {  // one reduced dim (or none): its offsets need no division
    const int64_t stride = a.reduced.ndim ? a.reduced.stride[0][0] : 0;
    for (int64_t r = begin + threadIdx.x; r < end; r += blockDim.x)
      acc = Op::combine(acc, (A)load_elem(at<T>(a.in, koff[1] + r * stride)));
  } else {
    for (int64_t r = begin + threadIdx.x; r < end; r += blockDim.x) {
      int64_t roff;
      a.reduced.offsets(r, &roff);
      acc = Op::combine(acc, (A)load_elem(at<T>(a.in, koff[1] + roff)));
    }
  }
  acc = block_fold<Op, A>(acc);
  if (threadIdx.x != 0) return;
  if (a.splits == 1) *at<O>(a.out, koff[0]) = finish<A, O>(acc, a.divisor);
  else partial[blockIdx.x] = acc;
}

// Column mode: a thread per output, where the outputs' elements lie side by side in memory and the
// reduced ones do not (a sum over dim 0): a warp's loads are then one contiguous run per reduced
// element. blockIdx.y picks the split of the reduced elements.
template <typename Op, typename T, typename O, typename A>
__global__ void reduce_columns_kernel(const __grid_constant__ RedArgs a, A* partial) {
  const int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (o >= a.nout) return;
  const int64_t s = blockIdx.y;
  int64_t koff[3];
  a.kept.offsets(o, koff);
  const int64_t begin = s * a.chunk, end = min(a.nred, begin + a.chunk);
  A acc = Op::init();
  if (a.reduced.ndim == 1) {
    const int64_t stride = a.reduced.stride[0][0];
    for (int64_t r = begin; r < end; ++r) acc = Op::combine(acc, (A)load_elem(at<T>(a.in, koff[1] + r * stride)));
  } else {
    for (int64_t r = begin; r < end; ++r) {
      int64_t roff;
      a.reduced.offsets(r, &roff);
      acc = Op::combine(acc, (A)load_elem(at<T>(a.in, koff[1] + roff)));
    }
  }
  if (a.splits == 1) *at<O>(a.out, koff[0]) = finish<A, O>(acc, a.divisor);
  else partial[o * a.splits + s] = acc;
}

// A block per output folds its splits' partials (row mode, where there are few outputs and many
// splits: one thread adding 2112 partials in turn took a quarter of a 256M-element sum's time).
template <typename Op, typename O, typename A>
__global__ void combine_block_kernel(const __grid_constant__ RedArgs a, const A* partial) {
  const int64_t o = blockIdx.x;
  A acc = Op::init();
  for (int s = threadIdx.x; s < a.splits; s += blockDim.x) acc = Op::combine(acc, partial[o * a.splits + s]);
  acc = block_fold<Op, A>(acc);
  if (threadIdx.x != 0) return;
  int64_t koff[3];
  a.kept.offsets(o, koff);
  *at<O>(a.out, koff[0]) = finish<A, O>(acc, a.divisor);
}

template <typename Op, typename O, typename A>
__global__ void combine_kernel(const __grid_constant__ RedArgs a, const A* partial) {
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < a.nout; o += (int64_t)gridDim.x * blockDim.x) {
    A acc = Op::init();
    for (int s = 0; s < a.splits; ++s) acc = Op::combine(acc, partial[o * a.splits + s]);
    int64_t koff[3];
    a.kept.offsets(o, koff);
    *at<O>(a.out, koff[0]) = finish<A, O>(acc, a.divisor);
  }
}

template <typename Op, typename T, typename O, typename A>
int launch(RedArgs& a) {
  A* partial = nullptr;
  Scratch scratch;
  if (a.splits > 1) {
    if (!scratch.allocate(sizeof(A) * (size_t)(a.nout * a.splits))) return JT_OUT_OF_MEMORY;
    partial = scratch.data<A>();
  }
  cudaStream_t s = current_stream();
  if (a.columns) reduce_columns_kernel<Op, T, O, A><<<dim3(blocks_of(a.nout), (unsigned)a.splits), kThreads, 0, s>>>(a, partial);
  else reduce_kernel<Op, T, O, A><<<(unsigned)(a.nout * a.splits), kThreads, 0, s>>>(a, partial);
  int st = launch_status();
  if (st == JT_OK && a.splits > 1) {
    if (a.columns) combine_kernel<Op, O, A><<<blocks_for(a.nout), kThreads, 0, s>>>(a, partial);
    else combine_block_kernel<Op, O, A><<<(unsigned)a.nout, kThreads, 0, s>>>(a, partial);
    st = launch_status();
  }
  return st;
}

template <typename T>
int dispatch_op(int op, RedArgs& a) {
  using Acc = opmath_t<T>;
  constexpr bool integral = std::is_integral<T>::value;
  using SumAcc = std::conditional_t<integral, int64_t, Acc>;  // as the CPU's RedTypes
  using SumOut = std::conditional_t<integral, int64_t, T>;
  switch (op) {
    case kReduceSum: return launch<Sum<SumAcc>, T, SumOut, SumAcc>(a);
    case kReduceProd: return launch<Prod<SumAcc>, T, SumOut, SumAcc>(a);
    case kReduceAmax: return launch<Max<Acc>, T, T, Acc>(a);
    case kReduceAmin: return launch<Min<Acc>, T, T, Acc>(a);
    case kReduceAny: return launch<Any, T, bool, bool>(a);
    case kReduceAll: return launch<All, T, bool, bool>(a);
  }
  return JT_NO_KERNEL;
}

// Column mode pays when the input is dense along the outputs' innermost dim but not along the
// reduced elements' innermost dim, with enough outputs to fill a few warps.
bool columns_pay(const RedArgs& a) {
  const int64_t in_elem = a.in_elem;
  if (a.kept.ndim == 0 || a.reduced.ndim == 0 || a.nout < 64) return false;
  return a.kept.stride[1][a.kept.ndim - 1] == in_elem && a.reduced.stride[0][a.reduced.ndim - 1] != in_elem;
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

// The caller (Java) checked the op's output dtype against jt_reduce_out_dtype, the CPU's table,
// which these kernels follow.
static int reduce_unguarded(const int64_t* words) {
  reduce_plan r(words);
  RedArgs a;
  int st = prepare_reduce(r, a);
  if (st != JT_OK || a.nout == 0) return st;
  if (r.op == kReduceArgmax || r.op == kReduceArgmin) return arg_reduce_run(r.op == kReduceArgmax, (DType)r.dtype, a);
  if (r.op < kReduceSum || r.op > kReduceAll) return JT_NO_KERNEL;
  // Enough blocks to fill the device: split the reduced elements of few outputs (or few columns of
  // outputs) across blocks, each split keeping thousands of elements (columns: a thread's hundreds).
  const int64_t want = (int64_t)blocks_for(INT64_MAX / 2);
  // Past INT32_MAX outputs a block each would exceed gridDim.x: a thread per output (any layout) instead.
  a.columns = columns_pay(a) || a.nout > INT32_MAX;
  const int64_t units = a.columns ? (int64_t)blocks_of(a.nout) : a.nout, per = units >= want ? 1 : (want + units - 1) / units;
  a.splits = (int)std::max<int64_t>(1, std::min<int64_t>({per, (a.nred + (a.columns ? 255 : 4095)) / (a.columns ? 256 : 4096),
                                                          a.columns ? 65535 : INT32_MAX}));
  a.chunk = (a.nred + a.splits - 1) / a.splits;
  if (!a.columns && a.nout * a.splits > INT32_MAX) return JT_INVALID;  // column mode's grid is 2-D
  st = JT_NO_KERNEL;
  dispatch_dtype((DType)r.dtype, [&](auto tag) { st = dispatch_op<typename decltype(tag)::type>((int)r.op, a); });
  return st;
}
int jtc_reduce(const int64_t* words) { return jt::guarded_status([&] { return reduce_unguarded(words); }); }
