#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build what runs inside the guest for one flavour: the kernel's exported
# headers, the selftest collections (static where their Makefiles allow),
# and the harness's own guest programs, all against those headers.
# Usage: build-tests.sh patched|base [PROGRAM...]
# With PROGRAMs (names of scripts/guest/*.c: make run's "clocks"), the
# headers and those guest programs alone.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:?flavour}
shift
src=$(flavour_src "$flavour")
obj=$(obj_dir "$flavour")
out=$(out_dir "$flavour")
log=$LOGS/tests-$flavour.log
collections=${SELFTEST_COLLECTIONS:-timers vDSO}
mkdir -p "$out" "$LOGS"

# The uapi headers in the kernel's own $obj/usr/include (make headers), the
# place kselftest's lib.mk expects: from 7.2 a selftest that depends on
# lib.mk's "headers" rule remakes them there, in the directory it derives
# from KHDR_INCLUDES (vDSO's vdso_standalone_test_x86).
msg "tests ($flavour): headers"
run_logged "$log.headers" make -C "$src" O="$obj" headers ||
	die "make headers failed"
hdr="-isystem $obj/usr/include"

# guest_program SRC: scripts/guest/SRC built as build/out/FLAVOUR/guest/NAME,
# unless it is newer than SRC and the headers.  One that includes
# parse_vdso.h is linked with the kernel's vDSO parser
# (tools/testing/selftests/vDSO) of the same tree.  init32.c is the init of
# the i386 kernel (th.kernel=i386): built for i386.
guest_program() {
	local f=$1 b more=()
	local vdso_dir=$src/tools/testing/selftests/vDSO
	b=$out/guest/$(basename "$f" .c)
	mkdir -p "$out/guest"
	[ "$b" -nt "$f" ] && [ "$b" -nt "$obj/usr/include/linux/version.h" ] && return
	grep -q '^#include "parse_vdso.h"' "$f" && more=(-I"$vdso_dir" "$vdso_dir/parse_vdso.c")
	[ "$(basename "$f")" = init32.c ] && more+=(-m32)
	run_logged "$log.guest" gcc -O2 -Wall -Werror -static $hdr -o "$b" "$f" "${more[@]}" ||
		die "guest program $f failed to build"
}

if [ $# -gt 0 ]; then
	for p in "$@"; do
		[ -f "$TOP/scripts/guest/$p.c" ] || die "no guest program scripts/guest/$p.c"
		msg "tests ($flavour): guest program $p"
		guest_program "$TOP/scripts/guest/$p.c"
	done
	exit 0
fi

# Static, so the guest needs no C library; valid-adjtimex defines its own
# clock_adjtime(), which a static libc.a also holds: its own one wins.
static="-static -Wl,--allow-multiple-definition"

rm -rf "$out/ksft"
for c in $collections; do
	d=$src/tools/testing/selftests/$c
	[ -d "$d" ] || die "no selftest collection $c in $src"
	msg "tests ($flavour): selftests/$c"
	mkdir -p "$out/ksft-build/$c"
	# CPPFLAGS reaches the implicit rules that most tests use, so they see
	# the flavour's exported uapi headers before the C library's copy.
	# 7.2's vdso_test_correctness.c uses __kernel_time_t and
	# __kernel_old_time_t and includes no header of the kernel's that
	# declares them, nor does Debian 12's glibc 2.36 (it fails to build
	# there, unpatched): the collection's C files get <linux/types.h>
	# first (not its .S files, which CPPFLAGS reaches too).
	cpp=$hdr
	if [ "$c" = vDSO ] && grep -qs __kernel_time_t "$d/vdso_test_correctness.c" &&
	   ! grep -qs '#include <linux/' "$d/vdso_test_correctness.c"; then
		printf '#ifndef __ASSEMBLER__\n#include <linux/types.h>\n#endif\n' >"$out/th-kernel-types.h"
		cpp="$hdr -include $out/th-kernel-types.h"
	fi
	run_logged "$log.$c" make -C "$d" OUTPUT="$out/ksft-build/$c" \
		KHDR_INCLUDES="$hdr" CPPFLAGS="$cpp" LDFLAGS="$static" \
		INSTALL_PATH="$out/ksft/$c" install ||
		die "selftests/$c failed to build (see the file named above)"
	make -s --no-print-directory -C "$d" OUTPUT="$out/ksft-build/$c" \
		KHDR_INCLUDES="$hdr" COLLECTION="$c" emit_tests >"$out/ksft/$c.list"
	make -s --no-print-directory -C "$d" -f Makefile -f "$TOP/scripts/ksft-extended.mk" \
		OUTPUT="$out/ksft-build/$c" KHDR_INCLUDES="$hdr" COLLECTION="$c" \
		emit_extended_tests >"$out/ksft/$c.extended.list"
done

# The harness's own guest tests, collection "th" (th:skew-demote): shell
# scripts that drive the series' tests under conditions a boot sets up.
rm -rf "$out/ksft/th"
mkdir -p "$out/ksft/th"
cp "$TOP"/scripts/guest/th/* "$out/ksft/th/"
chmod +x "$out/ksft/th"/*

# The series' tests again for the kernel's other ABIs, i386 (IA32_EMULATION)
# and x32, as collections of their own ("timers-i386:xcpu-monotonic"):
# the i386 system call table and entry, the 32-bit vDSO built from lib/vdso,
# and the x32 vDSO's entries.  Built as the timers Makefile builds them.
ABI_TESTS=${ABI_TESTS:-timers:xcpu-monotonic timers:clock-gettime-ns timers:interpolator-state vDSO:vdso_test_abi}
for abi in i386:-m32 x32:-mx32; do
	name=${abi%%:*} flag=${abi#*:}
	msg "tests ($flavour): the series' tests for $name"
	for t in $ABI_TESTS; do
		c=${t%%:*} p=${t#*:} d=$src/tools/testing/selftests/${t%%:*}
		[ -f "$d/$p.c" ] || continue	# the base lacks the series' tests
		more=()
		grep -q 'vdso_sym' "$d/$p.c" && more=("$src/tools/testing/selftests/vDSO/parse_vdso.c")
		mkdir -p "$out/ksft/$c-$name"
		# -I: from 7.2 the vDSO tests include "kselftest.h" as lib.mk's
		# -I of the selftests' directory finds it.
		run_logged "$log.$name" gcc "$flag" -O3 -Wall -Werror $static $hdr \
			-I "$src/tools/testing/selftests" \
			-o "$out/ksft/$c-$name/$p" "$d/$p.c" "${more[@]}" -lrt -lpthread -lm ||
			die "$t for $name failed to build (see the file named above)"
	done
done

for f in "$TOP"/scripts/guest/*.c; do
	guest_program "$f"
done
