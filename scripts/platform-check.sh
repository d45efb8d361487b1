#!/usr/bin/env bash
# Dependencies that pick the platform (issue 23 point 4). Installs jtensor-platform (the root pom's
# platform profile: every platform's natives, whose classifier jars scripts/arm64.sh and
# scripts/windows.sh installed), then tries it as a user would: fresh Maven projects whose local
# repository holds only what mvn install put there (the org/jtensor artifacts; the rest comes from
# the remote, as a user's would), checked from the classpaths Maven resolves and by running them:
#   - jtensor-api + jtensor-platform: every platform's natives, and the program runs here;
#   - the same with -Djavacpp.platform=linux-arm64: arm64's natives alone;
#   - jtensor-api alone: no natives, and the program fails naming the jar to add;
#   - none of them gets the CUDA presets (optional: a user who wants CUDA adds them).
# Run by scripts/test.sh after arm64.sh and windows.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
version=$(project_version)
# The host's jars come from scripts/test.sh's mvn install (alone: mvn install -DskipTests first).
mvn -B -q -Pplatform -pl platform install
m2=$(mvn -B -q -Dstyle.color=never help:evaluate -Dexpression=settings.localRepository -DforceStdout | sed 's/\x1b\[[0-9;]*m//g')
work="$PWD/build/platform-check"
rm -rf "$work" && mkdir -p "$work/repo/org"
cp -r "$m2/org/jtensor" "$work/repo/org/"

# project NAME [DEPENDENCY...]: a fresh project depending on jtensor-api and the artifacts named
project() {
  local dir="$work/$1" deps=""
  shift
  for a in jtensor-api "$@"; do
    deps+="<dependency><groupId>org.jtensor</groupId><artifactId>$a</artifactId><version>$version</version></dependency>"
  done
  mkdir -p "$dir/src/main/java/app"
  cat > "$dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>app</groupId><artifactId>app</artifactId><version>1</version>
  <dependencies>$deps</dependencies></project>
POM
  cat > "$dir/src/main/java/app/App.java" <<'JAVA'
package app;

import org.jtensor.Tensor;

public class App {
  public static void main(String[] args) {
    try (Tensor t = Tensor.ones(2, 3); Tensor s = t.matmul(t.t()).sum()) {
      System.out.println("app: sum " + s.item() + ", CUDA available: " + org.jtensor.cuda.Cuda.isAvailable());
    }
  }
}
JAVA
}

# classpath DIR [MAVEN OPTIONS...]: the project's resolved classpath, one jar a line
classpath() {
  local dir=$1
  shift
  (cd "$dir" && mvn -B -q -Dmaven.repo.local="$work/repo" "$@" dependency:build-classpath -Dmdep.outputFile=cp.txt)
  tr ':' '\n' < "$dir/cp.txt"
}

natives() {  # the jars of a classpath that hold natives: jtensor-bindings, openblas and javacpp with a classifier
  grep -oE '(jtensor-bindings|openblas|javacpp)-[^/]*-(linux-x86_64|linux-arm64|windows-x86_64)\.jar$' | sort || true
}

fail() { echo "platform-check: $*" >&2; exit 1; }

run() {  # run DIR: compile App against the project's classpath and run it on this JVM; its output
  local dir=$1 cp
  cp=$(paste -sd: < "$dir/cp.txt")
  javac -d "$dir/classes" -cp "$cp" "$dir/src/main/java/app/App.java"
  java -cp "$dir/classes:$cp" app.App 2>&1
}

project platform jtensor-platform
all=$(classpath "$work/platform" | natives)
for p in linux-x86_64 linux-arm64 windows-x86_64; do
  grep -q "jtensor-bindings-$version-$p.jar" <<<"$all" || fail "jtensor-platform brought no jtensor-bindings for $p: $all"
  grep -q "openblas-.*-$p.jar" <<<"$all" || fail "jtensor-platform brought no OpenBLAS for $p: $all"
done
! grep -q "/org/bytedeco/cuda/" "$work/platform/cp.txt" || fail "jtensor-platform brought the CUDA presets"
out=$(run "$work/platform") || fail "the program failed with jtensor-platform: $out"
grep -q "app: sum 12.0, CUDA available: false" <<<"$out" || fail "the program printed: $out"
echo "jtensor-platform: $(wc -l <<<"$all") native jars for 3 platforms; the program ran: $out"

arm=$(classpath "$work/platform" -Djavacpp.platform=linux-arm64 | natives)
[ "$(grep -vc -- '-linux-arm64\.jar$' <<<"$arm")" = 0 ] || fail "-Djavacpp.platform=linux-arm64 still brought: $(grep -v -- '-linux-arm64\.jar$' <<<"$arm")"
grep -q "jtensor-bindings-$version-linux-arm64.jar" <<<"$arm" || fail "-Djavacpp.platform=linux-arm64 brought no arm64 natives"
echo "jtensor-platform with -Djavacpp.platform=linux-arm64: only $(paste -sd' ' <<<"$arm")"

project api
none=$(classpath "$work/api" | natives)
[ -z "$none" ] || fail "jtensor-api alone brought natives: $none"
! grep -q "/org/bytedeco/cuda/" "$work/api/cp.txt" || fail "jtensor-api brought the CUDA presets"
if out=$(run "$work/api"); then fail "the program ran without natives: $out"; fi
grep -q "no native libraries for linux-x86_64 on the class path.*jtensor-platform" <<<"$out" || fail "jtensor-api alone failed otherwise: $out"
echo "jtensor-api alone: no natives; the program fails with: $(grep -o 'jtensor: no native libraries[^(]*' <<<"$out" | head -1)"
