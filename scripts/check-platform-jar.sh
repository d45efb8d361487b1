#!/usr/bin/env bash
# Checks a classifier jar of jtensor-bindings (issue 23): it holds natives only under
# org/jtensor/bindings/PLATFORM/, at least the library and the JNI glue, and every one of them is
# machine code for PLATFORM, read from the bytes (ELF's e_machine; PE's machine field). A Windows
# DLL must also import no MinGW runtime DLL (they are linked in: no jar can put them on PATH).
# usage: bash scripts/check-platform-jar.sh JAR PLATFORM
set -euo pipefail
jar=$1 platform=$2
case "$platform" in
  linux-x86_64) format=elf want=003e names="libjtensor.so libjniJtNative.so" ;;  # EM_X86_64
  linux-arm64) format=elf want=00b7 names="libjtensor.so libjniJtNative.so" ;;   # EM_AARCH64
  windows-x86_64) format=pe want=8664 names="jtensor.dll jniJtNative.dll" ;;    # IMAGE_FILE_MACHINE_AMD64
  *) echo "check-platform-jar: no rule for $platform" >&2; exit 2 ;;
esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
unzip -q "$jar" -d "$dir"
libs=$(cd "$dir" && find . -type f \( -name '*.so' -o -name '*.so.*' -o -name '*.dll' -o -name '*.dylib' \) | sort)
for name in $names; do
  grep -qx "./org/jtensor/bindings/$platform/$name" <<<"$libs" || { echo "$jar: no org/jtensor/bindings/$platform/$name" >&2; exit 1; }
done
for lib in $libs; do
  case "$lib" in ./org/jtensor/bindings/"$platform"/*) ;; *) echo "$jar: $lib is outside org/jtensor/bindings/$platform/" >&2; exit 1 ;; esac
  if [ "$format" = elf ]; then
    magic=$(od -An -tx1 -N4 "$dir/$lib" | tr -d ' ')
    machine=$(od -An -tx2 -j18 -N2 "$dir/$lib" | tr -d ' ')
    [ "$magic" = 7f454c46 ] || machine="not ELF ($magic)"
  else
    pe=$(od -An -tu4 -j60 -N4 "$dir/$lib" | tr -d ' ')  # e_lfanew: where the PE header starts
    magic=$(od -An -tx1 -j"$pe" -N4 "$dir/$lib" | tr -d ' ')
    machine=$(od -An -tx2 -j$((pe + 4)) -N2 "$dir/$lib" | tr -d ' ')
    [ "$magic" = 50450000 ] || machine="not PE ($magic)"
    if objdump -p "$dir/$lib" | grep -iE "DLL Name: lib(stdc\+\+|gcc_s|winpthread)"; then
      echo "$jar: $lib imports MinGW's runtime DLLs" >&2
      exit 1
    fi
  fi
  if [ "$machine" != "$want" ]; then
    echo "$jar: $lib is not $platform code (machine $machine, want 0x$want)" >&2
    exit 1
  fi
done
echo "$(basename "$jar"): $(wc -w <<<"$libs") native libraries, all $platform code"
