// SPDX-License-Identifier: GPL-2.0
/*
 * guard-bench: the time interpolator's read path, timed on the host's own
 * cores.  The core is not written again here: this file includes the
 * patched tree's kernel/time/time_interpolator.c (and through it
 * include/linux/time_interpolator.h and the x86 asm/time_interpolator.h),
 * built against scripts/guard-bench-shim.h.  A TSC time source is
 * registered with register_time_interpolator(), the jitter mode is set
 * with the core's own parameter functions, and every guarded figure is a
 * call of the clocksource's ->read(), as the timekeeper makes it.
 *
 * One thread is pinned to each CPU; with N CPUs in use, threads 0..N-1
 * read at once.  Read paths:
 *   tsc      rdtsc_ordered(), bare: the floor
 *   off      ->read() with the guard off (nojitter, a reliable TSC)
 *   on       ->read() with the guard on (jitter=force), counters agreeing:
 *            one cmpxchg on a line every CPU writes
 *   lag      the same, CPU 0's counter LAG ns behind the others: its reads
 *            take the absorbing path
 *   vdso     the host kernel's clock_gettime(CLOCK_MONOTONIC), via libc
 *   syscall  syscall(SYS_clock_gettime, CLOCK_MONOTONIC)
 *   hpet     the HPET main counter through /dev/hpet, where it maps
 *   acpi_pm  the ACPI PM timer port, where /proc/ioports has it and
 *            ioperm() is allowed
 * (the last two are what 6.1 falls back to when it gives the TSC up).
 *
 * Before any figure, every path is checked for order with all threads:
 * a thread loads the largest value any thread has returned so far, reads,
 * and counts a backward step when its value is below the one loaded.
 * The guarded paths must have none; the lagging CPU must have been
 * absorbed, and only within LAG; and "off" with the same lag must show
 * backward steps, or the check could not fail.  --check adds the
 * demotion (a lag beyond max_lag_ns queues one demotion, which marks the
 * clocksource unstable) and reports no figure.
 *
 * Output: Markdown on stdout ("- ok:" / "- **FAIL**:" lines for each
 * check), CSV with --csv.  Exit 0, or 1 when a check failed, 2 for usage.
 *
 * Usage: guard-bench [--cpus=N] [--rounds=R] [--ms=T] [--lag-ns=L]
 *                    [--check-ms=T] [--csv=FILE] [--check]
 */
#include "time_interpolator.c"

#include <cpuid.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
#include <sys/io.h>
#include <sys/mman.h>
#include <sys/syscall.h>

__thread int gb_this_cpu;
__thread u64 gb_tsc_lag;
int gb_nr_cpu_ids;

/* The host's other clocks */
#define HPET_COUNTER	0xf0

static const volatile void *hpet_base;
static unsigned short pm_port;
static char hpet_why[160], pm_why[160];

/* What the core asked of the kernel around it */
static unsigned long n_irq_work, n_unstable;
static struct irq_work *queued_irq_work;

/* The largest value any thread has returned, for the order checks. */
static u64 gb_latest __attribute__((__aligned__(64)));

/* Options */
static int opt_cpus, opt_rounds = 9, opt_ms = 30, opt_check_ms = 300;
static u64 opt_lag_ns = 20000;
static const char *opt_csv;
static bool opt_check_only;
static int nfail;

/* The core's log, each distinct line once with its count */
#define LOG_LINES 32
static struct {
	char text[200];
	unsigned long count;
} core_log[LOG_LINES];
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

void gb_printk(const char *fmt, ...)
{
	char line[200];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	line[strcspn(line, "\n")] = 0;

	pthread_mutex_lock(&log_lock);
	for (i = 0; i < LOG_LINES && core_log[i].count; i++)
		if (!strcmp(core_log[i].text, line))
			break;
	if (i < LOG_LINES) {
		if (!core_log[i].count)
			snprintf(core_log[i].text, sizeof(core_log[i].text),
				 "%s", line);
		core_log[i].count++;
	}
	pthread_mutex_unlock(&log_lock);
}

void *gb_alloc_percpu(size_t size)
{
	size_t len = (size_t)gb_nr_cpu_ids * GB_PERCPU_STRIDE;
	void *p;

	if (size > GB_PERCPU_STRIDE)
		return NULL;
	p = aligned_alloc(GB_PERCPU_STRIDE, len);
	if (p)
		memset(p, 0, len);
	return p;
}

bool irq_work_queue(struct irq_work *work)
{
	__atomic_add_fetch(&n_irq_work, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&queued_irq_work, work, __ATOMIC_RELEASE);
	return true;
}

bool schedule_work(struct work_struct *work)
{
	work->func(work);
	return true;
}

void clocksource_mark_unstable(struct clocksource *cs)
{
	n_unstable++;
}

void clocksource_change_rating(struct clocksource *cs, int rating)
{
	n_unstable++;
}

void timekeeping_clocksource_changed(struct clocksource *cs)
{
}

int __clocksource_register_scale(struct clocksource *cs, u32 scale, u32 freq)
{
	return 0;
}

int clocksource_unregister(struct clocksource *cs)
{
	return 0;
}

/* The time source under test: the TSC, as arch/x86 describes it. */
static struct time_interpolator gb_tsc = {
	.name		= "tsc",
	.kind		= TIME_INTERPOLATOR_CPU,
	.mask		= CLOCKSOURCE_MASK(64),
	.drift		= TIME_INTERPOLATOR_DRIFT_UNKNOWN,
	.percpu		= true,
	.synchronized	= true,
	.cs = {
		.rating			= 300,
		.vdso_clock_mode	= VDSO_CLOCKMODE_TSC,
	},
};

enum path {
	P_TSC, P_OFF, P_ON, P_LAG, P_VDSO, P_SYSCALL, P_HPET, P_PM,
	P_OFF_LAG,	/* checked only: the order check must see this lag */
	NR_PATHS,
};

static const char *const path_name[NR_PATHS] = {
	[P_TSC] = "tsc", [P_OFF] = "off", [P_ON] = "on", [P_LAG] = "lag",
	[P_VDSO] = "vdso", [P_SYSCALL] = "syscall", [P_HPET] = "hpet",
	[P_PM] = "acpi_pm", [P_OFF_LAG] = "off+lag",
};

static const char *const path_what[NR_PATHS] = {
	[P_TSC]		= "bare rdtsc_ordered()",
	[P_OFF]		= "interpolator, guard off: nojitter, a reliable TSC",
	[P_ON]		= "interpolator, guard on, counters agree",
	[P_LAG]		= "interpolator, guard on, CPU 0 lags",
	[P_VDSO]	= "host clock_gettime() (vDSO)",
	[P_SYSCALL]	= "host syscall(SYS_clock_gettime)",
	[P_HPET]	= "HPET counter (/dev/hpet)",
	[P_PM]		= "ACPI PM timer port",
	[P_OFF_LAG]	= "interpolator, guard off, CPU 0 lags",
};

static bool path_guarded(enum path p)
{
	return p == P_ON || p == P_LAG;
}

static bool path_lags(enum path p)
{
	return p == P_LAG || p == P_OFF_LAG;
}

static bool path_available(enum path p)
{
	if (p == P_HPET)
		return hpet_base;
	if (p == P_PM)
		return pm_port;
	return true;
}

static u64 ns_of(const struct timespec *ts)
{
	return (u64)ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static __always_inline u64 read_path(enum path p)
{
	struct timespec ts;

	switch (p) {
	case P_TSC:
		return rdtsc_ordered();
	case P_VDSO:
		clock_gettime(CLOCK_MONOTONIC, &ts);
		return ns_of(&ts);
	case P_SYSCALL:
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
		return ns_of(&ts);
	case P_HPET:
		return readl((const char *)hpet_base + HPET_COUNTER);
	case P_PM:
		return inl(pm_port) & 0xffffff;
	default:
		return gb_tsc.cs.read(&gb_tsc.cs);
	}
}

/* The 32- and 24-bit counters wrap; the others are taken as 64-bit. */
static u64 path_mask(enum path p)
{
	return p == P_HPET ? 0xffffffffULL : p == P_PM ? 0xffffffULL : ~0ULL;
}

/* @now is behind @seen, within half the counter's range */
static bool behind(enum path p, u64 now, u64 seen)
{
	u64 mask = path_mask(p);

	return ((now - seen) & mask) & ~(mask >> 1);
}

/* Set the guard as a path needs it, through the core's own parameter. */
static void path_select(enum path p)
{
	const char *mode = path_guarded(p) ? "force" : "auto";

	if (ti_jitter_set(mode, NULL))
		abort();
}

/* One loop a path, with read_path() folded to that path's read. */
#define DEFINE_LOOP(path)				\
static noinline u64 loop_##path(u64 n)			\
{							\
	u64 sink = 0;					\
							\
	while (n--)					\
		sink += read_path(path);		\
	return sink;					\
}

DEFINE_LOOP(P_TSC)
DEFINE_LOOP(P_OFF)
DEFINE_LOOP(P_VDSO)
DEFINE_LOOP(P_SYSCALL)
DEFINE_LOOP(P_HPET)
DEFINE_LOOP(P_PM)

/* off, on and lag differ in the guard's state only: one ->read() loop. */
static u64 timed_loop(enum path p, u64 n)
{
	switch (p) {
	case P_TSC:
		return loop_P_TSC(n);
	case P_VDSO:
		return loop_P_VDSO(n);
	case P_SYSCALL:
		return loop_P_SYSCALL(n);
	case P_HPET:
		return loop_P_HPET(n);
	case P_PM:
		return loop_P_PM(n);
	default:
		return loop_P_OFF(n);
	}
}

struct check {
	u64 reads, back, worst;
};

/* Reads for @ms, each checked against the largest value returned before it. */
static void checked_loop(enum path p, int ms, struct check *c)
{
	struct timespec t0, t;
	u64 seen, v, cur;
	int i;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t0);
	do {
		for (i = 0; i < 1000; i++) {
			seen = __atomic_load_n(&gb_latest, __ATOMIC_ACQUIRE);
			v = read_path(p);
			c->reads++;
			if (seen && behind(p, v, seen)) {
				c->back++;
				c->worst = max(c->worst, (seen - v) & path_mask(p));
				continue;
			}
			cur = seen;
			while (cur != v && !behind(p, v, cur) &&
			       !__atomic_compare_exchange_n(&gb_latest, &cur, v, false,
							    __ATOMIC_ACQ_REL,
							    __ATOMIC_ACQUIRE))
				;
		}
		clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	} while (ns_of(&t) - ns_of(&t0) < (u64)ms * 1000000);
}

/* The thread pool: one thread a CPU; the job is set between barriers. */
static struct {
	enum path path;
	int nthreads;
	bool check;
	u64 iters;		/* timed reads a thread */
	u64 lag_cycles;
} job;

struct worker {
	pthread_t thread;
	int idx, cpu;
	struct timespec t0, t1;
	struct check chk;
	u64 sink;
} __attribute__((__aligned__(128)));

static struct worker *workers;
static int *cpu_list, ncpus;
static pthread_barrier_t start_bar, done_bar;
static bool quitting;

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		fprintf(stderr, "guard-bench: cannot pin a thread to CPU %d\n",
			w->cpu);
		exit(2);
	}
	gb_this_cpu = w->idx;

	for (;;) {
		pthread_barrier_wait(&start_bar);
		if (quitting)
			return NULL;
		if (w->idx < job.nthreads) {
			gb_tsc_lag = w->idx == 0 && path_lags(job.path) ?
				     job.lag_cycles : 0;
			memset(&w->chk, 0, sizeof(w->chk));
			clock_gettime(CLOCK_MONOTONIC_RAW, &w->t0);
			if (job.check)
				checked_loop(job.path, opt_check_ms, &w->chk);
			else
				w->sink += timed_loop(job.path, job.iters);
			clock_gettime(CLOCK_MONOTONIC_RAW, &w->t1);
			gb_tsc_lag = 0;
		}
		pthread_barrier_wait(&done_bar);
	}
}

/* Runs the job on threads 0..n-1; returns WALL in ns. */
static u64 run_job(enum path p, int n, bool check, u64 iters)
{
	u64 first = ~0ULL, last = 0;
	int i;

	path_select(p);
	job.path = p;
	job.nthreads = n;
	job.check = check;
	job.iters = iters;
	__atomic_store_n(&gb_latest, 0, __ATOMIC_RELAXED);
	pthread_barrier_wait(&start_bar);
	pthread_barrier_wait(&done_bar);
	for (i = 0; i < n; i++) {
		if (ns_of(&workers[i].t0) < first)
			first = ns_of(&workers[i].t0);
		last = max(last, ns_of(&workers[i].t1));
	}
	return last - first;
}

/* Guard statistics of one CPU, as the core keeps them */
static struct ti_stats cpu_stats(int cpu)
{
	struct time_interpolator_cpu_stats *st = per_cpu_ptr(gb_tsc.stats, cpu);

	return (struct ti_stats){
		.skips		= local64_read(&st->skips),
		.skipped	= local64_read(&st->skipped),
		.max_skip	= local64_read(&st->max_skip),
	};
}

static u64 cycles_to_ns(u64 cycles)
{
	return ti_cycles_to_ns(&gb_tsc, cycles);
}

static void report(bool ok, const char *fmt, ...)
	__attribute__((__format__(__printf__, 2, 3)));

static void report(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("- %s: ", ok ? "ok" : "**FAIL**");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!ok)
		nfail++;
}

/*
 * An order check of @p on every CPU.  Returns the sums over the threads,
 * and the guard's statistics of CPU 0 and the largest skip of any CPU
 * taken during the run.
 */
static struct check order_run(enum path p, struct ti_stats *cpu0, u64 *max_skip)
{
	struct ti_stats before0 = cpu_stats(0);
	struct check sum = { 0 };
	int i;

	for (i = 0; i < ncpus; i++)
		local64_set(&per_cpu_ptr(gb_tsc.stats, i)->max_skip, 0);
	run_job(p, ncpus, true, 0);
	*max_skip = 0;
	for (i = 0; i < ncpus; i++) {
		sum.reads += workers[i].chk.reads;
		sum.back += workers[i].chk.back;
		sum.worst = max(sum.worst, workers[i].chk.worst);
		*max_skip = max(*max_skip, cpu_stats(i).max_skip);
	}
	*cpu0 = cpu_stats(0);
	cpu0->skips -= before0.skips;
	cpu0->skipped -= before0.skipped;
	return sum;
}

static const char *step_unit(enum path p)
{
	return p == P_VDSO || p == P_SYSCALL ? "ns" : "counter cycles";
}

/* Up to this many runs for a check that needs the threads to overlap */
#define OVERLAP_TRIES	5

/*
 * Every path in order on all CPUs.  The guarded ones must never step
 * back; the others are reported (a step back there is the host's TSCs or
 * clock disagreeing, which is what the guard is for).
 */
static void check_order(void)
{
	u64 lag = ti_ns_to_cycles(&gb_tsc, opt_lag_ns);
	struct ti_stats cpu0;
	u64 agree_skip = 0, max_skip;
	unsigned long queued;
	struct check c;
	int p, try;

	printf("## Order, checked before any figure\n\n");
	printf("All %d CPUs read at once for %d ms a path; each read is checked\n"
	       "against the largest value any thread had returned before it.\n\n",
	       ncpus, opt_check_ms);

	job.lag_cycles = lag;
	for (p = 0; p < NR_PATHS; p++) {
		if (!path_available(p) || p == P_LAG || p == P_OFF_LAG)
			continue;
		c = order_run(p, &cpu0, &max_skip);
		if (p == P_ON)
			agree_skip = max_skip;
		if (path_guarded(p))
			report(!c.back, "%s: order: %llu reads on %d CPUs, %llu backward steps; guard skips of agreeing counters: largest %llu ns",
			       path_name[p], c.reads, ncpus, c.back,
			       cycles_to_ns(max_skip));
		else
			printf("- info: %s, unguarded (%s): %llu reads on %d CPUs, %llu backward steps, largest %llu %s\n",
			       path_name[p], path_what[p], c.reads, ncpus,
			       c.back, c.worst, step_unit(p));
	}

	if (ncpus < 2) {
		printf("- skip: lag: one CPU: no other counter to lag behind\n");
		printf("- skip: off+lag: one CPU: no other counter to lag behind\n");
		return;
	}

	queued = n_irq_work;
	for (try = 0; try < OVERLAP_TRIES; try++) {
		c = order_run(P_LAG, &cpu0, &max_skip);
		if (c.back || cpu0.skips)
			break;
	}
	report(!c.back, "lag: order: %llu reads on %d CPUs, CPU 0 %llu ns behind, %llu backward steps",
	       c.reads, ncpus, opt_lag_ns, c.back);
	report(cpu0.skips && cpu0.skips <= workers[0].chk.reads,
	       "lag: CPU 0 absorbed: %llu of its %llu reads returned the last value",
	       cpu0.skips, workers[0].chk.reads);
	report(cpu_stats(0).max_skip <= lag + agree_skip,
	       "lag: absorbed within the lag: largest skip %llu ns <= %llu ns lag + %llu ns the agreeing counters showed",
	       cycles_to_ns(cpu_stats(0).max_skip), opt_lag_ns,
	       cycles_to_ns(agree_skip));
	report(n_irq_work == queued && !gb_tsc.demoted,
	       "lag: within max_lag_ns=%llu: no demotion queued",
	       READ_ONCE(ti_max_lag_ns));

	for (try = 0; try < OVERLAP_TRIES; try++) {
		c = order_run(P_OFF_LAG, &cpu0, &max_skip);
		if (c.back)
			break;
	}
	report(c.back && !cpu0.skips,
	       "off+lag: the check sees what the guard hides: %llu of %llu reads stepped back without it, largest %llu ns; no skips",
	       c.back, c.reads, cycles_to_ns(c.worst));
}

/*
 * A lag beyond max_lag_ns: one demotion queued however many reads see
 * it, and the queued work marks the clocksource unstable.
 */
static void check_demotion(void)
{
	struct ti_stats cpu0;
	unsigned long queued = n_irq_work, unstable = n_unstable;
	char val[32];
	u64 max_skip;
	int try;

	if (ncpus < 2) {
		printf("- skip: demotion: one CPU: no other counter to lag behind\n");
		return;
	}
	snprintf(val, sizeof(val), "%llu", opt_lag_ns / 2);
	if (ti_max_lag_set(val, NULL)) {
		report(false, "demotion: max_lag_ns=%s refused", val);
		return;
	}
	for (try = 0; try < OVERLAP_TRIES; try++) {
		order_run(P_LAG, &cpu0, &max_skip);
		if (n_irq_work != queued)
			break;
	}
	report(n_irq_work - queued == 1 && cpu0.skips >= 1,
	       "demotion: lag %llu ns > max_lag_ns=%s: %llu skips, %lu demotion queued",
	       opt_lag_ns, val, cpu0.skips, n_irq_work - queued);
	if (queued_irq_work)
		queued_irq_work->func(queued_irq_work);
	report(gb_tsc.demoted && n_unstable - unstable == 1,
	       "demotion: the queued work marked the clocksource unstable once (demoted=%d)",
	       gb_tsc.demoted);
	snprintf(val, sizeof(val), "%llu", (u64)TI_DEFAULT_MAX_LAG_NS);
	ti_max_lag_set(val, NULL);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	double s[n];

	memcpy(s, v, sizeof(s));
	qsort(s, n, sizeof(double), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static const enum path timed[] = {
	P_TSC, P_OFF, P_ON, P_LAG, P_VDSO, P_SYSCALL, P_HPET, P_PM,
};

#define NR_TIMED ARRAY_SIZE(timed)

/* Reads a thread for about opt_ms on one CPU */
static u64 calibrate(enum path p)
{
	u64 n = 1000, wall;

	for (;;) {
		wall = run_job(p, 1, false, n);
		if (wall >= (u64)opt_ms * 250000 || n >= (1ULL << 40))
			break;
		n *= 4;
	}
	return max(n * opt_ms * 1000000 / max(wall, 1ULL), 1000ULL);
}

/* A table with a column a path, but @skip, each named with @suffix */
static void table_head(const enum path *paths, int np, int skip,
		       const char *suffix)
{
	int k;

	printf("| CPUs |");
	for (k = 0; k < np; k++)
		if (k != skip)
			printf(" %s%s |", path_name[paths[k]], suffix);
	printf("\n| ---: |");
	for (k = 0; k < np; k++)
		if (k != skip)
			printf(" ---: |");
	printf("\n");
}

static void time_paths(void)
{
	int np = 0, r, n, j, k;
	enum path paths[NR_TIMED];
	u64 iters[NR_TIMED];
	double (*ns)[ncpus + 1][opt_rounds];
	double med[NR_TIMED][ncpus + 1], ratio[NR_TIMED][ncpus + 1];
	FILE *csv = NULL;
	int off;

	for (k = 0; k < (int)NR_TIMED; k++)
		if (path_available(timed[k]))
			paths[np++] = timed[k];
	ns = calloc(np, sizeof(*ns));
	if (!ns)
		exit(2);
	for (k = 0; k < np; k++)
		iters[k] = calibrate(paths[k]);

	/* Interleaved: each round takes every path once, in rotated order. */
	for (n = 1; n <= ncpus; n++)
		for (r = 0; r < opt_rounds; r++)
			for (j = 0; j < np; j++) {
				k = (j + r) % np;
				ns[k][n][r] = (double)run_job(paths[k], n, false, iters[k]) /
					      iters[k];
			}
	for (k = 0; k < np; k++)
		for (n = 1; n <= ncpus; n++)
			med[k][n] = median(ns[k][n], opt_rounds);

	/* Ratios to the unguarded read, within each round: the rounds' median */
	for (off = 0; paths[off] != P_OFF; off++)
		;
	for (k = 0; k < np; k++)
		for (n = 1; n <= ncpus; n++) {
			double rr[opt_rounds];

			for (r = 0; r < opt_rounds; r++)
				rr[r] = ns[k][n][r] / ns[off][n][r];
			ratio[k][n] = median(rr, opt_rounds);
		}

	printf("\n## ns per read, median of %d interleaved rounds\n\n", opt_rounds);
	printf("The read paths, and the reads a thread makes in each measurement:\n\n");
	for (k = 0; k < np; k++)
		printf("- %s: %s; %llu reads\n", path_name[paths[k]],
		       path_what[paths[k]], iters[k]);
	printf("\nOne row a CPU count: ns per read on each CPU while that many CPUs\n"
	       "read at once (WALL of the reads a thread / reads a thread), and in\n"
	       "brackets WALL/CPUS, the seeds' todscale column: flat WALL is O(1) in\n"
	       "CPUs.  With one CPU, lag is on: CPU 0 has no other counter to lag\n"
	       "behind.\n\n");
	table_head(paths, np, -1, "");
	for (n = 1; n <= ncpus; n++) {
		printf("| %d |", n);
		for (k = 0; k < np; k++)
			printf(" %.1f (%.1f) |", med[k][n], med[k][n] / n);
		printf("\n");
	}

	printf("\n## Ratios to the guard off, within each round, median over the rounds\n\n");
	printf("on / off is the guard's cost with counters that agree, lag / off with\n"
	       "one CPU absorbing; tsc / off is the counter alone.\n\n");
	table_head(paths, np, off, " / off");
	for (n = 1; n <= ncpus; n++) {
		printf("| %d |", n);
		for (k = 0; k < np; k++)
			if (k != off)
				printf(" %.2f |", ratio[k][n]);
		printf("\n");
	}

	if (opt_csv) {
		csv = fopen(opt_csv, "w");
		if (!csv) {
			perror(opt_csv);
			exit(2);
		}
		fprintf(csv, "path,cpus,rounds,reads_per_thread,median_ns,min_ns,max_ns,wall_per_cpus_ns,ratio_to_off\n");
	}
	for (k = 0; csv && k < np; k++) {
		for (n = 1; n <= ncpus; n++) {
			double lo = ns[k][n][0], hi = lo;

			for (r = 1; r < opt_rounds; r++) {
				lo = ns[k][n][r] < lo ? ns[k][n][r] : lo;
				hi = ns[k][n][r] > hi ? ns[k][n][r] : hi;
			}
			fprintf(csv, "%s,%d,%d,%llu,%.2f,%.2f,%.2f,%.2f,%.3f\n",
				path_name[paths[k]], n, opt_rounds, iters[k],
				med[k][n], lo, hi, med[k][n] / n, ratio[k][n]);
		}
	}
	if (csv)
		fclose(csv);
	free(ns);
}

/* TSC cycles per second, against CLOCK_MONOTONIC_RAW over 200 ms */
static u64 tsc_frequency(void)
{
	struct timespec t0, t1, d = { 0, 200000000 };
	u64 c0, c1;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t0);
	c0 = rdtsc_ordered();
	nanosleep(&d, NULL);
	clock_gettime(CLOCK_MONOTONIC_RAW, &t1);
	c1 = rdtsc_ordered();
	return mul_u64_u64_div_u64(c1 - c0, NSEC_PER_SEC, ns_of(&t1) - ns_of(&t0));
}

static bool cpu_has_rdtscp(void)
{
	unsigned int a, b, c, d;

	return __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1U << 27));
}

static void probe_hpet(void)
{
	void *p;
	int fd = open("/dev/hpet", O_RDONLY);

	if (fd < 0) {
		snprintf(hpet_why, sizeof(hpet_why), "/dev/hpet: %s", strerror(errno));
		return;
	}
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		snprintf(hpet_why, sizeof(hpet_why), "/dev/hpet: mmap: %s",
			 strerror(errno));
		return;
	}
	hpet_base = p;
	snprintf(hpet_why, sizeof(hpet_why), "/dev/hpet mapped, main counter at 0x%x",
		 HPET_COUNTER);
}

static void probe_pm_timer(void)
{
	FILE *f = fopen("/proc/ioports", "r");
	unsigned int lo = 0, hi;
	char line[128];

	snprintf(pm_why, sizeof(pm_why), "no ACPI PM_TMR in /proc/ioports");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "ACPI PM_TMR") &&
		    sscanf(line, " %x-%x", &lo, &hi) == 2)
			break;
	if (f)
		fclose(f);
	if (!lo)
		return;
	if (ioperm(lo, 4, 1)) {
		snprintf(pm_why, sizeof(pm_why), "ACPI PM_TMR at port 0x%x: ioperm: %s",
			 lo, strerror(errno));
		return;
	}
	pm_port = lo;
	snprintf(pm_why, sizeof(pm_why), "ACPI PM_TMR at port 0x%x", lo);
}

static void usage(void)
{
	fprintf(stderr, "usage: guard-bench [--cpus=N] [--rounds=R] [--ms=T] [--lag-ns=L] [--check-ms=T] [--csv=FILE] [--check]\n");
	exit(2);
}

static long num_arg(const char *s, long lo, long hi)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (*end || end == s || v < lo || v > hi)
		usage();
	return v;
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "ms", required_argument, NULL, 'm' },
		{ "lag-ns", required_argument, NULL, 'l' },
		{ "check-ms", required_argument, NULL, 'k' },
		{ "csv", required_argument, NULL, 'o' },
		{ "check", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c': opt_cpus = num_arg(optarg, 1, CPU_SETSIZE); break;
		case 'r': opt_rounds = num_arg(optarg, 1, 1000); break;
		case 'm': opt_ms = num_arg(optarg, 1, 10000); break;
		case 'l': opt_lag_ns = num_arg(optarg, 2, 50000000); break;
		case 'k': opt_check_ms = num_arg(optarg, 1, 60000); break;
		case 'o': opt_csv = optarg; break;
		case 'C': opt_check_only = true; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
}

/* The CPUs this process may run on, the first opt_cpus of them */
static void pick_cpus(void)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		perror("sched_getaffinity");
		exit(2);
	}
	cpu_list = calloc(CPU_SETSIZE, sizeof(*cpu_list));
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set) && (!opt_cpus || ncpus < opt_cpus))
			cpu_list[ncpus++] = cpu;
	if (opt_cpus > ncpus) {
		fprintf(stderr, "guard-bench: --cpus=%d, but only %d CPUs are allowed\n",
			opt_cpus, ncpus);
		exit(2);
	}
}

static void start_workers(void)
{
	int i;

	workers = aligned_alloc(128, sizeof(*workers) * ncpus);
	if (!workers)
		exit(2);
	memset(workers, 0, sizeof(*workers) * ncpus);
	pthread_barrier_init(&start_bar, NULL, ncpus + 1);
	pthread_barrier_init(&done_bar, NULL, ncpus + 1);
	for (i = 0; i < ncpus; i++) {
		workers[i].idx = i;
		workers[i].cpu = cpu_list[i];
		if (pthread_create(&workers[i].thread, NULL, worker_fn, &workers[i])) {
			fprintf(stderr, "guard-bench: pthread_create failed\n");
			exit(2);
		}
	}
}

static void stop_workers(void)
{
	int i;

	quitting = true;
	pthread_barrier_wait(&start_bar);
	for (i = 0; i < ncpus; i++)
		pthread_join(workers[i].thread, NULL);
}

static void print_core_log(void)
{
	int i;

	printf("\n## What the core logged\n\n```\n");
	for (i = 0; i < LOG_LINES && core_log[i].count; i++)
		printf("%s%s\n", core_log[i].text,
		       core_log[i].count > 1 ? " (repeated)" : "");
	printf("```\n");
}

int main(int argc, char **argv)
{
	bool rdtscp = cpu_has_rdtscp();
	int ret, i;

	parse_args(argc, argv);
#ifdef GB_RDTSCP
	if (!rdtscp) {
		fprintf(stderr, "guard-bench: built for RDTSCP, which this CPU lacks: rebuild\n");
		return 2;
	}
#else
	if (rdtscp) {
		fprintf(stderr, "guard-bench: built for LFENCE;RDTSC, but this CPU has RDTSCP: rebuild with -DGB_RDTSCP\n");
		return 2;
	}
#endif
	pick_cpus();
	gb_nr_cpu_ids = ncpus;
	probe_hpet();
	probe_pm_timer();

	gb_tsc.frequency = tsc_frequency();
	ret = register_time_interpolator(&gb_tsc);
	if (ret) {
		fprintf(stderr, "guard-bench: register_time_interpolator: %d\n", ret);
		return 2;
	}
	start_workers();

	printf("- counter: the TSC, %.3f GHz (measured against CLOCK_MONOTONIC_RAW), read by rdtsc_ordered() as the kernel patches it here: %s\n",
	       gb_tsc.frequency / 1e9, rdtscp ? "RDTSCP" : "LFENCE;RDTSC (no RDTSCP)");
	printf("- CPUs: %d, one pinned thread each (CPUs", ncpus);
	for (i = 0; i < ncpus; i++)
		printf(" %d", cpu_list[i]);
	printf(")\n");
	printf("- 6.1's fallbacks: HPET: %s; ACPI PM timer: %s%s\n", hpet_why, pm_why,
	       !hpet_base && !pm_port ? ": neither is readable here" : "");
	printf("- lag: CPU 0's counter %llu ns behind; max_lag_ns %llu\n\n",
	       opt_lag_ns, READ_ONCE(ti_max_lag_ns));

	check_order();
	if (opt_check_only)
		check_demotion();
	if (nfail) {
		printf("\n%d check(s) failed: no figure is reported.\n", nfail);
	} else if (!opt_check_only) {
		time_paths();
	}
	print_core_log();
	stop_workers();
	return nfail ? 1 : 0;
}
