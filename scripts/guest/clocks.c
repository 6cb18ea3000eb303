// SPDX-License-Identifier: GPL-2.0
/*
 * Show the clocks of the running kernel: its release, the current and
 * available clocksources, what clock_getres() says for each clock id, and
 * a few gettimeofday()/clock_gettime() readings.  Exits non-zero when a
 * clock that the kernel should answer for does not.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>

#define CS_DIR "/sys/devices/system/clocksource/clocksource0/"

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

static void show_file(const char *label, const char *path)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	printf("%26s: %s\n", label, f ? buf : strerror(errno));
}

int main(void)
{
	struct timespec ts, res;
	struct timeval tv;
	struct utsname u;
	unsigned int i, bad = 0;
	int n;

	uname(&u);
	printf("%26s: %s %s %s\n", "kernel", u.sysname, u.release, u.machine);
	show_file("current_clocksource", CS_DIR "current_clocksource");
	show_file("available_clocksource", CS_DIR "available_clocksource");

	printf("\n%26s  %22s  %s\n", "clock", "value (s)", "resolution (s)");
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (clock_gettime(clocks[i].id, &ts) || clock_getres(clocks[i].id, &res)) {
			printf("%26s  error: %s\n", clocks[i].name, strerror(errno));
			bad++;
			continue;
		}
		printf("%26s  %22.9f  %.9f\n", clocks[i].name,
		       ts.tv_sec + ts.tv_nsec / 1e9, res.tv_sec + res.tv_nsec / 1e9);
	}

	printf("\nsuccessive readings:\n");
	for (n = 0; n < 3; n++) {
		gettimeofday(&tv, NULL);
		clock_gettime(CLOCK_REALTIME, &ts);
		printf("  gettimeofday() = %lld.%06ld  CLOCK_REALTIME = %lld.%09ld\n",
		       (long long)tv.tv_sec, (long)tv.tv_usec,
		       (long long)ts.tv_sec, ts.tv_nsec);
	}
	for (n = 0; n < 3; n++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		printf("  CLOCK_MONOTONIC = %lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
	}
	return bad ? 1 : 0;
}
