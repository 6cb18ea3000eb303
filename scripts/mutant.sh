#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make mutant: the test of the tests.  For each mutant of plan/mutants on
# this BASE (or the ones named), the series' kernel with one deliberate
# bug (plan/mutants.d/NAME.diff) is built and booted as one boot of the
# plan, and the test the mutant names must fail there: "killed".  A
# mutant the test lets pass has "survived", and fails the run: that test
# cannot see the bug it is there for.
#
# The mutant's kernel: build/kbuild/patched's objects copied to
# build/kbuild/mutant-NAME and built again there, incrementally, with the
# diff applied to build/linux for that build alone (reverted right after
# it, and on any exit).  So it must not run beside another build of
# build/linux (make test builds first, then boots: run them one after
# the other).  The guest's programs and run lists are make test's
# (build/out/patched), brought up to date first with the patched kernel,
# as make test does.
# Writes build/mutants/NAME.{log,json} (the console, the boot's results).
# Usage: mutant.sh [NAME...]   (exit 0: every mutant killed; 1: one
#                               survived; 2: the harness failed)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

S=$TOP/scripts
plan=$TOP/plan/mutants
# Kbuild reads M= from the environment as an external module's directory.
unset M
out=$BUILD/mutants
mkdir -p "$out" "$LOGS"

# The mutants of this base, NAME BOOT EXPECT a line.
mapfile -t rows < <(awk -v base="$BASE" '
	{ sub(/#.*/, "") } NF == 0 { next }
	NF != 4 { printf "bad line %d: %s\n", NR, $0 > "/dev/stderr"; bad = 1; next }
	$2 == base { print $1, $3, $4 }
	END { exit bad }' "$plan") || die "mutant: $plan has bad lines"
names=()
for row in "${rows[@]}"; do names+=("${row%% *}"); done
for n in "$@"; do
	in_list "$n" "${names[@]}" || die "mutant: no mutant $n for BASE=$BASE in $plan"
done
[ ${#rows[@]} -gt 0 ] || { msg "mutant: no mutant for BASE=$BASE in $plan"; exit 0; }

# make test's own steps: each redoes only what changed.
"$S/build-kernel.sh" patched
"$S/build-tests.sh" patched
"$S/initramfs.sh" patched

# The tree carries a mutation only between apply and revert.
applied=
revert() {
	[ -n "$applied" ] || return 0
	git -C "$SRC" apply -R "$applied" || warn "mutant: could not revert $applied in $SRC"
	applied=
}
trap revert EXIT

# build NAME DIFF: the mutant's kernel in build/kbuild/mutant-NAME.
build() {
	local name=$1 diff=$2 obj
	obj=$(obj_dir "mutant-$name")
	git -C "$SRC" diff --quiet HEAD -- || die "mutant: $SRC has uncommitted changes"
	git -C "$SRC" apply --check "$diff" 2>/dev/null ||
		die "mutant: $diff does not apply to $SRC (the series moved: rebase it)"
	rm -rf "$obj"
	cp -a "$(obj_dir patched)" "$obj"
	git -C "$SRC" apply "$diff"
	applied=$diff
	run_progress "$out/$name.build.log" "mutant $name" \
		make -C "$SRC" O="$obj" LOCALVERSION= -j"$JOBS" bzImage ||
		die "mutant: $name does not build (log $out/$name.build.log)"
	revert
}

# killed NAME EXPECT: a result of EXPECT (or of one of its sub-tests)
# failed in the mutant's boot.
killed() {
	python3 - "$out/$1.json" "$2" <<'PY'
import json, sys
rows, want = json.load(open(sys.argv[1])), sys.argv[2]
bad = [r for r in rows if r["status"] == "fail" and
       (r["test"] == want or r["test"].startswith(want + "/"))]
for r in bad:
    print(f'      {r["test"]}: {r.get("detail", "")}'[:200])
sys.exit(0 if bad else 1)
PY
}

survived=0
for row in "${rows[@]}"; do
	read -r name boot expect <<<"$row"
	[ $# -eq 0 ] || in_list "$name" "$@" || continue
	diff=$TOP/plan/mutants.d/$name.diff
	[ -f "$diff" ] || die "mutant: no $diff"
	line=$("$S/plan.sh" boots "$boot" | awk -F'\t' -v b="$boot" '$1 == b')
	[ -n "$line" ] || die "mutant: $name: no boot $boot in the plan"
	IFS=$'\t' read -r _ smp limit suites append <<<"$line"
	if skew_qemu_append "$append"; then
		QEMU_SKEW_BIN=$("$S/qemu-skew.sh" | tail -n 1) ||
			die "mutant: the QEMU of th.skew did not build (scripts/qemu-skew.sh)"
		export QEMU_SKEW_BIN
	fi

	msg "mutant $name: $(sed -n 's/^+++ b\///p' "$diff" | tr '\n' ' ')as boot $boot; $expect must fail"
	build "$name" "$diff"
	plan_boot "mutant-$name" "$(out_dir patched)" "$boot" "$smp" "$limit" "$suites" \
		"$append" "$out/$name.log" "$out/$name.json" >"$out/$name.results" || true
	if killed "$name" "$expect"; then
		echo "mutant $name: killed: $expect failed on it (console $out/$name.log)"
	else
		echo "mutant $name: SURVIVED: $expect did not fail on it (console $out/$name.log)"
		survived=$((survived + 1))
	fi
done
[ $survived -eq 0 ] || { echo "make mutant: $survived mutant(s) survived"; exit 1; }
echo "make mutant: every mutant killed"
