#!/usr/bin/env bash
# Installs whatever of the build toolchain this machine lacks (JDK 17, Maven, g++, CMake),
# from Debian's packages. Sourced by the other scripts; does nothing when all are present.
# Defines install_missing PACKAGE..., which the scripts with toolchains of their own use too.
set -euo pipefail

# Installs the named Debian packages (none: does nothing), with sudo when not root.
install_missing() {
  [ $# -gt 0 ] || return 0
  echo "jtensor: installing $*"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@"
}

missing=()
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
install_missing ${missing[@]+"${missing[@]}"}
