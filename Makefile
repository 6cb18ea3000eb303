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

.PHONY: all list post run test test-7.2 test-6.12 test-6.12-short test-full test-long boot shell tree export series-check squash check deps kernel harness-test bench vdso-bench vdso-floor guard-bench ctxsw-bench ia64 vdso-check guard-check backport-diff mutant clean distclean help

all: help

# make help: every target and every variable a user may set, one line
# each (the variables the scripts read from the environment; the rest,
# such as PLAN_MISSING or SHOW, are the scripts' own plumbing).
define HELP
Targets:
  make run             build the kernel and the one program make run boots with; show the guest's clocks
  make test            every boot of plan/boots, 3 guests at a time; the debug kernel, make ia64, harness tests beside
  make test T=timers:cpu-lag   that test alone, in the boots on the series' kernel whose suites run it (see T=, KUNIT=, BOOTS= below)
  make list            every boot of the plan (BASE= aware), the tests it runs by the names T= takes, the KUnit suites KUNIT= names
  make post            each posting of BASE as a ready mbox in build/post/ (To:/Cc: from get_maintainer.pl, applies-on-base check; docs/posting.md)
  make test-7.2        make test on mainline 7.2 (BASE=7.2): the development and posting queue
  make test-6.12       make test on the 6.12 base (BASE=6.12): v3's three postings, backported (plan/boots-6.12)
  make test-6.12-short the series' mode boots on 6.12: no debug kernel, no slow upstream tests
  make test-long       the boots of plan/boots-long (tests of 10-20 min each)
  make test-full       make test and make test-long in one run: everything the harness runs
  make shell           make test's kernel and tests, booted to a shell on this terminal (poweroff -f leaves)
  make boot RUN=prog   boot with your own static program and print its output and exit status
  make kernel          the tree, the kernel, the tests and the initramfs, no boot
  make tree            build/linux: the base with the series applied (git am)
  make export          write build/linux's commits back to patches/
  make series-check    fail when build/linux holds work that patches/ lacks
  make squash          fold build/linux's fixup! commits into theirs (rebase),
                       move the posting tags, keep unchanged files' mtimes
  make backport-diff   per mainline (7.2) patch, how the 6.12 and 6.1 backports' code differs (patches/ only)
  make check           checkpatch, apply, bisect-build the series (x86, ia64, arm), syscall tables, kernel-doc, defconfigs
  make ia64            cross-build the series for IA64 and check the fastcalls (no emulator)
  make mutant          the test of the tests: plan/mutants' kernels (one bug each) must fail their test (BASE=7.2)
  make bench           every figure, guest and host, patched and base on 6.1, 6.12 and 7.2, into results/
  make vdso-bench      time the base and patched vdso64.so on the host (build/bench/vdso-host.md)
  make vdso-floor      vdso-bench with a third image, clock_gettime_ns() doing less than clock_gettime(): its floor (BASE=7.2)
  make guard-bench     the interpolator's read path on the host's cores (build/bench/guard-host.md)
  make ctxsw-bench     context switches in the guest, sched_clock stable vs not (build/bench/ctxsw.md)
  make harness-test    the harness's own host-side tests
  make vdso-check      make test's vdso-host checks alone: the series' vdso64.so on the host
  make guard-check     make test's guard-host checks alone: the interpolator's guard on the host's CPUs
  ./harness TARGET     make TARGET, exiting with its script's status (make itself exits 2 for any failure)
  make deps            install the Debian packages the harness needs
  make clean           remove the builds, logs and results of build/ (6.12: its logs and results; kept: caches, trees)
  make distclean       remove build/
  make help            this list

Which kernel (every target):
  BASE=6.12            the 6.12 base (default 6.1, which carries both postings)
  BASE=7.2             mainline: Debian unstable's linux-source-7.2, fetched apart (patches/7.2/)
  SERIES=none          the unpatched base;  SERIES=core: the first posting alone
  JOBS=N               make -jN for the builds (default: the host's cores)
  V=1                  the builds' output on the terminal, not a progress line every 30 s
  KCONFIG_EXTRA="f.config ..."   more config fragments (configs/ or a path) for the guest kernels
  FORCE=1              make tree, make export: go ahead over work build/linux holds that patches/ lacks

make mutant:
  MUTANTS="NAME ..."   only these mutants of plan/mutants (default: every one of this BASE)

make test:
  T="ITEM ..."         run only these, comma- or space-separated: COLLECTION:TEST, a COLLECTION, th:skew-check, kunit
  KUNIT=GLOB           kunit.filter_glob=GLOB in the boots that run KUnit; without T=, KUnit alone
  BOOTS="NAME ..."     only these boots of the plan (with T=/KUNIT=: run the items there even if not in their suites)
  TEST_JOBS=N          guests at a time (default 3)
  PLAN_BOOTS="plan/boots-long plan/boots"   the plan files to read (test-long and test-full set it)
  IA64=0|1             make ia64 beside the boots (default 1; 0 when T=, KUNIT= or BOOTS= narrows the run)
  HARNESS=0|1          the harness self-tests beside the boots (the same default)
  HOST_CHECKS=0|1      the vDSO and the guard checked on the host at the end (the same default)

make run, make shell, make boot:
  APPEND="ARGS"        more kernel arguments: th.skew=CPU:NS[:PPM], th.invtsc or th.tscadjust (the skew QEMU), th.sockets=N, nojitter, ...
  SMP=N                the guest's vCPUs (default 2)
  LIMIT=S              the boot's time limit (make run 120 s, make boot 600 s; make shell has none)
  RUN="prog args"      make boot: the static program to run in the guest
  RUN_FILES="a b"      make boot: more files beside the program
  KERNEL=path          make boot: boot that bzImage (the guest's root of an earlier make run or make test)
  BOOT_TAG=name        make boot: keep its files apart from another make boot running at the same time

make backport-diff:
  BACKPORT=6.12|6.1    one backport (default both)
  PATCH=N              mainline patch N, with its diff to each backport per file (V=1: every patch's)

make check:
  CHECK_BISECT=0       skip the x86 build of every prefix of the series
  CHECK_IA64=0         skip the ia64 build of every prefix
  CHECK_ARM=0          skip the arm build of every prefix
  CHECK_SYSCALLS=0     skip checksyscalls.sh on every arch with a Debian cross compiler (clock_gettime_ns wired)
  SYSCALLS_ARCHES="arm64 mips ..."   the syscalls check on these arches only (names in scripts/check-syscalls.sh)
  CHECK_FULL=0         skip allnoconfig, defconfig, i386, W=1 and sparse
  ARM_SYSCALLS_FATAL=0 an arm syscall not wired up is a note, not a failure (default: it fails)
  ARM_CHECK_FROM=C     the first prefix of the arm check (default: the series' first commit)
  ARM_CHECK_HEAD=C     the last prefix of the arm check (default: build/linux's HEAD)

make bench, vdso-bench, vdso-floor, guard-bench, ctxsw-bench:
  BENCH_QUICK=1        make bench: 7 boots of 2 vCPUs, fewer calls, no context switches (a few minutes)
  MODES="patched:nojitter base72:default ..."   make bench: the boots, KERNEL patched/base (6.1), patched612/base612, patched72/base72
  RESULTS=dir          make bench: where the report goes (default results/)
  N=N                  calls (todscale, vdso-bench) or round trips (ctxsw-bench) per thread
  SMP=N                make bench, ctxsw-bench: the guests' vCPUs
  ROUNDS=N             vdso-bench (7), guard-bench (9), ctxsw-bench (3)
  ALT=host|none|lfence|rdtscp   vdso-bench, vdso-floor: the alternatives applied
  CPU=n                vdso-bench, vdso-floor: pin the run to CPU n
  BASE_VDSO=file       vdso-bench: the base's vdso64.so to time (default: the built one)
  PATCHED_VDSO=file    vdso-bench: the series' vdso64.so to time (default: the built one)
  CPUS=N               guard-bench: the first N CPUs (default all)
  MS=N                 guard-bench: ms a measurement (default 30)
  LAG_NS=N             guard-bench: the lagging CPU's lag (default 20000)
  REPORT=1             ctxsw-bench: rewrite ctxsw.md from ctxsw.csv only

Caches and inputs (defaults under ~/.cache/time-interp):
  IA64_CACHE=dir       the IA64 cross compiler (ia64-gcc-12)
  ARM_CACHE=dir        the arm cross compiler (arm-gcc-12)
  CROSS_CACHE=dir      the other cross compilers of make check's syscalls check (cross-gcc-12)
  QEMU_SKEW_CACHE=dir  the skew QEMU (qemu-skew)
  KERNEL_CACHE=dir     the unpatched base's bzImage (kernel-base)
  TIMINGS=file         the build times the estimates before a build come from
  BASE_TARBALL=file    the base's source (default /usr/src/linux-source-BASE.tar.xz)
  BUSYBOX=file         the guest's static busybox (default /bin/busybox)

Exit status of ./harness test:  0 all passed;  1 a test failed;  2 the harness failed (make test: 0 or 2)
endef
export HELP

help:
	@echo "$$HELP"

deps:
	@$(S)/deps.sh

tree: deps
	@$(call status,$(S)/tree.sh tree)

export:
	@$(call status,$(S)/tree.sh export)

series-check:
	@$(call status,$(S)/tree.sh series-check)

squash:
	@$(call status,$(S)/tree.sh squash)

# Reads patches/ alone: no deps, no tree.
backport-diff:
	@$(call status,$(S)/backport-diff.sh)

check: deps
	@$(call status,$(S)/check.sh)

run: deps
	@$(call status,$(S)/run.sh run)

test: deps
	@$(call status,$(S)/run.sh test)

# deps, a prerequisite, sees BASE too: it fetches linux-source-7.2 from
# Debian unstable (scripts/fetch-unstable.sh), or installs linux-source-6.12.
test-7.2: export BASE := 7.2
test-7.2: deps
	@$(call status,$(S)/run.sh test)

test-6.12: export BASE := 6.12
test-6.12: deps
	@$(call status,$(S)/run.sh test)

# The 6.12 base's short verdict: the boots of the series' modes (default,
# nojitter, jitter=force, clocksource=hpet, bad options, clock_getres on
# the PM timer, tsc_reliable, the skewed TSC kept through tsc-guarded),
# KUnit and the host checks; not the debug, base and i386 kernels, which
# make test-6.12 builds.
test-6.12-short: export BASE := 6.12
test-6.12-short: export BOOTS := default nojitter jitter-force hpet garbage getres tsc-trusted skew-auto
# BOOTS= narrows a run, which leaves the harness and host checks out: not this one.
test-6.12-short: export HARNESS := 1
test-6.12-short: export HOST_CHECKS := 1
test-6.12-short: deps
	@$(call status,$(S)/run.sh test)

test-full: deps
	@$(call status,PLAN_BOOTS="plan/boots-long plan/boots" $(S)/run.sh test)

test-long: deps
	@$(call status,PLAN_BOOTS=plan/boots-long $(S)/run.sh test)

boot: deps
	@$(call status,$(S)/run.sh boot)

shell: deps
	@$(call status,$(S)/run.sh shell)

kernel: deps
	@$(call status,$(S)/run.sh kernel)

list:
	@$(call status,$(S)/plan.sh list)

post:
	@$(call status,$(S)/post.sh)

harness-test:
	@$(call status,$(S)/harness-test.sh)

bench: deps
	@$(call status,$(S)/bench.sh)

vdso-bench: deps
	@$(call status,$(S)/vdso-bench.sh)

vdso-floor: deps
	@$(call status,$(S)/vdso-floor.sh)

guard-bench: deps
	@$(call status,$(S)/guard-bench.sh)

mutant: deps
	@$(call status,$(S)/mutant.sh $(MUTANTS))

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
	rm -rf build/6.12/logs build/6.12/results build/7.2/logs build/7.2/results

distclean:
	rm -rf build
