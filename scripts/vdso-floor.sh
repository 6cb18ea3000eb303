#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make vdso-floor: how fast clock_gettime_ns() in the x86-64 vDSO can be
# at all.  plan/vdso-floor-$BASE.diff makes a vDSO whose clock_gettime_ns()
# does less than clock_gettime() after the same ordered counter read (it
# stores the scaled delta alone: no seconds, no saturation); its times,
# beside the base's and the series' images in one make vdso-bench run, are
# the floor that no correct implementation goes under.
#
# The floor is built in a worktree of the series (build/vdso-floor, at
# build/linux's HEAD, the diff applied there) with its own objects
# (build/kbuild/vdso-floor, the patched kernel's .config): build/linux and
# its objects are not touched, so it may run beside make test's boots.
# Writes build/bench/vdso-floor.md and .csv (vdso-bench.sh with
# FLOOR_VDSO=).  BASE=7.2 only: the generic vDSO's clock_gettime_ns().
# Usage: vdso-floor.sh   (N=, ROUNDS=, ALT=, CPU= as for vdso-bench.sh)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

diff=$TOP/plan/vdso-floor-$BASE.diff
[ -f "$diff" ] || die "vdso-floor: no $diff (the floor is 7.2's generic vDSO: BASE=7.2)"
[ -d "$SRC/.git" ] || die "vdso-floor: no $SRC: make tree first"
wt=$BUILD/vdso-floor
obj=$(obj_dir vdso-floor)
config=$(obj_dir patched)/.config
[ -f "$config" ] || "$TOP/scripts/build-kernel.sh" patched
mkdir -p "$LOGS"

head=$(git -C "$SRC" rev-parse HEAD)
if [ ! -e "$wt/.git" ]; then
	git -C "$SRC" worktree prune
	git -C "$SRC" worktree add --detach "$wt" "$head" >/dev/null
fi
git -C "$wt" checkout -q --detach -f "$head"
git -C "$wt" apply "$diff" ||
	die "vdso-floor: $diff does not apply to the series (rebase it)"

mkdir -p "$obj"
cp "$config" "$obj/.config"
run_progress "$LOGS/vdso-floor.log" "vdso-floor: the floor's vDSO" \
	make -C "$wt" O="$obj" LOCALVERSION= -j"$JOBS" olddefconfig arch/x86/entry/vdso/ ||
	die "vdso-floor: the floor's vDSO does not build (log $LOGS/vdso-floor.log)"
git -C "$wt" checkout -q -f "$head"

image=$obj/arch/x86/entry/vdso/vdso64/vdso64.so
[ -f "$image" ] || die "vdso-floor: the build made no $image"
FLOOR_VDSO=$image exec "$TOP/scripts/vdso-bench.sh"
