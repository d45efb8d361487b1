// JT_ALLOC_CONF: the caching allocator's settings, in PyTorch's "key:value,key:value" syntax.
#pragma once
#include <cstddef>
#include <string>

namespace jt {

struct AllocConf {
  size_t max_split_size = 0;  // bytes; 0: no cap on splitting
  size_t memory_limit = 0;    // bytes; 0: no limit
  bool huge_pages = true;
  std::string error;          // empty when the text was valid; else names the key and the accepted form
};

// Parses text (nullptr or empty: the defaults). On an error every setting keeps its default.
AllocConf parse_alloc_conf(const char* text);

}  // namespace jt
