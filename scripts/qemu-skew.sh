#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# qemu-system-x86_64 with per-vCPU TSCs under TCG, for the skewed boots.
#
# Stock QEMU 7.2 TCG gives every vCPU one TSC (the host's cycle counter)
# and drops IA32_TSC / IA32_TSC_ADJUST writes, so no guest under it ever
# meets TSCs that disagree.  This builds Debian 12's own QEMU source
# package with scripts/qemu/tsc-skew.patch (QEMU_TSC_SKEW=CPU:NS[:PPM],...
# and per-vCPU TSC_ADJUST), the x86_64 system emulator only, TCG only.
# The source comes through a private apt configuration under build/apt-src
# (deb-src lines of bookworm; the machine's own sources are untouched).
# The binary is cached in $QEMU_SKEW_CACHE (default
# ~/.cache/time-interp/qemu-skew/KEY), KEY the sha256 of the source
# package's .dsc, the patch and the build's recipe (build_qemu below, as
# bash prints it: its code, not its comments nor the rest of this script,
# whose messages may change without a rebuild of 5 to 30 minutes): it is
# rebuilt when one of them changes.  Firmware is the installed
# qemu-system-data's (-L).  While it builds, a line every 30 s on stderr
# (V=1: the build's output).
# Prints the binary's path on its last line.
# Usage: qemu-skew.sh   (5 min alone on 2 cores, 30 beside make test's guests)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

QEMU_SKEW_PKGS=(dpkg-dev meson ninja-build pkg-config libglib2.0-dev
		libpixman-1-dev libfdt-dev libslirp-dev)
patch=$TOP/scripts/qemu/tsc-skew.patch
apt_dir=$BUILD/apt-src
src_dir=$BUILD/qemu-src
root=${QEMU_SKEW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/time-interp/qemu-skew}
log=$LOGS/qemu-skew.log
mkdir -p "$root" "$LOGS"

# One build at a time: a second caller waits for the first's binary.
exec 9>"$root.lock"
if ! flock -n 9; then
	msg "qemu-skew: being built by another process; waiting for it"
	flock 9
fi

"$TOP/scripts/deps.sh" "${QEMU_SKEW_PKGS[@]}"

deb_src_apt "$apt_dir" bookworm bookworm-updates bookworm-security
mkdir -p "$src_dir"

# The newest qemu source of bookworm: the lists are refreshed once a day.
if ! private_apt_fresh "$apt_dir"; then
	run_logged "$log.apt" apt-get "${APT_OPTS[@]}" update -q ||
		die "qemu-skew: apt-get update of the deb-src lists failed"
fi
(cd "$src_dir" && run_logged "$log.apt-source" \
	apt-get "${APT_OPTS[@]}" source --download-only -q qemu) ||
	die "qemu-skew: apt-get source qemu failed"
dsc=$(ls -t "$src_dir"/qemu_*.dsc | sed -n 1p)
version=$(sed -n 's/^Version: //p' "$dsc")

# build_qemu WORK: the source package unpacked and patched in WORK/src,
# qemu-system-x86_64 built in WORK/obj.
build_qemu() {
	local work=$1
	run_logged "$log.unpack" dpkg-source -x "$dsc" "$work/src" ||
		die "qemu-skew: dpkg-source -x failed"
	run_logged "$log.patch" patch -d "$work/src" -p1 -i "$patch" ||
		die "qemu-skew: tsc-skew.patch does not apply to QEMU $version"
	mkdir -p "$work/obj"
	(cd "$work/obj" && run_logged "$log.configure" ../src/configure \
		--target-list=x86_64-softmmu --without-default-features \
		--enable-tcg --disable-kvm --enable-slirp --enable-fdt=system \
		--disable-docs --disable-tools --disable-guest-agent --disable-werror \
		--meson=/usr/bin/meson) ||
		die "qemu-skew: configure failed"
	run_progress "$log" "skew QEMU" ninja -C "$work/obj" -j"$JOBS" qemu-system-x86_64 ||
		die "qemu-skew: the build failed"
}

key=$({ cat "$dsc" "$patch"; declare -f build_qemu; } | sha256sum | cut -c1-16)
bin=$root/$key/qemu-system-x86_64

if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then
	msg "qemu-skew: cached: QEMU $version with tsc-skew.patch ($bin)"
	echo "$bin"
	exit 0
fi

start=$(date +%s)
msg "qemu-skew: not cached; building QEMU $version with tsc-skew.patch, $(timing_estimate qemu-skew fresh) (log $log)"
work=$BUILD/qemu-skew
rm -rf "$work"
mkdir -p "$work"
build_qemu "$work"
timing_record qemu-skew fresh $(( $(date +%s) - start ))
mkdir -p "$root/$key.tmp"
cp "$work/obj/qemu-system-x86_64" "$root/$key.tmp/"
echo "QEMU $version + scripts/qemu/tsc-skew.patch, built $(date -u +%F)" >"$root/$key.tmp/VERSION"
rm -rf "${root:?}/$key"
mv "$root/$key.tmp" "$root/$key"
"$bin" --version >/dev/null || die "qemu-skew: the built $bin does not run"
rm -rf "$work"
msg "qemu-skew: built in $(( $(date +%s) - start )) s: $bin"
echo "$bin"
