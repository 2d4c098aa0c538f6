#!/usr/bin/env bash
# Installs the Debian packages acopy builds against (LLVM/MLIR 22), only those
# that are missing, and a project-local virtualenv (.venv/) holding NVIDIA's
# ptxas, which the lit suite runs on every PTX it produces. Safe to run any
# number of times.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libclang-22-dev
  libpolly-22-dev libzstd-dev libz3-dev libxml2-dev zlib1g-dev
  # g++: acopy-dialect's C++ shim for MLIR remarks and warnings (dialect/build.rs).
  g++
)
# Debian's python3 needs python3-venv for `python3 -m venv` (ensurepip).
if ! command -v python3 >/dev/null; then
  PACKAGES+=(python3 python3-venv)
elif ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  PACKAGES+=(python3-venv)
fi

missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

install_ptxas() {
  # ptxas without a GPU or a CUDA toolkit: PyPI's nvidia-cuda-nvcc-cu12 wheel
  # ships an x86-64 ptxas. Pinned so every run assembles with the same one;
  # 12.9 is the newest 12.x and knows every chip acopy emits PTX for
  # (docs/testing.md). .venv/bin/ptxas is the stable path lit uses.
  local version=12.9.86
  local venv=.venv
  # (Output captured first: `ptxas | grep -q` can fail under pipefail when grep
  # exits before ptxas has written everything.)
  if [ -x "$venv/bin/ptxas" ] && [[ "$("$venv/bin/ptxas" --version)" == *"V$version"* ]]; then
    echo "install-deps: ptxas $version is present ($venv/bin/ptxas)"
    return
  fi
  echo "install-deps: installing nvidia-cuda-nvcc-cu12==$version into $venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "nvidia-cuda-nvcc-cu12==$version"
  local ptxas
  ptxas="$("$venv/bin/python" -c 'import os, nvidia.cuda_nvcc as n; print(os.path.relpath(os.path.join(n.__path__[0], "bin", "ptxas"), os.path.abspath(".venv/bin")))')"
  ln -sf "$ptxas" "$venv/bin/ptxas"
  if [[ "$("$venv/bin/ptxas" --version)" != *"V$version"* ]]; then
    echo "install-deps: $venv/bin/ptxas is not version $version" >&2
    exit 1
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages are present"
  install_ptxas
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_ptxas
