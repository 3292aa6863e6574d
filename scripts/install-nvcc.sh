#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# install-nvcc.sh — make nvcc (CUDA 11.8 from Debian bookworm non-free) and a
# host compiler it accepts (g++-11) available. Idempotent: exits 0 at once when
# both are already installed.
#
# Why g++-11: nvcc 11.8 rejects GCC > 11 as host compiler, and bookworm's
# default is GCC 12. CMake is pointed at it with
#   -DCMAKE_CUDA_HOST_COMPILER=/usr/bin/g++-11
# CUDA 11.8 can emit sm_75..sm_90 (not sm_90a).
#
# Needs root (apt-get). Without root it prints the commands to run and exits 1.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }

if have nvcc && have g++-11; then
	echo "install-nvcc: nvcc and g++-11 already present: $(nvcc --version | tail -n 1)"
	exit 0
fi

SRC=/etc/apt/sources.list.d/debian.sources
if [ "$(id -u)" != 0 ]; then
	cat >&2 <<MSG
install-nvcc: not root; run as root:
  sed -i '/^Components:/{/non-free\( \|\$\)/!s/\$/ non-free/}' $SRC   # add non-free
  sed -i '/^Components:/{/contrib\( \|\$\)/!s/\$/ contrib/}' $SRC     # add contrib
  apt-get update
  apt-get install -y --no-install-recommends nvidia-cuda-toolkit g++-11
MSG
	exit 1
fi

# nvidia-cuda-toolkit is in non-free; its libcuda1 dependency needs nvidia-support from contrib.
for comp in non-free contrib; do
	if [ -f "$SRC" ]; then
		sed -i "/^Components:/{/ $comp\\( \\|\$\\)/!s/\$/ $comp/}" "$SRC"
	elif [ -f /etc/apt/sources.list ]; then
		sed -i "/^deb /{/ $comp\\( \\|\$\\)/!s/\$/ $comp/}" /etc/apt/sources.list
	fi
done

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends nvidia-cuda-toolkit g++-11
nvcc --version | tail -n 1
