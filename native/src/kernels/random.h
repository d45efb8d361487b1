// Random draws from Philox4x32-10 (counter-based): element e of a draw depends only on the key
// and the counter of its block, never on the thread count or chunking. Values are written to a
// strided tensor in row-major element order.
#pragma once
#include <cstdint>

#include "jt/dtype.h"

namespace jt {

// The draw kinds, found by name from Java (jt_random_kind); element e's block and words:
enum class RandomKind : int {
  Uniform53 = 0,        // a + (b - a) * u, u from words (0,1) or (2,3) of block e / 2: 53 bits
  Uniform24 = 1,        // (word e % 4 of block e / 4) >> 8, times 2^-24, as a float
  Normal = 2,           // a + b * Box-Muller(block e / 2): cos for even e, sin for odd
  Integers = 3,         // low + (64 bits of words (0,1) or (2,3) of block e / 2) mod range, unsigned
  Bernoulli = 4,        // u < a ? 1 : 0 (u as Uniform53)
  BernoulliTensor = 5,  // u < p[e] ? 1 : 0, every p checked to lie in [0, 1] first
};

struct RandomPlan {
  RandomKind kind;
  DType dtype;
  int ndim;
  char* dst;
  uint64_t key, counter;  // the Philox key (the seed) and the first block's counter
  double a, b;            // the kind's parameters (Integers: a holds low, b the range, as int64)
  int64_t low, range;
  const char* p;          // BernoulliTensor: the probabilities, float64 at p_strides
  const int64_t* sizes;
  const int64_t* dst_strides;
  const int64_t* p_strides;
};

// 0; 1 with *bad the first probability outside [0, 1] (nothing written); -1 for an unknown kind.
int random_run(const RandomPlan& p, double* bad);
int random_kind_id(const char* name);
// The four words of Philox block counter under key: what Java's tests compare with.
void philox_block(uint64_t key, uint64_t counter, uint32_t out[4]);

}  // namespace jt
