// The direct convolution's weight gradient (mode 2 of plans.h's conv plan) on the CPU, over the
// flat padded planes of conv_geometry.h, in one of two layouts (Note [Weight gradient by output lanes]).
// Both sum each weight's products sample by sample, position by position, in one order whatever the
// thread count: a task owns a set of weights, never a share of one weight's sum.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "jt/jt.h"
#include "kernels/kernels.h"
#include "parallel.h"

#include "kernels/vectorized/capability_namespace.h"
#include "kernels/vectorized/conv_geometry.h"
#include "kernels/vectorized/vector_types.h"

JT_CPU_CAP_BEGIN
namespace conv {
namespace {

// Note [Weight gradient by output lanes] grad_w[o][c][t] = Σ_q gy[o][q] · image[c][q + off[t]] is
// a product of two runs along the positions q. With the lanes along q (by_positions), each FMA
// takes two loaded vectors and each weight ends as a vector of lane sums, added up at the end. With
// the lanes along the output channels (by_output_lanes), a sample's gy is first transposed to
// [q][o], and each FMA takes one loaded vector of o's and one broadcast image element, as the
// forward broadcasts its weights: the accumulators are the gradient itself, and the vector loads
// fewer and aligned. It took 0.35-0.95 of by_positions' time at the CNN's and the ResNet's shapes
// (docs/performance.md, session 16), but it fills its lanes only with a vector's worth of output
// channels a group, so depthwise and narrow convolutions (and one input channel, which leaves too
// few tasks) keep by_positions.
#if defined(JT_CPU_CAP_avx512)
constexpr int kGradOut = 4, kLaneOut = 4;
#else
constexpr int kGradOut = 2, kLaneOut = 2;
#endif
// by_positions' blocks: kGradOut output channels × kGradIn input channels × up to kTapRun taps of a
// row; by_output_lanes': kGradIn input channels × kTapRun taps × kLaneOut vectors of output channels.
constexpr int kGradIn = 2, kTapRun = 3;
constexpr int64_t kGradChunk = 1024;  // by_positions' positions per pass: its rows stay in L1
// by_output_lanes: the transposed gy's rows per pass, within L2 (a pass reloads and stores its
// accumulators: 16 KiB passes, which kept the rows in L1, were 9% slower at 7 × 7 to 56 × 56);
// samples are padded and transposed kGroupBytes at a time, so the scratch stays bounded whatever the batch.
constexpr int64_t kLaneChunkBytes = 256 << 10, kGroupBytes = 4 << 20;

template <typename T>
inline T lane_sum(typename Vec<T>::type v) {
  T s = 0;
  for (int i = 0; i < Vec<T>::lanes; ++i) s += v[i];
  return s;
}

// acc[o][c][k] (vectors of T, in memory between calls: gw_o, gw_c and 1 vectors apart) += gy[o][q] ·
// image[c][q + k·step] lane by lane, over q in [0, count) (a multiple of one vector). The lanes
// are summed once, when every sample has been added (weight_grad).
template <typename T, int NO, int NC, int KX>
void weight_grad_block(const T* gy, int64_t ldg, const T* image, int64_t plane, int64_t step, int64_t count,
                       T* acc_at, int64_t gw_o, int64_t gw_c) {
  using V = typename Vec<T>::type;
  constexpr int L = Vec<T>::lanes;
  V acc[NO][NC][KX];
  for (int o = 0; o < NO; ++o)
    for (int c = 0; c < NC; ++c)
      for (int k = 0; k < KX; ++k) acc[o][c][k] = load(acc_at + (o * gw_o + c * gw_c + k) * L);
  for (int64_t q = 0; q < count; q += L) {
    V y[NO];
    for (int o = 0; o < NO; ++o) y[o] = load(gy + o * ldg + q);
    for (int c = 0; c < NC; ++c)
      for (int k = 0; k < KX; ++k) {
        const V x = load(image + c * plane + q + k * step);
        for (int o = 0; o < NO; ++o) acc[o][c][k] += y[o] * x;
      }
  }
  for (int o = 0; o < NO; ++o)
    for (int c = 0; c < NC; ++c)
      for (int k = 0; k < KX; ++k) store(acc_at + (o * gw_o + c * gw_c + k) * L, acc[o][c][k]);
}

template <typename T, int NO, int NC>
void weight_grad_run(int kx, const T* gy, int64_t ldg, const T* image, int64_t plane, int64_t step, int64_t count,
                     T* acc, int64_t gw_o, int64_t gw_c) {
  switch (kx) {
    case 1: weight_grad_block<T, NO, NC, 1>(gy, ldg, image, plane, step, count, acc, gw_o, gw_c); break;
    case 2: weight_grad_block<T, NO, NC, 2>(gy, ldg, image, plane, step, count, acc, gw_o, gw_c); break;
    default: weight_grad_block<T, NO, NC, kTapRun>(gy, ldg, image, plane, step, count, acc, gw_o, gw_c); break;
  }
}

// Lanes along positions: grad_w [O, C/groups, taps] from x (the image) and gy (the result's gradient). Each task
// owns (group, input channels, output channels) of grad_w and sums every sample into it in one
// order (lane by lane over the samples and positions, then the lanes): the same bits whatever the
// thread count.
//
// Note [Positions past a row's end] A flat run of positions includes, past each row's end, ones
// that no output has: there the output's gradient is 0, but the image it multiplies is the next
// row's first columns, and 0 · inf is NaN where PyTorch's sum never takes that product. So a
// sample with an infinite or NaN value declines (false): the caller composes the gradient instead.
// (The forward and the input's gradient drop those positions' results; the input's gradient
// multiplies the output's gradient's zero padding by the weight, so an infinite weight declines it.)
template <typename T>
int by_positions(const Geometry& g, const T* x, const T* gy, T* gw) {
  constexpr int L = Vec<T>::lanes;
  const int64_t cg = g.image_channels / g.groups, og = g.result_channels / g.groups, taps = g.taps();
  const int64_t span = round_up(g.positions, L), plane = g.plane_length(L, L);
  // Input channels in units of kGradIn, output channels in units of kGradOut: a task copies its input
  // channels' planes and its output channels' rows of every sample, for products of the two.
  const TaskSplit split(cg, kGradIn, og, kGradOut, g.groups);
  std::atomic<int> status(JT_OK);
  parallel_for(0, g.groups * split.per_group(), 1, [&](int64_t t0, int64_t t1) {
    for (int64_t task = t0; task < t1; ++task) {
      int64_t gi, c0, c1, o0, o1;
      if (!split.at(task, gi, c0, c1, o0, o1)) continue;
      const int64_t nc_all = c1 - c0, acc_o = nc_all * taps;  // acc: [o1 - o0][c1 - c0][taps] vectors
      Scratch<T> planes_at(nc_all * plane), rows_at((o1 - o0) * span), acc_at((o1 - o0) * acc_o * L);
      T *planes = planes_at.data(), *rows = rows_at.data(), *acc = acc_at.data();
      if (!planes || !rows || !acc) {
        status.store(JT_OUT_OF_MEMORY);
        return;
      }
      for (int64_t n = 0; n < g.batch && status.load(std::memory_order_relaxed) == JT_OK; ++n) {
        if (!g.pad(x, n, gi * cg + c0, nc_all, planes, plane, true)) status.store(JT_VALUE_OUT_OF_RANGE, std::memory_order_relaxed);
        for (int64_t o = o0; o < o1; ++o) {  // the output's gradient at its flat padded positions
          const T* src = gy + (n * g.result_channels + gi * og + o) * g.result_plane();
          T* dst = rows + (o - o0) * span;
          for (int64_t a = 0; a < g.out[0]; ++a)
            for (int64_t b = 0; b < g.out[1]; ++b, src += g.out[2]) copy_row(dst + a * g.ps[0] + b * g.ps[1], src, g.out[2]);
        }
        for (int64_t q0 = 0; q0 < span; q0 += kGradChunk) {
          const int64_t count = std::min(kGradChunk, span - q0);
          for (int64_t c = c0; c < c1; c += kGradIn) {
            const int nc = (int)std::min<int64_t>(kGradIn, c1 - c);
            for (size_t r = 0; r < g.row_offsets.size(); ++r)
              for (int64_t k = 0; k < g.kernel[2]; k += kTapRun) {
                const int kx = (int)std::min<int64_t>(kTapRun, g.kernel[2] - k);
                const T* image = planes + (c - c0) * plane + q0 + g.row_offsets[r] + k * g.dilation[2];
                for (int64_t o = o0; o < o1;) {
                  const T* y = rows + (o - o0) * span + q0;
                  T* a = acc + ((o - o0) * acc_o + (c - c0) * taps + (int64_t)r * g.kernel[2] + k) * L;
                  const int step = o + kGradOut <= o1 ? kGradOut : 1;
                  if (step == kGradOut && nc == kGradIn) weight_grad_run<T, kGradOut, kGradIn>(kx, y, span, image, plane, g.dilation[2], count, a, acc_o, taps);
                  else if (step == kGradOut) weight_grad_run<T, kGradOut, 1>(kx, y, span, image, plane, g.dilation[2], count, a, acc_o, taps);
                  else if (nc == kGradIn) weight_grad_run<T, 1, kGradIn>(kx, y, span, image, plane, g.dilation[2], count, a, acc_o, taps);
                  else weight_grad_run<T, 1, 1>(kx, y, span, image, plane, g.dilation[2], count, a, acc_o, taps);
                  o += step;
                }
              }
          }
        }
      }
      for (int64_t o = o0; o < o1; ++o)
        for (int64_t i = 0; i < acc_o; ++i) gw[((gi * og + o) * cg + c0) * taps + i] = lane_sum<T>(load(acc + ((o - o0) * acc_o + i) * L));
    }
  });
  return status.load();
}

// acc[c][k][v] (vectors: acc_c, acc_k and one vector apart) += image[c][q + k·step] · gyT[q][v], q in [0, count).
template <typename T, int NC, int KX, int NV>
void lanes_block(const T* gyT, int64_t ldy, const T* image, int64_t plane, int64_t step, int64_t count, T* acc_at, int64_t acc_c,
                 int64_t acc_k) {
  using V = typename Vec<T>::type;
  constexpr int L = Vec<T>::lanes;
  V acc[NC][KX][NV];
  for (int c = 0; c < NC; ++c)
    for (int k = 0; k < KX; ++k)
      for (int v = 0; v < NV; ++v) acc[c][k][v] = load(acc_at + c * acc_c + k * acc_k + v * L);
  for (int64_t q = 0; q < count; ++q, gyT += ldy, ++image) {
    V y[NV];
    for (int v = 0; v < NV; ++v) y[v] = load(gyT + v * L);
    for (int c = 0; c < NC; ++c)
      for (int k = 0; k < KX; ++k) {
        const T xv = image[c * plane + k * step];
        for (int v = 0; v < NV; ++v) acc[c][k][v] += y[v] * xv;
      }
  }
  for (int c = 0; c < NC; ++c)
    for (int k = 0; k < KX; ++k)
      for (int v = 0; v < NV; ++v) store(acc_at + c * acc_c + k * acc_k + v * L, acc[c][k][v]);
}

template <typename T, int NC, int KX>
void lanes_nv(int nv, const T* gyT, int64_t ldy, const T* image, int64_t plane, int64_t step, int64_t count, T* acc, int64_t acc_c, int64_t acc_k) {
  switch (nv) {
    case 1: lanes_block<T, NC, KX, 1>(gyT, ldy, image, plane, step, count, acc, acc_c, acc_k); break;
    case 2: lanes_block<T, NC, KX, 2>(gyT, ldy, image, plane, step, count, acc, acc_c, acc_k); break;
#if defined(JT_CPU_CAP_avx512)
    case 3: lanes_block<T, NC, KX, 3>(gyT, ldy, image, plane, step, count, acc, acc_c, acc_k); break;
    default: lanes_block<T, NC, KX, 4>(gyT, ldy, image, plane, step, count, acc, acc_c, acc_k); break;
#else
    default: break;
#endif
  }
}

template <typename T, int NC>
void lanes_run(int kx, int nv, const T* gyT, int64_t ldy, const T* image, int64_t plane, int64_t step, int64_t count, T* acc, int64_t acc_c, int64_t acc_k) {
  switch (kx) {
    case 1: lanes_nv<T, NC, 1>(nv, gyT, ldy, image, plane, step, count, acc, acc_c, acc_k); break;
    case 2: lanes_nv<T, NC, 2>(nv, gyT, ldy, image, plane, step, count, acc, acc_c, acc_k); break;
    default: lanes_nv<T, NC, kTapRun>(nv, gyT, ldy, image, plane, step, count, acc, acc_c, acc_k); break;
  }
}

// Lanes along output channels: samples kGroupBytes at a time are padded (X) and their gy transposed
// to [position][output channel] (Y), every task sharing them; then each task adds its (input
// channels × output vectors) products of those samples into A[group][c][tap][o], one sample after
// another, and A is written out as grad_w once every sample is in.
template <typename T>
int by_output_lanes(const Geometry& g, const T* x, const T* gy, T* gw) {
  constexpr int L = Vec<T>::lanes;
  const int64_t cg = g.image_channels / g.groups, og = g.result_channels / g.groups, taps = g.taps();
  const int64_t ov = (og + L - 1) / L, ldy = ov * L;  // output channels as vectors; gyT's rows [q][ldy]
  const int64_t positions = g.positions, plane = round_up(g.plane_length(1, L), L);
  const int64_t per_sample = g.groups * (cg * plane + positions * ldy) * (int64_t)sizeof(T);
  const int64_t group_n = std::max<int64_t>(1, std::min<int64_t>(g.batch, kGroupBytes / per_sample));
  const int64_t chunk = std::max<int64_t>(16, kLaneChunkBytes / (ldy * (int64_t)sizeof(T)));
  Scratch<T> xs(group_n * g.groups * cg * plane);  // zeroed once: every pad writes the same places
  Scratch<T> ys(group_n * g.groups * positions * ldy), as(g.groups * cg * taps * ldy);  // A[gi][c][t][ldy]
  T *X = xs.data(), *Y = ys.data(), *A = as.data();
  if (!X || !Y || !A) return JT_OUT_OF_MEMORY;
  const TaskSplit split(cg, kGradIn, ov, kLaneOut, g.groups);  // output channels as vectors
  std::atomic<bool> declined(false);
  for (int64_t n0 = 0; n0 < g.batch && !declined.load(); n0 += group_n) {
    const int64_t n1 = std::min(g.batch, n0 + group_n);
    parallel_for(0, (n1 - n0) * g.groups, 1, [&](int64_t u0, int64_t u1) {
      for (int64_t u = u0; u < u1; ++u) {
        const int64_t n = n0 + u / g.groups, gi = u % g.groups;
        if (!g.pad(x, n, gi * cg, cg, X + u * cg * plane, plane, true)) declined.store(true, std::memory_order_relaxed);
        // gy [o][position] to yt [q][o], row by row in vector-square blocks (a column at a time
        // strode a cache line per element: 18% of this kernel's time at [32, 64, 32, 32])
        T* yt = Y + u * positions * ldy;
        const int64_t rp = g.result_plane();
        const T* src = gy + (n * g.result_channels + gi * og) * rp;
        for (int64_t a = 0; a < g.out[0]; ++a)
          for (int64_t b = 0; b < g.out[1]; ++b, src += g.out[2]) transpose(src, rp, og, g.out[2], yt + (a * g.ps[0] + b * g.ps[1]) * ldy, ldy);
      }
    });
    if (declined.load()) break;
    parallel_for(0, g.groups * split.per_group(), 1, [&](int64_t t0, int64_t t1) {
      for (int64_t task = t0; task < t1; ++task) {
        int64_t gi, c0, c1, v0, v1;
        if (!split.at(task, gi, c0, c1, v0, v1)) continue;
        for (int64_t n = n0; n < n1; ++n) {
          const int64_t u = (n - n0) * g.groups + gi;
          const T* image_all = X + u * cg * plane;
          const T* yt = Y + u * positions * ldy;
          for (int64_t q0 = 0; q0 < positions; q0 += chunk) {
            const int64_t count = std::min(chunk, positions - q0);
            for (int64_t vb = v0; vb < v1; vb += kLaneOut) {
              const int nv = (int)std::min<int64_t>(kLaneOut, v1 - vb);
              for (int64_t c = c0; c < c1; c += kGradIn) {
                const int nc = (int)std::min<int64_t>(kGradIn, c1 - c);
                for (size_t r = 0; r < g.row_offsets.size(); ++r)
                  for (int64_t k = 0; k < g.kernel[2]; k += kTapRun) {
                    const int kx = (int)std::min<int64_t>(kTapRun, g.kernel[2] - k);
                    const T* image = image_all + c * plane + q0 + g.row_offsets[r] + k * g.dilation[2];
                    T* a = A + ((gi * cg + c) * taps + (int64_t)r * g.kernel[2] + k) * ldy + vb * L;
                    const T* y = yt + q0 * ldy + vb * L;
                    if (nc == kGradIn) lanes_run<T, kGradIn>(kx, nv, y, ldy, image, plane, g.dilation[2], count, a, taps * ldy, ldy);
                    else lanes_run<T, 1>(kx, nv, y, ldy, image, plane, g.dilation[2], count, a, taps * ldy, ldy);
                  }
              }
            }
          }
        }
      }
    });
  }
  if (declined.load()) return JT_VALUE_OUT_OF_RANGE;
  sums_to_weight(A, ldy, g.groups, og, cg * taps, gw);
  return JT_OK;
}

}  // namespace

template <typename T>
int weight_grad(const Geometry& g, const T* x, const T* gy, T* gw) {
  const int64_t cg = g.image_channels / g.groups, og = g.result_channels / g.groups;
  if (og >= Vec<T>::lanes && cg >= 2) return by_output_lanes(g, x, gy, gw);
  return by_positions(g, x, gy, gw);
}

template int weight_grad<float>(const Geometry&, const float*, const float*, float*);
template int weight_grad<double>(const Geometry&, const double*, const double*, double*);

}  // namespace conv
JT_CPU_CAP_END
