#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The patch-series workflow around build/linux.
#
#   tree.sh tree          make build/linux = base commit + patches/ (git am)
#   tree.sh sync          like tree, for run/test: reuse a tree that matches
#   tree.sh export        write the commits above the base back to patches/
#   tree.sh series-check  fail when build/linux holds work patches/ lacks
#   tree.sh squash        fold fixup! commits into theirs, keeping mtimes
#   tree.sh base-tree     make build/base, the unpatched base worktree
#   tree.sh base-info     print the recorded base
#   tree.sh series-list   the patches SERIES selects, as patches/series has them
# SERIES=core takes the first posting alone (lib.sh's POSTINGS).
set -euo pipefail
. "$(dirname "$0")/lib.sh"


base_version() {
	local d=$1
	awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3}
	     END{printf "%s.%s.%s\n", v, p, s}' "$d/Makefile"
}

# Unpack the tarball and commit it as the base, with a fixed identity and
# date so that the base commit id depends on the tarball alone.
make_base() {
	[ -f "$BASE_TARBALL" ] ||
		die "base tarball $BASE_TARBALL is missing: $(from_unstable && echo "make deps BASE=$BASE" || echo "apt-get install $BASE_PKG")"
	local sha ver pkgver tmp
	msg "base: hashing $BASE_TARBALL"
	sha=$(sha256sum "$BASE_TARBALL" | cut -d' ' -f1)
	if from_unstable; then
		pkgver=$(cat "$BUILD/pkg/version" 2>/dev/null || echo unknown)
	else
		pkgver=$(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null || echo unknown)
	fi
	rm -rf "$SRC" "$BASE_SRC" "$BUILD/unpack"
	mkdir -p "$BUILD/unpack"
	msg "base: unpacking (about 15 s)"
	tar -C "$BUILD/unpack" -xf "$BASE_TARBALL"
	tmp=$(find "$BUILD/unpack" -mindepth 1 -maxdepth 1 -type d | sed -n 1p)
	[ -f "$tmp/Makefile" ] || die "$BASE_TARBALL holds no kernel tree"
	mv "$tmp" "$SRC"
	rm -rf "$BUILD/unpack"
	ver=$(base_version "$SRC")
	msg "base: committing Linux $ver as the base commit (about 50 s)"
	g init -q -b main
	g config gc.auto 0
	g config core.abbrev 12
	# git am needs an identity: the repository's, else a neutral one.
	g config user.name "$(git -C "$TOP" config user.name 2>/dev/null || echo "time-interp harness")"
	g config user.email "$(git -C "$TOP" config user.email 2>/dev/null || echo "harness@localhost")"
	g add -A -f .
	env "${BASE_GIT_ENV[@]}" git -C "$SRC" commit -q --no-verify \
		-m "Linux $ver (Debian $BASE_PKG $pkgver)" \
		-m "Unpacked from $(basename "$BASE_TARBALL"), sha256 $sha."
	g tag "$BASE_TAG"
	cat >"$BUILD/base.txt" <<EOF
version=$ver
debian_package=$BASE_PKG $pkgver
tarball=$BASE_TARBALL
sha256=$sha
base_commit=$(g rev-parse "$BASE_TAG")
EOF
	if from_unstable; then
		echo "deb=$(cat "$BUILD/pkg/deb") sha256 $(cat "$BUILD/pkg/deb.sha256") (Debian unstable)" >>"$BUILD/base.txt"
	fi
	msg "base: Linux $ver, sha256 $sha"
}

# The stamp: hashes of patches/ and of the tree's export, taken when the
# two were last made equal (apply or export).  sync tells by them which
# side moved since.
stamp_file() { echo "$SRC/.git/th-stamp"; }

# dir_hash DIR: one hash over the names and contents of DIR's files.
dir_hash() { (cd "$1" && find "${@:2}" -type f | LC_ALL=C sort | xargs -r sha256sum) | sha256sum | cut -d' ' -f1; }

# patches_hash: dir_hash of what the selected postings are made of in
# patches/ (another base's queue, in a directory of patches/, is not).
patches_hash() {
	local d args=()
	[ -f "$PATCHES/series" ] && args+=(series)
	for d in $(selected_postings); do
		[ -d "$PATCHES/$d" ] && args+=("$d")
	done
	[ ${#args[@]} -gt 0 ] || { echo none; return; }
	dir_hash "$PATCHES" "${args[@]}"
}

# series_list [POSTING...]: the patches of the postings (default: the
# selected ones), as patches/series lists them (POSTING/NNNN-....patch).
series_list() {
	[ -f "$PATCHES/series" ] || return 0
	local d
	for d in ${@:-$(selected_postings)}; do
		sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$PATCHES/series" | grep "^$d/" || true
	done
}

posting_tag() { echo "posting/$1"; }

# apply_series [POSTING...]: git am the postings (default: the selected
# ones) on HEAD, tagging the end of each.
apply_series() {
	local p d n=0 base_info
	base_info="$(sed -n 's/^version=//p' "$BUILD/base.txt") (sha256 $(sed -n 's/^sha256=//p' "$BUILD/base.txt" | cut -c1-16)...)"
	check_cover_base
	for d in ${@:-$(selected_postings)}; do
		for p in $(series_list "$d"); do
			[ -f "$PATCHES/$p" ] || die "patches/series names $p, which is not in patches/"
			if ! g am -q --no-3way "$PATCHES/$p" >"$LOGS/am.log" 2>&1; then
				g am --abort >/dev/null 2>&1 || true
				sed 's/^/  | /' "$LOGS/am.log" | sed -n 1,15p >&2
				die "patch $p does not apply to base $base_info"
			fi
			n=$((n + 1))
		done
		g tag -f "$(posting_tag "$d")" HEAD >/dev/null
	done
	msg "series: $n patch(es) of $(selected_postings | wc -w) posting(s) ($(selected_postings)) applied on base $base_info"
	write_stamp
}

# The cover letter names the base the series was made on; say so when this
# machine's base differs (the patches may still apply).
check_cover_base() {
	local want have
	want=$(sed -n '/^base-commit: /{s///p;q}' "$PATCHES/${POSTINGS[0]}/0000-cover-letter.patch" 2>/dev/null)
	have=$(g rev-parse "$BASE_TAG")
	[ -z "$want" ] || [ "$want" = "$have" ] ||
		warn "the series was made on base-commit $want, this base is $have ($(sed -n 's/^debian_package=//p' "$BUILD/base.txt"))"
}

write_stamp() {
	printf 'patches=%s\nexport=%s\nselected=%s\n' "$(patches_hash)" "$(export_hash)" \
		"$(selected_postings)" >"$(stamp_file)"
}

stamp() { sed -n "s/^$1=//p" "$(stamp_file)" 2>/dev/null || true; }

# posting_range POSTING: the commits of a posting, as A..B.  A posting
# ends at its tag; the last one selected ends at HEAD.
posting_range() {
	local d=$1 prev=$BASE_TAG x end=HEAD
	for x in "${POSTINGS[@]}"; do
		[ "$x" = "$d" ] && break
		prev=$(posting_tag "$x")
	done
	[ "$d" = "$(selected_postings | awk '{print $NF}')" ] || end=$(posting_tag "$d")
	for x in "$prev" "$end"; do
		g rev-parse -q --verify "$x^{commit}" >/dev/null ||
			die "build/linux has no tag $x: tag the last commit of that posting (git -C build/linux tag -f $x COMMIT)"
		g merge-base --is-ancestor "$x" HEAD ||
			die "build/linux: tag $x is not on HEAD (after a rebase, move it: git -C build/linux tag -f $x COMMIT)"
	done
	echo "$prev..$end"
}

# export_to DIR: format the commits above the base into DIR, as patches/
# holds them: per posting a directory of numbered patches with a cover
# letter, and one series file.  The output depends on the commits alone
# (no dates of today, no commit ids but the base's), so an unchanged tree
# exports byte-identically.  Postings SERIES leaves out keep their lines
# of patches/series.
export_to() {
	local dir=$1 d range n sel
	sel=" $(selected_postings) "
	mkdir -p "$dir"
	: >"$dir/series"
	for d in "${POSTINGS[@]}"; do
		if [[ $sel != *" $d "* ]]; then
			[ -f "$PATCHES/series" ] && grep -E "^(# )?$d[/:]" "$PATCHES/series" >>"$dir/series" || true
			continue
		fi
		range=$(posting_range "$d")
		n=$(g rev-list --count "$range")
		mkdir -p "$dir/$d"
		if [ "$n" -gt 0 ]; then
			g format-patch -q --numbered --zero-commit --no-signature \
				--subject-prefix="PATCH v$SERIES_VERSION" \
				--abbrev=12 --no-binary -o "$dir/$d" "$range"
		fi
		cover_letter "$d" "$range" "$n" >"$dir/$d/0000-cover-letter.patch"
		printf '# %s: %s\n' "$d" "$(sed -n 's/^Subject: //p' "$dir/$d/0000-cover-letter.patch")" >>"$dir/series"
		(cd "$dir/$d" && ls -1 | grep -E '^[0-9]{4}-.*\.patch$' | grep -v '^0000-' | sed "s|^|$d/|" || true) >>"$dir/series"
	done
}

# cover_letter POSTING RANGE N: the subject, the recipients (To: and Cc:
# headers) and text are kept from the posting's cover letter in patches/;
# the shortlog, diffstat and base lines
# are regenerated.  A posting that applies on another one names the base
# and, as git format-patch --base does, the patch ids of the patches it
# needs (prerequisite-patch-id:).
cover_letter() {
	local d=$1 range=$2 n=$3 old=$PATCHES/$1/0000-cover-letter.patch subject blurb who c rcpt=
	subject="Time interpolator for Linux $BASE ($d)"
	blurb="*** Describe the posting here. ***"
	if [ -f "$old" ]; then
		subject=$(sed -n '/^Subject: \[PATCH[^]]*\] /{s///p;q}' "$old")
		rcpt=$(awk '/^$/ {exit} /^(To|Cc): / {print}' "$old")
		# The text: from the first blank line after the headers to the
		# shortlog ("Name (N):"), the diffstat, or base-commit.
		blurb=$(awk 'body == 0 && /^$/ {body = 1; next}
			     body == 1 && (/^[^ ].* \([0-9]+\):$/ || /^base-commit:/ ||
					   /^ [0-9]+ files? changed/) {exit}
			     body == 1 {print}' "$old")
	fi
	who="$(g config user.name) <$(g config user.email)>"
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: %s\n' "$who"
	printf 'Date: %s\n' "$(g log -1 --format=%aD "${range#*..}")"
	printf 'Subject: [PATCH v%s 0/%d] %s\n' "$SERIES_VERSION" "$n" "$subject"
	[ -z "$rcpt" ] || printf '%s\n' "$rcpt"
	echo
	printf '%s\n\n' "$blurb" | cat -s
	if [ "$n" -gt 0 ]; then
		g shortlog "$range"
		g diff --stat=72 --summary "${range%..*}" "${range#*..}"
		echo
	fi
	printf 'base-commit: %s\n' "$(g rev-parse "$BASE_TAG")"
	[ "$POSTINGS_APART" = 1 ] ||
	for c in $(g rev-list --reverse "$BASE_TAG..${range%..*}"); do
		printf 'prerequisite-patch-id: %s\n' "$(g show "$c" | g patch-id --stable | cut -d' ' -f1)"
	done
	printf -- '-- \n'
}

require_tree() {
	[ -d "$SRC/.git" ] || die "no build/linux: run make tree"
	g rev-parse -q --verify "$BASE_TAG" >/dev/null || die "build/linux has no '$BASE_TAG' tag: remove build/linux and run make tree"
}

# What build/linux holds beyond patches/, as text; empty when nothing.
tree_delta() {
	local tmp st d
	if [ -d "$SRC/.git/rebase-apply" ] || [ -d "$SRC/.git/rebase-merge" ]; then
		echo "build/linux: a git am or rebase is in progress"
	fi
	st=$(g status --porcelain | sed -n 1,20p)
	[ -z "$st" ] || printf 'build/linux: uncommitted changes:\n%s\n' "$st"
	tmp=$(mktemp -d)
	export_to "$tmp"
	for d in $(selected_postings); do
		diff -r -q "$PATCHES/$d" "$tmp/$d" 2>&1 || true
	done | sed -e "s|$tmp|build/linux|g" -e "s|$PATCHES|patches|g"
	cmp -s "$PATCHES/series" "$tmp/series" || echo "patches/series and build/linux's series differ"
	rm -rf "$tmp"
}

cmd_export() {
	require_tree
	[ -z "$(g status --porcelain)" ] ||
		die "build/linux has uncommitted changes: commit them first"
	local tmp f changed=0
	tmp=$(mktemp -d)
	export_to "$tmp"
	mkdir -p "$PATCHES"
	for f in "$PATCHES"/*.patch; do	# the layout of one posting
		[ -e "$f" ] || continue
		rm -f "$f"; echo "removed patches/$(basename "$f")"; changed=1
	done
	for f in $(cd "$PATCHES" && for d in $(selected_postings); do ls -1 "$d"/*.patch 2>/dev/null; done); do
		[ -e "$tmp/$f" ] || { rm -f "$PATCHES/$f"; echo "removed patches/$f"; changed=1; }
	done
	for f in $(cd "$tmp" && find . -type f | sed 's|^\./||' | LC_ALL=C sort); do
		if ! cmp -s "$tmp/$f" "$PATCHES/$f"; then
			mkdir -p "$(dirname "$PATCHES/$f")"
			cp "$tmp/$f" "$PATCHES/$f"
			echo "wrote patches/$f"
			changed=1
		fi
	done
	rm -rf "$tmp"
	[ $changed -eq 1 ] || echo "patches/ already matches build/linux"
	write_stamp
}

cmd_series_check() {
	if [ ! -d "$SRC/.git" ]; then
		echo "series-check: no build/linux, nothing to compare"
		return 0
	fi
	require_tree
	local d
	d=$(tree_delta)
	if [ -n "$d" ]; then
		printf '%s\n' "$d"
		die "series-check: build/linux and patches/ differ (make export, then commit patches/)"
	fi
	echo "series-check: build/linux matches patches/ ($(series_list | wc -l) patches in $(selected_postings | wc -w) posting(s): $(selected_postings))"
}

# export_hash: the hash of what export would write now, of the tree's
# commits: not the cover letters, whose text export takes from patches/.
export_hash() {
	local tmp
	tmp=$(mktemp -d)
	export_to "$tmp"
	dir_hash "$tmp" . ! -name 0000-cover-letter.patch
	rm -rf "$tmp"
}

# save_mtimes REV: for each file REV changed above the base, its blob in
# REV, its mtime and its name; restore_mtimes puts the mtime back on the
# files whose blob HEAD still has.  Around a rewrite of the commits, the
# files it did not change keep their mtimes, so the kernel builds stay
# incremental (each flavour would otherwise rebuild most of itself for a
# new clocksource.h).  Only for a clean tree: an edited file's mtime is
# not its commit's.
save_mtimes() {
	local f
	g diff --name-only --no-renames "$BASE_TAG" "$1" | while IFS= read -r f; do
		[ -f "$SRC/$f" ] || continue
		printf '%s %s %s\n' "$(g rev-parse "$1:$f")" "$(stat -c %.9Y "$SRC/$f")" "$f"
	done
}

restore_mtimes() {
	local blob mtime f
	while read -r blob mtime f; do
		if [ -f "$SRC/$f" ] && [ "$(g rev-parse -q --verify "HEAD:$f")" = "$blob" ]; then
			touch -m -d "@$mtime" "$SRC/$f"
		fi
	done
}

# reapply: build/linux back to the base, then the selected postings, with
# the mtimes of the files whose content comes back unchanged: patches/
# changed in their messages alone rebuild nothing.
reapply() {
	local old kept
	kept=$(mktemp)
	g am --abort >/dev/null 2>&1 || true
	old=$(g rev-parse -q --verify HEAD) || old=
	if [ -n "$old" ] && [ -z "$(g status --porcelain --untracked-files=no)" ]; then
		save_mtimes "$old" >"$kept"
	fi
	g reset -q --hard "$BASE_TAG"
	g clean -q -fdx
	apply_series
	restore_mtimes <"$kept"
	rm -f "$kept"
}

# squash: fold the fixup! and squash! commits of build/linux into the
# commits they name (git rebase --autosquash on the base), move each
# posting's tag to its last commit again (found by subject), and keep the
# mtimes of the files the rewrite did not change.  Then make export.
cmd_squash() {
	require_tree
	[ -z "$(g status --porcelain --untracked-files=no)" ] ||
		die "build/linux has uncommitted changes: commit them first (git commit --fixup=COMMIT)"
	local kept d t subj new
	local -A tag_subj=()
	kept=$(mktemp)
	save_mtimes HEAD >"$kept"
	for d in $(selected_postings); do
		t=$(posting_tag "$d")
		g rev-parse -q --verify "$t^{commit}" >/dev/null &&
			tag_subj[$t]=$(g log -1 --format=%s "$t")
	done
	if ! GIT_SEQUENCE_EDITOR=: g rebase -q -i --autosquash "$BASE_TAG" >"$LOGS/squash.log" 2>&1; then
		sed 's/^/  | /' "$LOGS/squash.log" | tail -n 15 >&2
		rm -f "$kept"
		die "squash: the rebase stopped (a conflict?): resolve it in build/linux and git rebase --continue, then make squash again (it moves the posting tags), or git rebase --abort"
	fi
	restore_mtimes <"$kept"
	rm -f "$kept"
	for t in "${!tag_subj[@]}"; do
		subj=${tag_subj[$t]}
		new=$(g log --format='%H %s' "$BASE_TAG..HEAD" |
		      awk -v s="$subj" '!n && substr($0, 42) == s { print $1; n = 1 }')
		[ -n "$new" ] || die "squash: no commit with the subject of $t ($subj) after the rebase"
		g tag -f "$t" "$new" >/dev/null
	done
	msg "squash: $(g rev-list --count "$BASE_TAG..HEAD") commits above the base; now make export"
}

# sync: bring build/linux to patches/, keeping the tree (and the kernel's
# incremental build) when it already matches.  Work in build/linux that
# patches/ lacks is never thrown away without FORCE=1.
cmd_sync() {
	local sha
	if [ -d "$SRC/.git" ] && [ -f "$BUILD/base.txt" ]; then
		sha=$(sed -n 's/^sha256=//p' "$BUILD/base.txt")
		if [ "$(sha256sum "$BASE_TARBALL" 2>/dev/null | cut -d' ' -f1)" != "$sha" ]; then
			[ -z "$(tree_delta)" ] || [ "${FORCE:-}" = 1 ] ||
				die "the base tarball changed since build/linux was made, and build/linux holds work: make export, or FORCE=1"
			msg "base: $BASE_TARBALL changed; rebuilding build/linux"
			make_base
			apply_series
			return
		fi
	else
		make_base
		apply_series
		return
	fi
	require_tree
	local e p clean=0 was
	p=$(patches_hash)
	[ -z "$(g status --porcelain)" ] && [ ! -d "$SRC/.git/rebase-apply" ] && clean=1
	# SERIES chose other postings than the tree holds: re-apply, if the
	# tree holds nothing beyond what its own postings exported.
	was=$(stamp selected)
	if [ -n "$was" ] && [ "$was" != "$(selected_postings)" ]; then
		e=$(SERIES=$([ "$was" = "${POSTINGS[0]}" ] && echo core || echo all) export_hash)
		[ $clean = 1 ] && [ "$e" = "$(stamp export)" ] || [ "${FORCE:-}" = 1 ] ||
			die "build/linux holds work beyond patches/ (postings: $was): run make export with that SERIES, or FORCE=1"
		msg "tree: applying the posting(s) $(selected_postings) (the tree held $was)"
		# The first posting alone: cut at its tag; all again: the rest
		# on top.  Files the first posting's commits made stay as they
		# are, so the kernel build keeps their objects.
		if [ "$(selected_postings)" = "${POSTINGS[0]}" ]; then
			g reset -q --hard "$(posting_tag "${POSTINGS[0]}")"
			write_stamp
		elif [ "$was" = "${POSTINGS[0]}" ] && [ "$(g rev-parse HEAD)" = "$(g rev-parse "$(posting_tag "$was")")" ]; then
			apply_series "${POSTINGS[@]:1}"
		else
			reapply
		fi
		return
	fi
	e=$(export_hash)
	if [ $clean = 1 ] && [ "$e" = "$(stamp export)" ] && [ "$p" = "$(stamp patches)" ]; then
		msg "tree: build/linux matches patches/"
		return 0
	fi
	# The commits were rewritten (a rebase that changed messages) and
	# exported since the stamp: the tree is what patches/ holds.
	if [ $clean = 1 ] && [ -z "$(tree_delta)" ]; then
		msg "tree: build/linux matches patches/ (its stamp renewed)"
		write_stamp
		return 0
	fi
	if [ $clean = 1 ] && [ "$e" = "$(stamp export)" ] || [ "${FORCE:-}" = 1 ]; then
		msg "tree: patches/ changed; re-applying the series on the base"
		reapply
		return
	fi
	tree_delta >&2
	die "build/linux holds work that patches/ lacks: run make export to keep it, or FORCE=1 make tree to drop it"
}

cmd_base_tree() {
	require_tree
	if [ ! -f "$BASE_SRC/Makefile" ]; then
		msg "base: checking out the unpatched base in build/base"
		rm -rf "$BASE_SRC"
		g worktree prune
		g worktree add -q --detach "$BASE_SRC" "$BASE_TAG"
	fi
}

case ${1:-} in
tree|sync) mkdir -p "$LOGS"; cmd_sync ;;
series-list) series_list ;;
export) cmd_export ;;
series-check) cmd_series_check ;;
squash) mkdir -p "$LOGS"; cmd_squash ;;
base-tree) cmd_base_tree ;;
base-info) cat "$BUILD/base.txt" ;;
*) die "usage: tree.sh tree|sync|export|series-check|squash|series-list|base-tree|base-info" ;;
esac
