// jtc_index_along and jtc_index_advanced on a GPU (CTest label cuda) against the CPU's kernels,
// over the cases of index_cases.h: each case's buffers go to CUDA storages, the plan is made over
// their device addresses, and the bytes come back to be compared. Without a GPU it reports why and fails.
#include <cstdio>
#include <cstring>

#include "check.h"
#include "index_cases.h"
#include "jt/jt.h"
#include "jtc/jtc.h"

using index_cases::Buf;
using index_cases::PlanOf;
using index_cases::V;

int index_cases::under_test(bool advanced, const PlanOf& plan_of, const std::vector<Buf*>& bufs, int64_t* bad) {
  V storages, addresses;
  for (Buf* b : bufs) {
    const int64_t s = jt_storage_new(JT_DEVICE_CUDA, b->bytes());
    CHECK(s != 0);
    storages.push_back(s);
    addresses.push_back(jt_storage_data(s));
    CHECK_EQ(jtc_write_bytes(addresses.back(), b->words.data(), b->bytes()), JT_OK);
  }
  V plan = plan_of(addresses);
  const int st = advanced ? jtc_index_advanced(plan.data(), bad) : jtc_index_along(plan.data(), bad);
  if (st == JTC_CUDA_ERROR) std::fprintf(stderr, "cuda_index_test: %s\n", jtc_last_error());
  for (size_t k = 0; k < bufs.size(); ++k) {
    CHECK_EQ(jtc_read_bytes(addresses[k], bufs[k]->words.data(), bufs[k]->bytes()), JT_OK);
    jt_storage_release(storages[k]);
  }
  return st;
}

int main() {
  const int err = jtc_init();
  if (err != 0) {
    std::fprintf(stderr, "cuda_index_test: no usable GPU (cudaError %d)\n", err);
    return 1;
  }
  index_cases::run_all();
  CHECK_EQ(jtc_synchronize(), JT_OK);
  int64_t stats[256] = {0};
  jt_memory_stats(JT_DEVICE_CUDA, stats);
  for (int i = 0; i < jt_stat_count(); ++i)
    if (std::strcmp(jt_stat_name(i), "allocated_bytes.all.current") == 0) CHECK_EQ(stats[i], 0);
  return jt_report("cuda_index_test");
}
