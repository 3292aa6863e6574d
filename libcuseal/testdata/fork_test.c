/*
 * fork_test.c — calls libcuseal from children forked (without exec) after
 * the library was loaded, while another thread of the parent is inside a
 * call: each call must be refused with CUSEAL_POREP_ERR_INTERNAL and its
 * outputs cleared, at once — never hang, as entering the Go runtime in such
 * a child does. Run by libcuseal/fork_abi_test.go (TestForkedChild).
 *
 * usage: fork_test N   (N children; prints CHILD_MSG=..., FORKS=N, REFUSED=N, OK)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuseal_porep.h"

static volatile int stop;

/* busy keeps a call in flight in the parent while it forks. */
static void* busy(void* arg) {
	(void)arg;
	while (!stop) {
		char* json = NULL;
		cuseal_porep_info(&json, NULL);
		cuseal_porep_string_free(json);
	}
	return NULL;
}

/* child makes calls in a forked child; exit status 0 when each was refused
 * as it must be (prints the first message when print_msg). */
static int child(int print_msg) {
	char *json = (char*)1, *msg = NULL;
	uint8_t junk[32] = {0}, *proof = (uint8_t*)1;
	size_t proof_len = 7, stride = 7, n = 7;
	uint64_t ids[1] = {1}, *ids_out = (uint64_t*)1, *chs = (uint64_t*)1;
	cuseal_porep_options o;
	int bad = 0, rc;

	alarm(10); /* a hang ends in SIGALRM */
	rc = cuseal_porep_info(&json, &msg);
	if (rc != CUSEAL_POREP_ERR_INTERNAL || json != NULL || msg == NULL || strstr(msg, "libcuseal: info: ") != msg ||
	    strstr(msg, "fork()") == NULL)
		bad |= 1;
	if (print_msg) printf("CHILD_MSG=%s\n", msg ? msg : "(null)");
	cuseal_porep_string_free(msg);
	msg = NULL;
	rc = cuseal_porep_verify_seal(5, junk, junk, 1000, 1, junk, junk, junk, 192, NULL, &msg);
	if (rc != CUSEAL_POREP_ERR_INTERNAL || msg == NULL || strstr(msg, "libcuseal: verify_seal: ") != msg) bad |= 2;
	cuseal_porep_string_free(msg);
	rc = cuseal_porep_generate_fallback_sector_challenges(10, junk, 32, ids, 1, 1000, &ids_out, &n, &chs, &stride, NULL);
	if (rc != CUSEAL_POREP_ERR_INTERNAL || ids_out != NULL || n != 0 || chs != NULL || stride != 0) bad |= 4;
	rc = cuseal_porep_merge_window_post_partition_proofs(10, NULL, 0, &proof, &proof_len, NULL);
	if (rc != CUSEAL_POREP_ERR_INTERNAL || proof != NULL || proof_len != 0) bad |= 8;
	if (cuseal_porep_cancel_new() != NULL) bad |= 16;
	cuseal_porep_options_init(&o); /* plain C: works */
	if (o.struct_size != sizeof o || cuseal_porep_abi_version() != CUSEAL_POREP_ABI_VERSION) bad |= 32;
	if (bad) fprintf(stderr, "child %ld: checks failed: %#x\n", (long)getpid(), bad);
	fflush(stdout);
	return bad ? 1 : 0;
}

int main(int argc, char** argv) {
	int n = argc > 1 ? atoi(argv[1]) : 20, i, refused = 0;
	pthread_t th;
	if (pthread_create(&th, NULL, busy, NULL) != 0) return 2;
	for (i = 0; i < n; i++) {
		int st;
		pid_t p;
		fflush(stdout);
		p = fork();
		if (p < 0) return 2;
		if (p == 0) _exit(child(i == 0));
		if (waitpid(p, &st, 0) != p) return 2;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			refused++;
		else if (WIFSIGNALED(st))
			fprintf(stderr, "child %d: killed by signal %d (%s)\n", i, WTERMSIG(st), WTERMSIG(st) == SIGALRM ? "hung" : "crashed");
	}
	stop = 1;
	pthread_join(th, NULL);
	printf("FORKS=%d\nREFUSED=%d\n", n, refused);
	if (refused != n) return 1;
	printf("OK\n");
	return 0;
}
