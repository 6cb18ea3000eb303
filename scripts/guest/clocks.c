// SPDX-License-Identifier: GPL-2.0
/*
 * make run's display: what the running kernel's clocks are, and what the
 * series changed in them.
 *
 *  - the kernel, the current and available clocksources;
 *  - the time interpolator: the jitter mode, the guard's bound, each
 *    registered time source (kind, counters, frequency, resolution,
 *    compensation and the guard's figures) and the kernel's own log lines
 *    for the compensation decision;
 *  - clock_getres() and a reading of every clock id, with
 *    clock_gettime_ns() beside clock_gettime();
 *  - the cost of one call of each path in this boot (vDSO, system call,
 *    clock_gettime_ns() both ways): emulated, to be compared only with
 *    each other.
 *
 * Exits non-zero when a clock that the kernel should answer for does not,
 * or when clock_gettime_ns() disagrees with clock_gettime().  On a kernel
 * without the series (make run SERIES=none) the interpolator sections say
 * so and the rest is shown as on any kernel.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "parse_vdso.h"

#define CS_DIR "/sys/devices/system/clocksource/clocksource0/"
#define TI_DIR "/sys/kernel/time_interpolator"
#define TI_PARAMS "/sys/module/time_interpolator/parameters/"
#define NSEC_PER_SEC 1000000000LL
#define COST_CALLS 20000

static const struct {
	clockid_t id;
	const char *name;
} clocks[] = {
	{ CLOCK_REALTIME, "CLOCK_REALTIME" },
	{ CLOCK_MONOTONIC, "CLOCK_MONOTONIC" },
	{ CLOCK_PROCESS_CPUTIME_ID, "CLOCK_PROCESS_CPUTIME_ID" },
	{ CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID" },
	{ CLOCK_MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW" },
	{ CLOCK_REALTIME_COARSE, "CLOCK_REALTIME_COARSE" },
	{ CLOCK_MONOTONIC_COARSE, "CLOCK_MONOTONIC_COARSE" },
	{ CLOCK_BOOTTIME, "CLOCK_BOOTTIME" },
	{ CLOCK_TAI, "CLOCK_TAI" },
};

/* The time source files of Documentation/ABI/testing/sysfs-kernel-time_interpolator. */
static const char *const ti_files[] = {
	"kind", "counters", "synchronized", "frequency", "resolution_ns",
	"drift_ppm", "compensation", "skips", "skipped_ns", "max_skip_ns",
	"demoted",
};

typedef int (*gettime_t)(clockid_t, struct timespec *);
typedef int (*gettime_ns_t)(clockid_t, int64_t *, unsigned int);

static gettime_t vdso_gettime;
static gettime_ns_t vdso_gettime_ns;
static int have_ti;	/* the series' sysfs directory: the call's witness */
static int bad;

/* read_value PATH BUF LEN: the first line of PATH, or "" with errno set. */
static int read_value(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void show_file(const char *label, const char *path)
{
	char buf[256];

	if (read_value(path, buf, sizeof(buf)))
		printf("%26s: %s\n", label, strerror(errno));
	else
		printf("%26s: %s\n", label, buf);
}

/*
 * clock_gettime_ns() is called only where the series' sysfs directory
 * says the kernel has it: on another kernel its number may be another
 * call's.
 */
static int sys_gettime_ns(clockid_t clock, int64_t *ns, unsigned int flags)
{
#ifdef __NR_clock_gettime_ns
	if (have_ti)
		return syscall(__NR_clock_gettime_ns, clock, ns, flags);
#endif
	errno = ENOSYS;
	return -1;
}

static int sys_gettime(clockid_t clock, struct timespec *ts)
{
	return syscall(__NR_clock_gettime, clock, ts);
}

static int64_t ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static void find_vdso(void)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);

	if (!base)
		return;
	vdso_init_from_sysinfo_ehdr(base);
	vdso_gettime = (gettime_t)vdso_sym("LINUX_2.6", "__vdso_clock_gettime");
	vdso_gettime_ns = (gettime_ns_t)vdso_sym("LINUX_2.6",
						 "__vdso_clock_gettime_ns");
}

static void show_source(const char *name)
{
	char path[512], val[128];
	unsigned int i;

	printf("\n  %s\n", name);
	for (i = 0; i < sizeof(ti_files) / sizeof(ti_files[0]); i++) {
		snprintf(path, sizeof(path), TI_DIR "/%s/%s", name, ti_files[i]);
		if (read_value(path, val, sizeof(val)))
			snprintf(val, sizeof(val), "(%s)", strerror(errno));
		printf("%26s: %s\n", ti_files[i], val);
	}
}

/*
 * The kernel's own lines for what it decided about each source: the
 * interpolator's registration and compensation lines, the TSC's verdicts
 * and the clocksource switches, from the kernel log buffer.
 */
static void show_decisions(void)
{
	static const char *const keys[] = {
		"] time_interpolator: ", "] tsc: ", "] clocksource: Switched",
		"] clocksource: timekeeping watchdog", "unstable",
	};
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, *line, *save;
	unsigned int i;

	printf("\nthe kernel's log lines for these decisions:\n");
	if (len <= 0 || !(buf = calloc(1, len + 1))) {
		printf("  (kernel log not readable: %s)\n", strerror(errno));
		return;
	}
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (len < 0) {
		printf("  (kernel log not readable: %s)\n", strerror(errno));
		free(buf);
		return;
	}
	buf[len] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* KUnit's fake sources and refused values are not this boot's. */
		if (strstr(line, "kunit"))
			continue;
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (strstr(line, keys[i])) {
				/* Drop the "<6>" priority the buffer keeps. */
				if (line[0] == '<' && strchr(line, '>'))
					line = strchr(line, '>') + 1;
				printf("  %s\n", line);
				break;
			}
		}
	}
	free(buf);
}

static void show_interpolator(void)
{
	struct dirent **names;
	int n, i;

	printf("\ntime interpolator (the series):\n");
	n = scandir(TI_DIR, &names, NULL, alphasort);
	if (n < 0) {
		printf("  %s: %s: this kernel has no time interpolator\n",
		       TI_DIR, strerror(errno));
		return;
	}
	have_ti = 1;
	show_file("jitter mode", TI_PARAMS "jitter");
	show_file("max_lag_ns", TI_PARAMS "max_lag_ns");
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.')
			show_source(names[i]->d_name);
		free(names[i]);
	}
	free(names);
	show_decisions();
}

/*
 * One clock: its value and resolution, and clock_gettime_ns() (system
 * call, then vDSO) between two clock_gettime() readings of the same clock.
 * The CPU-time clocks count only while this process runs, so they too
 * never go back between the two readings.
 */
static void show_clock(clockid_t id, const char *name)
{
	struct timespec ts, res, after;
	int64_t sys = 0, vdso = 0;
	char nsbuf[64] = "-";
	int have_ns;

	if (clock_gettime(id, &ts) || clock_getres(id, &res)) {
		printf("%26s  error: %s\n", name, strerror(errno));
		bad++;
		return;
	}
	have_ns = !sys_gettime_ns(id, &sys, 0);
	if (have_ns && vdso_gettime_ns && vdso_gettime_ns(id, &vdso, 0))
		vdso = -1;
	clock_gettime(id, &after);
	if (have_ns) {
		snprintf(nsbuf, sizeof(nsbuf), "%lld", (long long)sys);
		if (sys < ts_ns(&ts) || (vdso_gettime_ns && vdso < sys) ||
		    ts_ns(&after) < (vdso_gettime_ns ? vdso : sys)) {
			strcat(nsbuf, " DISAGREES");
			bad++;
		}
	}
	/* Integers: a double would round the nanoseconds of the epoch. */
	printf("%26s  %10lld.%09ld  %lld.%09ld  %s\n", name, (long long)ts.tv_sec,
	       ts.tv_nsec, (long long)res.tv_sec, res.tv_nsec, nsbuf);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_ns(&ts);
}

/* cost LABEL ...: ns per call of one path, over COST_CALLS calls. */
#define COST(label, call) do {						\
	int64_t t0 = now_ns();						\
	int k;								\
	for (k = 0; k < COST_CALLS; k++)				\
		call;							\
	printf("%34s  %8.0f\n", label,					\
	       (double)(now_ns() - t0) / COST_CALLS);			\
} while (0)

static void show_costs(void)
{
	struct timespec ts;
	int64_t ns;

	printf("\ncost of one call, CLOCK_MONOTONIC, %d calls each (emulated:\n"
	       "QEMU TCG, compare the paths with each other, not with hardware):\n",
	       COST_CALLS);
	printf("%34s  %8s\n", "path", "ns/call");
	if (vdso_gettime)
		COST("vDSO clock_gettime()", vdso_gettime(CLOCK_MONOTONIC, &ts));
	COST("system call clock_gettime()", sys_gettime(CLOCK_MONOTONIC, &ts));
	if (vdso_gettime_ns)
		COST("vDSO clock_gettime_ns()", vdso_gettime_ns(CLOCK_MONOTONIC, &ns, 0));
	if (!sys_gettime_ns(CLOCK_MONOTONIC, &ns, 0))
		COST("system call clock_gettime_ns()",
		     sys_gettime_ns(CLOCK_MONOTONIC, &ns, 0));
	else
		printf("%34s  %s\n", "clock_gettime_ns()", "not in this kernel");
	printf("(with compensation on for the current clocksource the vDSO\n"
	       " entries fall back to the system call, and cost as much)\n");
}

int main(void)
{
	struct timespec ts;
	struct timeval tv;
	struct utsname u;
	unsigned int i;
	int n;

	find_vdso();
	uname(&u);
	printf("%26s: %s %s %s\n", "kernel", u.sysname, u.release, u.machine);
	show_file("current_clocksource", CS_DIR "current_clocksource");
	show_file("available_clocksource", CS_DIR "available_clocksource");
	show_interpolator();

	printf("\n%26s  %20s  %-11s  %s\n", "clock", "clock_gettime (s)",
	       "getres (s)", "clock_gettime_ns (ns)");
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		show_clock(clocks[i].id, clocks[i].name);

	printf("\nsuccessive readings:\n");
	for (n = 0; n < 3; n++) {
		gettimeofday(&tv, NULL);
		clock_gettime(CLOCK_REALTIME, &ts);
		printf("  gettimeofday() = %lld.%06ld  CLOCK_REALTIME = %lld.%09ld\n",
		       (long long)tv.tv_sec, (long)tv.tv_usec,
		       (long long)ts.tv_sec, ts.tv_nsec);
	}
	show_costs();
	return bad ? 1 : 0;
}
