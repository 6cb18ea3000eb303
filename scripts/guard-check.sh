#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make test's host step for the guard: scripts/guard-bench.c, built around
# the patched tree's time_interpolator.c, run with --check on every CPU of
# the host: each read path checked for order, the lagging CPU absorbed
# within its lag, the check shown able to fail (the same lag, guard off),
# and a lag beyond max_lag_ns demoting once.  No figure is asserted: make
# guard-bench is the one that times it.  On a host of one CPU the checks
# that need two are skips.  Last, a copy of the core with the guard's
# absorbing branch taken out must fail them.
# Writes one JSON row per check to $1 (default build/results/guard-host.json).
# Usage: guard-check.sh [RESULTS.json]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:-$BUILD/results/guard-host.json}
dir=$BUILD/guard-check
log=$LOGS/guard-check.md
rows=()
nfail=0
record() { record_row guard-host guard-host "$1" "$2" "$3" build/logs/guard-check.md; }
finish() { (IFS=,; echo "[${rows[*]}]") >"$out"; }
trap finish EXIT

mkdir -p "$dir" "$LOGS" "$(dirname "$out")"
# guard-bench.c drives v2's guard (inside the source's own read); 7.2
# and 6.12 carry v3, whose guard is the twin's read, and it is not ported.
if [ "$SERIES_VERSION" = 3 ]; then
	echo "guard-bench is not ported to v3 ($BASE): no host check of the guard" >"$log"
	record run skip "guard-bench is not ported to v3 of the series ($BASE) yet"
	exit 0
fi
if ! build_guard_bench "$dir/guard-bench" 2>"$log"; then
	record build fail "scripts/guard-bench.c does not build around $SRC"
	exit 0
fi
rc=0
"$dir/guard-bench" --check --check-ms=200 >"$log" 2>&1 || rc=$?

# "- ok: PATH: WHAT: ...", "- **FAIL**: ..." and "- skip: ..." are the
# checks; the name is the path and what was checked, numbered.
report_rows guard-host "$log" build/logs/guard-check.md 's/^([^:]*:[^:]*):.*/\1/'
[ "$nchecks" -gt 0 ] || record run fail "guard-bench reported no checks (exit $rc)"
[ "$rc" -eq 0 ] || [ "$nfail" -gt 0 ] || record run fail "guard-bench exited $rc with every check passed"

# The checks can fail: the same program around a copy of the core whose
# guard returns a counter that is behind instead of absorbing it must be
# refused (exit 1, CPU 0 not absorbed, time stepping back).
mut=$dir/mutant
rm -rf "$mut"
for f in kernel/time/time_interpolator.c kernel/time/timekeeping.h \
	 include/linux/time_interpolator.h arch/x86/include/asm/time_interpolator.h; do
	mkdir -p "$mut/$(dirname "$f")"
	cp "$SRC/$f" "$mut/$f"
done
sed -i 's/^\t\tnow = ti_guard_behind(ti, last);$/\t\t;/' "$mut/kernel/time/time_interpolator.c"
if cmp -s "$SRC/kernel/time/time_interpolator.c" "$mut/kernel/time/time_interpolator.c"; then
	record mutant fail "ti_guard() has no line 'now = ti_guard_behind(ti, last);' to take out: update scripts/guard-check.sh"
elif [ "$(nproc)" -lt 2 ]; then
	record mutant skip "one CPU: no lag to miss"
elif ! build_guard_bench "$mut/guard-bench" "$mut" 2>>"$log"; then
	record mutant fail "the mutant does not build"
else
	mrc=0
	"$mut/guard-bench" --check --check-ms=100 >"$mut/report.md" 2>&1 || mrc=$?
	if [ "$mrc" -eq 1 ] && grep -q '^- \*\*FAIL\*\*: lag: CPU 0 absorbed' "$mut/report.md"; then
		record mutant pass "a guard that does not absorb is refused: $(grep -c '^- \*\*FAIL' "$mut/report.md") checks failed"
	else
		record mutant fail "a guard that does not absorb passed the checks (exit $mrc); see $mut/report.md"
	fi
fi
msg "guard-host: $nchecks checks, $nfail not passed; report $log"
