// SPDX-License-Identifier: GPL-2.0
/*
 * /th-init32: the init of the i386 guest kernel (th.kernel=i386, booted
 * with rdinit=/th-init32).  The initramfs is the x86_64 one, whose
 * busybox an i386 kernel cannot run, so this static i386 program does
 * what scripts/guest/init does for th.mode=test: run the tests of
 * /plan/NAME (th.boot=NAME), which for this kernel are the i386 builds
 * (timers-i386:...), with the same kselftest TAP and "TH-DONE", then
 * power off.  Built by scripts/build-tests.sh with gcc -m32 -static.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CS	"/sys/devices/system/clocksource/clocksource0/current_clocksource"
#define MAX_ARGS	32

static void cat_line(const char *prefix, const char *path)
{
	char buf[256] = "?";
	FILE *f = fopen(path, "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			strcpy(buf, "?");
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	printf("%s%s\n", prefix, buf);
}

/* The value of KEY= on the kernel command line, or "". */
static const char *arg(const char *cmdline, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	const char *p = cmdline;

	out[0] = '\0';
	while (*p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, " \n");

			if (n >= len)
				n = len - 1;
			memcpy(out, p + klen + 1, n);
			out[n] = '\0';
			return out;
		}
		p += strcspn(p, " ");
	}
	return out;
}

static long uptime_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec;
}

static pid_t child;

static void on_alarm(int sig)
{
	(void)sig;
	if (child > 0)
		kill(-child, SIGKILL);
}

/* One test, as scripts/guest/init's run_one() reports it. */
static void run_one(int n, char *c, char *t, int to, char *args)
{
	char *argv[MAX_ARGS + 2], dir[512], line[4096];
	int pfd[2], status = 0, argc = 0, rc;
	long start, secs;
	FILE *out;

	printf("# selftests: %s: %s %s\n", c, t, args);
	cat_line("# th-cs: before ", CS);
	fflush(stdout);
	argv[argc++] = t;
	for (char *w = strtok(args, " "); w && argc <= MAX_ARGS; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	snprintf(dir, sizeof(dir), "/ksft/%s", c);
	start = uptime_s();
	if (pipe(pfd)) {
		printf("not ok %d selftests: %s: %s # pipe: %s\n", n, c, t, strerror(errno));
		return;
	}
	child = fork();
	if (child == 0) {
		setpgid(0, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		if (chdir(dir) == 0)
			execv(t, argv);
		fprintf(stderr, "cannot run %s/%s: %s\n", dir, t, strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	alarm(to);
	out = fdopen(pfd[0], "r");
	while (out && fgets(line, sizeof(line), out))
		printf("# %s%s", line, strchr(line, '\n') ? "" : "\n");
	if (out)
		fclose(out);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	alarm(0);
	child = 0;
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	secs = uptime_s() - start;
	cat_line("# th-cs: after ", CS);
	if (secs >= to && rc)
		printf("not ok %d selftests: %s: %s # TIMEOUT %d seconds\n", n, c, t, to);
	else if (rc == 0)
		printf("ok %d selftests: %s: %s # time=%lds\n", n, c, t, secs);
	else if (rc == 4)
		printf("ok %d selftests: %s: %s # SKIP\n", n, c, t);
	else
		printf("not ok %d selftests: %s: %s # exit=%d time=%lds\n", n, c, t, rc, secs);
	fflush(stdout);
}

static void run_plan(const char *boot, const char *cmdline)
{
	char path[256], line[1024], kernel[256] = "?";
	int n = 0, total = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/plan/%s", boot);
	printf("TH-SELFTESTS %s\n", boot);
	f = fopen("/proc/sys/kernel/osrelease", "r");
	if (f) {
		if (fgets(kernel, sizeof(kernel), f))
			kernel[strcspn(kernel, "\n")] = '\0';
		fclose(f);
	}
	printf("# kernel: %s, %ld CPUs\n", kernel, sysconf(_SC_NPROCESSORS_ONLN));
	cat_line("# clocksource: ", CS);
	printf("# cmdline: %s", cmdline);
	printf("TAP version 13\n");
	f = fopen(path, "r");
	if (!f) {
		printf("1..1\nnot ok 1 plan: no list for boot '%s'\n", boot);
		return;
	}
	while (fgets(line, sizeof(line), f))
		total += line[0] != '\n';
	rewind(f);
	printf("1..%d\n", total);
	while (fgets(line, sizeof(line), f)) {
		char *c, *t, *to, *args;

		line[strcspn(line, "\n")] = '\0';
		c = strtok(line, "\t");
		t = strtok(NULL, "\t");
		to = strtok(NULL, "\t");
		args = strtok(NULL, "");
		if (!c || !t)
			continue;
		run_one(++n, c, t, to ? atoi(to) : 300, args ? args : (char[]){ "" });
	}
	fclose(f);
	cat_line("# clocksource at the end: ", CS);
}

int main(void)
{
	char cmdline[4096] = "", mode[64], boot[128];
	struct sigaction sa = { .sa_handler = on_alarm };
	FILE *f;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mkdir("/tmp", 01777);
	mkdir("/dev/shm", 01777);
	mount("tmpfs", "/tmp", "tmpfs", 0, NULL);
	mount("tmpfs", "/dev/shm", "tmpfs", 0, NULL);
	setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
	sigaction(SIGALRM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	f = fopen("/proc/cmdline", "r");
	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = '\0';
		fclose(f);
	}
	if (!strcmp(arg(cmdline, "th.mode", mode, sizeof(mode)), "test")) {
		run_plan(arg(cmdline, "th.boot", boot, sizeof(boot)), cmdline);
		printf("TH-DONE\n");
	} else {
		printf("th-init32: only th.mode=test (got '%s')\n", mode);
	}
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
