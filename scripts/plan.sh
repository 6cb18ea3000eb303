#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Read the test plan (plan/boots, plan/tests): data, not code.
#
#   plan.sh boots [NAME...]     print the boots: name smp limit suites append
#   plan.sh lists KSFT OUTDIR   write OUTDIR/NAME, the guest's run list of
#                               each boot: collection TAB test TAB timeout
#                               TAB args
#
# A boot's suites are comma-separated words:
#   kunit            the KUnit KTAP the kernel prints at boot
#   COLLECTION       every test kselftest's emit_tests lists for it
#   COLLECTION-extended  the collection's TEST_GEN_PROGS_EXTENDED
#   COLLECTION:TEST  one test;  -COLLECTION:TEST  leaves one out
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# PLAN_BOOTS: one plan file or several (make test-full: plan/boots and
# plan/boots-long), read in that order.
BOOTS=()
for f in ${PLAN_BOOTS:-plan/boots}; do
	[[ $f == /* ]] || f=$TOP/$f
	[ -f "$f" ] || die "no plan $f"
	BOOTS+=("$f")
done
TESTS=${PLAN_TESTS:-plan/tests}
[[ $TESTS == /* ]] || TESTS=$TOP/$TESTS
DEFAULT_TIMEOUT=300

# Boot lines, comments and blanks dropped; "-" means no extra arguments.
boots() {
	local name smp limit suites append
	while read -r name smp limit suites append; do
		case $name in ""|"#"*) continue ;; esac
		[ "$append" = - ] && append=
		if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qxF "$name"; then
			continue
		fi
		[[ $smp =~ ^[0-9]+$ && $limit =~ ^[0-9]+$ ]] ||
			die "plan/boots: boot '$name': smp and limit must be numbers"
		printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$smp" "$limit" "$suites" "$append"
	done < <(cat "${BOOTS[@]}")
}

# test_settings ID BOOT: "timeout<TAB>args" for collection:test ID in BOOT:
# plan/tests' line "ID@BOOT" if there is one, else its line "ID".
test_settings() {
	local id t a want
	for want in "$1@$2" "$1"; do
		while read -r id t a; do
			case $id in ""|"#"*) continue ;; esac
			[ "$id" = "$want" ] || continue
			[ "$a" = - ] && a=
			printf '%s\t%s\n' "$t" "$a"
			return
		done <"$TESTS"
	done
	printf '%s\t\n' "$DEFAULT_TIMEOUT"
}

# expand KSFT SUITES: the selftest ids a boot runs, in order.
expand() {
	local ksft=$1 w ids=() drop=()
	IFS=, read -r -a words <<<"$2"
	for w in "${words[@]}"; do
		case $w in
		kunit) ;;
		-*) drop+=("${w#-}") ;;
		*:*) ids+=("$w") ;;
		*-extended)
			[ -f "$ksft/${w%-extended}.extended.list" ] ||
				die "plan: suite '$w': no collection ${w%-extended} was built"
			mapfile -t -O ${#ids[@]} ids <"$ksft/${w%-extended}.extended.list" ;;
		*)
			[ -f "$ksft/$w.list" ] || die "plan: suite '$w': no collection $w was built"
			mapfile -t -O ${#ids[@]} ids <"$ksft/$w.list" ;;
		esac
	done
	for w in "${ids[@]}"; do
		printf '%s\n' "${drop[@]}" | grep -qxF "$w" || echo "$w"
	done
}

lists() {
	local ksft=$1 dir=$2 name smp limit suites append id
	mkdir -p "$dir"
	while IFS=$'\t' read -r name smp limit suites append; do
		: >"$dir/$name"
		for id in $(expand "$ksft" "$suites"); do
			if [ ! -x "$ksft/${id%%:*}/${id#*:}" ]; then
				# The unpatched base lacks the tests the series adds.
				[ "${PLAN_MISSING:-}" = skip ] ||
					die "plan: boot '$name' lists $id, which was not built"
				warn "plan: boot '$name': $id is not in this tree; left out"
				continue
			fi
			printf '%s\t%s\t%s\n' "${id%%:*}" "${id#*:}" "$(test_settings "$id" "$name")" >>"$dir/$name"
		done
	done < <(boots)
}

case ${1:-} in
boots) shift; boots "$@" ;;
lists) lists "$2" "$3" ;;
*) die "usage: plan.sh boots [NAME...] | lists KSFT OUTDIR" ;;
esac
