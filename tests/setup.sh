#!/usr/bin/env bash
# setup.sh: installs what gdlog needs on Debian (when missing) and builds it
# into build/.  Used by both commands of the README and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake re2c libjudy-dev libbliss-dev gringo clang libclang-rt-14-dev valgrind perl python3 pkg-config)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
