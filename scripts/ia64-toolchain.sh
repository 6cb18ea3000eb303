#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# An IA64 cross C compiler for the kernel, built from Debian's
# gcc-12-source (Debian has binutils-ia64-linux-gnu but no IA64 gcc).
# C only: all-gcc without a C library, and no libgcc: the IA64 kernel
# links its own helpers (arch/ia64/lib), never libgcc.  The compiler is
# built -O1 without debug information, LTO or plugins: it only has to
# compile the kernel.  Measured on 2 cores (2026-12-04): built -O1 in
# 544 s against 783 s -O2 (its first 3 min beside a guest); the IA64
# vmlinux then takes 307 s against 296 s, and its objects are byte for
# byte the same (the host flags do not change what it generates).  The result is cached outside the tree, in
# $IA64_CACHE (default ~/.cache/time-interp/ia64-gcc-12), and reused when
# it is there; the build tree is build/ia64-gcc (git-ignored).
# Prints the compiler prefix (for CROSS_COMPILE=) on its last line.
# While it builds, a line every 30 s on stderr (V=1: the build's output).
# Usage: ia64-toolchain.sh   (IA64_CACHE=dir; about 13 min on 2 cores)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cache=$IA64_CACHE
prefix=$cache/bin/ia64-linux-gnu-

# One build at a time: a second make ia64 (or make check's ia64 prefixes)
# waits here for the first's build rather than starting another.
mkdir -p "$(dirname "$cache")"
exec 9>"$cache.lock"
if ! flock -n 9; then
	msg "ia64 toolchain: being built by another process; waiting for it"
	flock 9
fi

if ia64_cached; then
	msg "ia64 toolchain: cached in $cache ($("${prefix}gcc" -dumpversion))"
	echo "$prefix"
	exit 0
fi

"$TOP/scripts/deps.sh" "${IA64_PKGS[@]}"
tarball=$(ls /usr/src/gcc-12/gcc-*.tar.xz | sed -n 1p)
[ -f "$tarball" ] || die "no gcc tarball in /usr/src/gcc-12 (gcc-12-source)"

work=$BUILD/ia64-gcc
log=$LOGS/ia64-gcc.log
rm -rf "$work"
mkdir -p "$work/obj" "$LOGS"
start=$(date +%s)
msg "ia64 toolchain: not cached; building gcc from $tarball into $cache, $(timing_estimate ia64-gcc fresh) (log $log)"
msg "ia64 toolchain: unpacking"
tar -C "$work" -xf "$tarball"
src=$(ls -d "$work"/gcc-*/)

msg "ia64 toolchain: configuring (C only, no C library)"
(cd "$work/obj" && run_progress "$log.configure" "IA64 cross gcc (configure)" "$src/configure" \
	--target=ia64-linux-gnu --prefix="$cache" \
	--with-as=/usr/bin/ia64-linux-gnu-as --with-ld=/usr/bin/ia64-linux-gnu-ld \
	--enable-languages=c --without-headers --with-newlib \
	--disable-nls --disable-shared --disable-threads --disable-multilib \
	--disable-bootstrap --disable-libssp --disable-libquadmath \
	--disable-libgomp --disable-libatomic --disable-libstdcxx \
	--disable-decimal-float --disable-libsanitizer \
	--disable-lto --disable-plugin CFLAGS="-O1 -g0" CXXFLAGS="-O1 -g0") ||
	die "gcc configure failed (see $log.configure)"

# The Debian tarball lacks the texinfo that the s-tm-texi step checks
# the target hooks against; the hooks are gcc's own, so skip the check.
mkdir -p "$work/obj/gcc"
echo timestamp >"$work/obj/gcc/s-tm-texi"

msg "ia64 toolchain: make all-gcc -j$JOBS"
run_progress "$log" "IA64 cross gcc" make -C "$work/obj" -j"$JOBS" all-gcc ||
	die "gcc build failed (see $log)"
# genhooks was built after the stamp above: stamp again, or install redoes it.
echo timestamp >"$work/obj/gcc/s-tm-texi"
run_logged "$log.install" make -C "$work/obj" install-gcc ||
	die "gcc install failed (see $log.install)"
"${prefix}gcc" --version >/dev/null || die "the built ${prefix}gcc does not run"
timing_record ia64-gcc fresh $(( $(date +%s) - start ))
msg "ia64 toolchain: built in $(( $(date +%s) - start )) s: ${prefix}gcc $("${prefix}gcc" -dumpversion)"
rm -rf "$work"
echo "$prefix"
