#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make test's host step for the x86-64 vDSO of the series: scripts/vdso-bench.c
# loads the patched vdso64.so next to a vvar area it fills, between
# PROT_NONE guard pages, and checks every entry point's answers against the
# host's clock, that they come from the vvar page, and that nothing but
# the vvar page was touched (mincore) and no guard page faulted.  Only a
# few calls: make vdso-bench is the one that times it.  On any base
# (BASE=6.1, 6.12 or 7.2): the program reads the image's kernel from its
# version note and models that kernel's vvar page (7.2: its vDSO
# datastore) and alternatives; --base=$BASE makes it refuse an image of
# another.
# Writes one JSON row per check to $1 (default build/results/vdso-host.json).
# Usage: vdso-check.sh [RESULTS.json]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:-$BUILD/results/vdso-host.json}
dir=$BUILD/vdso-check
log=$LOGS/vdso-check.md
image=$(vdso64_image patched)
rows=()
nfail=0
rel=${log#"$TOP"/}		# build/logs/..., build/6.12/logs/...
record() { record_row vdso-host vdso-host "$1" "$2" "$3" "$rel"; }
finish() { (IFS=,; echo "[${rows[*]}]") >"$out"; }
trap finish EXIT

mkdir -p "$dir" "$LOGS" "$(dirname "$out")"
[ -f "$image" ] || { record run fail "no $image: build the patched kernel first"; exit 0; }
# A copy: a kernel build running meanwhile cannot change it under the
# program.  With it its .dbg, when there, whose symbols place the vvar
# page and vdso_data (and 6.12's _vdso_rng_data after it) as vdso2c does,
# or 7.2's datastore pages as its linker script provides them.
rm -f "$dir/vdso64.so" "$dir/vdso64.so.dbg"
cp "$image" "$dir/vdso64.so"
[ -f "$image.dbg" ] && cp "$image.dbg" "$dir/vdso64.so.dbg"
if ! build_vdso_bench "$dir/vdso-bench" 2>"$log"; then
	record build fail "scripts/vdso-bench.c does not build"
	exit 0
fi
rc=0
"$dir/vdso-bench" -n 20000 -r 1 --base="$BASE" patched="$dir/vdso64.so" >"$log" 2>&1 || rc=$?

# "- ok: WHAT = ..." and "- **FAIL**: WHAT = ..." are the checks; the name
# is the text before " = ", ";" or " (", numbered, as some repeat.
report_rows vdso-host "$log" "$rel" 's/( = |; | \().*//'
[ "$nchecks" -gt 0 ] || record run fail "vdso-bench reported no checks (exit $rc)"
[ "$rc" -eq 0 ] || [ "$nfail" -gt 0 ] || record run fail "vdso-bench exited $rc with every check passed"
msg "vdso-host: $nchecks checks, $nfail failed; report $log"
