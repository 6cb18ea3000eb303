#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Read the test plan (plan/boots, plan/tests): data, not code.
#
#   plan.sh boots [NAME...]     print the boots: name smp limit suites append
#   plan.sh lists KSFT OUTDIR   write OUTDIR/NAME, the guest's run list of
#                               each boot: collection TAB test TAB timeout
#                               TAB args
#   plan.sh check-selection     fail on a BOOTS=, T= or KUNIT= that cannot
#                               select anything, without the built tests
#                               (make test runs it before it builds)
#   plan.sh list                make list: every boot, what it runs by the
#                               names T= takes, and the built kernel's
#                               KUnit suites by the name KUNIT= takes
#
# A boot's suites are comma-separated words:
#   kunit            the KUnit KTAP the kernel prints at boot
#   COLLECTION       every test kselftest's emit_tests lists for it
#   COLLECTION-extended  the collection's TEST_GEN_PROGS_EXTENDED
#   COLLECTION:TEST  one test;  -COLLECTION:TEST  leaves one out
#
# Selection (make test T=... KUNIT=... BOOTS=...), from the environment:
#   T="ITEM..."   items separated by commas or spaces: COLLECTION:TEST
#                 (timers:cpu-lag, th:skew-check), a whole COLLECTION
#                 (timers, vDSO-x32), or kunit.  Each boot runs the items
#                 its own suites include (the tests it would run anyway,
#                 with their plan/tests settings) and nothing else; a boot
#                 left with nothing is not listed.  An item no boot runs is
#                 an error.
#   BOOTS="NAME..."  (plan.sh boots: the NAME arguments) the named boots
#                 run the items even where their suites do not list them:
#                 COLLECTION:TEST as it is, COLLECTION as the boot's own
#                 tests of it, or, if it has none, the collection's list.
#   KUNIT=GLOB    the boots that run KUnit get kunit.filter_glob=GLOB (the
#                 kernel's own parameter); KUNIT= is the item kunit too,
#                 so with no T= the boots are narrowed to KUnit alone.
# Selection needs the built tests to expand the collections: plan.sh
# boots reads them from PLAN_KSFT (default build/out/FLAVOUR/ksft).  With
# neither T= nor KUNIT=, BOOTS= only picks boots, and lists writes every
# boot's whole list.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# PLAN_BOOTS: one plan file or several (make test-full: plan/boots and
# plan/boots-long), read in that order.
PLANS=()
for f in ${PLAN_BOOTS:-$(default_plan_boots)}; do
	[[ $f == /* ]] || f=$TOP/$f
	[ -f "$f" ] || die "no plan $f"
	PLANS+=("$f")
done
TESTS=${PLAN_TESTS:-plan/tests}
[[ $TESTS == /* ]] || TESTS=$TOP/$TESTS
DEFAULT_TIMEOUT=300

# The selection's items, KUNIT= as the item kunit; none without T=/KUNIT=.
ITEMS=()
read -r -a words <<<"$(tr ',' ' ' <<<"${T:-}") ${KUNIT:+kunit}"
for w in "${words[@]}"; do
	[[ $w =~ ^([A-Za-z0-9_.-]+)(:[A-Za-z0-9_.-]+)?$ ]] ||
		die "T='${T:-}': '$w' is not COLLECTION:TEST, COLLECTION or kunit"
	in_list "$w" "${ITEMS[@]}" || ITEMS+=("$w")
done
[[ ${KUNIT:-} =~ ^[^[:space:]]*$ ]] || die "KUNIT='$KUNIT': one glob, no spaces"

# Boot lines, comments and blanks dropped; "-" means no extra arguments.
plan_boots() {
	local name smp limit suites append
	while read -r name smp limit suites append; do
		case $name in ""|"#"*) continue ;; esac
		[ "$append" = - ] && append=
		if [ $# -gt 0 ] && ! in_list "$name" "$@"; then
			continue
		fi
		[[ $smp =~ ^[0-9]+$ && $limit =~ ^[0-9]+$ ]] ||
			die "plan/boots: boot '$name': smp and limit must be numbers"
		printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$smp" "$limit" "$suites" "$append"
	done < <(cat "${PLANS[@]}")
}

# boots [NAME...]: the boots of the plan (those NAMEd, if any), each
# narrowed to the selection when there is one.  A selection without NAMEs
# runs on the series' own kernel where it can: a boot on another kernel
# (th.kernel=debug, base or i386) only for an item no boot on the series'
# kernel runs, so that T= and KUNIT= build no kernel they do not need;
# KUnit alone (KUNIT= without T=) boots once.
boots() {
	[ ${#ITEMS[@]} -gt 0 ] || { plan_boots "$@"; return; }
	local ksft=${PLAN_KSFT:-$(out_dir "$(flavour_of_series)")/ksft}
	local named=0 name smp limit suites append item used=" " own=" " i
	local -a lines=() hits=() others=()
	[ $# -gt 0 ] && named=1
	[ -d "$ksft" ] || die "plan: T=/KUNIT= need the built tests: no $ksft"
	while IFS=$'\t' read -r name smp limit suites append; do
		select_boot "$ksft" "$name" "$suites" "$named"
		[ ${#sel[@]} -gt 0 ] || continue
		suites=$(IFS=,; echo "${sel[*]}")
		[ -n "${KUNIT:-}" ] && [ "${sel[0]}" = kunit ] &&
			append="${append:+$append }kunit.filter_glob=$KUNIT"
		lines+=("$(printf '%s\t%s\t%s\t%s\t%s' "$name" "$smp" "$limit" "$suites" "$append")")
		hits+=(" ${hit[*]} ")
		if [ -n "$(other_kernel "$append")" ]; then
			others+=(1)
		else
			others+=(0)
			for item in "${hit[@]}"; do own+="$item "; done
		fi
	done < <(plan_boots "$@")
	local kunit_only=0 kunit_done=0
	[ $named = 0 ] && [ "${ITEMS[*]}" = kunit ] && kunit_only=1
	for i in "${!lines[@]}"; do
		if [ $named = 0 ] && [ "${others[$i]}" = 1 ]; then
			local needed=0
			for item in ${hits[$i]}; do
				[[ $own == *" $item "* ]] || needed=1
			done
			[ $needed = 1 ] || continue
		fi
		if [ $kunit_only = 1 ]; then
			[ $kunit_done = 0 ] || continue
			kunit_done=1
		fi
		for item in ${hits[$i]}; do used+="$item "; done
		printf '%s\n' "${lines[$i]}"
	done
	for item in "${ITEMS[@]}"; do
		[[ $used == *" $item "* ]] && continue
		[[ $item != *:* ]] || built "$ksft" "$item" ||
			die "T: $item was not built (no $ksft/${item%%:*}/${item#*:})"
		[ $named = 1 ] && die "T=/KUNIT=: '$item': nothing of it is in this tree"
		die "T=/KUNIT=: no boot of ${PLAN_BOOTS:-$(default_plan_boots)} runs '$item' (BOOTS=NAME runs it in boot NAME)"
	done
}

# built KSFT ID: the test ID was built (the base lacks the series' tests).
built() { [ -x "$1/${2%%:*}/${2#*:}" ]; }

# select_boot KSFT NAME SUITES NAMED: the selection's part of one boot:
# sel, its suites ("kunit" first if it runs KUnit, then its tests, in the
# boot's order, then those it runs only because it is NAMED), and hit, the
# items that selected something.  Under PLAN_MISSING=skip a test that was
# not built is left out, as lists leaves it out.
select_boot() {
	local ksft=$1 name=$2 suites=$3 named=$4 item id ids=() want=() extra=() found
	sel=() hit=()
	for id in $(expand "$ksft" "$suites"); do
		built "$ksft" "$id" || [ "${PLAN_MISSING:-}" != skip ] && ids+=("$id")
	done
	for item in "${ITEMS[@]}"; do
		found=0
		case $item in
		kunit)
			if [[ ,$suites, == *,kunit,* ]] || [ "$named" = 1 ]; then
				found=1
				want+=(kunit)
			fi ;;
		*:*)
			if in_list "$item" "${ids[@]}"; then
				found=1
				want+=("$item")
			elif [ "$named" = 1 ]; then
				if built "$ksft" "$item"; then
					found=1
					extra+=("$item")
				elif [ "${PLAN_MISSING:-}" = skip ]; then
					warn "plan: boot '$name': $item is not in this tree; left out"
				else
					die "T: $item was not built (no $ksft/${item%%:*}/${item#*:})"
				fi
			fi ;;
		*)
			for id in "${ids[@]}"; do
				[ "${id%%:*}" = "$item" ] && { found=1; want+=("$id"); }
			done
			if [ $found = 0 ] && [ "$named" = 1 ]; then
				[ -f "$ksft/$item.list" ] ||
					die "T: '$item': no such collection with a list in $ksft (name its tests, $item:TEST)"
				for id in $(expand "$ksft" "$item"); do
					built "$ksft" "$id" || [ "${PLAN_MISSING:-}" != skip ] || continue
					found=1
					extra+=("$id")
				done
			fi ;;
		esac
		[ $found = 1 ] && hit+=("$item")
	done
	in_list kunit "${want[@]}" && sel+=(kunit)
	for id in "${ids[@]}" "${extra[@]}"; do
		in_list "$id" "${want[@]}" "${extra[@]}" || continue
		in_list "$id" "${sel[@]}" || sel+=("$id")
	done
}

# check_selection: every name of BOOTS= is a boot of the plan, and each
# item's collection one a boot of the plan names, so that a misspelt
# BOOTS= or T= fails at once rather than after the build; kunit needs a
# boot with KUnit, or BOOTS=.  plan.sh boots, once the tests are
# built, checks the tests themselves.
check_selection() {
	local words item c name
	for name in ${BOOTS:-}; do
		grep -qxF -- "$name" <<<"$(plan_boots | cut -f1)" ||
			die "BOOTS: no boot '$name' in ${PLAN_BOOTS:-$(default_plan_boots)}"
	done
	words=$(plan_boots | cut -f4 | tr ',' '\n' | sed 's/^-//; s/:.*//; s/-extended$//' | sort -u)
	for item in "${ITEMS[@]}"; do
		c=${item%%:*}
		[ "$c" != kunit ] || [ -n "${BOOTS:-}" ] || grep -qx kunit <<<"$words" ||
			die "T=/KUNIT=: no boot of ${PLAN_BOOTS:-$(default_plan_boots)} runs KUnit"
		[ "$c" = kunit ] || grep -qxF -- "$c" <<<"$words" ||
			die "T: '$item': no boot of ${PLAN_BOOTS:-$(default_plan_boots)} runs collection $c (known: $(tr '\n' ' ' <<<"$words"))"
	done
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
		in_list "$w" "${drop[@]}" || echo "$w"
	done
}

# lists KSFT DIR: the run lists; with a selection, of the selected boots
# alone (BOOTS= from the environment), narrowed.
lists() {
	local ksft=$1 dir=$2 name smp limit suites append id plan
	local -a names=()
	[ ${#ITEMS[@]} -gt 0 ] && read -r -a names <<<"${BOOTS:-}"
	plan=$(PLAN_KSFT=$ksft boots "${names[@]}")
	mkdir -p "$dir"
	while IFS=$'\t' read -r name smp limit suites append; do
		[ -n "$name" ] || continue
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
	done <<<"$plan"
}

# kunit_suites: the KUnit suites built into the kernel, by name: those of
# the C files its objects were compiled from (a suite's file may be
# #included by another, as time_interpolator_test.c is; the .cmd files
# list both).
kunit_suites() {
	local obj
	obj=$(obj_dir "$(flavour_of_series)")
	echo
	if ! compgen -G "$obj/kernel/time/.*.o.cmd" >/dev/null; then
		echo "KUnit suites: none listed, no kernel built in $obj yet (make kernel)"
		return
	fi
	echo "KUnit suites of the kernel built in ${obj#"$TOP"/} (KUNIT=NAME or a glob):"
	local -a srcs
	mapfile -t srcs < <(find "$obj" -name '.*.o.cmd' -print0 |
		xargs -0 grep -ho '[^ :=]*\.c\b' | sort -u |
		xargs grep -l 'struct kunit_suite' 2>/dev/null || true)
	[ ${#srcs[@]} -gt 0 ] || { echo "  (none)"; return; }
	sed -n '/struct kunit_suite .* = {/,/};/s/^[[:space:]]*\.name = "\([^"]*\)".*/  \1/p' \
		"${srcs[@]}" | sort -u
}

# list_plan: make list.  Each boot's tests by the names T= takes, expanded
# from the built collections when make test or make run built them
# (otherwise as the plan writes them); kunit where the boot runs KUnit.
list_plan() {
	local ksft=${PLAN_KSFT:-$(out_dir "$(flavour_of_series)")/ksft}
	local name smp limit suites append w words
	echo "BASE=$BASE: ${PLAN_BOOTS:-$(default_plan_boots)}, $(plan_boots | wc -l) boots"
	[ -d "$ksft" ] || echo "(the tests are not built yet: collections shown unexpanded)"
	while IFS=$'\t' read -r name smp limit suites append; do
		printf '\nboot %s: -smp %s, %s s; kernel arguments: %s\n' \
			"$name" "$smp" "$limit" "${append:--}"
		[[ ",$suites," == *,kunit,* ]] && echo "  kunit"
		if [ -d "$ksft" ]; then
			expand "$ksft" "$suites" | sed 's/^/  /'
		else
			IFS=, read -r -a words <<<"$suites"
			for w in "${words[@]}"; do [ "$w" = kunit ] || echo "  $w"; done
		fi
	done < <(plan_boots)
	kunit_suites
}

case ${1:-} in
list) list_plan ;;
boots) shift; boots "$@" ;;
lists) lists "$2" "$3" ;;
check-selection) check_selection ;;
*) die "usage: plan.sh boots [NAME...] | lists KSFT OUTDIR | check-selection | list" ;;
esac
