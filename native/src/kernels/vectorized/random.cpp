#include "kernels/random.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "parallel.h"

#include "kernels/vectorized/capability_namespace.h"

JT_CPU_CAP_BEGIN

namespace {

// f(e, dst_offset, p_offset) for every element, in parallel chunks of row-major order (serially
// when grain >= n).
template <typename F>
void for_each_element(const RandomPlan& p, int64_t n, int64_t grain, F&& f) {
  parallel_for(0, n, grain, [&](int64_t b, int64_t e) {
    int64_t pos[64], off = 0, poff = 0, rem = b;
    for (int k = p.ndim - 1; k >= 0; --k) {
      pos[k] = rem % p.sizes[k];
      rem /= p.sizes[k];
      off += pos[k] * p.dst_strides[k];
      poff += pos[k] * p.p_strides[k];
    }
    for (int64_t i = b; i < e; ++i) {
      f(i, off, poff);
      for (int k = p.ndim - 1; k >= 0; --k) {  // odometer step
        off += p.dst_strides[k];
        poff += p.p_strides[k];
        if (++pos[k] < p.sizes[k]) break;
        off -= p.dst_strides[k] * p.sizes[k];
        poff -= p.p_strides[k] * p.sizes[k];
        pos[k] = 0;
      }
    }
  });
}

bool row_major_contiguous(const RandomPlan& p) {
  int64_t expected = 1;
  for (int k = p.ndim - 1; k >= 0; --k) {
    if (p.sizes[k] != 1 && p.dst_strides[k] != expected) return false;
    expected *= p.sizes[k];
  }
  return true;
}

// A contiguous normal draw: each pair of elements from one radius and one sine-cosine (the
// bits random_value gives each), in batches of stages whose loops the compiler vectorizes (one
// loop over the whole formula is too much for it), then converted to T. A chunk that starts or
// ends inside a pair computes that pair too and writes only its own element.
template <typename T>
void normal_contiguous(const RandomDraw& d, T* dst, int64_t n) {
  parallel_for(0, n, kGrainSize / 8, [&](int64_t b, int64_t e) {
    constexpr int64_t kBatch = 64;
    double radius[kBatch], angle[kBatch], sine[kBatch], cosine[kBatch], values[2 * kBatch];
    for (int64_t first = b / 2; 2 * first < e; first += kBatch) {
      const int64_t m = std::min(kBatch, (e + 1) / 2 - first);
      for (int64_t j = 0; j < m; ++j) {
        uint32_t w[4];
        philox_block(d.key, d.counter + (uint64_t)(first + j), w);
        radius[j] = philox_bits53(w[0], w[1]);
        angle[j] = normal_angle(w);
      }
      for (int64_t j = 0; j < m; ++j) radius[j] = normal_radius_of(radius[j]);
      for (int64_t j = 0; j < m; ++j) fp::sin_and_cos(angle[j], sine[j], cosine[j]);
      for (int64_t j = 0; j < m; ++j) {
        values[2 * j] = normal_from(d, radius[j], cosine[j]);
        values[2 * j + 1] = normal_from(d, radius[j], sine[j]);
      }
      const int64_t lo = std::max(b, 2 * first), hi = std::min(e, 2 * (first + m));
      for (int64_t i = lo; i < hi; ++i) dst[i] = convert<T, double>(values[i - 2 * first]);
    }
  });
}

}  // namespace

int random_kind_id(const char* name) {
  static const char* const kNames[] = {"uniform53", "uniform24", "normal", "integers", "bernoulli", "bernoulli_tensor"};
  for (int i = 0; i < kNumRandomKinds; ++i)
    if (std::strcmp(name, kNames[i]) == 0) return i;
  return -1;
}

int random_run(const RandomPlan& p, double* bad) {
  const RandomKind kind = p.draw.kind;
  if ((int)kind < 0 || (int)kind >= kNumRandomKinds || p.ndim < 0 || p.ndim > 64) return -1;
  int64_t n = 1;
  for (int k = 0; k < p.ndim; ++k) n *= p.sizes[k];
  if (n == 0) return 0;
  const double* prob = reinterpret_cast<const double*>(p.p);
  if (kind == RandomKind::BernoulliTensor) {  // checked before any byte is written
    std::atomic<bool> ok{true};
    for_each_element(p, n, kGrainSize, [&](int64_t, int64_t, int64_t po) {
      if (!random_probability_ok(prob[po])) ok.store(false, std::memory_order_relaxed);
    });
    if (!ok.load()) {  // find the first in order, serially
      bool found = false;
      for_each_element(p, n, n, [&](int64_t, int64_t, int64_t po) {
        if (!found && !random_probability_ok(prob[po])) found = true, *bad = prob[po];
      });
      return 1;
    }
  }
  dispatch_dtype(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = reinterpret_cast<T*>(p.dst);
    if (kind == RandomKind::Normal && row_major_contiguous(p)) return normal_contiguous(p.draw, dst, n);
    const int per = random_block_elements(kind);
    for_each_element(p, n, kGrainSize / 8, [&](int64_t e, int64_t off, int64_t po) {
      uint32_t w[4];
      philox_block(p.draw.key, p.draw.counter + (uint64_t)(e / per), w);
      dst[off] = random_element<T>(p.draw, w, (int)(e % per), kind == RandomKind::BernoulliTensor ? prob[po] : 0.0);
    });
  });
  return 0;
}

JT_CPU_CAP_END
