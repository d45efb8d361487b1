// The forward of a convolution with few output positions and many channels, channels in lanes
// (Note [Channels in lanes] in conv_lanes.cpp): a ResNet's last stage at batch 1, 512 channels
// over a 7 × 7 plane.
//
// Note [Few positions] forward() in conv_lanes.cpp packs the whole weight first, then splits the
// positions of each sample between tasks, and each task runs every block of output channels over
// every input channel. At 7 × 7 a task has a tile or two of positions, so a 512-channel layer's
// 9.4 MB of packed weight went through the caches once per task, after the packing's own pass
// over it. Here a task owns a block of output channels for every position of every sample: it
// packs its block a run of input channels at a time, into a buffer that fits the first-level
// cache, runs every position's tile over that run, and keeps the sums (positions × the block's
// channels) between runs. The weight is read once, in its own order, and its packing never
// leaves the cache. The sums go in forward()'s order (the same tiles, channel after channel, tap
// after tap), so the two agree to the bit. JT_CONV_FEW=0 or 1, read each call, forces the choice
// (to measure the two: jt_bench's conv lines).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "jt/jt.h"
#include "parallel.h"

#include "kernels/vectorized/capability_namespace.h"
#include "kernels/vectorized/conv_lanes.h"
#include "kernels/vectorized/vector_types.h"

JT_CPU_CAP_BEGIN
namespace conv {
namespace lanes {
namespace {

// A run of a block's packed weight: within the first-level cache beside the tiles' inputs.
constexpr int64_t kRunBytes = 24 * 1024;

// Rows r = n·plane + o (every sample's positions) [r0, r1) for output channels [u0, u0 + count)
// of group gi: their sums into sums[r - r0][NV·L] (and up to a tile's rows more, which the last
// tile fills with copies of its last row). run holds a run's packing.
template <typename T, int NV>
void block_sums(const Grid& g, const T* planes, const T* weight, int64_t gi, int64_t u0, int64_t count, int64_t r0, int64_t r1,
                T* run, T* sums) {
  constexpr int NP = tile_positions<NV>(), W = NV * Vec<T>::lanes;
  const int64_t taps = g.taps(), cg = g.cg, plane = g.out_plane(), size = g.size();
  const int64_t per_run = std::max<int64_t>(1, kRunBytes / (taps * W * (int64_t)sizeof(T)));
  const T* xs[NP];
  for (int64_t c0 = 0; c0 < cg; c0 += per_run) {
    const int64_t c1 = std::min(cg, c0 + per_run), j = (c1 - c0) * taps;
    // run[(c - c0)·taps + t][u] = weight[u0 + u][c][t]: each output channel's run is one stretch of the weight
    transpose(weight + ((gi * g.og + u0) * cg + c0) * taps, cg * taps, count, j, run, W);
    if (count < W)
      for (int64_t i = 0; i < j; ++i) std::fill(run + i * W + count, run + (i + 1) * W, T(0));
    for (int64_t r = r0; r < r1; r += NP) {
      const int64_t m = std::min<int64_t>(NP, r1 - r);
      for (int p = 0; p < NP; ++p) {
        const int64_t q = r + std::min<int64_t>(p, m - 1), n = q / plane;  // past the end: the last again
        xs[p] = planes + (n * g.channels + gi * cg + c0) * size + g.window[q % plane];
      }
      forward_tile<T, NP, NV>(xs, g.tap.data(), taps, c1 - c0, size, run, sums + (r - r0) * W, c0 > 0);
    }
  }
}

// sums[r - r0][u] (rows W apart) plus the bias into y's planes of output channels [u0, u0 + count) of group gi.
template <typename T>
void write_sums(const Grid& g, const T* sums, int64_t W, int64_t gi, int64_t u0, int64_t count, int64_t r0, int64_t r1, const T* bias,
                T* y) {
  const int64_t plane = g.out_plane();
  for (int64_t r = r0; r < r1;) {
    const int64_t n = r / plane, o = r % plane, m = std::min(r1, (n + 1) * plane) - r;
    T* dst = y + (n * g.out_channels + gi * g.og + u0) * plane + o;
    transpose(sums + (r - r0) * W, W, m, count, dst, plane);
    if (bias)
      for (int64_t u = 0; u < count; ++u) {
        const T add = bias[gi * g.og + u0 + u];
        for (int64_t p = 0; p < m; ++p) dst[u * plane + p] += add;
      }
    r += m;
  }
}

// ---- the input's gradient ----

// A run of a block's packed weight for the input's gradient ([t][u][NV·L] for a run of output
// channels): within the second-level cache, where the tiles read each tap's part of it once a tile.
constexpr int64_t kGradRunBytes = 192 * 1024;

// dst[t·ld + c] = src[c·taps + t] for c < count, t < taps (one output channel's weights, [c][t],
// to a row of channels a tap): a vector square of channels at a time, each channel's taps read as
// whole vectors (lanes past its taps are the next channel's, read and dropped) wherever the
// square's last vector ends before end; the rest one by one.
template <typename T>
void taps_to_rows(const T* src, int64_t taps, int64_t count, const T* end, T* dst, int64_t ld) {
  constexpr int L = Vec<T>::lanes;
  alignas(64) T square[L * L];
  int64_t c = 0;
  for (; c + L <= count; c += L)
    for (int64_t t = 0; t < taps; t += L) {
      const T* from = src + c * taps + t;
      const int64_t m = std::min<int64_t>(L, taps - t);
      if (m == L) {
        transpose_block(from, taps, dst + t * ld + c, ld);
      } else if (from + (L - 1) * taps + L <= end) {
        transpose_block(from, taps, square, L);
        for (int64_t j = 0; j < m; ++j) store(dst + (t + j) * ld + c, load(square + j * L));
      } else {
        for (int64_t j = 0; j < m; ++j)
          for (int64_t i = 0; i < L; ++i) dst[(t + j) * ld + c + i] = from[i * taps + j];
      }
    }
  for (; c < count; ++c)
    for (int64_t t = 0; t < taps; ++t) dst[t * ld + c] = src[c * taps + t];
}

// Input channels [c0, c0 + count) of group gi, samples [n0, n1): every output channel's products,
// a run of output channels at a time, into grids (one a sample, size() rows NV·L apart, zeroed).
template <typename T, int NV>
void block_input_grad(const Grid& g, const T* gy, const T* weight, int64_t gi, int64_t c0, int64_t count, int64_t n0, int64_t n1,
                      T* run, T* grids, T* sink) {
  constexpr int W = NV * Vec<T>::lanes;
  const int64_t taps = g.taps(), og = g.og, plane = g.out_plane();
  const int64_t per_run = std::max<int64_t>(1, kGradRunBytes / (taps * W * (int64_t)sizeof(T)));
  const T* end = weight + g.out_channels * g.cg * taps;
  for (int64_t u0 = 0; u0 < og; u0 += per_run) {
    const int64_t k = std::min(per_run, og - u0);
    for (int64_t u = 0; u < k; ++u) {  // run[t][u][c] = weight[gi·og + u0 + u][c0 + c][t], zeros past count
      taps_to_rows(weight + ((gi * og + u0 + u) * g.cg + c0) * taps, taps, count, end, run + u * W, k * W);
      if (count < W)
        for (int64_t t = 0; t < taps; ++t) std::fill(run + (t * k + u) * W + count, run + (t * k + u + 1) * W, T(0));
    }
    for (int64_t n = n0; n < n1; ++n)
      scatter_sample<T, NV>(g, gy + (n * g.out_channels + gi * og + u0) * plane, run, k, grids + (n - n0) * g.size() * W, sink);
  }
}

}  // namespace

// Where the weight is past the second-level cache (1 MB: forward() then streams it from further out
// once per task) and a block's sums for every position stay within it (at most 2,048 positions:
// 512 KB of float sums for four vectors of channels). Measured against forward() at 2 threads
// (docs/performance.md, session 35): 512 and 256 channels 0.7-0.97 of its time from 49 to 1,568
// positions, 1.35 at 6,272; 64 and 128 channels (weights of 147 and 590 KB) 1.05-1.2.
template <typename T>
bool takes_few_positions(const Grid& g) {
  if (const char* forced = std::getenv("JT_CONV_FEW")) return std::atoi(forced) == 1;
  return g.out_channels * g.cg * g.taps() * (int64_t)sizeof(T) > (1 << 20) && g.batch * g.out_plane() <= 2048;
}

template <typename T>
int forward_few_positions(const Grid& g, const T* x, const T* weight, const T* bias, T* y) {
  constexpr int L = Vec<T>::lanes;
  constexpr int64_t span = kMaxVectors * L, most_tile = 8;
  const int64_t rows = g.batch * g.out_plane(), blocks = (g.og + span - 1) / span, tasks = g.groups * blocks;
  Scratch<T> planes_at(g.batch * g.channels * g.size());  // zeroed: the padding
  T* planes = planes_at.data();
  if (!planes) return JT_OUT_OF_MEMORY;
  parallel_for(0, g.batch * g.groups, 1, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t n = t / g.groups, c0 = t % g.groups * g.cg;
      g.to_planes(x, g.channels, n, c0, g.cg, planes + (n * g.channels + c0) * g.size());
    }
  });
  // Positions are split only when the blocks are too few to keep the threads busy (each share reads the block's weight again).
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>((rows + 7) / 8, (2 * get_num_threads() + tasks - 1) / tasks));
  std::atomic<int> status(JT_OK);
  parallel_for(0, tasks * parts, 1, [&](int64_t t0, int64_t t1) {
    Scratch<T> run_at(std::max<int64_t>(kRunBytes / (int64_t)sizeof(T), g.taps() * span), false);
    Scratch<T> sums_at(((rows + parts - 1) / parts + most_tile) * span, false);  // every element read was written first
    if (!run_at.data() || !sums_at.data()) {
      status.store(JT_OUT_OF_MEMORY);
      return;
    }
    for (int64_t task = t0; task < t1; ++task) {
      const int64_t gi = task / (blocks * parts), b = task / parts % blocks, part = task % parts;
      const int64_t r0 = part * rows / parts, r1 = (part + 1) * rows / parts, u0 = b * span;
      const int64_t nv = std::min<int64_t>(kMaxVectors, (g.og - u0 + L - 1) / L), count = std::min<int64_t>(nv * L, g.og - u0);
      with_vectors(nv, [&](auto NV) {
        block_sums<T, NV>(g, planes, weight, gi, u0, count, r0, r1, run_at.data(), sums_at.data());
        write_sums(g, sums_at.data(), NV * L, gi, u0, count, r0, r1, bias, y);
      });
    }
  });
  return status.load();
}

// Note [Few positions, the input's gradient] input_grad() in conv_lanes.cpp packs the whole weight
// ([t][u][c] for blocks of input channels) before a task per sample and block scatters its
// products; at batch 1 the packing's pass over a 512-channel weight was a third of the call. Here
// a task owns a block of input channels for its samples and packs a run of output channels at a
// time, which its tiles then read from the second-level cache. A grid element's sums go run after
// run (input_grad() adds one sum over every output channel a tap and tile), so the two round
// differently; conv_lanes_few_test checks both against a float64 loop.
template <typename T>
int input_grad_few_positions(const Grid& g, const T* gy, const T* weight, T* gx) {
  constexpr int L = Vec<T>::lanes;
  constexpr int64_t span = kMaxVectors * L;
  const int64_t blocks = (g.cg + span - 1) / span, tasks = g.groups * blocks;
  // Samples are split only when the blocks are too few to keep the threads busy (each share packs the block's weight again).
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(g.batch, (2 * get_num_threads() + tasks - 1) / tasks));
  const int64_t most_samples = (g.batch + parts - 1) / parts;
  std::atomic<int> status(JT_OK);
  parallel_for(0, tasks * parts, 1, [&](int64_t t0, int64_t t1) {
    Scratch<T> run_at(std::max<int64_t>(kGradRunBytes / (int64_t)sizeof(T), g.taps() * span), false);
    Scratch<T> grids_at(most_samples * g.size() * span + span, false);  // the last vectors: the sink
    if (!run_at.data() || !grids_at.data()) {
      status.store(JT_OUT_OF_MEMORY);
      return;
    }
    for (int64_t task = t0; task < t1; ++task) {
      const int64_t gi = task / (blocks * parts), b = task / parts % blocks, part = task % parts;
      const int64_t n0 = part * g.batch / parts, n1 = (part + 1) * g.batch / parts, c0 = b * span;
      const int64_t nv = std::min<int64_t>(kMaxVectors, (g.cg - c0 + L - 1) / L), count = std::min<int64_t>(nv * L, g.cg - c0);
      T* grids = grids_at.data();
      std::memset(grids, 0, (size_t)((n1 - n0) * g.size() * nv * L) * sizeof(T));
      with_vectors(nv, [&](auto NV) {
        block_input_grad<T, NV>(g, gy, weight, gi, c0, count, n0, n1, run_at.data(), grids, grids_at.data() + most_samples * g.size() * span);
      });
      for (int64_t n = n0; n < n1; ++n) g.from_grid(grids + (n - n0) * g.size() * nv * L, nv * L, gx, g.channels, n, gi * g.cg + c0, count);
    }
  });
  return status.load();
}

template bool takes_few_positions<float>(const Grid&);
template bool takes_few_positions<double>(const Grid&);
template int forward_few_positions<float>(const Grid&, const float*, const float*, const float*, float*);
template int forward_few_positions<double>(const Grid&, const double*, const double*, const double*, double*);
template int input_grad_few_positions<float>(const Grid&, const float*, const float*, float*);
template int input_grad_few_positions<double>(const Grid&, const double*, const double*, double*);

}  // namespace lanes
}  // namespace conv
JT_CPU_CAP_END
