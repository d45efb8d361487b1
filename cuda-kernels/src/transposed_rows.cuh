// The elementwise path for an operand read transposed (x + y.t()): the strided loop would make a
// warp's 32 loads of that operand touch 32 rows. Instead the output's rows are taken in chunks;
// each transposed operand's chunk is first copied into contiguous scratch by a tiled transpose
// (32 x 32 tiles through shared memory, coalesced on both sides), and the op then runs on the
// chunk as a dense (vectorized) elementwise call. A chunk of ~24 MiB stays largely in L2 between
// the two. Host and device code, but for the kernel launches (the host tests emulate them).
#pragma once
#include <cstdint>

#include "elementwise_args.cuh"

namespace jt {
namespace cuda {

template <int N>
struct TransposedRows {
  int64_t rows, cols;  // the output, dense [rows, cols]
  bool transposed[N];  // operand k is read along rows: element (r, c) at r * elem + c * col_stride
  int64_t col_stride[N];
  int64_t chunk;  // output rows per chunk, a multiple of 32
};

// Whether a (in strided mode) is a dense [rows, cols] output whose inputs are each dense alike or
// transposed, at least one of them transposed.
template <int N>
JT_HOST_DEVICE bool find_transposed_rows(const EwArgs<N>& a, const int64_t* elem, TransposedRows<N>& t) {
  if (a.g.ndim != 2 || a.mode != kStrided || a.n < (1 << 16)) return false;  // small calls: one strided launch is cheaper
  t.rows = a.g.size[0];
  t.cols = a.g.size[1];
  bool any = false;
  for (int k = 0; k < N; ++k) {
    t.transposed[k] = false;
    if (a.once[k]) continue;
    const int64_t s0 = a.g.stride[k][0], s1 = a.g.stride[k][1];
    if (s1 == elem[k] && s0 == t.cols * elem[k]) continue;  // dense
    // the output strided, an input contiguous along neither dim, or one broadcast along the columns
    // (x - x.amax(1, true)): the strided loop reads that one cheaply, a scratch copy would not be
    if (k == 0 || s0 != elem[k] || s1 == 0) return false;
    t.transposed[k] = true;
    t.col_stride[k] = s1;
    any = true;
  }
  if (!any) return false;
  int64_t widest = 1;
  for (int k = 0; k < N; ++k) widest = elem[k] > widest ? elem[k] : widest;
  int64_t want = (24 << 20) / (t.cols * widest);
  if (want > 65535 * (int64_t)32) want = 65535 * (int64_t)32;  // the transpose's grid.y
  t.chunk = want < 32 ? 32 : want / 32 * 32;
  return true;
}

// The dense call for output rows [r0, r1): transposed operands read from their scratch chunk.
template <int N>
JT_HOST_DEVICE void chunk_args(const EwArgs<N>& a, const TransposedRows<N>& t, int64_t r0, int64_t r1, char* const* scratch,
                               const int64_t* elem, EwArgs<N>& c) {
  c = a;
  c.n = (r1 - r0) * t.cols;
  c.g.ndim = 1;
  c.g.size[0] = c.n;
  for (int k = 0; k < N; ++k) {
    c.g.stride[k][0] = elem[k];
    if (a.once[k]) continue;
    c.ptr[k] = t.transposed[k] ? scratch[k] : a.ptr[k] + r0 * a.g.stride[k][0];
  }
}

constexpr int kTile = 32, kTileRows = 8;  // a block of 32 x 8 threads moves a 32 x 32 tile

// Phase 1 of tile (bx, by) for thread (tx, ty): elements (r0 + tx, c0 + ty + j) of the source, read
// along its rows (contiguous), into tile[ty + j][tx]. src is the chunk's first row.
template <typename U>
JT_HOST_DEVICE void tile_read(U (*tile)[kTile + 1], const char* src, int64_t rows, int64_t cols, int64_t col_stride, int bx,
                              int by, int tx, int ty) {
  const int64_t r = (int64_t)by * kTile + tx;
  for (int j = 0; j < kTile; j += kTileRows) {
    const int64_t c = (int64_t)bx * kTile + ty + j;
    if (r < rows && c < cols) tile[ty + j][tx] = *reinterpret_cast<const U*>(src + r * (int64_t)sizeof(U) + c * col_stride);
  }
}

// Phase 2: elements (r0 + ty + j, c0 + tx) from tile[tx][ty + j] into the dense chunk dst[rows, cols].
template <typename U>
JT_HOST_DEVICE void tile_write(U (*tile)[kTile + 1], U* dst, int64_t rows, int64_t cols, int bx, int by, int tx, int ty) {
  const int64_t c = (int64_t)bx * kTile + tx;
  for (int j = 0; j < kTile; j += kTileRows) {
    const int64_t r = (int64_t)by * kTile + ty + j;
    if (r < rows && c < cols) dst[r * cols + c] = tile[tx][ty + j];
  }
}

}  // namespace cuda
}  // namespace jt
