# SPDX-License-Identifier: GPL-2.0
# User-facing targets; the work is in scripts/.  See README.md.

SHELL := /bin/bash
S := scripts

.PHONY: all run test test-6.12 test-6.12-short test-full test-long boot shell tree export series-check check deps kernel harness-test bench vdso-bench guard-bench ctxsw-bench ia64 clean distclean help

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
	@echo "SERIES=none        do any of run/test/boot on the unpatched base"
	@echo "SERIES=core        do any of tree/export/series-check/check/run/test/boot on the first posting alone"

deps:
	@$(S)/deps.sh

tree: deps
	@$(S)/tree.sh tree

export:
	@$(S)/tree.sh export

series-check:
	@$(S)/tree.sh series-check

check: deps
	@$(S)/check.sh

run: deps
	@$(S)/run.sh run

test: deps
	@$(S)/run.sh test

# deps, a prerequisite, sees BASE too: it installs linux-source-6.12.
test-6.12: export BASE := 6.12
test-6.12: deps
	@$(S)/run.sh test

# The 6.12 base's short verdict: the boots of the series' modes (default,
# nojitter, jitter=force, clocksource=hpet, tsc=nowatchdog, bad options,
# the three TSC_RELIABLE boots), KUnit and the host checks; not the debug
# kernel, nor the boots of upstream's slow tests (destructive, default-lat,
# rtc, default-skew), which make test-6.12 runs.
test-6.12-short: export BASE := 6.12
test-6.12-short: export BOOTS := default nojitter jitter-force hpet nowatchdog garbage tsc-reliable tsc-refused tsc-unstable
# BOOTS= narrows a run, which leaves the harness and host checks out: not this one.
test-6.12-short: export HARNESS := 1
test-6.12-short: export HOST_CHECKS := 1
test-6.12-short: deps
	@$(S)/run.sh test

test-full: deps
	@PLAN_BOOTS="plan/boots-long plan/boots" $(S)/run.sh test

test-long: deps
	@PLAN_BOOTS=plan/boots-long $(S)/run.sh test

boot: deps
	@$(S)/run.sh boot

shell: deps
	@$(S)/run.sh shell

kernel: deps
	@$(S)/run.sh kernel

harness-test:
	@$(S)/harness-test.sh

bench: deps
	@$(S)/bench.sh

vdso-bench: deps
	@$(S)/vdso-bench.sh

guard-bench: deps
	@$(S)/guard-bench.sh

ctxsw-bench: deps
	@$(S)/bench-ctxsw.sh

ia64: deps
	@$(S)/ia64.sh

clean:
	rm -rf build/kbuild build/out build/logs

distclean:
	rm -rf build
