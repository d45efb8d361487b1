// A small persistent thread pool: parallel_for splits [begin, end) into one chunk per thread.
#pragma once
#include <cstdint>
#include <functional>

namespace jt {

constexpr int64_t kGrainSize = 32768;  // below this many elements a kernel stays on one thread

// False when the system refused a thread: the pool keeps the size it had (see ThreadPool::resize).
bool set_num_threads(int n);
int get_num_threads();

// Runs fn(chunk_begin, chunk_end) over [begin, end). Serial when the range is at most grain,
// when called from inside a parallel region, or when another thread already holds the pool.
// An exception from any chunk is rethrown here, on the calling thread, after every chunk ended.
void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  const std::function<void(int64_t, int64_t)>& fn);

}  // namespace jt
