#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host-side tests of the series workflow (scripts/tree.sh) on a fake,
# tiny base tarball.  Prints "RESULT name pass|fail detail" lines.
set -uo pipefail
# The caller's choice of base and postings is not the tests' own.
unset SERIES BASE
TOP=$(cd "$(dirname "$0")/.." && pwd)
T=$TOP/scripts/tree.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

result() { printf 'RESULT tree-%s %s %s\n' "$1" "$2" "${3:-}"; }
check() {	# check NAME CONDITION-EXIT-STATUS DETAIL
	if [ "$2" -eq 0 ]; then result "$1" pass; else result "$1" fail "$3"; fi
}

mkdir -p "$tmp/src/linux-fake/kernel/time" "$tmp/patches/1-core" "$tmp/patches/2-ia64"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 999\nEXTRAVERSION =\n' >"$tmp/src/linux-fake/Makefile"
printf 'int a;\n' >"$tmp/src/linux-fake/kernel/time/a.c"
tar -C "$tmp/src" -cJf "$tmp/fake.tar.xz" linux-fake
printf 'Subject: [PATCH 0/0] Fake series\n\nA fake series for the harness tests.\n' >"$tmp/patches/1-core/0000-cover-letter.patch"
printf 'Subject: [PATCH 0/0] Fake second posting\n\nIt applies on the first.\n' >"$tmp/patches/2-ia64/0000-cover-letter.patch"
: >"$tmp/patches/series"

export BASE_TARBALL=$tmp/fake.tar.xz PATCHES=$tmp/patches BUILD=$tmp/b1
gl() { git -C "$BUILD/linux" "$@"; }

out=$("$T" tree 2>&1)
grep -q '^version=6.1.999$' "$BUILD/base.txt" &&
	grep -q "^sha256=$(sha256sum "$BASE_TARBALL" | cut -d' ' -f1)$" "$BUILD/base.txt"
check base-recorded $? "base.txt: $(tr '\n' ' ' <"$BUILD/base.txt" 2>/dev/null) $out"

base1=$(gl rev-parse base)
BUILD=$tmp/b2 "$T" tree >/dev/null 2>&1
[ "$base1" = "$(git -C "$tmp/b2/linux" rev-parse base 2>/dev/null)" ]
check base-deterministic $? "two trees of one tarball gave two base commits"

"$T" export >/dev/null 2>&1 && "$T" series-check >/dev/null 2>&1
check empty-series-in-sync $? "an exported empty series fails series-check"
"$T" sync >/dev/null 2>&1 && [ "$(gl rev-parse HEAD)" = "$base1" ]
check sync-in-sync $? "sync of a matching tree did not keep it"

echo 'int b;' >>"$BUILD/linux/kernel/time/a.c"
out=$("$T" series-check 2>&1)
[ $? -ne 0 ] && grep -q 'uncommitted' <<<"$out"
check uncommitted-detected $? "series-check passed with uncommitted changes: $out"

gl -c user.name=T -c user.email=t@t commit -qam 'time: Add b' >/dev/null
out=$("$T" series-check 2>&1)
[ $? -ne 0 ] && grep -q 'differ' <<<"$out"
check unexported-detected $? "series-check passed with an unexported commit: $out"

out=$("$T" sync 2>&1)
[ $? -ne 0 ] && grep -q 'holds work' <<<"$out"
check sync-keeps-work $? "sync did not refuse to drop a commit: $out"

# b ends the first posting (its tag), c is the second posting.
gl tag -f posting/1-core HEAD >/dev/null
echo 'int c2;' >"$BUILD/linux/kernel/time/c.c"
gl add kernel/time/c.c
gl -c user.name=T -c user.email=t@t commit -qm 'time: Add c' >/dev/null
c1=$PATCHES/1-core/0000-cover-letter.patch c2=$PATCHES/2-ia64/0000-cover-letter.patch
"$T" export >/dev/null 2>&1 &&
	[ "$(grep -v '^#' "$PATCHES/series" | tr '\n' ' ')" = "1-core/0001-time-Add-b.patch 2-ia64/0001-time-Add-c.patch " ] &&
	grep -q '^Subject: \[PATCH v2 0/1\] Fake series$' "$c1" &&
	grep -q "^base-commit: $base1$" "$c1" && ! grep -q '^prerequisite-patch-id:' "$c1" &&
	grep -q '^A fake series for the harness tests.$' "$c1" &&
	grep -q '^Subject: \[PATCH v2 0/1\] Fake second posting$' "$c2" &&
	grep -q "^base-commit: $base1$" "$c2" &&
	[ "$(grep -c '^prerequisite-patch-id: ' "$c2")" = 1 ] &&
	grep -q '^Subject: \[PATCH v2 1/1\] time: Add c$' "$PATCHES/2-ia64/0001-time-Add-c.patch"
check export-writes $? "export: series '$(cat "$PATCHES/series")', covers: $(head -c 300 "$c1") $(tail -c 300 "$c2")"

sum1=$(find "$PATCHES" -type f | sort | xargs cat | sha256sum)
out=$("$T" export 2>&1)
[ "$sum1" = "$(find "$PATCHES" -type f | sort | xargs cat | sha256sum)" ] && grep -q 'already matches' <<<"$out"
check export-stable $? "a second export changed patches/: $out"

"$T" series-check >/dev/null 2>&1
check exported-in-sync $? "series-check fails right after export"

head1=$(gl rev-parse 'HEAD^{tree}')
rm -rf "$BUILD/linux"
"$T" tree >/dev/null 2>&1 && [ "$head1" = "$(gl rev-parse 'HEAD^{tree}')" ]
check tree-reapplies $? "make tree from patches/ gave another tree"

# SERIES=core: the first posting alone, in the tree and in series-check;
# its export leaves the second posting's files and lines alone.
SERIES=core "$T" tree >/dev/null 2>&1 && [ ! -e "$BUILD/linux/kernel/time/c.c" ] &&
	grep -q '^int b;$' "$BUILD/linux/kernel/time/a.c" &&
	SERIES=core "$T" series-check >/dev/null 2>&1 &&
	SERIES=core "$T" export >/dev/null 2>&1 &&
	[ "$sum1" = "$(find "$PATCHES" -type f | sort | xargs cat | sha256sum)" ]
check series-core $? "SERIES=core: $(ls "$BUILD/linux/kernel/time") $(git -C "$TOP" diff --no-index --stat "$tmp/patches.none" "$PATCHES" 2>&1 | tail -n 1)"
"$T" tree >/dev/null 2>&1 && [ -e "$BUILD/linux/kernel/time/c.c" ] && "$T" series-check >/dev/null 2>&1
check series-all-again $? "make tree after SERIES=core did not bring the second posting back"

# A rebase that leaves a posting's tag behind is refused, not guessed.
gl tag -f posting/1-core "$(gl commit-tree -p base -m 'time: Add b, rebased' "$(gl rev-parse 'base^{tree}')")" >/dev/null
out=$("$T" export 2>&1)
[ $? -ne 0 ] && grep -q 'is not on HEAD' <<<"$out"
check stale-posting-tag $? "$out"
rm -rf "$BUILD/linux"
"$T" tree >/dev/null 2>&1

# A pull changed patches/: the tree holds no work of its own, so it follows.
cp -r "$PATCHES" "$tmp/patches.old"
sed -i 's/^+int b;/+int c;/' "$PATCHES/1-core/0001-time-Add-b.patch"
"$T" sync >/dev/null 2>&1 && grep -q '^int c;$' "$BUILD/linux/kernel/time/a.c"
check sync-follows-patches $? "sync did not re-apply a changed patches/"

# Another pull changed a message alone: the re-applied files keep their
# mtimes (no kernel rebuild), the changed message is in the tree.
A=$BUILD/linux/kernel/time/a.c C=$BUILD/linux/kernel/time/c.c
touch -m -d @1000000000 "$A" "$C"
sed -i 's/^Subject: \(.*\)time: Add c$/Subject: \1time: Add c, reworded/' "$PATCHES/2-ia64/0001-time-Add-c.patch"
"$T" sync >/dev/null 2>&1 && [ "$(stat -c %Y "$A")" = 1000000000 ] &&
	[ "$(stat -c %Y "$C")" = 1000000000 ] && [ "$(gl log -1 --format=%s)" = "time: Add c, reworded" ]
check sync-keeps-mtimes $? "a.c $(stat -c %Y "$A"), c.c $(stat -c %Y "$C"), HEAD '$(gl log -1 --format=%s)'"

# A pull changed the last file of the series (c.c): its old mtime is not
# restored, and the files before it keep theirs; sync still succeeds.
sed -i 's/^+int c2;/+int c3;/' "$PATCHES/2-ia64/0001-time-Add-c.patch"
out=$("$T" sync 2>&1)
[ $? -eq 0 ] && [ "$(cat "$C")" = 'int c3;' ] && [ "$(stat -c %Y "$C")" != 1000000000 ] &&
	[ "$(stat -c %Y "$A")" = 1000000000 ]
check sync-last-changed $? "$out; a.c $(stat -c %Y "$A"), c.c $(stat -c %Y "$C"): $(cat "$C")"

# squash folds a fixup into the commit it names: the postings' tags
# follow their rewritten commits, a file the rebase leaves unchanged
# keeps its mtime, and the export is in sync again.
touch -m -d @1000000000 "$A" "$C"
echo 'int d;' >>"$A"
gl -c user.name=T -c user.email=t@t commit -qa --fixup=posting/1-core >/dev/null
out=$("$T" squash 2>&1)
[ $? -eq 0 ] && [ "$(gl rev-list --count base..HEAD)" = 2 ] &&
	[ -z "$(gl log --format=%s --grep='^fixup!' base..HEAD)" ] &&
	[ "$(gl log -1 --format=%s posting/1-core)" = "time: Add b" ] &&
	[ "$(gl rev-parse posting/1-core)" = "$(gl rev-parse HEAD~1)" ] &&
	[ "$(gl show posting/1-core:kernel/time/a.c | tail -n 1)" = "int d;" ] &&
	[ "$(stat -c %Y "$C")" = 1000000000 ] &&
	"$T" export >/dev/null 2>&1 && "$T" series-check >/dev/null 2>&1
check squash $? "$out; $(gl log --oneline base..HEAD | tr '\n' ' '); tag $(gl log -1 --format=%s posting/1-core 2>&1); c.c $(stat -c %Y "$C")"

# A patch that does not apply names itself and the base.
sed -i 's/^ int a;/ int z;/' "$PATCHES/1-core/0001-time-Add-b.patch"
rm -rf "$BUILD/linux"
out=$("$T" tree 2>&1)
[ $? -ne 0 ] && grep -q 'patch 1-core/0001-time-Add-b.patch does not apply to base 6.1.999' <<<"$out"
check bad-patch-named $? "$out"

rm -rf "$BUILD"
out=$(BASE_TARBALL=$tmp/none.tar.xz "$T" tree 2>&1)
[ $? -ne 0 ] && grep -q 'none.tar.xz is missing' <<<"$out"
check missing-base $? "$out"
result complete pass
