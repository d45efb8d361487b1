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

// Note [Random blocks in batches]: a Philox block gives random_block_elements(kind) elements, and
// the element-by-element walk computed each element's whole block again (10 rounds for 2 or 4
// elements: dropout's draw was 15% of a transformer layer's training step). A contiguous draw
// takes its blocks kBlockBatch at a time, their words laid out by word, in one loop over the
// blocks that the compiler vectorizes (the rounds' 32x32->64 products are vpmuludq), then writes
// each block's elements from its words: the same words and formula per element as the walk.
constexpr int kBlockBatch = 64;

void philox_blocks(uint64_t key, uint64_t counter, int m, uint32_t (&w)[4][kBlockBatch]) {
  for (int j = 0; j < m; ++j) {
    uint32_t out[4];
    philox_block(key, counter + (uint64_t)j, out);
    w[0][j] = out[0], w[1][j] = out[1], w[2][j] = out[2], w[3][j] = out[3];
  }
}

// Elements [lo, hi) of blocks first .. first + m - 1 (words w) into dst, the kind K a constant so
// that the loop over whole blocks vectorizes; a block cut by the chunk's ends goes element by element.
template <RandomKind K, typename T>
void write_blocks(const RandomDraw& d, const uint32_t (&w)[4][kBlockBatch], int64_t first, T* dst, const double* prob, int64_t lo,
                  int64_t hi) {
  constexpr int per = K == RandomKind::Uniform24 ? 4 : 2;
  RandomDraw dk = d;
  dk.kind = K;
  auto p_at = [&](int64_t i) {
    if constexpr (K == RandomKind::BernoulliTensor) return prob[i];
    return 0.0;
  };
  auto one = [&](int64_t i) {
    const int64_t j = i / per - first;
    const uint32_t words[4] = {w[0][j], w[1][j], w[2][j], w[3][j]};
    dst[i] = random_element<T>(dk, words, (int)(i % per), p_at(i));
  };
  const int64_t whole_lo = (lo + per - 1) / per, whole_hi = hi / per;  // the blocks inside [lo, hi)
  if (whole_lo >= whole_hi) {
    for (int64_t i = lo; i < hi; ++i) one(i);
    return;
  }
  for (int64_t i = lo; i < whole_lo * per; ++i) one(i);
  for (int64_t blk = whole_lo; blk < whole_hi; ++blk) {
    const int64_t j = blk - first;
    const uint32_t words[4] = {w[0][j], w[1][j], w[2][j], w[3][j]};
    JT_UNROLL
    for (int k = 0; k < per; ++k) dst[blk * per + k] = random_element<T>(dk, words, k, p_at(blk * per + k));
  }
  for (int64_t i = whole_hi * per; i < hi; ++i) one(i);
}

// dst[i] for i in [0, n), contiguous, of a kind other than Normal; prob: BernoulliTensor's
// probabilities, contiguous.
template <RandomKind K, typename T>
void blocks_contiguous(const RandomDraw& d, T* dst, const double* prob, int64_t n) {
  constexpr int per = K == RandomKind::Uniform24 ? 4 : 2;
  parallel_for(0, n, kGrainSize / 8, [&](int64_t b, int64_t e) {
    uint32_t w[4][kBlockBatch];
    for (int64_t first = b / per; first * per < e; first += kBlockBatch) {
      const int m = (int)std::min<int64_t>(kBlockBatch, (e + per - 1) / per - first);
      philox_blocks(d.key, d.counter + (uint64_t)first, m, w);
      write_blocks<K>(d, w, first, dst, prob, std::max(b, first * per), std::min(e, (first + m) * per));
    }
  });
}

template <typename T>
void blocks_contiguous(const RandomDraw& d, T* dst, const double* prob, int64_t n) {
  switch (d.kind) {
    case RandomKind::Uniform53: return blocks_contiguous<RandomKind::Uniform53>(d, dst, prob, n);
    case RandomKind::Uniform24: return blocks_contiguous<RandomKind::Uniform24>(d, dst, prob, n);
    case RandomKind::Integers: return blocks_contiguous<RandomKind::Integers>(d, dst, prob, n);
    case RandomKind::Bernoulli: return blocks_contiguous<RandomKind::Bernoulli>(d, dst, prob, n);
    default: return blocks_contiguous<RandomKind::BernoulliTensor>(d, dst, prob, n);
  }
}

bool row_major_contiguous(const RandomPlan& p, const int64_t* strides) {
  int64_t expected = 1;
  for (int k = p.ndim - 1; k >= 0; --k) {
    if (p.sizes[k] != 1 && strides[k] != expected) return false;
    expected *= p.sizes[k];
  }
  return true;
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
    if (row_major_contiguous(p, p.dst_strides)) {
      if (kind == RandomKind::Normal) return normal_contiguous(p.draw, dst, n);
      if (kind != RandomKind::BernoulliTensor) return blocks_contiguous(p.draw, dst, static_cast<const double*>(nullptr), n);
      if (row_major_contiguous(p, p.p_strides)) return blocks_contiguous(p.draw, dst, prob, n);
    }
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
