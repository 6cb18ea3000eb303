#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# todscale in the guest, for every time-interpolator mode, in one run:
#   base            the unpatched base (TSC given up: HPET, system call)
#   default         the series: TSC kept, jitter compensation on (TCG)
#   nojitter        the series: TSC trusted, read in the vDSO
#   force           the series: compensation forced on every source
#   hpet            the series, clocksource=hpet
# Each mode is one boot that runs todscale for clock_gettime(MONOTONIC)
# through libc and for gettimeofday().  Writes build/bench/modes.md (a
# Markdown table) and modes.csv, stamped with the host and the command.
# Each boot also records the clocksource it ended on and, on the series,
# the TSC's interpolator state (modes-NAME.log).
# Usage: bench-modes.sh   (N= calls per thread, default 1000000; SMP=2;
#                          MODES="base default ..." to run some modes)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

N=${N:-1000000}
SMP=${SMP:-2}
out=$BUILD/bench
mkdir -p "$out"
prog=$out/todscale
# The patched tree has the program; the base does not, and needs none.
gcc -O2 -Wall -static -o "$prog" "$SRC/tools/testing/selftests/timers/todscale.c" -lpthread

modes=("base|none|" "default||" "nojitter||nojitter"
       "force||time_interpolator.jitter=force" "hpet||clocksource=hpet")
csv=$out/modes.csv
echo "mode,call,cpus,wall_s,wall_per_cpu_s" >"$csv"
state='echo "# clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"; for f in compensation demoted skips max_skip_ns; do [ -r /sys/kernel/time_interpolator/tsc/$f ] && echo "# tsc $f: $(cat /sys/kernel/time_interpolator/tsc/$f)"; done; true'
for m in "${modes[@]}"; do
	IFS='|' read -r name series append <<<"$m"
	if [ -n "${MODES:-}" ] && ! printf '%s\n' $MODES | grep -qxF "$name"; then
		continue
	fi
	msg "bench: mode $name (${append:-no extra arguments}), -smp $SMP, $N calls per thread"
	log=$out/modes-$name.log
	# run.sh itself, not make: make would expand the $(...) of $state.
	SERIES=$series SMP=$SMP APPEND=$append \
		RUN="$prog -n $N -c clock_gettime -C; ./todscale -n $N -c gettimeofday -C; $state" \
		"$TOP/scripts/run.sh" boot >"$log" 2>&1 || die "bench: mode $name failed; see $log"
	awk -v mode="$name" '
		/^# call: / { call = ($3 ~ /^gettimeofday/) ? "gettimeofday" : "clock_gettime" }
		/^[0-9]+,[0-9.]+,[0-9.]+$/ { print mode "," call "," $0 }
	' "$log" >>"$csv"
	grep '^# \(clocksource\|tsc \)' "$log" | sed "s/^# /# $name: /" >&2 || true
done

md=$out/modes.md
{
	bench_stamp "todscale, $N calls per thread, QEMU TCG -smp $SMP (emulated: compare rows, not absolutes)" \
		"N=$N SMP=$SMP scripts/bench-modes.sh"
	echo "| mode | call | CPUS | WALL (s) | WALL/CPUS (s) |"
	echo "| --- | --- | ---: | ---: | ---: |"
	awk -F, 'NR > 1 { printf "| %s | %s | %d | %.3f | %.3f |\n", $1, $2, $3, $4, $5 }' "$csv"
} >"$md"
cat "$md"
