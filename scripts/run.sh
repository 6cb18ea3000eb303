#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The user-facing flows.
#   run.sh kernel   tree, kernel, tests, initramfs for the chosen flavour
#   run.sh run      tree, kernel and /guest/clocks alone, in an initramfs
#                   of its own; boot once and show the clocks (SMP, APPEND)
#   run.sh test     tree, kernel, tests, initramfs, then every boot of
#                   plan/boots (BOOTS="a b" to pick some), TEST_JOBS at a
#                   time, with the debug kernel, make ia64 (IA64=0 leaves
#                   it out) and the harness self-tests beside them; then
#                   the verdict.  T="timers:cpu-lag ..." runs those tests
#                   alone, in the boots that run them, KUNIT=GLOB KUnit's
#                   suites that match (scripts/plan.sh); a run narrowed
#                   so, or by BOOTS=, leaves out make ia64, the harness
#                   self-tests and the host checks unless IA64=1,
#                   HARNESS=1, HOST_CHECKS=1.  Each run's results,
#                   console logs and results.ktap go to a directory of
#                   their own, build/results/RUNID (build/6.12/results/
#                   for BASE=6.12); build/results/latest is the newest.
#                   Exit status: 0 no test failed, 1 a test failed, 2 the
#                   harness failed (see cmd_test)
#   run.sh shell    tree, kernel, tests, initramfs, then a shell in the
#                   guest on this terminal (SMP, APPEND), no time limit
#   run.sh boot     boot with RUN="prog args" (a static binary of yours),
#                   APPEND and SMP; prints its output and exit status;
#                   RUN_FILES="a b" are put beside the program;
#                   BOOT_TAG=name keeps its files apart from another
#                   make boot running at the same time
# SERIES=none does any of them on the unpatched base.  A failure of the
# harness itself (die, a build that fails) exits with status 2.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

flavour=$(flavour_of_series)
S=$TOP/scripts
# Every make test's results: RESULTS is this run's directory below it.
RESULTS_ROOT=$BUILD/results
RESULTS=

# skew_qemu: with APPEND=th.skew=..., th.invtsc or th.tscadjust (make run, make boot,
# make bench), the QEMU of scripts/qemu-skew.sh, built or found in its cache.
skew_qemu() {
	grep -qx qemu-skew <<<"$(needs "${APPEND:-}")" || return 0
	QEMU_SKEW_BIN=$("$S/qemu-skew.sh" | tail -n 1) ||
		die "the QEMU of th.skew and th.invtsc did not build (scripts/qemu-skew.sh)"
	export QEMU_SKEW_BIN
}

# harness_step CMD...: one step of making what the guests boot; its
# failure (a patch that does not apply, a build error) is the harness's,
# whatever its status: exit status 2.
harness_step() { "$@" || die "stopped: ${1##*/} ${*:2} failed (status $?)"; }

# prepare [run]: the tree, the kernel, and make test's tests and
# initramfs; with "run", what th.mode=run runs alone (/guest/clocks, see
# scripts/guest/init), in make run's own small initramfs
# (run-initramfs.cpio.gz): not every selftest, the i386 and x32 builds and
# the 20 MB initramfs of every boot.
prepare() {
	local t0=$SECONDS
	skew_qemu
	harness_step "$S/tree.sh" sync
	if [ "$flavour" = base ]; then harness_step "$S/tree.sh" base-tree; fi
	harness_step "$S/build-kernel.sh" "$flavour"
	if [ "${1:-}" = run ]; then
		harness_step "$S/build-tests.sh" "$flavour" clocks
		harness_step "$S/initramfs.sh" "$flavour" run clocks
	else
		harness_step "$S/build-tests.sh" "$flavour"
		harness_step "$S/initramfs.sh" "$flavour"
	fi
	msg "ready in $((SECONDS - t0)) s: $(cat "$(obj_dir "$flavour")/include/config/kernel.release")"
}

# between FROM TO LOG: the lines of LOG from the one starting FROM to TO.
between() { awk -v a="$1" -v b="$2" 'index($0, a) == 1 {p = 1; next} index($0, b) == 1 {exit} p' "$3" | tr -d '\r'; }

cmd_run() {
	prepare run
	local log=$LOGS/run.log smp=${SMP:-2} rc=0
	msg "booting: QEMU TCG, -smp $smp (log $log)"
	"$S/boot.sh" "$flavour" "$log" "$smp" "${LIMIT:-120}" "quiet kunit.enable=0 th.mode=run ${APPEND:-}" \
		"$(out_dir "$flavour")/run-initramfs.cpio.gz" || rc=$?
	echo
	between TH-CLOCKS TH-DONE "$log"
	echo
	grep -q '^TH-DONE rc=0' "$log" ||
		die "the guest did not show its clocks (QEMU status $rc); console: $log"
	[ $rc -eq 0 ] || die "QEMU exited with status $rc; console: $log"
	msg "guest powered off; full console in $log"
}

# make shell: make test's kernel and initramfs, booted to an interactive
# shell on this terminal (th.mode=shell in scripts/guest/init), with SMP
# and APPEND as make run takes them; no time limit.  The guest's console
# is the terminal both ways (boot.sh): ^C reaches the guest, poweroff -f
# or exit leaves, Ctrl-A X ends QEMU.
cmd_shell() {
	{ [ -t 0 ] && [ -t 1 ]; } || die "make shell needs a terminal"
	prepare
	local size smp=${SMP:-2}
	size=$(stty size 2>/dev/null | tr ' ' x) || size=
	msg "booting to a shell: QEMU TCG, -smp $smp, ${APPEND:-no extra arguments}; poweroff -f or Ctrl-A X leaves"
	"$S/boot.sh" "$flavour" "$LOGS/shell.log" "$smp" 0 \
		"quiet kunit.enable=0 th.mode=shell ${size:+th.tty=$size }${APPEND:-}"
}

# NARROW=1: a run for one question, narrowed by T=, KUNIT= or BOOTS=
# (make test T=timers:cpu-lag).  It leaves out what does not answer it
# unless asked: the harness's self-tests (HARNESS=1), make ia64 (IA64=1)
# and the host checks (HOST_CHECKS=1).  The end of cmd_test runs
# vdso-host and guard-host only when HOST_CHECKS is 1.
NARROW=0
[ -z "${T:-}${KUNIT:-}${BOOTS:-}" ] || NARROW=1
HARNESS=${HARNESS:-$((1 - NARROW))}
IA64=${IA64:-$((1 - NARROW))}
HOST_CHECKS=${HOST_CHECKS:-$((1 - NARROW))}
export NARROW HARNESS IA64 HOST_CHECKS
# The base lacks the series' tests: a narrowed plan leaves them out, as
# its run lists do (scripts/plan.sh).
if [ "$flavour" = base ]; then
	export PLAN_MISSING=skip
fi

# check_selection: before the build, a T=, KUNIT= or BOOTS= that cannot
# select anything fails (scripts/plan.sh check-selection), and a narrowed
# run says what it leaves out.
check_selection() {
	"$S/plan.sh" check-selection
	[ "$NARROW" = 1 ] || return 0
	local by='' out=''
	[ -z "${T:-}" ] || by+=" T=\"$T\""
	[ -z "${KUNIT:-}" ] || by+=" KUNIT=\"$KUNIT\""
	[ -z "${BOOTS:-}" ] || by+=" BOOTS=\"$BOOTS\""
	[ "$HARNESS" = 1 ] || out+=" the harness self-tests (HARNESS=1),"
	[ "$IA64" = 1 ] || out+=" make ia64 (IA64=1),"
	[ "$HOST_CHECKS" = 1 ] || out+=" the host checks (HOST_CHECKS=1),"
	msg "make test$by${out:+: leaves out${out%,}}"
}

cmd_boot() {
	[ -n "${RUN:-}" ] || die 'make boot needs RUN="path/to/static-program [args]"'
	local tag=${BOOT_TAG:+-$BOOT_TAG}
	local prog args initrd udir log=$LOGS/boot$tag.log rc=0
	read -r prog args <<<"$RUN"
	[ -f "$prog" ] || die "RUN: no program $prog"
	[[ $(readelf -l "$prog" 2>/dev/null) == *'program interpreter'* ]] &&
		warn "$prog is dynamically linked; the guest has only the libraries the tests need"
	# KERNEL=path: that bzImage, with the guest's root of an earlier make
	# run or make test; BOOT_PREPARED=1: the caller ran "run.sh kernel".
	if [ -n "${KERNEL:-}" ]; then
		[ -f "$KERNEL" ] || die "KERNEL: no bzImage $KERNEL"
		[ -d "$(out_dir "$flavour")/root" ] ||
			die "KERNEL=: no guest root in $(out_dir "$flavour"): make run (or make test) builds it"
		skew_qemu
	elif [ "${BOOT_PREPARED:-0}" = 1 ]; then
		skew_qemu
	else
		prepare
	fi
	# The guest's root with the program added, as links: no copy of it.
	udir=$BUILD/user-root$tag
	rm -rf "$udir"
	cp -al "$(out_dir "$flavour")/root" "$udir"
	cp "$prog" "$udir/user/"
	# RUN_FILES: more files the program needs beside it (make bench's)
	local f
	for f in ${RUN_FILES:-}; do
		[ -f "$f" ] || die "RUN_FILES: no file $f"
		cp "$f" "$udir/user/"
	done
	printf './%s %s\n' "$(basename "$prog")" "$args" >"$udir/user/cmd"
	initrd=$BUILD/user-initramfs$tag.cpio.gz
	pack "$udir" "$initrd"
	msg "booting with ${APPEND:-no extra arguments}, -smp ${SMP:-2}: running $RUN"
	# No earlier boot's exit status may be read as this one's.
	rm -f "$log"
	# The program's output, live: the console between the guest's markers.
	set +e
	TH_BOOT_KERNEL=${KERNEL:-} SHOW=1 "$S/boot.sh" "$flavour" "$log" "${SMP:-2}" "${LIMIT:-600}" \
		"quiet th.mode=user ${APPEND:-}" "$initrd" |
		awk '/^TH-USER-BEGIN/ {p = 1; next} /^TH-USER-END/ {p = 0} p {sub(/\r$/, ""); print; fflush()}'
	rc=${PIPESTATUS[0]}
	set -e
	local urc
	urc=$(sed -n 's/^TH-USER-END rc=\([0-9]*\).*/\1/p' "$log" | tr -d '\r')
	[ -n "$urc" ] || die "the program did not finish (QEMU status $rc$([ $rc -eq 124 ] && echo ": the ${LIMIT:-600} s limit ran out")); console: $log"
	echo "exit status: $urc"
	exit "$urc"
}

# make test's background work, one step at a time at idle priority
# (SCHED_IDLE): it takes only the CPU time the guests leave, and a guest
# that wakes preempts it at once, so that no timer test sees it.  Each
# step writes RUN/STEP.json (RUN: the run's directory); its output is
# RUN/test-STEP.log, and build/logs/test-STEP.log links to the newest.
# A build that fails, or a step that stops before its results, is an
# error: the harness failed.
#   qemu-skew  the QEMU of the boots with th.skew (scripts/qemu-skew.sh),
#              cached outside the tree once built
#   base     the unpatched base's kernel, for the boots with th.kernel=base
#   debug    the debug kernel, for the boots with th.kernel=debug
#   i386     the series built for 32-bit x86, for the boots with th.kernel=i386
#   ia64     make ia64: the IA64 cross build and fastcall checks
#   harness  the harness's own host-side tests
bg_step() {
	local step=$1 log=$RESULTS/test-$1.log
	log_link "test-$step.log"
	case $step in
	qemu-skew)
		chrt --idle 0 "$S/qemu-skew.sh" >"$log" 2>&1 && return 0
		error_row build:qemu-skew "the QEMU of the skewed boots did not build" "$log" \
			>"$RESULTS/$step.json"
		return 1 ;;
	base|debug|i386)
		{ [ "$step" != base ] || "$S/tree.sh" base-tree; } >"$log" 2>&1 &&
			chrt --idle 0 "$S/build-kernel.sh" "$step" >>"$log" 2>&1 && return 0
		error_row "build:$step-kernel" "the $step kernel did not build" "$log" \
			>"$RESULTS/$step.json"
		return 1 ;;
	ia64|harness)
		local script=ia64.sh
		[ "$step" = harness ] && script=harness-test.sh
		chrt --idle 0 "$S/$script" "$RESULTS/$step.json" >"$log" 2>&1 || true
		have_results "$step" "$step:run" "scripts/$script" "$log" ;;
	esac
}

# log_link FILE: build/logs/FILE, a link to this run's RUN/FILE, where
# the README and older habits look for a boot's console.
log_link() {
	mkdir -p "$LOGS"
	ln -sfn "../results/$RUNID/$1" "$LOGS/$1"
}

# have_results STEP TEST SCRIPT LOG: RUN/STEP.json, or an error row TEST
# in it when SCRIPT stopped before it wrote one.
have_results() {
	[ -s "$RESULTS/$1.json" ] ||
		error_row "$2" "$3 stopped before its results" "$4" >"$RESULTS/$1.json"
}

# needs APPEND: the background step a boot with these kernel arguments
# waits for (th.skew, th.invtsc, th.tscadjust: qemu-skew; th.kernel=base|debug|i386: that
# kernel), or nothing.
needs() {
	if skew_qemu_append "$1"; then
		echo qemu-skew
	fi
	other_kernel "$1"
	return 0
}

# one_row STATUS TEST DETAIL LOG [CATEGORY]: a results file of one result
# (CATEGORY: error, a failure of the harness; see scripts/results.py).
# Its boot is NAME for a TEST boot:NAME, else TEST's suite.
one_row() {
	python3 -c 'import json, sys
s, t, d, l, c = (sys.argv[1:] + [""])[:5]
suite, _, rest = t.partition(":")
r = {"boot": rest if suite == "boot" else suite, "test": t, "status": s, "detail": d, "log": l}
print(json.dumps([dict(r, category=c) if c else r]))' "$@"
}
error_row() { one_row fail "$1" "$2" "$3" error; }	# TEST DETAIL LOG

# kill_tree PID: PID and every process below it (a boot's QEMU, a build).
kill_tree() {
	local c
	for c in $(pgrep -P "$1"); do kill_tree "$c"; done
	kill "$1" 2>/dev/null || true
}

# boot_one NAME SMP LIMIT SUITES APPEND: one boot of the plan, its console
# in RUN/boot-NAME.log (build/logs/boot-NAME.log links to the newest),
# judged into RUN/boot-NAME.json; what it says is in RUN/boot-NAME.out.
boot_one() {
	local name=$1 smp=$2 limit=$3 suites=$4 append=$5 b0=$SECONDS
	local log=$RESULTS/boot-$name.log
	log_link "boot-$name.log"
	plan_boot "$flavour" "$(out_dir "$flavour")" "$name" "$smp" "$limit" "$suites" \
		"$append" "$log" "$RESULTS/boot-$name.json" \
		--known "$TOP/plan/known-failures" \
		$([ -f "$TOP/plan/known-failures-$BASE" ] && echo --known "$TOP/plan/known-failures-$BASE") \
		--maintainers "$(flavour_src "$flavour")/MAINTAINERS"
	echo "    (boot '$name' took $((SECONDS - b0)) s; console: $log)"
}

# new_run: RUNID, the UTC time this run started (YYYYmmdd-HHMMSS), and
# RESULTS, its directory build/results/RUNID, new; build/results/latest
# links to it from now on.  The runs before stay until make clean.
new_run() {
	local tries=0
	mkdir -p "$RESULTS_ROOT"
	while :; do
		RUNID=$(date -u +%Y%m%d-%H%M%S)
		RESULTS=$RESULTS_ROOT/$RUNID
		mkdir "$RESULTS" 2>/dev/null && break
		# Another run began this second: the next second is this one's.
		tries=$((tries + 1))
		[ $tries -lt 3 ] || die "cannot make a results directory $RESULTS"
		sleep 1
	done
	ln -sfn "$RUNID" "$RESULTS_ROOT/latest"
	msg "make test: results in $RESULTS (and build/results/latest)"
}

# bail_out STATUS: at the exit of make test, a results.ktap that says the
# run stopped before its verdict, when the verdict did not write one.
bail_out() {
	[ -n "$RESULTS" ] && [ ! -f "$RESULTS/results.ktap" ] || return 0
	printf 'KTAP version 1\n1..0\nBail out! make test stopped before its verdict (exit status %s)\n' \
		"$1" >"$RESULTS/results.ktap"
}

# make test: the patched kernel first, with both cores; then the boots of
# the plan, TEST_JOBS (default 3) guests at a time in the plan's order,
# while the background steps run at idle priority.  The guests of the
# timers tests mostly sleep, so three share the host's 2 cores with little
# loss and the background builds fill what they leave (four: 564 s
# against 664 s for a run again, but fewer runs yet; see README).  A boot
# with th.kernel=debug starts once the debug kernel is built, and one with
# th.alone when nothing else runs: no other guest, and no background step
# (even at idle priority, a build on the other core failed rtcpie's 10%
# once: "PIE delta error: 0.018734 should be close to 0.015625").
#
# Its exit status is results.py summary's: 0 no test failed (known
# failures, skips and wrong-clocksource results are not failures), 1 a
# test failed, 2 the harness failed: die (bad arguments, a missing
# package, a build error), a guest that never booted, a background step
# that failed.  make itself turns any failure into its own 2: ./harness
# test gives this status (see the Makefile).
# write_run_json START FLAVOUR...: RESULTS/run.json (scripts/run-json.py):
# the command as given, the base and series, the kernels of FLAVOURs.
write_run_json() {
	local start=$1 f cmd="make test" v
	shift
	for v in BASE SERIES T KUNIT BOOTS PLAN_BOOTS TEST_JOBS; do
		[ -z "${!v:-}" ] || cmd+=" $v=\"${!v}\""
	done
	local kernels=()
	for f in "$@"; do
		[ -f "$(obj_dir "$f")/include/config/kernel.release" ] &&
			kernels+=(--kernel "$f=$(obj_dir "$f")")
	done
	python3 "$S/run-json.py" "$RESULTS" --command "$cmd" --base "$BASE" \
		--series-version "$SERIES_VERSION" --postings "$(selected_postings)" \
		--start "$start" "${kernels[@]}" ||
		warn "run.json not written"
}

cmd_test() {
	local t0=$SECONDS st=0 start=$EPOCHSECONDS
	new_run
	trap 'bail_out $?' EXIT
	prepare
	local plan n par=${TEST_JOBS:-3}
	plan=$("$S/plan.sh" boots ${BOOTS:-})
	[ -n "$plan" ] || die "no boot of plan/boots matches BOOTS='${BOOTS:-}'"
	n=$(printf '%s\n' "$plan" | wc -l)
	[[ $par =~ ^[1-9][0-9]*$ ]] || die "TEST_JOBS='$par': a number of guests, 1 or more"

	# state[STEP]: pending, ready or failed, for the steps a boot waits on.
	local bg=() step
	local -A state=()
	local wanted
	wanted=" $(printf '%s\n' "$plan" | cut -f5 | while read -r append; do needs "$append"; done | tr '\n' ' ')"
	for step in qemu-skew base debug i386; do
		[[ $wanted == *" $step "* ]] || continue
		# The debug and i386 kernels are the series' tree with their
		# own configs: the unpatched base has neither.  The base's own
		# boots need no second base kernel.
		[ "$step" = debug ] || [ "$step" = i386 ] &&
			[ "$flavour" != patched ] && continue
		[ "$step" = base ] && [ "$flavour" = base ] && { state[$step]=ready; continue; }
		bg+=("$step")
		state[$step]=pending
	done
	# Without the ia64 posting (SERIES=core, BASE=6.12) make ia64 has
	# nothing of the series to check.  Its cross compiler, when not
	# cached, builds in this step, after the debug kernel.  Started with
	# the base's unpacking instead, at idle priority, it slowed the guest
	# kernel's build from 401 s to 610 s on a fresh machine, and that run
	# took 2905 s in all, no less than before (2745 s): the boots now
	# start first.
	[ "$flavour" = patched ] && [ "$IA64" != 0 ] &&
		[[ " $(selected_postings) " = *" 2-ia64 "* ]] && bg+=(ia64)
	export QEMU_SKEW_BIN=
	local idle=${bg[*]}
	[ "$HARNESS" = 0 ] || idle+="${idle:+, one after the other, and beside them }harness"
	msg "make test: $n boot(s), $par at a time; at idle priority meanwhile: ${idle:-nothing} (logs build/logs/test-*.log)"

	local -A jobs=()	# pid -> "boot NAME" or "bg STEP"
	local queue=() rest=() line name smp limit suites append pid st what i=0 nboot=0 alone=0
	mapfile -t queue <<<"$plan"
	# Background jobs ignore the terminal's ^C: stop them with make test.
	trap 'for pid in "${!jobs[@]}"; do kill_tree "$pid"; done; die "make test: interrupted"' INT TERM
	bg_start() {
		bg_step "$1" &
		jobs[$!]="bg $1"
		msg "background: $1 started"
	}
	bg_next() {
		[ ${#bg[@]} -gt 0 ] || return 0
		bg_start "${bg[0]}"
		bg=("${bg[@]:1}")
	}
	bg_next
	# The harness's own tests need nothing built: started last in the
	# chain, they once ran 360 s at idle priority beside the guests, and
	# boot rtc (th.alone) waited for them at the end of a run again.
	[ "$HARNESS" = 0 ] || bg_start harness
	while [ ${#queue[@]} -gt 0 ] || [ ${#jobs[@]} -gt 0 ]; do
		rest=()
		for line in "${queue[@]}"; do
			IFS=$'\t' read -r name smp limit suites append <<<"$line"
			local wait= w
			for w in $(needs "$append"); do
				[ "${state[$w]:-none}" = ready ] || wait=$w
			done
			if [ -n "$wait" ]; then
				if [ "${state[$wait]:-none}" = none ]; then
					i=$((i + 1))
					one_row skip "boot:$name" \
						"not booted: the $wait kernel is built for the series only" "" \
						>"$RESULTS/boot-$name.json"
					msg "[$i/$n] boot '$name': not booted, no $wait kernel of the unpatched base"
					continue
				elif [ "${state[$wait]}" = failed ]; then
					i=$((i + 1))
					error_row "boot:$name" "not booted: background step $wait failed" \
						"$RESULTS/test-$wait.log" >"$RESULTS/boot-$name.json"
					msg "[$i/$n] boot '$name': not booted, background step $wait failed"
					continue
				fi
				rest+=("$line")
			elif [[ " $append " == *" th.alone "* ]] &&
			     { [ ${#jobs[@]} -gt 0 ] || [ ${#bg[@]} -gt 0 ]; }; then
				rest+=("$line")	# th.alone: when nothing else runs
			elif [ "$nboot" -lt "$par" ] && [ "$alone" = 0 ]; then
				[[ " $append " == *" th.alone "* ]] && alone=1
				i=$((i + 1))
				msg "[$i/$n] boot '$name' started: -smp $smp, '${append}', suites $suites (limit ${limit} s)"
				boot_one "$name" "$smp" "$limit" "$suites" "$append" >"$RESULTS/boot-$name.out" 2>&1 &
				jobs[$!]="boot $name"
				nboot=$((nboot + 1))
			else
				rest+=("$line")
			fi
		done
		queue=("${rest[@]}")
		[ ${#jobs[@]} -gt 0 ] || die "make test: boots wait for a background step that nothing runs"
		sleep 2
		for pid in "${!jobs[@]}"; do
			kill -0 "$pid" 2>/dev/null && continue
			wait "$pid" && st=0 || st=$?
			what=${jobs[$pid]}
			unset "jobs[$pid]"
			case $what in
			boot\ *)
				nboot=$((nboot - 1))
				alone=0
				name=${what#boot }
				msg "boot '$name' done at $((SECONDS - t0)) s:"
				cat "$RESULTS/boot-$name.out"
				have_results "boot-$name" "boot:$name" "results.py boot" "$RESULTS/boot-$name.out" ;;
			bg\ *)
				msg "background: ${what#bg } done at $((SECONDS - t0)) s$([ "$st" = 0 ] || echo ", failed"): build/logs/test-${what#bg }.log"
				grep -E '^  (FAIL|ok) ' "$RESULTS/test-${what#bg }.log" | grep FAIL || true
				step=${what#bg }
				if [ -n "${state[$step]:-}" ]; then
					[ "$st" = 0 ] && state[$step]=ready || state[$step]=failed
				fi
				if [ "$step" = qemu-skew ] && [ "$st" = 0 ]; then
					QEMU_SKEW_BIN=$(tail -n 1 "$RESULTS/test-qemu-skew.log")
				fi
				# The harness is beside the chain, not in it.
				[ "$what" = "bg harness" ] || bg_next ;;
			esac
		done
	done
	trap - INT TERM
	echo
	msg "make test: $(cat "$(obj_dir "$flavour")/include/config/kernel.release"), $n boot(s), $((SECONDS - t0)) s; logs in $RESULTS"
	if [ "$flavour" = patched ] && [ "$HOST_CHECKS" = 1 ]; then
		msg "vdso-host: the series' vdso64.so on the host, between guard pages"
		"$S/vdso-check.sh" "$RESULTS/vdso-host.json" || true
		have_results vdso-host vdso-host:run scripts/vdso-check.sh "$LOGS/vdso-check.md"
		msg "guard-host: the series' time_interpolator.c on the host's CPUs, checked"
		"$S/guard-check.sh" "$RESULTS/guard-host.json" || true
		have_results guard-host guard-host:run scripts/guard-check.sh "$LOGS/guard-check.md"
		# Their reports, as they were for this run.
		cp -f "$LOGS/vdso-check.md" "$LOGS/guard-check.md" "$RESULTS/" 2>/dev/null || true
	fi
	# The verdict, its KTAP and the commands that rerun each failure; its
	# last line is the verdict line, its exit status this script's.
	st=0
	python3 "$S/results.py" summary --ktap "$RESULTS/results.ktap" --base "$BASE" \
		--series "${SERIES:-}" --plan-boots "${PLAN_BOOTS:-$(default_plan_boots)}" \
		"$RESULTS"/*.json | tee "$RESULTS/summary.txt" || st=$?
	# shellcheck disable=SC2086
	write_run_json "$start" "$flavour" $wanted
	exit "$st"
}

# Sourced (scripts/harness-test.sh tests the run directory's functions):
# define them, run nothing.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

case ${1:-} in
kernel) prepare ;;
run) cmd_run ;;
test) check_selection; cmd_test ;;
shell) cmd_shell ;;
boot) cmd_boot ;;
*) die "usage: run.sh kernel|run|test|shell|boot" ;;
esac
