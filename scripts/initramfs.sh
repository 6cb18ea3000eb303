#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Pack the guest's initramfs for one flavour: busybox, /init, the selftest
# collections, the guest programs, the shared libraries any dynamic test
# needs, and one run list per boot of the plan (/plan/NAME).
# Usage: initramfs.sh patched|base
#        initramfs.sh patched|base run PROGRAM...
# "run" packs make run's own small initramfs instead, run-initramfs.cpio.gz
# beside make test's (root run-root): busybox, /init and the guest
# PROGRAMs alone (static, from build-tests.sh FLAVOUR PROGRAM...).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:?flavour}
mode=${2:-test}
case $mode in test|run) ;; *) die "usage: initramfs.sh FLAVOUR [run PROGRAM...]" ;; esac
out=$(out_dir "$flavour")
root=$out/root
[ "$mode" = run ] && root=$out/run-root
[ "$mode" = run ] || [ -d "$out/ksft" ] || die "no built tests for $flavour: run build-tests.sh $flavour"
BUSYBOX=${BUSYBOX:-/bin/busybox}
[ -x "$BUSYBOX" ] || die "no $BUSYBOX: apt-get install busybox-static"
# (Not readelf | grep -q: under pipefail that fails when grep quits first.)
is_dynamic() { [[ $(readelf -l "$1" 2>/dev/null) == *'program interpreter'* ]]; }
is_dynamic "$BUSYBOX" &&
	die "$BUSYBOX is dynamically linked: apt-get install busybox-static"

rm -rf "$root"
mkdir -p "$(dirname "$root")"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,plan,guest,user,etc}
cp "$BUSYBOX" "$root/bin/busybox"
for a in $("$BUSYBOX" --list); do
	[ "$a" = busybox ] || ln -sf busybox "$root/bin/$a"
done
install -m 755 "$TOP/scripts/guest/init" "$root/init"
echo "root:x:0:0:root:/:/bin/sh" >"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"

if [ "$mode" = run ]; then
	shift 2
	for p in "$@"; do
		[ -x "$out/guest/$p" ] || die "no guest program $out/guest/$p: run build-tests.sh $flavour $p"
		is_dynamic "$out/guest/$p" && die "$out/guest/$p is dynamically linked"
		cp "$out/guest/$p" "$root/guest/"
	done
	pack "$root" "$out/run-initramfs.cpio.gz"
	msg "initramfs ($flavour, make run): $(du -h "$out/run-initramfs.cpio.gz" | cut -f1), /guest: $*"
	exit 0
fi

cp -a "$out/ksft" "$root/ksft"
find "$out/guest" -maxdepth 1 -type f -perm -u+x -exec cp {} "$root/guest/" \;

# Dynamic test programs (the ones whose Makefile rules ignore LDFLAGS) get
# their libraries and loader, at the paths ldd reports.
find "$root/ksft" "$root/guest" -type f -perm -u+x | while read -r f; do
	is_dynamic "$f" || continue
	for lib in $(ldd "$f" 2>/dev/null | grep -oE '/[^ ]+'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done

# The base runs what it has of the plan: the series' own tests are not in it.
# T=, KUNIT= (make test T=timers:cpu-lag): the selected boots' lists alone,
# narrowed (scripts/plan.sh).
missing=
[ "$flavour" = base ] && missing=skip
PLAN_MISSING=$missing "$TOP/scripts/plan.sh" lists "$out/ksft" "$root/plan"

pack "$root" "$out/initramfs.cpio.gz"
msg "initramfs ($flavour): $(du -h "$out/initramfs.cpio.gz" | cut -f1), plan: $(ls "$root/plan" | tr '\n' ' ')"
