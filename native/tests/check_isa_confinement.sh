#!/bin/sh
# Lists every function of the library ($2) whose code touches a ymm or zmm register while its name
# is outside the AVX2/AVX-512 kernels (jt::avx2::, jt::avx512::, or a name that says avx2); fails
# when there is one. $1: objdump.
set -e
strays=$("$1" -d --no-show-raw-insn -C "$2" | awk '
  /^[0-9a-f]+ <.*>:$/ { fn = $0; next }
  /%[yz]mm[0-9]/ { if (fn !~ /avx2|avx512/ && !(fn in seen)) { seen[fn] = 1; print fn } }')
if [ -n "$strays" ]; then
  echo "AVX code outside the capability kernels:"
  echo "$strays" | head -20
  exit 1
fi
echo "isa_confinement: no AVX code outside the capability kernels"
