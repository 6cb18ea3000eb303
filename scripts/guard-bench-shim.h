/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel primitives that kernel/time/time_interpolator.c and
 * include/linux/time_interpolator.h use, for a user-space build of them
 * by scripts/guard-bench.c.  build_guard_bench (scripts/lib.sh) makes
 * every <linux/...> and <asm/...> header they include resolve to this
 * file, except the series' own two, which are the patched tree's.
 *
 * What is real: the atomics and barriers (GCC builtins with the orderings
 * the kernel's x86 versions have: cmpxchg64 is a locked cmpxchg, fully
 * ordered; smp_load_acquire/smp_store_release), rdtsc_ordered() as the
 * kernel's alternatives patch it on this CPU, per-CPU data on separate
 * cache lines.  What is not: interrupts (each thread is one "CPU", pinned,
 * and is never interrupted in the read path as far as the core can tell),
 * sysfs, the clocksource framework and the workqueues, which call back
 * into scripts/guard-bench.c, where they are counted.
 */
#ifndef GUARD_BENCH_SHIM_H
#define GUARD_BENCH_SHIM_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/types.h>

/* The configuration of an x86-64 SMP kernel with the series. */
#define CONFIG_64BIT				1
#define CONFIG_SMP				1
#define CONFIG_X86_64				1
#define CONFIG_TIME_INTERPOLATOR		1
#define CONFIG_TIME_INTERPOLATOR_CPU_COUNTER	1
#define CONFIG_CLOCKSOURCE_WATCHDOG		1

/* IS_ENABLED(CONFIG_X): 1 when CONFIG_X is defined to 1, else 0. */
#define gb_placeholder_1			0,
#define gb_second(ignored, val, ...)		val
#define gb_defined3(junk_or_zero_comma)		gb_second(junk_or_zero_comma 1, 0, 0)
#define gb_defined2(val)			gb_defined3(gb_placeholder_##val)
#define IS_ENABLED(option)			gb_defined2(option)

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
typedef unsigned long long u64;
typedef long long s64;
typedef long long __s64;
typedef s64 ktime_t;
typedef struct { int unused; } raw_spinlock_t;
struct timespec64 { s64 tv_sec; long tv_nsec; };
typedef struct { int unused; } seqcount_raw_spinlock_t;
typedef unsigned int gfp_t;

#define U32_MAX			((u32)~0U)
#define NSEC_PER_USEC		1000L
#define NSEC_PER_SEC		1000000000L
#define GFP_KERNEL		0
#define SMP_CACHE_BYTES		64

#define __init
#define __iomem
#define __percpu
#define __user
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define noinline		__attribute__((__noinline__))
/* The kernel's function tracer is not here: nothing to turn off. */
#define notrace
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define ____cacheline_aligned_in_smp	__attribute__((__aligned__(SMP_CACHE_BYTES)))

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define max_t(type, a, b)	max((type)(a), (type)(b))
#define CLOCKSOURCE_MASK(bits)	((bits) < 64 ? (1ULL << (bits)) - 1 : ~0ULL)

static inline u64 mul_u64_u64_div_u64(u64 a, u64 mul, u64 div)
{
	return (u64)((unsigned __int128)a * mul / div);
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

#define DIV64_U64_ROUND_UP(ll, d)	(((ll) + (d) - 1) / (d))

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

#define BIT_ULL(nr)	(1ULL << (nr))

/* Memory model: x86-64, as the kernel's own macros give it. */
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)	do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* Returns the value found at @ptr: @old when the exchange happened. */
#define cmpxchg64(ptr, old, new) ({					\
	u64 gb_old = (old);						\
	__atomic_compare_exchange_n((ptr), &gb_old, (new), false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	gb_old;								\
})

/* atomic64_t, as x86-64 has it: a plain load, a locked cmpxchg. */
typedef struct {
	s64 counter;
} atomic64_t;

#define atomic64_read(v)	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic64_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)

/* On failure, *@old is the value found, as in the kernel. */
static inline bool atomic64_try_cmpxchg(atomic64_t *v, s64 *old, s64 new)
{
	return __atomic_compare_exchange_n(&v->counter, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/*
 * local64_t: atomic against this CPU only, so unlocked on x86-64; a
 * bench thread owns its CPU's slot, so plain relaxed atomics.
 */
typedef struct {
	s64 v;
} local64_t;

#define local64_read(l)		__atomic_load_n(&(l)->v, __ATOMIC_RELAXED)
#define local64_set(l, i)	__atomic_store_n(&(l)->v, (i), __ATOMIC_RELAXED)
#define local64_inc(l)		((void)__atomic_fetch_add(&(l)->v, 1, __ATOMIC_RELAXED))
#define local64_add(i, l)	((void)__atomic_fetch_add(&(l)->v, (i), __ATOMIC_RELAXED))

static inline s64 local64_cmpxchg(local64_t *l, s64 old, s64 new)
{
	__atomic_compare_exchange_n(&l->v, &old, new, false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return old;
}

/* A bench thread is pinned: preemption cannot move it. */
#define preempt_disable_notrace()	do { } while (0)
#define preempt_enable_notrace()	do { } while (0)

static inline bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	unsigned long bit = 1UL << nr;

	return __atomic_fetch_or(addr, bit, __ATOMIC_SEQ_CST) & bit;
}

/* "Interrupts": a bench thread is never interrupted by the core's code. */
#define local_irq_save(flags)		((flags) = 0)
#define local_irq_restore(flags)	((void)(flags))

/*
 * Per-CPU data: one GB_PERCPU_STRIDE slot a CPU, each on cache lines of
 * its own as in the kernel's per-CPU areas.  gb_this_cpu is the index of
 * the CPU the calling thread is pinned to.
 */
#define GB_PERCPU_STRIDE	256
extern __thread int gb_this_cpu;
extern int gb_nr_cpu_ids;
void *gb_alloc_percpu(size_t size);

#define alloc_percpu(type)	((type *)gb_alloc_percpu(sizeof(type)))
#define free_percpu(p)		free(p)
#define per_cpu_ptr(p, cpu) \
	((__typeof__(p))((char *)(p) + (size_t)(cpu) * GB_PERCPU_STRIDE))
#define this_cpu_ptr(p)		per_cpu_ptr(p, gb_this_cpu)
#define for_each_possible_cpu(cpu) \
	for ((cpu) = 0; (cpu) < gb_nr_cpu_ids; (cpu)++)

/*
 * The TSC, read as rdtsc_ordered() is patched on this CPU: RDTSCP where
 * CPUID has it, else LFENCE;RDTSC (X86_FEATURE_LFENCE_RDTSC, which every
 * x86-64 CPU the kernel supports gets).  GB_RDTSCP is set by the build
 * from CPUID, and checked again by the program.  gb_tsc_lag makes this
 * thread's counter lag the others' by a fixed number of cycles.
 */
extern __thread u64 gb_tsc_lag;

static __always_inline unsigned long long rdtsc_ordered(void)
{
	u32 lo, hi;

#ifdef GB_RDTSCP
	asm volatile("rdtscp" : "=a" (lo), "=d" (hi) : : "ecx");
#else
	asm volatile("lfence; rdtsc" : "=a" (lo), "=d" (hi));
#endif
	return (((u64)hi << 32) | lo) - gb_tsc_lag;
}

static inline u32 readl(const volatile void __iomem *addr)
{
	return *(const volatile u32 *)addr;
}

static inline u64 readq(const volatile void __iomem *addr)
{
	return *(const volatile u64 *)addr;
}

/* Lists */
struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD(name)	struct list_head name = { &(name), &(name) }

static inline void list_add_tail(struct list_head *entry, struct list_head *head)
{
	entry->prev = head->prev;
	entry->next = head;
	head->prev->next = entry;
	head->prev = entry;
}

static inline void list_del_init(struct list_head *entry)
{
	entry->prev->next = entry->next;
	entry->next->prev = entry->prev;
	entry->next = entry;
	entry->prev = entry;
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

#define list_for_each_entry(pos, head, member)					\
	for ((pos) = container_of((head)->next, __typeof__(*(pos)), member);	\
	     &(pos)->member != (head);						\
	     (pos) = container_of((pos)->member.next, __typeof__(*(pos)), member))

/* Locks: the core's mutex is taken only off the read path. */
struct mutex {
	pthread_mutex_t lock;
};

#define DEFINE_MUTEX(name)	struct mutex name = { PTHREAD_MUTEX_INITIALIZER }
#define mutex_lock(m)		pthread_mutex_lock(&(m)->lock)
#define mutex_unlock(m)		pthread_mutex_unlock(&(m)->lock)
#define lockdep_assert_held(m)	((void)(m))
/* The switch of the guard: a raw spinlock in the kernel, a mutex here. */
#define DEFINE_RAW_SPINLOCK(name)	DEFINE_MUTEX(name)
#define raw_spin_lock_irqsave(l, f)	do { (f) = 0; mutex_lock(l); } while (0)
#define raw_spin_unlock_irqrestore(l, f) do { (void)(f); mutex_unlock(l); } while (0)
#define raw_spin_lock_irq(l)		mutex_lock(l)
#define raw_spin_unlock_irq(l)		mutex_unlock(l)
#define synchronize_rcu()	do { } while (0)

/* Logging: kept by guard-bench.c, which reports what the core said. */
void gb_printk(const char *fmt, ...) __attribute__((__format__(__printf__, 1, 2)));
#define pr_err(fmt, ...)	gb_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	gb_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	gb_printk(pr_fmt(fmt), ##__VA_ARGS__)

/* irq_work and workqueues: queued work is run by guard-bench.c. */
struct irq_work {
	void (*func)(struct irq_work *work);
};

struct work_struct {
	void (*func)(struct work_struct *work);
};

#define init_irq_work(w, f)	((w)->func = (f))
#define INIT_WORK(w, f)		((w)->func = (f))
bool irq_work_queue(struct irq_work *work);
bool schedule_work(struct work_struct *work);
#define irq_work_sync(w)	((void)(w))
static inline bool cancel_work_sync(struct work_struct *work)
{
	return false;
}

/* The clocksource framework, as far as the core uses it. */
enum vdso_clock_mode {
	VDSO_CLOCKMODE_NONE,
	VDSO_CLOCKMODE_TSC,
};

struct clocksource {
	u64			(*read)(struct clocksource *cs);
	u64			mask;
	const char		*name;
	int			rating;
	unsigned long		flags;
	enum vdso_clock_mode	vdso_clock_mode;
	int			(*enable)(struct clocksource *cs);
	void			(*resume)(struct clocksource *cs);
	u64			(*read_raw)(struct clocksource *cs);
	bool			read_guarded;	/* 7.2 */
	u64			max_cpu_skew;	/* 7.2 */
};

/* 7.2: timekeeping.h's ktime_expiry_to_cycles() names it */
enum clocksource_ids {
	CSID_GENERIC = 0,
};

int __clocksource_register_scale(struct clocksource *cs, u32 scale, u32 freq);
int clocksource_unregister(struct clocksource *cs);
void clocksource_mark_unstable(struct clocksource *cs);
void clocksource_change_rating(struct clocksource *cs, int rating);

/* sysfs and parameters: declared, never registered in user space. */
struct kobject {
	int unused;
};

struct attribute {
	const char *name;
};

struct attribute_group {
	struct attribute **attrs;
};

struct kobj_attribute {
	struct attribute attr;
	ssize_t (*show)(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf);
};

struct sysfs_ops {
	int unused;
};

struct kobj_type {
	void (*release)(struct kobject *kobj);
	const struct sysfs_ops *sysfs_ops;
	const struct attribute_group **default_groups;
};

static const struct sysfs_ops kobj_sysfs_ops;
static struct kobject *const kernel_kobj;

#define __ATTR_RO(_name)	{ .attr = { .name = #_name }, .show = _name##_show }
#define ATTRIBUTE_GROUPS(_name)						\
	static const struct attribute_group _name##_group = {		\
		.attrs = _name##_attrs,					\
	};								\
	static const struct attribute_group *_name##_groups[] = {	\
		&_name##_group, NULL,					\
	}

#define sysfs_emit(buf, ...)	sprintf((buf), __VA_ARGS__)
#define kzalloc(size, gfp)	calloc(1, (size))
/* 7.2's typed allocation: one zeroed object of P's type */
#define kzalloc_obj(P, ...)	((typeof(P) *)calloc(1, sizeof(P)))
#define kfree(p)		free(p)

static inline int kobject_init_and_add(struct kobject *kobj,
				       const struct kobj_type *ktype,
				       struct kobject *parent,
				       const char *fmt, ...)
{
	return -ENODEV;
}

static inline void kobject_put(struct kobject *kobj)
{
}

static inline struct kobject *kobject_create_and_add(const char *name,
						     struct kobject *parent)
{
	return NULL;
}

struct kernel_param {
	const char *name;
};

struct kernel_param_ops {
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buf, const struct kernel_param *kp);
};

/* Equal, but for one trailing newline in either, as sysfs_streq() says. */
static inline bool gb_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b || (*a == '\n' && !a[1] && !*b) ||
	       (*b == '\n' && !b[1] && !*a);
}

static inline int gb_match_string(const char * const *array, size_t n,
				  const char *str)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (array[i] && gb_streq(array[i], str))
			return i;
	return -EINVAL;
}

#define sysfs_match_string(array, str) \
	gb_match_string((array), ARRAY_SIZE(array), (str))

static inline int kstrtou64(const char *s, unsigned int base, u64 *res)
{
	char *end;

	if (!*s || *s == '-' || *s == ' ')
		return -EINVAL;
	errno = 0;
	*res = strtoull(s, &end, base);
	if (errno || end == s || (*end && !(*end == '\n' && !end[1])))
		return -EINVAL;
	return 0;
}

/* Registration macros: the functions they name stay referenced. */
#define EXPORT_SYMBOL_GPL(sym)		extern int gb_export_##sym
#define MODULE_PARM_DESC(name, desc)	extern int gb_parm_desc_##name
#define module_param_cb(name, ops, arg, perm)				\
	static const struct kernel_param_ops *const gb_param_##name	\
		__attribute__((__unused__)) = (ops)
#define subsys_initcall(fn)						\
	static int (*const gb_initcall_##fn)(void)			\
		__attribute__((__unused__)) = (fn)
#define __setup(str, fn)						\
	static int (*const gb_setup_##fn)(char *)			\
		__attribute__((__unused__)) = (fn)

/* kernel/time/timekeeping.c, called by the core: nothing to republish here. */
void timekeeping_clocksource_changed(struct clocksource *cs);

#endif /* GUARD_BENCH_SHIM_H */
