# SPDX-License-Identifier: GPL-2.0
# User-facing targets; the work is in scripts/.  See README.md.

SHELL := /bin/bash
S := scripts

# Exit statuses.  make test's script exits 0 when no test failed, 1 when a
# test failed and 2 when the harness itself failed (scripts/run.sh), but
# GNU make exits 2 whenever a recipe fails, whatever its status (the GNU
# make manual, "How to Run make": 0, 2 on any error, 1 only for -q), and a
# recipe cannot make it exit 1.  So the script's own status goes through
# ./harness: "./harness test" runs "make test" with HARNESS_STATUS naming
# a file, each recipe below writes its script's status there, and
# ./harness exits with it (2 when make failed before the script ran).
# "make test" itself still prints the script's status (the verdict line,
# and make's "Error N") and exits 0 or 2.
# $(call status,COMMAND): COMMAND, its status kept for ./harness.
status = $(1); st=$$?; [ -z "$$HARNESS_STATUS" ] || echo $$st >"$$HARNESS_STATUS"; exit $$st

.PHONY: all run test test-6.12 test-6.12-short test-full test-long boot tree export series-check check deps kernel harness-test bench vdso-bench guard-bench ctxsw-bench ia64 vdso-check guard-check clean distclean help

all: help

help:
	@echo "make run           build the patched kernel, boot it, show its clocks"
	@echo "make test          every suite over every boot of plan/boots, 3 guests at a time (TEST_JOBS=N)"
	@echo "make test-6.12     make test on the 6.12 base (BASE=6.12): the first posting, ported"
	@echo "make test-6.12-short   the series' mode boots on 6.12: no debug kernel, no slow upstream tests"
	@echo "make test-full     make test and make test-long in one run: everything the harness runs"
	@echo "make test-long     the boots of plan/boots-long (tests of 10-20 min each)"
	@echo "make boot RUN=prog [APPEND=...] [SMP=N]   boot with your own program"
	@echo "make tree | export | series-check         the patch-series workflow"
	@echo "make check         checkpatch, apply, bisect-build the series"
	@echo "make bench         every figure, guest and host, patched and base, into results/ (BENCH_QUICK=1: a few minutes)"
	@echo "make vdso-bench    time the base and patched vdso64.so on the host (build/bench/vdso-host.md)"
	@echo "make guard-bench   the interpolator's read path on the host's cores, guard off/on/lagging (build/bench/guard-host.md)"
	@echo "make ctxsw-bench   context switches in the guest, sched_clock stable vs not (build/bench/ctxsw.md)"
	@echo "make ia64          cross-build the series for IA64 and check the fastcalls (no emulator)"
	@echo "make vdso-check    make test's vdso-host checks alone: the series' vdso64.so on the host"
	@echo "make guard-check   make test's guard-host checks alone: the interpolator's guard on the host's CPUs"
	@echo "./harness TARGET   make TARGET, exiting with its script's status: for ./harness test,"
	@echo "                   0 no test failed, 1 a test failed, 2 the harness failed (make exits 2 for 1 too)"
	@echo "SERIES=none        do any of run/test/boot on the unpatched base"
	@echo "SERIES=core        do any of tree/export/series-check/check/run/test/boot on the first posting alone"

deps:
	@$(S)/deps.sh

tree: deps
	@$(call status,$(S)/tree.sh tree)

export:
	@$(call status,$(S)/tree.sh export)

series-check:
	@$(call status,$(S)/tree.sh series-check)

check: deps
	@$(call status,$(S)/check.sh)

run: deps
	@$(call status,$(S)/run.sh run)

test: deps
	@$(call status,$(S)/run.sh test)

# deps, a prerequisite, sees BASE too: it installs linux-source-6.12.
test-6.12: export BASE := 6.12
test-6.12: deps
	@$(call status,$(S)/run.sh test)

# The 6.12 base's short verdict: the boots of the series' modes (default,
# nojitter, jitter=force, clocksource=hpet, tsc=nowatchdog, bad options,
# the three TSC_RELIABLE boots), KUnit and the host checks; not the debug
# kernel, nor the boots of upstream's slow tests (destructive, default-lat,
# rtc, default-skew), which make test-6.12 runs.
test-6.12-short: export BASE := 6.12
test-6.12-short: export BOOTS := default nojitter jitter-force hpet nowatchdog garbage tsc-reliable tsc-refused tsc-unstable
test-6.12-short: deps
	@$(call status,$(S)/run.sh test)

test-full: deps
	@$(call status,PLAN_BOOTS="plan/boots-long plan/boots" $(S)/run.sh test)

test-long: deps
	@$(call status,PLAN_BOOTS=plan/boots-long $(S)/run.sh test)

boot: deps
	@$(call status,$(S)/run.sh boot)

kernel: deps
	@$(call status,$(S)/run.sh kernel)

harness-test:
	@$(call status,$(S)/harness-test.sh)

bench: deps
	@$(call status,$(S)/bench.sh)

vdso-bench: deps
	@$(call status,$(S)/vdso-bench.sh)

guard-bench: deps
	@$(call status,$(S)/guard-bench.sh)

ctxsw-bench: deps
	@$(call status,$(S)/bench-ctxsw.sh)

ia64: deps
	@$(call status,$(S)/ia64.sh)

# make test's host checks alone (its rerun lines name them): results in
# build/results/vdso-host.json and guard-host.json, outside the runs.
vdso-check: deps
	@$(call status,$(S)/vdso-check.sh)

guard-check: deps
	@$(call status,$(S)/guard-check.sh)

# The built kernels, the logs and every make test run's results
# (build/results/RUNID); of BASE=6.12's build/6.12, the runs' results and
# the logs that link into them (its kernels stay, as before).  The trees
# and caches stay.
clean:
	rm -rf build/kbuild build/out build/logs build/results
	rm -rf build/6.12/logs build/6.12/results

distclean:
	rm -rf build
