#include "allocator/alloc_conf.h"

#include <cstdint>

namespace jt {
namespace {

const char* kForm =
    "JT_ALLOC_CONF is a comma-separated list of key:value, with keys max_split_size_mb (a positive integer), "
    "memory_limit_mb (a non-negative integer, 0 for no limit) and huge_pages (0 or 1)";

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

}  // namespace

AllocConf parse_alloc_conf(const char* text) {
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
    } else if (key == "huge_pages") {
      if (n != 0 && n != 1) bad = "huge_pages:" + value + " is not 0 or 1";
      else parsed.huge_pages = n == 1;
    } else {
      bad = "unknown key '" + key + "'";
    }
    if (!bad.empty()) {
      conf.error = "JT_ALLOC_CONF='" + s + "': " + bad + ". " + kForm;
      return conf;
    }
    at = end + 1;
  }
  return parsed;
}

}  // namespace jt
