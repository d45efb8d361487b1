// Each plan's layout as a string, from the lists in jt/plans.h: Java compares its packers' own
// statements with these when the library loads.
#include <cstring>

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
