#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The user-facing flows.
#   run.sh kernel   tree, kernel, tests, initramfs for the chosen flavour
#   run.sh run      ...then boot once and show the clocks (SMP, APPEND)
#   run.sh test     harness self-tests, then every boot of plan/boots
#                   (BOOTS="a b" to pick some), then the verdict
#   run.sh boot     boot with RUN="prog args" (a static binary of yours),
#                   APPEND and SMP; prints its output and exit status;
#                   RUN_FILES="a b" are put beside the program;
#                   BOOT_TAG=name keeps its files apart from another
#                   make boot running at the same time
# SERIES=none does any of them on the unpatched base.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=$(flavour_of_series)
S=$TOP/scripts
RESULTS=$BUILD/results

prepare() {
	local t0=$SECONDS
	"$S/tree.sh" sync
	[ "$flavour" = base ] && "$S/tree.sh" base-tree
	"$S/build-kernel.sh" "$flavour"
	# The boots of plan/boots that ask for it run on the debug kernel.
	if [ "$flavour" = patched ] && [ "${1:-}" = test ] &&
		"$S/plan.sh" boots ${BOOTS:-} | grep -q 'th\.kernel=debug'; then
		"$S/build-kernel.sh" debug
	fi
	"$S/build-tests.sh" "$flavour"
	"$S/initramfs.sh" "$flavour"
	msg "ready in $((SECONDS - t0)) s: $(cat "$(obj_dir "$flavour")/include/config/kernel.release")"
}

# between FROM TO LOG: the lines of LOG from the one starting FROM to TO.
between() { awk -v a="$1" -v b="$2" 'index($0, a) == 1 {p = 1; next} index($0, b) == 1 {exit} p' "$3" | tr -d '\r'; }

cmd_run() {
	prepare
	local log=$LOGS/run.log smp=${SMP:-2} rc=0
	msg "booting: QEMU TCG, -smp $smp (log $log)"
	"$S/boot.sh" "$flavour" "$log" "$smp" "${LIMIT:-120}" "quiet th.mode=run ${APPEND:-}" || rc=$?
	echo
	between TH-CLOCKS TH-DONE "$log"
	echo
	grep -q '^TH-DONE rc=0' "$log" ||
		die "the guest did not show its clocks (QEMU status $rc); console: $log"
	[ $rc -eq 0 ] || die "QEMU exited with status $rc; console: $log"
	msg "guest powered off; full console in $log"
}

cmd_boot() {
	[ -n "${RUN:-}" ] || die 'make boot needs RUN="path/to/static-program [args]"'
	local tag=${BOOT_TAG:+-$BOOT_TAG}
	local prog args initrd udir log=$LOGS/boot$tag.log rc=0
	read -r prog args <<<"$RUN"
	[ -f "$prog" ] || die "RUN: no program $prog"
	readelf -l "$prog" 2>/dev/null | grep -q 'program interpreter' &&
		warn "$prog is dynamically linked; the guest has only the libraries the tests need"
	# BOOT_PREPARED=1: the caller ran "run.sh kernel" for this flavour.
	[ "${BOOT_PREPARED:-0}" = 1 ] || prepare
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
	# The program's output, live: the console between the guest's markers.
	set +e
	SHOW=1 "$S/boot.sh" "$flavour" "$log" "${SMP:-2}" "${LIMIT:-600}" \
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

cmd_test() {
	local t0=$SECONDS
	rm -rf "$RESULTS" && mkdir -p "$RESULTS"
	msg "harness self-tests (host)"
	"$S/harness-test.sh" "$RESULTS/harness.json"
	prepare test
	local plan name smp limit suites append i=0 n rc kunit log
	plan=$("$S/plan.sh" boots ${BOOTS:-})
	[ -n "$plan" ] || die "no boot of plan/boots matches BOOTS='${BOOTS:-}'"
	n=$(printf '%s\n' "$plan" | wc -l)
	while IFS=$'\t' read -r name smp limit suites append; do
		i=$((i + 1))
		log=$LOGS/boot-$name.log
		msg "[$i/$n] boot '$name': -smp $smp, '${append}', suites $suites (limit ${limit} s)"
		local b0=$SECONDS
		rc=0
		"$S/boot.sh" "$flavour" "$log" "$smp" "$limit" \
			"th.mode=test th.boot=$name $append" || rc=$?
		kunit=
		[[ ,$suites, == *,kunit,* ]] && kunit=--kunit
		python3 "$S/results.py" boot --log "$log" --boot "$name" \
			--list "$(out_dir "$flavour")/root/plan/$name" $kunit \
			--known "$TOP/plan/known-failures" --qemu-status "$rc" \
			--limit "$limit" --out "$RESULTS/boot-$name.json"
		msg "[$i/$n] boot '$name' took $((SECONDS - b0)) s"
	done <<<"$plan"
	if [ "$flavour" = patched ]; then
		msg "vdso-host: the series' vdso64.so on the host, between guard pages"
		"$S/vdso-check.sh" "$RESULTS/vdso-host.json" || true
	fi
	if [ "$flavour" = patched ] && [ "${IA64:-1}" != 0 ]; then
		local b0=$SECONDS
		msg "ia64: cross build and fastcall checks (make ia64; IA64=0 skips)"
		"$S/ia64.sh" "$RESULTS/ia64.json" || true
		[ -s "$RESULTS/ia64.json" ] ||
			echo '[{"boot": "ia64", "test": "ia64:run", "status": "fail", "detail": "scripts/ia64.sh stopped before its results", "log": "build/logs/ia64-build.log"}]' >"$RESULTS/ia64.json"
		msg "ia64 took $((SECONDS - b0)) s"
	fi
	echo
	msg "make test: $(cat "$(obj_dir "$flavour")/include/config/kernel.release"), $n boot(s), $((SECONDS - t0)) s; logs in $LOGS"
	python3 "$S/results.py" summary "$RESULTS"/*.json
}

case ${1:-} in
kernel) prepare ;;
run) cmd_run ;;
test) cmd_test ;;
boot) cmd_boot ;;
*) die "usage: run.sh kernel|run|test|boot" ;;
esac
