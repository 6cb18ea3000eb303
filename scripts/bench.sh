#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the figures of the source documents, for this machine, in one
# run, written to results/ (bench.md, CSV files, PNG plots, raw outputs).
#
# In the QEMU guest, one boot a mode, each running cdisp, dmt and todscale
# (clock_gettime and gettimeofday through libc, and clock_gettime through
# syscall(), which takes the guard where the vDSO cannot; 1..SMP CPUs;
# scripts/guest/bench):
#   patched default    the series as it boots (TCG: TSC kept, guard on)
#   patched nojitter   the TSC trusted, no jitter compensation
#   patched nowatchdog nojitter tsc=nowatchdog: under TCG the clocksource
#                      watchdog drops the TSC once the vCPUs are busy (the
#                      emulated TSC drifts against the HPET); this boot
#                      shows the vDSO's scaling without that
#   patched force      time_interpolator.jitter=force
#   patched force-nowatchdog   the same, tsc=nowatchdog: the guard's cost
#                      against nowatchdog, the TSC kept in both
#   patched hpet       clocksource=hpet
#   patched skew       the series' default mode on TSCs that really disagree:
#                      vCPU 1's TSC 50 us behind (th.skew, the QEMU of
#                      scripts/qemu-skew.sh), tsc=nowatchdog: the guard on
#                      the TSC, absorbing real lags
#   base default       unpatched 6.1 (TCG: TSC given up, HPET)
#   base hpet          unpatched 6.1, clocksource=hpet
#   base612 default    unpatched 6.12 (BASE=6.12): does 6.12 still give the
#                      TSC up, and what does a read cost then
#   patched612 default, nojitter   the first posting, ported to 6.12
#   base72 default     unpatched mainline 7.2 (BASE=7.2)
#   patched72 default, nojitter   the posting on mainline 7.2
#   patched72 sockets, base72 sockets   the same kernels on two packages
#                      (th.sockets=2: "-smp SMP,sockets=2")
#   patched72 nowatchdog, base72 nowatchdog, and sockets-nowatchdog (the
#                      same with th.sockets=2 tsc=nowatchdog): 7.2 without
#                      TCG's watchdog drop, each over the base's boot of
#                      the same arguments (on two packages the base still
#                      gives the TSC up: unsynchronized at boot)
# 7.2's default is not 6.1's.  7.2 counts the CPU packages before it sets
# up the TSC, and on TCG's one package its unsynchronized_tsc() trusts
# the non-constant TSC: unpatched 7.2 keeps the TSC, and the series boots
# with the guard off (as on 6.12: results/raw/guest-patched612-default.txt
# says "synchronized, jitter compensation off").  patched72 default is
# left as booted, no arguments, as every base's default is: comparable
# with patched612 default, and what 7.2 does on a one-package machine.
# The boot comparable with 6.1's default ("TSC kept, guard on", where the
# unpatched kernel gives the TSC up) is the sockets mode: on two packages
# 7.2's own rule distrusts the TSC, unpatched 7.2 falls back to the HPET
# and the series keeps the TSC with the guard on.  A mode of its own, not
# th.sockets=2 in default, because it also changes the guest's topology
# (the scheduler's domains), which todscale's scaling sees: its divisor
# is base72 sockets, booted the same way (bench-report.py).
# The programs are built once, static, from the series' tree on 6.1, so
# that every kernel runs the same binaries.  On the host: dmt against the host's
# kernel, the native vDSO benchmark (scripts/vdso-bench.sh), the guard's
# read path on the host's cores (scripts/guard-bench.sh) and, unless
# BENCH_QUICK=1, context switches (scripts/bench-ctxsw.sh).
#
# A figure never fails the run; a program that fails its own sanity checks
# (a call that errs, time going backward, a wrong resolution) does.
#
# BENCH_QUICK=1: 7 boots of 2 vCPUs, 100000 calls a thread, a shorter vDSO
# run and no context switches: a few minutes once the kernels are built.
# Usage: bench.sh   (N= todscale calls a thread; SMP= vCPUs, default the
#                    larger of 4 and the host's cores; MODES="patched:nojitter
#                    base:default ..." to run some boots, KERNEL:MODE with
#                    KERNEL patched, base (6.1), patched612, base612
#                    (6.12), patched72 or base72 (7.2); RESULTS= the output)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

quick=${BENCH_QUICK:-0}
ncpu=$(nproc)
if [ "$quick" = 1 ]; then
	N=${N:-100000}
	SMP=${SMP:-2}
	all_modes="patched:default patched:nojitter base:default patched612:default base612:default"
	all_modes+=" patched72:default base72:default"
else
	N=${N:-1000000}
	SMP=${SMP:-$((ncpu > 4 ? ncpu : 4))}
	all_modes="patched:default patched:nojitter patched:nowatchdog patched:force patched:force-nowatchdog patched:skew patched:hpet base:default base:hpet"
	all_modes+=" patched612:default patched612:nojitter base612:default"
	all_modes+=" patched72:default patched72:nojitter patched72:sockets base72:default base72:sockets"
	all_modes+=" patched72:nowatchdog base72:nowatchdog patched72:sockets-nowatchdog base72:sockets-nowatchdog"
fi
MODES=${MODES:-$all_modes}
CALLS="clock_gettime gettimeofday syscall"
res=${RESULTS:-$TOP/results}
raw=$res/raw
work=$BUILD/bench
mkdir -p "$work"
rm -rf "$raw" && mkdir -p "$raw"
t0=$SECONDS
started=$(date -u '+%Y-%m-%d %H:%M')

# The kernel arguments of a mode.
append_of() {
	case $1 in
	default) echo "" ;;
	nojitter) echo "nojitter" ;;
	force) echo "time_interpolator.jitter=force" ;;
	hpet) echo "clocksource=hpet" ;;
	nowatchdog) echo "nojitter tsc=nowatchdog" ;;
	force-nowatchdog) echo "time_interpolator.jitter=force tsc=nowatchdog" ;;
	skew) echo "th.skew=1:-50000 tsc=nowatchdog" ;;
	sockets) echo "th.sockets=2" ;;
	sockets-nowatchdog) echo "th.sockets=2 tsc=nowatchdog" ;;
	*) die "bench: unknown mode $1 (default nojitter nowatchdog force force-nowatchdog skew hpet sockets sockets-nowatchdog)" ;;
	esac
}
# The base and SERIES of a kernel of MODES.
base_of() { case $1 in *612) echo 6.12 ;; *72) echo 7.2 ;; *) echo 6.1 ;; esac; }
series_of() { case $1 in *612) echo "${1%612}" ;; *72) echo "${1%72}" ;; *) echo "$1" ;; esac; }
for m in $MODES; do
	case ${m%%:*} in patched | base | patched612 | base612 | patched72 | base72) ;;
	*) die "bench: $m: want KERNEL:MODE, KERNEL one of patched, base, patched612, base612, patched72, base72" ;;
	esac
	append_of "${m#*:}" >/dev/null
	# QEMU wants the vCPUs split evenly over the packages.
	[[ ${m#*:} != sockets* ]] || [ $((SMP % 2)) = 0 ] ||
		die "bench: $m: th.sockets=2 wants an even SMP, not $SMP"
done

"$TOP/scripts/deps.sh" gnuplot-nox
"$TOP/scripts/tree.sh" sync

msg "bench: building cdisp, dmt and todscale (static, from $SRC)"
sel=$SRC/tools/testing/selftests
for p in cdisp dmt todscale; do
	[ -f "$sel/timers/$p.c" ] || die "bench: no $sel/timers/$p.c: the series is not applied in $SRC"
done
gcc -O2 -Wall -static -o "$work/cdisp" "$sel/timers/cdisp.c"
gcc -O2 -Wall -static -o "$work/dmt" "$sel/timers/dmt.c" "$sel/vDSO/parse_vdso.c"
gcc -O2 -Wall -static -o "$work/todscale" "$sel/timers/todscale.c" -lpthread

# The host's own figures first: they need no kernel build.
msg "bench: host: dmt against $(uname -r)"
"$work/dmt" >"$raw/host-dmt.txt" || die "bench: dmt failed its checks on the host; see $raw/host-dmt.txt"

# Each kernel's build and guest, once; then the boots.  A 6.12 kernel
# is built in build/6.12 (BASE=6.12), a 7.2 kernel in build/7.2 (BASE=7.2).
for f in patched base patched612 base612 patched72 base72; do
	grep -q "\b$f:" <<<"$MODES" || continue
	msg "bench: preparing the $f kernel"
	BASE=$(base_of $f) SERIES=$(series_of $f) "$TOP/scripts/run.sh" kernel \
		>"$work/prepare-$f.log" 2>&1 ||
		die "bench: the $f kernel did not build; see $work/prepare-$f.log"
	tail -n 1 "$work/prepare-$f.log"
done

n=$(wc -w <<<"$MODES")
i=0
for m in $MODES; do
	i=$((i + 1))
	f=${m%%:*} mode=${m#*:}
	append=$(append_of "$mode")
	name=$f-$mode
	log=$work/boot-$name.log
	msg "bench: [$i/$n] boot $f kernel, mode $mode (${append:-no arguments}), -smp $SMP, $N calls a thread"
	b0=$SECONDS
	rc=0
	: >"$log"
	BASE=$(base_of $f) SERIES=$(series_of $f) SMP=$SMP APPEND=$append BOOT_PREPARED=1 \
		LIMIT=${LIMIT:-1800} RUN="$TOP/scripts/guest/bench $N '$CALLS'" \
		RUN_FILES="$work/cdisp $work/dmt $work/todscale" \
		"$TOP/scripts/run.sh" boot >"$log" 2>&1 &
	pid=$!
	# Progress, as it comes: the guest script's "bench:" lines and each
	# CPU count todscale has done.
	tail -n +1 -f "$log" --pid=$pid 2>/dev/null |
		grep --line-buffered -E '^bench:|^ok [0-9]+ [0-9]+ cpus:' |
		sed -u -e 's/\r$//' -e 's/^/      /' || true
	wait $pid || rc=$?
	sed -n '/^== state/,/^== end/p' "$log" | tr -d '\r' >"$raw/guest-$name.txt"
	[ $rc -eq 0 ] || die "bench: boot $name failed (status $rc): a program failed its checks or the boot did not finish; see $log"
	msg "bench: [$i/$n] $name took $((SECONDS - b0)) s"
done

# host_bench NAME QUICK FULL [BASE]: scripts/NAME-bench.sh with the
# variables QUICK (BENCH_QUICK=1) or FULL, on BASE's builds (default this
# one's); its report BASE's build/bench/NAME-host.md to raw/host-NAME.md
# and its NAME-host.csv to the results, both named -6.12 for BASE=6.12
# and -7.2 for BASE=7.2.
host_bench() {
	local name=$1 vars=$3 base=${4:-$BASE} dir=$work sfx=
	[ "$quick" = 1 ] && vars=$2
	if [ "$base" != "$BASE" ]; then
		sfx=-$base
		dir=$TOP/build$(base_dir "$base")/bench
	fi
	# shellcheck disable=SC2086 # VAR=value words
	env BASE="$base" BUILD="${dir%/bench}" $vars "$TOP/scripts/$name-bench.sh" >"$work/$name-bench$sfx.log" 2>&1 ||
		die "bench: $name-bench ($base) failed; see $work/$name-bench$sfx.log"
	cp "$dir/$name-host.md" "$raw/host-$name$sfx.md"
	cp "$dir/$name-host.csv" "$res/$name-host$sfx.csv"
}

msg "bench: host: the vDSO of both builds (scripts/vdso-bench.sh)"
host_bench vdso "N=200000 ROUNDS=3" "N=2000000 ROUNDS=7"
rm -f "$raw/host-vdso-6.12.md" "$res/vdso-host-6.12.csv"
rm -f "$raw/host-vdso-7.2.md" "$res/vdso-host-7.2.csv"
if grep -qE '(^| )(patched|base)612:' <<<"$MODES"; then
	msg "bench: host: the vDSO of both 6.12 builds (BASE=6.12 scripts/vdso-bench.sh)"
	host_bench vdso "N=200000 ROUNDS=3" "N=2000000 ROUNDS=7" 6.12
fi
# 7.2's images are in its vdso64/ (lib.sh's vdso64_image); vdso-bench.c
# reads 7.2's vvar layout from each image's version note.
if grep -qE '(^| )(patched|base)72:' <<<"$MODES"; then
	msg "bench: host: the vDSO of both 7.2 builds (BASE=7.2 scripts/vdso-bench.sh)"
	host_bench vdso "N=200000 ROUNDS=3" "N=2000000 ROUNDS=7" 7.2
fi
msg "bench: host: the interpolator's read path natively (scripts/guard-bench.sh)"
host_bench guard "ROUNDS=3 MS=10" "ROUNDS=9 MS=30"

rm -f "$res/ctxsw.csv"
if [ "$quick" != 1 ]; then
	msg "bench: guest: context switches, sched_clock stable and not (scripts/bench-ctxsw.sh)"
	N=200000 ROUNDS=3 SMP=2 "$TOP/scripts/bench-ctxsw.sh" >"$work/ctxsw.log" 2>&1 ||
		die "bench: bench-ctxsw failed; see $work/ctxsw.log"
	cp "$work/ctxsw.md" "$raw/ctxsw.md"
	cp "$work/ctxsw.csv" "$res/ctxsw.csv"
fi

msg "bench: writing $res"
cmd="make bench"
[ "$quick" = 1 ] && cmd="BENCH_QUICK=1 $cmd"
python3 "$TOP/scripts/bench-report.py" --raw "$raw" --out "$res" \
	--command "$cmd (N=$N SMP=$SMP MODES=\"$MODES\")" \
	--qemu "$(qemu-system-x86_64 --version | sed -n 1p), TCG" \
	--quick "$quick" --date "$started"
msg "bench: done in $((SECONDS - t0)) s: $res/bench.md"
