#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A sparse that the kernel of $SRC accepts, for make check's C=2.
#
# Kbuild runs its scripts/checker-valid.sh on $(CHECK) first and, when that
# fails, only warns ("C=2 specified, but sparse is not available or not up
# to date") and builds without the checker.  From 6.15 on the kernel wants
# __typeof_unqual__, which Debian 12's sparse 0.6.4 lacks: C=2 on 7.2 would
# check nothing.  So: Debian 12's sparse when the kernel accepts it (6.1,
# 6.12: they have no checker-valid.sh), else the sparse source package of
# Debian unstable (its binary wants a newer libc), fetched through a private
# apt configuration under build/apt-sid-src and built with the machine's
# gcc (13 s on 2 cores), cached in $SPARSE_CACHE (default
# ~/.cache/time-interp/sparse/KEY), KEY the sha256 of the .dsc and of
# build_sparse below.
# Prints the sparse to use on its last line; fails when none is accepted.
# Usage: sparse.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

apt_dir=$BUILD/apt-sid-src
src_dir=$BUILD/sparse-src
root=${SPARSE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/time-interp/sparse}
log=$LOGS/sparse.log
mkdir -p "$root" "$LOGS"

# accepted SPARSE: the kernel's own test of its checker, with the flags
# Kbuild gives it for x86_64 (the checks run there).
accepted() {
	local valid=$SRC/scripts/checker-valid.sh
	[ -x "$(command -v "$1")" ] || return 1
	[ -f "$valid" ] || return 0
	[ "$(sh "$valid" "$1" --arch=x86_64 -mlittle-endian -m64)" = 1 ]
}

"$TOP/scripts/deps.sh" sparse >&2
if accepted sparse; then
	command -v sparse
	exit 0
fi
msg "sparse: $SRC refuses Debian 12's $(sparse --version 2>&1); building Debian unstable's"
"$TOP/scripts/deps.sh" dpkg-dev >&2

exec 9>"$root.lock"
flock 9

deb_src_apt "$apt_dir" unstable
if ! private_apt_fresh "$apt_dir"; then
	run_logged "$log.apt" apt-get "${APT_OPTS[@]}" update -q ||
		die "sparse: apt-get update of unstable's deb-src list failed"
fi
mkdir -p "$src_dir"
(cd "$src_dir" && run_logged "$log.apt-source" \
	apt-get "${APT_OPTS[@]}" source --download-only -q sparse) ||
	die "sparse: apt-get source sparse failed"
dsc=$(ls -t "$src_dir"/sparse_*.dsc | sed -n 1p)

# build_sparse WORK: the source package unpacked in WORK/src and its
# sparse built there with the machine's gcc (Debian's packaging names the
# gcc of unstable), without the optional front ends.
build_sparse() {
	local work=$1
	run_logged "$log.unpack" dpkg-source -x "$dsc" "$work/src" ||
		die "sparse: dpkg-source -x failed"
	run_logged "$log" make -C "$work/src" -j"$JOBS" CC=gcc HAVE_LLVM=no \
		HAVE_GTK=no HAVE_LIBXML=no HAVE_SQLITE=no sparse ||
		die "sparse: the build failed"
}

key=$({ cat "$dsc"; declare -f build_sparse; } | sha256sum | cut -c1-16)
bin=$root/$key/sparse
if [ ! -x "$bin" ]; then
	work=$(mktemp -d "$BUILD/sparse-build.XXXXXX")
	build_sparse "$work"
	mkdir -p "$root/$key"
	cp "$work/src/sparse" "$bin.tmp" && mv "$bin.tmp" "$bin"
	rm -rf "$work"
fi
accepted "$bin" || die "sparse: $SRC refuses $bin too ($(basename "$dsc"))"
msg "sparse: $bin, from $(basename "$dsc")"
echo "$bin"
