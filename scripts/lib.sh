# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Common paths and helpers for the harness scripts; sourced, not run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# BASE: the kernel the series applies to, from Debian's linux-source-BASE.
# 6.1 (the default, the last LTS with arch/ia64) carries both postings in
# patches/, built in build/; 6.12 (the LTS distributions ship now) the
# first posting, ported, in patches/6.12/, built in build/6.12/; 7.2
# (mainline, the base a posting is judged on) the first posting in
# patches/7.2/, built in build/7.2/, its source from Debian unstable.
BASE=${BASE:-6.1}
# base_dir BASE: BASE's directory below build/ and patches/.
base_dir() {
	case $1 in
	6.1)	echo ;;
	6.12)	echo /6.12 ;;
	7.2)	echo /7.2 ;;
	*)	return 1 ;;
	esac
}
_base_dir=$(base_dir "$BASE") ||
	{ printf 'error: BASE=%s: the series has a base 6.1 (default), 6.12 and 7.2\n' "$BASE" >&2; exit 2; }
BASE_PKG=linux-source-$BASE
# from_unstable: BASE's linux-source comes from Debian unstable, which the
# machine's apt does not reach: scripts/fetch-unstable.sh downloads it
# through a private apt configuration (build/apt-unstable/) into
# $BUILD/pkg/, never installs it, and records its version there.
from_unstable() { [ "$BASE" = 7.2 ]; }
BUILD=${BUILD:-$TOP/build$_base_dir}
SRC=$BUILD/linux		# patched tree, a git repository (make tree)
BASE_SRC=$BUILD/base		# worktree of the base commit, never edited
LOGS=$BUILD/logs
PATCHES=${PATCHES:-$TOP/patches$_base_dir}
if from_unstable; then
	BASE_TARBALL=${BASE_TARBALL:-$BUILD/pkg/usr/src/$BASE_PKG.tar.xz}
else
	BASE_TARBALL=${BASE_TARBALL:-/usr/src/$BASE_PKG.tar.xz}
fi
BASE_TAG=base
SERIES_NAME=time-interp
JOBS=${JOBS:-$(nproc)}

# Fixed identity and date for the base commit: the same tarball gives the
# same base commit id on every machine, so base-commit: lines stay valid.
BASE_GIT_ENV=(GIT_AUTHOR_NAME="Linux base" GIT_AUTHOR_EMAIL="base@localhost"
	      GIT_COMMITTER_NAME="Linux base" GIT_COMMITTER_EMAIL="base@localhost"
	      GIT_AUTHOR_DATE="2000-01-01T00:00:00Z"
	      GIT_COMMITTER_DATE="2000-01-01T00:00:00Z")

msg() { printf '==> %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
# die MESSAGE: the harness itself failed (bad arguments, a missing
# package, a build error): exit status 2, apart from 1, a test that failed
# (make test's statuses; see scripts/run.sh).
die() { printf 'error: %s\n' "$*" >&2; exit 2; }

# in_list WORD ITEM...: WORD is one of the ITEMs.  (Not printf | grep -q:
# bash writes a line at a time, and under pipefail the pipeline fails
# when grep quits at a match before the last line is written.)
in_list() {
	local w=$1 i
	shift
	for i; do [ "$i" = "$w" ] && return 0; done
	return 1
}

# installed PKG: Debian's package PKG is installed.
installed() {
	[[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == *' ok installed' ]]
}

# flavour_src FLAVOUR: source tree of a kernel flavour.
# "patched" is build/linux with the series; "base" is the unpatched base;
# "debug" is the patched tree with configs/x86_64-debug.config (lockdep,
# UBSAN, KASAN), a kernel only: it boots the patched flavour's tests.
# "i386" is the patched tree built for 32-bit x86 (ARCH=i386), a kernel
# only too: it boots the patched flavour's initramfs with /guest/init32.
flavour_src() {
	case $1 in
	patched|debug|i386) echo "$SRC" ;;
	base) echo "$BASE_SRC" ;;
	*) die "unknown flavour '$1' (patched, base, debug or i386)" ;;
	esac
}

# The series is posted in two postings, each a directory of patches/ with
# its own cover letter and numbering; the second applies on the first.
# patches/series lists both, in order.  build/linux tags the last commit
# of each posting but the last "posting/NAME".
POSTINGS=(1-core 2-ia64)
[ "$BASE" = 6.1 ] || POSTINGS=(1-core)
SERIES_VERSION=2
# 7.2 carries v3: the interpolator with the x86 TSC and HPET,
# clock_gettime_ns(), and the x86 policy (clock_getres=timebase,
# tsc_reliable), each a posting that applies on the base alone; 6.12
# carries v3's backport, the same three postings.
# POSTINGS_APART: each posting applies on the base alone (its cover
# letter names no prerequisite patches; make check applies each alone).
POSTINGS_APART=0
if [ "$BASE" = 7.2 ] || [ "$BASE" = 6.12 ]; then
	POSTINGS=(1-interp 2-ns 3-x86)
	SERIES_VERSION=3
	POSTINGS_APART=1
fi

# skew_qemu_append APPEND: true when a boot with these kernel arguments
# runs under the QEMU of scripts/qemu-skew.sh (boot.sh's th.skew=,
# th.invtsc, th.tscadjust).
skew_qemu_append() {
	[[ " $1 " == *" th.skew="* || " $1 " == *" th.invtsc "* || " $1 " == *" th.tscadjust "* ]]
}

# other_kernel APPEND: the kernel a boot with these arguments runs other
# than the series' own (th.kernel=base, debug or i386), or nothing.
other_kernel() {
	[[ " $1 " =~ \ th\.kernel=(base|debug|i386)\  ]] && echo "${BASH_REMATCH[1]}"
	return 0
}

# default_plan_boots: the plan make test reads without PLAN_BOOTS: the
# base's own (plan/boots-7.2, v3 of the series) when it has one.
default_plan_boots() {
	if [ -f "$TOP/plan/boots-$BASE" ]; then
		echo "plan/boots-$BASE"
	else
		echo plan/boots
	fi
}

# selected_postings: the postings SERIES selects; SERIES=core is the
# first alone (the core, x86, clock_gettime_ns() and the vDSO).
selected_postings() {
	case ${SERIES:-} in
	core) echo "${POSTINGS[0]}" ;;
	*) echo "${POSTINGS[@]}" ;;
	esac
}

# flavour_of_series: SERIES=none selects the unpatched base.
flavour_of_series() {
	case ${SERIES:-} in
	""|all|patched|core) echo patched ;;
	none|base) echo base ;;
	*) die "SERIES='$SERIES': use SERIES=none for the unpatched base, SERIES=core for the first posting alone" ;;
	esac
}

obj_dir() { echo "$BUILD/kbuild/$1"; }
# vdso64_image FLAVOUR: the x86-64 vDSO image of FLAVOUR's kernel build
# (its full symbols beside it, .dbg): 7.2 builds it in the vdso64/
# directory of the x86 vDSO (split into common/, vdso32/, vdso64/).
vdso64_image() {
	if [ "$BASE" = 7.2 ]; then
		echo "$(obj_dir "$1")/arch/x86/entry/vdso/vdso64/vdso64.so"
	else
		echo "$(obj_dir "$1")/arch/x86/entry/vdso/vdso64.so"
	fi
}
out_dir() { echo "$BUILD/out/$1"; }

# plan_boot FLAVOUR OUT NAME SMP LIMIT SUITES APPEND LOG JSON [OPTION...]:
# boot NAME of the plan on FLAVOUR's kernel with OUT's initramfs (OUT is
# an out_dir, whose root/plan/NAME is the boot's run list), its console
# in LOG, judged into JSON by results.py boot with OPTIONs (--known, ...).
# The built-in KUnit suites run only where SUITES has kunit, and only
# there are they judged.  Returns results.py's status; the boot's own is
# in the verdict.
plan_boot() {
	local flavour=$1 out=$2 name=$3 smp=$4 limit=$5 suites=$6 append=$7 log=$8 json=$9
	local rc=0 kunit=()
	shift 9
	if [[ ,$suites, == *,kunit,* ]]; then
		kunit=(--kunit)
		# A KUnit case runs in a kthread the kernel does not preempt:
		# upstream's time64_to_tm_test_date_range loops past RCU's
		# 21 s stall timeout under TCG beside other guests and a
		# build (6.1 and 6.12, 2026-12-07).  RCU still reports a
		# stall of 60 s.
		append="rcupdate.rcu_cpu_stall_timeout=60 $append"
	else
		append="kunit.enable=0 $append"
	fi
	"$TOP/scripts/boot.sh" "$flavour" "$log" "$smp" "$limit" \
		"th.mode=test th.boot=$name $append" "$out/initramfs.cpio.gz" || rc=$?
	python3 "$TOP/scripts/results.py" boot --log "$log" --boot "$name" \
		--list "$out/root/plan/$name" "${kunit[@]}" --qemu-status "$rc" \
		--limit "$limit" --out "$json" "$@"
}

# run_logged LOG CMD...: run CMD with its output in LOG; on failure show the
# lines that matter (compiler errors, the failing file) rather than all.
run_logged() {
	local log=$1
	shift
	mkdir -p "$(dirname "$log")"
	if ! "$@" >"$log" 2>&1; then
		printf 'error: command failed: %s\n' "$*" >&2
		printf 'error: full log: %s\n' "$log" >&2
		{ grep -E '(error|Error|ERROR|No rule|undefined reference|fatal)' "$log" |
			grep -v '^make\[[0-9]*\]: \*\*\* \[' | sed -n 1,20p
		  echo '--- last lines ---'
		  tail -n 8 "$log"; } | sed 's/^/  | /' >&2
		return 1
	fi
}

# dur SECONDS: "45s", "3m30s".
dur() {
	if [ "$1" -ge 60 ]; then
		printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
	else
		printf '%ds' "$1"
	fi
}

# last_target LOG: the last thing a build LOG shows being made: kbuild's
# "CC kernel/time/timekeeping.o", ninja's "[12/1427] Compiling ...", a
# compiler line's "g++ -o insn-emit.o", configure's "checking for ...".
last_target() {
	tail -n 60 "$1" 2>/dev/null | tr -d '\r' | awk '
		/^  [A-Z][A-Z0-9_]*( \[M\])? +[^ ]+$/ { $1 = $1; t = $0; next }
		/^\[[0-9]+\/[0-9]+\] / { t = $0; next }
		/^checking / { t = "configure: " $0; next }
		match($0, / -o [^ ]+/) { n = split($1, cc, "/"); t = cc[n] " " substr($0, RSTART + 1, RLENGTH - 1) }
		END { print substr(t == "" ? "starting" : t, 1, 100) }'
}

# progress_while PID WHAT LOG: every PROGRESS_EVERY seconds (30) while
# process PID lives, a line on stderr: how long so far, WHAT, and the last
# target of LOG:
#     ... kernel (patched): 3m30s, CC kernel/time/timekeeping.o
# Run it in the background (run_progress does): it ends with PID, or on
# SIGTERM.
progress_while() {
	local pid=$1 what=$2 log=$3 t0=$SECONDS every=${PROGRESS_EVERY:-30} next
	next=$((t0 + every))
	trap 'exit 0' TERM
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		[ "$SECONDS" -ge "$next" ] || continue
		next=$((next + every))
		printf '    ... %s: %s, %s\n' "$what" "$(dur $((SECONDS - t0)))" "$(last_target "$log")" >&2
	done
}

# run_progress LOG WHAT CMD...: run_logged CMD, with progress_while's line
# every 30 s meanwhile, for the builds of minutes (kernels, the IA64
# compiler, the skew QEMU).  V=1 streams CMD's output to stderr instead,
# still writing LOG.
run_progress() {
	local log=$1 what=$2 me=$BASHPID p rc=0
	shift 2
	if [ "${V:-0}" = 1 ]; then
		mkdir -p "$(dirname "$log")"
		"$@" 2>&1 | tee "$log" >&2 || rc=${PIPESTATUS[0]}
		[ "$rc" -eq 0 ] || printf 'error: command failed: %s\nerror: full log: %s\n' "$*" "$log" >&2
		return "$rc"
	fi
	progress_while "$me" "$what" "$log" &
	p=$!
	run_logged "$log" "$@" || rc=$?
	kill "$p" 2>/dev/null || true
	wait "$p" 2>/dev/null || true
	return "$rc"
}

# Build times, for the estimate printed before a long build: a line
# "STEP KIND SECONDS PRIORITY DATE" for each build that completed, KIND
# fresh (from scratch) or incremental, PRIORITY idle (make test's
# background steps, SCHED_IDLE) or normal.  Kept with the caches, so that
# it outlives make clean and serves every clone on the machine.
TIMINGS=${TIMINGS:-${XDG_CACHE_HOME:-$HOME/.cache}/time-interp/timings}

# fresh_secs STEP: the step from scratch on a fresh machine, this project's
# 2 cores, as measured in make test (README): the estimate until this
# machine has timed the step itself.
fresh_secs() {
	case $1 in
	kernel-debug*)	echo 900 ;;
	kernel-i386*)	echo 475 ;;
	kernel-*)	echo 635 ;;
	ia64-gcc)	echo 780 ;;
	qemu-skew)	echo 1783 ;;
	esac
}

# sched_priority: idle when this process runs SCHED_IDLE, else normal.
sched_priority() {
	[[ $(chrt -p $$ 2>/dev/null) == *SCHED_IDLE* ]] && echo idle || echo normal
}

# timing_record STEP KIND SECONDS: one more line of $TIMINGS.
timing_record() {
	mkdir -p "$(dirname "$TIMINGS")"
	echo "$1 $2 $3 $(sched_priority) $(date -u +%F)" >>"$TIMINGS"
}

# timing_estimate STEP KIND: what to expect of a build, for its first
# message: the last time this machine took for a build of that STEP and
# KIND (at this priority if there is one), else the fresh-machine figure.
timing_estimate() {
	local last kind secs prio day
	last=$(awk -v s="$1" -v k="$2" -v p="$(sched_priority)" '
		$1 == s && $2 == k { any = $0; if ($4 == p) same = $0 }
		END { print (same != "" ? same : any) }' "$TIMINGS" 2>/dev/null || true)
	if [ -n "$last" ]; then
		read -r _ kind secs prio day <<<"$last"
		echo "last time $(dur "$secs") ($kind$([ "$prio" = idle ] && echo ", at idle priority"), $day)"
	elif [ "$2" = fresh ] && [ -n "$(fresh_secs "$1")" ]; then
		echo "about $(dur "$(fresh_secs "$1")") from scratch on a fresh 2-core machine"
	else
		echo "not timed on this machine yet"
	fi
}

# pack DIR OUT: DIR as a gzipped newc cpio archive, the kernel's initramfs.
pack() {
	(cd "$1" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --quiet --reproducible) | gzip -1 >"$2"
}

# record_row BOOT SUITE NAME STATUS DETAIL LOG: one result row, as
# results.py reads them, appended to the caller's rows array and shown;
# a row that is not a pass counts in the caller's nfail.
record_row() {
	rows+=("$(python3 -c 'import json, sys
b, s, n, st, d, l = sys.argv[1:7]
print(json.dumps({"boot": b, "test": s + ":" + n, "status": st, "detail": d, "log": l}))' "$@")")
	if [ "$4" = pass ]; then
		echo "  ok    $2:$3"
	elif [ "$4" = skip ]; then
		echo "  skip  $2:$3: $5"
	else
		echo "  FAIL  $2:$3: $5"
		nfail=$((nfail + 1))
	fi
}

# report_rows BOOT REPORT LOG EXPR: a result row for each check line of a
# host program's Markdown REPORT: "- ok: TEXT" passes, "- skip: TEXT"
# skips, "- **FAIL**: TEXT" fails.  A row is named by its number and what
# the sed -E expression EXPR leaves of TEXT (48 characters at most), and
# points to LOG.  Sets nchecks to the number of rows.
report_rows() {
	local boot=$1 report=$2 log=$3 expr=$4 line st text name
	nchecks=0
	while IFS= read -r line; do
		nchecks=$((nchecks + 1))
		case $line in
		"- ok: "*) st=pass ;;
		"- skip: "*) st=skip ;;
		*) st=fail ;;
		esac
		text=${line#*: }
		name=$(printf '%02d %s' "$nchecks" "$(sed -E "$expr" <<<"$text" | cut -c1-48)")
		record_row "$boot" "$boot" "$name" "$st" "$text" "$log"
	done < <(grep -E '^- (ok|\*\*FAIL\*\*|skip): ' "$report")
}

# build_vdso_bench OUT: scripts/vdso-bench.c built as OUT, warnings fatal
# (make vdso-bench times with it, make test's vdso-check checks with it).
build_vdso_bench() {
	gcc -O2 -Wall -Wextra -Werror -o "$1" "$TOP/scripts/vdso-bench.c"
}

# host_cpu: the host's CPU model and core count, as the stamps give them.
host_cpu() {
	echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
}

# bench_stamp TITLE COMMAND: the head of every bench table: what it is,
# the host it ran on, the date, and the command that made it.
bench_stamp() {
	echo "$1"
	echo
	echo "host: $(host_cpu); $(date -u +%Y-%m-%d)"
	echo "command: $2"
	echo
}

# The IA64 cross compiler of scripts/ia64-toolchain.sh, cached per machine,
# and the packages it and make ia64 need.
IA64_CACHE=${IA64_CACHE:-$HOME/.cache/time-interp/ia64-gcc-12}
IA64_PKGS=(gcc-12-source binutils-ia64-linux-gnu libgmp-dev libmpfr-dev
	   libmpc-dev sparse)

# ia64_cached: the cached cross compiler is there and runs.
ia64_cached() {
	"$IA64_CACHE/bin/ia64-linux-gnu-gcc" --version >/dev/null 2>&1
}

# cross_make BINDIR ARCH PREFIX SRC OBJ ARGS...: make for ARCH in SRC,
# objects in OBJ, with the cross compiler PREFIXgcc of BINDIR first in PATH
# (the cached compilers: ia64's built, arm's unpacked; binutils are Debian's).
cross_make() {
	local bin=$1 arch=$2 prefix=$3 src=$4 obj=$5
	shift 5
	PATH=$bin:$PATH make -C "$src" O="$obj" ARCH="$arch" \
		CROSS_COMPILE="$prefix" "$@"
}

# ia64_make SRC OBJ ARGS...: cross_make for ia64, the cached compiler.
ia64_make() { cross_make "$IA64_CACHE/bin" ia64 ia64-linux-gnu- "$@"; }

# x86_make SRC OBJ ARGS...: make for the host's x86_64 in SRC, objects in OBJ.
x86_make() {
	local src=$1 obj=$2
	shift 2
	make -C "$src" O="$obj" "$@"
}

# private_apt DIR LINE...: an apt configuration of the harness's own in
# DIR: its sources.list holds the LINEs, its lists and cache stay in DIR,
# the machine's apt sources and state are left alone.  Sets APT_OPTS, the
# options that make apt-get and apt-cache use it.
private_apt() {
	local dir=$1
	shift
	APT_OPTS=(-o "Dir::Etc::SourceList=$dir/sources.list"
		  -o Dir::Etc::SourceParts=/dev/null
		  -o "Dir::State::Lists=$dir/lists"
		  -o "Dir::Cache=$dir/cache"
		  -o APT::Sandbox::User=root)
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	printf '%s\n' "$@" >"$dir/sources.list"
}

# deb_src_apt DIR SUITE...: private_apt with the deb-src lines of Debian's
# SUITEs (bookworm, bookworm-updates, bookworm-security, unstable).
deb_src_apt() {
	local dir=$1 s kr=/usr/share/keyrings/debian-archive-keyring.gpg lines=()
	shift
	for s; do
		case $s in
		*-security) lines+=("deb-src [signed-by=$kr] http://deb.debian.org/debian-security $s main") ;;
		*) lines+=("deb-src [signed-by=$kr] http://deb.debian.org/debian $s main") ;;
		esac
	done
	private_apt "$dir" "${lines[@]}"
}

# g GIT-ARGS...: git in the series' tree, build/linux (build/BASE/linux).
g() { git -C "$SRC" "$@"; }

# private_apt_fresh DIR: DIR's lists were fetched less than a day ago.
private_apt_fresh() {
	[ -n "$(find "$1/lists" -maxdepth 1 -name '*InRelease' -mtime -1 2>/dev/null)" ]
}

# kconfig MAKE SRC OBJ LOG TARGET [FRAGMENT...]: make TARGET (a *config
# target) with the MAKE helper, merge the fragments, olddefconfig.  An
# unchanged result keeps the old .config (and its mtime), so that nothing
# rebuilds.  Options a fragment names that SRC lacks (the series' own, on
# the base) are only noted by merge_config.sh.
kconfig() {
	local mk=$1 src=$2 obj=$3 log=$4 target=$5
	shift 5
	mkdir -p "$obj"
	[ -f "$obj/.config" ] && cp -p "$obj/.config" "$obj/.config.prev"
	run_logged "$log" "$mk" "$src" "$obj" "$target" || return 1
	if [ $# -gt 0 ]; then
		run_logged "$log.merge" "$src/scripts/kconfig/merge_config.sh" -m \
			-O "$obj" "$obj/.config" "$@" || return 1
	fi
	run_logged "$log.olddefconfig" "$mk" "$src" "$obj" olddefconfig || return 1
	if [ -f "$obj/.config.prev" ] && cmp -s "$obj/.config" "$obj/.config.prev"; then
		mv "$obj/.config.prev" "$obj/.config"
	else
		rm -f "$obj/.config.prev"
	fi
}

# key_matches FILE KEY: FILE holds KEY, the hash of the inputs that made
# what lies beside it, so that it can stand without being made again.
key_matches() {
	[ -n "$2" ] && [ "$(cat "$1" 2>/dev/null)" = "$2" ]
}

# kernel_config_key SRC FILE...: a hash of what a kernel's .config follows
# from: SRC's HEAD, its uncommitted changes to Kconfig files, *.config
# fragments and scripts/kconfig, the FILEs (fragments, the script) and the
# compiler's version.  Fails when SRC is not a git tree.
kernel_config_key() {
	local src=$1 head
	shift
	head=$(git -C "$src" rev-parse HEAD 2>/dev/null) || return 1
	{
		echo "$head"
		git -C "$src" diff HEAD -- ':(glob)**/Kconfig*' \
			':(glob)**/*.config' scripts/kconfig || return 1
		cat "$@"
		gcc --version | sed -n 1p
	} | sha256sum | cut -d' ' -f1
}

# kernel_build_key SRC CONFIG_KEY: a hash of a build's inputs: its config
# key and SRC's whole uncommitted diff.  Contents, not mtimes: a file
# touched, or changed and changed back, keeps the key.
kernel_build_key() {
	local diff
	diff=$(git -C "$1" diff HEAD) || return 1
	printf '%s\n%s\n' "$2" "$diff" | sha256sum | cut -d' ' -f1
}

# ia64_kconfig SRC OBJ LOG: the IA64 config of the series, allnoconfig plus
# configs/ia64-series.config.
ia64_kconfig() {
	kconfig ia64_make "$1" "$2" "$3" allnoconfig "$TOP/configs/ia64-series.config"
}

# touched_warnings LOG FILE...: what a build LOG says of the FILEs (paths
# in the source tree), as "file: warning|error: message" lines without line
# numbers (which the series shifts), sorted.  Compiler, assembler and
# sparse messages all have the form file:line[:col]: warning: message.
touched_warnings() {
	python3 - "$@" <<'PY'
import re, sys
log, touched = sys.argv[1], sys.argv[2:]
seen = []
for line in open(log, errors='replace'):
    m = re.match(r'^(\S+?):\d+:(?:\d+:)? ([Ww]arning|error): (.*)$', line.strip())
    if m:
        f = next((t for t in touched if m.group(1).endswith('/' + t) or m.group(1) == t), None)
        if f:
            seen.append(f'{f}: {m.group(2).lower()}: {m.group(3)}')
print('\n'.join(sorted(seen)))
PY
}

# build_guard_bench OUT [TREE]: scripts/guard-bench.c built as OUT around
# TREE's (default the patched tree's) kernel/time/time_interpolator.c and
# the headers of the series it includes.  Every other <linux/...> or
# <asm/...> header those include is made to be scripts/guard-bench-shim.h.
# The TSC read is RDTSCP where the CPU has it, as the kernel patches it.
build_guard_bench() {
	local out=$1 tree=${2:-$SRC} inc h
	local core=$tree/kernel/time/time_interpolator.c
	local hdr=$tree/include/linux/time_interpolator.h
	local arch=$tree/arch/x86/include/asm/time_interpolator.h

	for h in "$core" "$hdr" "$arch"; do
		[ -f "$h" ] || { echo "no $h: the series is not applied in $tree" >&2; return 1; }
	done
	inc=$(dirname "$out")/guard-bench-include
	rm -rf "$inc"
	mkdir -p "$inc/linux" "$inc/asm"
	for h in $(sed -n 's|^#include <\(linux/[^>]*\)>.*|\1|p; s|^#include <\(asm/[^>]*\)>.*|\1|p' \
			"$core" "$hdr" "$arch" | sort -u); do
		echo '#include "guard-bench-shim.h"' >"$inc/$h"
	done
	ln -sf "$hdr" "$inc/linux/time_interpolator.h"
	ln -sf "$arch" "$inc/asm/time_interpolator.h"
	gcc -O2 -Wall -Werror -Wno-unused-function -D_GNU_SOURCE \
		$(grep -qw rdtscp /proc/cpuinfo && echo -DGB_RDTSCP) \
		-I "$inc" -I "$TOP/scripts" -iquote "$tree/kernel/time" \
		-o "$out" "$TOP/scripts/guard-bench.c" -lpthread
}
