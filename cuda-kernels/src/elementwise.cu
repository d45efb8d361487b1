// Elementwise kernels from the CPU's JT_HOST_DEVICE functors (jt/functors.h), in one table of the
// CPU table's order (Java checks the names match at load), so the plan's op id means the same op.
#include <cstring>
#include <type_traits>

#include "jt/no_throw.h"
#include "elementwise_args.cuh"
#include "runtime.cuh"
#include "scratch.cuh"
#include "transposed_rows.cuh"

namespace jt {
namespace cuda {
namespace {

template <typename F, typename T>
using out_t = std::conditional_t<F::predicate, bool, T>;

// x[1..N-1] are the inputs in opmath.
template <typename F, int N> struct Apply;
template <typename F> struct Apply<F, 2> {
  template <typename A> static __device__ auto run(const A* x, const Params& p) { return F::apply(x[1], p); }
};
template <typename F> struct Apply<F, 3> {
  template <typename A> static __device__ auto run(const A* x, const Params& p) { return F::apply(x[1], x[2], p); }
};
template <typename F> struct Apply<F, 4> {
  template <typename A> static __device__ auto run(const A* x, const Params& p) { return F::apply(x[1], x[2], x[3], p); }
};

// Elements per vector load: 16 bytes of float32 or wider; 4 elements of narrower types (8 or 4
// bytes), which keeps each kernel's unrolled body, and the library, small.
template <typename T>
constexpr int kVec = sizeof(T) >= 4 ? 16 / (int)sizeof(T) : 4;

// Note [Kernel arguments by address]
// The arguments are __grid_constant__: a host scalar is read through a pointer into them, which
// would otherwise make every thread copy the whole struct (about 1 KB) to local memory first.

template <typename T, int V>
struct alignas(sizeof(T) * V) Pack {
  T v[V];
};

template <typename F, typename T, int N>
__global__ void ew_kernel(const __grid_constant__ EwArgs<N> a) {
  using O = out_t<F, T>;
  using A = opmath_t<T>;
  constexpr int V = kVec<T>;
  A x[N];
  for (int k = 1; k < N; ++k)
    if (a.once[k]) x[k] = a.ptr[k] ? (A)load_elem(at<T>(a.ptr[k], 0)) : load_elem(reinterpret_cast<const A*>(&a.slot[k]));
  const int64_t first = blockIdx.x * (int64_t)blockDim.x + threadIdx.x, step = (int64_t)gridDim.x * blockDim.x;
  int64_t i = first;
  if (a.mode == kVector) {
    const int64_t packs = a.n / V;
    for (; i < packs; i += step) {
      Pack<T, V> in[N];
      for (int k = 1; k < N; ++k)
        if (!a.once[k]) in[k] = reinterpret_cast<const Pack<T, V>*>(a.ptr[k])[i];
      Pack<O, V> out;
#pragma unroll
      for (int j = 0; j < V; ++j) {
        A y[N];
        for (int k = 1; k < N; ++k) y[k] = a.once[k] ? x[k] : (A)load_elem(&in[k].v[j]);
        out.v[j] = (O)Apply<F, N>::run(y, a.params);
      }
      reinterpret_cast<Pack<O, V>*>(a.ptr[0])[i] = out;
    }
    i = packs * V + first;  // the tail
  }
  // The dense and strided loops stay rolled: their unrolled copies would multiply each kernel's
  // code (4 architectures x ~500 kernels), and the vector loop above carries the dense case's speed.
  if (a.mode != kStrided) {
#pragma unroll 1
    for (; i < a.n; i += step) {
      for (int k = 1; k < N; ++k)
        if (!a.once[k]) x[k] = (A)load_elem(reinterpret_cast<const T*>(a.ptr[k]) + i);
      reinterpret_cast<O*>(a.ptr[0])[i] = (O)Apply<F, N>::run(x, a.params);
    }
    return;
  }
#pragma unroll 1
  for (; i < a.n; i += step) {
    int64_t off[N];
    a.g.offsets(i, off);
    for (int k = 1; k < N; ++k)
      if (!a.once[k]) x[k] = (A)load_elem(at<T>(a.ptr[k], off[k]));
    *at<O>(a.ptr[0], off[0]) = (O)Apply<F, N>::run(x, a.params);
  }
}

// where(cond, a, b): the condition is bool whatever T is.
template <typename T>
__global__ void where_kernel(const __grid_constant__ EwArgs<4> a) {
  bool c = a.once[1] ? load_elem(a.ptr[1] ? at<bool>(a.ptr[1], 0) : reinterpret_cast<const bool*>(&a.slot[1])) : false;
  T v[4];
  for (int k = 2; k < 4; ++k)
    if (a.once[k]) v[k] = load_elem(a.ptr[k] ? at<T>(a.ptr[k], 0) : reinterpret_cast<const T*>(&a.slot[k]));
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < a.n; i += step) {
    int64_t off[4] = {i * (int64_t)sizeof(T), i, i * (int64_t)sizeof(T), i * (int64_t)sizeof(T)};
    if (a.mode == kStrided) a.g.offsets(i, off);
    if (!a.once[1]) c = load_elem(at<bool>(a.ptr[1], off[1]));
    for (int k = 2; k < 4; ++k)
      if (!a.once[k]) v[k] = load_elem(at<T>(a.ptr[k], off[k]));
    *at<T>(a.ptr[0], off[0]) = c ? v[2] : v[3];
  }
}

// One transposed operand's chunk into dense scratch (transposed_rows.cuh), by element size.
template <typename U>
__global__ void transpose_rows_kernel(U* dst, const char* src, int64_t rows, int64_t cols, int64_t col_stride) {
  __shared__ U tile[kTile][kTile + 1];  // +1: the column reads of phase 2 hit 32 banks
  tile_read<U>(tile, src, rows, cols, col_stride, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
  __syncthreads();
  tile_write<U>(tile, dst, rows, cols, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
}

int transpose_rows(char* dst, const char* src, int64_t rows, int64_t cols, int64_t col_stride, int64_t elem) {
  const dim3 grid((unsigned)((cols + kTile - 1) / kTile), (unsigned)((rows + kTile - 1) / kTile)), block(kTile, kTileRows);
  cudaStream_t s = current_stream();
  switch (elem) {
    case 1: transpose_rows_kernel<uint8_t><<<grid, block, 0, s>>>(reinterpret_cast<uint8_t*>(dst), src, rows, cols, col_stride); break;
    case 2: transpose_rows_kernel<uint16_t><<<grid, block, 0, s>>>(reinterpret_cast<uint16_t*>(dst), src, rows, cols, col_stride); break;
    case 4: transpose_rows_kernel<uint32_t><<<grid, block, 0, s>>>(reinterpret_cast<uint32_t*>(dst), src, rows, cols, col_stride); break;
    default: transpose_rows_kernel<uint64_t><<<grid, block, 0, s>>>(reinterpret_cast<uint64_t*>(dst), src, rows, cols, col_stride); break;
  }
  return launch_status();
}

// The strided call a, whose operands transposed_rows.cuh found read transposed, chunk by chunk.
template <typename F, typename T, int N>
int launch_transposed(const EwArgs<N>& a, const TransposedRows<N>& t, const int64_t* elem) {
  Scratch scratch[N];
  char* chunk_of[N] = {};
  const int64_t chunk = t.chunk < t.rows ? t.chunk : t.rows;
  int st = JT_OK;
  for (int k = 0; k < N && st == JT_OK; ++k)
    if (t.transposed[k]) {
      if (!scratch[k].allocate((size_t)(chunk * t.cols * elem[k]))) st = JT_OUT_OF_MEMORY;
      chunk_of[k] = scratch[k].template data<char>();
    }
  for (int64_t r0 = 0; r0 < t.rows && st == JT_OK; r0 += chunk) {
    const int64_t r1 = r0 + chunk < t.rows ? r0 + chunk : t.rows;
    for (int k = 0; k < N && st == JT_OK; ++k)
      if (t.transposed[k]) st = transpose_rows(chunk_of[k], a.ptr[k] + r0 * a.g.stride[k][0], r1 - r0, t.cols, t.col_stride[k], elem[k]);
    if (st != JT_OK) break;
    EwArgs<N> c;
    chunk_args<N>(a, t, r0, r1, chunk_of, elem, c);
    choose_mode(c, elem, kVec<T>);
    ew_kernel<F, T, N><<<blocks_for(c.mode == kVector ? c.n / kVec<T> + 1 : c.n), kThreads, 0, current_stream()>>>(c);
    st = launch_status();
  }
  return st;
}

// ew_kernel reads a host scalar's slot in the op's math type A. A float16/bfloat16 op's slot holds
// a float32 when the op keeps its scalar in float32 (mul and true div, as PyTorch and the CPU's
// EwPlan::opmath_scalars do: 0 * 1e6 is 0, not NaN through an inf), else an element of T, rounded
// first (add and sub, as PyTorch), which is widened here; for every other T, A is T.
template <typename T, int N>
void widen_scalar_slots(const elementwise_plan& r, EwArgs<N>& a) {
  if constexpr (!std::is_same<opmath_t<T>, T>::value) {
    for (int k = 1; k < N; ++k) {
      if (a.ptr[k] != nullptr || (DType)(r.scalars[2 * k + 1] >> 1) == DType::Float32) continue;
      T v;
      std::memcpy(&v, &a.slot[k], sizeof(T));
      const opmath_t<T> wide = v;
      a.slot[k] = 0;
      std::memcpy(&a.slot[k], &wide, sizeof(wide));
    }
  }
}

using Launcher = int (*)(const elementwise_plan&, const int64_t*);

template <typename F, typename T, int N>
int launch(const elementwise_plan& r, const int64_t* slots) {
  using O = out_t<F, T>;
  EwArgs<N> a;
  int64_t elem[N];
  for (int k = 0; k < N; ++k) elem[k] = k == 0 ? sizeof(O) : sizeof(T);
  if (!prepare<N>(r, slots, elem, kVec<T>, a)) return JT_INVALID;
  if (a.n == 0) return JT_OK;
  widen_scalar_slots<T, N>(r, a);
  TransposedRows<N> t;
  if (find_transposed_rows<N>(a, elem, t)) return launch_transposed<F, T, N>(a, t, elem);
  const int64_t work = a.mode == kVector ? a.n / kVec<T> + 1 : a.n;
  ew_kernel<F, T, N><<<blocks_for(work), kThreads, 0, current_stream()>>>(a);
  return launch_status();
}

template <typename T>
int launch_where(const elementwise_plan& r, const int64_t* slots) {
  EwArgs<4> a;
  const int64_t elem[4] = {sizeof(T), 1, sizeof(T), sizeof(T)};
  if (!prepare<4>(r, slots, elem, 0, a)) return JT_INVALID;
  if (a.n == 0) return JT_OK;
  where_kernel<T><<<blocks_for(a.n), kThreads, 0, current_stream()>>>(a);
  return launch_status();
}

struct OpEntry {
  const char* name;
  int arity;
  bool predicate;
  std::array<Launcher, kNumDTypes> by_dtype;
};

template <typename F, int Arity, typename T>
constexpr Launcher pick() {
  if constexpr (!F::template ok<opmath_t<T>>) return nullptr;
  else return &launch<F, T, Arity + 1>;
}

#define JTC_ROW(F, arity) per_dtype<Launcher>([](auto t) { return pick<F, arity, typename decltype(t)::type>(); })
#define JTC_UNARY(name) {#name, 1, name##_op::predicate, JTC_ROW(name##_op, 1)},
#define JTC_BINARY(name) {#name, 2, name##_op::predicate, JTC_ROW(name##_op, 2)},
#define JTC_TERNARY(name) {#name, 3, false, JTC_ROW(name##_op, 3)},

const OpEntry kOps[] = {
    JT_UNARY_OPS(JTC_UNARY) JT_BINARY_OPS(JTC_BINARY) JT_TERNARY_OPS(JTC_TERNARY)
    {"where", 3, false, per_dtype<Launcher>([](auto t) { return &launch_where<typename decltype(t)::type>; })},
};
constexpr int kNumOps = sizeof(kOps) / sizeof(kOps[0]);

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

int jtc_ew_op_count(void) { return kNumOps; }
const char* jtc_ew_op_name(int op) { return op >= 0 && op < kNumOps ? kOps[op].name : nullptr; }

int jtc_ew_op_info(int op, int dtype) {
  if (op < 0 || op >= kNumOps || !valid_dtype(dtype)) return -1;
  const OpEntry& e = kOps[op];
  return e.by_dtype[dtype] ? 1 | (e.arity << 1) | (e.predicate ? 16 : 0) : 0;
}

static int elementwise_unguarded(const int64_t* words) {
  elementwise_plan r(words);
  if (!r.current() || r.nops < 1 || r.nops > 4 || r.ndim < 0) return JT_INVALID;
  const int info = jtc_ew_op_info((int)r.op, (int)r.dtype);
  if (info <= 0) return JT_NO_KERNEL;
  if (r.nops != ((info >> 1) & 7) + 1) return JT_INVALID;
  if (r.out_dtype != ((info & 16) ? (int64_t)DType::Bool : r.dtype)) return JT_INVALID;  // the width it writes
  int64_t slots[4] = {0, 0, 0, 0};
  for (int k = 1; k < r.nops; ++k) {
    if (r.addresses[k] != 0) continue;
    const int64_t desc = r.scalars[2 * k + 1];
    if (!valid_dtype((int)(desc >> 1))) return JT_INVALID;
    slots[k] = element_bits((DType)(desc >> 1), (desc & 1) != 0, r.scalars[2 * k]);
  }
  if (r.addresses[0] == 0) return JT_INVALID;
  return kOps[r.op].by_dtype[r.dtype](r, slots);
}
int jtc_elementwise(const int64_t* words) {
  return jt::guarded_status([&] { return elementwise_unguarded(words); });
}
