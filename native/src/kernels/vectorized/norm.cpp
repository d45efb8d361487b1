// Normalization on the CPU (jt/norm.h): per statistics group, the mean then the centred sum of
// squares (two passes: no cancellation when the mean is large against the spread), then the
// output, while the group is still in cache; the backward likewise per group, every sum over
// (x - mean) rather than a difference of sums, and the weight and bias gradients in a pass of
// their own over channels (or column blocks, for layer norm's s = 1). Sums run in kLanes partial
// sums per piece of kPiece elements (vectorized), pieces added in double; the statistics are
// kept in double. Groups run in parallel.
#include <algorithm>
#include <cmath>
#include <vector>

#include "jt/functors.h"
#include "jt/jt.h"
#include "jt/norm.h"
#include "kernels/kernels.h"
#include "parallel.h"

#include "kernels/vectorized/capability_namespace.h"

JT_CPU_CAP_BEGIN
namespace {

constexpr int kLanes = 16;
constexpr int64_t kPiece = 4096;
constexpr int64_t kColumnBlock = 64;  // layer norm's weight gradient: columns per task

// Σ f(x) and Σ h(x, y) over two contiguous runs x, y of len elements (h only when Two), in Acc.
template <bool Two, typename Acc, typename T, typename F, typename H>
void run_sums(const T* x, const T* y, int64_t len, F f, H h, double& s1, double& s2) {
  for (int64_t at = 0; at < len; at += kPiece) {
    const int64_t m = std::min(kPiece, len - at);
    Acc l1[kLanes] = {}, l2[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= m; i += kLanes) {
      for (int k = 0; k < kLanes; ++k) {
        const Acc v = (Acc)(opmath_t<T>)x[at + i + k];
        l1[k] += f(v);
        if constexpr (Two) l2[k] += h(v, (Acc)(opmath_t<T>)y[at + i + k]);
      }
    }
    Acc p1 = 0, p2 = 0;
    for (; i < m; ++i) {
      const Acc v = (Acc)(opmath_t<T>)x[at + i];
      p1 += f(v);
      if constexpr (Two) p2 += h(v, (Acc)(opmath_t<T>)y[at + i]);
    }
    for (int k = 0; k < kLanes; ++k) p1 += l1[k], p2 += l2[k];
    s1 += p1;
    s2 += p2;
  }
}

// Σ f(x) over a run, in Acc: double for the mean (x itself may be large: 300 summed 4096 times in
// float would lose the mean's last digits), the accumulator type for centred values.
template <typename Acc, typename T, typename F>
double run_sum(const T* x, int64_t len, F f) {
  double s1 = 0, s2 = 0;
  run_sums<false, Acc>(x, x, len, f, [](Acc, Acc) { return Acc(0); }, s1, s2);
  return s1;
}

template <typename T>
struct NormArgs {
  using A = opmath_t<T>;
  const T *x = nullptr, *weight = nullptr, *bias = nullptr, *grad = nullptr;
  double *mean = nullptr, *rstd = nullptr;
  T *y = nullptr, *grad_x = nullptr, *grad_weight = nullptr, *grad_bias = nullptr;

  A w(int64_t ch) const { return weight ? (A)weight[ch] : A(1); }
  A b(int64_t ch) const { return bias ? (A)bias[ch] : A(0); }
};

// Calls fn(offset, channel, length) for each run of unit u: one run per channel (by_channel: one
// per sample); with whole, a group of layer or group norm as the one run it is, channel its first.
template <typename Fn>
void for_runs(const NormGeometry& g, int64_t u, bool whole, Fn fn) {
  if (g.by_channel) {
    for (int64_t nn = 0; nn < g.n; ++nn) fn((nn * g.c + u) * g.s, u, g.s);
    return;
  }
  const int64_t cpg = g.channels_per_group(), nn = u / g.groups, ch0 = (u - nn * g.groups) * cpg;
  const int64_t base = (nn * g.c + ch0) * g.s;
  if (whole) {
    fn(base, ch0, cpg * g.s);
    return;
  }
  for (int64_t k = 0; k < cpg; ++k) fn(base + k * g.s, ch0 + k, g.s);
}

template <typename T>
void forward_unit(const NormGeometry& g, const NormArgs<T>& a, int64_t u) {
  using A = opmath_t<T>;
  const int64_t m = g.unit_elements();
  double mean_d, rstd_d;
  if (g.fixed) {
    mean_d = a.mean[u];
    rstd_d = a.rstd[u];
  } else {
    double sum = 0, sq = 0;
    for_runs(g, u, true, [&](int64_t off, int64_t, int64_t len) { sum += run_sum<double>(a.x + off, len, [](double v) { return v; }); });
    mean_d = m > 0 ? sum / m : 0.0;
    const CenteredMean<A> c(mean_d);
    for_runs(g, u, true, [&](int64_t off, int64_t, int64_t len) {
      sq += run_sum<A>(a.x + off, len, [c](A v) { const A d = c.center(v); return d * d; });
    });
    rstd_d = 1 / std::sqrt((m > 0 ? sq / m : 0.0) + g.eps);
    a.mean[u] = mean_d;
    a.rstd[u] = rstd_d;
  }
  const CenteredMean<A> c(mean_d);
  const A rstd = (A)rstd_d;
  const bool rows = !g.by_channel && g.s == 1;  // layer norm: the channels vary along the run
  for_runs(g, u, rows, [&](int64_t off, int64_t ch, int64_t len) {
    const T* x = a.x + off;
    T* y = a.y + off;
    if (rows) {
      for (int64_t i = 0; i < len; ++i) y[i] = (T)(c.center((A)x[i]) * (rstd * a.w(ch + i)) + a.b(ch + i));
      return;
    }
    const A scale = rstd * a.w(ch), shift = a.b(ch);
    for (int64_t i = 0; i < len; ++i) y[i] = (T)(c.center((A)x[i]) * scale + shift);
  });
}

// Σ grad and Σ grad·(x - mean) over a run.
template <typename T>
void centred_sums(const T* grad, const T* x, int64_t len, const CenteredMean<opmath_t<T>>& c, double& sg, double& sgc) {
  using A = opmath_t<T>;
  run_sums<true, A>(grad, x, len, [](A v) { return v; }, [c](A gv, A xv) { return gv * c.center(xv); }, sg, sgc);
}

// The input gradient of unit u (and, by channel, its channel's weight and bias gradients).
template <typename T>
void backward_unit(const NormGeometry& g, const NormArgs<T>& a, int64_t u) {
  using A = opmath_t<T>;
  const CenteredMean<A> c(a.mean[u]);
  const A rstd = (A)a.rstd[u];
  const bool rows = !g.by_channel && g.s == 1;
  double sum_g = 0, sum_gc = 0;  // Σ weight·grad, Σ weight·grad·(x - mean)
  for_runs(g, u, rows, [&](int64_t off, int64_t ch, int64_t len) {
    const T *gr = a.grad + off, *x = a.x + off;
    if (rows) {
      A l1[kLanes] = {}, l2[kLanes] = {};
      int64_t i = 0;
      for (; i + kLanes <= len; i += kLanes) {
        for (int k = 0; k < kLanes; ++k) {
          const A wg = a.w(ch + i + k) * (A)gr[i + k];
          l1[k] += wg;
          l2[k] += wg * c.center((A)x[i + k]);
        }
      }
      for (; i < len; ++i) {
        const A wg = a.w(ch + i) * (A)gr[i];
        l1[0] += wg;
        l2[0] += wg * c.center((A)x[i]);
      }
      for (int k = 0; k < kLanes; ++k) sum_g += l1[k], sum_gc += l2[k];
      return;
    }
    double sg = 0, sgc = 0;
    centred_sums(gr, x, len, c, sg, sgc);
    const A w = g.by_channel ? A(1) : a.w(ch);  // by channel the weight is one constant, applied below
    sum_g += w * sg;
    sum_gc += w * sgc;
  });
  if (g.by_channel) {  // the unit is the channel: its weight and bias gradients are the unweighted sums
    if (a.grad_weight) a.grad_weight[u] = (T)(a.rstd[u] * sum_gc);
    if (a.grad_bias) a.grad_bias[u] = (T)sum_g;
    sum_g *= a.w(u);
    sum_gc *= a.w(u);
  }
  if (!a.grad_x) return;
  A b, d;
  norm_dx_terms<A>(rstd, (A)sum_g, (A)sum_gc, (A)g.unit_elements(), g.fixed, b, d);
  for_runs(g, u, rows, [&](int64_t off, int64_t ch, int64_t len) {
    const T *gr = a.grad + off, *x = a.x + off;
    T* dx = a.grad_x + off;
    if (rows) {
      for (int64_t i = 0; i < len; ++i) dx[i] = (T)(rstd * (a.w(ch + i) * (A)gr[i] - d) + b * c.center((A)x[i]));
      return;
    }
    const A w = a.w(ch);
    for (int64_t i = 0; i < len; ++i) dx[i] = (T)(rstd * (w * (A)gr[i] - d) + b * c.center((A)x[i]));
  });
}

// Weight and bias gradients when a unit spans channels (layer and group norm): per channel, over samples.
template <typename T>
void weight_grads(const NormGeometry& g, const NormArgs<T>& a) {
  using A = opmath_t<T>;
  if (g.s == 1) {  // [n, c] rows: a block of columns per task, walking the rows
    const int64_t blocks = (g.c + kColumnBlock - 1) / kColumnBlock;
    parallel_for(0, blocks, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, g.n * kColumnBlock)), [&](int64_t lo, int64_t hi) {
      for (int64_t blk = lo; blk < hi; ++blk) {
        const int64_t c0 = blk * kColumnBlock, w = std::min(kColumnBlock, g.c - c0);
        A gw[kColumnBlock] = {}, gb[kColumnBlock] = {};
        for (int64_t nn = 0; nn < g.n; ++nn) {
          const T *gr = a.grad + nn * g.c + c0, *x = a.x + nn * g.c + c0;
          if (g.groups == 1) {  // layer norm: one mean and rstd per row
            const CenteredMean<A> c(a.mean[nn]);
            const A rstd = (A)a.rstd[nn];
            for (int64_t j = 0; j < w; ++j) {
              const A gv = (A)gr[j];
              gw[j] += gv * c.center((A)x[j]) * rstd;
              gb[j] += gv;
            }
            continue;
          }
          for (int64_t j = 0; j < w; ++j) {
            const int64_t u = g.unit_of(nn, c0 + j);
            const A gv = (A)gr[j];
            gw[j] += gv * CenteredMean<A>(a.mean[u]).center((A)x[j]) * (A)a.rstd[u];
            gb[j] += gv;
          }
        }
        for (int64_t j = 0; j < w; ++j) {
          if (a.grad_weight) a.grad_weight[c0 + j] = (T)gw[j];
          if (a.grad_bias) a.grad_bias[c0 + j] = (T)gb[j];
        }
      }
    });
    return;
  }
  parallel_for(0, g.c, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, g.n * g.s)), [&](int64_t lo, int64_t hi) {
    for (int64_t ch = lo; ch < hi; ++ch) {
      double gw = 0, gb = 0;
      for (int64_t nn = 0; nn < g.n; ++nn) {
        const int64_t off = (nn * g.c + ch) * g.s, u = g.unit_of(nn, ch);
        double sg = 0, sgc = 0;
        centred_sums(a.grad + off, a.x + off, g.s, CenteredMean<A>(a.mean[u]), sg, sgc);
        gw += a.rstd[u] * sgc;
        gb += sg;
      }
      if (a.grad_weight) a.grad_weight[ch] = (T)gw;
      if (a.grad_bias) a.grad_bias[ch] = (T)gb;
    }
  });
}

// Layer norm's whole backward in one pass over the rows: each task takes a share of them, writes
// their input gradients and sums its share of the weight and bias gradients while the row is in
// L1 (a second pass over grad and x would read both again); the shares are added at the end.
template <typename T>
void layer_norm_backward(const NormGeometry& g, const NormArgs<T>& a) {
  using A = opmath_t<T>;
  const int tasks = (int)std::max<int64_t>(1, std::min<int64_t>(get_num_threads(), g.n * g.c / kGrainSize));
  std::vector<A> partial((size_t)tasks * 2 * g.c, A(0));
  parallel_for(0, tasks, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t t = lo; t < hi; ++t) {
      A* gw = partial.data() + t * 2 * g.c;
      A* gb = gw + g.c;
      for (int64_t nn = g.n * t / tasks; nn < g.n * (t + 1) / tasks; ++nn) {
        backward_unit(g, a, nn);
        const CenteredMean<A> c(a.mean[nn]);
        const A rstd = (A)a.rstd[nn];
        const T *gr = a.grad + nn * g.c, *x = a.x + nn * g.c;
        for (int64_t j = 0; j < g.c; ++j) {
          const A gv = (A)gr[j];
          gw[j] += gv * c.center((A)x[j]) * rstd;
          gb[j] += gv;
        }
      }
    }
  });
  for (int64_t j = 0; j < g.c; ++j) {
    A w = 0, b = 0;
    for (int t = 0; t < tasks; ++t) w += partial[t * 2 * g.c + j], b += partial[t * 2 * g.c + g.c + j];
    if (a.grad_weight) a.grad_weight[j] = (T)w;
    if (a.grad_bias) a.grad_bias[j] = (T)b;
  }
}

template <typename T>
void norm_typed(const norm_plan& r, const NormGeometry& g) {
  NormArgs<T> a;
  a.x = reinterpret_cast<const T*>(r.x);
  a.weight = reinterpret_cast<const T*>(r.weight);
  a.bias = reinterpret_cast<const T*>(r.bias);
  a.mean = reinterpret_cast<double*>(r.mean);
  a.rstd = reinterpret_cast<double*>(r.rstd);
  const int64_t units = g.units(), grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, g.unit_elements()));
  if (!r.backward) {
    a.y = reinterpret_cast<T*>(r.y);
    parallel_for(0, units, grain, [&](int64_t lo, int64_t hi) {
      for (int64_t u = lo; u < hi; ++u) forward_unit(g, a, u);
    });
    return;
  }
  a.grad = reinterpret_cast<const T*>(r.grad);
  a.grad_x = reinterpret_cast<T*>(r.grad_x);
  a.grad_weight = reinterpret_cast<T*>(r.grad_weight);
  a.grad_bias = reinterpret_cast<T*>(r.grad_bias);
  if (!g.by_channel && g.s == 1 && g.groups == 1 && a.grad_x && (a.grad_weight || a.grad_bias)) {
    layer_norm_backward(g, a);
    return;
  }
  if (a.grad_x || g.by_channel) {
    parallel_for(0, units, grain, [&](int64_t lo, int64_t hi) {
      for (int64_t u = lo; u < hi; ++u) backward_unit(g, a, u);
    });
  }
  if (!g.by_channel && (a.grad_weight || a.grad_bias)) weight_grads(g, a);
}

}  // namespace

int norm_run(const norm_plan& r) {
  NormGeometry g;
  if (!g.read(r)) return JT_INVALID;
  int st = JT_NO_KERNEL;
  dispatch_dtype((DType)r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_floating<T>::value) {
      norm_typed<T>(r, g);
      st = JT_OK;
    }
  });
  return st;
}

JT_CPU_CAP_END
