#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: what a maintainer checks before taking the series.
#   - patches/ matches build/linux, and an unchanged tree exports
#     byte-identically;
#   - the series applies to the base with git am (make tree) and with
#     patch -p1, and both give the same tree;
#   - scripts/checkpatch.pl --strict on every patch: no errors; a patch
#     with warnings says "checkpatch" in its message, arguing them;
#   - every prefix of the series builds the x86_64 guest config plus the
#     series' fragment (bisectable), in its own object directory.
#   - every prefix from the first ia64 patch on cross-builds for ia64, with
#     no warning in the files the series touches (when the cross compiler
#     is cached: scripts/ia64-toolchain.sh);
#   - every prefix cross-builds for 32-bit arm (no syscall wrapper), a
#     tinyconfig with an MMU and CONFIG_POSIX_TIMERS=n, with no warning in
#     the files the series touches (scripts/check-arm.sh; the syscalls
#     arm does not wire up are notes);
#   - clock_gettime_ns is in the syscall table of every architecture that
#     Debian 12 has a cross compiler for: the kernel's own
#     scripts/checksyscalls.sh, run by make prepare0 of each arch's
#     defconfig, and on arm64's compat table, has no "#warning syscall
#     clock_gettime_ns not implemented" (scripts/check-syscalls.sh; the
#     base's own warnings are notes);
#   - every file the series adds is under its MAINTAINERS entry
#     (get_maintainer.pl), and the entry is in parse-maintainers.pl order;
#   - scripts/kernel-doc adds no warning to the touched C files and
#     headers, every symbol the series exports has kernel-doc, and
#     make SPHINXDIRS=timers htmldocs adds no warning and shows them;
#   - the whole series builds x86_64 allnoconfig and defconfig, and i386
#     defconfig (the defconfigs plus KUnit and the series' suites), with
#     no warning in the touched files, and W=1 and sparse (C=2) add none
#     to those files against the base; the sparse is one the kernel's
#     Kbuild accepts (scripts/sparse.sh), and a run where Kbuild drops
#     it fails.
# SERIES=core checks the first posting alone (build/linux then holds it
# alone: make tree follows SERIES).
# CHECK_BISECT=0 skips the x86 prefix builds (a few minutes a patch);
# CHECK_IA64=0 the ia64 ones; CHECK_ARM=0 the arm ones; CHECK_SYSCALLS=0
# the syscall tables of the other architectures; CHECK_FULL=0 the
# allnoconfig, defconfig and i386 builds and W=1/sparse.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fails=0
step() { printf '\n==> check: %s\n' "$*"; }
show() { sed -n "1,${2:-10}p" <<<"$1" | sed 's/^/      /'; }
bad() { printf 'check FAILED: %s\n' "$*"; fails=$((fails + 1)); }

"$TOP/scripts/deps.sh" sparse python3-sphinx python3-sphinx-rtd-theme
# build/linux follows patches/ and SERIES (it keeps work of its own).
"$TOP/scripts/tree.sh" sync || exit 1
"$TOP/scripts/tree.sh" series-check || exit 1
# The series' own options (its KUnit suites): unknown to the early
# prefixes and to the base, where merge_config.sh only notes them.
series_frag=("$TOP/configs/x86_64-series.config")
mapfile -t touched < <(g diff --name-only "$BASE_TAG" HEAD)
mapfile -t series < <("$TOP/scripts/tree.sh" series-list)
n=${#series[@]}

step "export is stable"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; g worktree remove --force "$BUILD/check-wt" >/dev/null 2>&1 || true' EXIT
"$TOP/scripts/tree.sh" export >/dev/null
[ -z "$(git -C "$TOP" status --porcelain -- patches)" ] ||
	bad "make export of an unchanged tree rewrote patches/ ($(git -C "$TOP" status --porcelain -- patches | sed -n 1,3p | tr '\n' ' '))"

step "the series applies with patch -p1 and gives the tree git am gave"
wt=$BUILD/check-wt
g worktree remove --force "$wt" >/dev/null 2>&1 || rm -rf "$wt"
g worktree prune
g worktree add -q --detach "$wt" "$BASE_TAG"
for p in "${series[@]}"; do
	if ! patch -d "$wt" -p1 --batch --quiet --no-backup-if-mismatch <"$PATCHES/$p" >"$tmp/patch.log" 2>&1; then
		bad "patch -p1 < $p: $(head -n 3 "$tmp/patch.log" | tr '\n' ' ')"
		break
	fi
done
git -C "$wt" add -A -f .
[ "$(git -C "$wt" write-tree)" = "$(g rev-parse 'HEAD^{tree}')" ] ||
	bad "patch -p1 gives a tree other than git am's: $(git -C "$wt" diff --cached --stat HEAD "$(g rev-parse HEAD)" | tail -n 1)"

if [ "$POSTINGS_APART" = 1 ]; then
	step "each posting applies on the base alone"
	for d in $(selected_postings); do
		git -C "$wt" reset -q --hard "$BASE_TAG"
		git -C "$wt" clean -q -fdx
		alone=ok
		for p in "${series[@]}"; do
			[ "${p%%/*}" = "$d" ] || continue
			git -C "$wt" apply --index "$PATCHES/$p" >"$tmp/patch.log" 2>&1 && continue
			bad "posting $d alone: $p: $(head -n 3 "$tmp/patch.log" | tr '\n' ' ')"
			alone=
			break
		done
		[ -z "$alone" ] || echo "  $d: applies on the base alone"
	done
fi

step "checkpatch --strict on $n patch(es)"
for p in "${series[@]}"; do
	out=$(cd "$SRC" && scripts/checkpatch.pl --strict --no-tree -q "$PATCHES/$p" 2>&1 || true)
	e=$(grep -c '^ERROR:' <<<"$out" || true)
	w=$(grep -c -E '^(WARNING|CHECK):' <<<"$out" || true)
	printf '  %-60s %d error(s), %d warning(s)/check(s)\n' "$p" "$e" "$w"
	[ "$w" -eq 0 ] || grep -E '^(WARNING|CHECK):' <<<"$out" | sed 's/^/      /'
	[ "$e" -eq 0 ] || { grep -A3 '^ERROR:' <<<"$out" | sed 's/^/      /'; bad "checkpatch errors in $p"; }
	# A warning stays only with its reason in the commit message.
	# (The message is read whole first: sed | grep -q under pipefail
	# fails when grep quits before sed has written all, 6 times in 50.)
	body=$(sed -n '/^Subject:/,/^---$/p' "$PATCHES/$p")
	if [ "$w" -gt 0 ] && ! grep -q checkpatch <<<"$body"; then
		bad "$p: checkpatch warnings, and its message does not argue them"
	fi
done

# The patch -p1 step left its result staged in the worktree.
git -C "$wt" reset -q --hard
if [ "${CHECK_BISECT:-1}" = 1 ] && [ "$n" -gt 0 ]; then
	step "every prefix of the series builds (x86_64 guest config)"
	obj=$BUILD/kbuild/check
	mkdir -p "$obj"
	i=0
	for c in $(g rev-list --reverse "$BASE_TAG"..HEAD); do
		i=$((i + 1))
		git -C "$wt" checkout -q --detach "$c"
		git -C "$wt" clean -q -fdx
		printf '  [%d/%d] %s\n' "$i" "$n" "$(g log -1 --format=%s "$c")"
		if ! { kconfig x86_make "$wt" "$obj" "$tmp/config.log" tinyconfig \
			"$TOP/configs/x86_64-guest.config" "${series_frag[@]}" &&
		       x86_make "$wt" "$obj" -s LOCALVERSION= -j"$JOBS" bzImage >"$tmp/build.log" 2>&1; }; then
			show "$(grep -E 'error|warning' "$tmp/build.log")"
			bad "patch $i ($(g log -1 --format=%s "$c")) does not build"
		else
			w=$(grep 'warning:' "$tmp/build.log" || true)
			[ -z "$w" ] || { show "$w"; bad "patch $i adds compiler warnings"; }
		fi
	done
fi

# The ia64 cross build (scripts/ia64.sh) of every prefix from the first
# patch that touches arch/ia64 on, when the cross compiler is cached
# (scripts/ia64-toolchain.sh builds it; CHECK_IA64=0 skips this).
first_ia64=$(g log --reverse --format=%H "$BASE_TAG"..HEAD -- arch/ia64 | sed -n 1p)
if [ "${CHECK_IA64:-1}" = 1 ] && [ -n "$first_ia64" ]; then
	if [ ! -x "$IA64_CACHE/bin/ia64-linux-gnu-gcc" ]; then
		step "ia64 prefixes: skipped, no cached cross compiler (run make ia64 once)"
	else
		step "every prefix from the first ia64 patch builds (ia64, allnoconfig + configs/ia64-series.config)"
		obj=$BUILD/kbuild/check-ia64
		mkdir -p "$obj"
		i=$(g rev-list --count "$BASE_TAG".."$first_ia64^")
		for c in $(g rev-list --reverse "$first_ia64^"..HEAD); do
			i=$((i + 1))
			git -C "$wt" checkout -q --detach "$c"
			git -C "$wt" clean -q -fdx
			printf '  [%d/%d] %s\n' "$i" "$n" "$(g log -1 --format=%s "$c")"
			if ! { ia64_kconfig "$wt" "$obj" "$tmp/config.log" &&
			       ia64_make "$wt" "$obj" -s -j"$JOBS" vmlinux >"$tmp/build.log" 2>&1; }; then
				show "$(grep -E 'error|warning' "$tmp/build.log")"
				bad "patch $i ($(g log -1 --format=%s "$c")) does not build for ia64"
			else
				w=$(touched_warnings "$tmp/build.log" "${touched[@]}" | grep ': warning: ' || true)
				[ -z "$w" ] || { show "$w"; bad "patch $i adds warnings to the ia64 build"; }
			fi
		done
	fi
fi

# The arm cross build of every prefix, POSIX timers off (posix-stubs.c),
# in a worktree and object directory of its own (CHECK_ARM=0 skips this).
if [ "${CHECK_ARM:-1}" = 1 ] && [ "$n" -gt 0 ]; then
	step "every prefix builds for arm (tinyconfig + ARMv7, POSIX_TIMERS=n)"
	"$TOP/scripts/check-arm.sh" || bad "a prefix does not build for arm, or warns (scripts/check-arm.sh)"
fi

# clock_gettime_ns in every architecture's syscall table, as the kernel's
# scripts/checksyscalls.sh sees it, on the series' head, for each arch
# Debian 12 has a cross compiler for (CHECK_SYSCALLS=0 skips this).
if [ "${CHECK_SYSCALLS:-1}" = 1 ] && [ "$n" -gt 0 ]; then
	step "clock_gettime_ns is wired on every arch with a Debian cross compiler (checksyscalls.sh)"
	"$TOP/scripts/check-syscalls.sh" ||
		bad "an arch lacks clock_gettime_ns, or could not be checked (scripts/check-syscalls.sh)"
fi

# The full series, in a worktree of its own that stays at HEAD between runs
# (a checkout rewrites only the files that changed, so an unchanged series
# rebuilds nothing).
full=$BUILD/check-full
if [ "$(git -C "$full" rev-parse --git-common-dir 2>/dev/null)" != "$(g rev-parse --absolute-git-dir)" ]; then
	rm -rf "$full"
	g worktree prune
	g worktree add -q --detach "$full" HEAD
fi
git -C "$full" checkout -q --detach "$(g rev-parse HEAD)"
git -C "$full" clean -q -fdx
"$TOP/scripts/tree.sh" base-tree
# added_warnings PATCHED_LOG BASE_LOG: the touched files' warnings that the
# base's log does not have.
added_warnings() {
	comm -23 <(touched_warnings "$1" "${touched[@]}") <(touched_warnings "$2" "${touched[@]}")
}

step "MAINTAINERS names the series' owner for every file it adds"
mapfile -t added < <(g diff --name-only --diff-filter=A "$BASE_TAG" HEAD)
for f in "${added[@]}"; do
	(cd "$full" && scripts/get_maintainer.pl --no-git --no-git-fallback --sections -f "$f") \
		>"$tmp/gm" 2>&1 || true
	grep -qx 'TIME INTERPOLATOR' "$tmp/gm" || bad "get_maintainer.pl -f $f does not name TIME INTERPOLATOR"
done
echo "  ${#added[@]} added files; get_maintainer.pl -f kernel/time/time_interpolator.c:"
(cd "$full" && scripts/get_maintainer.pl --no-git --no-git-fallback -f kernel/time/time_interpolator.c) | sed 's/^/      /'
if ! (cd "$full" && perl scripts/parse-maintainers.pl --input=MAINTAINERS --output="$tmp/M.sorted" --order >/dev/null 2>&1 &&
      cmp -s <(sed -n '/^TIME INTERPOLATOR$/,/^$/p' MAINTAINERS) <(sed -n '/^TIME INTERPOLATOR$/,/^$/p' "$tmp/M.sorted")); then
	bad "the TIME INTERPOLATOR entry is not in parse-maintainers.pl's order"
fi

step "kernel-doc on the touched C files and headers"
docs=()
for f in "${touched[@]}"; do
	case $f in *.c|*.h) [ -f "$full/$f" ] && docs+=("$f") ;; esac
done
(cd "$full" && scripts/kernel-doc -none "${docs[@]}") >"$tmp/kdoc" 2>&1 || true
bdocs=()
for f in "${docs[@]}"; do [ -f "$BASE_SRC/$f" ] && bdocs+=("$f"); done
(cd "$BASE_SRC" && scripts/kernel-doc -none "${bdocs[@]}") >"$tmp/kdoc-base" 2>&1 || true
new=$(added_warnings "$tmp/kdoc" "$tmp/kdoc-base")
echo "  ${#docs[@]} files; $(touched_warnings "$tmp/kdoc-base" "${touched[@]}" | grep -c . || true) warning(s) of the base's own"
[ -z "$new" ] || { show "$new"; bad "kernel-doc: $(grep -c . <<<"$new") warning(s) added"; }
# Every symbol the series exports has a kernel-doc comment.
mapfile -t exports < <(g diff "$BASE_TAG" HEAD | sed -n -E 's/^\+EXPORT_SYMBOL(_GPL)?\(([A-Za-z0-9_]+)\);/\2/p')
# (-v, which lists what it documents, also warns of more than the plain
# run above compares with the base, so it is a run of its own.)
(cd "$full" && scripts/kernel-doc -none -v "${docs[@]}") 2>&1 |
	sed -n -E 's/.*[Ii]nfo: ([^ ]+ )?Scanning doc for (function|struct|enum|union|typedef) ([A-Za-z0-9_]+)$/\3/p' >"$tmp/kdoc-names"
for e in "${exports[@]}"; do
	grep -qx "$e" "$tmp/kdoc-names" || bad "exported $e has no kernel-doc comment"
done
echo "  ${#exports[@]} exported symbol(s), each with kernel-doc: ${exports[*]}"

step "make SPHINXDIRS=timers htmldocs: no warning added"
docs_build() {  # docs_build SRC OBJ LOG
	rm -rf "$2"
	x86_make "$1" "$2" SPHINXDIRS=timers htmldocs >"$3" 2>&1
}
if ! docs_build "$full" "$BUILD/kbuild/check-docs" "$tmp/html"; then
	tail -n 10 "$tmp/html" | sed 's/^/      /'
	bad "htmldocs failed"
else
	docs_build "$BASE_SRC" "$BUILD/kbuild/check-docs-base" "$tmp/html-base" || true
	# Sphinx names the file (absolute) and the line: compare without both.
	norm() { sed -n -E 's#^'"$2"'/([^:]*):[0-9]*: (WARNING|ERROR|CRITICAL|SEVERE): #\1: \2: #p' "$1" | sort -u; }
	new=$(comm -23 <(norm "$tmp/html" "$full") <(norm "$tmp/html-base" "$BASE_SRC"))
	echo "  built: $(ls "$BUILD"/kbuild/check-docs/Documentation/output/timers/*.html 2>/dev/null | wc -l) pages; $(norm "$tmp/html-base" "$BASE_SRC" | grep -c . || true) warning(s) of the base's own"
	[ -z "$new" ] || { show "$new"; bad "htmldocs: $(grep -c . <<<"$new") warning(s) added"; }
	# ... and its documentation is in the built pages.
	for e in "${exports[@]}"; do
		grep -qs "id=\"c\.$e\"" "$BUILD"/kbuild/check-docs/Documentation/output/timers/*.html ||
			bad "exported $e is not in the timers documentation"
	done
fi

# x86_64 allnoconfig and defconfig (plus KUnit and the series' suites) of
# the whole series; the touched files' objects are removed first so that
# their warnings are seen.  Then W=1 and sparse (C=2) on the touched C
# files that defconfig builds, against the same files of the base.
if [ "${CHECK_FULL:-1}" = 1 ]; then
	objs=()
	for f in "${touched[@]}"; do
		case $f in *.c|*.S) [ -f "$full/$f" ] && objs+=("${f%.*}.o") ;; esac
	done
	# NAME ARCH CONFIG: the i386 build is the only one of the 32-bit
	# syscall table entry and the 32-bit paths.
	for b in "allnoconfig x86_64 allnoconfig" "defconfig x86_64 defconfig" "i386 i386 defconfig"; do
		read -r name arch cfg <<<"$b"
		step "the series builds an $arch $cfg kernel"
		obj=$BUILD/kbuild/check-$name
		frags=()
		[ $cfg = defconfig ] && frags=("$TOP/configs/x86_64-defconfig.config" "${series_frag[@]}")
		for o in "${objs[@]}"; do rm -f "$obj/$o"; done
		start=$(date +%s)
		# ARCH only for i386: the x86_64 builds keep the host's default.
		if [ "$arch" = i386 ]; then export ARCH=i386; else unset ARCH; fi
		if ! { kconfig x86_make "$full" "$obj" "$tmp/$name.config" $cfg "${frags[@]}" &&
		       x86_make "$full" "$obj" -s LOCALVERSION= -j"$JOBS" all >"$tmp/$name.log" 2>&1; }; then
			show "$(grep -E 'error|warning' "$tmp/$name.log")"
			bad "the $arch $cfg kernel does not build"
			continue
		fi
		built=0
		for o in "${objs[@]}"; do [ -f "$obj/$o" ] && built=$((built + 1)); done
		echo "  built in $(( $(date +%s) - start )) s; $built objects of touched files rebuilt"
		w=$(touched_warnings "$tmp/$name.log" "${touched[@]}")
		[ -z "$w" ] || { show "$w"; bad "the $arch $cfg build warns in files the series touches"; }
	done
	unset ARCH

	step "W=1 and sparse on the touched C files of defconfig, against the base"
	# A sparse the kernel refuses (its checker-valid.sh) makes C=2 a
	# warning and no check at all: scripts/sparse.sh finds one it takes.
	if ! check=$("$TOP/scripts/sparse.sh" | tail -n 1) || [ -z "$check" ]; then
		bad "no sparse that $SRC accepts: W=1 alone"
		check=
	fi
	echo "  sparse: ${check:-none} ($("${check:-sparse}" --version 2>&1 | sed -n 1p))"
	obj=$BUILD/kbuild/check-defconfig
	bobj=$BUILD/kbuild/check-defconfig-base
	cobjs=() bcobjs=()
	for o in "${objs[@]}"; do
		[ -f "$full/${o%.o}.c" ] && [ -f "$obj/$o" ] || continue
		cobjs+=("$o")
		[ -f "$BASE_SRC/${o%.o}.c" ] && bcobjs+=("$o")
	done
	# The vDSO's C (lib/vdso/gettimeofday.c is included by the x86
	# vclock_gettime.c) has no object of its own there: when the series
	# touches it, the x86 vDSO's directory is built whole on both sides.
	vdso=()
	for f in "${touched[@]}"; do
		case $f in
		lib/vdso/* | include/vdso/* | arch/x86/entry/vdso/* | arch/x86/include/asm/vdso/*)
			vdso=(arch/x86/entry/vdso/)
			;;
		esac
	done
	# Objects are removed first on both sides: W=1's warnings (and its
	# kernel-doc run) come only with a compile.
	for o in "${cobjs[@]}"; do rm -f "$obj/$o" "$bobj/$o"; done
	[ ${#vdso[@]} = 0 ] || find "$obj/$vdso" "$bobj/$vdso" -name '*.o' -delete 2>/dev/null || true
	sparse_args=()
	[ -z "$check" ] || sparse_args=(C=2 CHECK="$check")
	x86_make "$full" "$obj" -j"$JOBS" W=1 "${sparse_args[@]}" "${cobjs[@]}" "${vdso[@]}" >"$tmp/w1" 2>&1 ||
		bad "make W=1 C=2 failed on the series' files"
	# Kbuild only warns when it drops the checker: that is a failure here.
	! grep -q "specified, but .* is not available" "$tmp/w1" ||
		bad "Kbuild refused $check: sparse did not run"
	[ -z "$check" ] || grep -q "^  CHECK " "$tmp/w1" ||
		bad "no CHECK line in the W=1 C=2 build: sparse did not run"
	if kconfig x86_make "$BASE_SRC" "$bobj" "$tmp/base.config" defconfig \
		"$TOP/configs/x86_64-defconfig.config"; then
		x86_make "$BASE_SRC" "$bobj" -j"$JOBS" W=1 "${sparse_args[@]}" "${bcobjs[@]}" "${vdso[@]}" \
			>"$tmp/w1-base" 2>&1 || true
	else
		bad "configuring the base failed"
	fi
	# The rebuilt objects carry W=1's flags; the next build redoes them.
	for o in "${cobjs[@]}"; do rm -f "$obj/$o"; done
	[ ${#vdso[@]} = 0 ] || find "$obj/$vdso" -name '*.o' -delete
	new=$(added_warnings "$tmp/w1" "$tmp/w1-base")
	echo "  ${#cobjs[@]} files ($(IFS=' '; echo "${cobjs[*]}" | sed 's/[.]o//g'))${vdso:+, and $vdso: $(grep -c "^  CHECK .*entry/vdso/" "$tmp/w1" || true) files checked}"
	echo "  $(touched_warnings "$tmp/w1-base" "${touched[@]}" | grep -c . || true) warning(s) of the base's own in the same files"
	[ -z "$new" ] || { show "$new" 20; bad "W=1/sparse: $(grep -c . <<<"$new") warning(s) added"; }
fi

echo
if [ $fails -ne 0 ]; then
	echo "make check: $fails problem(s)"
	exit 1
fi
echo "make check: series of $n patch(es) is clean"
