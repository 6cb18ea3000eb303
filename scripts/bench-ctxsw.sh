#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Context switches with sched_clock() stable and unstable, in one run: the
# figure of the 2009 X86_FEATURE_TSC_RELIABLE patch, in the QEMU guest.
#   unstable   nojitter                TCG's TSC is not invariant: the series
#                                      keeps it, sched_clock() filtered per CPU
#   stable     tsc=reliable nojitter   tsc_reliable set, sched_clock() stable
# Both boots run the TSC without jitter compensation (nojitter is what
# tsc=reliable gives anyway), so that only sched_clock() differs.  Each
# runs pipe-pingpong (two tasks pinned to CPUs 0 and 1 passing a byte
# through pipes) ROUNDS times and records the boot's state.  Writes
# build/bench/ctxsw.md and ctxsw.csv, stamped with the host and command.
# Usage: bench-ctxsw.sh   (N= round trips, default 1000000; ROUNDS=3; SMP=2;
#                          REPORT=1 only rewrites ctxsw.md from ctxsw.csv)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

N=${N:-1000000}
ROUNDS=${ROUNDS:-3}
SMP=${SMP:-2}
out=$BUILD/bench
mkdir -p "$out"
prog=$out/pipe-pingpong
src=$SRC/tools/testing/selftests/timers/pipe-pingpong.c
[ -f "$src" ] || die "no $src: make tree first"
gcc -O2 -Wall -static -I"$SRC/tools/testing/selftests" -o "$prog" "$src"

runs=""
for r in $(seq "$ROUNDS"); do runs+="./pipe-pingpong -n $N; "; done
state='echo "# clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"; echo "# tsc_reliable: $(grep -c "^flags.* tsc_reliable" /proc/cpuinfo) of $(grep -c "^flags" /proc/cpuinfo) CPUs"; echo "# compensation: $(cat /sys/kernel/time_interpolator/tsc/compensation)"; dmesg | grep -E "sched_clock: Marking|TSC (not marked )?reliable" | sed "s/^/# log: /"; true'

csv=$out/ctxsw.csv
[ "${REPORT:-}" = 1 ] || echo "mode,round_trips,wall_s,round_trips_per_s,context_switches" >"$csv"
[ "${REPORT:-}" = 1 ] && [ ! -f "$csv" ] && die "REPORT=1: no $csv yet"
for m in "unstable|nojitter" "stable|tsc=reliable nojitter"; do
	[ "${REPORT:-}" = 1 ] && break
	IFS='|' read -r name append <<<"$m"
	msg "bench: $name ($append), -smp $SMP, $ROUNDS x $N round trips"
	log=$out/ctxsw-$name.log
	SMP=$SMP APPEND=$append LIMIT=${LIMIT:-7200} \
		RUN="$prog ${runs#./pipe-pingpong }$state" \
		"$TOP/scripts/run.sh" boot >"$log" 2>&1 || die "bench: $name failed; see $log"
	sed -n "s/^# csv: pipe-pingpong,/$name,/p" "$log" | tr -d '\r' >>"$csv"
	grep '^# \(clocksource\|tsc_reliable\|compensation\|log\)' "$log" | sed "s/^# /# $name: /" >&2 || true
done

md=$out/ctxsw.md
{
	bench_stamp "pipe-pingpong, $N round trips between CPUs 0 and 1, $ROUNDS runs a boot, QEMU TCG -smp $SMP (emulated: compare the rows, not the absolute figures)" \
		"N=$N ROUNDS=$ROUNDS SMP=$SMP scripts/bench-ctxsw.sh"
	echo "| sched_clock | kernel arguments | round trips/s (median) | wall (s, median) | context switches | runs |"
	echo "| --- | --- | ---: | ---: | ---: | ---: |"
	for m in "unstable|nojitter" "stable|tsc=reliable nojitter"; do
		IFS='|' read -r name append <<<"$m"
		awk -F, -v m="$name" -v a="$append" '
			BEGIN { n = 0 }
			$1 == m { r[n] = $4; w[n] = $3; c[n] = $5; n++ }
			function med(x,   i, j, t) {
				for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
					if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
				return x[int(n / 2)]
			}
			END { if (n) printf "| %s | %s | %.0f | %.3f | %d | %d |\n", m, a, med(r), med(w), med(c), n }
		' "$csv"
	done
	awk -F, '
		$1 == "unstable" { u[nu++] = $4 } $1 == "stable" { s[ns++] = $4 }
		function med(x, n,   i, j, t) {
			for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
				if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
			return x[int(n / 2)]
		}
		END { if (nu && ns) printf "\nstable / unstable, round trips per second: %.3f\n", med(s, ns) / med(u, nu) }
	' "$csv"
} >"$md"
cat "$md"
