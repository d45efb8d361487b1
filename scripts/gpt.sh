#!/usr/bin/env bash
# The second main job: builds jtensor and trains a character-level GPT on the bundled GNU licence
# texts (about 170 KB), or with --data fortunes on Debian's fortunes (installed here when missing),
# or on any UTF-8 text file (--data FILE); --help lists the options. Writes gpt-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [ "${args[$i]}" = "--data" ] && [ "${args[$((i + 1))]:-}" = "fortunes" ] && [ ! -d /usr/share/games/fortunes ]; then
    install_missing fortunes
  fi
done
mvn -B -Djt.build.jobs="$(nproc)" -q install -DskipTests
mvn -B -q -f examples/pom.xml exec:java -Dexec.mainClass=org.jtensor.examples.gpt.Gpt -Dexec.args="$(exec_args "$@")"
