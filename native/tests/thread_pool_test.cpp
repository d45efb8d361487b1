// The kernels' thread pool: resizing answers a status through the C API, and a size the system
// refuses (here: an address-space limit, which binds root too, leaves no room for the threads'
// stacks) leaves the pool at the size it had, running ops, instead of throwing std::system_error
// through JNI (which ends the JVM) or keeping a size without the workers to match (a hang).
#include <atomic>
#include <cstdio>
#include <cstdint>

#include "check.h"
#include "jt/jt.h"
#include "parallel.h"
// Not under an emulator (which maps its own memory) nor AddressSanitizer (whose shadow memory a
// tight address-space limit starves: it aborts instead of failing the thread).
#if defined(__linux__) && !defined(JT_EMULATED) && !defined(__SANITIZE_ADDRESS__)
#include <sys/resource.h>
#include <unistd.h>
#define JT_CAN_LIMIT_ADDRESS_SPACE 1
#endif

namespace {

// The sum 0 + 1 + ... + n - 1 over the pool, in chunks; and how many chunks ran.
int64_t pool_sum(int64_t n, int* chunks) {
  std::atomic<int64_t> sum{0};
  std::atomic<int> ran{0};
  jt::parallel_for(0, n, 1024, [&](int64_t b, int64_t e) {
    int64_t s = 0;
    for (int64_t i = b; i < e; ++i) s += i;
    sum += s;
    ++ran;
  });
  *chunks = ran.load();
  return sum.load();
}

void resizes_and_statuses() {
  CHECK_EQ(jt_set_num_threads(0), JT_INVALID);
  CHECK_EQ(jt_set_num_threads(-3), JT_INVALID);
  for (int n : {3, 1, 4, 2}) {
    CHECK_EQ(jt_set_num_threads(n), JT_OK);
    CHECK_EQ(jt_get_num_threads(), n);
    int chunks = 0;
    CHECK_EQ(pool_sum(1 << 20, &chunks), (int64_t)(1 << 20) * ((1 << 20) - 1) / 2);
    CHECK_EQ(chunks, n);
  }
}

void a_refused_size_keeps_the_old_one() {
#if JT_CAN_LIMIT_ADDRESS_SPACE
  CHECK_EQ(jt_set_num_threads(3), JT_OK);
  long pages = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  CHECK(pages > 0);
  rlimit old{};
  CHECK_EQ(getrlimit(RLIMIT_AS, &old), 0);
  // 48 MiB above what the process maps now: room for a few threads' stacks, not for 300
  rlimit tight = old;
  tight.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (48u << 20);
  CHECK_EQ(setrlimit(RLIMIT_AS, &tight), 0);
  const int st = jt_set_num_threads(300);
  const int size = jt_get_num_threads();
  int chunks = 0;
  const int64_t sum = pool_sum(1 << 20, &chunks);
  CHECK_EQ(setrlimit(RLIMIT_AS, &old), 0);
  std::printf("  300 threads under a 48 MiB address-space margin: status %d, pool size %d, %d chunks\n", st, size, chunks);
  CHECK_EQ(st, JT_OUT_OF_MEMORY);
  CHECK_EQ(size, 3);
  CHECK_EQ(chunks, 3);
  CHECK_EQ(sum, (int64_t)(1 << 20) * ((1 << 20) - 1) / 2);
  CHECK_EQ(jt_set_num_threads(2), JT_OK);  // and resizes afterwards as before
  CHECK_EQ(pool_sum(1 << 20, &chunks), (int64_t)(1 << 20) * ((1 << 20) - 1) / 2);
  CHECK_EQ(chunks, 2);
#else
  std::printf("  a refused size: not checked here (no address-space limit under an emulator, AddressSanitizer or off Linux)\n");
#endif
}

}  // namespace

int main() {
  resizes_and_statuses();
  a_refused_size_keeps_the_old_one();
  return jt_report("thread_pool_test");
}
