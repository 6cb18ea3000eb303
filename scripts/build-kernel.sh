#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Configure and build the x86 guest kernel of one flavour, incrementally.
# Usage: build-kernel.sh patched|base|debug|i386
#
# The config is tinyconfig plus configs/x86_64-guest.config (every option
# of which must survive olddefconfig) plus configs/x86_64-series.config
# (options the series adds: absent on the base, so only reported).
# The debug flavour adds configs/x86_64-debug.config, every option of which
# must survive too.  The i386 flavour is ARCH=i386 with the same fragments
# less their 64-bit options (64BIT, IA32_EMULATION, X86_X32_ABI), plus
# HIGHMEM4G for the guest's 1 GiB, and less upstream's TIME_KUNIT_TEST:
# its 64-bit divisions over 1.6 million days took 23 s under TCG on i386,
# and RCU reported the stall (the kernel does not preempt a KUnit case).  KCONFIG_EXTRA names further fragments.
# While make runs, a line every 30 s says how long and what it builds;
# V=1 shows make's output instead.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:?flavour}
src=$(flavour_src "$flavour")
obj=$(obj_dir "$flavour")
log=$LOGS/build-$flavour.log
[ -f "$src/Makefile" ] || die "no $src: run make tree"
mkdir -p "$obj" "$LOGS"

frags=("$TOP/configs/x86_64-guest.config")
arch=()
if [ "$flavour" = i386 ]; then
	arch=(ARCH=i386)
	grep -v -e '^CONFIG_64BIT=' -e '^CONFIG_IA32_EMULATION=' -e '^CONFIG_X86_X32_ABI=' \
		-e '^CONFIG_TIME_KUNIT_TEST=' \
		"$TOP/configs/x86_64-guest.config" >"$obj/th-i386-guest.frag"
	echo CONFIG_HIGHMEM4G=y >>"$obj/th-i386-guest.frag"
	frags=("$obj/th-i386-guest.frag")
fi
[ -f "$TOP/configs/x86_64-series.config" ] && frags+=("$TOP/configs/x86_64-series.config")
extra=${KCONFIG_EXTRA:-}
[ "$flavour" = debug ] && extra="x86_64-debug.config $extra"
for f in $extra; do
	[ -f "$f" ] || f=$TOP/configs/$f
	[ -f "$f" ] || die "KCONFIG_EXTRA: no fragment $f"
	frags+=("$f")
done
# Not named localversion*: setlocalversion would read it as a suffix.
local_frag=$obj/th-release.frag
if [ "$flavour" = patched ]; then
	echo "CONFIG_LOCALVERSION=\"-$SERIES_NAME\"" >"$local_frag"
elif [ "$flavour" = debug ] || [ "$flavour" = i386 ]; then
	echo "CONFIG_LOCALVERSION=\"-$SERIES_NAME-$flavour\"" >"$local_frag"
else
	echo 'CONFIG_LOCALVERSION="-base"' >"$local_frag"
fi
frags+=("$local_frag")

# The config follows from the fragments, the tree's Kconfig files, the
# compiler and this script: with all of them as at the last configuring,
# it is that one.  Otherwise regenerate it, but keep the old file (and its
# mtime) when nothing changed, so that an unchanged tree does not rebuild.
# (Configuring takes 10 s alone, but 3 min at idle priority beside four
# guests: make test's debug kernel.)
key=$(kernel_config_key "$src" "${frags[@]}" "$0") || key=
if [ -f "$obj/.config" ] && key_matches "$obj/.th-config-key" "$key"; then
	msg "kernel ($flavour): config unchanged (same tree, fragments and compiler)"
else
	rm -f "$obj/.th-config-key"
	[ -f "$obj/.config" ] && cp -p "$obj/.config" "$obj/.config.prev"
	msg "kernel ($flavour): configuring"
	run_logged "$log" make -C "$src" O="$obj" "${arch[@]}" tinyconfig
	run_logged "$log.merge" "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}"
	run_logged "$log.olddefconfig" make -C "$src" O="$obj" "${arch[@]}" olddefconfig
	if [ -f "$obj/.config.prev" ] && cmp -s "$obj/.config" "$obj/.config.prev"; then
		mv "$obj/.config.prev" "$obj/.config"
	else
		rm -f "$obj/.config.prev"
	fi
fi

# check_frag FRAGMENT STRICT: every option of FRAGMENT made it.
check_frag() {
	local f=$1 strict=$2 line k bad=()
	while IFS= read -r line; do
		case $line in
		CONFIG_*=n) k=${line%%=*}; grep -q "^$k=" "$obj/.config" && bad+=("$line") ;;
		CONFIG_*=*) grep -qxF "$line" "$obj/.config" || bad+=("$line") ;;
		esac
	done <"$f"
	[ ${#bad[@]} -eq 0 ] && return 0
	if [ "$strict" = 1 ]; then
		die "kernel ($flavour): $(basename "$f"): not in the final config (missing dependency?): ${bad[*]}"
	fi
	[ "$flavour" = base ] || warn "kernel ($flavour): $(basename "$f"): not set: ${bad[*]}"
}
check_frag "${frags[0]}" 1
[ -f "$TOP/configs/x86_64-series.config" ] && check_frag "$TOP/configs/x86_64-series.config" 0
for f in $extra; do
	[ -f "$f" ] || f=$TOP/configs/$f
	check_frag "$f" 1
done
[ -z "$key" ] || echo "$key" >"$obj/.th-config-key"

# The same config and the same tree (HEAD and its uncommitted changes) as
# the last good build: that build's bzImage stands, without running make,
# whose pass over an unchanged tree took 150 s at idle priority beside
# four guests.
build_key=
[ -z "$key" ] || build_key=$(kernel_build_key "$src" "$key") || build_key=
if [ -f "$obj/arch/x86/boot/bzImage" ] && key_matches "$obj/.th-build-key" "$build_key"; then
	msg "kernel ($flavour): $(cat "$obj/include/config/kernel.release") unchanged since its last build (same tree and config)"
	exit 0
fi
rm -f "$obj/.th-build-key"

# The unpatched base never changes: its build key (Debian's tarball, the
# fragments, this script, the compiler) names a bzImage cached outside the
# tree, in $KERNEL_CACHE (default ~/.cache/time-interp/kernel-base), so
# that a fresh clone's make test boots the base (th.kernel=base) without
# building it again.  Only the bzImage is kept: SERIES=none make test,
# which builds the base's tests and headers from its objects, builds it.
kcache=${KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/time-interp/kernel-base}/$build_key
if [ "$flavour" = base ] && [ -n "$build_key" ] && [ "${SERIES:-}" != none ] &&
   [ -f "$kcache/bzImage" ] && [ -f "$kcache/kernel.release" ]; then
	mkdir -p "$obj/arch/x86/boot" "$obj/include/config"
	cp "$kcache/bzImage" "$obj/arch/x86/boot/bzImage"
	cp "$kcache/kernel.release" "$obj/include/config/kernel.release"
	echo "$build_key" >"$obj/.th-build-key"
	msg "kernel ($flavour): $(cat "$kcache/kernel.release") from the cache ($kcache)"
	exit 0
fi

# The estimate: this machine's last build of the same kind (from scratch:
# no object of the kernel's own yet, kconfig's host programs aside; else
# incremental), or the fresh-machine figure (lib.sh's timing_estimate); a
# line every 30 s while it builds (V=1: the output).
kind=incremental
[ -n "$(find "$obj/kernel" -maxdepth 1 -name '*.o' -print -quit 2>/dev/null)" ] || kind=fresh
step=kernel-$flavour-$BASE
msg "kernel ($flavour): building bzImage, $kind: $(timing_estimate "$step" "$kind") (log $log)"
start=$(date +%s)
# LOCALVERSION= (set, empty) keeps setlocalversion from adding "+" for a
# git tree that is not at a release tag.
run_progress "$log" "kernel ($flavour)" make -C "$src" O="$obj" "${arch[@]}" LOCALVERSION= -j"$JOBS" bzImage ||
	die "kernel ($flavour) build failed"
timing_record "$step" "$kind" $(( $(date +%s) - start ))
[ -z "$build_key" ] || echo "$build_key" >"$obj/.th-build-key"
if [ "$flavour" = base ] && [ -n "$build_key" ]; then
	mkdir -p "$kcache.tmp"
	cp "$obj/arch/x86/boot/bzImage" "$obj/include/config/kernel.release" "$kcache.tmp/"
	rm -rf "$kcache" && mv "$kcache.tmp" "$kcache"
fi
msg "kernel ($flavour): $(cat "$obj/include/config/kernel.release") built in $(( $(date +%s) - start )) s"
