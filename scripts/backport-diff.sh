#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make backport-diff: how each backport's code differs from the mainline
# queue, patch by patch, so that a fix made on one base lands on all three.
# The mainline queue is patches/7.2 (the postings its series lists); its
# backports are patches/6.12 (likewise) and patches/1-core with
# patches/2-ia64 (6.1).
# A backport's patch is matched to a mainline one by its subject (without
# the "[PATCH ...]" prefix).  Both diffs are normalized before they are
# compared: the message and diffstat go (everything before the first
# "diff --git"), so do the "index" lines, and a hunk header "@@ -a,b +c,d
# @@ ctx" keeps only "@@ ctx": line numbers always move between bases.
# Then, per mainline patch, one line: "same code", or in how many files
# and by how many lines of patch text each backport differs; a backport's
# patch with no mainline counterpart (ia64) is listed as "6.1 only".
# Reads patches/ only: no kernel tree, nothing built.
# Usage: backport-diff.sh
#   BACKPORT=6.12|6.1   one backport (default both)
#   PATCH=N             mainline patch N: its summary and, per file, the
#                       unified diff from mainline's normalized patch to
#                       each backport's ("-" mainline only, "+" backport only)
#   V=1                 those diffs for every patch
#   PATCHES_DIR=dir     the patches directory (default patches/; tests)
# Exit status: 0, whatever the differences; 2 on bad arguments.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pdir=${PATCHES_DIR:-$TOP/patches}
mainline=7.2
# series_dirs DIR: the postings DIR/series lists, in order, as paths.
series_dirs() {
	sed -n 's|^\([0-9][^/#]*\)/.*|\1|p' "$1/series" 2>/dev/null | uniq | sed "s|^|$1/|"
}
# The mainline queue's postings, as its series file lists them
mapfile -t mainline_dirs < <(series_dirs "$pdir/7.2")
[ ${#mainline_dirs[@]} -gt 0 ] || mainline_dirs=("$pdir/7.2/1-core")

# backport_dirs BASE: the posting directories of a backport, in order.
backport_dirs() {
	case $1 in
	6.12)	series_dirs "$pdir/6.12" | grep . || echo "$pdir/6.12/1-core" ;;
	6.1)	echo "$pdir/1-core" "$pdir/2-ia64" ;;
	esac
}

case ${BACKPORT:-} in
"")	backports=(6.12 6.1) ;;
6.12|6.1) backports=("$BACKPORT") ;;
*)	die "BACKPORT='$BACKPORT': the backports are 6.12 and 6.1 (default both)" ;;
esac
[ -d "${mainline_dirs[0]}" ] || die "no mainline queue ${mainline_dirs[0]}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# normalize FILE DIR: FILE's subject (headers unfolded, "[PATCH ...]"
# off) into DIR/subject, and its diff, normalized, into DIR/files/, one
# file per file it touches, named by its path with "/" as "%".
normalize() {
	mkdir -p "$2/files"
	awk -v dir="$2" '
		!hdr && /^$/ { hdr = 1; sub(/^Subject: */, "", s); sub(/^\[[^]]*\] */, "", s)
			       print s > (dir "/subject") }
		!hdr && /^Subject:/ { s = $0; on = 1; next }
		!hdr && on && /^[ \t]/ { s = s $0; next }
		!hdr { on = 0; next }
		/^diff --git / { p = $NF; sub(/^b\//, "", p); gsub(/\//, "%", p)
				 f = dir "/files/" p; body = 1 }
		!body { next }
		/^index [0-9a-f]+\.\.[0-9a-f]+/ { next }
		/^@@ -[0-9]+(,[0-9]+)? \+[0-9]+(,[0-9]+)? @@/ {
			sub(/^@@ -[0-9]+(,[0-9]+)? \+[0-9]+(,[0-9]+)? @@/, "@@") }
		{ print > f }' "$1"
}

# load TAG DIR...: the patches of DIRs (not the cover letters) as
# directories TAG/N of normalize, with TAG/N/name (its directory/file);
# TAG/count: how many.
load() {
	local tag=$1 d f n=0
	shift
	for d in "$@"; do
		[ -d "$d" ] || die "no directory $d"
		for f in "$d"/[0-9][0-9][0-9][0-9]-*.patch; do
			[ -e "$f" ] || continue
			case $f in */0000-*) continue ;; esac
			n=$((n + 1))
			normalize "$f" "$tmp/$tag/$n"
			echo "${d##*/}/${f##*/}" >"$tmp/$tag/$n/name"
		done
	done
	echo $n >"$tmp/$tag/count"
}

load m "${mainline_dirs[@]}"
nm=$(<"$tmp/m/count")
for b in "${backports[@]}"; do
	# shellcheck disable=SC2046
	load "$b" $(backport_dirs "$b")
done

case ${PATCH:-} in
"")	;;
*[!0-9]*) die "PATCH='$PATCH': a mainline patch number, 1 to $nm" ;;
*)	[ "$PATCH" -ge 1 ] && [ "$PATCH" -le "$nm" ] ||
		die "PATCH=$PATCH: the mainline queue has patches 1 to $nm" ;;
esac

# match B SUBJECT: the number of backport B's patch with SUBJECT, or "".
match() {
	local i
	for ((i = 1; i <= $(<"$tmp/$1/count"); i++)); do
		[ "$(<"$tmp/$1/$i/subject")" = "$2" ] && { echo "$i"; return; }
	done
	echo ""
}

# compare A B OUT: per file, the unified diff of A's normalized patch
# (a directory of normalize) to B's, into OUT ("=== PATH" before each
# file's); sets nfiles, nplus and nminus.
compare() {
	local counts
	counts=$( (diff -ruN "$1/files" "$2/files" || true) | awk -v out="$3" -v m="$mainline" -v b="$backport" '
		/^diff -ruN / { p = $NF; sub(/.*\/files\//, "", p); gsub(/%/, "/", p)
				nf++; print "=== " p > out; next }
		/^--- / && !inhunk[nf] { print "--- " m "/" p > out; next }
		/^\+\+\+ / && !inhunk[nf] { print "+++ " b "/" p > out; inhunk[nf] = 1; next }
		/^\+/ { np++ }
		/^-/ { nm++ }
		{ print > out }
		END { printf "%d %d %d\n", nf, np, nm }')
	read -r nfiles nplus nminus <<<"$counts"
}

declare -A used matched
for ((i = 1; i <= nm; i++)); do
	[ -z "${PATCH:-}" ] || [ "$PATCH" -eq "$i" ] || continue
	s=$(<"$tmp/m/$i/subject")
	parts=() allsame=1
	for backport in "${backports[@]}"; do
		j=$(match "$backport" "$s")
		if [ -z "$j" ]; then
			parts+=("$backport has no such patch")
			allsame=0
			continue
		fi
		used[$backport/$j]=1
		matched[$backport]=$j
		compare "$tmp/m/$i" "$tmp/$backport/$j" "$tmp/diff-$i-$backport"
		if [ "$nfiles" -eq 0 ]; then
			parts+=("$backport same code")
		else
			parts+=("$backport differs in $nfiles file$([ "$nfiles" -eq 1 ] || echo s) (+$nplus -$nminus lines)")
			allsame=0
		fi
	done
	if [ $allsame = 1 ]; then
		echo "$i $s: same code"
	else
		line=$(printf '%s, ' "${parts[@]}")
		echo "$i $s: ${line%, }"
	fi
	if [ -n "${PATCH:-}" ] || [ "${V:-0}" = 1 ]; then
		for backport in "${backports[@]}"; do
			[ -s "$tmp/diff-$i-$backport" ] || continue
			echo "--- $i against $backport ($(<"$tmp/m/$i/name") -> $(<"$tmp/$backport/${matched[$backport]}/name"))"
			cat "$tmp/diff-$i-$backport"
		done
	fi
done

# A backport's patches with no mainline counterpart (ia64 on 6.1).
[ -n "${PATCH:-}" ] && exit 0
for backport in "${backports[@]}"; do
	for ((j = 1; j <= $(<"$tmp/$backport/count"); j++)); do
		[ -z "${used[$backport/$j]:-}" ] || continue
		echo "$backport only: $(<"$tmp/$backport/$j/name") $(<"$tmp/$backport/$j/subject")"
	done
done
exit 0
