// The one strided copy behind contiguous(), clone(), to(dtype) and copy_ (with broadcasting).
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "jt/dtype.h"
#include "kernels/kernels.h"
#include "kernels/strided.h"

namespace jt {
namespace {

template <typename D, typename S>
void convert_loop(char* const* p, const int64_t* s, int64_t n) {
  char* d = p[0];
  const char* src = p[1];
  if (s[0] == (int64_t)sizeof(D) && s[1] == (int64_t)sizeof(S)) {  // contiguous: vectorizes
    D* dv = reinterpret_cast<D*>(d);
    const S* sv = reinterpret_cast<const S*>(src);
    for (int64_t i = 0; i < n; ++i) dv[i] = convert<D, S>(load_elem(sv + i));
  } else if (s[1] == 0) {  // broadcast source: convert once
    D v = convert<D, S>(load_elem(reinterpret_cast<const S*>(src)));
    for (int64_t i = 0; i < n; ++i) *reinterpret_cast<D*>(d + i * s[0]) = v;
  } else {
    for (int64_t i = 0; i < n; ++i)
      *reinterpret_cast<D*>(d + i * s[0]) = convert<D, S>(load_elem(reinterpret_cast<const S*>(src + i * s[1])));
  }
}

using LoopFn = void (*)(char* const*, const int64_t*, int64_t);

LoopFn pick_loop(DType dst, DType src) {
  return dispatch_dtype(dst, [&](auto d) {
    return dispatch_dtype(src, [](auto s) -> LoopFn {
      return &convert_loop<typename decltype(d)::type, typename decltype(s)::type>;
    });
  });
}

// Note [Blocked transpose]
// When the destination is contiguous along a dim the source walks with a large stride (and the
// source is contiguous along another), a plain loop misses cache and TLB on every read. Tiles
// keep both sides resident; for 4-byte types an SSE2 4x4 register transpose over 16-column
// panels writes whole cache lines, with streaming stores once the output outgrows the caches
// (as memcpy does). This is what makes contiguous() of a transposed matrix run near memory speed.
struct TransposeShape {
  int64_t rows, cols;   // dim 1 (source-contiguous) and dim 0 (destination-contiguous)
  int64_t d_row, s_col; // element strides: dst between rows, src between columns
};

template <typename T>
void transpose_scalar(T* dst, const T* src, const TransposeShape& t, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  for (int64_t r = r0; r < r1; ++r)
    for (int64_t c = c0; c < c1; ++c) dst[r * t.d_row + c] = src[c * t.s_col + r];
}

#if defined(__x86_64__)  // the register transposes; elsewhere the tiled loop below serves every type
template <bool kStream>
void transpose_f32_rows(float* dst, const float* src, const TransposeShape& t, int64_t r0, int64_t r1) {
  const int64_t r4 = r0 + (r1 - r0) / 4 * 4, c4 = t.cols / 4 * 4;
  for (int64_t c0 = 0; c0 < c4; c0 += 16) {
    const int64_t c1 = std::min(c4, c0 + 16);
    for (int64_t r = r0; r < r4; r += 4) {
      for (int64_t c = c0; c < c1; c += 4) {
        const float* s = src + c * t.s_col + r;
        __m128 a = _mm_loadu_ps(s), b = _mm_loadu_ps(s + t.s_col);
        __m128 x = _mm_loadu_ps(s + 2 * t.s_col), y = _mm_loadu_ps(s + 3 * t.s_col);
        _MM_TRANSPOSE4_PS(a, b, x, y);
        float* d = dst + r * t.d_row + c;
        if (kStream) {
          _mm_stream_ps(d, a), _mm_stream_ps(d + t.d_row, b);
          _mm_stream_ps(d + 2 * t.d_row, x), _mm_stream_ps(d + 3 * t.d_row, y);
        } else {
          _mm_storeu_ps(d, a), _mm_storeu_ps(d + t.d_row, b);
          _mm_storeu_ps(d + 2 * t.d_row, x), _mm_storeu_ps(d + 3 * t.d_row, y);
        }
      }
    }
  }
  if (kStream) _mm_sfence();
  transpose_scalar(dst, src, t, r4, r1, 0, t.cols);  // leftover rows
  transpose_scalar(dst, src, t, r0, r4, c4, t.cols); // leftover columns
}

// AVX2: 8x8 register transposes over 32-column panels (measured best on 4096x4096: about
// 75% of a two-thread memcpy, against about 55% for the SSE2 path). Chosen at run time.
__attribute__((target("avx2"), always_inline)) inline void transpose8x8(const float* s, int64_t ss, float* d, int64_t ds, bool stream) {
  __m256 r0 = _mm256_loadu_ps(s), r1 = _mm256_loadu_ps(s + ss), r2 = _mm256_loadu_ps(s + 2 * ss),
         r3 = _mm256_loadu_ps(s + 3 * ss), r4 = _mm256_loadu_ps(s + 4 * ss), r5 = _mm256_loadu_ps(s + 5 * ss),
         r6 = _mm256_loadu_ps(s + 6 * ss), r7 = _mm256_loadu_ps(s + 7 * ss);
  __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3),
         t3 = _mm256_unpackhi_ps(r2, r3), t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
         t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE),
         u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE),
         u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE),
         u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  __m256 o[8] = {_mm256_permute2f128_ps(u0, u4, 0x20), _mm256_permute2f128_ps(u1, u5, 0x20),
                 _mm256_permute2f128_ps(u2, u6, 0x20), _mm256_permute2f128_ps(u3, u7, 0x20),
                 _mm256_permute2f128_ps(u0, u4, 0x31), _mm256_permute2f128_ps(u1, u5, 0x31),
                 _mm256_permute2f128_ps(u2, u6, 0x31), _mm256_permute2f128_ps(u3, u7, 0x31)};
  for (int k = 0; k < 8; ++k) {
    if (stream) _mm256_stream_ps(d + k * ds, o[k]);
    else _mm256_storeu_ps(d + k * ds, o[k]);
  }
}

__attribute__((target("avx2"))) void transpose_f32_rows_avx2(float* dst, const float* src, const TransposeShape& t,
                                                             int64_t r0, int64_t r1, bool stream) {
  const int64_t r8 = r0 + (r1 - r0) / 8 * 8, c8 = t.cols / 8 * 8;
  for (int64_t c0 = 0; c0 < c8; c0 += 32) {
    const int64_t c1 = std::min(c8, c0 + 32);
    // The source rows of a panel are s_col apart: no hardware prefetcher follows that, so the
    // panel two ahead is asked for now (into L2: rows 2^k bytes apart share few L1 sets).
    for (int64_t c = c0 + 64; c < std::min(c8, c0 + 96); ++c)
      for (int64_t r = r0; r < r8; r += 16) __builtin_prefetch(src + c * t.s_col + r, 0, 1);
    for (int64_t r = r0; r < r8; r += 8)
      for (int64_t c = c0; c < c1; c += 8) transpose8x8(src + c * t.s_col + r, t.s_col, dst + r * t.d_row + c, t.d_row, stream);
  }
  if (stream) _mm_sfence();
  transpose_scalar(dst, src, t, r8, r1, 0, t.cols);
  transpose_scalar(dst, src, t, r0, r8, c8, t.cols);
}

bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}
#endif

template <typename T>
void transpose_rows(T* dst, const T* src, const TransposeShape& t, int64_t r0, int64_t r1, bool stream) {
#if defined(__x86_64__)
  if constexpr (sizeof(T) == 4) {
    auto* d = reinterpret_cast<float*>(dst);
    auto* s = reinterpret_cast<const float*>(src);
    // 32-byte streaming stores need 32-byte aligned rows; when only 16 bytes are aligned, SSE2
    // streaming beats AVX2 without streaming.
    bool aligned32 = reinterpret_cast<uintptr_t>(d) % 32 == 0 && (t.d_row * 4) % 32 == 0;
    if (has_avx2() && (!stream || aligned32)) {
      transpose_f32_rows_avx2(d, s, t, r0, r1, stream);
    } else if (stream) {
      transpose_f32_rows<true>(d, s, t, r0, r1);
    } else {
      transpose_f32_rows<false>(d, s, t, r0, r1);
    }
  } else
#endif
  {
    (void)stream;
    constexpr int64_t kTile = 32;
    for (int64_t c0 = 0; c0 < t.cols; c0 += kTile)
      transpose_scalar(dst, src, t, r0, r1, c0, std::min(t.cols, c0 + kTile));
  }
}

template <typename T>
void transpose_tiles(const StridedIter<2>& it) {
  constexpr int64_t kRowBlock = 64;
  const TransposeShape t{it.size[1], it.size[0], it.stride[0][1] / (int64_t)sizeof(T),
                         it.stride[1][0] / (int64_t)sizeof(T)};
  int64_t outer = 1;
  for (int d = 2; d < it.ndim; ++d) outer *= it.size[d];
  const int64_t blocks = (t.rows + kRowBlock - 1) / kRowBlock, work = outer * blocks;
  const bool big = t.rows * t.cols * outer > kGrainSize;
  // Streaming stores need 16-byte aligned rows and pay off only past the caches.
  const bool stream = t.rows * t.cols * outer * (int64_t)sizeof(T) > (4 << 20) &&
                      reinterpret_cast<uintptr_t>(it.base[0]) % 16 == 0 && (t.d_row * sizeof(T)) % 16 == 0;
  parallel_for(0, work, big ? 0 : work, [&](int64_t b, int64_t e) {
    for (int64_t w = b; w < e; ++w) {
      char* dbase = it.base[0];
      const char* sbase = it.base[1];
      for (int64_t d = 2, o = w / blocks; d < it.ndim; ++d) {  // offsets of outer index o
        int64_t i = o % it.size[d];
        o /= it.size[d];
        dbase += i * it.stride[0][d];
        sbase += i * it.stride[1][d];
      }
      const int64_t r0 = (w % blocks) * kRowBlock;
      transpose_rows(reinterpret_cast<T*>(dbase), reinterpret_cast<const T*>(sbase), t, r0,
                     std::min(t.rows, r0 + kRowBlock), stream);
    }
  });
}

bool try_transpose(const StridedIter<2>& it, size_t elem) {
  if (it.ndim < 2 || it.stride[0][0] != (int64_t)elem || it.stride[1][1] != (int64_t)elem) return false;
  if (it.stride[1][0] == 0 || it.size[0] < 16 || it.size[1] < 16) return false;
  switch (elem) {
    case 1: transpose_tiles<uint8_t>(it); return true;
    case 2: transpose_tiles<uint16_t>(it); return true;
    case 4: transpose_tiles<uint32_t>(it); return true;
    case 8: transpose_tiles<uint64_t>(it); return true;
  }
  return false;
}

// Note [Short contiguous runs]
// A permuted copy whose innermost dim is contiguous on both sides but short (a head split: rows of
// 16 floats) spent most of its time in the generic walk, which recomputes every pointer and calls
// an element loop per run. Here each run is one memcpy and the pointers step from run to run.
bool try_short_runs(const StridedIter<2>& it, size_t elem) {
  if (it.ndim < 2 || it.stride[0][0] != (int64_t)elem || it.stride[1][0] != (int64_t)elem) return false;
  const int64_t run = it.size[0] * (int64_t)elem;
  if (run > 4096) return false;  // long runs: the generic walk's per-run cost is already small
  const int64_t rows = it.numel() / it.size[0];
  parallel_for(0, rows, std::max<int64_t>(1, kGrainSize / it.size[0]), [&](int64_t r0, int64_t r1) {
    int64_t idx[kMaxDims];
    char* d = it.base[0];
    const char* s = it.base[1];
    int64_t rem = r0;
    for (int k = 1; k < it.ndim; ++k) {  // run r0's index over dims 1.., and its pointers
      idx[k] = rem % it.size[k];
      rem /= it.size[k];
      d += idx[k] * it.stride[0][k];
      s += idx[k] * it.stride[1][k];
    }
    for (int64_t r = r0; r < r1; ++r) {
      std::memcpy(d, s, (size_t)run);
      for (int k = 1; k < it.ndim; ++k) {  // next run: step dim k, carrying into k + 1
        d += it.stride[0][k];
        s += it.stride[1][k];
        if (++idx[k] < it.size[k]) break;
        d -= it.size[k] * it.stride[0][k];
        s -= it.size[k] * it.stride[1][k];
        idx[k] = 0;
      }
    }
  });
  return true;
}

}  // namespace

void transpose_tile_4byte(void* dst, const void* src, int64_t rows, int64_t cols, int64_t d_row, int64_t s_col) {
  const TransposeShape t{rows, cols, d_row, s_col};
  auto* d = static_cast<float*>(dst);
  auto* s = static_cast<const float*>(src);
  transpose_rows(d, s, t, 0, rows, false);
}

void copy_strided(const CopyPlan& plan) {
  StridedIter<2> it;
  it.ndim = plan.ndim;
  it.base[0] = reinterpret_cast<char*>(plan.dst);
  it.base[1] = const_cast<char*>(static_cast<const char*>(plan.src));  // read only
  const size_t de = dtype_size(plan.dst_dtype), se = dtype_size(plan.src_dtype);
  for (int d = 0; d < plan.ndim; ++d) {
    if (plan.sizes[d] == 0) return;
    it.size[d] = plan.sizes[d];
    it.stride[0][d] = plan.dst_strides[d] * (int64_t)de;
    it.stride[1][d] = plan.src_strides[d] * (int64_t)se;
  }
  it.coalesce();
  const bool same = plan.dst_dtype == plan.src_dtype;
  if (same && it.ndim == 1 && it.stride[0][0] == (int64_t)de && it.stride[1][0] == (int64_t)se) {
    parallel_memcpy(it.base[0], it.base[1], it.size[0] * (int64_t)de);
    return;
  }
  if (same && try_transpose(it, de)) return;
  if (same && try_short_runs(it, de)) return;
  LoopFn loop = pick_loop(plan.dst_dtype, plan.src_dtype);
  it.run([loop](char* const* p, const int64_t* s, int64_t n) { loop(p, s, n); });
}

void parallel_memcpy(void* dst, const void* src, int64_t nbytes) {
  constexpr int64_t kChunk = 1 << 16;
  if (nbytes <= 0) return;
  int64_t chunks = (nbytes + kChunk - 1) / kChunk;
  parallel_for(0, chunks, 8, [&](int64_t b, int64_t e) {
    int64_t lo = b * kChunk, hi = std::min(nbytes, e * kChunk);
    std::memcpy(static_cast<char*>(dst) + lo, static_cast<const char*>(src) + lo, (size_t)(hi - lo));
  });
}

}  // namespace jt
