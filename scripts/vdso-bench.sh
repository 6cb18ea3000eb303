#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The x86-64 vDSO of the base and of the series, timed on the host: builds
# scripts/vdso-bench.c, loads both vdso64.so images next to a vvar page it
# fills (in the layout of the kernel that built each, 6.1, 6.12 or 7.2,
# read from its version note: 7.2's generic vDSO datastore), checks their
# clocks against the host's and times their entry points beside the host's
# clock_gettime() and bare TSC reads.  BASE= picks the built kernels, as
# everywhere.
# Writes build/bench/vdso-host.md (the report) and vdso-host.csv
# (build/6.12/bench/ with BASE=6.12, build/7.2/bench/ with BASE=7.2).
# The images are copied to build/bench/vdso-images/ first, so that a kernel
# build running meanwhile cannot change them under the program.
# Usage: vdso-bench.sh   (N= calls per candidate per round, default 2000000;
#                         ROUNDS=7; ALT=host|none|lfence|rdtscp, the
#                         alternatives applied; CPU=n to pin the run;
#                         BASE_VDSO=, PATCHED_VDSO= a vdso64.so each;
#                         FLOOR_VDSO= a third, timed as the floor, not
#                         checked: make vdso-floor, which writes
#                         vdso-floor.md and .csv instead)
# With no BASE_VDSO/PATCHED_VDSO and no built kernel of a flavour, that
# kernel is built first (build-kernel.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

N=${N:-2000000}
ROUNDS=${ROUNDS:-7}
ALT=${ALT:-host}
out=$BUILD/bench
prog=$out/vdso-bench
snap=$out/vdso-images
report=vdso-host
[ -z "${FLOOR_VDSO:-}" ] || report=vdso-floor
md=$out/$report.md
csv=$out/$report.csv
mkdir -p "$out"

msg "vdso-bench: building $prog"
build_vdso_bench "$prog" ||
	die "vdso-bench: scripts/vdso-bench.c does not build"

# image FLAVOUR [PATH]: the vdso64.so to time, PATH or the flavour's build
# (vdso64_image: arch/x86/entry/vdso/, on 7.2 its vdso64/).
image() {
	local flavour=$1 path=${2:-}
	if [ -n "$path" ]; then
		[ -f "$path" ] || die "vdso-bench: no $path"
		echo "$path"
		return
	fi
	path=$(vdso64_image "$flavour")
	if [ ! -f "$path" ]; then
		msg "vdso-bench: no $flavour vDSO yet: building the $flavour kernel"
		"$TOP/scripts/build-kernel.sh" "$flavour" >&2
		[ -f "$path" ] || die "vdso-bench: the $flavour build made no $path"
	fi
	echo "$path"
}

base_src=$(image base "${BASE_VDSO:-}")
patched_src=$(image patched "${PATCHED_VDSO:-}")
flavours=(base patched)
floor=()
if [ -n "${FLOOR_VDSO:-}" ]; then
	floor_src=$(image floor "$FLOOR_VDSO")
	flavours+=(floor)
	floor=(--floor=floor floor="$snap/floor/vdso64.so")
fi
# src_of FLAVOUR: the image FLAVOUR was copied from
src_of() {
	case $1 in
	base) echo "$base_src" ;;
	patched) echo "$patched_src" ;;
	floor) echo "$floor_src" ;;
	esac
}

# A snapshot of each image and, when there, its .dbg (the full symbols)
for f in "${flavours[@]}"; do
	src=$(src_of "$f")
	rm -rf "${snap:?}/$f"
	mkdir -p "$snap/$f"
	cp "$src" "$snap/$f/vdso64.so"
	[ -f "$src.dbg" ] && cp "$src.dbg" "$snap/$f/vdso64.so.dbg"
done

msg "vdso-bench: base $base_src, patched $patched_src${FLOOR_VDSO:+, floor $floor_src}; N=$N, $ROUNDS rounds, alternatives $ALT"
rm -f "$md" "$csv"
rc=0
"$prog" -n "$N" -r "$ROUNDS" --alt="$ALT" ${CPU:+--cpu="$CPU"} --csv="$csv" \
	base="$snap/base/vdso64.so" patched="$snap/patched/vdso64.so" "${floor[@]}" \
	>"$md" || rc=$?
{
	echo
	echo "command: N=$N ROUNDS=$ROUNDS ALT=$ALT${CPU:+ CPU=$CPU}${FLOOR_VDSO:+ FLOOR_VDSO=$FLOOR_VDSO} scripts/vdso-bench.sh"
	for f in "${flavours[@]}"; do
		src=$(src_of "$f")
		echo "$f image: copied from $src, sha256 $(sha256sum <"$snap/$f/vdso64.so" | cut -d' ' -f1)"
	done
	if cmp -s "$snap/base/vdso64.so" "$snap/patched/vdso64.so"; then
		echo "note: the two images are byte-identical: their ratios measure the noise only"
	fi
} >>"$md"

if [ "$rc" -ne 0 ]; then
	cat "$md"
	die "vdso-bench: failed (exit $rc: 1 sanity, 2 image or usage error, 3 fault); see $md"
fi
# The header and the results; the alternatives and sanity details are in $md
sed -n '1,/^## Images/{/^## Images/!p}; /^## Timing/,$p' "$md"
msg "vdso-bench: wrote $md and $csv"
