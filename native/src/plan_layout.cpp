// Each plan's layout as a string, from the lists in jt/plans.h, and each status code's name, from
// jt.h's list: Java compares its packers' own statements and its KernelStatus with these when the
// library loads.
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "jt/jt.h"
#include "jt/plans.h"

namespace {
#define JT_PLAN_FIELD_STR(f) #f ","
#define JT_PLAN_ARRAY_STR(f, len) #f "[" #len "],"
struct Layout {
  const char* name;
  const char* fields;
};
const Layout kLayouts[] = {
#define JT_PLAN_ENTRY(name, LIST) {#name, LIST(JT_PLAN_FIELD_STR, JT_PLAN_ARRAY_STR)},
    JT_FORALL_PLANS(JT_PLAN_ENTRY)
#undef JT_PLAN_ENTRY
};
}  // namespace

int jt_plan_version(void) { return JT_PLAN_VERSION; }

const char* jt_plan_layout(const char* name) {
  for (const Layout& l : kLayouts) {
    if (std::strcmp(l.name, name) == 0) return l.fields;
  }
  return nullptr;
}

// ---- the status codes (jt.h's JT_FORALL_STATUSES), by name in lower case: Java's KernelStatus reads them at load ----
namespace {
const char* const kStatusNames[] = {
#define JT_STATUS_NAME(name) #name,
    JT_FORALL_STATUSES(JT_STATUS_NAME)
#undef JT_STATUS_NAME
};
constexpr int kStatusCount = (int)(sizeof kStatusNames / sizeof kStatusNames[0]);

std::string lower(const char* s) {
  std::string r(s);
  for (char& c : r) c = (char)std::tolower((unsigned char)c);
  return r;
}
}  // namespace

int jt_status_count(void) { return kStatusCount; }

const char* jt_status_name(int code) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const char* n : kStatusNames) v.push_back(lower(n));
    return v;
  }();
  return code >= 0 && code < kStatusCount ? names[(size_t)code].c_str() : nullptr;
}
