#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch BASE's linux-source from Debian unstable (BASE=7.2: mainline, the
# base a posting is judged on), which Debian 12's apt sources do not
# carry.  A private apt configuration under build/apt-unstable/ (its own
# sources.list, lists and cache; the machine's apt sources and state are
# left alone) downloads the package, not installing it: apt checks the
# .deb against the SHA256 of the signed index (debian-archive-keyring).
# The source tarball is taken out of it into $BUILD/pkg/usr/src/, and
# $BUILD/pkg/version, $BUILD/pkg/deb and $BUILD/pkg/deb.sha256 record
# which package it came from; tree.sh writes them into base.txt and the
# base commit.  Nothing is fetched when the index, at most a day old,
# names the version already taken out.
# Usage: BASE=7.2 fetch-unstable.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

from_unstable || die "fetch-unstable.sh: BASE=$BASE comes from Debian 12's own packages"
apt_dir=$TOP/build/apt-unstable
pkg_dir=$BUILD/pkg
log=$LOGS/fetch-unstable.log
private_apt "$apt_dir" \
	"deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian unstable main"
APT_OPTS+=(-o APT::Architectures=amd64)
mkdir -p "$pkg_dir" "$LOGS"

if ! private_apt_fresh "$apt_dir"; then
	msg "base: Debian unstable's package index (private apt configuration, $apt_dir)"
	if ! run_logged "$log" apt-get "${APT_OPTS[@]}" update -q; then
		# Without the network a tarball already taken out still serves.
		[ -f "$BASE_TARBALL" ] && { warn "apt-get update of unstable failed; keeping $(cat "$pkg_dir/version" 2>/dev/null)"; exit 0; }
		die "base: apt-get update of Debian unstable failed (log $log)"
	fi
fi
want=$(apt-cache "${APT_OPTS[@]}" show "$BASE_PKG" 2>/dev/null | sed -n 's/^Version: //p' | sed -n 1p)
[ -n "$want" ] || die "base: Debian unstable has no $BASE_PKG"
if [ -f "$BASE_TARBALL" ] && [ "$(cat "$pkg_dir/version" 2>/dev/null)" = "$want" ]; then
	exit 0
fi

msg "base: downloading $BASE_PKG $want from Debian unstable"
rm -rf "$pkg_dir" && mkdir -p "$pkg_dir"
(cd "$pkg_dir" && run_logged "$log.download" apt-get "${APT_OPTS[@]}" download -q "$BASE_PKG=$want") ||
	die "base: apt-get download $BASE_PKG=$want failed (log $log.download)"
deb=$(find "$pkg_dir" -maxdepth 1 -name "${BASE_PKG}_*.deb" | sed -n 1p)
[ -n "$deb" ] || die "base: no .deb of $BASE_PKG in $pkg_dir"
dpkg-deb --fsys-tarfile "$deb" | tar -C "$pkg_dir" -x "./usr/src/$BASE_PKG.tar.xz" ||
	die "base: $deb holds no usr/src/$BASE_PKG.tar.xz"
dpkg-deb -f "$deb" Version >"$pkg_dir/version"
basename "$deb" >"$pkg_dir/deb"
sha256sum "$deb" | cut -d' ' -f1 >"$pkg_dir/deb.sha256"
rm -f "$deb"
msg "base: $BASE_PKG $(cat "$pkg_dir/version"), .deb sha256 $(cat "$pkg_dir/deb.sha256")"
