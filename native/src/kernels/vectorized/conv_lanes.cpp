// Direct convolution with channels along the vector lanes, at any stride: modes 0 and 1 of
// plans.h's conv plan (mode 2 is conv_lanes_weight_grad.cpp), Note [Channels in lanes].
//
// Note [Channels in lanes] The flat padded planes of convolution.cpp put consecutive output
// positions in a vector's lanes, so that at stride 1 a vector of outputs reads a vector of
// consecutive inputs. That needs stride 1, and it wastes lanes where a plane is small: a 7 × 7
// output is 63 flat positions of a 9-wide padded plane, computed in register blocks of 48, so half
// the lanes compute nothing (a ResNet's deeper layers). Here the lanes hold output channels (the
// forward and the weight's gradient) or input channels (the input's gradient), and each product
// broadcasts one element of the other operand. The input is copied into zero-padded planes of the
// grid every window reads (Grid, conv_lanes.h); output position o's window starts at a fixed grid
// position window[o] whatever the stride, and tap t reads window[o] + tap[t]:
// - forward: y[u][o] = Σ_c Σ_t x[c][window[o] + tap[t]] · w[u][c][t], a tile of positions ×
//   vectors of u in registers, transposed into y's planes as it is written;
// - input gradient (the adjoint, any stride): per tap, gx[window[o] + tap[t]][c] += Σ_u gy[u][o] ·
//   w[u][c][t] for vectors of c, gy read in place, added into a channels-last grid that is then
//   transposed out;
// - weight gradient: gw[u][c][t] = Σ_n Σ_o x[c][window[o] + tap[t]] · gy[o][u], input channels ×
//   taps × vectors of u in registers, gy transposed to rows [o][u] first.
// No position is computed that the output lacks, so no product is taken that PyTorch's sums do
// not take (nothing declines, unlike Note [Positions past a row's end]). Each result element is
// summed in one order whatever the thread count: a task owns whole output elements.
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

// ---- forward ----

// Positions [o0, o1) of one sample and group for a block of NV vectors of output channels
// (count of them real), written to y at that block's first channel (planes `plane` apart), plus bias.
template <typename T, int NV>
void forward_positions(const Grid& g, const T* planes, const int64_t* tap, const T* w, int64_t o0, int64_t o1, const T* bias,
                       int64_t count, T* y) {
  constexpr int NP = tile_positions<NV>(), L = Vec<T>::lanes;
  alignas(64) T tile[NP * NV * L];
  const int64_t plane = g.out_plane();
  const T* xs[NP];
  for (int64_t o = o0; o < o1; o += NP) {
    const int64_t m = std::min<int64_t>(NP, o1 - o);
    for (int p = 0; p < NP; ++p) xs[p] = planes + g.window[o + std::min<int64_t>(p, m - 1)];  // past the end: the last again
    forward_tile<T, NP, NV>(xs, tap, g.taps(), g.cg, g.size(), w, tile);
    for (int64_t u = 0; u < count; ++u) {
      const T add = bias ? bias[u] : T(0);
      T* dst = y + u * plane + o;
      for (int64_t p = 0; p < m; ++p) dst[p] = tile[p * NV * L + u] + add;
    }
  }
}

}  // namespace

template <typename T>
int forward(const Grid& g, const T* x, const T* weight, const T* bias, T* y) {
  constexpr int L = Vec<T>::lanes;
  const int64_t taps = g.taps(), cg = g.cg, og = g.og, plane = g.out_plane();
  // each (group, block) of output vectors packed [c][t][nv·L]
  const Packed<T> packed(g.groups, og, cg, taps, [&](int64_t gi, int64_t c, int64_t t, int64_t u) {
    return weight[((gi * og + u) * cg + c) * taps + t];
  });
  if (!packed.ok()) return JT_OUT_OF_MEMORY;
  const int64_t samples = g.batch * g.groups;
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>((plane + 7) / 8, (4 * get_num_threads() + samples - 1) / std::max<int64_t>(1, samples)));
  std::atomic<int> status(JT_OK);
  parallel_for(0, samples * parts, 1, [&](int64_t t0, int64_t t1) {
    Scratch<T> planes_at(g.size() * cg);  // zeroed once: every copy writes the same places
    T* planes = planes_at.data();
    if (!planes) {
      status.store(JT_OUT_OF_MEMORY);
      return;
    }
    int64_t copied = -1;  // the (sample, group) in planes
    for (int64_t task = t0; task < t1; ++task) {
      const int64_t ng = task / parts, part = task % parts, n = ng / g.groups, gi = ng % g.groups;
      if (ng != copied) {
        g.to_planes(x, g.channels, n, gi * cg, cg, planes);
        copied = ng;
      }
      const int64_t o0 = part * plane / parts, o1 = (part + 1) * plane / parts;
      for (int64_t b = 0; b < packed.blocks; ++b) {
        const int64_t nv = packed.vectors_in(b), u0 = b * kMaxVectors * L, count = std::min<int64_t>(nv * L, og - u0);
        const T* w = packed.block(gi, b);
        const T* bb = bias ? bias + gi * og + u0 : nullptr;
        T* dst = y + (n * g.out_channels + gi * og + u0) * plane;
        with_vectors(nv, [&](auto NV) { forward_positions<T, NV>(g, planes, g.tap.data(), w, o0, o1, bb, count, dst); });
      }
    }
  });
  return status.load();
}

template <typename T>
int input_grad(const Grid& g, const T* gy, const T* weight, T* gx) {
  constexpr int L = Vec<T>::lanes;
  const int64_t taps = g.taps(), cg = g.cg, og = g.og, plane = g.out_plane();
  // each (group, block) of input vectors packed [t][u][nv·L]
  const Packed<T> packed(g.groups, cg, taps, og, [&](int64_t gi, int64_t t, int64_t u, int64_t c) {
    return weight[((gi * og + u) * cg + c) * taps + t];
  });
  if (!packed.ok()) return JT_OUT_OF_MEMORY;
  const int64_t blocks = packed.blocks;
  std::atomic<int> status(JT_OK);
  parallel_for(0, g.batch * g.groups * blocks, 1, [&](int64_t t0, int64_t t1) {
    Scratch<T> grid_at(g.size() * kMaxVectors * L + kMaxVectors * L);  // the last vectors: the sink
    T* grid = grid_at.data();
    if (!grid) {
      status.store(JT_OUT_OF_MEMORY);
      return;
    }
    for (int64_t task = t0; task < t1; ++task) {
      const int64_t ng = task / blocks, b = task % blocks, n = ng / g.groups, gi = ng % g.groups;
      const int64_t nv = packed.vectors_in(b), c0 = b * kMaxVectors * L;
      std::memset(grid, 0, (size_t)(g.size() * nv * L) * sizeof(T));
      T* sink = grid + g.size() * kMaxVectors * L;
      const T* w = packed.block(gi, b);
      const T* gyn = gy + (n * g.out_channels + gi * og) * plane;
      with_vectors(nv, [&](auto NV) { scatter_sample<T, NV>(g, gyn, w, og, grid, sink); });
      g.from_grid(grid, nv * L, gx, g.channels, n, gi * cg + c0, std::min<int64_t>(nv * L, cg - c0));
    }
  });
  return status.load();
}

template int forward<float>(const Grid&, const float*, const float*, const float*, float*);
template int forward<double>(const Grid&, const double*, const double*, const double*, double*);
template int input_grad<float>(const Grid&, const float*, const float*, float*);
template int input_grad<double>(const Grid&, const double*, const double*, double*);

}  // namespace lanes

template <typename T>
int run_in_lanes(const conv_plan& r) {
  lanes::Grid g;
  if (!g.read(r)) return JT_INVALID;
  switch (r.mode) {
    case 0: {
      const T *x = reinterpret_cast<const T*>(r.x), *w = reinterpret_cast<const T*>(r.weight), *b = reinterpret_cast<const T*>(r.bias);
      T* y = reinterpret_cast<T*>(r.y);
      return lanes::takes_few_positions<T>(g) ? lanes::forward_few_positions(g, x, w, b, y) : lanes::forward(g, x, w, b, y);
    }
    case 1: {
      const T *gy = reinterpret_cast<const T*>(r.y), *w = reinterpret_cast<const T*>(r.weight);
      T* gx = reinterpret_cast<T*>(r.x);
      return lanes::takes_few_positions<T>(g) ? lanes::input_grad_few_positions(g, gy, w, gx) : lanes::input_grad(g, gy, w, gx);
    }
    case 2: return lanes::weight_grad(g, reinterpret_cast<const T*>(r.x), reinterpret_cast<const T*>(r.y), reinterpret_cast<T*>(r.weight));
    default: return JT_INVALID;
  }
}

template int run_in_lanes<float>(const conv_plan&);
template int run_in_lanes<double>(const conv_plan&);

}  // namespace conv
JT_CPU_CAP_END
