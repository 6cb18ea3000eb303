// SPDX-License-Identifier: GPL-2.0
/*
 * msr CPU REG [VALUE]: print model-specific register REG of CPU, or write
 * VALUE to it, through /dev/cpu/CPU/msr (CONFIG_X86_MSR).  REG and VALUE
 * in C notation (0x3b); the value printed is signed decimal, as the kernel
 * logs TSC_ADJUST.  Exits 1 when the register cannot be read or written.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char path[64];
	uint64_t val;
	off_t reg;
	int fd;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: msr CPU REG [VALUE]\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/dev/cpu/%s/msr", argv[1]);
	reg = strtoll(argv[2], NULL, 0);
	fd = open(path, argc == 4 ? O_WRONLY : O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "msr: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (argc == 4) {
		val = strtoull(argv[3], NULL, 0);
		if (pwrite(fd, &val, sizeof(val), reg) != sizeof(val)) {
			fprintf(stderr, "msr: write %s at %#llx: %s\n", path,
				(unsigned long long)reg, strerror(errno));
			return 1;
		}
		return 0;
	}
	if (pread(fd, &val, sizeof(val), reg) != sizeof(val)) {
		fprintf(stderr, "msr: read %s at %#llx: %s\n", path,
			(unsigned long long)reg, strerror(errno));
		return 1;
	}
	printf("%" PRId64 "\n", (int64_t)val);
	return 0;
}
