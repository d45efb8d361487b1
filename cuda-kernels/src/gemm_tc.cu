// float16/bfloat16 GEMM on tensor cores (WMMA 16x16x16 fragments, float accumulators): 128 x 128
// tiles of C per block of 8 warps, each warp 64 x 32; A's and B's 32-deep slices copied to shared
// memory by cp.async in 16-byte pieces, two stages deep, so the next slice lands while this one is
// multiplied. Each operand is read along its unit-stride dimension (k or m for A, n or k for B)
// and laid out in shared memory as WMMA then loads it (row- or column-major); rows padded by 8
// elements against bank conflicts. Pieces past the matrix's edge are zero-filled by cp.async.
// gemm.cu sends only operands whose unit-stride extent, leading dimension, batch strides and base
// are multiples of 8 elements (16 bytes), so a piece is either wholly inside or wholly outside.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "gemm_args.cuh"

namespace jt {
namespace cuda {
namespace {

namespace wmma = nvcuda::wmma;

constexpr int kBM = 128, kBN = 128, kBK = 32, kPad = 8, kWarps = 8, kThreadsTc = 32 * kWarps, kGroup = 8;
constexpr int kWarpM = 64, kWarpN = 32;                          // warps 2 (m) x 4 (n)
constexpr int kFragM = kWarpM / 16, kFragN = kWarpN / 16;        // 4 x 2 accumulators per warp
constexpr int kPieces = kBM * kBK / 8 / kThreadsTc;              // 16-byte pieces per thread per operand
static_assert(kBM == kBN && kPieces == 2, "A's and B's slices are copied by the same loop shape");

// The shared-memory slice of an operand whose unit-stride dimension is `inner`: [outer][inner + kPad].
template <bool KInner, int MN>
struct Slice {
  static constexpr int kInner = KInner ? kBK : MN, kOuter = KInner ? MN : kBK, kLd = kInner + kPad;
  static constexpr int kElems = kOuter * kLd;
};

__device__ inline void cp_async16(void* smem, const void* gmem, bool inside) {
  const unsigned dst = (unsigned)__cvta_generic_to_shared(smem);
  const int bytes = inside ? 16 : 0;  // 0: nothing read, 16 zero bytes written
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem), "r"(bytes));
}
__device__ inline void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ inline void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

// Copies the kBK-deep slice at k0 of an operand into `dst`. The operand is rows x cols of C's
// side (rows: m for A, n for B) by k; `inner_k` says its unit stride runs along k (stride_outer
// then steps rows), else along rows (stride_outer steps k).
template <typename E, bool InnerK>
__device__ inline void copy_slice(E* dst, const E* src, int64_t rows, int64_t k, int64_t row0, int64_t k0,
                                  int64_t stride_outer) {
  using S = Slice<InnerK, kBM>;
  constexpr int kPiecesPerLine = S::kInner / 8;
#pragma unroll
  for (int r = 0; r < kPieces; ++r) {
    const int p = threadIdx.x + r * kThreadsTc, line = p / kPiecesPerLine, at = (p % kPiecesPerLine) * 8;
    const int64_t row = InnerK ? row0 + line : row0 + at, kk = InnerK ? k0 + at : k0 + line;
    const bool inside = row < rows && kk < k;
    const E* from = inside ? (InnerK ? src + row * stride_outer + kk : src + kk * stride_outer + row) : src;
    cp_async16(dst + line * S::kLd + at, from, inside);
  }
}

// E: the CUDA element type (__half or __nv_bfloat16), T: jtensor's (Half or BFloat16), same bits.
template <typename E, typename T, bool AInnerK, bool BInnerN>
__global__ void __launch_bounds__(kThreadsTc, 2) gemm_tc_kernel(const __grid_constant__ GemmArgs g, const E* A, const E* B, T* C) {
  using SA = Slice<AInnerK, kBM>;
  using SB = Slice<!BInnerN, kBN>;
  using LayoutA = typename std::conditional<AInnerK, wmma::row_major, wmma::col_major>::type;
  using LayoutB = typename std::conditional<BInnerN, wmma::row_major, wmma::col_major>::type;
  constexpr int kStageElems = SA::kElems + SB::kElems;
  static_assert(2 * kStageElems * sizeof(E) <= 48 * 1024, "static shared memory");
  static_assert(kWarps * 256 * sizeof(float) <= 2 * kStageElems * sizeof(E), "the epilogue's staging fits");
  __shared__ __align__(128) E smem[2 * kStageElems];  // stage s: A at s * kStageElems, B after it

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wm = warp / 4, wn = warp % 4;
  const int64_t tiles_m = (g.m + kBM - 1) / kBM, tiles_n = (g.n + kBN - 1) / kBN, tiles = g.batches * tiles_m * tiles_n;
  const int64_t k_slices = (g.k + kBK - 1) / kBK;
  // k = 0: beta * C whatever alpha (inf * an empty sum is NaN), as PyTorch's addmm and gemm_simt.cu
  const float alpha = g.k == 0 ? 0.0f : (float)g.alpha, beta = (float)g.beta;

  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const GemmTile tile = gemm_tile(t, tiles_m, tiles_n, kBM, kBN, kGroup);
    int64_t oa, ob, oc;
    g.offsets(tile.batch, oa, ob, oc);
    const E* a = A + oa;
    const E* b = B + ob;
    auto issue = [&](int stage, int64_t k0) {
      E* sa = smem + stage * kStageElems;
      copy_slice<E, AInnerK>(sa, a, g.m, g.k, tile.m0, k0, AInnerK ? g.a_row : g.a_col);
      copy_slice<E, !BInnerN>(sa + SA::kElems, b, g.n, g.k, tile.n0, k0, BInnerN ? g.b_row : g.b_col);
    };

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[kFragM][kFragN];
#pragma unroll
    for (int i = 0; i < kFragM; ++i)
#pragma unroll
      for (int j = 0; j < kFragN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    __syncthreads();  // the previous tile's epilogue is done with shared memory
    if (k_slices > 0) issue(0, 0);
    cp_async_commit();
    for (int64_t s = 0; s < k_slices; ++s) {
      if (s + 1 < k_slices) issue((int)((s + 1) & 1), (s + 1) * kBK);  // that stage was freed by the sync below
      cp_async_commit();
      cp_async_wait<1>();  // everything but the group just issued: slice s has landed
      __syncthreads();
      const E* sa = smem + (s & 1) * kStageElems;
      const E* sb = sa + SA::kElems;
#pragma unroll
      for (int kk = 0; kk < kBK; kk += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, E, LayoutA> fa[kFragM];
        wmma::fragment<wmma::matrix_b, 16, 16, 16, E, LayoutB> fb[kFragN];
#pragma unroll
        for (int i = 0; i < kFragM; ++i) {
          const int row = wm * kWarpM + i * 16;  // A's (row, kk): [row][k] or [k][row]
          wmma::load_matrix_sync(fa[i], AInnerK ? sa + row * SA::kLd + kk : sa + kk * SA::kLd + row, SA::kLd);
        }
#pragma unroll
        for (int j = 0; j < kFragN; ++j) {
          const int col = wn * kWarpN + j * 16;  // B's (kk, col): [k][col] or [col][k]
          wmma::load_matrix_sync(fb[j], BInnerN ? sb + kk * SB::kLd + col : sb + col * SB::kLd + kk, SB::kLd);
        }
#pragma unroll
        for (int i = 0; i < kFragM; ++i)
#pragma unroll
          for (int j = 0; j < kFragN; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
      }
      __syncthreads();  // every warp is done with stage s & 1 before it is refilled
    }
    cp_async_wait<0>();
    __syncthreads();

    // Epilogue: each warp moves one 16 x 16 accumulator at a time through its own staging area of
    // shared memory, then writes alpha * acc + beta * C at C's strides (C is not read when beta is 0).
    float* staging = reinterpret_cast<float*>(smem) + warp * 256;
#pragma unroll
    for (int i = 0; i < kFragM; ++i) {
#pragma unroll
      for (int j = 0; j < kFragN; ++j) {
        wmma::store_matrix_sync(staging, acc[i][j], 16, wmma::mem_row_major);
        __syncwarp();
        const int64_t row0 = tile.m0 + wm * kWarpM + i * 16, col0 = tile.n0 + wn * kWarpN + j * 16;
#pragma unroll
        for (int e = lane; e < 256; e += 32) {
          const int64_t m = row0 + e / 16, n = col0 + e % 16;
          if (m < g.m && n < g.n) {
            T* c = C + oc + m * g.c_row + n * g.c_col;
            float v = alpha * staging[e];
            if (beta != 0) v += beta * (float)*c;
            *c = T(v);
          }
        }
        __syncwarp();
      }
    }
  }
}

template <typename E, typename T, bool AInnerK, bool BInnerN>
cudaError_t launch(const GemmArgs& g, const void* a, const void* b, void* c, cudaStream_t s) {
  const int64_t tiles = g.batches * ((g.m + kBM - 1) / kBM) * ((g.n + kBN - 1) / kBN);
  gemm_tc_kernel<E, T, AInnerK, BInnerN><<<gemm_blocks(tiles), kThreadsTc, 0, s>>>(
      g, static_cast<const E*>(a), static_cast<const E*>(b), static_cast<T*>(c));
  return cudaGetLastError();
}

template <typename E, typename T>
cudaError_t launch_layout(const GemmArgs& g, const void* a, const void* b, void* c, bool a_k, bool b_n, cudaStream_t s) {
  if (a_k) return b_n ? launch<E, T, true, true>(g, a, b, c, s) : launch<E, T, true, false>(g, a, b, c, s);
  return b_n ? launch<E, T, false, true>(g, a, b, c, s) : launch<E, T, false, false>(g, a, b, c, s);
}

}  // namespace

cudaError_t launch_gemm_tensor_core(DType dtype, const GemmArgs& g, const void* a, const void* b, void* c,
                                    bool a_k_contiguous, bool b_n_contiguous, cudaStream_t s) {
  static_assert(sizeof(__half) == sizeof(Half) && sizeof(__nv_bfloat16) == sizeof(BFloat16), "same bits");
  if (dtype == DType::Float16) return launch_layout<__half, Half>(g, a, b, c, a_k_contiguous, b_n_contiguous, s);
  if (dtype == DType::BFloat16) return launch_layout<__nv_bfloat16, BFloat16>(g, a, b, c, a_k_contiguous, b_n_contiguous, s);
  return cudaErrorInvalidValue;
}

}  // namespace cuda
}  // namespace jt
