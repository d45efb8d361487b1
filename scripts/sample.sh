#!/usr/bin/env bash
# The main job: builds jtensor and trains on Fashion-MNIST (the bundled sample unless arguments
# say otherwise, e.g. --data /usr/share/datasets/fashion-mnist --model cnn; --help lists them).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
mvn -B -Djt.build.jobs="$(nproc)" -q install -DskipTests
mvn -B -q -f examples/pom.xml exec:java -Dexec.args="$(exec_args "$@")"
