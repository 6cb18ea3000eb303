#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Cross-build the series for IA64 and check what can be checked without an
# IA64 machine or emulator (none can be had here):
#   - vmlinux builds and links: allnoconfig plus configs/ia64-series.config
#     (SMP, ACPI, the cyclone, the HPET, the KUnit suite);
#   - no compiler or assembler warning in the files the series touches
#     (their objects are rebuilt every run, so the warnings are seen);
#   - sparse (make C=2) adds no warning to the C files of those objects,
#     against the same files of the base;
#   - scripts/ia64-fsys-check.py on the fastcalls' disassembly.
# Writes one JSON row per check to $1 (default build/results/ia64.json),
# as results.py summary reads them; exits 1 when a check failed.
# Usage: ia64.sh [RESULTS.json]   (SRC, IA64_OBJ; about 7 min the first
#                                  time, plus 17 min for the toolchain)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:-$BUILD/results/ia64.json}
obj=${IA64_OBJ:-$BUILD/kbuild/ia64}
log=$LOGS/ia64-build.log
[ -d "$SRC/.git" ] || die "no $SRC: run make tree"
"$TOP/scripts/deps.sh" "${IA64_PKGS[@]}"
"$TOP/scripts/ia64-toolchain.sh" >/dev/null
mkdir -p "$obj" "$LOGS" "$(dirname "$out")"

rows=()
nfail=0
record() { record_row ia64 ia64 "$1" "$2" "$3" "$4"; }	# NAME STATUS DETAIL LOG
finish() {
	(IFS=,; echo "[${rows[*]}]") >"$out"
	msg "ia64: $nfail failed; results in $out"
	[ "$nfail" -eq 0 ]
	exit
}

# Files the series touches, and the objects built from them.
base=$(git -C "$SRC" rev-list --max-parents=0 HEAD)
mapfile -t touched < <(git -C "$SRC" diff --name-only "$base" HEAD)

msg "ia64: configuring (allnoconfig + configs/ia64-series.config)"
ia64_kconfig "$SRC" "$obj" "$log.config" || die "ia64: configuring failed"
bad=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) grep -qxF "$line" "$obj/.config" || bad+=("$line") ;;
	esac
done <"$TOP/configs/ia64-series.config"
if [ ${#bad[@]} -eq 0 ]; then
	record config pass "" "$obj/.config"
else
	record config fail "not in the final config: ${bad[*]}" "$obj/.config"
	finish
fi

objs=()
for f in "${touched[@]}"; do
	case $f in
	*.c|*.S) [ -f "$SRC/$f" ] && objs+=("${f%.*}.o") ;;
	esac
done
for o in "${objs[@]}"; do rm -f "$obj/$o"; done

msg "ia64: building vmlinux (about 5 min from scratch on 2 cores; log $log)"
start=$(date +%s)
if run_logged "$log" ia64_make "$SRC" "$obj" -j"$JOBS" vmlinux; then
	record vmlinux pass "built in $(( $(date +%s) - start )) s" "$log"
else
	record vmlinux fail "the build failed" "$log"
	finish
fi

# Warnings of the compiler (file:line:col: warning:) and of the assembler
# (file:line: Warning:) in the files the series touches.
warned=$(touched_warnings "$log" "${touched[@]}" | grep ': warning: ' || true)
built=0
for o in "${objs[@]}"; do [ -f "$obj/$o" ] && built=$((built + 1)); done
if [ -z "$warned" ]; then
	record warnings pass "$built objects of touched files rebuilt, no warning" "$log"
else
	record warnings fail "$(printf '%s\n' "$warned" | sed -n 1,5p | tr '\n' ' ')" "$log"
fi

# sparse on the C files of the touched objects that this config builds,
# compared with sparse on the same files of the base: the series must add
# no warning.  Several of these files have warnings of their own in 6.1
# (posix-timers.c's lock contexts, ia64's undeclared globals); the check
# counts them and lets them be.  Warnings compare as "file: message",
# without line numbers, which the series shifts.
cobjs=()
for o in "${objs[@]}"; do
	[ -f "$SRC/${o%.o}.c" ] && [ -f "$obj/$o" ] && cobjs+=("$o")
done
sparse_run() {  # sparse_run SRC OBJ LOG
	local have=() f
	for f in "${cobjs[@]}"; do [ -f "$1/${f%.o}.c" ] && have+=("$f"); done
	[ ${#have[@]} -gt 0 ] || { : >"$3"; return 0; }
	ia64_make "$1" "$2" -j"$JOBS" C=2 "${have[@]}" >"$3" 2>&1 || true
}
msg "ia64: sparse on ${#cobjs[@]} files, and on the same files of the base"
sparse_run "$SRC" "$obj" "$log.sparse"
# The base's warnings change only with the files checked and the config
# fragment: its log is kept with that key and reused while it holds.
bobj=$obj-base
key="$(git -C "$SRC" rev-parse "$base") ${cobjs[*]} $(sha256sum <"$TOP/configs/ia64-series.config")"
if [ -f "$bobj/sparse.log" ] && key_matches "$bobj/sparse.key" "$key"; then
	cp "$bobj/sparse.log" "$log.sparse-base"
else
	"$TOP/scripts/tree.sh" base-tree
	# The series' own options are unknown to the base: merge_config.sh
	# notes them.
	ia64_kconfig "$BASE_SRC" "$bobj" "$log.base-config" || die "ia64: configuring the base failed"
	sparse_run "$BASE_SRC" "$bobj" "$log.sparse-base"
	cp "$log.sparse-base" "$bobj/sparse.log"
	echo "$key" >"$bobj/sparse.key"
fi
new=$(comm -23 <(touched_warnings "$log.sparse" "${touched[@]}") <(touched_warnings "$log.sparse-base" "${touched[@]}"))
old=$(touched_warnings "$log.sparse-base" "${touched[@]}" | grep -c . || true)
if [ -z "$new" ]; then
	record sparse pass "${#cobjs[@]} files, no warning added ($old of the base's own)" "$log.sparse"
else
	record sparse fail "added: $(printf '%s\n' "$new" | sed -n 1,5p | tr '\n' ' ')" "$log.sparse"
fi

msg "ia64: checking the fastcalls on the disassembly"
tmp=$(mktemp)
python3 "$TOP/scripts/ia64-fsys-check.py" --vmlinux "$obj/vmlinux" \
	--unistd "$obj/arch/ia64/include/generated/uapi/asm/unistd_64.h" \
	--out "$tmp" || true
[ -s "$tmp" ] && while IFS= read -r r; do rows+=("$r"); done < <(python3 -c '
import json, sys
for r in json.load(open(sys.argv[1])): print(json.dumps(r))' "$tmp")
nfail=$((nfail + $(python3 -c '
import json, sys
print(sum(r["status"] == "fail" for r in json.load(open(sys.argv[1]))))' "$tmp")))
rm -f "$tmp"
finish
