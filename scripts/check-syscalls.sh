#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A step of make check: clock_gettime_ns() is wired into the syscall table
# of every architecture Debian 12 has a cross compiler for, as the
# kernel's own scripts/checksyscalls.sh sees it.  checksyscalls.sh warns
# "#warning syscall NAME not implemented" for every syscall of x86's
# syscall_32.tbl (the reference, which the series extends) that the
# arch's generated <asm/unistd.h> lacks; Kbuild runs it in "prepare".
#
# For each architecture of the list below, on $SRC (the series' HEAD of
# the current BASE), out of tree in $BUILD/kbuild/check-syscalls/NAME:
#   - configure (the arch's defconfig or the named one, plus a fragment
#     where an ABI must be on), then make prepare0: archprepare (the
#     generated unistd headers) and Kbuild's prepare, whose
#     missing-syscalls target runs checksyscalls.sh (mips's archprepare
#     runs it for N32 and O32 too).  prepare0 is the first top-level
#     target that runs it; "prepare" would build the vDSOs as well;
#   - arm64's compat (AArch32) table, which Kbuild does not check: the
#     same checksyscalls.sh command again, with an <asm/unistd.h> first in
#     the include path that is <asm/unistd32.h>, the compat numbers;
#   - a warning that names clock_gettime_ns fails the arch; the others
#     (syscalls the base itself does not wire up there) are notes.
# Architectures without a Debian 12 cross compiler are listed as skipped,
# with the reason; those this kernel has no arch/ for are left out.
#
# The compilers: Debian 12's gcc-12-TRIPLET cross compilers conflict with
# gcc-multilib, which the harness needs, so where gcc-multilib is
# installed they are unpacked (gcc, cpp and libgcc, with apt-get download)
# into $CROSS_CACHE/TRIPLET, as scripts/check-arm.sh does for arm (whose
# $ARM_CACHE serves here too); one that does not conflict
# (gcc-hppa64-linux-gnu) and every binutils-TRIPLET are installed with
# apt-get install, only when missing.  ia64 (6.1) uses the compiler make
# ia64 built ($IA64_CACHE), when it is cached.
#
# Exit status: 0 every checked arch wires clock_gettime_ns; 1 a warning
# names it; 2 an arch could not be checked (its compiler could not be
# installed or unpacked, a build failed: the harness's failure).  An arch
# with no compiler to have is skipped, not a failure.
# Usage: check-syscalls.sh
#   SYSCALLS_ARCHES="arm64 mips ..."  only these (names of the list below)
#   SYSCALLS_NICE=N     the builds' niceness (default 19)
#   SYSCALLS_PAUSE=file wait before each arch while file exists
#                       (default build/.no-compile)
#   CROSS_CACHE=dir     the unpacked compilers (default
#                       ~/.cache/time-interp/cross-gcc-12)
#   JOBS=N              make -jN.
# Measured (docs/check.md): 10 to 140 s an arch from scratch at -j1 and
# nice 19 on a busy 2-core machine, plus about a minute for a compiler's
# first unpacking; again, the 15 arches of 7.2 in 5.5 to 7.5 min.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SYSCALL=clock_gettime_ns
CROSS_CACHE=${CROSS_CACHE:-$HOME/.cache/time-interp/cross-gcc-12}
ARM_CACHE=${ARM_CACHE:-$HOME/.cache/time-interp/arm-gcc-12}
SYSCALLS_NICE=${SYSCALLS_NICE:-19}
SYSCALLS_PAUSE=${SYSCALLS_PAUSE:-$TOP/build/.no-compile}

# The architectures: NAME ARCH TRIPLET CONFIG [OPTION...]; the OPTIONs are
# merged into CONFIG and must be in the result.  (mips: one 64-bit kernel
# with both 32-bit ABIs checks n64, and through archprepare n32 and o32;
# parisc's 64BIT defaults on only for ARCH=parisc64, which Kbuild builds
# from arch/parisc.)
ARCH_LIST=(
	"arm64     arm64   aarch64-linux-gnu     defconfig"
	"arm       arm     arm-linux-gnueabi     defconfig"
	"mips      mips    mips64-linux-gnuabi64 bigsur_defconfig CONFIG_64BIT=y CONFIG_MIPS32_O32=y CONFIG_MIPS32_N32=y"
	"powerpc32 powerpc powerpc-linux-gnu     pmac32_defconfig"
	"powerpc64 powerpc powerpc64-linux-gnu   ppc64_defconfig CONFIG_PPC64=y"
	"s390      s390    s390x-linux-gnu       defconfig"
	"riscv     riscv   riscv64-linux-gnu     defconfig"
	"m68k      m68k    m68k-linux-gnu        defconfig"
	"sparc32   sparc   sparc64-linux-gnu     sparc32_defconfig CONFIG_SPARC32=y"
	"sparc64   sparc   sparc64-linux-gnu     sparc64_defconfig CONFIG_SPARC64=y"
	"alpha     alpha   alpha-linux-gnu       defconfig"
	"parisc    parisc  hppa-linux-gnu        generic-32bit_defconfig"
	"parisc64  parisc64 hppa64-linux-gnu     generic-64bit_defconfig CONFIG_64BIT=y"
	"sh        sh      sh4-linux-gnu         defconfig"
	"arc       arc     arc-linux-gnu         defconfig"
	"ia64      ia64    ia64-linux-gnu        defconfig"
)
# The arches of the kernel Debian 12 has no gcc-TRIPLET for (apt-cache
# policy gcc-TRIPLET: no candidate), and x86, checksyscalls' reference.
NO_COMPILER=(loongarch:loongarch64-linux-gnu xtensa:xtensa-linux-gnu
	     microblaze:microblaze-linux-gnu csky:csky-linux-gnu
	     nios2:nios2-linux-gnu openrisc:or1k-linux-gnu
	     hexagon:hexagon-linux-gnu)

# ABI label of the default (native) checksyscalls run.
native_abi() {
	case $1 in
	mips) echo n64 ;;
	*) echo native ;;
	esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# apt_update: apt-get update, once a run (as root).
apt_update() {
	[ -e "$tmp/apt-updated" ] && return 0
	[ "$(id -u)" -eq 0 ] || return 1
	run_logged "$LOGS/apt.log" apt-get update -q || return 1
	touch "$tmp/apt-updated"
}

# install_missing PKG...: apt-get install the PKGs not installed (as
# deps.sh: root, apt-get update first).
install_missing() {
	local p missing=()
	for p in "$@"; do
		installed "$p" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || { warn "missing packages: ${missing[*]} (run as root, or apt-get install them)"; return 1; }
	msg "check-syscalls: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt_update || return 1
	run_logged "$LOGS/apt.log.install" apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# gcc_works BINDIR TRIPLET: BINDIR's TRIPLET-gcc compiles (and assembles).
gcc_works() {
	echo 'int f(int x) { return x * 3; }' |
		PATH=$1:$PATH "$2-gcc" -O2 -x c -c -o /dev/null - 2>/dev/null
}

# cross_unpack TRIPLET: Debian's gcc-12-TRIPLET, cpp-12-TRIPLET and the
# libgcc-12-dev cross package it depends on, unpacked into
# $CROSS_CACHE/TRIPLET (the layout of check-arm.sh's $ARM_CACHE), once
# per machine.
cross_unpack() {
	# Called where set -e does not act: every step is checked.
	local t=$1 dir=$CROSS_CACHE/$1 work libgcc debs d
	mkdir -p "$CROSS_CACHE" || return 1
	exec 8>"$dir.lock" || return 1
	flock 8 || return 1
	if gcc_works "$dir/bin" "$t"; then exec 8>&-; return 0; fi
	libgcc=$(apt-cache depends "gcc-12-$t" 2>/dev/null | sed -n 's/^ *Depends: \(libgcc-12-dev-[a-z0-9]*-cross\)$/\1/p' | sed -n 1p)
	debs=("gcc-12-$t" "cpp-12-$t" ${libgcc:+"$libgcc"})
	work=$(mktemp -d "$dir.new.XXXXXX") && [ -n "$work" ] && [ -d "$work" ] || return 1
	msg "check-syscalls: unpacking ${debs[*]} into $dir"
	if ! (cd "$work" && apt-get download "${debs[@]}") >"$LOGS/cross-$t.log" 2>&1; then
		# The package lists may be older than the mirror.
		if ! apt_update ||
		   ! (cd "$work" && run_logged "$LOGS/cross-$t.log" apt-get download "${debs[@]}"); then
			rm -rf "$work"; return 1
		fi
	fi
	mkdir "$work/root" || { rm -rf "$work"; return 1; }
	for d in "$work"/*.deb; do
		dpkg-deb -x "$d" "$work/root" || { rm -rf "$work"; return 1; }
	done
	# The driver finds cc1 and its headers beside itself, as and ld
	# through usr/TRIPLET: binutils-TRIPLET's directory.
	if ! { ln -s "/usr/$t" "$work/root/usr/$t" && mkdir "$work/root/bin" &&
	       ln -s "../usr/bin/$t-gcc-12" "$work/root/bin/$t-gcc" &&
	       rm -rf "$dir" && mv "$work/root" "$dir"; }; then
		rm -rf "$work"; return 1
	fi
	rm -rf "$work"
	exec 8>&-
	gcc_works "$dir/bin" "$t"
}

# cross_gcc TRIPLET: print the directory of a working TRIPLET-gcc,
# installing or unpacking one when needed; or print the reason and fail:
# 1 there is none to have (skip the arch), 2 getting it failed.
cross_gcc() {
	local t=$1 conflicts cand
	if [ "$t" = ia64-linux-gnu ]; then
		ia64_cached && { echo "$IA64_CACHE/bin"; return 0; }
		echo "no Debian 12 gcc-ia64-linux-gnu, and make ia64's compiler is not cached ($IA64_CACHE)"
		return 1
	fi
	# (apt-cache knows nothing before a first apt-get update.)
	cand=$(apt-cache policy "gcc-12-$t" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
		apt_update && cand=$(apt-cache policy "gcc-12-$t" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	fi
	if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
		echo "Debian 12 has no gcc-$t"
		return 1
	fi
	install_missing "binutils-$t" || { echo "cannot install binutils-$t (log $LOGS/apt.log.install)"; return 2; }
	# Installed already (by hand, or the non-conflicting kind).
	if gcc_works /usr/bin "$t"; then echo /usr/bin; return 0; fi
	if [ "$t" = arm-linux-gnueabi ] && gcc_works "$ARM_CACHE/bin" "$t"; then
		echo "$ARM_CACHE/bin"; return 0
	fi
	conflicts=$(apt-cache show "gcc-12-$t" 2>/dev/null | sed -n 's/^Conflicts: //p' | sed -n 1p)
	if ! grep -qw gcc-multilib <<<"$conflicts" ||
	   ! installed gcc-multilib; then
		install_missing "gcc-$t" && gcc_works /usr/bin "$t" && { echo /usr/bin; return 0; }
		echo "apt-get install gcc-$t failed (log $LOGS/apt.log.install)"
		return 2
	fi
	# (A subshell: a failed exec of its lock must not end this one.)
	(cross_unpack "$t") && { echo "$CROSS_CACHE/$t/bin"; return 0; }
	echo "unpacking gcc-12-$t failed (log $LOGS/cross-$t.log)"
	return 2
}

# sc_make SRC OBJ ARGS...: make for the current arch ($arch, $bin,
# $triplet), niced.
sc_make() {
	local src=$1 obj=$2
	shift 2
	PATH=$bin:$PATH nice -n "$SYSCALLS_NICE" make -C "$src" O="$obj" ARCH="$arch" \
		CROSS_COMPILE="$triplet-" "$@"
}

# pause: wait while $SYSCALLS_PAUSE exists (other builds own the CPUs).
pause() {
	[ -e "$SYSCALLS_PAUSE" ] || return 0
	msg "check-syscalls: waiting while $SYSCALLS_PAUSE exists"
	while [ -e "$SYSCALLS_PAUSE" ]; do sleep 20; done
}

# The checksyscalls.sh command lines of a V=1 log (not its "# CALL" lines).
CMD_RE='(^|[ ;])(/bin/)?sh [^ ]*scripts/checksyscalls\.sh '

# syscall_warnings LOG [ABI]: "ABI: name" for each checksyscalls warning
# of a V=1 build LOG, the ABI from the -mabi= of the checksyscalls command
# before it (mips's n32 and o32 runs), else ABI.
syscall_warnings() {
	CMD_RE=$CMD_RE awk -v def="${2:-native}" '
		$0 ~ ENVIRON["CMD_RE"] {
			# The last -mabi= is the one in force: mips
			# appends -mabi=n32 or -mabi=32 to the kernel flags.
			abi = ""; rest = $0
			while (match(rest, /-mabi=[a-z0-9]+/)) {
				abi = substr(rest, RSTART + 6, RLENGTH - 6)
				rest = substr(rest, RSTART + RLENGTH)
			}
			if (abi == "32") abi = "o32"
			if (abi == "64") abi = "n64"
			if (abi == "") abi = def
			next
		}
		/#warning syscall [^ ]* not implemented/ {
			sub(/.*#warning syscall /, ""); sub(/ .*/, "")
			print (abi == "" ? def : abi) ": " $0
		}' "$1" | sort -u
}

# compat_check OBJ LOG OUT: arm64's compat table through checksyscalls:
# the command of LOG (prepare0's, V=1) again, with an <asm/unistd.h> of
# its own first, which is <asm/unistd32.h> (the AArch32 numbers: the
# generated unistd_32.h from 6.11 on, the list itself before) on a 32-bit
# BITS_PER_LONG (checksyscalls ignores the 32-bit-only calls on 64-bit).
compat_check() {
	local obj=$1 log=$2 out=$3 line shim
	shim=$obj/check-syscalls-compat
	line=$(grep -m1 -E "$CMD_RE" "$log") || return 1
	line=${line#*checksyscalls.sh }
	line=${line%%; touch*}
	mkdir -p "$shim/asm"
	cat >"$shim/asm/unistd.h" <<'EOF'
/* check-syscalls.sh: the AArch32 compat table as <asm/unistd.h> */
#include <asm/unistd32.h>
#undef BITS_PER_LONG
#define BITS_PER_LONG 32
EOF
	eval "set -- $line"
	local cc=$1 a args=()
	shift
	for a in "$@"; do
		case $a in -Wp,-MMD,*|-Wp,-MD,*) ;; *) args+=("$a") ;; esac
	done
	(cd "$obj" && PATH=$bin:$PATH nice -n "$SYSCALLS_NICE" \
		sh "$SRC/scripts/checksyscalls.sh" "$cc" -I"$shim" "${args[@]}") >"$out" 2>&1
}

[ -d "$SRC/.git" ] || die "no $SRC: run make tree"
head=$(g rev-parse --short=12 HEAD)
nseries=$(g rev-list --count "$BASE_TAG..HEAD")
msg "check-syscalls: BASE=$BASE, $SRC at $head ($nseries patch(es) on $BASE_TAG)"
root=$BUILD/kbuild/check-syscalls
mkdir -p "$root" "$LOGS/check-syscalls"
exec 9>"$root.lock"
flock -n 9 || die "another check-syscalls.sh is running (lock $root.lock)"

# Whether the other warnings are the base's own, without a build of the
# base: they are when the series removes no syscall from a table or unistd
# header, and adds none but clock_gettime_ns to checksyscalls' reference,
# x86's syscall_32.tbl.
other=$( { g diff "$BASE_TAG" HEAD -- '*.tbl' '*unistd*.h' |
	   grep -E '^-([0-9]|#define __NR_)' | grep -v -E '__NR_(compat_)?syscalls\b'
	   g diff "$BASE_TAG" HEAD -- arch/x86/entry/syscalls/syscall_32.tbl |
	   grep -E '^\+[0-9]' | grep -v -w "$SYSCALL"; } || true)
if [ -z "$other" ]; then
	notes_are="the base's own (the series adds only $SYSCALL to the tables)"
else
	notes_are="not compared with the base (the series changes other syscalls: $(head -n 1 <<<"$other"))"
fi

wanted=${SYSCALLS_ARCHES:-}
wired=() failed=() errors=() skipped=()
for entry in "${ARCH_LIST[@]}"; do
	read -r name arch triplet config opts <<<"$entry"
	if [ -n "$wanted" ] && ! grep -qw -- "$name" <<<"$wanted"; then continue; fi
	[ -d "$SRC/arch/$arch" ] || [ -d "$SRC/arch/${arch%64}" ] || continue
	rc=0
	bin=$(cross_gcc "$triplet") || rc=$?
	if [ $rc -eq 1 ]; then
		echo "  $name: skipped: $bin"
		skipped+=("$name")
		continue
	elif [ $rc -ne 0 ]; then
		echo "  $name: ERROR: $bin"
		errors+=("$name")
		continue
	fi
	pause
	start=$(date +%s)
	obj=$root/$name
	log=$LOGS/check-syscalls/$name
	read -r -a frag_opts <<<"${opts:-}"
	frags=()
	if [ ${#frag_opts[@]} -gt 0 ]; then
		printf '%s\n' "${frag_opts[@]}" >"$tmp/$name.config"
		frags=("$tmp/$name.config")
	fi
	if ! kconfig sc_make "$SRC" "$obj" "$log.config.log" "$config" "${frags[@]}"; then
		echo "  $name: ERROR: make $config failed (log $log.config.log)"
		errors+=("$name")
		continue
	fi
	lack=()
	for o in "${frag_opts[@]}"; do grep -qxF "$o" "$obj/.config" || lack+=("$o"); done
	if [ ${#lack[@]} -gt 0 ]; then
		echo "  $name: ERROR: $config plus the fragment lacks ${lack[*]}"
		errors+=("$name")
		continue
	fi
	# Kbuild's missing-syscalls runs when its stamp is older than its
	# inputs (7.2; 6.x runs it always): remove the stamps.
	rm -f "$obj"/.tmp_missing-syscalls*
	if ! sc_make "$SRC" "$obj" V=1 -j"$JOBS" prepare0 >"$log.log" 2>&1; then
		echo "  $name: ERROR: make prepare0 failed (log $log.log):"
		grep -E 'error|Error' "$log.log" | sed -n 1,5p | sed 's/^/      /'
		errors+=("$name")
		continue
	fi
	abis=$(grep -c -E "$CMD_RE" "$log.log" || true)
	if [ "$abis" -eq 0 ]; then
		echo "  $name: ERROR: make prepare0 did not run checksyscalls.sh (log $log.log)"
		errors+=("$name")
		continue
	fi
	syscall_warnings "$log.log" "$(native_abi "$name")" >"$tmp/w"
	extra=""
	if [ "$name" = arm64 ]; then
		if compat_check "$obj" "$log.log" "$log.compat.log"; then
			syscall_warnings "$log.compat.log" compat >>"$tmp/w"
			extra=" + compat"
		else
			echo "  $name: ERROR: checksyscalls.sh on the compat table failed (log $log.compat.log)"
			errors+=("$name-compat")
		fi
	fi
	secs=$(( $(date +%s) - start ))
	bad_abis=$(grep -E ": $SYSCALL\$" "$tmp/w" | cut -d: -f1 | paste -sd, || true)
	notes=$(grep -v -E ": $SYSCALL\$" "$tmp/w" || true)
	if [ -n "$bad_abis" ]; then
		echo "  $name: FAILED: #warning syscall $SYSCALL not implemented ($bad_abis) [${secs}s]"
		failed+=("$name")
	else
		echo "  $name: $SYSCALL wired (no checksyscalls warning) [$abis run(s)$extra, ${secs}s]"
		wired+=("$name")
	fi
	if [ -n "$notes" ]; then
		echo "      note: $notes_are: $(awk -F': ' '{ a[$1] = a[$1] " " $2 } END { for (k in a) printf "%s:%s; ", k, a[k] }' <<<"$notes" | sed 's/; $//')"
	fi
done
# The arches of this kernel with no compiler to check them with.
for e in "${NO_COMPILER[@]}"; do
	a=${e%%:*} t=${e#*:}
	if [ -n "$wanted" ] && ! grep -qw -- "$a" <<<"$wanted"; then continue; fi
	[ -d "$SRC/arch/$a" ] || continue
	cand=$(apt-cache policy "gcc-$t" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
		echo "  $a: skipped: Debian 12 has no gcc-$t"
	else
		echo "  $a: skipped: not in this script's list, though apt has gcc-$t $cand (add it to ARCH_LIST)"
	fi
	skipped+=("$a")
done

echo "check-syscalls: BASE=$BASE: ${#wired[@]} wired (${wired[*]:-}), ${#failed[@]} failed (${failed[*]:-}), ${#errors[@]} not checked (${errors[*]:-}), ${#skipped[@]} skipped (${skipped[*]:-})"
[ ${#failed[@]} -eq 0 ] || exit 1
[ ${#errors[@]} -eq 0 ] || exit 2
exit 0
