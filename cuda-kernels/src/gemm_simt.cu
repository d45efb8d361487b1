// The tiled GEMM for every dtype: 64 x 64 tiles of C per block of 256 threads, each thread 4 x 4
// outputs, A's and B's 16-deep slices staged in shared memory in the accumulator's type, the next
// slice read into registers while this one is multiplied. Operands at any strides; loads walk
// each operand's unit-stride dimension across the warp when it has one. Accumulates as the CPU's
// loops do (gemm.cpp): opmath (float for float16/bfloat16) for floats, int64 for integers and bool.
#include <type_traits>

#include "gemm_args.cuh"
#include "jt/functors.h"

namespace jt {
namespace cuda {
namespace {

constexpr int kBM = 64, kBN = 64, kBK = 16, kThreadsSimt = 256, kGroup = 8;
constexpr int kLoads = kBM * kBK / kThreadsSimt;  // elements of A, and of B, each thread stages
constexpr int kMicro = 4;                          // each thread's outputs: kMicro x kMicro
static_assert(kBM == kBN && kBM == 16 * kMicro && kThreadsSimt == 256, "16 x 16 threads, 4 x 4 outputs each");

template <typename T>
using gemm_acc_t = typename std::conditional<std::is_integral<T>::value, int64_t, opmath_t<T>>::type;

// acc + a * b; integers wrap (two's complement) as the CPU's int64 loops do, without overflow UB.
template <typename Acc>
__device__ inline Acc mac(Acc acc, Acc a, Acc b) {
  if constexpr (std::is_integral<Acc>::value) return (Acc)((uint64_t)acc + (uint64_t)a * (uint64_t)b);
  else return acc + a * b;
}

// alpha * acc + beta * C's old value (not read when beta is 0: C may hold NaN), as T.
template <typename T, typename Acc>
__device__ inline void store_result(T* c, Acc acc, double alpha, double beta) {
  if constexpr (std::is_same<T, bool>::value) {  // the CPU's bool: alpha and beta read as bools
    *c = (alpha != 0 && acc != 0) || (beta != 0 && load_elem(c));
  } else if constexpr (std::is_integral<Acc>::value) {
    uint64_t v = (uint64_t)(int64_t)alpha * (uint64_t)acc;
    if (beta != 0) v += (uint64_t)(int64_t)beta * (uint64_t)(int64_t)*c;
    *c = (T)(int64_t)v;
  } else {
    Acc v = (Acc)alpha * acc;
    if (beta != 0) v += (Acc)beta * (Acc)*c;
    *c = T(v);
  }
}

template <typename T>
__global__ void __launch_bounds__(kThreadsSimt) gemm_simt_kernel(const __grid_constant__ GemmArgs g, const T* A, const T* B, T* C) {
  using Acc = gemm_acc_t<T>;
  __shared__ Acc As[kBK][kBM];  // As[k][m]
  __shared__ Acc Bs[kBK][kBN];  // Bs[k][n]
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  // Which of a slice's elements this thread stages: along the unit-stride dimension across the warp.
  const bool a_k_fast = g.a_col == 1, b_n_fast = g.b_col == 1 || g.b_row != 1;
  const int64_t tiles_m = (g.m + kBM - 1) / kBM, tiles_n = (g.n + kBN - 1) / kBN, tiles = g.batches * tiles_m * tiles_n;
  const int64_t k_slices = (g.k + kBK - 1) / kBK;

  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const GemmTile tile = gemm_tile(t, tiles_m, tiles_n, kBM, kBN, kGroup);
    int64_t oa, ob, oc;
    g.offsets(tile.batch, oa, ob, oc);
    const T* a = A + oa;
    const T* b = B + ob;
    Acc ra[kLoads], rb[kLoads];
    auto load = [&](int64_t k0) {
#pragma unroll
      for (int r = 0; r < kLoads; ++r) {
        const int l = tid + r * kThreadsSimt;
        const int am = a_k_fast ? l / kBK : l % kBM, ak = a_k_fast ? l % kBK : l / kBM;
        const int64_t gm = tile.m0 + am, gk = k0 + ak;
        ra[r] = gm < g.m && gk < g.k ? (Acc)load_elem(a + gm * g.a_row + gk * g.a_col) : Acc(0);
        const int bn = b_n_fast ? l % kBN : l / kBK, bk = b_n_fast ? l / kBN : l % kBK;
        const int64_t gn = tile.n0 + bn, gk2 = k0 + bk;
        rb[r] = gn < g.n && gk2 < g.k ? (Acc)load_elem(b + gk2 * g.b_row + gn * g.b_col) : Acc(0);
      }
    };
    auto stage = [&]() {
#pragma unroll
      for (int r = 0; r < kLoads; ++r) {
        const int l = tid + r * kThreadsSimt;
        if (a_k_fast) As[l % kBK][l / kBK] = ra[r];
        else As[l / kBM][l % kBM] = ra[r];
        if (b_n_fast) Bs[l / kBN][l % kBN] = rb[r];
        else Bs[l % kBK][l / kBK] = rb[r];
      }
    };

    Acc acc[kMicro][kMicro];
#pragma unroll
    for (int i = 0; i < kMicro; ++i)
#pragma unroll
      for (int j = 0; j < kMicro; ++j) acc[i][j] = Acc(0);

    if (k_slices > 0) load(0);
    for (int64_t s = 0; s < k_slices; ++s) {
      __syncthreads();  // every thread is done with the previous slice (and the previous tile)
      stage();
      __syncthreads();
      if (s + 1 < k_slices) load((s + 1) * kBK);  // in flight while this slice is multiplied
#pragma unroll
      for (int kk = 0; kk < kBK; ++kk) {
        Acc av[kMicro], bv[kMicro];
#pragma unroll
        for (int i = 0; i < kMicro; ++i) av[i] = As[kk][ty + 16 * i];
#pragma unroll
        for (int j = 0; j < kMicro; ++j) bv[j] = Bs[kk][tx + 16 * j];
#pragma unroll
        for (int i = 0; i < kMicro; ++i)
#pragma unroll
          for (int j = 0; j < kMicro; ++j) acc[i][j] = mac(acc[i][j], av[i], bv[j]);
      }
    }

    // Threads of a warp hold 16 consecutive columns: C's rows are written coalesced.
#pragma unroll
    for (int i = 0; i < kMicro; ++i) {
      const int64_t gm = tile.m0 + ty + 16 * i;
      if (gm >= g.m) continue;
#pragma unroll
      for (int j = 0; j < kMicro; ++j) {
        const int64_t gn = tile.n0 + tx + 16 * j;
        if (gn < g.n) store_result(C + oc + gm * g.c_row + gn * g.c_col, acc[i][j], g.k == 0 ? 0.0 : g.alpha, g.beta);  // k = 0: beta * C, whatever alpha
      }
    }
  }
}

}  // namespace

cudaError_t launch_gemm_simt(DType dtype, const GemmArgs& g, const void* a, const void* b, void* c, cudaStream_t s) {
  const int64_t tiles = g.batches * ((g.m + kBM - 1) / kBM) * ((g.n + kBN - 1) / kBN);
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    gemm_simt_kernel<T><<<gemm_blocks(tiles), kThreadsSimt, 0, s>>>(g, static_cast<const T*>(a), static_cast<const T*>(b),
                                                                    static_cast<T*>(c));
  });
  return cudaGetLastError();
}

}  // namespace cuda
}  // namespace jt
