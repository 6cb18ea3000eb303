#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A step of make check: every prefix of the series cross-builds for 32-bit
# arm, an architecture without CONFIG_ARCH_HAS_SYSCALL_WRAPPER, with
# CONFIG_POSIX_TIMERS=n (kernel/time/posix-stubs.c instead of
# posix-timers.c).  It fails when:
#   - a prefix does not build vmlinux: tinyconfig plus a small ARMv7
#     multiplatform fragment (MMU, ARCH_MULTI_V7, ARCH_VIRT; POSIX_TIMERS
#     off), in one object directory for all prefixes, so that each prefix
#     rebuilds only what it changed;
#   - a prefix adds a compiler warning to a file the series touches;
#   - the config no longer compiles kernel/time/posix-stubs.c and
#     kernel/time/time.c (their objects are checked after every build).
# (posix-stubs.c once used timekeeping_clock_getres_ns() without including
# "timekeeping.h": only architectures without the syscall wrapper saw the
# implicit declaration.)  The syscalls that the generic table has and arm
# does not wire up ("#warning syscall ... not implemented", from
# scripts/checksyscalls.sh) fail their prefix; ARM_SYSCALLS_FATAL=0 makes
# them notes (below).
# The prefixes are built in a worktree of $SRC of their own,
# $BUILD/check-arm-wt, kept between runs; $SRC's own working tree is never
# touched.  The compiler is Debian's gcc-12-arm-linux-gnueabi, unpacked
# (with its cc1 and libgcc) into $ARM_CACHE rather than installed: Debian
# 12's cross compilers conflict with gcc-multilib, which the harness needs.
# binutils-arm-linux-gnueabi is installed (deps.sh).
# Usage: check-arm.sh
#   ARM_CHECK_HEAD=COMMIT  the last prefix (default: $SRC's HEAD);
#   ARM_CHECK_FROM=COMMIT  the first prefix (default: the base's child);
#   ARM_SYSCALLS_FATAL=0   an unwired syscall is a note, not a failure;
#   ARM_CACHE=dir          the compiler (default
#                          ~/.cache/time-interp/arm-gcc-12);
#   JOBS=N                 make -jN.
# Measured on 2 cores shared with other kernel builds (-j2, nice), the 14
# prefixes of the first posting: 21 min from scratch, 17 min again.  A
# prefix takes 30 to 60 s, but the first from scratch 7 min, and the one
# that adds the syscall to include/uapi/asm-generic/unistd.h (included
# almost everywhere) 6 min: that change rebuilds most of the kernel.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# The syscalls of include/uapi/asm-generic/unistd.h that arm lacks: the
# series wires clock_gettime_ns into arch/arm/tools/syscall.tbl in the
# patch that adds it, so every such warning fails its prefix.
ARM_SYSCALLS_FATAL=${ARM_SYSCALLS_FATAL:-1}

ARM_CACHE=${ARM_CACHE:-$HOME/.cache/time-interp/arm-gcc-12}
# Unpacked into $ARM_CACHE: the driver (the package that conflicts with
# gcc-multilib), cc1, and gcc's own headers and libgcc.
ARM_DEBS=(gcc-12-arm-linux-gnueabi cpp-12-arm-linux-gnueabi libgcc-12-dev-armel-cross)

fails=0
bad() { printf '  check-arm FAILED: %s\n' "$*"; fails=$((fails + 1)); }
show() { sed -n "1,${2:-10}p" <<<"$1" | sed 's/^/      /'; }

# arm_make SRC OBJ ARGS...: cross_make for arm, the unpacked compiler.
arm_make() { cross_make "$ARM_CACHE/bin" arm arm-linux-gnueabi- "$@"; }

# arm_cached: the unpacked compiler is there and compiles.
arm_cached() {
	echo 'int f(int x) { return x * 3; }' |
		"$ARM_CACHE/bin/arm-linux-gnueabi-gcc" -O2 -x c -c -o /dev/null - 2>/dev/null
}

# arm_toolchain: unpack ARM_DEBS into ARM_CACHE, once per machine.  The
# unpacked driver finds cc1, gcc's headers and libgcc beside itself, and
# the assembler and linker through usr/arm-linux-gnueabi, a link to the
# installed binutils' directory.
arm_toolchain() {
	"$TOP/scripts/deps.sh" binutils-arm-linux-gnueabi
	mkdir -p "$(dirname "$ARM_CACHE")"
	exec 8>"$ARM_CACHE.lock"
	flock 8
	if arm_cached; then
		exec 8>&-
		return 0
	fi
	local work
	work=$(mktemp -d "$ARM_CACHE.new.XXXXXX")
	msg "arm toolchain: unpacking ${ARM_DEBS[*]} into $ARM_CACHE"
	mkdir -p "$LOGS"
	if ! (cd "$work" && apt-get download "${ARM_DEBS[@]}") >"$LOGS/arm-debs.log" 2>&1; then
		# The package lists may be older than the mirror.
		[ "$(id -u)" -eq 0 ] || { rm -rf "$work"; die "apt-get download ${ARM_DEBS[*]} failed (see $LOGS/arm-debs.log)"; }
		run_logged "$LOGS/apt.log" apt-get update -q
		(cd "$work" && run_logged "$LOGS/arm-debs.log" apt-get download "${ARM_DEBS[@]}") ||
			{ rm -rf "$work"; die "apt-get download ${ARM_DEBS[*]} failed"; }
	fi
	mkdir "$work/root"
	for d in "$work"/*.deb; do
		dpkg-deb -x "$d" "$work/root"
	done
	ln -s /usr/arm-linux-gnueabi "$work/root/usr/arm-linux-gnueabi"
	mkdir "$work/root/bin"
	ln -s ../usr/bin/arm-linux-gnueabi-gcc-12 "$work/root/bin/arm-linux-gnueabi-gcc"
	rm -rf "$ARM_CACHE"
	mv "$work/root" "$ARM_CACHE"
	rm -rf "$work"
	arm_cached || die "the unpacked $ARM_CACHE/bin/arm-linux-gnueabi-gcc does not compile"
	exec 8>&-
}

[ -d "$SRC/.git" ] || die "no $SRC: run make tree"
arm_toolchain
msg "arm: $("$ARM_CACHE/bin/arm-linux-gnueabi-gcc" --version | sed -n 1p)"

# The commits, fixed once: $SRC may move (a rebase) while this runs.
head=$(g rev-parse --verify "${ARM_CHECK_HEAD:-HEAD}^{commit}")
from=$(g rev-parse --verify "${ARM_CHECK_FROM:-$(g rev-list --reverse "$BASE_TAG..$head" | sed -n 1p)}^{commit}")
n=$(g rev-list --count "$BASE_TAG..$head")
i=$(g rev-list --count "$BASE_TAG..$from^")
mapfile -t commits < <(g rev-list --reverse "$from^..$head")
mapfile -t touched < <(g diff --name-only "$BASE_TAG" "$head")

# The worktree, kept at the last prefix between runs: a checkout rewrites
# only the files that differ, so the object directory stays valid.
wt=$BUILD/check-arm-wt
obj=$BUILD/kbuild/check-arm
mkdir -p "$obj" "$LOGS/check-arm"
exec 9>"$obj.lock"
flock -n 9 || die "another check-arm.sh is running (lock $obj.lock)"
if [ "$(git -C "$wt" rev-parse --git-common-dir 2>/dev/null)" != "$(g rev-parse --absolute-git-dir)" ]; then
	rm -rf "$wt"
	g worktree prune
	g worktree add -q --detach "$wt" "$from"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# tinyconfig is a no-MMU ARMv7-M: the fragment makes it an ARMv7 machine
# with an MMU (what the time code of most arm kernels is built for); the
# POSIX timers stay off, which builds posix-stubs.c.
cat >"$tmp/arm.config" <<'EOF'
CONFIG_MMU=y
CONFIG_ARCH_MULTIPLATFORM=y
CONFIG_ARCH_MULTI_V7=y
CONFIG_ARCH_VIRT=y
# CONFIG_POSIX_TIMERS is not set
EOF
want=(CONFIG_MMU=y CONFIG_ARCH_MULTI_V7=y CONFIG_ARCH_VIRT=y '# CONFIG_POSIX_TIMERS is not set')
objs=(kernel/time/posix-stubs.o kernel/time/time.o)

notes=()
start=$(date +%s)
for c in "${commits[@]}"; do
	i=$((i + 1))
	subj=$(g log -1 --format=%s "$c")
	printf '  [%d/%d] %s\n' "$i" "$n" "$subj"
	git -C "$wt" checkout -q --detach "$c"
	git -C "$wt" clean -q -fdx
	log=$LOGS/check-arm/$i.log
	if ! kconfig arm_make "$wt" "$obj" "$tmp/config.log" tinyconfig "$tmp/arm.config"; then
		bad "patch $i ($subj): configuring failed"
		continue
	fi
	missing=()
	for o in "${want[@]}"; do grep -qxF "$o" "$obj/.config" || missing+=("$o"); done
	[ ${#missing[@]} -eq 0 ] || bad "patch $i: the config lacks ${missing[*]}"
	for o in "${objs[@]}"; do rm -f "$obj/$o"; done
	if ! arm_make "$wt" "$obj" -s -j"$JOBS" vmlinux >"$log" 2>&1; then
		show "$(grep -E 'error|warning' "$log" | grep -v '#warning syscall')"
		bad "patch $i ($subj) does not build for arm (log $log)"
		continue
	fi
	for o in "${objs[@]}"; do
		[ -f "$obj/$o" ] || bad "patch $i: the arm config did not build $o"
	done
	w=$(touched_warnings "$log" "${touched[@]}")
	[ -z "$w" ] || { show "$w"; bad "patch $i adds warnings to the arm build (log $log)"; }
	s=$(grep -F '#warning syscall ' "$log" | sort -u || true)
	if [ -n "$s" ]; then
		while IFS= read -r l; do
			echo "      note: checksyscalls: $l"
			notes+=("$(sed -n 's/.*#warning syscall \([^ ]*\) .*/\1/p' <<<"$l")")
		done <<<"$s"
		[ "$ARM_SYSCALLS_FATAL" = 0 ] || bad "patch $i: arm lacks a syscall of the generic table"
	fi
done

echo "  ${#commits[@]} prefix(es) in $(( $(date +%s) - start )) s (objects in $obj)"
if [ ${#notes[@]} -gt 0 ] && [ "$ARM_SYSCALLS_FATAL" = 0 ]; then
	echo "  note: arm does not wire up: $(printf '%s\n' "${notes[@]}" | sort -u | paste -sd ' ') (not fatal: ARM_SYSCALLS_FATAL=0)"
fi
if [ $fails -ne 0 ]; then
	echo "check-arm: $fails problem(s)"
	exit 1
fi
echo "check-arm: prefixes $((i - ${#commits[@]} + 1))..$i of $n build for arm"
