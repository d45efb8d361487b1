// The dtype table as the C API gives it to Java: names, item sizes and kinds, all from
// JT_FORALL_DTYPES, so Java's DType cannot drift from the kernels' types.
#include <cctype>
#include <string>

#include "jt/dtype.h"
#include "jt/jt.h"

namespace {

struct DTypeEntry {
  std::string name;
  int size;
  int kind;  // 0 bool, 1 integral, 2 floating
};

template <typename T>
DTypeEntry entry(const char* enumerator) {
  std::string name(enumerator);
  for (char& c : name) c = (char)std::tolower((unsigned char)c);
  int kind = std::is_same<T, bool>::value ? 0 : jt::is_floating<T>::value ? 2 : 1;
  return {name, (int)sizeof(T), kind};
}

const DTypeEntry* table() {
  static const DTypeEntry entries[jt::kNumDTypes] = {
#define JT_DTYPE_ENTRY(ctype, name) entry<ctype>(#name),
      JT_FORALL_DTYPES(JT_DTYPE_ENTRY)
#undef JT_DTYPE_ENTRY
  };
  return entries;
}

bool valid(int code) { return code >= 0 && code < jt::kNumDTypes; }

}  // namespace

int jt_dtype_count(void) { return jt::kNumDTypes; }
const char* jt_dtype_name(int code) { return valid(code) ? table()[code].name.c_str() : nullptr; }
int jt_dtype_item_size(int code) { return valid(code) ? table()[code].size : -1; }
int jt_dtype_kind(int code) { return valid(code) ? table()[code].kind : -1; }
