#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make post: each posting of BASE as a ready mbox, build/post/ (with
# BASE=7.2 build/7.2/post/): BASE-POSTING-vN.mbox, the cover letter and
# the patches as patches/ holds them, each mail with the posting's To: and
# Cc: from the tree's own scripts/get_maintainer.pl (maintainers and
# supporters To:, reviewers and lists Cc:).  Before it writes one, it
# checks that
#   - every subject says [PATCH vN ...], N the series' version (lib.sh);
#   - the cover letter has a "Changes in vN:" list (from v2 on);
#   - the posting applies on the base commit, alone where the postings
#     apply apart (POSTINGS_APART), else after the ones before.
# Then it says what the cover letter's base-commit: names: the local
# commit of Debian's tarball, that is the upstream release plus Debian's
# own patches, and which of the files the posting changes those patches
# touch, read from Debian's source package (its debian.tar.xz alone,
# through a private apt configuration, cached in build/post/debian/).
# Sends nothing: docs/posting.md says how.
# Usage: post.sh   (exit 0: every mbox written; 2: a check failed)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_tree() { [ -d "$SRC/.git" ] || die "post: no tree $SRC: run make tree"; }
require_tree
out=$BUILD/post
deb=$TOP/build/post/debian
mkdir -p "$out" "$deb" "$LOGS"
log=$LOGS/post.log
: >"$log"
# patches_of DIR: the posting's patches, without the cover letter.
patches_of() { find "$1" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort; }

# recipients DIR: "To: ..." and "Cc: ..." lines for the posting in DIR.
recipients() {
	local to=() cc=() line who
	while IFS= read -r line; do
		who=${line%% (*}
		case $line in
		*"(maintainer:"*|*"(supporter:"*) to+=("$who") ;;
		*) cc+=("$who") ;;
		esac
	done < <(cd "$SRC" && scripts/get_maintainer.pl --no-git --no-git-fallback \
			--rolestats $(patches_of "$1") 2>>"$log" |
		 grep -v '^$' | grep -vx "$(g config user.name) <$(g config user.email)>.*" || true)
	[ ${#to[@]} -gt 0 ] || die "post: get_maintainer.pl named no maintainer for $1"
	(IFS=,; echo "To: ${to[*]}" | sed 's/,/, /g')
	[ ${#cc[@]} -eq 0 ] || (IFS=,; echo "Cc: ${cc[*]}" | sed 's/,/, /g')
}

# applies POSTING...: the last POSTING applies on the base, after the
# ones before it: git apply on a scratch index of the base commit (no
# checkout), as git am would apply them.
applies() {
	local idx p ok=0
	idx=$(mktemp)
	GIT_INDEX_FILE=$idx g read-tree "$BASE_TAG"
	for p in "$@"; do
		# shellcheck disable=SC2046
		GIT_INDEX_FILE=$idx g apply --cached $(patches_of "$PATCHES/$p") \
			>>"$log" 2>&1 || { ok=1; break; }
	done
	rm -f "$idx"
	return $ok
}

# debian_files: the files Debian's patches of the base's source package
# touch, one a line (empty when the package cannot be had: then says so).
debian_files() {
	local src ver dir uri
	# The apt configurations of sparse.sh (unstable) and qemu-skew.sh.
	if from_unstable; then
		src=linux ver=$(cat "$BUILD/pkg/version" 2>/dev/null || true)
		dir=$BUILD/apt-sid-src
		deb_src_apt "$dir" unstable
	else
		read -r src ver < <(dpkg-query -W -f '${source:Package} ${source:Version}\n' "$BASE_PKG" 2>/dev/null || true)
		dir=$BUILD/apt-src
		deb_src_apt "$dir" bookworm bookworm-updates bookworm-security
	fi
	[ -n "${ver:-}" ] || return 0
	local cache=$deb/$src-$ver
	if [ ! -d "$cache/debian/patches" ]; then
		private_apt_fresh "$dir" || apt-get "${APT_OPTS[@]}" update -q >>"$log" 2>&1 || true
		uri=$(apt-get "${APT_OPTS[@]}" source --print-uris -q "$src=$ver" 2>>"$log" |
			sed -n "s/^'\([^']*debian\.tar\.[a-z]*\)'.*/\1/p" | sed -n 1p)
		[ -n "$uri" ] || { echo "?$src $ver" ; return 0; }
		mkdir -p "$cache"
		/usr/lib/apt/apt-helper download-file "$uri" "$cache/debian.tar" >>"$log" 2>&1 ||
			{ echo "?$src $ver"; return 0; }
		tar -C "$cache" -xf "$cache/debian.tar" debian/patches >>"$log" 2>&1 ||
			{ echo "?$src $ver"; return 0; }
	fi
	echo "=$src $ver"
	find "$cache/debian/patches" -type f \( -name '*.patch' -o -name '*.diff' \) -print0 |
		xargs -0 sed -n 's|^+++ [^/]*/\([^[:space:]]*\).*|\1|p' | sort -u
}

# files_of POSTING: the files the posting changes.
files_of() {
	sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$PATCHES/$1"/[0-9][0-9][0-9][0-9]-*.patch | sort -u
}

mapfile -t dfiles < <(debian_files)
dsrc=$(printf '%s\n' "${dfiles[@]}" | sed -n 's/^[=?]//p' | sed -n 1p)
bad=0 before=()
for p in "${POSTINGS[@]}"; do
	dir=$PATCHES/$p
	[ -f "$dir/0000-cover-letter.patch" ] || die "post: no $dir/0000-cover-letter.patch: make export"
	mbox=$out/$BASE-$p-v$SERIES_VERSION.mbox
	rm -f "$mbox"
	subj=$(grep -h '^Subject: ' "$dir"/[0-9][0-9][0-9][0-9]-*.patch |
		grep -v "^Subject: \[PATCH v$SERIES_VERSION " || true)
	if [ -n "$subj" ]; then
		warn "post: $p: a subject without [PATCH v$SERIES_VERSION ...]"; bad=1; continue
	fi
	if [ "$SERIES_VERSION" -gt 1 ] && ! grep -q "^Changes in v$SERIES_VERSION:" "$dir/0000-cover-letter.patch"; then
		warn "post: $p: the cover letter has no \"Changes in v$SERIES_VERSION:\" list"; bad=1; continue
	fi
	if [ "$POSTINGS_APART" = 1 ]; then set -- "$p"; else set -- "${before[@]}" "$p"; fi
	if ! applies "$@"; then
		warn "post: $p does not apply on $BASE_TAG${before[*]:+ after ${before[*]}} (log $log)"; bad=1; continue
	fi
	before+=("$p")
	rcpt=$(recipients "$dir")
	for f in "$dir"/[0-9][0-9][0-9][0-9]-*.patch; do
		# The headers up to the first blank line get the posting's
		# recipients in place of any the file has.
		awk -v rcpt="$rcpt" 'h == 0 && /^(To|Cc): / { skip = 1; next }
			h == 0 && skip && /^[ \t]/ { next }
			h == 0 { skip = 0 }
			h == 0 && /^$/ { print rcpt; h = 1 }
			{ print }' "$f" >>"$mbox"
	done
	n=$(grep -c '^From [0-9a-f]\{40\} ' "$mbox")
	msg "post: $mbox: $n mails, $(grep -m1 '^To: ' "$mbox" | cut -c1-60)..."
	overlap=$(comm -12 <(files_of "$p") <(printf '%s\n' "${dfiles[@]}" | grep -v '^[=?]' || true) | tr '\n' ' ')
	if [[ ${dfiles[0]:-} == "?"* ]] || [ -z "$dsrc" ]; then
		msg "post: $p: Debian's patches of ${dsrc:-the source package} could not be read: not checked"
	elif [ -n "$overlap" ]; then
		msg "post: $p: Debian's patches ($dsrc) touch files it changes: $overlap"
	else
		msg "post: $p: Debian's patches ($dsrc) touch none of its $(files_of "$p" | wc -l) files"
	fi
done
base_line=$(sed -n 's/^base-commit: //p' "$PATCHES/${POSTINGS[0]}/0000-cover-letter.patch")
msg "post: base-commit: $base_line is the local commit of $(sed -n 's/^debian_package=//p' "$BUILD/base.txt" 2>/dev/null || echo "$BASE_PKG"): upstream $(sed -n 's/^version=//p' "$BUILD/base.txt" 2>/dev/null) with Debian's patches (docs/posting.md)"
[ $bad = 0 ] || exit 2
