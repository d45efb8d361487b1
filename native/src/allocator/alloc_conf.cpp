#include "allocator/alloc_conf.h"

#include <cstdint>
#include <cstdlib>

namespace jt {
namespace {

const char* kCommonKeys =
    " is a comma-separated list of key:value, with keys max_split_size_mb (a positive integer), "
    "memory_limit_mb (a non-negative integer, 0 for no limit), ";
const char* kCpuKeys = "huge_pages (0 or 1) and thread_cache_kb (a non-negative integer, 0 for no thread caches)";
const char* kCudaKeys = "and garbage_collection_threshold (a fraction between 0 and 1, used with memory_limit_mb)";

// A decimal integer of digits only, below 2^44 (MiB that still fit in bytes); -1 when it is not one.
int64_t parse_count(const std::string& v) {
  if (v.empty() || v.size() > 13) return -1;
  int64_t n = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n < (int64_t(1) << 44) ? n : -1;
}

// A decimal fraction strictly between 0 and 1 (PyTorch's rule); -1 when it is not one.
double parse_fraction(const std::string& v) {
  if (v.empty() || v.find_first_not_of("0123456789.") != std::string::npos) return -1;
  char* end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  return *end == '\0' && x > 0 && x < 1 ? x : -1;
}

}  // namespace

AllocConf parse_alloc_conf(const char* text, AllocConfTarget target) {
  const bool cuda = target == AllocConfTarget::kCuda;
  const char* var = cuda ? "JT_CUDA_ALLOC_CONF" : "JT_ALLOC_CONF";
  AllocConf conf;
  if (!text || !*text) return conf;
  AllocConf parsed;
  std::string s(text);
  size_t at = 0;
  while (at <= s.size()) {
    size_t end = s.find(',', at);
    if (end == std::string::npos) end = s.size();
    std::string entry = s.substr(at, end - at);
    size_t colon = entry.find(':');
    std::string key = entry.substr(0, colon), value = colon == std::string::npos ? "" : entry.substr(colon + 1);
    int64_t n = parse_count(value);
    std::string bad;
    if (colon == std::string::npos || key.empty()) {
      bad = "entry '" + entry + "' is not key:value";
    } else if (key == "max_split_size_mb") {
      if (n <= 0) bad = "max_split_size_mb:" + value + " is not a positive integer";
      else parsed.max_split_size = (size_t)n << 20;
    } else if (key == "memory_limit_mb") {
      if (n < 0) bad = "memory_limit_mb:" + value + " is not a non-negative integer";
      else parsed.memory_limit = (size_t)n << 20;
    } else if (!cuda && key == "huge_pages") {
      if (n != 0 && n != 1) bad = "huge_pages:" + value + " is not 0 or 1";
      else parsed.huge_pages = n == 1;
    } else if (!cuda && key == "thread_cache_kb") {
      if (n < 0) bad = "thread_cache_kb:" + value + " is not a non-negative integer";
      else parsed.thread_cache_bytes = (size_t)n << 10;
    } else if (cuda && key == "garbage_collection_threshold") {
      double x = parse_fraction(value);
      if (x < 0) bad = "garbage_collection_threshold:" + value + " is not a fraction between 0 and 1";
      else parsed.garbage_collection_threshold = x;
    } else {
      bad = "unknown key '" + key + "'";
    }
    if (!bad.empty()) {
      conf.error = std::string(var) + "='" + s + "': " + bad + ". " + var + kCommonKeys + (cuda ? kCudaKeys : kCpuKeys);
      return conf;
    }
    at = end + 1;
  }
  return parsed;
}

}  // namespace jt
