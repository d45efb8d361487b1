// Direct convolution on the CPU (plans.h's conv plan): stride 1, any padding and dilation, groups,
// 1 to 3 spatial dims, float32 and float64, with no im2col columns and no GEMM packing. mode 0 is
// the forward, mode 1 the input's gradient (the same correlation over the output's gradient with
// the kernel flipped and its channel axes swapped), mode 2 the weight's gradient (conv_weight_grad.cpp).
//
// Note [Flat padded planes]: a sample's image channels are copied into zero-padded planes; an
// output position is then the flat index q = Σ o[d]·ps[d] (ps the padded plane's strides) of its
// window's first element, and the kernel's tap t reads q + off[t]. A run of consecutive q's is one
// 1-D correlation with fixed tap offsets: vectors of consecutive outputs read vectors of
// consecutive inputs, with no bounds check and no copy of each window. The q's that fall past a
// row's end (x ≥ the output's width) are computed and dropped when the block is written out; the
// weight's gradient reads the output's gradient laid out the same way, zeros at those q's.
// The geometry of those planes is conv_geometry.h's.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "jt/jt.h"
#include "kernels/kernels.h"
#include "parallel.h"

#include "kernels/vectorized/capability_namespace.h"
#include "kernels/vectorized/conv_geometry.h"
#include "kernels/vectorized/vector_types.h"

JT_CPU_CAP_BEGIN
namespace {

using conv::all_finite;
using conv::Scratch;
using conv::Geometry;
using conv::round_up;

// Register blocks: the forward keeps kPositions vectors of outputs for kOutBlock channels
// (accumulators plus the loaded inputs and one broadcast weight within the register file).
#if defined(JT_CPU_CAP_avx512)
constexpr int kOutBlock = 8;
#else
constexpr int kOutBlock = 4;
#endif
constexpr int kPositions = 3;

// result[kOutBlock channels][kPositions vectors from q] = Σ_c Σ_t w · image[c][q + off[t]]; w packed [c][t][kOutBlock].
template <typename T>
inline void forward_block(const T* image, int64_t plane, int64_t channels, const int64_t* off, int64_t taps, const T* w, T* out,
                          int64_t ld) {
  using V = typename Vec<T>::type;
  constexpr int L = Vec<T>::lanes;
  V acc[kPositions][kOutBlock];
  for (int p = 0; p < kPositions; ++p)
    for (int o = 0; o < kOutBlock; ++o) acc[p][o] = V{};
  for (int64_t c = 0; c < channels; ++c, image += plane) {
    for (int64_t t = 0; t < taps; ++t, w += kOutBlock) {
      const T* s = image + off[t];
      V x[kPositions];
      for (int p = 0; p < kPositions; ++p) x[p] = load(s + p * L);
      for (int o = 0; o < kOutBlock; ++o) {
        const T wv = w[o];  // a scalar operand: one broadcast from memory (V{} + w would add 0.0 first)
        for (int p = 0; p < kPositions; ++p) acc[p][o] += x[p] * wv;
      }
    }
  }
  for (int o = 0; o < kOutBlock; ++o)
    for (int p = 0; p < kPositions; ++p) store(out + o * ld + p * L, acc[p][o]);
}

// Modes 0 and 1: the result's channels in blocks of kOutBlock, the weight packed per block as
// forward_block reads it (zeros for a last block's missing channels); tasks are (sample, group, block).
// The packing comes from the caching allocator (Scratch), as the lanes kernels' does, so a refused
// allocation is JT_OUT_OF_MEMORY rather than a std::vector's bad_alloc.
template <typename T>
struct Correlation {
  Geometry g;
  const T* image = nullptr;
  T* result = nullptr;
  const T* bias = nullptr;
  int64_t image_per_group = 0, result_per_group = 0, blocks = 0;
  const T* packed = nullptr;
  std::vector<int64_t> off;

  // The packing's length in elements, once g is set.
  int64_t packed_length() {
    image_per_group = g.image_channels / g.groups;
    result_per_group = g.result_channels / g.groups;
    blocks = (result_per_group + kOutBlock - 1) / kOutBlock;
    return g.groups * blocks * image_per_group * g.taps() * kOutBlock;
  }

  // Fills dst (packed_length() zeroed elements) with weight_at(result channel u in its group, image
  // channel v in its group, tap t, group) for each packed entry.
  template <typename WeightAt>
  void pack(T* dst, WeightAt weight_at) {
    const int64_t taps = g.taps();
    T* w = dst;
    for (int64_t gi = 0; gi < g.groups; ++gi)
      for (int64_t b = 0; b < blocks; ++b)
        for (int64_t v = 0; v < image_per_group; ++v)
          for (int64_t t = 0; t < taps; ++t, w += kOutBlock)
            for (int o = 0; o < kOutBlock && b * kOutBlock + o < result_per_group; ++o) w[o] = weight_at(b * kOutBlock + o, v, t, gi);
    packed = dst;
    for (int64_t r : g.row_offsets)
      for (int64_t k = 0; k < g.kernel[2]; ++k) off.push_back(r + k * g.dilation[2]);
  }

  // JT_OK, or JT_OUT_OF_MEMORY when scratch was refused (nothing useful written).
  int run() const {
    constexpr int L = Vec<T>::lanes;
    const int64_t block = kPositions * L, span = round_up(g.positions, block), plane = g.plane_length(block, L);
    const int64_t weights_per_block = image_per_group * g.taps() * kOutBlock;
    std::atomic<int> status(JT_OK);
    parallel_for(0, g.batch * g.groups * blocks, 1, [&](int64_t t0, int64_t t1) {
      Scratch<T> planes_at(image_per_group * plane), out_at(kOutBlock * span);  // planes: zeroed once (pad)
      T *planes = planes_at.data(), *out = out_at.data();
      if (!planes || !out) {
        status.store(JT_OUT_OF_MEMORY);
        return;
      }
      int64_t padded = -1;  // the (sample, group) whose planes are in planes
      for (int64_t task = t0; task < t1; ++task) {
        const int64_t ng = task / blocks, b = task % blocks, n = ng / g.groups, gi = ng % g.groups;
        if (ng != padded) {
          g.pad(image, n, gi * image_per_group, image_per_group, planes, plane);
          padded = ng;
        }
        const T* w = packed + (gi * blocks + b) * weights_per_block;
        for (int64_t q = 0; q < span; q += block)
          forward_block(planes + q, plane, image_per_group, off.data(), (int64_t)off.size(), w, out + q, span);
        write(n, gi * result_per_group + b * kOutBlock, std::min<int64_t>(kOutBlock, result_per_group - b * kOutBlock), out, span);
      }
    });
    return status.load();
  }

  // The block's channels [u0, u0 + count) of sample n: each output row from its padded row, plus the bias.
  void write(int64_t n, int64_t u0, int64_t count, const T* out, int64_t span) const {
    for (int64_t u = 0; u < count; ++u) {
      const T add = bias ? bias[u0 + u] : T(0);
      T* dst = result + (n * g.result_channels + u0 + u) * g.result_plane();
      const T* src = out + u * span;
      for (int64_t a = 0; a < g.out[0]; ++a)
        for (int64_t b = 0; b < g.out[1]; ++b, dst += g.out[2]) {
          const T* row = src + a * g.ps[0] + b * g.ps[1];
          for (int64_t x = 0; x < g.out[2]; ++x) dst[x] = row[x] + add;
        }
    }
  }
};

// The plan's geometry, as the forward (or weight gradient) sees it; false for numbers that do not
// describe a stride-1 convolution (Java checks them first; this guards the kernel).
bool read_forward(const conv_plan& r, Geometry& g) {
  if (!conv::counts_valid(r)) return false;
  g.batch = r.batch;
  g.groups = r.groups;
  g.image_channels = r.channels;
  g.result_channels = r.out_channels;
  const int first = 3 - (int)r.nsp;
  for (int d = 0; d < (int)r.nsp; ++d) {
    const int e = first + d;
    g.in[e] = r.in_sizes[d];
    g.out[e] = r.out_sizes[d];
    g.kernel[e] = r.kernel[d];
    g.before[e] = r.pad_before[d];
    g.dilation[e] = r.dilation[d];
    if (g.in[e] < 1 || g.kernel[e] < 1 || g.dilation[e] < 1 || g.before[e] < 0 || r.pad_after[d] < 0 || r.stride[d] != 1) return false;
    if (g.out[e] < 1 || g.out[e] != g.in[e] + g.before[e] + r.pad_after[d] - g.dilation[e] * (g.kernel[e] - 1)) return false;
  }
  g.finish();
  return true;
}

// The input's gradient as a correlation: image the output's gradient, padded by the kernel's
// reach less the forward's padding (at most the reach: checked), result the input's shape.
bool read_input_grad(const conv_plan& r, const Geometry& f, Geometry& g) {
  g = f;
  g.image_channels = f.result_channels;
  g.result_channels = f.image_channels;
  const int first = 3 - (int)r.nsp;
  for (int e = 0; e < 3; ++e) {
    const int64_t reach = f.dilation[e] * (f.kernel[e] - 1);
    const int64_t after = e < first ? 0 : r.pad_after[e - first];
    if (f.before[e] > reach || after > reach) return false;
    g.in[e] = f.out[e];
    g.out[e] = f.in[e];
    g.before[e] = reach - f.before[e];
  }
  g.finish();
  return true;
}

// Whether the plan goes to the channels-in-lanes kernels (Note [Channels in lanes]): every stride
// but 1, and at stride 1 where they were faster (jt_bench's conv lines, docs/performance.md,
// session 20): the forward with two vectors of output channels a group or more (0.6-0.75 of the
// planes' time at 14 × 14 and 7 × 7, 0.95 at 32 × 32; with one vector, 16 channels, the planes
// were faster); the input's gradient with two vectors of input channels and an output plane below
// 32 × 32 (its scattered sums cost more on larger planes); the weight's gradient with a vector of
// output channels and two input channels or more (0.65-0.93). JT_CONV_LANES=0 or 1, read each
// call, forces one at stride 1 (to measure the two).
template <typename T>
bool in_lanes(const conv_plan& r) {
  int64_t out_plane = 1;
  for (int64_t d = 0; d < r.nsp; ++d) {
    if (r.stride[d] != 1) return true;
    out_plane *= r.out_sizes[d];
  }
  if (const char* forced = std::getenv("JT_CONV_LANES")) return std::atoi(forced) == 1;
  const int64_t groups = std::max<int64_t>(1, r.groups), cg = r.channels / groups, og = r.out_channels / groups;
  constexpr int64_t L = Vec<T>::lanes;
  switch (r.mode) {
    case 0: return og >= 2 * L;
    case 1: return cg >= 2 * L && out_plane < 32 * 32;
    default: return og >= L && cg >= 2;
  }
}

template <typename T>
int run(const conv_plan& r) {
  if (conv::takes_winograd<T>(r)) {
    const int status = conv::run_winograd<T>(r);
    if (status != JT_VALUE_OUT_OF_RANGE) return status;  // else a result not finite: the direct kernels' own
  }
  if (in_lanes<T>(r)) return conv::run_in_lanes<T>(r);
  Geometry f;
  if (!read_forward(r, f)) return JT_INVALID;
  const T* weight = reinterpret_cast<const T*>(r.weight);
  const int64_t taps = f.taps(), cg = f.image_channels / f.groups, og = f.result_channels / f.groups;
  switch (r.mode) {
    case 0: {
      Correlation<T> c;
      c.g = f;
      c.image = reinterpret_cast<const T*>(r.x);
      c.result = reinterpret_cast<T*>(r.y);
      c.bias = reinterpret_cast<const T*>(r.bias);
      Scratch<T> packed(c.packed_length());
      if (!packed.data()) return JT_OUT_OF_MEMORY;
      c.pack(packed.data(), [&](int64_t u, int64_t v, int64_t t, int64_t gi) { return weight[((gi * og + u) * cg + v) * taps + t]; });
      return c.run();
    }
    case 1: {
      Correlation<T> c;
      if (!read_input_grad(r, f, c.g)) return JT_INVALID;
      if (!all_finite(weight, f.result_channels * cg * taps)) return JT_VALUE_OUT_OF_RANGE;  // Note [Positions past a row's end]
      c.image = reinterpret_cast<const T*>(r.y);
      c.result = reinterpret_cast<T*>(r.x);
      Scratch<T> packed(c.packed_length());
      if (!packed.data()) return JT_OUT_OF_MEMORY;
      // result channel u (the input's), image channel v (the output's): the forward's weight [v][u], flipped.
      c.pack(packed.data(), [&](int64_t u, int64_t v, int64_t t, int64_t gi) { return weight[((gi * og + v) * cg + u) * taps + (taps - 1 - t)]; });
      return c.run();
    }
    case 2:
      return conv::weight_grad(f, reinterpret_cast<const T*>(r.x), reinterpret_cast<const T*>(r.y), reinterpret_cast<T*>(r.weight));
    default: return JT_INVALID;
  }
}

}  // namespace

int conv_run(const conv_plan& r) {
  switch ((DType)r.dtype) {
    case DType::Float32: return run<float>(r);
    case DType::Float64: return run<double>(r);
    default: return JT_NO_KERNEL;
  }
}

JT_CPU_CAP_END
