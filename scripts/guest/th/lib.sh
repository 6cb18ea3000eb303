# SPDX-License-Identifier: GPL-2.0
# Shared by the th collection's tests: numbered TAP results and the checks
# they make.  Sourced, not run.
n=0 bad=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
not_ok() { n=$((n + 1)); bad=1; echo "not ok $n $*"; }
# plan N: the TAP plan; skip_rest WHY then reports the results not yet
# reached as skipped and exits with kselftest's skip status.
plan() { planned=$1; echo "1..$1"; }
skip_rest() {
	while [ $n -lt "$planned" ]; do n=$((n + 1)); echo "ok $n # SKIP $1"; done
	exit 4
}
# check WHAT CMD...: a result named WHAT, ok when CMD succeeds.
check() { what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }
# logged ERE: the kernel log has a line matching ERE.
logged() { dmesg | grep -qE "$1"; }
not_logged() { ! logged "$1"; }
# wait_while MAX CMD...: wait up to MAX s while CMD succeeds; the seconds
# waited in $waited.
wait_while() {
	max=$1
	shift
	waited=0
	while "$@" && [ $waited -lt "$max" ]; do
		sleep 1
		waited=$((waited + 1))
	done
}
in_range() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }
# need_series: on a kernel without the series (SERIES=none make test) the
# test has nothing to judge: one skipped result, kselftest's skip status.
need_series() {
	# v2's sysfs directory (6.1, 6.12), v3's parameters (7.2)
	[ -d /sys/kernel/time_interpolator ] && return 0
	[ -d /sys/module/time_interpolator ] && return 0
	echo "TAP version 13"
	plan 1
	skip_rest "no time interpolator: a kernel without the series"
}
