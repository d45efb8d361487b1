// searchsorted on the CPU: jt/search.h's binary search per value, values in parallel.
#include <type_traits>

#include "jt/jt.h"
#include "jt/search.h"
#include "kernels/kernels.h"
#include "parallel.h"

namespace jt {

int search_run(const search_plan& p) {
  if ((DType)p.dtype == DType::Bool) return -1;  // PyTorch has no bool searchsorted
  if (p.sorter) {  // every sorter entry a position within its row: nothing read outside bd
    const int64_t* s = reinterpret_cast<const int64_t*>(p.sorter);
    for (int64_t i = 0, count = p.rows * p.len; i < count; ++i)
      if (s[i] < 0 || s[i] >= p.len) return JT_INDEX_OUT_OF_RANGE;
  }
  dispatch_dtype((DType)p.dtype, [&](auto t) {
    using T = typename decltype(t)::type;
    if constexpr (!std::is_same<T, bool>::value) {
      parallel_for(0, p.n, 2048, [&](int64_t b, int64_t e) {  // a search is ~log2(len) loads: a small grain
        for (int64_t i = b; i < e; ++i) search_store<T>(p, i);
      });
    }
  });
  return 0;
}

}  // namespace jt
