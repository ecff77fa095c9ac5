#!/usr/bin/env bash
# Installs the Debian 12 packages SortScope builds and tests with, only those that are missing
# (apt-get, through sudo when not root). The CUDA toolkit is the one prerequisite it cannot
# install: without it the CPU backend and the app still build.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  file  # cpack's .deb: dpkg-shlibdeps is told the libraries apart with it
  libimgui-dev libglfw3-dev python3-glad libstb-dev nlohmann-json3-dev libcli11-dev libgtest-dev zlib1g-dev
  libgl-dev libegl-dev libegl-mesa0 libgl1-mesa-dri fonts-dejavu-core
  xvfb xauth
  clang libclang-rt-14-dev libomp-14-dev  # the asan preset: sanitizers, libFuzzer, OpenMP for clang
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: no CUDA toolkit found. It is the one prerequisite this script cannot install:" \
       "get it from NVIDIA (https://developer.nvidia.com/cuda-downloads) for the GPU backend." \
       "Without it SortScope builds and runs on its CPU backend." >&2
fi
