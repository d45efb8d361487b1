// JT_ALLOC_CONF (CPU) and JT_CUDA_ALLOC_CONF (CUDA): the caching allocators' settings, in PyTorch's
// "key:value,key:value" syntax.
#pragma once
#include <cstddef>
#include <string>

namespace jt {

struct AllocConf {
  size_t max_split_size = 0;  // bytes; 0: no cap on splitting
  size_t memory_limit = 0;    // bytes; 0: no limit
  bool huge_pages = true;     // CPU only
  size_t thread_cache_bytes = 512 << 10;  // CPU only: a thread cache's most parked bytes; 0: no caches
  double garbage_collection_threshold = 0;  // CUDA only, with a memory limit; 0: off
  std::string error;          // empty when the text was valid; else names the key and the accepted form
};

// Which allocator the text configures: each has its own variable and keys.
enum class AllocConfTarget { kCpu, kCuda };

// Parses text (nullptr or empty: the defaults). On an error every setting keeps its default.
AllocConf parse_alloc_conf(const char* text, AllocConfTarget target = AllocConfTarget::kCpu);

}  // namespace jt
