// The weight's gradient (mode 2 of plans.h's conv plan) with the output channels along the vector
// lanes, at any stride (Note [Channels in lanes] in conv_lanes.cpp): gw[u][c][t] = Σ_n Σ_o
// x[c][window[o] + tap[t]] · gy[o][u], input channels × taps × vectors of u in registers. Each
// weight's sum runs sample after sample, position after position, whatever the thread count.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "jt/jt.h"
#include "parallel.h"

#include "kernels/vectorized/capability_namespace.h"
#include "kernels/vectorized/conv_lanes.h"
#include "kernels/vectorized/vector_types.h"

JT_CPU_CAP_BEGIN
namespace conv {
namespace lanes {
namespace {

// acc[c][t][NV·L] += x[window[o] + tap[t] + c] · gy[o][NV·L] over a sample's positions o (x
// channels-last, window and tap in elements: the channels are constant displacements, so the
// broadcasts need no address registers of their own).
template <typename T, int NC, int KT, int NV>
void weight_tile(const T* x, int64_t plane, const int64_t* window, int64_t positions, const int64_t* tap, const T* gy, int64_t ldy, T* acc_at,
                 int64_t acc_c, int64_t acc_t) {
  using V = typename Vec<T>::type;
  constexpr int L = Vec<T>::lanes;
  V acc[NC][KT][NV];
  for (int c = 0; c < NC; ++c)
    for (int t = 0; t < KT; ++t)
      for (int v = 0; v < NV; ++v) acc[c][t][v] = load(acc_at + c * acc_c + t * acc_t + v * L);
  int64_t off[KT];
  for (int t = 0; t < KT; ++t) off[t] = tap[t];
  for (int64_t o = 0; o < positions; ++o, gy += ldy) {
    const T* xr = x + window[o];
    V y[NV];
    for (int v = 0; v < NV; ++v) y[v] = load(gy + v * L);
    for (int c = 0; c < NC; ++c)
      for (int t = 0; t < KT; ++t) {
        const T xv = xr[c * plane + off[t]];
        for (int v = 0; v < NV; ++v) acc[c][t][v] += y[v] * xv;
      }
  }
  for (int c = 0; c < NC; ++c)
    for (int t = 0; t < KT; ++t)
      for (int v = 0; v < NV; ++v) store(acc_at + c * acc_c + t * acc_t + v * L, acc[c][t][v]);
}

// Input channels [c0, c1) × every tap of one sample for NV vectors of output channels, blocks of
// tile_channels(KT, NV) channels then one at a time.
template <typename T, int KT, int NV>
void weight_channels(const T* x, int64_t plane, const int64_t* window, int64_t positions, const int64_t* tap, const T* gy, int64_t ldy, T* acc,
                     int64_t acc_c, int64_t acc_t, int64_t c0, int64_t c1) {
  constexpr int NC = tile_channels(KT, NV);
  int64_t c = c0;
  for (; c + NC <= c1; c += NC) weight_tile<T, NC, KT, NV>(x + c * plane, plane, window, positions, tap, gy, ldy, acc + c * acc_c, acc_c, acc_t);
  for (; c < c1; ++c) weight_tile<T, 1, KT, NV>(x + c * plane, plane, window, positions, tap, gy, ldy, acc + c * acc_c, acc_c, acc_t);
}

template <typename T, int NV>
void weight_taps(int kt, const T* x, int64_t plane, const int64_t* window, int64_t positions, const int64_t* tap, const T* gy, int64_t ldy, T* acc,
                 int64_t acc_c, int64_t acc_t, int64_t c0, int64_t c1) {
  switch (kt) {
    case 1: weight_channels<T, 1, NV>(x, plane, window, positions, tap, gy, ldy, acc, acc_c, acc_t, c0, c1); break;
    case 2: weight_channels<T, 2, NV>(x, plane, window, positions, tap, gy, ldy, acc, acc_c, acc_t, c0, c1); break;
    default: weight_channels<T, 3, NV>(x, plane, window, positions, tap, gy, ldy, acc, acc_c, acc_t, c0, c1); break;
  }
}

}  // namespace

// One parallel pass: each task owns (group, input channels, output vectors) of the sums
// A[group][c][t][u] and, sample after sample, copies its own input channels into padded planes and
// its own output channels of gy into rows [o][u], then adds that sample's products. No pass per
// group of samples to copy them first, so no hand-off between the threads but the one.
template <typename T>
int weight_grad(const Grid& g, const T* x, const T* gy, T* gw) {
  constexpr int L = Vec<T>::lanes;
  const int64_t taps = g.taps(), cg = g.cg, og = g.og, plane = g.out_plane();
  const int64_t ov = (og + L - 1) / L, acc_t = ov * L, acc_c = taps * acc_t;
  Scratch<T> as(g.groups * cg * taps * acc_t);
  T* A = as.data();
  if (!A) return JT_OUT_OF_MEMORY;
  // input channels in units of a full tile's (up to three taps, the block's vectors): no split
  // leaves channels to the one-channel tiles (a 1 × 1 kernel's tile takes 8 channels, not 4)
  const int unit = tile_channels((int)std::min<int64_t>(3, taps), (int)std::min<int64_t>(ov, kMaxVectors));
  // a task a thread: each copies its own share of every sample, so more tasks would copy gy's rows more often
  const TaskSplit split(cg, unit, ov, kMaxVectors, g.groups, 1);
  std::atomic<int> status(JT_OK);
  parallel_for(0, g.groups * split.per_group(), 1, [&](int64_t t0, int64_t t1) {
    for (int64_t task = t0; task < t1; ++task) {
      int64_t gi, c0, c1, v0, v1;
      if (!split.at(task, gi, c0, c1, v0, v1)) continue;
      const int64_t nc = c1 - c0, ldy = (v1 - v0) * L, u0 = v0 * L, count = std::min(og - u0, ldy);
      // the planes zeroed once (their padding stays 0); the rows written whole before they are read
      Scratch<T> planes_at(nc * g.size()), rows_at(plane * ldy, false);
      T *planes = planes_at.data(), *rows = rows_at.data();
      if (!planes || !rows) {
        status.store(JT_OUT_OF_MEMORY);
        return;
      }
      for (int64_t n = 0; n < g.batch; ++n) {
        g.to_planes(x, g.channels, n, gi * cg + c0, nc, planes);
        to_rows(g, gy, g.out_channels, n, gi * og + u0, count, rows, ldy, ldy);
        for (int64_t vb = v0; vb < v1; vb += kMaxVectors) {
          const int nv = (int)std::min<int64_t>(kMaxVectors, v1 - vb);
          const T* yn = rows + (vb - v0) * L;
          for (int64_t t = 0; t < taps; t += 3) {
            const int kt = (int)std::min<int64_t>(3, taps - t);
            T* acc = A + ((gi * cg + c0) * taps + t) * acc_t + vb * L;
            const int64_t* tp = g.tap.data() + t;
            const int64_t* wd = g.window.data();
            with_vectors(nv, [&](auto NV) { weight_taps<T, NV>(kt, planes, g.size(), wd, plane, tp, yn, ldy, acc, acc_c, acc_t, 0, nc); });
          }
        }
      }
    }
  });
  if (status.load() != JT_OK) return status.load();
  sums_to_weight(A, acc_t, g.groups, og, cg * taps, gw);
  return JT_OK;
}

template int weight_grad<float>(const Grid&, const float*, const float*, float*);
template int weight_grad<double>(const Grid&, const double*, const double*, double*);

}  // namespace lanes
}  // namespace conv
JT_CPU_CAP_END
