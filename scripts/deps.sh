#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the harness needs, when any is missing.
# Usage: deps.sh [extra-package...]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkgs=(qemu-system-x86 busybox-static
      build-essential bc bison flex libelf-dev libssl-dev
      cpio gzip xz-utils kmod rsync python3 git gcc-multilib "$@")
# The base's source: Debian 12's package, or unstable's, fetched apart.
from_unstable || pkgs=("$BASE_PKG" "${pkgs[@]}")

missing=()
for p in "${pkgs[@]}"; do
	installed "$p" || missing+=("$p")
done
if from_unstable; then
	"$(dirname "$0")/fetch-unstable.sh"
fi
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" -eq 0 ] || die "missing packages: ${missing[*]} (run as root, or apt-get install them)"
msg "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
mkdir -p "$LOGS"
# A package that cannot be had is the harness's failure: die's status 2.
run_logged "$LOGS/apt.log" apt-get update -q || die "apt-get update failed"
run_logged "$LOGS/apt.log.install" apt-get install -y -q --no-install-recommends "${missing[@]}" ||
	die "cannot install: ${missing[*]}"
