#!/usr/bin/env bash
# Installs whatever of the build toolchain this machine lacks (JDK 17, Maven, g++, CMake),
# from Debian's packages. Sourced by the other scripts; does nothing when all are present.
# Defines as_root and install_missing PACKAGE..., which the scripts with toolchains of their own use
# too, project_version (the root pom's version, which names the jars the scripts check) and
# exec_args ARG... (the arguments as one -Dexec.args value, each quoted).
set -euo pipefail

# Runs a command as root: through sudo unless this is root already.
as_root() {
  if [ "$(id -u)" -ne 0 ]; then sudo "$@"; else "$@"; fi
}

# Installs the named Debian packages (none: does nothing).
install_missing() {
  [ $# -gt 0 ] || return 0
  echo "jtensor: installing $*"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

# The root pom's own version (run from the repository root).
project_version() {
  sed -n 's|^  <version>\(.*\)</version>|\1|p' pom.xml | head -1
}

# The arguments as exec:java's -Dexec.args, each quoted so one with spaces stays one argument
# (exec-maven-plugin splits on spaces outside quotes; an argument with a ' goes in double quotes).
exec_args() {
  local out="" a
  for a in "$@"; do
    if [[ "$a" == *"'"* ]]; then out+=" \"$a\""; else out+=" '$a'"; fi
  done
  printf '%s' "${out# }"
}

missing=()
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
install_missing ${missing[@]+"${missing[@]}"}
