// SPDX-License-Identifier: GPL-2.0
/*
 * vdso-bench: load built x86-64 vDSO images (vdso64.so) on the host, next
 * to a vvar page this program fills the way the timekeeper of the
 * image's kernel would, and time their entry points beside the host's
 * own clock_gettime() and bare TSC reads.
 *
 * Usage: vdso-bench [-n CALLS] [-r ROUNDS] [--alt=none|lfence|rdtscp|host]
 *                   [--csv=FILE] [--cpu=N] [--base=6.1|6.12|7.2]
 *                   [--floor=LABEL] LABEL=PATH/vdso64.so...
 *
 * The first image is the reference of the patched/base ratios.  Each
 * image's kernel, 6.1, 6.12 or 7.2, is read from its "Linux" version note
 * and decides the layout of its data (6.1's and 6.12's struct vdso_data in
 * the vvar page, 7.2's struct vdso_time_data in the generic vDSO
 * datastore) and of struct alt_instr, and how the alternatives are
 * applied; --base=V refuses an image of another.
 * --floor=LABEL names an image that is a bound, not a clock: one built to
 * do less than a correct one (scripts/vdso-floor.sh).  Its sanity checks
 * are run and reported, their failures expected; it is timed like the
 * others.  A fault in it, or a failed memory check, still fails the run.
 * PATH.dbg, when present, supplies the symbols: on 6.1 and 6.12 those
 * vdso2c uses (vvar_start, the vvar page, pvclock/hvclock/timens pages,
 * the vdso_data offset), on 7.2 those the linker script provides
 * (vdso_u_data, vdso_u_time_data, vdso_u_rng_data, pvclock_page,
 * hvclock_page: include/vdso/datapage.h's VDSO_VVAR_SYMS and
 * arch/x86/entry/vdso/common/vdso-layout.lds.S); without it the layout of
 * that kernel's linker script is assumed.
 *
 * Writes a Markdown report on stdout, progress on stderr.  Exit status:
 * 0 all sanity checks passed, 1 a sanity check failed (no timing done),
 * 2 usage or image error, 3 a fault while running image code.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define PAGE		4096UL
#define NSEC_PER_SEC	1000000000LL
#define MAX_IMAGES	8
#define MAX_ROUNDS	31
#define MAX_ALTS	256

/*
 * ---- The vvar layouts (include/vdso/datapage.h, x86 vvar.h) ----
 *
 * Three are modelled, chosen per image from the kernel version its "Linux"
 * ELF note carries (vdso-note.S, note.S: LINUX_VERSION_CODE): 6.1, 6.12
 * and 7.2.  6.1's and 6.12's struct vdso_data differs in max_cycles only,
 * which 6.12 has as x86 selects GENERIC_VDSO_OVERFLOW_PROTECT there; the
 * vvar area (four pages, vvar.h's _vdso_data at 128 of the first) is the
 * same in both, 6.12 adding _vdso_rng_data at 640 of that page, after
 * vdso_data[2].
 *
 * 7.2 has the generic vDSO datastore instead (lib/vdso/datastore.c): the
 * area is __VDSO_PAGES (6) pages below the text, VDSO_NR_PAGES (4) of the
 * datastore, enum vdso_pages: the time page (struct vdso_time_data at its
 * start, vdso_u_time_data), the time namespace page, the getrandom page
 * (vdso_u_rng_data), one arch page (x86 has no ARCH_HAS_VDSO_ARCH_DATA:
 * never mapped), then x86's VDSO_NR_VCLOCK_PAGES (2): pvclock_page and
 * hvclock_page.  struct vdso_time_data holds struct vdso_clock
 * clock_data[CS_BASES] (6.12's vdso_data less tz and hrtimer_res, with
 * max_cycles), aux_clock_data[MAX_AUX_CLOCKS], then tz and hrtimer_res
 * once.
 */

#define VDSO_BASES	(CLOCK_TAI + 1)		/* 12 */
#define CS_HRES_COARSE	0
#define CS_RAW		1
#define CS_BASES	2

/*
 * enum vdso_clock_mode with VDSO_ARCH_CLOCKMODES of
 * arch/x86/include/asm/vdso/clocksource.h: NONE, TSC, PVCLOCK, HVCLOCK,
 * the same values in 6.1, 6.12 and 7.2 (and TIMENS = INT_MAX, the time
 * namespace page's, never written here).
 */
#define VDSO_CLOCKMODE_NONE	0
#define VDSO_CLOCKMODE_TSC	1
#define MAX_AUX_CLOCKS	8		/* 7.2: uapi/linux/time.h */

struct vb_timestamp {
	uint64_t sec;
	uint64_t nsec;			/* shifted left by ->shift for hres */
};

/*
 * struct vdso_data of 6.1 and 6.12 (x86 has no arch_vdso_data: no
 * ARCH_HAS_VDSO_DATA) as a head, 6.12's max_cycles, a tail (the clock
 * part) and the misc fields (tz, hrtimer_res), the last two common to
 * both.  7.2's struct vdso_clock is the head, max_cycles and the tail; its
 * struct vdso_time_data (x86: no ARCH_HAS_VDSO_TIME_DATA, an empty
 * arch_data) holds the misc fields once, after the aux clocks.
 */
struct vb_vdso_head {
	uint32_t seq;
	int32_t clock_mode;
	uint64_t cycle_last;
};

struct vb_vdso_tail {
	uint64_t mask;
	uint32_t mult;
	uint32_t shift;
	struct vb_timestamp basetime[VDSO_BASES];	/* union with offset[] */
};

struct vb_vdso_misc {
	int32_t tz_minuteswest;
	int32_t tz_dsttime;
	uint32_t hrtimer_res;
	uint32_t unused;
};

struct vb_vdso_data_61 {
	struct vb_vdso_head h;
	struct vb_vdso_tail t;
	struct vb_vdso_misc m;
};

struct vb_vdso_data_612 {
	struct vb_vdso_head h;
	uint64_t max_cycles;		/* GENERIC_VDSO_OVERFLOW_PROTECT */
	struct vb_vdso_tail t;
	struct vb_vdso_misc m;
};

/* 7.2: struct vdso_clock and struct vdso_time_data (____cacheline_aligned) */
struct vb_vdso_clock_72 {
	struct vb_vdso_head h;
	uint64_t max_cycles;		/* GENERIC_VDSO_OVERFLOW_PROTECT */
	struct vb_vdso_tail t;
};

struct vb_vdso_time_data_72 {
	struct vb_vdso_clock_72 clock_data[CS_BASES];
	struct vb_vdso_clock_72 aux_clock_data[MAX_AUX_CLOCKS];
	struct vb_vdso_misc m;
} __attribute__((aligned(64)));

_Static_assert(VDSO_BASES == 12, "CLOCK_TAI is 11");
/* Head, tail and misc once; each kernel's struct only places them. */
_Static_assert(offsetof(struct vb_vdso_head, clock_mode) == 4, "layout");
_Static_assert(offsetof(struct vb_vdso_head, cycle_last) == 8, "layout");
_Static_assert(sizeof(struct vb_vdso_head) == 16, "layout");
_Static_assert(offsetof(struct vb_vdso_tail, mult) == 8, "layout");
_Static_assert(offsetof(struct vb_vdso_tail, shift) == 12, "layout");
_Static_assert(offsetof(struct vb_vdso_tail, basetime) == 16, "layout");
_Static_assert(sizeof(struct vb_vdso_tail) == 208, "layout");
_Static_assert(offsetof(struct vb_vdso_misc, hrtimer_res) == 8, "layout");
_Static_assert(sizeof(struct vb_vdso_misc) == 16, "layout");

_Static_assert(offsetof(struct vb_vdso_data_61, t) == 16, "6.1 layout");
_Static_assert(offsetof(struct vb_vdso_data_61, m.tz_minuteswest) == 224, "6.1 layout");
_Static_assert(offsetof(struct vb_vdso_data_61, m.hrtimer_res) == 232, "6.1 layout");
_Static_assert(sizeof(struct vb_vdso_data_61) == 240, "6.1 layout");
_Static_assert(offsetof(struct vb_vdso_data_612, max_cycles) == 16, "6.12 layout");
_Static_assert(offsetof(struct vb_vdso_data_612, t) == 24, "6.12 layout");
_Static_assert(offsetof(struct vb_vdso_data_612, m.tz_minuteswest) == 232, "6.12 layout");
_Static_assert(offsetof(struct vb_vdso_data_612, m.hrtimer_res) == 240, "6.12 layout");
_Static_assert(sizeof(struct vb_vdso_data_612) == 248, "6.12 layout");

/*
 * 7.2, as its vDSO addresses them (objdump of a 7.2 vdso64.so: clock_data
 * [CS_RAW] at vdso_u_data+0xe8, tz at +0x910, hrtimer_res at +0x918).
 */
_Static_assert(offsetof(struct vb_vdso_clock_72, max_cycles) == 16, "7.2 layout");
_Static_assert(offsetof(struct vb_vdso_clock_72, t) == 24, "7.2 layout");
_Static_assert(offsetof(struct vb_vdso_clock_72, t.basetime) == 40, "7.2 layout");
_Static_assert(sizeof(struct vb_vdso_clock_72) == 232, "7.2 layout");
_Static_assert(offsetof(struct vb_vdso_time_data_72, clock_data[CS_RAW]) == 0xe8, "7.2 layout");
_Static_assert(offsetof(struct vb_vdso_time_data_72, aux_clock_data) == 464, "7.2 layout");
_Static_assert(offsetof(struct vb_vdso_time_data_72, m.tz_minuteswest) == 0x910, "7.2 layout");
_Static_assert(offsetof(struct vb_vdso_time_data_72, m.hrtimer_res) == 0x918, "7.2 layout");
_Static_assert(sizeof(struct vb_vdso_time_data_72) == 2368, "7.2 layout");
_Static_assert(sizeof(struct vb_vdso_time_data_72) <= PAGE,
	       "datastore.c: sizeof(struct vdso_time_data) <= PAGE_SIZE");

/* vdso-layout.lds.S of 6.1 and 6.12, used when there is no .dbg */
#define DEF_VVAR_PAGES	4
#define DEF_DATA_OFF	128		/* DECLARE_VVAR(128, ..., _vdso_data) */
#define DEF_RNG_OFF	640		/* 6.12: DECLARE_VVAR_SINGLE(640, ...) */

_Static_assert(DEF_DATA_OFF + CS_BASES * sizeof(struct vb_vdso_data_612) <=
	       DEF_RNG_OFF, "6.12's vdso_data[2] ends before _vdso_rng_data");

/*
 * 7.2's datastore (include/vdso/datapage.h enum vdso_pages, x86
 * asm/vdso/vsyscall.h), used when there is no .dbg: vdso_u_data =
 * . - __VDSO_PAGES * PAGE_SIZE at the start of the text.
 */
#define DS_VDSO_PAGES		6	/* __VDSO_PAGES */
#define DS_TIME_PAGE		0	/* VDSO_TIME_PAGE_OFFSET */
#define DS_TIMENS_PAGE		1	/* VDSO_TIMENS_PAGE_OFFSET */
#define DS_RNG_PAGE		2	/* VDSO_RNG_PAGE_OFFSET */
#define DS_ARCH_PAGE		3	/* VDSO_ARCH_PAGES_START */
#define DS_NR_PAGES		4	/* VDSO_NR_PAGES */
#define DS_NR_VCLOCK_PAGES	2	/* VDSO_NR_VCLOCK_PAGES */

_Static_assert(DS_NR_PAGES + DS_NR_VCLOCK_PAGES == DS_VDSO_PAGES,
	       "7.2 vma.c: VDSO_NR_PAGES + VDSO_NR_VCLOCK_PAGES == __VDSO_PAGES");

/* ---- struct alt_instr (arch/x86/include/asm/alternative.h) ---- */

/* 6.1: the feature in 15 bits, bit 15 ALTINSTR_FLAG_INV */
struct vb_alt_instr_61 {
	int32_t instr_offset;
	int32_t repl_offset;
	uint16_t cpuid;
	uint8_t instrlen;
	uint8_t replacementlen;
} __attribute__((packed));

/*
 * 6.12 and 7.2: ft_flags, the feature in bits 0-15, the ALT_FLAG_* in
 * 16-31 (7.2 names the halves cpuid and flags in a union with ft_flags)
 */
struct vb_alt_instr_612 {
	int32_t instr_offset;
	int32_t repl_offset;
	uint32_t ft_flags;
	uint8_t instrlen;
	uint8_t replacementlen;
} __attribute__((packed));

_Static_assert(sizeof(struct vb_alt_instr_61) == 12, "6.1 struct alt_instr");
_Static_assert(sizeof(struct vb_alt_instr_612) == 14, "6.12 struct alt_instr");
_Static_assert(offsetof(struct vb_alt_instr_61, repl_offset) == 4 &&
	       offsetof(struct vb_alt_instr_612, repl_offset) == 4,
	       "the replacement is relative to &repl_offset, at 4 in both");

#define ALTINSTR_FLAG_INV	(1 << 15)	/* 6.1 */
#define ALT_FLAGS_SHIFT		16		/* 6.12, 7.2 */
#define ALT_FLAG_NOT		(1 << 0)	/* 6.12, 7.2 */
#define ALT_FLAG_DIRECT_CALL	(1 << 1)	/* 6.12, 7.2 */
#define NCAPINTS		22		/* all three */
#define NBUGINTS		2		/* all three */
#define X86_FEATURE_RDTSCP	(1 * 32 + 27)
#define X86_FEATURE_ALWAYS	(3 * 32 + 21)
#define X86_FEATURE_RDPID	(16 * 32 + 22)
#define X86_FEATURE_LFENCE_RDTSC_61	(3 * 32 + 18)
#define X86_FEATURE_LFENCE_RDTSC_612	(20 * 32 + 2)	/* and 7.2 */

/* What differs between the kernels, for one image */
struct vb_layout {
	const char *name;
	unsigned int version;		/* KERNEL_VERSION(major, minor, 0) */
	size_t vd_size;			/* sizeof(struct vdso_data), 7.2's
					   struct vdso_clock: one clock base */
	size_t max_cycles_off;		/* 0: no max_cycles */
	size_t tail_off;		/* of struct vb_vdso_tail */
	size_t misc_off;		/* of struct vb_vdso_misc: in each
					   vdso_data, 7.2 in vdso_time_data */
	size_t data_size;		/* the bytes the vDSO reads from the
					   data page: vdso_data[CS_BASES],
					   7.2's struct vdso_time_data */
	size_t alt_size;		/* sizeof(struct alt_instr) */
	unsigned int lfence_rdtsc;	/* X86_FEATURE_LFENCE_RDTSC */
	bool v612;			/* 6.12's (and 7.2's)
					   apply_alternatives(), NOPs */
	bool datastore;			/* 7.2: the generic vDSO datastore,
					   struct vdso_time_data */
};

#define KERNEL_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + (c))

static const struct vb_layout layouts[] = {
	{
		.name = "6.1", .version = KERNEL_VERSION(6, 1, 0),
		.vd_size = sizeof(struct vb_vdso_data_61),
		.tail_off = offsetof(struct vb_vdso_data_61, t),
		.misc_off = offsetof(struct vb_vdso_data_61, m),
		.data_size = CS_BASES * sizeof(struct vb_vdso_data_61),
		.alt_size = sizeof(struct vb_alt_instr_61),
		.lfence_rdtsc = X86_FEATURE_LFENCE_RDTSC_61,
	},
	{
		.name = "6.12", .version = KERNEL_VERSION(6, 12, 0),
		.vd_size = sizeof(struct vb_vdso_data_612),
		.max_cycles_off = offsetof(struct vb_vdso_data_612, max_cycles),
		.tail_off = offsetof(struct vb_vdso_data_612, t),
		.misc_off = offsetof(struct vb_vdso_data_612, m),
		.data_size = CS_BASES * sizeof(struct vb_vdso_data_612),
		.alt_size = sizeof(struct vb_alt_instr_612),
		.lfence_rdtsc = X86_FEATURE_LFENCE_RDTSC_612,
		.v612 = true,
	},
	{
		/*
		 * struct alt_instr as 6.12's; apply_alternatives() works per
		 * site (analyze_patch_site(): the longest instrlen of the
		 * site's entries, the last one whose feature is present), then
		 * one optimize_nops() over the site, with 6.12's add_nop():
		 * the same bytes as 6.12's entry-by-entry patching for the
		 * sites this program applies.
		 */
		.name = "7.2", .version = KERNEL_VERSION(7, 2, 0),
		.vd_size = sizeof(struct vb_vdso_clock_72),
		.max_cycles_off = offsetof(struct vb_vdso_clock_72, max_cycles),
		.tail_off = offsetof(struct vb_vdso_clock_72, t),
		.misc_off = offsetof(struct vb_vdso_time_data_72, m),
		.data_size = sizeof(struct vb_vdso_time_data_72),
		.alt_size = sizeof(struct vb_alt_instr_612),
		.lfence_rdtsc = X86_FEATURE_LFENCE_RDTSC_612,
		.v612 = true,
		.datastore = true,
	},
};
#define NLAYOUTS	(int)(sizeof(layouts) / sizeof(layouts[0]))

/*
 * The kernel's x86-64 NOPs, BYTES_NOP1..11 of asm/nops.h: 6.1 uses the
 * first 8 (ASM_NOP_MAX 8), 6.12 all 11; 9..11 are NOP8 with prefixes.
 */
#define NOP_MAX		11
static const unsigned char nops[NOP_MAX][NOP_MAX] = {
	{ 0x90 },
	{ 0x66, 0x90 },
	{ 0x0f, 0x1f, 0x00 },
	{ 0x0f, 0x1f, 0x40, 0x00 },
	{ 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	{ 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	{ 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
	{ 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	{ 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	{ 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	{ 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
};

/* ---- Images ---- */

enum entry { E_GETTIME, E_GETTIMEOFDAY, E_GETRES, E_GETTIME_NS, NENTRY };

static const char *const entry_name[NENTRY] = {
	"__vdso_clock_gettime", "__vdso_gettimeofday",
	"__vdso_clock_getres", "__vdso_clock_gettime_ns",
};

typedef int (*gettime_fn)(clockid_t, struct timespec *);
typedef int (*gettimeofday_fn)(struct timeval *, struct timezone *);
typedef int (*getres_fn)(clockid_t, struct timespec *);
typedef int (*gettime_ns_fn)(clockid_t, int64_t *, unsigned int);

struct elf {
	const char *path;
	unsigned char *buf;
	size_t len;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;		/* NULL without section headers */
	unsigned int shnum;
	const char *shstr;
	size_t shstr_len;
};

/*
 * The pages of the vvar area.  VP_VVAR is the one the clocks are read
 * from (7.2: the datastore's time page); VP_RNG and VP_ARCH are 7.2's
 * alone (6.12's getrandom data shares its vvar page).
 */
enum vpage { VP_VVAR, VP_PVCLOCK, VP_HVCLOCK, VP_TIMENS, VP_RNG, VP_ARCH,
	     NVPAGE };

/* 6.1 and 6.12: the symbols vdso2c reads, and the pages' names */
static const char *const vpage_sym[NVPAGE] = {
	"vvar_page", "pvclock_page", "hvclock_page", "timens_page", NULL, NULL,
};

/*
 * 7.2: the pages' names, the symbols of VDSO_VVAR_SYMS and of the x86
 * linker script where there is one; the time namespace page (the real
 * time page, for a task in a time namespace: vdso_timens_data()) and
 * the arch page (no vdso_u_arch_data on x86) have none.
 */
static const char *const vpage_name_ds[NVPAGE] = {
	"vdso_u_time_data", "pvclock_page", "hvclock_page", "timens page",
	"vdso_u_rng_data", "arch page",
};

/* The pages in address order, as each layout places them */
static const enum vpage vpage_order[NVPAGE] = {
	VP_VVAR, VP_PVCLOCK, VP_HVCLOCK, VP_TIMENS, VP_RNG, VP_ARCH,
};
static const enum vpage vpage_order_ds[NVPAGE] = {
	VP_VVAR, VP_TIMENS, VP_RNG, VP_ARCH, VP_PVCLOCK, VP_HVCLOCK,
};

struct image {
	const char *label;
	char *path;
	struct elf so, dbg;
	bool have_dbg;
	bool floor;			/* --floor: timed, not trusted */
	unsigned int version;		/* LINUX_VERSION_CODE of its note */
	const struct vb_layout *layout;	/* chosen by version */
	size_t load_len;		/* PT_LOAD p_filesz */
	long vvar_start;		/* < 0, relative to the text */
	long vpage[NVPAGE];		/* relative to the text */
	long data_off;			/* struct vdso_data[CS_BASES], 7.2's
					   struct vdso_time_data */
	unsigned long alt_off, alt_len;
	unsigned long entry[NENTRY];
	bool has[NENTRY];
	/* the mapping */
	unsigned char *map, *vvar, *text;
	size_t map_len, vvar_len, text_len;
	unsigned char *vd;		/* vdso_data[CS_BASES], 7.2's
					   vdso_time_data: layout's size */
	gettime_fn gettime;
	gettimeofday_fn gettimeofday;
	getres_fn getres;
	gettime_ns_fn gettime_ns;
};

static struct image images[MAX_IMAGES];
static int nimages;

/* vdso_data[@b] of @im, in its layout: the head, the tail, max_cycles */
static struct vb_vdso_head *vd_head(const struct image *im, int b)
{
	return (struct vb_vdso_head *)(im->vd + b * im->layout->vd_size);
}

static struct vb_vdso_tail *vd_tail(const struct image *im, int b)
{
	return (struct vb_vdso_tail *)(im->vd + b * im->layout->vd_size +
				       im->layout->tail_off);
}

/* NULL where the layout has no max_cycles (6.1) */
static uint64_t *vd_max_cycles(const struct image *im, int b)
{
	if (!im->layout->max_cycles_off)
		return NULL;
	return (uint64_t *)(im->vd + b * im->layout->vd_size +
			    im->layout->max_cycles_off);
}

/* tz and hrtimer_res: in vdso_data[@b]; 7.2: once, @b ignored */
static struct vb_vdso_misc *vd_misc(const struct image *im, int b)
{
	if (im->layout->datastore)
		return (struct vb_vdso_misc *)(im->vd + im->layout->misc_off);
	return (struct vb_vdso_misc *)(im->vd + b * im->layout->vd_size +
				       im->layout->misc_off);
}

/* The name of vvar-area page @k of @im, NULL where 6.1/6.12 have none */
static const char *vpage_name(const struct image *im, int k)
{
	return im->layout->datastore ? vpage_name_ds[k] : vpage_sym[k];
}

/* ---- Small helpers ---- */

static void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	fputs("vdso-bench: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

/*
 * On stderr, after what stdout holds so far: vdso-check.sh logs both to
 * one file, and a progress line must not land inside a check line.
 */
static void progress(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	fputs("vdso-bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static inline uint64_t rdtsc_bare(void)
{
	uint32_t lo, hi;

	asm volatile("rdtsc" : "=a" (lo), "=d" (hi));
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t rdtsc_lfence(void)
{
	uint32_t lo, hi;

	asm volatile("lfence; rdtsc" : "=a" (lo), "=d" (hi) :: "memory");
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t rdtscp_read(void)
{
	uint32_t lo, hi, aux;

	asm volatile("rdtscp" : "=a" (lo), "=d" (hi), "=c" (aux));
	return (uint64_t)hi << 32 | lo;
}

static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static int64_t host_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts_ns(&ts);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static const char *clock_name(clockid_t clk)
{
	switch (clk) {
	case CLOCK_REALTIME:		return "REALTIME";
	case CLOCK_MONOTONIC:		return "MONOTONIC";
	case CLOCK_MONOTONIC_RAW:	return "MONOTONIC_RAW";
	case CLOCK_REALTIME_COARSE:	return "REALTIME_COARSE";
	case CLOCK_MONOTONIC_COARSE:	return "MONOTONIC_COARSE";
	case CLOCK_BOOTTIME:		return "BOOTTIME";
	case CLOCK_TAI:			return "TAI";
	default:			return "?";
	}
}

/* ---- ELF ---- */

static const void *elf_ptr(const struct elf *e, uint64_t off, uint64_t size)
{
	if (off > e->len || size > e->len - off)
		return NULL;
	return e->buf + off;
}

static bool elf_load(struct elf *e, const char *path, bool must)
{
	struct stat st;
	ssize_t got;
	size_t done = 0;
	int fd;

	memset(e, 0, sizeof(*e));
	e->path = path;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		if (!must && errno == ENOENT)
			return false;
		die("%s: %s", path, strerror(errno));
	}
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr) ||
	    st.st_size > 64 << 20)
		die("%s: not a plausible vDSO image", path);
	e->len = st.st_size;
	e->buf = malloc(e->len);
	if (!e->buf)
		die("out of memory");
	while (done < e->len) {
		got = read(fd, e->buf + done, e->len - done);
		if (got <= 0)
			die("%s: read failed", path);
		done += got;
	}
	close(fd);

	e->eh = (const Elf64_Ehdr *)e->buf;
	if (memcmp(e->eh->e_ident, ELFMAG, SELFMAG) ||
	    e->eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    e->eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    e->eh->e_machine != EM_X86_64 || e->eh->e_type != ET_DYN)
		die("%s: not an x86-64 ELF shared object", path);

	if (e->eh->e_shoff && e->eh->e_shnum &&
	    e->eh->e_shentsize == sizeof(Elf64_Shdr)) {
		const Elf64_Shdr *strsh;

		e->sh = elf_ptr(e, e->eh->e_shoff,
				(uint64_t)e->eh->e_shnum * sizeof(Elf64_Shdr));
		if (!e->sh)
			die("%s: section headers out of the file", path);
		e->shnum = e->eh->e_shnum;
		if (e->eh->e_shstrndx >= e->shnum)
			die("%s: bad e_shstrndx", path);
		strsh = &e->sh[e->eh->e_shstrndx];
		e->shstr = elf_ptr(e, strsh->sh_offset, strsh->sh_size);
		e->shstr_len = strsh->sh_size;
		if (!e->shstr)
			die("%s: bad .shstrtab", path);
	}
	return true;
}

static const Elf64_Shdr *elf_section(const struct elf *e, const char *name)
{
	unsigned int i;

	for (i = 0; i < e->shnum; i++) {
		uint32_t n = e->sh[i].sh_name;

		if (n < e->shstr_len &&
		    !strncmp(e->shstr + n, name, e->shstr_len - n))
			return &e->sh[i];
	}
	return NULL;
}

static const Elf64_Shdr *elf_section_type(const struct elf *e, uint32_t type)
{
	unsigned int i;

	for (i = 0; i < e->shnum; i++)
		if (e->sh[i].sh_type == type)
			return &e->sh[i];
	return NULL;
}

/* A NUL-terminated string at @off of string table @strsh, or NULL. */
static const char *elf_str(const struct elf *e, const Elf64_Shdr *strsh,
			   uint64_t off)
{
	const char *s = elf_ptr(e, strsh->sh_offset, strsh->sh_size);

	if (!s || off >= strsh->sh_size ||
	    !memchr(s + off, 0, strsh->sh_size - off))
		return NULL;
	return s + off;
}

/* The name of version index @ndx in the SHT_GNU_verdef section, or NULL. */
static const char *elf_verdef_name(const struct elf *e, unsigned int ndx)
{
	const Elf64_Shdr *vdsh = elf_section_type(e, SHT_GNU_verdef);
	const Elf64_Shdr *strsh;
	uint64_t off, end;
	unsigned int i;

	if (!vdsh || vdsh->sh_link >= e->shnum)
		return NULL;
	strsh = &e->sh[vdsh->sh_link];
	off = vdsh->sh_offset;
	end = vdsh->sh_offset + vdsh->sh_size;
	for (i = 0; i < vdsh->sh_info + 1 && off < end; i++) {
		const Elf64_Verdef *vd = elf_ptr(e, off, sizeof(*vd));
		const Elf64_Verdaux *va;

		if (!vd)
			return NULL;
		if (vd->vd_ndx == ndx) {
			va = elf_ptr(e, off + vd->vd_aux, sizeof(*va));
			return va ? elf_str(e, strsh, va->vda_name) : NULL;
		}
		if (!vd->vd_next)
			break;
		off += vd->vd_next;
	}
	return NULL;
}

/*
 * Look @name@@@version up in .dynsym, as the dynamic loader (and the
 * kernel's parse_vdso) would: a defined FUNC whose version is @version.
 */
static bool elf_dynsym(const struct elf *e, const char *name,
		       const char *version, unsigned long *value)
{
	const Elf64_Shdr *dsh = elf_section_type(e, SHT_DYNSYM);
	const Elf64_Shdr *vsh = elf_section_type(e, SHT_GNU_versym);
	const Elf64_Shdr *strsh;
	const Elf64_Sym *syms;
	const Elf64_Half *versym = NULL;
	size_t i, n;

	if (!dsh || dsh->sh_link >= e->shnum || dsh->sh_entsize != sizeof(*syms))
		die("%s: no usable .dynsym", e->path);
	strsh = &e->sh[dsh->sh_link];
	n = dsh->sh_size / sizeof(*syms);
	syms = elf_ptr(e, dsh->sh_offset, dsh->sh_size);
	if (!syms)
		die("%s: .dynsym out of the file", e->path);
	if (vsh) {
		versym = elf_ptr(e, vsh->sh_offset, n * sizeof(*versym));
		if (!versym)
			die("%s: .gnu.version out of the file", e->path);
	}
	for (i = 1; i < n; i++) {
		const char *s = elf_str(e, strsh, syms[i].st_name);
		const char *v;

		if (!s || strcmp(s, name) || syms[i].st_shndx == SHN_UNDEF ||
		    ELF64_ST_TYPE(syms[i].st_info) != STT_FUNC)
			continue;
		if (versym) {
			v = elf_verdef_name(e, versym[i] & 0x7fff);
			if (!v || strcmp(v, version))
				continue;
		}
		*value = syms[i].st_value;
		return true;
	}
	return false;
}

/* @name in the full symbol table (.symtab) of @e. */
static bool elf_symtab(const struct elf *e, const char *name, long *value)
{
	const Elf64_Shdr *ssh = elf_section_type(e, SHT_SYMTAB);
	const Elf64_Sym *syms;
	size_t i, n;

	if (!ssh || ssh->sh_link >= e->shnum || ssh->sh_entsize != sizeof(*syms))
		return false;
	n = ssh->sh_size / sizeof(*syms);
	syms = elf_ptr(e, ssh->sh_offset, ssh->sh_size);
	if (!syms)
		return false;
	for (i = 1; i < n; i++) {
		const char *s = elf_str(e, &e->sh[ssh->sh_link], syms[i].st_name);

		if (s && !strcmp(s, name)) {
			*value = (long)syms[i].st_value;	/* may be < 0 */
			return true;
		}
	}
	return false;
}

/* The exported function containing image offset @off, for listings. */
static const char *func_at(const struct image *im, unsigned long off,
			   unsigned long *start)
{
	const struct elf *e = &im->so;
	const Elf64_Shdr *dsh = elf_section_type(e, SHT_DYNSYM);
	const char *best = NULL;
	const Elf64_Sym *syms;
	size_t i, n;

	if (!dsh || dsh->sh_link >= e->shnum)
		return NULL;
	n = dsh->sh_size / sizeof(*syms);
	syms = elf_ptr(e, dsh->sh_offset, dsh->sh_size);
	for (i = 1; syms && i < n; i++) {
		const char *s = elf_str(e, &e->sh[dsh->sh_link], syms[i].st_name);

		if (!s || ELF64_ST_TYPE(syms[i].st_info) != STT_FUNC ||
		    off < syms[i].st_value ||
		    off >= syms[i].st_value + syms[i].st_size)
			continue;
		/* Prefer __vdso_foo over its weak alias foo. */
		if (!best || !strncmp(s, "__vdso_", 7)) {
			best = s;
			*start = syms[i].st_value;
		}
	}
	return best;
}

/*
 * The LINUX_VERSION_CODE of the "Linux" note of type 0 in PT_NOTE @ph
 * (vdso-note.S), or 0.
 */
static unsigned int elf_linux_version(const struct elf *e, const Elf64_Phdr *ph)
{
	uint64_t off = ph->p_offset, end = ph->p_offset + ph->p_filesz;
	uint32_t v;

	if (!elf_ptr(e, ph->p_offset, ph->p_filesz))
		return 0;
	while (off + sizeof(Elf64_Nhdr) <= end) {
		const Elf64_Nhdr *n = elf_ptr(e, off, sizeof(*n));
		uint64_t name = off + sizeof(*n);
		uint64_t desc = name + ((n ? n->n_namesz : 0) + 3) / 4 * 4;

		if (!n || desc + n->n_descsz > end ||
		    !elf_ptr(e, name, desc - name + n->n_descsz))
			return 0;
		if (n->n_namesz == 6 && !memcmp(e->buf + name, "Linux", 6) &&
		    n->n_type == 0 && n->n_descsz == 4) {
			memcpy(&v, e->buf + desc, 4);
			return v;
		}
		off = desc + (n->n_descsz + 3) / 4 * 4;
	}
	return 0;
}

/*
 * 7.2: the vvar area of the generic datastore, from the symbols of
 * VDSO_VVAR_SYMS and the x86 linker script in @dbgpath (the .dbg), else
 * from the constants of that kernel.  The vDSO reaches its data through
 * the hidden symbol vdso_u_time_data, PC-relative; the time namespace page
 * is the page after it (vdso_timens_data()).
 */
static void image_parse_datastore(struct image *im, const char *dbgpath)
{
	long base;

	if (!im->have_dbg) {
		base = -(long)(DS_VDSO_PAGES * PAGE);
		im->vvar_start = base;
		im->vpage[VP_VVAR] = base + DS_TIME_PAGE * (long)PAGE;
		im->vpage[VP_TIMENS] = base + DS_TIMENS_PAGE * (long)PAGE;
		im->vpage[VP_RNG] = base + DS_RNG_PAGE * (long)PAGE;
		im->vpage[VP_ARCH] = base + DS_ARCH_PAGE * (long)PAGE;
		im->vpage[VP_PVCLOCK] = base + DS_NR_PAGES * (long)PAGE;
		im->vpage[VP_HVCLOCK] = base + (DS_NR_PAGES + 1) * (long)PAGE;
		im->data_off = im->vpage[VP_VVAR];
		return;
	}
	if (!elf_symtab(&im->dbg, "vdso_u_data", &base))
		die("%s: no vdso_u_data symbol (VDSO_VVAR_SYMS)", dbgpath);
	if (!elf_symtab(&im->dbg, "vdso_u_time_data", &im->data_off))
		die("%s: no vdso_u_time_data symbol", dbgpath);
	im->vvar_start = base;
	im->vpage[VP_VVAR] = base + DS_TIME_PAGE * (long)PAGE;
	im->vpage[VP_TIMENS] = base + DS_TIMENS_PAGE * (long)PAGE;
	if (!elf_symtab(&im->dbg, "vdso_u_rng_data", &im->vpage[VP_RNG]))
		im->vpage[VP_RNG] = base + DS_RNG_PAGE * (long)PAGE;
	if (!elf_symtab(&im->dbg, "vdso_u_arch_data", &im->vpage[VP_ARCH]))
		im->vpage[VP_ARCH] = base + DS_ARCH_PAGE * (long)PAGE;
	if (!elf_symtab(&im->dbg, "pvclock_page", &im->vpage[VP_PVCLOCK]))
		im->vpage[VP_PVCLOCK] = 0;
	if (!elf_symtab(&im->dbg, "hvclock_page", &im->vpage[VP_HVCLOCK]))
		im->vpage[VP_HVCLOCK] = 0;
	if (im->data_off != im->vpage[VP_VVAR])
		die("%s: vdso_u_time_data at %ld, not at the datastore's time page %ld",
		    dbgpath, im->data_off, im->vpage[VP_VVAR]);
}

static void image_parse(struct image *im)
{
	const Elf64_Phdr *ph;
	const Elf64_Shdr *alt;
	char dbgpath[4096];
	bool found_load = false;
	unsigned int i, j;
	long rng;

	elf_load(&im->so, im->path, true);
	if (!im->so.sh)
		die("%s: no section headers", im->path);

	/* One PT_LOAD at offset 0, vaddr 0, memsz == filesz (vdso2c) */
	ph = elf_ptr(&im->so, im->so.eh->e_phoff,
		     (uint64_t)im->so.eh->e_phnum * sizeof(*ph));
	if (!ph)
		die("%s: program headers out of the file", im->path);
	for (i = 0; i < im->so.eh->e_phnum; i++) {
		if (ph[i].p_type == PT_NOTE && !im->version)
			im->version = elf_linux_version(&im->so, &ph[i]);
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (found_load)
			die("%s: multiple PT_LOAD segments", im->path);
		if (ph[i].p_offset || ph[i].p_vaddr ||
		    ph[i].p_memsz != ph[i].p_filesz ||
		    ph[i].p_filesz > im->so.len)
			die("%s: PT_LOAD in the wrong place", im->path);
		im->load_len = ph[i].p_filesz;
		found_load = true;
	}
	if (!found_load)
		die("%s: no PT_LOAD segment", im->path);

	/* The layout of the kernel the image was built with: its major.minor */
	if (!im->version)
		die("%s: no \"Linux\" version note: which kernel built it?",
		    im->path);
	for (i = 0; i < NLAYOUTS; i++)
		if ((im->version & ~0xffu) == layouts[i].version)
			im->layout = &layouts[i];
	if (!im->layout)
		die("%s: built by Linux %u.%u: only the vvar layouts of 6.1, 6.12 and 7.2 are modelled",
		    im->path, im->version >> 16, (im->version >> 8) & 0xff);

	for (i = 0; i < NENTRY; i++) {
		im->has[i] = elf_dynsym(&im->so, entry_name[i], "LINUX_2.6",
					&im->entry[i]);
		if (im->has[i] && im->entry[i] >= im->load_len)
			die("%s: %s outside the image", im->path, entry_name[i]);
		if (!im->has[i] && i != E_GETTIME_NS)
			die("%s: no %s@LINUX_2.6", im->path, entry_name[i]);
	}

	/* The full symbol table, as vdso2c reads it, if PATH.dbg is there */
	snprintf(dbgpath, sizeof(dbgpath), "%s.dbg", im->path);
	im->have_dbg = elf_load(&im->dbg, strdup(dbgpath), false);
	if (im->have_dbg) {
		/* Same allocated bytes (after the ELF header) or not a pair */
		if (im->dbg.len < im->load_len ||
		    memcmp(im->dbg.buf + sizeof(Elf64_Ehdr),
			   im->so.buf + sizeof(Elf64_Ehdr),
			   im->load_len - sizeof(Elf64_Ehdr)))
			die("%s does not belong to %s (rebuilt in between?)",
			    dbgpath, im->path);
	}
	if (im->layout->datastore) {
		image_parse_datastore(im, dbgpath);
		rng = 0;	/* a page of its own */
	} else if (im->have_dbg) {
		long v;

		if (!elf_symtab(&im->dbg, "vvar_start", &im->vvar_start))
			die("%s: no vvar_start symbol", dbgpath);
		for (i = 0; i < NVPAGE; i++)
			if (!vpage_sym[i] ||
			    !elf_symtab(&im->dbg, vpage_sym[i], &im->vpage[i]))
				im->vpage[i] = 0;	/* not used */
		if (!im->vpage[VP_VVAR] ||
		    !elf_symtab(&im->dbg, "vvar__vdso_data", &v))
			die("%s: no vvar_page/vvar__vdso_data", dbgpath);
		im->data_off = v;
		/* 6.12's getrandom() data, in the same page after it */
		if (!elf_symtab(&im->dbg, "vvar__vdso_rng_data", &rng))
			rng = 0;
	} else {
		im->vvar_start = -(long)(DEF_VVAR_PAGES * PAGE);
		for (i = 0; i < DEF_VVAR_PAGES; i++)	/* VP_VVAR..VP_TIMENS */
			im->vpage[i] = im->vvar_start + (long)(i * PAGE);
		im->data_off = im->vpage[VP_VVAR] + DEF_DATA_OFF;
		rng = im->layout->v612 ? im->vpage[VP_VVAR] + DEF_RNG_OFF : 0;
	}

	/* The checks of vdso2c, and room for vdso_data[CS_BASES] */
	if (im->vvar_start >= 0 || im->vvar_start % (long)PAGE ||
	    im->vvar_start < -(long)(64 * PAGE))
		die("%s: vvar_start %ld is not a page multiple below the text",
		    im->path, im->vvar_start);
	for (i = 0; i < NVPAGE; i++) {
		if (!im->vpage[i])
			continue;
		if (im->vpage[i] % (long)PAGE || im->vpage[i] < im->vvar_start ||
		    im->vpage[i] + (long)PAGE > 0)
			die("%s: %s at %ld is outside the vvar area", im->path,
			    vpage_name(im, i), im->vpage[i]);
		for (j = 0; im->layout->datastore && j < i; j++)
			if (im->vpage[j] == im->vpage[i])
				die("%s: %s and %s share the page at %ld", im->path,
				    vpage_name(im, j), vpage_name(im, i),
				    im->vpage[i]);
	}
	if (im->data_off < im->vpage[VP_VVAR] ||
	    im->data_off + (long)im->layout->data_size >
	    im->vpage[VP_VVAR] + (long)PAGE || im->data_off % 8)
		die("%s: %s at %ld does not fit the %s page", im->path,
		    im->layout->datastore ? "vdso_time_data" : "vdso_data",
		    im->data_off, vpage_name(im, VP_VVAR));
	if (rng && rng < im->data_off + (long)im->layout->data_size &&
	    rng + 16 > im->data_off)
		die("%s: vdso_rng_data at %ld overlaps vdso_data[%d] of the %s layout",
		    im->path, rng, CS_BASES, im->layout->name);

	alt = elf_section(&im->so, ".altinstructions");
	if (!alt && im->have_dbg)
		alt = elf_section(&im->dbg, ".altinstructions");
	if (alt) {
		im->alt_off = alt->sh_addr;
		im->alt_len = alt->sh_size;
		if (im->alt_off + im->alt_len > im->load_len ||
		    im->alt_len % im->layout->alt_size)
			die("%s: bad .altinstructions", im->path);
	}
}

/* ---- Alternatives ---- */

enum alt_policy { ALT_NONE, ALT_LFENCE, ALT_RDTSCP, ALT_HOST };

static const char *const alt_policy_name[] = {
	"none", "lfence", "rdtscp", "host",
};

static enum alt_policy alt_policy = ALT_HOST;
static bool cpu_rdtscp, cpu_rdpid, cpu_invtsc;
static bool rdtscp_works;		/* executes, whatever CPUID says */
static bool feat_rdtscp, feat_lfence_rdtsc;	/* what the policy says */

static void cpu_features(void)
{
	unsigned int a, b, c, d;

	if (__get_cpuid(0x80000001, &a, &b, &c, &d))
		cpu_rdtscp = d & (1U << 27);
	if (__get_cpuid(0x80000007, &a, &b, &c, &d))
		cpu_invtsc = d & (1U << 8);
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
		cpu_rdpid = c & (1U << 22);
}

static sigjmp_buf probe_env;

static void probe_sigill(int sig)
{
	(void)sig;
	siglongjmp(probe_env, 1);
}

/* Hypervisors may hide RDTSCP in CPUID and still execute it. */
static void probe_rdtscp(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = probe_sigill;
	sigaction(SIGILL, &sa, &old);
	if (!sigsetjmp(probe_env, 1)) {
		rdtscp_read();
		rdtscp_works = true;
	}
	sigaction(SIGILL, &old, NULL);
}

/* The features the alternatives of the images are applied for. */
static void alt_decide(void)
{
	switch (alt_policy) {
	case ALT_NONE:
		feat_rdtscp = false;
		feat_lfence_rdtsc = false;
		break;
	case ALT_LFENCE:
		feat_rdtscp = false;
		feat_lfence_rdtsc = true;
		break;
	case ALT_RDTSCP:
		if (!rdtscp_works)
			die("--alt=rdtscp: RDTSCP raises #UD on this CPU");
		feat_rdtscp = true;
		feat_lfence_rdtsc = true;
		break;
	case ALT_HOST:
		/*
		 * The kernel sets LFENCE_RDTSC on every x86-64 CPU it runs
		 * the vDSO TSC on (lfence made serializing on AMD); RDTSCP
		 * comes from CPUID; the later ALTERNATIVE_2 entry wins.
		 */
		feat_rdtscp = cpu_rdtscp;
		feat_lfence_rdtsc = true;
		break;
	}
}

/* -1: a feature this program does not decide on */
static int feature_present(const struct vb_layout *l, unsigned int feature)
{
	if (feature == l->lfence_rdtsc)
		return feat_lfence_rdtsc;
	switch (feature) {
	case X86_FEATURE_RDTSCP:	return feat_rdtscp;
	case X86_FEATURE_ALWAYS:	return 1;
	default:			return -1;
	}
}

static const char *feature_name(const struct vb_layout *l, unsigned int feature,
				char *buf, size_t len)
{
	const char *n = NULL;

	switch (feature) {
	case X86_FEATURE_RDTSCP:	n = "RDTSCP"; break;
	case X86_FEATURE_ALWAYS:	n = "ALWAYS"; break;
	case X86_FEATURE_RDPID:		n = "RDPID"; break;
	}
	if (feature == l->lfence_rdtsc)
		n = "LFENCE_RDTSC";
	snprintf(buf, len, "%s%s(%u*32+%u)", n ? "X86_FEATURE_" : "feature",
		 n ? n : "", feature / 32, feature % 32);
	return buf;
}

/* One of nops[] at @p (of at most @len bytes): its length, else 0. */
static unsigned int nop_len(const unsigned char *p, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len && i < NOP_MAX; i++)
		if (!memcmp(p, nops[i], i + 1))
			return i + 1;
	return 0;
}

/*
 * Length of a known instruction at @p (of at most @len bytes), else 0:
 * the NOPs, what rdtsc_ordered() is made of, and the JMP8 and INT3 that
 * 6.12's add_nop() writes over a run longer than its ASM_NOP_MAX.
 */
static unsigned int insn_len(const unsigned char *p, unsigned int len)
{
	static const struct { unsigned char b[3]; unsigned int n; } known[] = {
		{ { 0x0f, 0x31 }, 2 },			/* rdtsc */
		{ { 0x0f, 0xae, 0xe8 }, 3 },		/* lfence */
		{ { 0x0f, 0x01, 0xf9 }, 3 },		/* rdtscp */
	};
	unsigned int i, k;

	k = nop_len(p, len);
	if (k)
		return k;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].n <= len && !memcmp(p, known[i].b, known[i].n))
			return known[i].n;
	if (len >= 2 && p[0] == 0xeb)			/* jmp rel8 */
		return 2;
	if (len >= 1 && p[0] == 0xcc)			/* int3 */
		return 1;
	return 0;
}

/* 6.1's add_nops(): the longest NOPs first, ASM_NOP_MAX (8) at most */
static void add_nops_61(unsigned char *p, unsigned int len)
{
	while (len) {
		unsigned int n = len > 8 ? 8 : len;

		memcpy(p, nops[n - 1], n);
		p += n;
		len -= n;
	}
}

/* 6.12's add_nop(): one NOP up to ASM_NOP_MAX (11), else a JMP over INT3s */
static void add_nop_612(unsigned char *p, unsigned int len)
{
	int32_t d;

	if (!len)
		return;
	if (len <= NOP_MAX) {
		memcpy(p, nops[len - 1], len);
		return;
	}
	memset(p, 0xcc, len);
	if (len < 128) {
		p[0] = 0xeb;
		p[1] = len - 2;
	} else {
		d = len - 5;
		p[0] = 0xe9;
		memcpy(p + 1, &d, 4);
	}
}

/*
 * optimize_nops() of each kernel, for the sites this program can decode;
 * both stop at an instruction they cannot decode.  6.1: a run of 0x90
 * becomes add_nops().  6.12: a run of any NOPs becomes one add_nop(),
 * unless it is a single NOP ending the site.
 */
static void optimize_nops(const struct vb_layout *l, unsigned char *p,
			  unsigned int len)
{
	unsigned int i = 0, j, n;

	while (i < len) {
		if (!l->v612 && p[i] == 0x90) {
			for (j = i; j < len && p[j] == 0x90; j++)
				;
			if (j - i > 1)
				add_nops_61(p + i, j - i);
			i = j;
			continue;
		}
		n = insn_len(p + i, len - i);
		if (!n)
			return;
		if (l->v612 && nop_len(p + i, n) == n) {
			if (i + n == len)
				return;
			for (j = i + n; j < len && (n = nop_len(p + j, len - j)); j += n)
				;
			add_nop_612(p + i, j - i);
			i = j;
			continue;
		}
		i += n;
	}
}

static void describe_insns(const unsigned char *p, unsigned int len,
			   char *buf, size_t size)
{
	unsigned int i = 0, n, k;
	size_t o = 0;

	buf[0] = 0;
	while (i < len && o + 40 < size) {
		const char *name = NULL;

		n = insn_len(p + i, len - i);
		if (n && nop_len(p + i, n) == n)
			name = "nop";
		else if (n == 2 && p[i] == 0x0f)
			name = "rdtsc";
		else if (n == 3 && p[i + 1] == 0xae)
			name = "lfence";
		else if (n == 3 && p[i + 1] == 0x01)
			name = "rdtscp";
		else if (n == 2)
			name = "jmp";
		else if (n == 1)
			name = "int3";
		if (!n)
			n = len - i;
		o += snprintf(buf + o, size - o, "%s`", o ? " " : "");
		for (k = 0; k < n && o + 8 < size; k++)
			o += snprintf(buf + o, size - o, "%s%02x", k ? " " : "",
				      p[i + k]);
		o += snprintf(buf + o, size - o, "`%s%s", name ? " " : "",
			      name ? name : "");
		i += n;
	}
}

/* An .altinstructions entry of either layout, offsets into the image */
struct vb_alt {
	long instr, repl;
	unsigned int feature;
	bool inv;			/* ALTINSTR_FLAG_INV, ALT_FLAG_NOT */
	unsigned int flags;		/* 6.12's other ALT_FLAG_*s */
	unsigned int instrlen, replacementlen;
};

static void alt_read(const struct image *im, unsigned int i, struct vb_alt *a)
{
	unsigned long base = im->alt_off + i * im->layout->alt_size;
	const unsigned char *p = im->text + base;
	struct vb_alt_instr_612 e612;
	struct vb_alt_instr_61 e61;

	memset(a, 0, sizeof(*a));
	if (im->layout->v612) {
		memcpy(&e612, p, sizeof(e612));
		a->instr = (long)base + e612.instr_offset;
		a->repl = (long)base + 4 + e612.repl_offset;
		a->feature = e612.ft_flags & 0xffff;
		a->inv = (e612.ft_flags >> ALT_FLAGS_SHIFT) & ALT_FLAG_NOT;
		a->flags = (e612.ft_flags >> ALT_FLAGS_SHIFT) & ~ALT_FLAG_NOT;
		a->instrlen = e612.instrlen;
		a->replacementlen = e612.replacementlen;
	} else {
		memcpy(&e61, p, sizeof(e61));
		a->instr = (long)base + e61.instr_offset;
		a->repl = (long)base + 4 + e61.repl_offset;
		a->feature = e61.cpuid & ~ALTINSTR_FLAG_INV;
		a->inv = e61.cpuid & ALTINSTR_FLAG_INV;
		a->instrlen = e61.instrlen;
		a->replacementlen = e61.replacementlen;
	}
}

/* -1: left alone (a feature, or on 6.12 a flag: ALT_FLAG_DIRECT_CALL) */
static int alt_present(const struct vb_layout *l, const struct vb_alt *a)
{
	return a->flags ? -1 : feature_present(l, a->feature);
}

static unsigned int alt_unhandled_total;

/*
 * apply_alternatives() of the image's kernel on the text of @im
 * (writable), in table order, so a later entry for the same site
 * overrides an earlier one; 6.12 first gives the consecutive entries of
 * a nested ALTERNATIVE() the longest instrlen among them.  Prints one
 * line per site.
 */
static void image_alternatives(struct image *im, FILE *out)
{
	const struct vb_layout *l = im->layout;
	unsigned int n = im->alt_len / l->alt_size, i, j;
	static struct vb_alt a[MAX_ALTS];
	unsigned long site[MAX_ALTS];
	unsigned char orig[MAX_ALTS][256];
	unsigned int nsites = 0;

	if (n > MAX_ALTS)
		die("%s: %u alternatives, at most %d handled", im->path, n, MAX_ALTS);
	fprintf(out, "%s (`%s`): %u `.altinstructions` entries\n\n",
		im->label, im->path, n);

	for (i = 0; i < n; i++)
		alt_read(im, i, &a[i]);
	for (i = 0; l->v612 && i < n; i++) {
		for (j = i + 1; j < n && a[j].instr == a[i].instr; j++) {
			unsigned int len = a[i].instrlen > a[j].instrlen ?
				a[i].instrlen : a[j].instrlen;

			a[i].instrlen = a[j].instrlen = len;
		}
	}
	for (i = 0; i < n; i++) {
		if (a[i].instr < 0 ||
		    a[i].instr + a[i].instrlen > (long)im->load_len ||
		    a[i].repl < 0 ||
		    a[i].repl + a[i].replacementlen > (long)im->load_len ||
		    a[i].replacementlen > a[i].instrlen ||
		    a[i].feature >= (NCAPINTS + NBUGINTS) * 32)
			die("%s: bad alternative entry %u (the %s struct alt_instr)",
			    im->path, i, l->name);
		for (j = 0; j < nsites; j++)
			if (site[j] == (unsigned long)a[i].instr)
				break;
		if (j == nsites) {
			site[nsites] = a[i].instr;
			memcpy(orig[nsites], im->text + a[i].instr, a[i].instrlen);
			nsites++;
		}
	}

	for (i = 0; i < n; i++) {
		unsigned char *instr = im->text + a[i].instr;
		unsigned char *repl = im->text + a[i].repl;
		int present = alt_present(l, &a[i]);
		unsigned char buf[256];

		if (present < 0) {
			alt_unhandled_total++;
			continue;		/* left as it is, listed below */
		}
		if (!present == !a[i].inv) {
			optimize_nops(l, instr, a[i].instrlen);
			continue;
		}
		memcpy(buf, repl, a[i].replacementlen);
		/* rel32 CALL/JMP in the replacement: keep the target */
		if (a[i].replacementlen == 5 && (buf[0] == 0xe8 || buf[0] == 0xe9)) {
			int32_t d;

			memcpy(&d, buf + 1, 4);
			d += (int32_t)(repl - instr);
			memcpy(buf + 1, &d, 4);
		}
		memset(buf + a[i].replacementlen, 0x90,
		       a[i].instrlen - a[i].replacementlen);
		memcpy(instr, buf, a[i].instrlen);
		optimize_nops(l, instr, a[i].instrlen);
	}

	for (j = 0; j < nsites; j++) {
		unsigned long fstart = 0;
		const char *fn = func_at(im, site[j], &fstart);
		unsigned int len = 0;
		char before[256], after[256];
		bool unhandled = false;

		fprintf(out, "- site 0x%lx", site[j]);
		if (fn)
			fprintf(out, " (%s+0x%lx)", fn, site[j] - fstart);
		fputs(":", out);
		for (i = 0; i < n; i++) {
			int present = alt_present(l, &a[i]);
			char fb[64], rb[256];

			if ((unsigned long)a[i].instr != site[j])
				continue;
			len = a[i].instrlen;
			describe_insns(im->text + a[i].repl, a[i].replacementlen,
				       rb, sizeof(rb));
			fprintf(out, " %s%s", a[i].inv ? "!" : "",
				feature_name(l, a[i].feature, fb, sizeof(fb)));
			if (a[i].flags)
				fprintf(out, " flags 0x%x", a[i].flags);
			fprintf(out, " -> %s [%s];", rb,
				present < 0 ? "NOT HANDLED, left alone" :
				(!present != !a[i].inv) ? "applied" : "not applied");
			if (present < 0)
				unhandled = true;
		}
		describe_insns(orig[j], len, before, sizeof(before));
		describe_insns(im->text + site[j], len, after, sizeof(after));
		fprintf(out, " original %s; now %s%s\n", before, after,
			unhandled ? " (contains an unhandled entry)" : "");
	}
	fputc('\n', out);
}

/* ---- Mapping and the vvar page ---- */

static void xmprotect(void *p, size_t len, int prot)
{
	if (mprotect(p, len, prot))
		die("mprotect: %s", strerror(errno));
}

static void image_map(struct image *im, FILE *alt_out)
{
	im->vvar_len = -im->vvar_start;
	im->text_len = (im->so.len + PAGE - 1) & ~(PAGE - 1);
	im->map_len = PAGE + im->vvar_len + im->text_len + PAGE;
	im->map = mmap(NULL, im->map_len, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (im->map == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	im->vvar = im->map + PAGE;
	im->text = im->vvar + im->vvar_len;

	/* The whole stripped image, as vdso2c's raw_data[] holds it */
	xmprotect(im->text, im->text_len, PROT_READ | PROT_WRITE);
	memcpy(im->text, im->so.buf, im->so.len);
	image_alternatives(im, alt_out);
	xmprotect(im->text, im->text_len, PROT_READ | PROT_EXEC);

	/*
	 * The vvar area is readable but its pages stay unpopulated until
	 * touched: the vvar page gets written below; the others
	 * (pvclock, hvclock, timens: SIGBUS in the kernel unless in use)
	 * must still be untouched at the end (mincore()).
	 */
	xmprotect(im->vvar, im->vvar_len, PROT_READ);
	im->vd = im->text + im->data_off;

	im->gettime = (gettime_fn)(void *)(im->text + im->entry[E_GETTIME]);
	im->gettimeofday =
		(gettimeofday_fn)(void *)(im->text + im->entry[E_GETTIMEOFDAY]);
	im->getres = (getres_fn)(void *)(im->text + im->entry[E_GETRES]);
	if (im->has[E_GETTIME_NS])
		im->gettime_ns =
			(gettime_ns_fn)(void *)(im->text + im->entry[E_GETTIME_NS]);
}

/* TSC rate against CLOCK_MONOTONIC (NTP-slewed) and CLOCK_MONOTONIC_RAW */
static double tsc_hz_raw, tsc_hz_mono;
static uint32_t cs_shift, cs_mult_raw, cs_mult_mono;
static uint64_t cs_max_cycles;		/* the clocksource's, for 6.12 */

/* One (TSC, clock) pair: the tightest of a few brackets. */
static void sample(clockid_t clk, uint64_t *tsc, int64_t *ns)
{
	uint64_t best = UINT64_MAX, a, b;
	struct timespec ts;
	int i;

	for (i = 0; i < 7; i++) {
		a = rdtsc_lfence();
		clock_gettime(clk, &ts);
		b = rdtsc_lfence();
		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = ts_ns(&ts);
		}
	}
}

static void calibrate(void)
{
	uint64_t r0, r1, m0, m1;
	int64_t rn0, rn1, mn0, mn1;
	struct timespec d = { 0, 100 * 1000 * 1000 };
	double max_cycles;
	int s;

	sample(CLOCK_MONOTONIC_RAW, &r0, &rn0);
	sample(CLOCK_MONOTONIC, &m0, &mn0);
	nanosleep(&d, NULL);
	sample(CLOCK_MONOTONIC_RAW, &r1, &rn1);
	sample(CLOCK_MONOTONIC, &m1, &mn1);
	if (r1 <= r0 || rn1 <= rn0 || m1 <= m0 || mn1 <= mn0)
		die("the TSC or the host clocks do not advance");
	tsc_hz_raw = (double)(r1 - r0) * 1e9 / (double)(rn1 - rn0);
	tsc_hz_mono = (double)(m1 - m0) * 1e9 / (double)(mn1 - mn0);

	/*
	 * Largest shift that keeps mult in 32 bits and delta * mult in 63
	 * bits for 10 minutes without an update (6.1's vdso_calc_delta() of
	 * x86 does not mask the product; 6.12's vdso_calc_ns() takes a
	 * 128-bit path beyond max_cycles).
	 */
	max_cycles = tsc_hz_raw * 1.01 * 600;
	for (s = 32; s > 1; s--) {
		double m = 1e9 * (double)(1ULL << s) / tsc_hz_raw;

		if (m < 4294967295.0 && m * max_cycles < 9.2e18)
			break;
	}
	cs_shift = s;
	cs_mult_raw = (uint32_t)(1e9 * (double)(1ULL << s) / tsc_hz_raw + 0.5);
	cs_mult_mono = (uint32_t)(1e9 * (double)(1ULL << s) / tsc_hz_mono + 0.5);

	/*
	 * clocks_calc_max_nsecs(): the cycles whose product with mult plus
	 * the largest NTP adjustment (clocksource_max_adjustment(), 11%)
	 * stays in 64 bits, within the mask (all 64 bits for the TSC).  6.12's
	 * update_vsyscall() copies the clocksource's into both bases.
	 */
	cs_max_cycles = UINT64_MAX / (cs_mult_raw + (uint64_t)cs_mult_raw * 11 / 100);
}

struct snapshot {
	uint64_t cycle_last;
	int64_t ns[VDSO_BASES];		/* each clock at cycle_last */
	struct timespec coarse[VDSO_BASES];
};

static const clockid_t hres_clocks[] = {
	CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME, CLOCK_TAI,
	CLOCK_MONOTONIC_RAW,
};

static void take_snapshot(struct snapshot *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->cycle_last = rdtsc_lfence();
	for (i = 0; i < sizeof(hres_clocks) / sizeof(hres_clocks[0]); i++) {
		clockid_t c = hres_clocks[i];
		double hz = c == CLOCK_MONOTONIC_RAW ? tsc_hz_raw : tsc_hz_mono;
		uint64_t tsc;
		int64_t ns;

		sample(c, &tsc, &ns);
		s->ns[c] = ns - (int64_t)((double)(tsc - s->cycle_last) * 1e9 / hz);
	}
	clock_gettime(CLOCK_REALTIME_COARSE, &s->coarse[CLOCK_REALTIME_COARSE]);
	clock_gettime(CLOCK_MONOTONIC_COARSE, &s->coarse[CLOCK_MONOTONIC_COARSE]);
}

static void set_hres(struct vb_vdso_tail *t, clockid_t c, int64_t ns)
{
	t->basetime[c].sec = ns / NSEC_PER_SEC;
	t->basetime[c].nsec = (uint64_t)(ns % NSEC_PER_SEC) << t->shift;
}

/*
 * update_vsyscall() done by hand: seq odd, data, seq even.  @offset_s is
 * added to every clock (used to prove the vDSO path, not a syscall,
 * answered); @res is hrtimer_res; @tzw the minutes west.
 */
static void vvar_update(struct image *im, const struct snapshot *s,
			int64_t offset_s, uint32_t res, int32_t tzw)
{
	unsigned char *page = im->text + im->vpage[VP_VVAR];
	struct vb_vdso_tail *coarse = vd_tail(im, CS_HRES_COARSE);
	unsigned int i;
	int b;

	xmprotect(page, PAGE, PROT_READ | PROT_WRITE);
	for (b = 0; b < CS_BASES; b++) {
		struct vb_vdso_head *h = vd_head(im, b);

		h->seq++;
		if (!(h->seq & 1))
			h->seq++;
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (b = 0; b < CS_BASES; b++) {
		struct vb_vdso_head *h = vd_head(im, b);
		struct vb_vdso_tail *t = vd_tail(im, b);
		uint64_t *max_cycles = vd_max_cycles(im, b);

		h->clock_mode = VDSO_CLOCKMODE_TSC;
		h->cycle_last = s->cycle_last;
		if (max_cycles)
			*max_cycles = cs_max_cycles;
		t->mask = UINT64_MAX;
		t->shift = cs_shift;
		t->mult = b == CS_RAW ? cs_mult_raw : cs_mult_mono;
		/* 6.1, 6.12: in each vdso_data; 7.2: once, in vdso_time_data */
		if (!im->layout->datastore || b == CS_HRES_COARSE) {
			struct vb_vdso_misc *m = vd_misc(im, b);

			m->hrtimer_res = b == CS_HRES_COARSE ? res : 0;
			m->tz_minuteswest = b == CS_HRES_COARSE ? tzw : 0;
			m->tz_dsttime = 0;
		}
	}
	for (i = 0; i < sizeof(hres_clocks) / sizeof(hres_clocks[0]); i++) {
		clockid_t c = hres_clocks[i];

		set_hres(vd_tail(im, c == CLOCK_MONOTONIC_RAW ? CS_RAW : CS_HRES_COARSE),
			 c, s->ns[c] + offset_s * NSEC_PER_SEC);
	}
	for (i = CLOCK_REALTIME_COARSE; i <= CLOCK_MONOTONIC_COARSE; i++) {
		coarse->basetime[i].sec = s->coarse[i].tv_sec + offset_s;
		coarse->basetime[i].nsec = s->coarse[i].tv_nsec;
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (b = 0; b < CS_BASES; b++)
		vd_head(im, b)->seq++;
	xmprotect(page, PAGE, PROT_READ);
}

static void vvar_update_all(int64_t offset_s, uint32_t res, int32_t tzw)
{
	struct snapshot s;
	int i;

	take_snapshot(&s);
	for (i = 0; i < nimages; i++)
		vvar_update(&images[i], &s, offset_s, res, tzw);
}

/* ---- Faults: name where a stray access went ---- */

static const char *volatile phase = "setup";

static void fault_handler(int sig, siginfo_t *si, void *uc)
{
	unsigned char *addr = si->si_addr;
	char buf[512];
	const char *where = "outside every image";
	const char *label = "";
	int i, len;

	(void)uc;
	for (i = 0; i < nimages; i++) {
		struct image *im = &images[i];
		long off;

		if (addr < im->map || addr >= im->map + im->map_len)
			continue;
		label = im->label;
		off = addr - im->text;
		if (addr < im->vvar)
			where = "the guard page before the vvar area";
		else if (addr >= im->text + im->text_len)
			where = "the guard page after the text";
		else if (off >= 0)
			where = "the text";
		else if (off >= im->vpage[VP_VVAR] &&
			 off < im->vpage[VP_VVAR] + (long)PAGE)
			where = "the vvar page";
		else
			where = "another page of the vvar area";
	}
	len = snprintf(buf, sizeof(buf),
		       "vdso-bench: FATAL: signal %d (%s) at address %p, %s%s%s, during %s\n",
		       sig, strsignal(sig), si->si_addr, label, *label ? ": " : "",
		       where, phase);
	if (write(2, buf, len) < 0)
		_exit(3);
	_exit(3);
}

static void install_fault_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fault_handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
}

/* ---- Sanity ---- */

static int sanity_failures;

static void check(FILE *out, bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(out, "- %s: ", ok ? "ok" : "**FAIL**");
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	va_end(ap);
	if (!ok)
		sanity_failures++;
}

#define TOL_NS		1000000LL	/* 1 ms */

static const char *off_host(int64_t d)
{
	static char buf[96];

	if (!d)
		return "between two reads of the host's clock";
	snprintf(buf, sizeof(buf), "%+.3f us outside two reads of the host's clock",
		 d / 1e3);
	return buf;
}

/* |image - host| for @clk, host read on both sides; +offset expected. */
static int64_t dev_gettime(struct image *im, clockid_t clk, int64_t offset_s,
			   int *ret)
{
	struct timespec ts = { 0, 0 };
	int64_t h0, h1, v;

	h0 = host_ns(clk);
	*ret = im->gettime(clk, &ts);
	h1 = host_ns(clk);
	v = ts_ns(&ts) - offset_s * NSEC_PER_SEC;
	if (v < h0)
		return v - h0;
	if (v > h1)
		return v - h1;
	return 0;
}

static int64_t dev_ns(struct image *im, clockid_t clk, int64_t offset_s,
		      int *ret)
{
	int64_t h0, h1, v = 0;

	h0 = host_ns(clk);
	*ret = im->gettime_ns(clk, &v, 0);
	h1 = host_ns(clk);
	v -= offset_s * NSEC_PER_SEC;
	if (v < h0)
		return v - h0;
	if (v > h1)
		return v - h1;
	return 0;
}

static int64_t dev_gettimeofday(struct image *im, int64_t offset_s, int *ret,
				struct timezone *tz)
{
	struct timeval tv = { 0, 0 };
	int64_t h0, h1, v;

	h0 = host_ns(CLOCK_REALTIME) / 1000 * 1000;
	*ret = im->gettimeofday(&tv, tz);
	h1 = host_ns(CLOCK_REALTIME);
	v = (int64_t)tv.tv_sec * NSEC_PER_SEC + tv.tv_usec * 1000LL -
	    offset_s * NSEC_PER_SEC;
	if (v < h0)
		return v - h0;
	if (v > h1)
		return v - h1;
	return 0;
}

static void sanity_image(struct image *im, FILE *out)
{
	const int64_t off = 1000000;	/* s, for the vDSO-path check */
	struct timespec t1, t2, r;
	struct timezone tz;
	unsigned int i;
	int64_t d, v;
	int ret, ret2;

	fprintf(out, "%s:\n\n", im->label);
	phase = "the sanity checks";

	/* A fresh update, then every clock against the host's */
	vvar_update_all(0, 1, 0);
	for (i = 0; i < sizeof(hres_clocks) / sizeof(hres_clocks[0]); i++) {
		clockid_t c = hres_clocks[i];

		d = dev_gettime(im, c, 0, &ret);
		check(out, !ret && llabs(d) <= TOL_NS,
		      "clock_gettime(%s) = %d, %s", clock_name(c), ret,
		      off_host(d));
	}
	for (i = CLOCK_REALTIME_COARSE; i <= CLOCK_MONOTONIC_COARSE; i++) {
		const struct vb_timestamp *b =
			&vd_tail(im, CS_HRES_COARSE)->basetime[i];

		ret = im->gettime(i, &t1);
		check(out, !ret && (uint64_t)t1.tv_sec == b->sec &&
		      (uint64_t)t1.tv_nsec == b->nsec,
		      "clock_gettime(%s) = %d, the coarse value written",
		      clock_name(i), ret);
	}
	d = dev_gettimeofday(im, 0, &ret, NULL);
	check(out, !ret && llabs(d) <= TOL_NS,
	      "gettimeofday() = %d, %s (REALTIME)", ret, off_host(d));
	ret = im->gettime(CLOCK_REALTIME, &t1);
	{
		struct timeval tv;

		ret |= im->gettimeofday(&tv, NULL);
		ret |= im->gettime(CLOCK_REALTIME, &t2);
		v = (int64_t)tv.tv_sec * NSEC_PER_SEC + tv.tv_usec * 1000LL;
		check(out, !ret && v >= ts_ns(&t1) / 1000 * 1000 && v <= ts_ns(&t2),
		      "gettimeofday() lies between two clock_gettime(REALTIME) of the image");
	}
	for (i = 0; i < 2; i++) {
		clockid_t c = i ? CLOCK_MONOTONIC_RAW : CLOCK_MONOTONIC;

		r.tv_sec = r.tv_nsec = -1;
		ret = im->getres(c, &r);
		check(out, !ret && r.tv_sec == 0 && r.tv_nsec == 1,
		      "clock_getres(%s) = %d, %ld.%09ld s (hrtimer_res 1 ns)",
		      clock_name(c), ret, (long)r.tv_sec, r.tv_nsec);
	}

	if (im->gettime_ns) {
		for (i = 0; i < sizeof(hres_clocks) / sizeof(hres_clocks[0]); i++) {
			clockid_t c = hres_clocks[i];

			ret = im->gettime(c, &t1);
			ret2 = im->gettime_ns(c, &v, 0);
			ret |= im->gettime(c, &t2);
			check(out, !ret && !ret2 && v >= ts_ns(&t1) && v <= ts_ns(&t2),
			      "clock_gettime_ns(%s) = %d, between two clock_gettime() (%+lld, %+lld ns)",
			      clock_name(c), ret2, (long long)(v - ts_ns(&t1)),
			      (long long)(v - ts_ns(&t2)));
		}
		d = dev_ns(im, CLOCK_MONOTONIC, 0, &ret);
		check(out, !ret && llabs(d) <= TOL_NS,
		      "clock_gettime_ns(MONOTONIC) = %d, %s", ret, off_host(d));
		d = dev_ns(im, CLOCK_REALTIME, 0, &ret);
		check(out, !ret && llabs(d) <= TOL_NS,
		      "clock_gettime_ns(REALTIME) = %d, %s", ret, off_host(d));
		v = 12345;
		ret = im->gettime_ns(CLOCK_MONOTONIC, &v, 1);
		check(out, ret != 0, "clock_gettime_ns(MONOTONIC, flags=1) = %d (must fail)",
		      ret);
		v = 12345;
		ret = im->gettime_ns(-1, &v, 0);
		check(out, ret < 0, "clock_gettime_ns(-1) = %d (must fail)", ret);
	} else {
		fprintf(out, "- no %s in this image\n", entry_name[E_GETTIME_NS]);
	}

	/*
	 * The vDSO path, not the syscall fallback, answered: move every
	 * clock by +off s, hrtimer_res to 7 and tz to 123 minutes; a
	 * fallback would return the host's values.
	 */
	vvar_update_all(off, 7, 123);
	{
		bool ok = true;

		for (i = 0; i < sizeof(hres_clocks) / sizeof(hres_clocks[0]); i++) {
			d = dev_gettime(im, hres_clocks[i], off, &ret);
			ok &= !ret && llabs(d) <= TOL_NS;
		}
		memset(&tz, 0xff, sizeof(tz));
		d = dev_gettimeofday(im, off, &ret, &tz);
		ok &= !ret && llabs(d) <= TOL_NS && tz.tz_minuteswest == 123 &&
		      tz.tz_dsttime == 0;
		ret = im->getres(CLOCK_MONOTONIC, &r);
		ok &= !ret && r.tv_nsec == 7;
		ret = im->gettime(CLOCK_MONOTONIC_COARSE, &t1);
		ok &= !ret && (uint64_t)t1.tv_sec ==
			vd_tail(im, CS_HRES_COARSE)->basetime[CLOCK_MONOTONIC_COARSE].sec;
		if (im->gettime_ns) {
			d = dev_ns(im, CLOCK_REALTIME, off, &ret);
			ok &= !ret && llabs(d) <= TOL_NS;
			d = dev_ns(im, CLOCK_MONOTONIC_RAW, off, &ret);
			ok &= !ret && llabs(d) <= TOL_NS;
		}
		check(out, ok,
		      "answers come from the vvar page, not a syscall (clocks moved +%lld s, hrtimer_res 7, tz 123 min: all followed)",
		      (long long)off);
	}
	vvar_update_all(0, 1, 0);
	fputc('\n', out);
}

/* ---- Timing ---- */

enum kind { K_GETTIME, K_GETTIME_TO_NS, K_GETTIME_NS, K_GETTIMEOFDAY, K_LIBC,
	    K_RDTSC, K_LFENCE_RDTSC, K_RDTSCP };

struct cand {
	int img;			/* -1: host */
	enum kind kind;
	clockid_t clk;
	char name[64];
	double res[MAX_ROUNDS];
	double median, min, max;
};

static struct cand cands[64];
static int ncands;
static volatile uint64_t sink;

static __attribute__((noinline)) void loop_gettime(gettime_fn f, clockid_t c,
						   long n)
{
	struct timespec ts;
	uint64_t s = 0;

	while (n--) {
		f(c, &ts);
		s += ts.tv_nsec;
	}
	sink += s;
}

/* What a caller that wants nanoseconds does with clock_gettime() */
static __attribute__((noinline)) void loop_gettime_to_ns(gettime_fn f,
							 clockid_t c, long n)
{
	struct timespec ts;
	uint64_t s = 0;

	while (n--) {
		f(c, &ts);
		s += ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	}
	sink += s;
}

static __attribute__((noinline)) void loop_gettime_ns(gettime_ns_fn f,
						      clockid_t c, long n)
{
	uint64_t s = 0;
	int64_t v;

	while (n--) {
		f(c, &v, 0);
		s += v;
	}
	sink += s;
}

static __attribute__((noinline)) void loop_gettimeofday(gettimeofday_fn f,
							long n)
{
	struct timeval tv;
	uint64_t s = 0;

	while (n--) {
		f(&tv, NULL);
		s += tv.tv_usec;
	}
	sink += s;
}

static __attribute__((noinline)) void loop_libc(clockid_t c, long n)
{
	struct timespec ts;
	uint64_t s = 0;

	while (n--) {
		clock_gettime(c, &ts);
		s += ts.tv_nsec;
	}
	sink += s;
}

static __attribute__((noinline)) void loop_rdtsc(long n)
{
	uint64_t s = 0;

	while (n--)
		s += rdtsc_bare();
	sink += s;
}

static __attribute__((noinline)) void loop_lfence_rdtsc(long n)
{
	uint64_t s = 0;

	while (n--)
		s += rdtsc_lfence();
	sink += s;
}

static __attribute__((noinline)) void loop_rdtscp(long n)
{
	uint64_t s = 0;

	while (n--)
		s += rdtscp_read();
	sink += s;
}

static double run_cand(const struct cand *c, long n)
{
	struct image *im = c->img >= 0 ? &images[c->img] : NULL;
	int64_t t0, t1;

	t0 = host_ns(CLOCK_MONOTONIC_RAW);
	switch (c->kind) {
	case K_GETTIME:		loop_gettime(im->gettime, c->clk, n); break;
	case K_GETTIME_TO_NS:	loop_gettime_to_ns(im->gettime, c->clk, n); break;
	case K_GETTIME_NS:	loop_gettime_ns(im->gettime_ns, c->clk, n); break;
	case K_GETTIMEOFDAY:	loop_gettimeofday(im->gettimeofday, n); break;
	case K_LIBC:		loop_libc(c->clk, n); break;
	case K_RDTSC:		loop_rdtsc(n); break;
	case K_LFENCE_RDTSC:	loop_lfence_rdtsc(n); break;
	case K_RDTSCP:		loop_rdtscp(n); break;
	}
	t1 = host_ns(CLOCK_MONOTONIC_RAW);
	return (double)(t1 - t0) / (double)n;
}

/* The rows of the image table, in order */
static const struct { enum kind kind; clockid_t clk; const char *name; } rows[] = {
	{ K_GETTIME, CLOCK_MONOTONIC, "clock_gettime(MONOTONIC)" },
	{ K_GETTIME, CLOCK_REALTIME, "clock_gettime(REALTIME)" },
	{ K_GETTIME_NS, CLOCK_MONOTONIC, "clock_gettime_ns(MONOTONIC)" },
	{ K_GETTIME_NS, CLOCK_REALTIME, "clock_gettime_ns(REALTIME)" },
	{ K_GETTIME_TO_NS, CLOCK_MONOTONIC, "clock_gettime(MONOTONIC), caller converts to ns" },
	{ K_GETTIME, CLOCK_MONOTONIC_COARSE, "clock_gettime(MONOTONIC_COARSE)" },
	{ K_GETTIME_NS, CLOCK_MONOTONIC_COARSE, "clock_gettime_ns(MONOTONIC_COARSE)" },
	{ K_GETTIMEOFDAY, 0, "gettimeofday" },
};
#define NROWS	(int)(sizeof(rows) / sizeof(rows[0]))

static void add_cand(int img, enum kind kind, clockid_t clk, const char *name)
{
	struct cand *c = &cands[ncands++];

	c->img = img;
	c->kind = kind;
	c->clk = clk;
	snprintf(c->name, sizeof(c->name), "%s", name);
}

static struct cand *find_cand(int img, enum kind kind, clockid_t clk)
{
	int i;

	for (i = 0; i < ncands; i++)
		if (cands[i].img == img && cands[i].kind == kind &&
		    (kind == K_GETTIMEOFDAY || cands[i].clk == clk))
			return &cands[i];
	return NULL;
}

static void bench(long n, int rounds)
{
	int i, r, k;
	double tmp[MAX_ROUNDS];

	for (i = 0; i < nimages; i++)
		for (k = 0; k < NROWS; k++)
			if (rows[k].kind != K_GETTIME_NS || images[i].gettime_ns)
				add_cand(i, rows[k].kind, rows[k].clk, rows[k].name);
	add_cand(-1, K_LIBC, CLOCK_MONOTONIC, "host libc clock_gettime(MONOTONIC)");
	add_cand(-1, K_RDTSC, 0, "rdtsc");
	add_cand(-1, K_LFENCE_RDTSC, 0, "lfence; rdtsc");
	if (rdtscp_works)
		add_cand(-1, K_RDTSCP, 0, "rdtscp");

	phase = "the timing";
	/* Warm up: every candidate once, briefly */
	for (i = 0; i < ncands; i++)
		run_cand(&cands[i], n / 20 + 1);
	for (r = 0; r < rounds; r++) {
		progress("round %d/%d", r + 1, rounds);
		vvar_update_all(0, 1, 0);	/* a timer tick */
		/* Rotate the order so no candidate always runs first */
		for (k = 0; k < ncands; k++) {
			struct cand *c = &cands[(k + r) % ncands];

			c->res[r] = run_cand(c, n);
		}
	}
	for (i = 0; i < ncands; i++) {
		memcpy(tmp, cands[i].res, rounds * sizeof(double));
		qsort(tmp, rounds, sizeof(double), cmp_double);
		cands[i].min = tmp[0];
		cands[i].max = tmp[rounds - 1];
		cands[i].median = rounds % 2 ? tmp[rounds / 2] :
			(tmp[rounds / 2 - 1] + tmp[rounds / 2]) / 2;
	}
}

/* _ns / plain clock_gettime of the same image for the same clock */
static double ratio_ns(int img, const struct cand *c, bool min)
{
	struct cand *g;

	if (c->kind != K_GETTIME_NS)
		return 0;
	g = find_cand(img, K_GETTIME, c->clk);
	if (!g)
		return 0;
	return min ? c->min / g->min : c->median / g->median;
}

static void report_timing(FILE *out, FILE *csv, long n, int rounds)
{
	int i, k;

	fprintf(out, "| entry |");
	for (i = 0; i < nimages; i++)
		fprintf(out, " %s ns/call median (min) |", images[i].label);
	for (i = 1; i < nimages; i++)
		fprintf(out, " %s / %s median (min) |", images[i].label,
			images[0].label);
	for (i = 0; i < nimages; i++)
		fprintf(out, " _ns / clock_gettime, %s median (min) |",
			images[i].label);
	fprintf(out, "\n| --- |");
	for (i = 0; i < nimages * 3 - 1; i++)
		fprintf(out, " ---: |");
	fputc('\n', out);

	for (k = 0; k < NROWS; k++) {
		struct cand *ref = find_cand(0, rows[k].kind, rows[k].clk);

		fprintf(out, "| %s |", rows[k].name);
		for (i = 0; i < nimages; i++) {
			struct cand *c = find_cand(i, rows[k].kind, rows[k].clk);

			if (c)
				fprintf(out, " %.2f (%.2f) |", c->median, c->min);
			else
				fprintf(out, " - |");
		}
		for (i = 1; i < nimages; i++) {
			struct cand *c = find_cand(i, rows[k].kind, rows[k].clk);

			if (c && ref)
				fprintf(out, " %.3f (%.3f) |", c->median / ref->median,
					c->min / ref->min);
			else
				fprintf(out, " - |");
		}
		for (i = 0; i < nimages; i++) {
			struct cand *c = find_cand(i, rows[k].kind, rows[k].clk);

			if (c && rows[k].kind == K_GETTIME_NS)
				fprintf(out, " %.3f (%.3f) |", ratio_ns(i, c, false),
					ratio_ns(i, c, true));
			else
				fprintf(out, " - |");
		}
		fputc('\n', out);
	}
	fprintf(out, "\nHost references, same run:\n\n");
	fprintf(out, "| host | ns/call median (min) | / %s clock_gettime(MONOTONIC) |\n",
		images[0].label);
	fprintf(out, "| --- | ---: | ---: |\n");
	for (i = 0; i < ncands; i++) {
		struct cand *ref = find_cand(0, K_GETTIME, CLOCK_MONOTONIC);

		if (cands[i].img >= 0)
			continue;
		fprintf(out, "| %s | %.2f (%.2f) | %.3f |\n", cands[i].name,
			cands[i].median, cands[i].min, cands[i].median / ref->median);
	}
	if (!rdtscp_works)
		fprintf(out, "| rdtscp | - (#UD on this CPU) | - |\n");
	fputc('\n', out);

	if (!csv)
		return;
	fprintf(csv, "image,entry,median_ns,min_ns,max_ns,ratio_vs_%s,min_ratio_vs_%s,ratio_ns_vs_gettime,min_ratio_ns_vs_gettime,calls,rounds,alt\n",
		images[0].label, images[0].label);
	for (i = 0; i < ncands; i++) {
		struct cand *c = &cands[i];
		struct cand *ref = c->img >= 0 ? find_cand(0, c->kind, c->clk) :
			NULL;
		double rn = c->img >= 0 ? ratio_ns(c->img, c, false) : 0;
		double rnm = c->img >= 0 ? ratio_ns(c->img, c, true) : 0;

		fprintf(csv, "%s,\"%s\",%.3f,%.3f,%.3f,", c->img >= 0 ?
			images[c->img].label : "host", c->name, c->median,
			c->min, c->max);
		if (ref)
			fprintf(csv, "%.4f,%.4f", c->median / ref->median,
				c->min / ref->min);
		else
			fputc(',', csv);
		fputc(',', csv);
		if (rn)
			fprintf(csv, "%.4f,%.4f", rn, rnm);
		else
			fputc(',', csv);
		fprintf(csv, ",%ld,%d,%s\n", n, rounds, alt_policy_name[alt_policy]);
	}
}

/* ---- The final check: which pages of the vvar area were touched ---- */

static void report_pages(FILE *out)
{
	int i, p;

	for (i = 0; i < nimages; i++) {
		struct image *im = &images[i];
		size_t npages = im->vvar_len / PAGE;
		unsigned char vec[64];
		char list[256] = "";
		size_t o = 0;
		bool bad = false;

		if (mincore(im->vvar, im->vvar_len, vec))
			die("mincore: %s", strerror(errno));
		for (p = 0; p < (int)npages; p++) {
			long off = im->vvar_start + (long)p * PAGE;
			const char *name = "unnamed page";
			bool touched = vec[p] & 1;
			int k;

			for (k = 0; k < NVPAGE; k++)
				if (im->vpage[k] == off)
					name = vpage_name(im, k);
			o += snprintf(list + o, sizeof(list) - o, "%s%s %s",
				      p ? ", " : "", name,
				      touched ? "touched" : "untouched");
			if (touched != (off == im->vpage[VP_VVAR]))
				bad = true;
		}
		check(out, !bad,
		      "%s: vvar area pages: %s; no fault on the PROT_NONE guard pages before the vvar area and after the text",
		      im->label, list);
	}
}

/* ---- main ---- */

static void usage(void)
{
	fprintf(stderr,
		"usage: vdso-bench [-n CALLS] [-r ROUNDS] [--alt=none|lfence|rdtscp|host]\n"
		"                  [--csv=FILE] [--cpu=N] [--base=6.1|6.12|7.2]\n"
		"                  [--floor=LABEL] LABEL=PATH/vdso64.so...\n");
	exit(2);
}

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !c)
			continue;
		c++;
		while (*c == ' ' || *c == '\t')
			c++;
		c[strcspn(c, "\n")] = 0;
		snprintf(buf, len, "%s", c);
		break;
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *csv_path = NULL, *base = NULL, *floor_label = NULL;
	bool any_datastore = false;
	long n = 2000000;
	int rounds = 7, i, cpu = -1;
	char model[256], date[64], alt_desc[512];
	struct utsname un;
	FILE *alt_out, *sanity_out, *csv = NULL;
	char *alt_buf = NULL, *sanity_buf = NULL;
	size_t alt_len = 0, sanity_len = 0;
	time_t now;
	cpu_set_t set;

	for (i = 1; i < argc; i++) {
		char *a = argv[i], *eq;

		if (!strcmp(a, "-n") && i + 1 < argc) {
			n = strtol(argv[++i], NULL, 0);
		} else if (!strcmp(a, "-r") && i + 1 < argc) {
			rounds = atoi(argv[++i]);
		} else if (!strncmp(a, "--alt=", 6)) {
			unsigned int k;

			for (k = 0; k < 4; k++)
				if (!strcmp(a + 6, alt_policy_name[k]))
					break;
			if (k == 4)
				usage();
			alt_policy = k;
		} else if (!strncmp(a, "--cpu=", 6)) {
			cpu = atoi(a + 6);
		} else if (!strncmp(a, "--csv=", 6)) {
			csv_path = a + 6;
		} else if (!strncmp(a, "--base=", 7)) {
			base = a + 7;
		} else if (!strncmp(a, "--floor=", 8) && a[8]) {
			floor_label = a + 8;
		} else if (a[0] != '-' && (eq = strchr(a, '=')) && eq != a &&
			   eq[1]) {
			if (nimages == MAX_IMAGES)
				die("at most %d images", MAX_IMAGES);
			*eq = 0;
			images[nimages].label = a;
			images[nimages].path = eq + 1;
			nimages++;
		} else {
			usage();
		}
	}
	if (!nimages || n < 1000 || rounds < 1 || rounds > MAX_ROUNDS)
		usage();
	if (floor_label) {
		bool found = false;

		for (i = 0; i < nimages; i++) {
			images[i].floor = !strcmp(images[i].label, floor_label);
			found |= images[i].floor;
		}
		if (!found)
			die("--floor=%s: no image of that label", floor_label);
	}

	cpu_features();
	probe_rdtscp();
	install_fault_handler();
	alt_decide();

	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			die("--cpu=%d: %s", cpu, strerror(errno));
	}

	progress("measuring the TSC for 100 ms");
	calibrate();

	alt_out = open_memstream(&alt_buf, &alt_len);
	sanity_out = open_memstream(&sanity_buf, &sanity_len);
	if (!alt_out || !sanity_out)
		die("out of memory");
	for (i = 0; i < nimages; i++) {
		image_parse(&images[i]);
		any_datastore |= images[i].layout->datastore;
		if (base && strcmp(base, images[i].layout->name))
			die("%s: built by Linux %u.%u.%u, not by the --base=%s the harness expects",
			    images[i].path, images[i].version >> 16,
			    (images[i].version >> 8) & 0xff,
			    images[i].version & 0xff, base);
		image_map(&images[i], alt_out);
	}
	vvar_update_all(0, 1, 0);
	for (i = 0; i < nimages; i++) {
		int before = sanity_failures;

		sanity_image(&images[i], sanity_out);
		if (images[i].floor) {
			fprintf(sanity_out, "- %s (--floor): %d check(s) above fail, as expected of an image built to skip work; it is timed, not trusted\n\n",
				images[i].label, sanity_failures - before);
			sanity_failures = before;
		}
	}
	fclose(alt_out);

	/* Header */
	now = time(NULL);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	cpu_model(model, sizeof(model));
	uname(&un);
	switch (alt_policy) {
	case ALT_NONE:
		snprintf(alt_desc, sizeof(alt_desc),
			 "`none`: no entry applied, rdtsc_ordered() stays a bare `rdtsc`");
		break;
	case ALT_LFENCE:
		snprintf(alt_desc, sizeof(alt_desc),
			 "`lfence`: X86_FEATURE_LFENCE_RDTSC set, X86_FEATURE_RDTSCP clear: rdtsc_ordered() is `lfence; rdtsc`");
		break;
	case ALT_RDTSCP:
		snprintf(alt_desc, sizeof(alt_desc),
			 "`rdtscp`: X86_FEATURE_LFENCE_RDTSC and X86_FEATURE_RDTSCP set, the later entry wins: rdtsc_ordered() is `rdtscp`");
		break;
	case ALT_HOST:
		snprintf(alt_desc, sizeof(alt_desc),
			 "`host` (what the kernel picks on this CPU): RDTSCP %s in CPUID, LFENCE_RDTSC taken as set: rdtsc_ordered() is `%s`",
			 cpu_rdtscp ? "present" : "absent",
			 cpu_rdtscp ? "rdtscp" : "lfence; rdtsc");
		break;
	}

	printf("# vDSO images timed on the host\n\n");
	printf("- date: %s\n", date);
	printf("- host CPU: %s, %ld CPUs online; ", model,
	       sysconf(_SC_NPROCESSORS_ONLN));
	if (cpu >= 0)
		printf("run pinned to CPU %d; ", cpu);
	else
		printf("run not pinned; ");
	printf("CPUID: invariant TSC %s, RDTSCP %s%s, RDPID %s\n",
	       cpu_invtsc ? "yes" : "no", cpu_rdtscp ? "yes" : "no",
	       cpu_rdtscp == rdtscp_works ? "" : rdtscp_works ?
	       " (but the instruction executes: hidden by a hypervisor?)" :
	       " (but the instruction faults)",
	       cpu_rdpid ? "yes" : "no");
	printf("- host kernel (uname -r): %s\n", un.release);
	printf("- TSC: %.3f MHz against CLOCK_MONOTONIC_RAW over 100 ms (MONOTONIC runs %+.2f ppm off RAW); vvar mult %u (MONOTONIC) / %u (RAW), shift %u, max_cycles %llu (%s)\n",
	       tsc_hz_raw / 1e6, (tsc_hz_raw / tsc_hz_mono - 1) * 1e6,
	       cs_mult_mono, cs_mult_raw, cs_shift,
	       (unsigned long long)cs_max_cycles,
	       any_datastore ? "6.12 and 7.2 layouts" : "6.12 layout");
	printf("- calls: N=%ld per candidate per round, %d rounds, candidates interleaved (order rotated each round, vvar page updated before each round like a tick); ns/call = median (min) over the rounds, from CLOCK_MONOTONIC_RAW around each loop\n",
	       n, rounds);
	printf("- alternatives: %s; the replacement is copied over the site and padded with the x86-64 multi-byte NOPs of the image's kernel (BYTES_NOP1..8 as 6.1's add_nops()/optimize_nops() place them, BYTES_NOP1..11 as 6.12's%s add_nop()/optimize_nops() do; 0x90 runs of sites the program cannot decode stay 0x90); entries for other features are left as they are and listed below\n",
	       alt_desc, any_datastore ? " and 7.2's (per site)" : "");
	printf("- images (the first is the reference of the ratios):");
	for (i = 0; i < nimages; i++)
		printf(" %s = `%s`%s%s", images[i].label, images[i].path,
		       images[i].floor ? " (the floor: timed, not trusted)" : "",
		       i + 1 < nimages ? ";" : "\n");
	printf("\n## Images\n\n");
	printf("| image | bytes | kernel (note), model | layout from | vvar area | vdso_data at | entries (LINUX_2.6) |\n");
	printf("| --- | ---: | --- | --- | --- | --- | --- |\n");
	for (i = 0; i < nimages; i++) {
		struct image *im = &images[i];
		int k;

		if (im->layout->datastore)
			printf("| %s | %zu | %u.%u.%u, %s: vdso_time_data %zu bytes (vdso_clock %zu%s), alt_instr %zu | %s | %ld pages:",
			       im->label, im->so.len, im->version >> 16,
			       (im->version >> 8) & 0xff, im->version & 0xff,
			       im->layout->name, im->layout->data_size,
			       im->layout->vd_size,
			       im->layout->max_cycles_off ? " with max_cycles" : "",
			       im->layout->alt_size,
			       im->have_dbg ? "`.dbg` symbols" : "lds defaults (no .dbg)",
			       im->vvar_len / PAGE);
		else
			printf("| %s | %zu | %u.%u.%u, %s: vdso_data %zu bytes%s, alt_instr %zu | %s | %ld pages:",
			       im->label, im->so.len, im->version >> 16,
			       (im->version >> 8) & 0xff, im->version & 0xff,
			       im->layout->name, im->layout->vd_size,
			       im->layout->max_cycles_off ? " with max_cycles" : "",
			       im->layout->alt_size,
			       im->have_dbg ? "`.dbg` symbols" : "lds defaults (no .dbg)",
			       im->vvar_len / PAGE);
		for (k = 0; k < NVPAGE; k++) {
			enum vpage v = im->layout->datastore ? vpage_order_ds[k] :
				vpage_order[k];

			if (im->vpage[v])
				printf(" %s %ld", vpage_name(im, v),
				       im->vpage[v] / (long)PAGE);
		}
		printf(" | %s+%ld |", vpage_name(im, VP_VVAR),
		       im->data_off - im->vpage[VP_VVAR]);
		for (k = 0; k < NENTRY; k++)
			printf(" %s%s", im->has[k] ? entry_name[k] + 7 : "-",
			       k + 1 < NENTRY ? "," : " |\n");
	}

	printf("\n## Alternatives\n\n%s", alt_buf);
	if (alt_unhandled_total)
		printf("%u entr%s in all name features this program does not handle (NOT HANDLED above): their sites keep the original instructions.\n\n",
		       alt_unhandled_total, alt_unhandled_total == 1 ? "y" : "ies");

	fclose(sanity_out);
	printf("## Sanity (1 ms tolerance against the host)\n\n%s", sanity_buf);
	if (sanity_failures) {
		printf("**%d sanity check(s) FAILED: no timing.**\n", sanity_failures);
		fflush(stdout);
		progress("%d sanity check(s) failed", sanity_failures);
		return 1;
	}

	progress("timing: %d rounds of %ld calls per candidate", rounds, n);
	bench(n, rounds);
	if (csv_path) {
		csv = fopen(csv_path, "w");
		if (!csv)
			die("%s: %s", csv_path, strerror(errno));
	}
	printf("## Timing (ns per call; ratios of the medians, of the mins in parentheses)\n\n");
	report_timing(stdout, csv, n, rounds);
	if (csv)
		fclose(csv);

	printf("## Memory check\n\n");
	phase = "the memory check";
	report_pages(stdout);
	if (sanity_failures) {
		printf("\n**The memory check FAILED.**\n");
		return 1;
	}
	printf("\nAll %d image(s) passed the sanity and memory checks%s.\n", nimages,
	       floor_label ? " (the floor's sanity failures expected)" : "");
	return 0;
}
