// The geometry and register blocks of the direct convolution with channels along the vector lanes
// (Note [Channels in lanes] in conv_lanes.cpp), shared by its forward and input-gradient kernels
// (conv_lanes.cpp) and its weight-gradient kernel (conv_lanes_weight_grad.cpp). Compiled into each
// CPU capability's namespace.
#pragma once
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "jt/plans.h"
#include "kernels/vectorized/capability_namespace.h"
#include "kernels/vectorized/conv_geometry.h"
#include "kernels/vectorized/vector_types.h"
#include "parallel.h"

JT_CPU_CAP_BEGIN
namespace conv {
namespace lanes {

// Register blocks: at most kMaxVectors vectors of channels a tile, kAccumulators accumulators.
#if defined(JT_CPU_CAP_avx512)
constexpr int kMaxVectors = 4, kAccumulators = 24;
#else
constexpr int kMaxVectors = 2, kAccumulators = 12;
#endif

// A tile's positions for NV vectors (forward and input gradient): one pointer a position, so at most 8.
template <int NV>
constexpr int tile_positions() {
  return std::min(8, kAccumulators / NV);
}

// The weight gradient's input channels a tile for kt taps and nv vectors of output channels.
constexpr int tile_channels(int kt, int nv) {
  return std::clamp(kAccumulators / (kt * nv), 1, 8);
}

// f(std::integral_constant<int, nv>{}) for a block's nv vectors (1 to kMaxVectors): the one place
// the kernels' vector counts become template arguments.
template <typename F>
inline void with_vectors(int64_t nv, F&& f) {
  switch (nv) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
#if defined(JT_CPU_CAP_avx512)
    case 3: f(std::integral_constant<int, 3>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
#endif
    default: break;
  }
}

// The weights as the tiles read them: per group and block of kMaxVectors vectors along the lanes
// (lane channels l < count), [i][k][nv·L] for i < ni, k < nk, nv the block's vectors, at(gi, i, k,
// l) each entry; zeros past count.
template <typename T>
struct Packed {
  int64_t vectors = 0, blocks = 0, per_block = 0;  // along the lanes a group; blocks of them; entries a block
  int64_t nk = 1;

  // Zeros, for a caller that writes each entry through entry() in its own order. The bytes come
  // from the caching allocator (a weight's packing is made every call: a std::vector of a deep
  // layer's 10 MB was fresh pages to fault in and zero each time); check ok().
  Packed(int64_t groups, int64_t count, int64_t ni, int64_t nk)
      : vectors((count + Vec<T>::lanes - 1) / Vec<T>::lanes),
        blocks((vectors + kMaxVectors - 1) / kMaxVectors),
        per_block(ni * nk * kMaxVectors * Vec<T>::lanes),
        nk(nk),
        storage_(groups * blocks * per_block) {}

  // at(gi, i, k, l) for every entry, L lane channels at a time: each (i, k) then writes one whole
  // line, and at() reads L streams in order (each lane channel's weights in the weight's own
  // [out][in][taps] layout, for the forward); blocks in parallel. (Read l innermost and on one
  // thread, a 512-channel 3 × 3 layer's packing took longer than its batch-1 products.)
  template <typename At>
  Packed(int64_t groups, int64_t count, int64_t ni, int64_t nk, At at) : Packed(groups, count, ni, nk) {
    constexpr int L = Vec<T>::lanes;
    if (!ok()) return;
    parallel_for(0, groups * blocks, std::max<int64_t>(1, kGrainSize / per_block), [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        const int64_t gi = p / blocks, b = p % blocks, nv = vectors_in(b), l0 = b * kMaxVectors * L;
        T* dst = storage_.data() + p * per_block;
        for (int64_t j0 = 0; j0 < nv * L && l0 + j0 < count; j0 += L) {  // a vector's lanes at a time: whole lines written
          const int64_t lanes = std::min<int64_t>(L, count - l0 - j0);
          for (int64_t i = 0; i < ni; ++i)
            for (int64_t k = 0; k < nk; ++k) {
              T* d = dst + (i * nk + k) * nv * L + j0;
              for (int64_t j = 0; j < lanes; ++j) d[j] = at(gi, i, k, l0 + j0 + j);
            }
        }
      }
    });
  }

  bool ok() const { return storage_.data() != nullptr; }

  // Where at(gi, i, k, l) lives: in block l / (kMaxVectors·L), at l's place among that block's lanes.
  T& entry(int64_t gi, int64_t i, int64_t k, int64_t l) {
    constexpr int64_t L = Vec<T>::lanes, span = kMaxVectors * L;
    const int64_t b = l / span;
    return storage_.data()[(gi * blocks + b) * per_block + (i * nk + k) * vectors_in(b) * L + l % span];
  }

  int64_t vectors_in(int64_t b) const { return std::min<int64_t>(kMaxVectors, vectors - b * kMaxVectors); }
  const T* block(int64_t gi, int64_t b) const { return storage_.data() + (gi * blocks + b) * per_block; }

 private:
  Scratch<T> storage_;  // zeroed: lanes past count stay 0
};

// The geometry: spatial dims as three (leading ones of size 1), the padded input as a grid of
// every position a window reads.
struct Grid {
  int64_t batch = 0, groups = 1, channels = 0, out_channels = 0, cg = 0, og = 0;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, before[3] = {0, 0, 0};
  int64_t kernel[3] = {1, 1, 1}, dilation[3] = {1, 1, 1}, stride[3] = {1, 1, 1};
  int64_t extent[3] = {1, 1, 1};  // stride·(out − 1) + dilation·(kernel − 1) + 1
  int64_t gs[3] = {0, 0, 1};      // the grid's strides, in positions
  std::vector<int64_t> tap;       // per tap (row-major over the kernel), its offset from a window's start
  std::vector<int64_t> window;    // per output position (row-major), its window's start in the grid

  int64_t taps() const { return (int64_t)tap.size(); }
  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
  int64_t size() const { return extent[0] * extent[1] * extent[2]; }
  // The input's elements the grid holds per dim: those before the grid's end.
  int64_t held(int d) const { return std::max<int64_t>(0, std::min(in[d], extent[d] - before[d])); }

  // False for numbers that describe no convolution (Java checks them first; this guards the kernel).
  bool read(const conv_plan& r) {
    if (!read_sizes(r)) return false;
    tap.clear();
    for (int64_t a = 0; a < kernel[0]; ++a)
      for (int64_t b = 0; b < kernel[1]; ++b)
        for (int64_t k = 0; k < kernel[2]; ++k) tap.push_back(a * dilation[0] * gs[0] + b * dilation[1] * gs[1] + k * dilation[2]);
    window.clear();
    for (int64_t a = 0; a < out[0]; ++a)
      for (int64_t b = 0; b < out[1]; ++b)
        for (int64_t x = 0; x < out[2]; ++x) window.push_back(a * stride[0] * gs[0] + b * stride[1] * gs[1] + x * stride[2]);
    return true;
  }

  // read's checks and sizes without the offsets per tap and per output position (Winograd's kernel
  // needs the plan checked, not the offsets).
  bool read_sizes(const conv_plan& r) {
    if (!counts_valid(r)) return false;
    batch = r.batch, groups = r.groups, channels = r.channels, out_channels = r.out_channels;
    cg = channels / groups, og = out_channels / groups;
    const int first = 3 - (int)r.nsp;
    for (int d = 0; d < (int)r.nsp; ++d) {
      const int e = first + d;
      in[e] = r.in_sizes[d], out[e] = r.out_sizes[d], kernel[e] = r.kernel[d], before[e] = r.pad_before[d];
      dilation[e] = r.dilation[d], stride[e] = r.stride[d];
      if (in[e] < 1 || kernel[e] < 1 || dilation[e] < 1 || stride[e] < 1 || before[e] < 0 || r.pad_after[d] < 0) return false;
      const int64_t span = in[e] + before[e] + r.pad_after[d] - dilation[e] * (kernel[e] - 1);
      if (span < 1 || out[e] != (span - 1) / stride[e] + 1) return false;
      extent[e] = stride[e] * (out[e] - 1) + dilation[e] * (kernel[e] - 1) + 1;
    }
    gs[1] = extent[2];
    gs[0] = extent[1] * extent[2];
    return true;
  }

  // Channels [c0, c0 + count) of sample n of t ([batch, total, in...]) into padded planes of
  // size() each: row by row, only the input's positions (the caller zeroed the planes once, and
  // every copy writes the same places).
  template <typename T>
  void to_planes(const T* t, int64_t total, int64_t n, int64_t c0, int64_t count, T* planes) const {
    const int64_t h0 = held(0), h1 = held(1), h2 = held(2), lead = before[0] * gs[0] + before[1] * gs[1] + before[2];
    for (int64_t c = 0; c < count; ++c) {
      const T* src = t + (n * total + c0 + c) * in_plane();
      T* dst = planes + c * size() + lead;
      for (int64_t a = 0; a < h0; ++a)
        for (int64_t b = 0; b < h1; ++b) copy_row(dst + a * gs[0] + b * gs[1], src + (a * in[1] + b) * in[2], h2);
    }
  }

  // The input's gradient from a channels-last grid: its columns [0, count) (rows ld apart) into
  // channels [c0, c0 + count) of sample n of t ([batch, total, in...]), 0 for positions past the
  // grid (no window reads them). Row by row, in vector-square blocks.
  template <typename T>
  void from_grid(const T* grid, int64_t ld, T* t, int64_t total, int64_t n, int64_t c0, int64_t count) const {
    const int64_t h0 = held(0), h1 = held(1), h2 = held(2);
    T* sample = t + (n * total + c0) * in_plane();
    for (int64_t a = 0; a < in[0]; ++a)
      for (int64_t b = 0; b < in[1]; ++b) {
        const int64_t m = a < h0 && b < h1 ? h2 : 0;
        const T* src = grid + ((a + before[0]) * gs[0] + (b + before[1]) * gs[1] + before[2]) * ld;
        T* dst = sample + (a * in[1] + b) * in[2];
        transpose(src, ld, m, count, dst, in_plane());
        for (int64_t c = 0; c < count; ++c)
          for (int64_t x = m; x < in[2]; ++x) dst[c * in_plane() + x] = T(0);
      }
  }
};

// Channels [u0, u0 + count) of sample n of t ([batch, total, out...]) as rows [o][ld]: columns [0,
// count), then zeros to width.
template <typename T>
void to_rows(const Grid& g, const T* t, int64_t total, int64_t n, int64_t u0, int64_t count, T* rows, int64_t ld, int64_t width) {
  const int64_t plane = g.out_plane();
  transpose(t + (n * total + u0) * plane, plane, count, plane, rows, ld);
  for (int64_t o = 0; o < plane; ++o)  // the last vector's lanes past count: zeros (its sums are dropped, but no NaN or denormal to load)
    for (int64_t u = count; u < width; ++u) rows[o * ld + u] = T(0);
}

// tile[p][NV·L] = Σ_c Σ_t x[p][c·plane + tap[t]] · w[c][t][NV·L], added to what tile holds when
// accumulate (a later run of channels: the sums then go on in the same order as in one run); x[p]
// is position p's window start in the first channel's plane.
template <typename T, int NP, int NV>
inline void forward_tile(const T* const* xs, const int64_t* tap, int64_t taps, int64_t cin, int64_t plane, const T* w, T* tile,
                         bool accumulate = false) {
  using V = typename Vec<T>::type;
  constexpr int L = Vec<T>::lanes;
  V acc[NP][NV];
  for (int p = 0; p < NP; ++p)
    for (int v = 0; v < NV; ++v) acc[p][v] = accumulate ? load(tile + (p * NV + v) * L) : V{};
  const T* x[NP];
  for (int p = 0; p < NP; ++p) x[p] = xs[p];
  for (int64_t c = 0; c < cin; ++c) {
    for (int64_t t = 0; t < taps; ++t, w += NV * L) {
      const int64_t off = tap[t];
      V wv[NV];
      for (int v = 0; v < NV; ++v) wv[v] = load(w + v * L);
      for (int p = 0; p < NP; ++p) {
        const T xv = x[p][off];  // a scalar operand: one broadcast from memory
        for (int v = 0; v < NV; ++v) acc[p][v] += wv[v] * xv;
      }
    }
    for (int p = 0; p < NP; ++p) x[p] += plane;
  }
  for (int p = 0; p < NP; ++p)
    for (int v = 0; v < NV; ++v) store(tile + (p * NV + v) * L, acc[p][v]);
}

// d[p][NV·L] += Σ_u gy[p][u·plane] · w[u][NV·L] for NP positions: one tap's products.
template <typename T, int NP, int NV>
inline void scatter_tile(const T* const* gys, int64_t plane, int64_t count, const T* w, T* const* d) {
  using V = typename Vec<T>::type;
  constexpr int L = Vec<T>::lanes;
  V acc[NP][NV];
  for (int p = 0; p < NP; ++p)
    for (int v = 0; v < NV; ++v) acc[p][v] = V{};
  const T* gy[NP];
  for (int p = 0; p < NP; ++p) gy[p] = gys[p];
  for (int64_t u = 0; u < count; ++u, w += NV * L) {
    V wv[NV];
    for (int v = 0; v < NV; ++v) wv[v] = load(w + v * L);
    for (int p = 0; p < NP; ++p) {
      const T gv = *gy[p];
      gy[p] += plane;
      for (int v = 0; v < NV; ++v) acc[p][v] += wv[v] * gv;
    }
  }
  for (int p = 0; p < NP; ++p)
    for (int v = 0; v < NV; ++v) store(d[p] + v * L, load(d[p] + v * L) + acc[p][v]);
}

// Every tap's products of one sample and group over count output channels into grid (rows NV·L
// apart) for a block of NV vectors of input channels: w packed [t][u][NV·L], gy the first of the
// channels' output gradient, read in place; a tile's positions past the end read the last one's
// and add into sink.
template <typename T, int NV>
inline void scatter_sample(const Grid& g, const T* gy, const T* w, int64_t count, T* grid, T* sink) {
  constexpr int NP = tile_positions<NV>(), L = Vec<T>::lanes;
  const int64_t plane = g.out_plane();
  const T* gys[NP];
  T* d[NP];
  for (int64_t t = 0; t < g.taps(); ++t, w += count * NV * L)  // taps outer: the tap's weights stay in cache
    for (int64_t o = 0; o < plane; o += NP) {
      const int64_t m = std::min<int64_t>(NP, plane - o);
      for (int p = 0; p < NP; ++p) {
        gys[p] = gy + o + std::min<int64_t>(p, m - 1);
        d[p] = p < m ? grid + (g.window[o + p] + g.tap[t]) * NV * L : sink;
      }
      scatter_tile<T, NP, NV>(gys, plane, count, w, d);
    }
}

template <typename T>
int forward(const Grid& g, const T* x, const T* weight, const T* bias, T* y);
// The forward and input gradient for few output positions and many channels (conv_lanes_few.cpp):
// whether a plan takes them, and the runs.
template <typename T>
bool takes_few_positions(const Grid& g);
template <typename T>
int forward_few_positions(const Grid& g, const T* x, const T* weight, const T* bias, T* y);
template <typename T>
int input_grad_few_positions(const Grid& g, const T* gy, const T* weight, T* gx);
template <typename T>
int input_grad(const Grid& g, const T* gy, const T* weight, T* gx);
template <typename T>
int weight_grad(const Grid& g, const T* x, const T* gy, T* gw);

}  // namespace lanes
}  // namespace conv
JT_CPU_CAP_END
