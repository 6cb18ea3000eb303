#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make guard-bench: the time interpolator's read path timed on the host's
# own cores.  scripts/guard-bench.c is built around the patched tree's
# kernel/time/time_interpolator.c and include/linux/time_interpolator.h as
# they are (build_guard_bench in lib.sh), registers a TSC time source with
# the core, checks every read path for order, then times, on 1..all CPUs
# with one pinned thread each: the bare TSC, the core's read with the
# guard off, on, and on with one CPU lagging, the host's vDSO and system
# call clock_gettime(), and the HPET or ACPI PM timer where they can be read.
# Writes build/bench/guard-host.md (the report) and guard-host.csv.
# Usage: guard-bench.sh   (CPUS=N the first N CPUs, default all allowed;
#                          ROUNDS=9; MS=30 ms a measurement; LAG_NS=20000)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROUNDS=${ROUNDS:-9}
MS=${MS:-30}
LAG_NS=${LAG_NS:-20000}
out=$BUILD/bench
prog=$out/guard-bench
md=$out/guard-host.md
csv=$out/guard-host.csv
mkdir -p "$out" "$LOGS"

[ -f "$SRC/kernel/time/time_interpolator.c" ] || "$TOP/scripts/tree.sh" sync
msg "guard-bench: building $prog around $SRC/kernel/time/time_interpolator.c"
build_guard_bench "$prog" || die "guard-bench: scripts/guard-bench.c does not build"

args=(--rounds="$ROUNDS" --ms="$MS" --lag-ns="$LAG_NS" ${CPUS:+--cpus="$CPUS"} --csv="$csv")
cmd="make guard-bench (ROUNDS=$ROUNDS MS=$MS LAG_NS=$LAG_NS${CPUS:+ CPUS=$CPUS})"
msg "guard-bench: $ROUNDS rounds of $MS ms a path and CPU count, 1..${CPUS:-$(nproc)} CPUs"
rm -f "$md" "$csv"
# What was built: the files of the patched tree, by content.
src=$(for f in kernel/time/time_interpolator.c include/linux/time_interpolator.h \
		arch/x86/include/asm/time_interpolator.h; do
	printf '%s sha256 %s; ' "$f" "$(sha256sum <"$SRC/$f" | cut -c1-16)"
done)
src=${src%; }
rc=0
{
	bench_stamp "# guard-bench: the time interpolator's read path, native" "$cmd"
	echo "- kernel: $(uname -r) (the host's vDSO and system call rows)"
	echo "- source: $src"
	"$prog" "${args[@]}" || rc=$?
} >"$md"
if [ "$rc" -ne 0 ]; then
	cat "$md"
	die "guard-bench: failed (exit $rc: 1 a check failed, 2 usage or set-up); see $md"
fi
# The CSV says where it comes from, as make bench's others do.
{
	echo "# date: $(date -u '+%Y-%m-%d %H:%M') UTC"
	echo "# host: $(host_cpu), Linux $(uname -r)"
	echo "# command: $cmd"
	echo "# source: $src"
	cat "$csv"
} >"$csv.new" && mv "$csv.new" "$csv"
cat "$md"
msg "guard-bench: wrote $md and $csv"
