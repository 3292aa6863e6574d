/*
 * porep_test.c — drives libcuseal through include/cuseal_porep.h, as a C
 * caller would. Compiled and run by libcuseal/abi_test.go (TestCABI,
 * TestCArchive); it checks what it can itself (status codes, lengths,
 * valid/invalid) and prints KEY=VALUE lines that the Go test compares with
 * the Go API's results (the proof bytes, the error messages).
 *
 * usage: porep_test C1_FILE SECTOR MINER TICKET_HEX SEED_HEX COMM_R_HEX COMM_D_HEX
 *                   PARAMS_DIR|- RS_SEED_HEX
 * With PARAMS_DIR "-" only the cheap checks run (no parameters needed).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuseal_porep.h"

#define REG_PROOF_2KIB_V1_1 5

static int failures;

#define CHECK(cond, ...)                                  \
	do {                                                  \
		if (!(cond)) {                                    \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                 \
			fprintf(stderr, "\n");                        \
			failures++;                                   \
		}                                                 \
	} while (0)

static void hex32(const char* s, uint8_t out[32]) {
	size_t i;
	if (strlen(s) != 64) {
		fprintf(stderr, "want 64 hex digits: %s\n", s);
		exit(2);
	}
	for (i = 0; i < 32; i++) {
		unsigned v;
		if (sscanf(s + 2 * i, "%2x", &v) != 1) {
			fprintf(stderr, "bad hex: %s\n", s);
			exit(2);
		}
		out[i] = (uint8_t)v;
	}
}

static uint8_t* read_file(const char* path, size_t* len) {
	FILE* f = fopen(path, "rb");
	uint8_t* buf;
	long n;
	if (!f) {
		perror(path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = (uint8_t*)malloc((size_t)n);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "%s: read failed\n", path);
		exit(2);
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* print_msg prints "KEY=message" (the message is one line) and frees it. */
static void print_msg(const char* key, char* msg) {
	printf("%s=%s\n", key, msg ? msg : "(null)");
	cuseal_porep_string_free(msg);
}

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- inputs shared by the threads ---- */
static uint8_t *c1;
static size_t c1_len;
static uint64_t sector, miner;
static uint8_t ticket[32], seed[32], comm_r[32], comm_d[32], rs_seed[32];
static const char* params_dir;
static uint8_t* proof;
static size_t proof_len;

/* ---- log callback: counts records, remembers whether "commit2 start" came ---- */
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static int log_records, log_saw_start;

static void on_log(void* user, int32_t level, const char* message) {
	pthread_mutex_lock(&log_mu);
	log_records++;
	if (strstr(message, "commit2 start") != NULL && level == CUSEAL_POREP_LOG_INFO) {
		log_saw_start = 1;
	}
	if (user != (void*)&log_records) {
		log_saw_start = -1000; /* user pointer not passed through */
	}
	pthread_mutex_unlock(&log_mu);
}

static void base_options(cuseal_porep_options* o) {
	cuseal_porep_options_init(o);
	o->params_dir = params_dir;
	o->backend = "cpu";
	o->test_only_randomness_seed = rs_seed; /* TEST ONLY: reproducible blinding */
}

static void cheap_checks(void) {
	char *msg = NULL, *json = NULL;
	uint8_t* pf = NULL;
	size_t pf_len = 0;
	int rc;
	cuseal_porep_options o;
	cuseal_porep_cancel* cancel;
	static const char garbage[] = "{\"registered_proof\": ";
	char want_abi[64];
	uint8_t short_proof[5] = {1, 2, 3, 4, 5};

	/* A library serves callers of its own and earlier ABI versions
	 * (TestCABIVersion1Caller compiles this file with the version 1 header). */
	CHECK(cuseal_porep_abi_version() >= CUSEAL_POREP_ABI_VERSION, "abi version %u", cuseal_porep_abi_version());
	snprintf(want_abi, sizeof want_abi, "\"abi_version\":%u", cuseal_porep_abi_version());

	rc = cuseal_porep_info(&json, &msg);
	CHECK(rc == CUSEAL_POREP_OK && json != NULL && msg == NULL, "info: rc %d", rc);
	CHECK(json && strstr(json, want_abi) != NULL, "info json: %s", json ? json : "(null)");
	printf("INFO=%s\n", json ? json : "");
	cuseal_porep_string_free(json);

	/* Garbage C1: bad input, the Go API's message. */
	rc = cuseal_porep_seal_commit_phase2((const uint8_t*)garbage, strlen(garbage), sector, miner, NULL, &pf, &pf_len,
	                                     &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && pf == NULL && pf_len == 0 && msg != NULL, "garbage c1: rc %d", rc);
	print_msg("MSG_GARBAGE", msg);

	/* The real C1 for another sector number: its replica_id does not match. */
	rc = cuseal_porep_seal_commit_phase2(c1, c1_len, sector + 1, miner, NULL, &pf, &pf_len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && pf == NULL && msg != NULL, "wrong sector: rc %d", rc);
	print_msg("MSG_WRONG_SECTOR", msg);

	/* NULL outputs, a wrong struct_size, an unknown backend: bad input. */
	rc = cuseal_porep_seal_commit_phase2(c1, c1_len, sector, miner, NULL, NULL, &pf_len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg != NULL, "NULL proof_out: rc %d", rc);
	cuseal_porep_string_free(msg);
	cuseal_porep_options_init(&o);
	CHECK(o.log_level == CUSEAL_POREP_LOG_OFF && o.struct_size == sizeof o, "options_init");
	o.struct_size = 8;
	rc = cuseal_porep_seal_commit_phase2(c1, c1_len, sector, miner, &o, &pf, &pf_len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg && strstr(msg, "struct_size") != NULL, "struct_size: rc %d", rc);
	cuseal_porep_string_free(msg);
	cuseal_porep_options_init(&o);
	o.backend = "tpu";
	rc = cuseal_porep_seal_commit_phase2(c1, c1_len, sector, miner, &o, &pf, &pf_len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg && strstr(msg, "tpu") != NULL, "backend tpu: rc %d %s", rc,
	      msg ? msg : "");
	cuseal_porep_string_free(msg);

	/* A cancel handle triggered before the call. */
	cancel = cuseal_porep_cancel_new();
	CHECK(cancel != NULL, "cancel_new");
	cuseal_porep_cancel_trigger(cancel);
	cuseal_porep_options_init(&o);
	o.cancel = cancel;
	rc = cuseal_porep_seal_commit_phase2(c1, c1_len, sector, miner, &o, &pf, &pf_len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_CANCELLED && msg != NULL, "pre-cancelled: rc %d", rc);
	cuseal_porep_string_free(msg);
	cuseal_porep_cancel_free(cancel);
	cuseal_porep_cancel_free(NULL);

	/* verify_seal: a proof of the wrong length, a NULL ticket. */
	rc = cuseal_porep_verify_seal(REG_PROOF_2KIB_V1_1, comm_r, comm_d, miner, sector, ticket, seed, short_proof,
	                              sizeof short_proof, NULL, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg != NULL, "short proof: rc %d", rc);
	print_msg("MSG_SHORT_PROOF", msg);
	rc = cuseal_porep_verify_seal(REG_PROOF_2KIB_V1_1, comm_r, comm_d, miner, sector, NULL, seed, short_proof,
	                              sizeof short_proof, NULL, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg && strstr(msg, "ticket") != NULL, "NULL ticket: rc %d", rc);
	cuseal_porep_string_free(msg);

	/* generate_test_params: an unknown registered proof. */
	rc = cuseal_porep_generate_test_params(999, "/nonexistent-cuseal-dir", NULL, 0, NULL, &json, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && json == NULL && msg != NULL, "registered proof 999: rc %d", rc);
	print_msg("MSG_GEN_BAD_PROOF", msg);

	/* Freeing NULL is allowed. */
	cuseal_porep_proof_free(NULL);
	cuseal_porep_string_free(NULL);
}

/* ---- concurrent verification ---- */
static void* verify_thread(void* arg) {
	char* msg = NULL;
	cuseal_porep_options o;
	int rc;
	base_options(&o);
	rc = cuseal_porep_verify_seal(REG_PROOF_2KIB_V1_1, comm_r, comm_d, miner, sector, ticket, seed, proof, proof_len, &o,
	                              &msg);
	*(int*)arg = rc;
	cuseal_porep_string_free(msg);
	return NULL;
}

/* ---- cancellation of a running C2 ---- */
struct c2_call {
	cuseal_porep_cancel* cancel;
	int rc;
	char* msg;
};

static void* c2_thread(void* arg) {
	struct c2_call* c = (struct c2_call*)arg;
	cuseal_porep_options o;
	uint8_t* pf = NULL;
	size_t pf_len = 0;
	base_options(&o);
	o.cancel = c->cancel;
	c->rc = cuseal_porep_seal_commit_phase2(c1, c1_len, sector, miner, &o, &pf, &pf_len, &c->msg);
	cuseal_porep_proof_free(pf);
	return NULL;
}

static void full_checks(void) {
	char *msg = NULL, *json = NULL;
	int rc, i;
	size_t j;
	cuseal_porep_options o;
	uint8_t* bad;
	pthread_t th[4];
	int rcs[4];
	struct c2_call call;
	double t0;
	struct timespec two_s = {2, 0};

	/* The parameters exist already: generating them again from their seed (the shared test
	 * parameters': the reference vectors' toxic seed, bytes 0x00..0x1f) reuses them. */
	uint8_t test_seed[32];
	for (i = 0; i < 32; i++) test_seed[i] = (uint8_t)i;
	rc = cuseal_porep_generate_test_params(REG_PROOF_2KIB_V1_1, params_dir, test_seed, 0, NULL, &json, &msg);
	CHECK(rc == CUSEAL_POREP_OK && json && strstr(json, "\"reused\":true") != NULL, "generate (reuse): rc %d %s %s", rc,
	      json ? json : "", msg ? msg : "");
	cuseal_porep_string_free(json);
	cuseal_porep_string_free(msg);

	/* C2 with the test-only seed and a log callback. */
	base_options(&o);
	o.log_level = CUSEAL_POREP_LOG_INFO;
	o.log_fn = on_log;
	o.log_user = &log_records;
	t0 = now();
	rc = cuseal_porep_seal_commit_phase2(c1, c1_len, sector, miner, &o, &proof, &proof_len, &msg);
	CHECK(rc == CUSEAL_POREP_OK && msg == NULL && proof != NULL && proof_len == 192, "c2: rc %d len %zu %s", rc,
	      proof_len, msg ? msg : "");
	if (rc != CUSEAL_POREP_OK) {
		cuseal_porep_string_free(msg);
		return;
	}
	fprintf(stderr, "c2: %.1f s, %d log records\n", now() - t0, log_records);
	CHECK(log_records > 0 && log_saw_start == 1, "log callback: %d records, start %d", log_records, log_saw_start);
	printf("PROOF=");
	for (j = 0; j < proof_len; j++) {
		printf("%02x", proof[j]);
	}
	printf("\n");

	/* verify: valid. */
	base_options(&o);
	rc = cuseal_porep_verify_seal(REG_PROOF_2KIB_V1_1, comm_r, comm_d, miner, sector, ticket, seed, proof, proof_len,
	                              &o, &msg);
	CHECK(rc == CUSEAL_POREP_OK && msg == NULL, "verify: rc %d %s", rc, msg ? msg : "");
	cuseal_porep_string_free(msg);

	/* Tampered: A negated (the sign flag, still a point) → invalid; the
	 * compression flag cleared → undecodable → bad input; another seed → invalid. */
	bad = (uint8_t*)malloc(proof_len);
	memcpy(bad, proof, proof_len);
	bad[0] ^= 0x20;
	rc = cuseal_porep_verify_seal(REG_PROOF_2KIB_V1_1, comm_r, comm_d, miner, sector, ticket, seed, bad, proof_len, &o,
	                              &msg);
	CHECK(rc == CUSEAL_POREP_INVALID && msg != NULL, "negated A: rc %d", rc);
	print_msg("MSG_INVALID", msg);
	memcpy(bad, proof, proof_len);
	bad[0] ^= 0x80;
	rc = cuseal_porep_verify_seal(REG_PROOF_2KIB_V1_1, comm_r, comm_d, miner, sector, ticket, seed, bad, proof_len, &o,
	                              &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg != NULL, "undecodable proof: rc %d", rc);
	print_msg("MSG_UNDECODABLE", msg);
	free(bad);
	rc = cuseal_porep_verify_seal(REG_PROOF_2KIB_V1_1, comm_r, comm_d, miner, sector, ticket, ticket, proof, proof_len,
	                              &o, NULL);
	CHECK(rc == CUSEAL_POREP_INVALID, "other seed: rc %d", rc);

	/* Four verifications at once. */
	for (i = 0; i < 4; i++) {
		rcs[i] = -1;
		pthread_create(&th[i], NULL, verify_thread, &rcs[i]);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		CHECK(rcs[i] == CUSEAL_POREP_OK, "concurrent verify %d: rc %d", i, rcs[i]);
	}

	/* A C2 cancelled from another thread after 2 s returns CANCELLED promptly. */
	call.cancel = cuseal_porep_cancel_new();
	call.rc = -1;
	call.msg = NULL;
	pthread_create(&th[0], NULL, c2_thread, &call);
	nanosleep(&two_s, NULL);
	t0 = now();
	cuseal_porep_cancel_trigger(call.cancel);
	pthread_join(th[0], NULL);
	fprintf(stderr, "cancel: returned %.2f s after the trigger: %d %s\n", now() - t0, call.rc,
	        call.msg ? call.msg : "");
	CHECK(call.rc == CUSEAL_POREP_ERR_CANCELLED && call.msg != NULL, "cancelled c2: rc %d", call.rc);
	printf("CANCEL_SECONDS=%.3f\n", now() - t0);
	cuseal_porep_string_free(call.msg);
	cuseal_porep_cancel_free(call.cancel);

	cuseal_porep_proof_free(proof);
}

int main(int argc, char** argv) {
	if (argc != 10) {
		fprintf(stderr,
		        "usage: %s C1_FILE SECTOR MINER TICKET SEED COMM_R COMM_D PARAMS_DIR|- RS_SEED\n", argv[0]);
		return 2;
	}
	c1 = read_file(argv[1], &c1_len);
	sector = strtoull(argv[2], NULL, 10);
	miner = strtoull(argv[3], NULL, 10);
	hex32(argv[4], ticket);
	hex32(argv[5], seed);
	hex32(argv[6], comm_r);
	hex32(argv[7], comm_d);
	params_dir = strcmp(argv[8], "-") == 0 ? NULL : argv[8];
	hex32(argv[9], rs_seed);

	cheap_checks();
	if (params_dir != NULL) {
		full_checks();
	}
	free(c1);
	if (failures) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("OK\n");
	return 0;
}
