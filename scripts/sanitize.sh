#!/usr/bin/env bash
# The native CTest suites built with AddressSanitizer and UndefinedBehaviorSanitizer (cmake
# option JT_SANITIZE): any finding fails. The caching allocator poisons what it caches, so a
# kernel reading a freed block or past a tensor's bytes is caught. The allocator's two suites also
# run under ThreadSanitizer (its thread caches, Note [Thread caches]). Run by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
for lib in libasan.so libubsan.so libtsan.so; do
  if [ ! -e "$(g++ -print-file-name=$lib)" ]; then
    echo "jtensor: the sanitizer build needs $lib, which ships with g++ (Debian: libgcc-12-dev)" >&2
    exit 1
  fi
done
build=build/sanitize
# The vectorized kernels for the baseline and this CPU's best capability only: the suites run the
# best (kernels/cpu_dispatch.cpp), and a third compiled at -O0 would never run (a minute of CI).
flags=" $(grep -m1 '^flags' /proc/cpuinfo) "
has() { for f in "$@"; do [[ $flags == *" $f "* ]] || return 1; done; }
if has avx512f avx512bw avx512vl avx512dq fma; then best=avx512; elif has avx2 fma; then best=avx2; else best=baseline; fi
# -O0: the quickest build of the templated kernels (the suites are small; run time is not the cost)
cmake -S cmake -B "$build" -DJT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g" \
  -DJT_ONLY_CPU_CAPS="$best" -DJT_OUTPUT_DIR="$PWD/$build/lib" >/dev/null
echo "sanitize: the vectorized kernels compiled for baseline and $best (this CPU's best)"
cmake --build "$build" -j "$(nproc)" --target native_tests
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 TSAN_OPTIONS=halt_on_error=1 \
  ctest --test-dir "$build" --output-on-failure
