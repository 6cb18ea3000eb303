#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: what a maintainer checks before taking the series.
#   - patches/ matches build/linux, and an unchanged tree exports
#     byte-identically;
#   - the series applies to the base with git am (make tree) and with
#     patch -p1, and both give the same tree;
#   - scripts/checkpatch.pl --strict on every patch: no errors (warnings
#     are printed, to be argued in the commit message);
#   - every prefix of the series builds the x86_64 guest config plus the
#     series' fragment (bisectable), in its own object directory.
#   - every prefix from the first ia64 patch on cross-builds for ia64, with
#     no warning in the files the series touches (when the cross compiler
#     is cached: scripts/ia64-toolchain.sh).
# CHECK_BISECT=0 skips the prefix builds (they take a few minutes a patch);
# CHECK_IA64=0 skips the ia64 ones.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

g() { git -C "$SRC" "$@"; }
fails=0
step() { printf '\n==> check: %s\n' "$*"; }
bad() { printf 'check FAILED: %s\n' "$*"; fails=$((fails + 1)); }

"$TOP/scripts/tree.sh" series-check || exit 1
mapfile -t series < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/series")
n=${#series[@]}

step "export is stable"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; g worktree remove --force "$BUILD/check-wt" >/dev/null 2>&1 || true' EXIT
"$TOP/scripts/tree.sh" export >/dev/null
[ -z "$(git -C "$TOP" status --porcelain -- patches)" ] ||
	bad "make export of an unchanged tree rewrote patches/ ($(git -C "$TOP" status --porcelain -- patches | head -n 3 | tr '\n' ' '))"

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

step "checkpatch --strict on $n patch(es)"
for p in "${series[@]}"; do
	out=$(cd "$SRC" && scripts/checkpatch.pl --strict --no-tree -q "$PATCHES/$p" 2>&1 || true)
	e=$(grep -c '^ERROR:' <<<"$out" || true)
	w=$(grep -c -E '^(WARNING|CHECK):' <<<"$out" || true)
	printf '  %-60s %d error(s), %d warning(s)/check(s)\n' "$p" "$e" "$w"
	[ "$w" -eq 0 ] || grep -E '^(WARNING|CHECK):' <<<"$out" | sed 's/^/      /'
	[ "$e" -eq 0 ] || { grep -A3 '^ERROR:' <<<"$out" | sed 's/^/      /'; bad "checkpatch errors in $p"; }
done

if [ "${CHECK_BISECT:-1}" = 1 ] && [ "$n" -gt 0 ]; then
	step "every prefix of the series builds (x86_64 guest config)"
	obj=$BUILD/kbuild/check
	mkdir -p "$obj"
	# The series' own options (its KUnit suites): unknown to the early
	# prefixes, where merge_config.sh only notes them.
	series_frag=()
	[ -f "$TOP/configs/x86_64-series.config" ] && series_frag=("$TOP/configs/x86_64-series.config")
	i=0
	# The patch -p1 step left its result staged in the worktree.
	git -C "$wt" reset -q --hard
	for c in $(g rev-list --reverse "$BASE_TAG"..HEAD); do
		i=$((i + 1))
		git -C "$wt" checkout -q --detach "$c"
		git -C "$wt" clean -q -fdx
		printf '  [%d/%d] %s\n' "$i" "$n" "$(g log -1 --format=%s "$c")"
		if ! (cd "$wt" && make -s O="$obj" tinyconfig >/dev/null &&
		      scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" \
			"$TOP/configs/x86_64-guest.config" "${series_frag[@]}" >/dev/null &&
		      make -s O="$obj" olddefconfig >/dev/null &&
		      make -s O="$obj" LOCALVERSION= -j"$JOBS" bzImage >"$tmp/build.log" 2>&1); then
			grep -E 'error|warning' "$tmp/build.log" | head -n 10 | sed 's/^/      /'
			bad "patch $i ($(g log -1 --format=%s "$c")) does not build"
		elif grep -q 'warning:' "$tmp/build.log"; then
			grep 'warning:' "$tmp/build.log" | head -n 10 | sed 's/^/      /'
			bad "patch $i adds compiler warnings"
		fi
	done
fi

# The ia64 cross build (scripts/ia64.sh) of every prefix from the first
# patch that touches arch/ia64 on, when the cross compiler is cached
# (scripts/ia64-toolchain.sh builds it; CHECK_IA64=0 skips this).
first_ia64=$(g log --reverse --format=%H "$BASE_TAG"..HEAD -- arch/ia64 | head -n 1)
if [ "${CHECK_BISECT:-1}" = 1 ] && [ "${CHECK_IA64:-1}" = 1 ] && [ -n "$first_ia64" ]; then
	if [ ! -x "$IA64_CACHE/bin/ia64-linux-gnu-gcc" ]; then
		step "ia64 prefixes: skipped, no cached cross compiler (run make ia64 once)"
	else
		step "every prefix from the first ia64 patch builds (ia64, allnoconfig + configs/ia64-series.config)"
		obj=$BUILD/kbuild/check-ia64
		mkdir -p "$obj"
		touched=$(g diff --name-only "$BASE_TAG" HEAD | sed 's/[.]/[.]/g' | paste -sd'|')
		i=$(g rev-list --count "$BASE_TAG".."$first_ia64^")
		for c in $(g rev-list --reverse "$first_ia64^"..HEAD); do
			i=$((i + 1))
			git -C "$wt" checkout -q --detach "$c"
			git -C "$wt" clean -q -fdx
			printf '  [%d/%d] %s\n' "$i" "$n" "$(g log -1 --format=%s "$c")"
			if ! { ia64_kconfig "$wt" "$obj" "$tmp/config.log" &&
			       ia64_make "$wt" "$obj" -s -j"$JOBS" vmlinux >"$tmp/build.log" 2>&1; }; then
				grep -E 'error|warning' "$tmp/build.log" | head -n 10 | sed 's/^/      /'
				bad "patch $i ($(g log -1 --format=%s "$c")) does not build for ia64"
			elif grep -E "($touched):[0-9]+:([0-9]+:)? [Ww]arning:" "$tmp/build.log" | grep -q .; then
				grep -E "($touched):[0-9]+:([0-9]+:)? [Ww]arning:" "$tmp/build.log" | head -n 10 | sed 's/^/      /'
				bad "patch $i adds warnings to the ia64 build"
			fi
		done
	fi
fi

echo
if [ $fails -ne 0 ]; then
	echo "make check: $fails problem(s)"
	exit 1
fi
echo "make check: series of $n patch(es) is clean"
