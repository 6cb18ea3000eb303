#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot one guest under QEMU (TCG) with a wall-clock limit; the console goes
# to LOG (and to stdout with SHOW=1).  Exit status: QEMU's, or 124 when the
# limit ran out.
# Usage: boot.sh FLAVOUR LOG SMP LIMIT "KERNEL ARGS" [INITRD]
# th.kernel=debug among the arguments boots the debug flavour's kernel with
# FLAVOUR's initramfs, and th.kernel=base the unpatched base's kernel with
# it (the series' tests on the kernel they were written against), and
# th.kernel=i386 the series built for 32-bit x86 with it, its init
# /guest/init32 (an i386 kernel cannot run the initramfs's busybox);
# th.nice=N runs QEMU at that nice value (make test runs the guests of the
# latency tests at -10, so that the busy guests beside them cannot delay
# their timers by milliseconds).  th.skew=CPU:NS[:PPM],... boots under
# the QEMU of scripts/qemu-skew.sh ($QEMU_SKEW_BIN), which gives those
# vCPUs TSCs of their own: NS ahead (negative: behind) of vCPU 0's, and
# PPM fast (negative: slow).  th.invtsc boots that QEMU with
# "-cpu max,+invtsc": an invariant TSC (constant and non-stop), which
# stock TCG does not offer; th.tscadjust with "+tsc-adjust": CPUID
# advertises IA32_TSC_ADJUST, which that QEMU keeps per vCPU.  th.sockets=N spreads the vCPUs over N
# packages ("-smp SMP,sockets=N").  7.2 counts the packages before it
# sets up the TSC, and unsynchronized_tsc() trusts the non-constant TSC
# of TCG's AMD CPU in one package (6.1 counts them later, and does not).
# th.mode=shell (make shell) puts the console on this terminal both
# ways, with no time limit: "-serial mon:stdio", so ^C reaches the guest
# and Ctrl-A X ends QEMU (Ctrl-A C: its monitor); LOG gets the QEMU
# command line alone.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=$1 log=$2 smp=$3 limit=$4 append=$5
kernel=$(obj_dir "$flavour")/arch/x86/boot/bzImage
[[ " $append " == *" th.kernel=debug "* ]] && kernel=$(obj_dir debug)/arch/x86/boot/bzImage
[[ " $append " == *" th.kernel=base "* ]] && kernel=$(obj_dir base)/arch/x86/boot/bzImage
if [[ " $append " == *" th.kernel=i386 "* ]]; then
	kernel=$(obj_dir i386)/arch/x86/boot/bzImage
	append="rdinit=/guest/init32 $append"
fi
# TH_BOOT_KERNEL=path (make boot KERNEL=path): that bzImage, whatever
# the flavour.
[ -z "${TH_BOOT_KERNEL:-}" ] || kernel=$TH_BOOT_KERNEL
qemu_bin=qemu-system-x86_64 fw=() cpu=max
unset QEMU_TSC_SKEW
if [[ " $append " =~ \ th\.skew=([^ ]+)\  ]]; then
	export QEMU_TSC_SKEW=${BASH_REMATCH[1]}
fi
[[ " $append " == *" th.invtsc "* ]] && cpu+=,+invtsc
[[ " $append " == *" th.tscadjust "* ]] && cpu+=,+tsc-adjust
if [ -n "${QEMU_TSC_SKEW:-}" ] || [ "$cpu" != max ]; then
	[ -x "${QEMU_SKEW_BIN:-}" ] ||
		die "th.skew, th.invtsc and th.tscadjust need the QEMU of scripts/qemu-skew.sh: QEMU_SKEW_BIN='${QEMU_SKEW_BIN:-}'"
	qemu_bin=$QEMU_SKEW_BIN
	# Firmware where Debian puts it: the build looks under /usr/local.
	fw=(-L /usr/share/qemu -L /usr/share/seabios -L /usr/lib/ipxe/qemu)
fi
nice=0
[[ " $append " =~ \ th\.nice=(-?[0-9]+)\  ]] && nice=${BASH_REMATCH[1]}
smp_arg=$smp
[[ " $append " =~ \ th\.sockets=([1-9][0-9]*)\  ]] && smp_arg=$smp,sockets=${BASH_REMATCH[1]}
initrd=${6:-$(out_dir "$flavour")/initramfs.cpio.gz}
[ -f "$kernel" ] || die "no kernel $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd"
mkdir -p "$(dirname "$log")"

# The e1000e NIC is there for its PTP hardware clock (/dev/ptp0), a
# dynamic POSIX clock for the tests; its user-mode network is unused.
serial=stdio
[[ " $append " == *" th.mode=shell "* ]] && serial=mon:stdio
qemu=(nice -n "$nice" "$qemu_bin" "${fw[@]}" -machine pc -accel tcg -cpu "$cpu" -m 1024
      -smp "$smp_arg" -display none -monitor none -serial "$serial" -no-reboot
      -nic user,model=e1000e
      -kernel "$kernel" -initrd "$initrd"
      -append "console=ttyS0 panic=-1 $append")
echo "# ${QEMU_TSC_SKEW:+QEMU_TSC_SKEW=$QEMU_TSC_SKEW }${qemu[*]}" >"$log"
[ "$serial" = stdio ] || exec "${qemu[@]}"
set +e
if [ "${SHOW:-0}" = 1 ]; then
	timeout -k 10 "$limit" "${qemu[@]}" </dev/null 2>&1 | tee -a "$log"
	rc=${PIPESTATUS[0]}
else
	timeout -k 10 "$limit" "${qemu[@]}" </dev/null >>"$log" 2>&1
	rc=$?
fi
# timeout says 137 when it had to follow up with SIGKILL.
[ $rc -eq 137 ] && rc=124
exit $rc
