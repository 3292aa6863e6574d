// SPDX-License-Identifier: Apache-2.0 OR MIT
//
// scripts/touch-memory.c — what first-touching fresh anonymous memory costs on this machine,
// with no Go runtime and no synthesis in the way (docs/BENCHMARKS.md, "Cold partitions").
//
//   cc -O2 -pthread -o /tmp/touch-memory scripts/touch-memory.c
//   /tmp/touch-memory GIB HUGE THREADS     e.g. /tmp/touch-memory 8 0 2
//
// It maps GIB GiB, optionally madvises MADV_HUGEPAGE (HUGE=1), memsets it on THREADS threads
// (the first touch: page faults and zeroing), then memsets it again (warm: bandwidth only).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static size_t size;
static int nthreads;
static char *base;

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *fill(void *arg) {
	size_t per = size / nthreads;
	memset(base + (long)arg * per, 1, per);
	return NULL;
}

static double pass(void) {
	pthread_t th[64];
	double t = now();
	for (long i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, fill, (void *)i);
	for (int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	return now() - t;
}

int main(int argc, char **argv) {
	if (argc != 4) {
		fprintf(stderr, "usage: %s GIB HUGE(0|1) THREADS(1-64)\n", argv[0]);
		return 2;
	}
	size = (size_t)atol(argv[1]) << 30;
	int huge = atoi(argv[2]);
	nthreads = atoi(argv[3]);
	if (size == 0 || nthreads < 1 || nthreads > 64) {
		fprintf(stderr, "bad arguments\n");
		return 2;
	}
	base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (huge && madvise(base, size, MADV_HUGEPAGE) != 0)
		perror("madvise");
	double first = pass(), warm = pass();
	printf("%zu GiB, huge pages %s, %d thread(s): first touch %.2f s, warm memset %.2f s (%.1f GB/s)\n",
	       size >> 30, huge ? "advised" : "off", nthreads, first, warm, size / 1e9 / warm);
	return 0;
}
