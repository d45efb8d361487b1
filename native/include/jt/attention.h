// The attention plan's geometry and dropout draw for the CPU kernel (vectorized/attention.cpp) and
// the CUDA kernels (cuda-kernels/src/attention.cu) alike: one reading of the plan, one statement of
// which scores dropout keeps, so a seed drops the same scores on every device.
#pragma once
#include <cstdint>
#include <cstring>

#include "jt/dtype.h"
#include "jt/plans.h"

namespace jt {

struct AttentionGeometry {
  int64_t batch = 0, heads = 1, kv_heads = 1, lq = 0, lk = 0, e = 0, ev = 0;
  double scale = 1, dropout = 0;
  bool causal = false;
  int mask_kind = 0;     // 0 none, 1 bool (true takes part), 2 additive in the math type (AttentionOperands' A)
  int64_t ms[4] = {};    // the mask's strides over (batch, query head, query, key); 0 where broadcast
  uint64_t seed = 0, counter = 0;

  // False when the plan's numbers cannot describe an attention (Java checks first; this guards the kernels).
  bool read(const attention_plan& r) {
    batch = r.batch, heads = r.heads, kv_heads = r.kv_heads, lq = r.lq, lk = r.lk, e = r.e, ev = r.ev;
    if (batch < 0 || heads <= 0 || kv_heads <= 0 || heads % kv_heads != 0 || lq < 0 || lk < 0 || e < 0 || ev < 0) return false;
    std::memcpy(&scale, &r.scale, 8);
    std::memcpy(&dropout, &r.dropout, 8);
    if (!(dropout >= 0 && dropout <= 1)) return false;
    causal = r.causal != 0;
    mask_kind = (int)r.mask_kind;
    if (mask_kind < 0 || mask_kind > 2 || (mask_kind != 0 && r.mask == 0)) return false;
    for (int d = 0; d < 4; ++d) ms[d] = r.mask_strides[d];
    seed = (uint64_t)r.seed;
    counter = (uint64_t)r.counter;
    return true;
  }

  JT_HOST_DEVICE int64_t group() const { return heads / kv_heads; }
  // What a kept probability is multiplied by: 1 / (1 - dropout), or 0 when every score is dropped.
  double keep_factor() const { return dropout < 1 ? 1.0 / (1.0 - dropout) : 0.0; }
  // The flat index of score (b, h, query i, key j) over [batch, heads, lq, lk]: its dropout draw's element.
  JT_HOST_DEVICE uint64_t score_index(int64_t b, int64_t h, int64_t i, int64_t j) const {
    return (uint64_t)(((b * heads + h) * lq + i) * lk + j);
  }
};

// The geometry with the plan's operands typed as T and A, T's math type (float for float16 and
// bfloat16, T itself otherwise): the scale, the keep factor, the row log-sum-exp and an additive
// mask (the mask stays untyped: bool or A) in A. What every kernel reads from the plan, read once here.
template <typename T, typename A = T>
struct AttentionOperands : AttentionGeometry {
  A tscale, keep;
  const void* mask;
  const T *q, *k, *v, *grad_out;
  T *out, *grad_q, *grad_k, *grad_v;
  A* lse;

  bool read_operands(const attention_plan& r) {
    if (!read(r)) return false;
    tscale = (A)scale, keep = (A)keep_factor();
    mask = reinterpret_cast<const void*>(r.mask);
    q = reinterpret_cast<const T*>(r.q), k = reinterpret_cast<const T*>(r.k), v = reinterpret_cast<const T*>(r.v);
    out = reinterpret_cast<T*>(r.out), lse = reinterpret_cast<A*>(r.lse);
    grad_out = reinterpret_cast<const T*>(r.grad_out);
    grad_q = reinterpret_cast<T*>(r.grad_q), grad_k = reinterpret_cast<T*>(r.grad_k), grad_v = reinterpret_cast<T*>(r.grad_v);
    return true;
  }
};

// Score el's dropout draw is word el % 4 of Philox block counter + el / 4 (philox.h); its top 24
// bits as u in [0, 1), the score is kept when u >= dropout.
JT_HOST_DEVICE inline uint64_t attention_draw_block(uint64_t el) { return el / 4; }
JT_HOST_DEVICE inline bool attention_kept(const uint32_t words[4], uint64_t el, double dropout) {
  return (double)(words[el % 4] >> 8) * 0x1p-24 >= dropout;
}

}  // namespace jt
