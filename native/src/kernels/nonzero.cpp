#include "kernels/nonzero.h"

#include <vector>

#include "parallel.h"

namespace jt {

int64_t nonzero_run(const NonzeroArgs& a) {
  std::vector<int64_t> start((size_t)a.chunks + 1, 0);
  dispatch_dtype(a.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    parallel_for(0, a.chunks, 1, [&](int64_t cb, int64_t ce) {  // each chunk's count
      for (int64_t c = cb; c < ce; ++c) start[(size_t)c + 1] = nonzero_chunk_count<T>(a, c);
    });
    for (int64_t c = 0; c < a.chunks; ++c) start[(size_t)c + 1] += start[(size_t)c];
    if (a.out == nullptr) return;
    parallel_for(0, a.chunks, 1, [&](int64_t cb, int64_t ce) {  // then each chunk's rows, from its start
      for (int64_t c = cb; c < ce; ++c) nonzero_chunk_write<T>(a, c, start[(size_t)c]);
    });
  });
  return start[(size_t)a.chunks];
}

}  // namespace jt
