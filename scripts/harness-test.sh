#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host-side tests of the harness's judgement: each tests/harness/CASE holds
# a console log (console.log), the boot's run list (list), how QEMU ended
# (meta), known failures (known, and known-base as a second file, as
# run.sh passes plan/known-failures-BASE) and the results it must give
# (expect: "test status" lines).
# Also checks that the summary's verdict line counts and exits as it must,
# and runs tests/tree-test.sh, the tests of the series workflow.
# Usage: harness-test.sh [RESULTS.json]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:-}
cases=$TOP/tests/harness
# make test T=... HARNESS=1 runs these too: the plan cases set their own.
unset T KUNIT BOOTS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rows=()
nfail=0

record() { record_row host harness "$1" "$2" "$3" tests/harness; }	# NAME STATUS DETAIL

for d in "$cases"/*/; do
	c=$(basename "$d")
	boot=$(sed -n 's/^boot=//p' "$d/meta")
	qs=$(sed -n 's/^qemu_status=//p' "$d/meta")
	args=(boot --log "$d/console.log" --boot "$boot" --list "$d/list"
	      --qemu-status "$qs" --limit 60 --out "$tmp/$c.json")
	grep -q '^kunit=1' "$d/meta" && args+=(--kunit)
	[ -f "$d/known" ] && args+=(--known "$d/known")
	[ -f "$d/known-base" ] && args+=(--known "$d/known-base")
	[ -f "$d/maintainers" ] && args+=(--maintainers "$d/maintainers")
	if ! python3 "$TOP/scripts/results.py" "${args[@]}" >"$tmp/$c.out" 2>&1; then
		record "$c" fail "results.py failed: $(tail -n 1 "$tmp/$c.out")"
		continue
	fi
	python3 -c 'import json,sys
for r in json.load(open(sys.argv[1])): print(r["test"], r["status"])' "$tmp/$c.json" |
		sort >"$tmp/$c.got"
	sort "$d/expect" >"$tmp/$c.want"
	if diff -u "$tmp/$c.want" "$tmp/$c.got" >"$tmp/$c.diff"; then
		record "$c" pass ""
	else
		record "$c" fail "$(grep '^[-+][^-+]' "$tmp/$c.diff" | tr '\n' ' ')"
	fi
done

# plan/tests' "ID@BOOT" line gives a test its settings in that boot
# alone; other boots take the test's own line, or the default.
mkdir -p "$tmp/plan/ksft/timers"
printf '#!/bin/sh\n' >"$tmp/plan/ksft/timers/t"
chmod +x "$tmp/plan/ksft/timers/t"
printf 'a 2 60 timers:t -\nb 2 60 timers:t -\nc 2 60 timers:t -\n' >"$tmp/plan/boots"
printf 'timers:t@b 7 -x b\ntimers:t 9 -y\n' >"$tmp/plan/tests"
if ! PLAN_BOOTS=$tmp/plan/boots PLAN_TESTS=$tmp/plan/tests \
	"$TOP/scripts/plan.sh" lists "$tmp/plan/ksft" "$tmp/plan/out" >"$tmp/plan.out" 2>&1; then
	record plan-per-boot fail "plan.sh lists failed: $(tail -n 1 "$tmp/plan.out")"
elif [ "$(cat "$tmp/plan/out/a" "$tmp/plan/out/b")" != "$(printf 'timers\tt\t9\t-y\ntimers\tt\t7\t-x b')" ]; then
	record plan-per-boot fail "lists: $(cat "$tmp/plan/out/a" "$tmp/plan/out/b" | tr '\t\n' ' |')"
else
	record plan-per-boot pass ""
fi

# The verdict: the fail case has one failure among 5 results; the summary
# must say so on its last line and exit 1, and exit 0 on the pass case.
if python3 "$TOP/scripts/results.py" summary "$tmp/fail.json" >"$tmp/sum" 2>&1; then
	record verdict-fail fail "summary exited 0 on a failure"
elif [ "$(tail -n 1 "$tmp/sum")" != "4 passed, 1 failed, 0 skipped" ]; then
	record verdict-fail fail "last line: $(tail -n 1 "$tmp/sum")"
elif ! grep -qxF '    | Nanosleep CLOCK_TAI FAILED' "$tmp/sum" ||
     ! grep -qx "    log: .*/fail/*console.log" "$tmp/sum"; then
	# Under the summary: the failed test's own line and its console log.
	record verdict-fail fail "the summary does not show the failure's output and log"
else
	record verdict-fail pass ""
fi
if python3 "$TOP/scripts/results.py" summary "$tmp/pass.json" "$tmp/skip.json" >"$tmp/sum" 2>&1 &&
   [ "$(tail -n 1 "$tmp/sum")" = "8 passed, 0 failed, 2 skipped" ]; then
	record verdict-pass pass ""
else
	record verdict-pass fail "summary of passes: $(tail -n 1 "$tmp/sum")"
fi
if python3 "$TOP/scripts/results.py" summary >"$tmp/sum" 2>&1; then
	record verdict-empty fail "summary of no results exited 0"
else
	record verdict-empty pass ""
fi

# make bench's report (scripts/bench-report.py) on tests/bench/: the
# figures of a known run give known tables and ratios, and a run where a
# program failed its own checks gives no report.
# The 6.12 rows are divided by 6.12's own unpatched boot.
bench_rows=("| series nojitter | 0.250 (0.250) | 0.500 (0.250) | tsc | 0.25 | 0.12 |"
	    "| series/6.12 default | 0.250 (0.250) | 1.000 (0.500) | tsc | 0.50 | 0.50 |"
	    "| gettimeofday | 1000.0 | 50.0 | 150.0 | 100.0 | 40.0 | 0.05 | 0.67 | 0.15 |"
	    "| clock_gettime_ns(MONO) | skip | 50.0 | skip | 100.0 | skip |  |  |  |"
	    "| CLOCK_REALTIME | 10 | 1 |  |  |"
	    "| 6.12 default | 6.12.0-test-base | as booted | 2 | tsc | hpet | n/a (unpatched) |"
	    "| series nojitter | 1 | 0.400 | 0.600 | 1.50 |")
mkdir -p "$tmp/bench-ok" "$tmp/bench-fail"
if ! python3 "$TOP/scripts/bench-report.py" --raw "$TOP/tests/bench/ok" --out "$tmp/bench-ok" \
	--command test --qemu test --no-plots >"$tmp/bench.out" 2>&1; then
	record bench-report fail "exited non-zero: $(tail -n 1 "$tmp/bench.out")"
else
	missing=""
	for r in "${bench_rows[@]}"; do
		grep -qxF "$r" "$tmp/bench-ok/bench.md" || missing+="[$r] "
	done
	if [ -n "$missing" ]; then
		record bench-report fail "bench.md lacks $missing"
	elif [ "$(grep -vc '^#' "$tmp/bench-ok/todscale.csv")" != 11 ]; then
		record bench-report fail "todscale.csv: $(grep -vc '^#' "$tmp/bench-ok/todscale.csv") rows, want 11"
	elif ! grep -qx '# command: test' "$tmp/bench-ok/todscale.csv"; then
		record bench-report fail "todscale.csv has no stamp"
	else
		record bench-report pass ""
	fi
fi
if python3 "$TOP/scripts/bench-report.py" --raw "$TOP/tests/bench/fail" --out "$tmp/bench-fail" \
	--command test --qemu test --no-plots >"$tmp/bench.out" 2>&1; then
	record bench-report-fail fail "a program's failed checks gave a report"
elif ! grep -q 'patched-nojitter: cdisp' "$tmp/bench.out"; then
	record bench-report-fail fail "no word of the failed program: $(tail -n 1 "$tmp/bench.out")"
else
	record bench-report-fail pass ""
fi

# The kernel build's keys (lib.sh, used by build-kernel.sh): contents, not
# mtimes.  A touched file, or an edit made and taken back, keeps both keys;
# an edit to a C file changes the build key alone; an edit to a Kconfig
# file or a fragment changes the config key too.
keytree=$tmp/keytree
mkdir -p "$keytree/kernel/time"
printf 'config A\n\tbool "a"\n' >"$keytree/kernel/time/Kconfig"
printf 'int a;\n' >"$keytree/kernel/time/a.c"
printf 'CONFIG_A=y\n' >"$tmp/frag.config"
git -C "$keytree" init -q && git -C "$keytree" add -A &&
	git -C "$keytree" -c user.name=T -c user.email=t@t commit -qm base
keys() { local c; c=$(kernel_config_key "$keytree" "$tmp/frag.config") && echo "$c $(kernel_build_key "$keytree" "$c")"; }
k0=$(keys)
touch -d "+1 hour" "$keytree/kernel/time/a.c" "$keytree/kernel/time/Kconfig" "$tmp/frag.config"
k_touch=$(keys)
echo 'int b;' >>"$keytree/kernel/time/a.c"; k_c=$(keys)
printf 'int a;\n' >"$keytree/kernel/time/a.c"; k_back=$(keys)
printf '\tdefault y\n' >>"$keytree/kernel/time/Kconfig"; k_kconfig=$(keys)
git -C "$keytree" checkout -q -- kernel/time/Kconfig
echo 'CONFIG_B=y' >>"$tmp/frag.config"; k_frag=$(keys)
echo x >"$tmp/keyfile" && key_matches "$tmp/keyfile" x && ! key_matches "$tmp/keyfile" y &&
	! key_matches "$tmp/keyfile" "" && ! key_matches "$tmp/nokeyfile" x; km=$?
if [ -z "$k0" ] || [ "${k0% *}" = "${k0#* }" ]; then
	record build-keys fail "no keys: [$k0]"
elif [ "$k_touch" != "$k0" ] || [ "$k_back" != "$k0" ]; then
	record build-keys fail "a touched or restored file changed a key"
elif [ "${k_c% *}" != "${k0% *}" ] || [ "${k_c#* }" = "${k0#* }" ]; then
	record build-keys fail "a C edit: config key changed or build key kept"
elif [ "${k_kconfig% *}" = "${k0% *}" ] || [ "${k_kconfig#* }" = "${k0#* }" ]; then
	record build-keys fail "a Kconfig edit kept a key"
elif [ "${k_frag% *}" = "${k0% *}" ]; then
	record build-keys fail "a fragment's edit kept the config key"
elif [ $km -ne 0 ]; then
	record build-keys fail "key_matches: a stored key misread"
else
	record build-keys pass ""
fi

# Selection (make test T=, KUNIT=, BOOTS=; plan.sh): each boot keeps the
# items its suites run, in its order, with its settings, or is dropped;
# BOOTS= names boots that run the items anyway; an item no boot runs fails.
sel=$tmp/sel
mkdir -p "$sel/ksft/timers" "$sel/ksft/th"
for t in timers/a timers/b timers/c th/s; do
	printf '#!/bin/sh\n' >"$sel/ksft/$t" && chmod +x "$sel/ksft/$t"
done
printf 'timers:a\ntimers:b\n' >"$sel/ksft/timers.list"
printf 'timers:c\n' >"$sel/ksft/timers.extended.list"
printf 'x 2 60 kunit,timers,-timers:b -\ny 2 60 timers:b,timers:c,th:s a=1\nz 2 60 timers-extended -\n' >"$sel/boots"
printf 'timers:b@y 7 -v\n' >"$sel/tests"
# sel_boots ENV... -- ARGS: plan.sh boots ARGS under ENV, as "name suites append" lines.
sel_boots() {
	local e=()
	while [ "$1" != -- ]; do e+=("$1"); shift; done
	shift
	env "${e[@]}" PLAN_BOOTS="$sel/boots" PLAN_TESTS="$sel/tests" PLAN_KSFT="$sel/ksft" \
		"$TOP/scripts/plan.sh" boots "$@" 2>/dev/null | cut -f1,4,5 | tr '\t\n' ' |'
}
sel_fail=""
check_sel() {	# WANT ENV... -- ARGS
	local want=$1 got
	shift
	got=$(sel_boots "$@") || got="exit $?"
	[ "$got" = "$want" ] || sel_fail+="[$* gave '$got', want '$want'] "
}
check_sel "y timers:b a=1|" T=timers:b --
check_sel "x timers:a |y th:s a=1|" T="timers:a, th:s" --
check_sel "x timers:a |y timers:b,timers:c a=1|z timers:c |" T=timers --
check_sel "x kunit kunit.filter_glob=t*|" KUNIT='t*' --
check_sel "x kunit,timers:a kunit.filter_glob=t*|y timers:b a=1|" KUNIT='t*' T=timers:b,timers:a --
check_sel "z timers:a |" T=timers:a -- z
check_sel "y kunit,th:s a=1 kunit.filter_glob=k|z kunit,th:s kunit.filter_glob=k|" KUNIT=k T=th:s -- y z
check_sel "x kunit,timers,-timers:b |y timers:b,timers:c,th:s a=1|z timers-extended |" --
for bad in timers:nosuch nope nope:a 'a;b'; do
	T=$bad PLAN_BOOTS="$sel/boots" PLAN_KSFT="$sel/ksft" "$TOP/scripts/plan.sh" boots \
		>/dev/null 2>&1 && sel_fail+="[T=$bad did not fail] "
done
T=nope:a PLAN_BOOTS="$sel/boots" "$TOP/scripts/plan.sh" check-selection >/dev/null 2>&1 &&
	sel_fail+="[check-selection passed T=nope:a] "
BOOTS=w PLAN_BOOTS="$sel/boots" "$TOP/scripts/plan.sh" check-selection >/dev/null 2>&1 &&
	sel_fail+="[check-selection passed BOOTS=w] "
T=th:s,timers:b PLAN_BOOTS="$sel/boots" PLAN_TESTS="$sel/tests" \
	"$TOP/scripts/plan.sh" lists "$sel/ksft" "$sel/lists" >/dev/null 2>&1 || sel_fail+="[lists failed] "
got=$(cd "$sel/lists" 2>/dev/null && echo *)
[ "$got" = y ] && [ "$(cat "$sel/lists/y")" = "$(printf 'timers\tb\t7\t-v\nth\ts\t300\t')" ] ||
	sel_fail+="[lists T=th:s,timers:b: $got] "
if [ -n "$sel_fail" ]; then
	record plan-select fail "$sel_fail"
else
	record plan-select pass ""
fi

# The series workflow, on a fake base tarball.
complete=0
while read -r tag name status detail; do
	[ "$tag" = RESULT ] || continue
	record "$name" "$status" "$detail"
	[ "$name" = tree-complete ] && complete=1
done < <("$TOP/tests/tree-test.sh" 2>&1)
[ $complete = 1 ] || record tree-complete fail "tests/tree-test.sh stopped before its end"

if [ -n "$out" ]; then
	(IFS=,; echo "[${rows[*]}]") >"$out"
fi
[ $nfail -eq 0 ] || [ -n "$out" ] || exit 1
