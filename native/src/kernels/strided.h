// Shared by the strided kernels: dims sorted innermost-first and coalesced, then walked in
// parallel chunks of the flat index with the innermost dim handed to a typed inner loop.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "allocator/scratch.h"
#include "parallel.h"

namespace jt {
void transpose_tile_4byte(void* dst, const void* src, int64_t rows, int64_t cols, int64_t d_row, int64_t s_col);
}

namespace jt {

constexpr int kMaxDims = 64;

// N operands over one iteration space; strides are in bytes.
template <int N>
struct StridedIter {
  int ndim = 0;
  int64_t size[kMaxDims];
  int64_t stride[N][kMaxDims];
  char* base[N];
  int64_t elem[N] = {};  // element sizes; when set, transposed operands are walked in packed tiles

  int64_t numel() const {
    int64_t n = 1;
    for (int d = 0; d < ndim; ++d) n *= size[d];
    return n;
  }

  // Drops size-1 dims, orders dims innermost-first by operand 0's strides (then the others'),
  // and merges neighbours that are contiguous for every operand.
  void coalesce() {
    int k = 0;
    for (int d = 0; d < ndim; ++d) {
      if (size[d] == 1) continue;
      size[k] = size[d];
      for (int i = 0; i < N; ++i) stride[i][k] = stride[i][d];
      ++k;
    }
    ndim = k;
    // Input is outermost-first; reverse, then insertion-sort by stride (stable for ties).
    std::reverse(size, size + ndim);
    for (int i = 0; i < N; ++i) std::reverse(stride[i], stride[i] + ndim);
    for (int a = 1; a < ndim; ++a) {
      for (int b = a; b > 0 && should_swap(b - 1, b); --b) swap_dims(b - 1, b);
    }
    k = 0;
    for (int d = 1; d < ndim; ++d) {
      bool mergeable = true;
      for (int i = 0; i < N; ++i) mergeable &= stride[i][d] == stride[i][k] * size[k];
      if (mergeable) {
        size[k] *= size[d];
      } else {
        ++k;
        size[k] = size[d];
        for (int i = 0; i < N; ++i) stride[i][k] = stride[i][d];
      }
    }
    if (ndim > 0) ndim = k + 1;
  }

  // Calls inner(ptrs, inner_strides, n) over [begin, end) of the flat (inner-first) index.
  template <typename Inner>
  void run_range(int64_t begin, int64_t end, Inner&& inner) const {
    if (ndim == 0) {
      char* p[N];
      for (int i = 0; i < N; ++i) p[i] = base[i];
      int64_t s[N] = {};
      inner(p, s, (int64_t)1);
      return;
    }
    int64_t idx[kMaxDims];
    int64_t rem = begin;
    for (int d = 0; d < ndim; ++d) {
      idx[d] = rem % size[d];
      rem /= size[d];
    }
    int64_t s0[N];
    for (int i = 0; i < N; ++i) s0[i] = stride[i][0];
    int64_t pos = begin;
    while (pos < end) {
      char* p[N];
      for (int i = 0; i < N; ++i) {
        p[i] = base[i];
        for (int d = 0; d < ndim; ++d) p[i] += idx[d] * stride[i][d];
      }
      int64_t n = std::min(size[0] - idx[0], end - pos);
      inner(p, s0, n);
      pos += n;
      idx[0] += n;
      for (int d = 0; d < ndim - 1 && idx[d] == size[d]; ++d) {
        idx[d] = 0;
        idx[d + 1]++;
      }
    }
  }

  template <typename Inner>
  void run(Inner&& inner) const {
    int64_t n = numel();
    int tdim = blocking_dim();
    if (tdim > 0) {
      run_blocked(inner, tdim);
      return;
    }
    parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) { run_range(b, e, inner); });
  }

  // Note [Blocked elementwise loops]
  // An input that walks the innermost dim with a large stride while being contiguous along
  // another dim (a transposed input) would miss cache on every element. The walk goes tile by
  // tile over those two dims instead, and each such input's tile is first packed into a small
  // contiguous buffer (read along its contiguous dim), so the inner loop runs contiguous.
  // Returns that other dim, or 0 when a plain walk is fine.
  int blocking_dim() const {
    if (ndim < 2 || numel() < kGrainSize) return 0;
    for (int i = 1; i < N; ++i) {
      if (elem[i] == 0 || stride[i][0] == 0 || stride[i][0] == elem[i]) continue;
      for (int d = 1; d < ndim; ++d)
        if (stride[i][d] == elem[i] && size[d] >= 16 && size[0] >= 16) return d;
    }
    return 0;
  }

  template <typename Inner>
  void run_blocked(Inner&& inner, int tdim) const {
    // A tile is kTileT whole rows of the output where the packed buffer allows (measured on
    // 4096x4096 float32: 32 whole rows beat 256x64 tiles by a third): the unpacked operands are
    // then walked as one contiguous region, and the packed one is read in pieces of kTileT
    // elements from each of its rows. The buffer stays within half of a 1 MiB L2.
    constexpr int64_t kTileT = 32, kPad = 16, kPackBytes = 512 << 10;
    const int64_t n0 = size[0], nt = size[tdim];
    int64_t widest = 1;
    for (int i = 0; i < N; ++i) widest = std::max(widest, elem[i]);
    const int64_t kTile0 = std::max<int64_t>(64, std::min(n0, kPackBytes / (kTileT * widest)));
    const int64_t tiles0 = (n0 + kTile0 - 1) / kTile0, tilest = (nt + kTileT - 1) / kTileT;
    int64_t outer = 1;
    for (int d = 1; d < ndim; ++d)
      if (d != tdim) outer *= size[d];
    bool packs[N];
    for (int i = 0; i < N; ++i)
      packs[i] = i > 0 && elem[i] > 0 && stride[i][tdim] == elem[i] && stride[i][0] != elem[i] && stride[i][0] != 0;
    struct Tile {
      char* origin[N];  // each operand's element (i0, j0)
      int64_t i0, m0, j0, mt;
    };
    auto tile_at = [&](int64_t w) {
      Tile t;
      int64_t t0 = w % tiles0, rest = w / tiles0, tt = rest % tilest, o = rest / tilest;
      for (int i = 0; i < N; ++i) t.origin[i] = base[i];
      for (int d = 1; d < ndim; ++d) {  // offsets of outer index o over the other dims
        if (d == tdim) continue;
        int64_t x = o % size[d];
        o /= size[d];
        for (int i = 0; i < N; ++i) t.origin[i] += x * stride[i][d];
      }
      t.i0 = t0 * kTile0, t.m0 = std::min(kTile0, n0 - t.i0);
      t.j0 = tt * kTileT, t.mt = std::min(kTileT, nt - t.j0);
      for (int i = 0; i < N; ++i) t.origin[i] += t.i0 * stride[i][0] + t.j0 * stride[i][tdim];
      return t;
    };
    // The unpacked rows of the next tile are asked for while this one is packed and computed,
    // non-temporal so they do not push this tile's packs out of L2 (measured: 5-15% faster).
    auto prefetch_unpacked = [&](const Tile& n) {
      for (int i = 0; i < N; ++i) {
        if (packs[i] || (stride[i][0] == 0 && stride[i][tdim] == 0)) continue;
        const int64_t bytes = n.m0 * elem[i];
        for (int64_t c = 0; c < n.mt; ++c) {
          const char* r = n.origin[i] + c * stride[i][tdim];
          for (int64_t x = 0; x < bytes; x += 64) {
            if (i == 0) __builtin_prefetch(r + x, 1, 0);
            else __builtin_prefetch(r + x, 0, 0);
          }
        }
      }
    };
    parallel_for(0, outer * tilest * tiles0, 1, [&](int64_t b, int64_t e) {
      // From the caching allocator: a fresh malloc of this size would be mmap'ed and page-faulted
      // (zeroed by the kernel) on every call. Without it (memory is out), the same tiles are
      // walked unpacked: slower, still right, and no exception escapes a worker thread.
      const int64_t pack_bytes = (kTile0 + kPad) * kTileT * widest;
      ScratchBuffer buffer(N * pack_bytes);
      char* pack[N];
      bool packed[N];
      for (int i = 0; i < N; ++i) {
        pack[i] = buffer.data() + i * pack_bytes;
        packed[i] = packs[i] && buffer.data();
      }
      Tile next = tile_at(b);
      for (int64_t w = b; w < e; ++w) {
        const Tile t = next;
        if (w + 1 < e) prefetch_unpacked(next = tile_at(w + 1));
        const int64_t m0 = t.m0, mt = t.mt;
        const int64_t ld = m0 + kPad;  // packed row length: padded, so rows do not share L1 sets
        for (int i = 0; i < N; ++i) {
          if (!packed[i]) continue;
          const char* src = t.origin[i];
          switch (elem[i]) {
            case 1: pack_tile<uint8_t>(src, stride[i][0], m0, mt, ld, pack[i]); break;
            case 2: pack_tile<uint16_t>(src, stride[i][0], m0, mt, ld, pack[i]); break;
            case 4:
              if (stride[i][0] % 4 == 0) transpose_tile_4byte(pack[i], src, mt, m0, ld, stride[i][0] / 4);
              else pack_tile<uint32_t>(src, stride[i][0], m0, mt, ld, pack[i]);
              break;
            default: pack_tile<uint64_t>(src, stride[i][0], m0, mt, ld, pack[i]); break;
          }
        }
        int64_t s[N];
        for (int i = 0; i < N; ++i) s[i] = packed[i] ? elem[i] : stride[i][0];
        for (int64_t c = 0; c < mt; ++c) {
          char* p[N];
          for (int i = 0; i < N; ++i)
            p[i] = packed[i] ? pack[i] + c * ld * elem[i] : t.origin[i] + c * stride[i][tdim];
          inner(p, s, m0);
        }
      }
    });
  }

 private:
  // Transposes an m0 x mt tile (rows stride_bytes apart, contiguous within a row) into dst, laid
  // out column by column: dst[c * ld + r] = src[r][c].
  template <typename E>
  static void pack_tile(const char* src, int64_t stride_bytes, int64_t m0, int64_t mt, int64_t ld, char* dst) {
    E* d = reinterpret_cast<E*>(dst);
    for (int64_t r = 0; r < m0; ++r) {
      const E* row = reinterpret_cast<const E*>(src + r * stride_bytes);
      for (int64_t c = 0; c < mt; ++c) d[c * ld + r] = row[c];
    }
  }

  bool should_swap(int a, int b) const {  // is dim a (currently inner) really outer to dim b?
    for (int i = 0; i < N; ++i) {
      int64_t sa = stride[i][a], sb = stride[i][b];
      if (sa == 0 || sb == 0) continue;  // broadcast dims do not decide the order
      if (sa != sb) return sa > sb;
    }
    return false;
  }
  void swap_dims(int a, int b) {
    std::swap(size[a], size[b]);
    for (int i = 0; i < N; ++i) std::swap(stride[i][a], stride[i][b]);
  }
};

}  // namespace jt
