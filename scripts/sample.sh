#!/usr/bin/env bash
# Builds jtensor and runs the quickstart sample (the main job until the training run lands).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
mvn -B -q install -DskipTests
mvn -B -q -f examples/pom.xml exec:java
