#include "kernels/random.h"

#include <atomic>
#include <cmath>
#include <cstring>

#include "parallel.h"

namespace jt {

void philox_block(uint64_t key, uint64_t counter, uint32_t out[4]) {
  const uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u, W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
  uint32_t c0 = (uint32_t)counter, c1 = (uint32_t)(counter >> 32), c2 = 0, c3 = 0;
  uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
  for (int r = 0; r < 10; ++r) {
    const uint64_t p0 = (uint64_t)M0 * c0, p1 = (uint64_t)M1 * c2;
    const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
    const uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint32_t)p1;
    c3 = (uint32_t)p0;
    c0 = n0;
    c2 = n2;
    k0 += W0;
    k1 += W1;
  }
  out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

namespace {

double bits53(uint32_t hi, uint32_t lo) { return (double)((((uint64_t)hi << 32) | lo) >> 11) * 0x1.0p-53; }

// Element e's value, as a double (Integers: as an exact int64 in *exact).
double value(const RandomPlan& p, int64_t e, const double* prob, int64_t* exact) {
  uint32_t w[4];
  switch (p.kind) {
    case RandomKind::Uniform24: {
      philox_block(p.key, p.counter + (uint64_t)(e / 4), w);
      return (double)((float)(w[e & 3] >> 8) * 0x1.0p-24f);
    }
    case RandomKind::Normal: {
      philox_block(p.key, p.counter + (uint64_t)(e / 2), w);
      const double r = std::sqrt(-2.0 * std::log(1.0 - bits53(w[0], w[1])));  // 1 - u is in (0, 1]
      const double th = 2.0 * M_PI * bits53(w[2], w[3]);
      return p.a + p.b * ((e & 1) ? r * std::sin(th) : r * std::cos(th));
    }
    default: break;
  }
  philox_block(p.key, p.counter + (uint64_t)(e / 2), w);
  const uint32_t hi = (e & 1) ? w[2] : w[0], lo = (e & 1) ? w[3] : w[1];
  switch (p.kind) {
    case RandomKind::Uniform53: return p.a + (p.b - p.a) * bits53(hi, lo);
    case RandomKind::Integers:
      *exact = (int64_t)((uint64_t)p.low + ((((uint64_t)hi << 32) | lo) % (uint64_t)p.range));
      return 0;
    case RandomKind::Bernoulli: return bits53(hi, lo) < p.a ? 1.0 : 0.0;
    default: return bits53(hi, lo) < *prob ? 1.0 : 0.0;  // BernoulliTensor
  }
}

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

}  // namespace

int random_kind_id(const char* name) {
  static const char* const kNames[] = {"uniform53", "uniform24", "normal", "integers", "bernoulli", "bernoulli_tensor"};
  for (int i = 0; i < 6; ++i)
    if (std::strcmp(name, kNames[i]) == 0) return i;
  return -1;
}

int random_run(const RandomPlan& p, double* bad) {
  if ((int)p.kind < 0 || (int)p.kind > 5 || p.ndim < 0 || p.ndim > 64) return -1;
  int64_t n = 1;
  for (int k = 0; k < p.ndim; ++k) n *= p.sizes[k];
  if (n == 0) return 0;
  const double* prob = reinterpret_cast<const double*>(p.p);
  if (p.kind == RandomKind::BernoulliTensor) {  // checked before any byte is written
    std::atomic<bool> ok{true};
    for_each_element(p, n, kGrainSize, [&](int64_t, int64_t, int64_t po) {
      if (!(prob[po] >= 0 && prob[po] <= 1)) ok.store(false, std::memory_order_relaxed);
    });
    if (!ok.load()) {  // find the first in order, serially
      bool found = false;
      for_each_element(p, n, n, [&](int64_t, int64_t, int64_t po) {
        if (!found && !(prob[po] >= 0 && prob[po] <= 1)) found = true, *bad = prob[po];
      });
      return 1;
    }
  }
  dispatch_dtype(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = reinterpret_cast<T*>(p.dst);
    for_each_element(p, n, kGrainSize / 8, [&](int64_t e, int64_t off, int64_t po) {
      int64_t exact = 0;
      const double v = value(p, e, prob + po, &exact);
      dst[off] = p.kind == RandomKind::Integers ? convert<T, int64_t>(exact) : convert<T, double>(v);
    });
  });
  return 0;
}

}  // namespace jt
