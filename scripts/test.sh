#!/usr/bin/env bash
# Every test: the native CTest suites (allocator, copy kernel) and the Java suites (conformance
# against libtorch, property chains, lifetimes, ...), then the jars are packed and checked.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
mvn -B verify "$@"
