/*
 * kinds_test.c — drives the ABI version 2 calls of libcuseal (WindowPoSt,
 * WinningPoSt, SnapDeals, SnarkPack aggregation) through
 * include/cuseal_porep.h, as a C caller would, on rust-fil-proofs'
 * reference vectors. Compiled and run by libcuseal/kinds_abi_test.go
 * (TestCKinds, TestCArchive), which writes the manifest naming the
 * vectors' files. The program checks what it can itself (statuses, that
 * proofs equal the reference bytes, that tampered proofs are refused) and
 * prints KEY=VALUE lines the Go test compares with the Go API (messages,
 * challenges).
 *
 * usage: kinds_test MANIFEST
 * The manifest has one "key value..." per line:
 *   params DIR            parameter directory (.vk and SRS; with long 1 also .params)
 *   long 0|1              1: also prove each kind (needs the .params)
 *   rs_seed HEX           test-only blinding seed of the reference proofs
 *   window_proof N, window_miner N, window_randomness HEX,
 *   window_vanilla PATH (each sector, ascending), window_sector NUMBER COMM_R_HEX,
 *   window_want PATH      (and the same with winning_)
 *   update_proof N, update_comm_r_old HEX, update_comm_r_new HEX,
 *   update_comm_d_new HEX, update_vanilla PATH, update_want PATH
 *   agg_proof N, agg_miner N, agg_sector NUMBER COMM_R COMM_D TICKET SEED PROOF_PATH,
 *   agg_want PATH
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuseal_porep.h"

#define SNARKPACK_V2 1
#define MAX_ITEMS 4

static int failures;

#define CHECK(cond, ...)                                                 \
	do {                                                                 \
		if (!(cond)) {                                                   \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);         \
			fprintf(stderr, __VA_ARGS__);                                \
			fprintf(stderr, "\n");                                       \
			failures++;                                                  \
		}                                                                \
	} while (0)

/* ---- input ---- */

typedef struct {
	uint8_t* data;
	size_t len;
} buf;

static buf read_file(const char* path) {
	FILE* f = fopen(path, "rb");
	buf b;
	long n;
	if (!f) {
		perror(path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b.data = (uint8_t*)malloc(n > 0 ? (size_t)n : 1);
	b.len = (size_t)n;
	if (!b.data || fread(b.data, 1, b.len, f) != b.len) {
		fprintf(stderr, "%s: read failed\n", path);
		exit(2);
	}
	fclose(f);
	return b;
}

static void hex_to(const char* s, uint8_t* out, size_t n) {
	size_t i;
	if (strlen(s) != 2 * n) {
		fprintf(stderr, "want %zu hex digits: %s\n", 2 * n, s);
		exit(2);
	}
	for (i = 0; i < n; i++) {
		unsigned v;
		if (sscanf(s + 2 * i, "%2x", &v) != 1) {
			fprintf(stderr, "bad hex: %s\n", s);
			exit(2);
		}
		out[i] = (uint8_t)v;
	}
}

/* One PoSt vector. */
typedef struct {
	int64_t proof;
	uint64_t miner;
	uint8_t randomness[32];
	buf vanilla[MAX_ITEMS];
	size_t n_vanilla;
	cuseal_porep_sector_info sectors[MAX_ITEMS];
	size_t n_sectors;
	buf want;
} post_vector;

static post_vector window, winning;

static struct {
	int64_t proof;
	uint8_t comm_r_old[32], comm_r_new[32], comm_d_new[32];
	buf vanilla;
	buf want;
} update;

static struct {
	int64_t proof;
	uint64_t miner;
	cuseal_porep_aggregation_input inputs[MAX_ITEMS];
	buf proofs[MAX_ITEMS];
	size_t n;
	buf want;
} agg;

static char params_dir[4096];
static int long_tier;
static uint8_t rs_seed[32];

static void read_manifest(const char* path) {
	FILE* f = fopen(path, "r");
	char line[8192], key[64], a[4096], b[256], c[256], d[256], e[256], g[4096];
	if (!f) {
		perror(path);
		exit(2);
	}
	while (fgets(line, sizeof line, f)) {
		post_vector* v = NULL;
		const char* k = key;
		int n = sscanf(line, "%63s %4095s %255s %255s %255s %255s %4095s", key, a, b, c, d, e, g);
		if (n < 2) {
			continue;
		}
		if (strncmp(key, "window_", 7) == 0) {
			v = &window;
			k = key + 7;
		} else if (strncmp(key, "winning_", 8) == 0) {
			v = &winning;
			k = key + 8;
		}
		if (v != NULL) {
			if (strcmp(k, "proof") == 0) {
				v->proof = strtoll(a, NULL, 10);
			} else if (strcmp(k, "miner") == 0) {
				v->miner = strtoull(a, NULL, 10);
			} else if (strcmp(k, "randomness") == 0) {
				hex_to(a, v->randomness, 32);
			} else if (strcmp(k, "vanilla") == 0 && v->n_vanilla < MAX_ITEMS) {
				v->vanilla[v->n_vanilla++] = read_file(a);
			} else if (strcmp(k, "sector") == 0 && n >= 3 && v->n_sectors < MAX_ITEMS) {
				v->sectors[v->n_sectors].sector_number = strtoull(a, NULL, 10);
				hex_to(b, v->sectors[v->n_sectors].comm_r, 32);
				v->n_sectors++;
			} else if (strcmp(k, "want") == 0) {
				v->want = read_file(a);
			} else {
				fprintf(stderr, "manifest: unknown line %s", line);
				exit(2);
			}
		} else if (strcmp(key, "params") == 0) {
			snprintf(params_dir, sizeof params_dir, "%s", a);
		} else if (strcmp(key, "long") == 0) {
			long_tier = atoi(a);
		} else if (strcmp(key, "rs_seed") == 0) {
			hex_to(a, rs_seed, 32);
		} else if (strcmp(key, "update_proof") == 0) {
			update.proof = strtoll(a, NULL, 10);
		} else if (strcmp(key, "update_comm_r_old") == 0) {
			hex_to(a, update.comm_r_old, 32);
		} else if (strcmp(key, "update_comm_r_new") == 0) {
			hex_to(a, update.comm_r_new, 32);
		} else if (strcmp(key, "update_comm_d_new") == 0) {
			hex_to(a, update.comm_d_new, 32);
		} else if (strcmp(key, "update_vanilla") == 0) {
			update.vanilla = read_file(a);
		} else if (strcmp(key, "update_want") == 0) {
			update.want = read_file(a);
		} else if (strcmp(key, "agg_proof") == 0) {
			agg.proof = strtoll(a, NULL, 10);
		} else if (strcmp(key, "agg_miner") == 0) {
			agg.miner = strtoull(a, NULL, 10);
		} else if (strcmp(key, "agg_sector") == 0 && n == 7 && agg.n < MAX_ITEMS) {
			cuseal_porep_aggregation_input* in = &agg.inputs[agg.n];
			in->sector_number = strtoull(a, NULL, 10);
			hex_to(b, in->comm_r, 32);
			hex_to(c, in->comm_d, 32);
			hex_to(d, in->ticket, 32);
			hex_to(e, in->seed, 32);
			agg.proofs[agg.n] = read_file(g);
			agg.n++;
		} else if (strcmp(key, "agg_want") == 0) {
			agg.want = read_file(a);
		} else {
			fprintf(stderr, "manifest: unknown line %s", line);
			exit(2);
		}
	}
	fclose(f);
}

/* ---- helpers ---- */

static void print_msg(const char* key, char* msg) {
	printf("%s=%s\n", key, msg ? msg : "(null)");
	cuseal_porep_string_free(msg);
}

static void print_hex(const char* key, const uint8_t* p, size_t n) {
	size_t i;
	printf("%s=", key);
	for (i = 0; i < n; i++) {
		printf("%02x", p[i]);
	}
	printf("\n");
}

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int equal(const uint8_t* p, size_t n, buf want) {
	return p != NULL && n == want.len && memcmp(p, want.data, n) == 0;
}

static void options(cuseal_porep_options* o) {
	cuseal_porep_options_init(o);
	o->params_dir = params_dir;
	o->backend = "cpu";
	o->test_only_randomness_seed = rs_seed; /* TEST ONLY: reproducible blinding */
}

/* The vector's vanilla proofs as cuseal_porep_bytes. */
static void bytes_of(const buf* b, size_t n, cuseal_porep_bytes* out) {
	size_t i;
	for (i = 0; i < n; i++) {
		out[i].ptr = b[i].data;
		out[i].len = b[i].len;
	}
}

/* A proof with A and C swapped: still curve points, not a valid proof. */
static uint8_t* swap_ac(buf p) {
	uint8_t* s = (uint8_t*)malloc(p.len);
	memcpy(s, p.data + 144, 48);
	memcpy(s + 48, p.data + 48, 96);
	memcpy(s + 144, p.data, 48);
	return s;
}

static int verify_post(const post_vector* v, int is_winning, const uint8_t* rnd, const cuseal_porep_sector_info* sectors,
                       size_t n_sectors, const uint8_t* proof, size_t proof_len, char** msg) {
	cuseal_porep_options o;
	options(&o);
	if (is_winning) {
		return cuseal_porep_verify_winning_post(v->proof, rnd, 32, sectors, n_sectors, proof, proof_len, v->miner, &o, msg);
	}
	return cuseal_porep_verify_window_post(v->proof, rnd, 32, sectors, n_sectors, proof, proof_len, v->miner, &o, msg);
}

static int verify_update(const uint8_t* proof, size_t len, const uint8_t* r_old, const uint8_t* r_new, char** msg) {
	cuseal_porep_options o;
	options(&o);
	return cuseal_porep_verify_empty_sector_update_proof(update.proof, proof, len, r_old, r_new, update.comm_d_new, &o, msg);
}

static int verify_agg(const uint8_t* a, size_t len, const cuseal_porep_aggregation_input* inputs, char** msg) {
	cuseal_porep_options o;
	options(&o);
	return cuseal_porep_verify_aggregate_seal_proof(agg.proof, SNARKPACK_V2, agg.miner, a, len, inputs, agg.n, &o, msg);
}

/* ---- cheap checks: no .params needed ---- */

static void challenges(void) {
	uint64_t ids[MAX_ITEMS], *ids_out = NULL, *chs = NULL, *idx = NULL;
	size_t i, j, n_ids = 0, stride = 0, n_idx = 0;
	char* msg = NULL;
	int rc;
	for (i = 0; i < window.n_sectors; i++) {
		ids[i] = window.sectors[i].sector_number;
	}
	rc = cuseal_porep_generate_fallback_sector_challenges(window.proof, window.randomness, 32, ids, window.n_sectors,
	                                                      window.miner, &ids_out, &n_ids, &chs, &stride, &msg);
	CHECK(rc == CUSEAL_POREP_OK && msg == NULL && n_ids == window.n_sectors && stride == 10, "fallback challenges: rc %d", rc);
	printf("CHALLENGES_WINDOW=");
	for (i = 0; i < n_ids; i++) {
		printf("%s%llu:", i ? ";" : "", (unsigned long long)ids_out[i]);
		for (j = 0; j < stride; j++) {
			printf("%s%llu", j ? "," : "", (unsigned long long)chs[i * stride + j]);
		}
	}
	printf("\n");
	cuseal_porep_u64_array_free(ids_out);
	cuseal_porep_u64_array_free(chs);

	rc = cuseal_porep_generate_winning_post_sector_challenge(winning.proof, winning.randomness, 32, 1000, winning.miner,
	                                                         &idx, &n_idx, &msg);
	CHECK(rc == CUSEAL_POREP_OK && n_idx == 1 && idx != NULL, "winning sector challenge: rc %d", rc);
	if (rc == CUSEAL_POREP_OK) {
		printf("WINNING_INDEX_OF_1000=%llu\n", (unsigned long long)idx[0]);
	}
	cuseal_porep_u64_array_free(idx);

	/* Bad input: a randomness of 31 bytes, no sectors, an unknown proof. */
	idx = (uint64_t*)1;
	rc = cuseal_porep_generate_winning_post_sector_challenge(winning.proof, winning.randomness, 31, 10, winning.miner, &idx,
	                                                         &n_idx, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && idx == NULL && n_idx == 0 && msg != NULL, "randomness_len 31: rc %d", rc);
	print_msg("MSG_RANDOMNESS_31", msg);
	rc = cuseal_porep_generate_fallback_sector_challenges(window.proof, window.randomness, 32, NULL, 0, window.miner,
	                                                      &ids_out, &n_ids, &chs, &stride, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && ids_out == NULL && chs == NULL && msg != NULL, "no sectors: rc %d", rc);
	cuseal_porep_string_free(msg);
	rc = cuseal_porep_generate_fallback_sector_challenges(999, window.randomness, 32, ids, 1, window.miner, &ids_out,
	                                                      &n_ids, &chs, &stride, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg != NULL, "unknown proof: rc %d", rc);
	print_msg("MSG_UNKNOWN_POST_PROOF", msg);
}

static void verify_checks(void) {
	char* msg = NULL;
	int rc;
	uint8_t* bad;
	uint8_t rnd[32];
	cuseal_porep_aggregation_input swapped[2];

	rc = verify_post(&window, 0, window.randomness, window.sectors, window.n_sectors, window.want.data, window.want.len, &msg);
	CHECK(rc == CUSEAL_POREP_OK && msg == NULL, "verify window: rc %d %s", rc, msg ? msg : "");
	cuseal_porep_string_free(msg);
	bad = swap_ac(window.want);
	rc = verify_post(&window, 0, window.randomness, window.sectors, window.n_sectors, bad, window.want.len, &msg);
	CHECK(rc == CUSEAL_POREP_INVALID && msg != NULL, "window A/C swapped: rc %d", rc);
	print_msg("MSG_INVALID", msg);
	free(bad);
	memcpy(rnd, window.randomness, 32);
	rnd[0] ^= 1;
	rc = verify_post(&window, 0, rnd, window.sectors, window.n_sectors, window.want.data, window.want.len, NULL);
	CHECK(rc == CUSEAL_POREP_INVALID, "window other randomness: rc %d", rc);
	rc = verify_post(&window, 0, window.randomness, window.sectors, window.n_sectors, window.want.data, 191, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg != NULL, "window truncated: rc %d", rc);
	print_msg("MSG_WINDOW_TRUNCATED_PROOF", msg);
	rc = verify_post(&window, 0, window.randomness, NULL, 2, window.want.data, window.want.len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg && strstr(msg, "sectors is NULL") != NULL, "NULL sectors: rc %d", rc);
	cuseal_porep_string_free(msg);

	rc = verify_post(&winning, 1, winning.randomness, winning.sectors, winning.n_sectors, winning.want.data,
	                 winning.want.len, &msg);
	CHECK(rc == CUSEAL_POREP_OK && msg == NULL, "verify winning: rc %d %s", rc, msg ? msg : "");
	cuseal_porep_string_free(msg);
	bad = swap_ac(winning.want);
	rc = verify_post(&winning, 1, winning.randomness, winning.sectors, winning.n_sectors, bad, winning.want.len, NULL);
	CHECK(rc == CUSEAL_POREP_INVALID, "winning A/C swapped: rc %d", rc);
	free(bad);

	rc = verify_update(update.want.data, update.want.len, update.comm_r_old, update.comm_r_new, &msg);
	CHECK(rc == CUSEAL_POREP_OK && msg == NULL, "verify update: rc %d %s", rc, msg ? msg : "");
	cuseal_porep_string_free(msg);
	rc = verify_update(update.want.data, update.want.len, update.comm_r_new, update.comm_r_old, NULL);
	CHECK(rc == CUSEAL_POREP_INVALID, "update commitments swapped: rc %d", rc);
	rc = verify_update(update.want.data, update.want.len, NULL, update.comm_r_new, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg && strstr(msg, "comm_r_old is NULL") != NULL, "NULL comm_r_old: rc %d", rc);
	cuseal_porep_string_free(msg);

	rc = verify_agg(agg.want.data, agg.want.len, agg.inputs, &msg);
	CHECK(rc == CUSEAL_POREP_OK && msg == NULL, "verify aggregate: rc %d %s", rc, msg ? msg : "");
	cuseal_porep_string_free(msg);
	swapped[0] = agg.inputs[1];
	swapped[1] = agg.inputs[0];
	rc = verify_agg(agg.want.data, agg.want.len, swapped, NULL);
	CHECK(rc == CUSEAL_POREP_INVALID, "aggregate inputs swapped: rc %d", rc);
	rc = verify_agg(agg.want.data, 100, agg.inputs, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg != NULL, "aggregate truncated: rc %d", rc);
	print_msg("MSG_AGG_TRUNCATED", msg);
}

static void aggregate_checks(void) {
	cuseal_porep_bytes proofs[MAX_ITEMS], swapped[2];
	cuseal_porep_options o;
	uint8_t* out = NULL;
	size_t len = 0;
	char* msg = NULL;
	int rc;
	bytes_of(agg.proofs, agg.n, proofs);
	options(&o);
	rc = cuseal_porep_aggregate_seal_proofs(agg.proof, SNARKPACK_V2, agg.miner, agg.inputs, proofs, agg.n, &o, &out, &len,
	                                        &msg);
	CHECK(rc == CUSEAL_POREP_OK && msg == NULL && equal(out, len, agg.want), "aggregate: rc %d, %zu bytes %s", rc, len,
	      msg ? msg : "");
	cuseal_porep_proof_free(out);
	cuseal_porep_string_free(msg);
	/* Proofs given for the wrong sectors: the aggregate does not verify. */
	swapped[0] = proofs[1];
	swapped[1] = proofs[0];
	out = (uint8_t*)1;
	rc = cuseal_porep_aggregate_seal_proofs(agg.proof, SNARKPACK_V2, agg.miner, agg.inputs, swapped, 2, &o, &out, &len, &msg);
	CHECK(rc == CUSEAL_POREP_INVALID && out == NULL && len == 0 && msg != NULL, "aggregate of swapped proofs: rc %d", rc);
	print_msg("MSG_AGG_SWAPPED", msg);
	/* SnarkPack V1 is not offered. */
	rc = cuseal_porep_aggregate_seal_proofs(agg.proof, 0, agg.miner, agg.inputs, proofs, agg.n, &o, &out, &len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && out == NULL && msg != NULL, "SnarkPackV1: rc %d", rc);
	cuseal_porep_string_free(msg);
}

static void prover_bad_input(void) {
	cuseal_porep_bytes vs[MAX_ITEMS];
	cuseal_porep_options o;
	cuseal_porep_cancel* cancel;
	uint8_t* out = NULL;
	uint8_t* corrupted;
	size_t len = 0;
	char* msg = NULL;
	int rc;

	options(&o);
	/* Vanilla proof 1 truncated to 100 bytes. */
	bytes_of(window.vanilla, window.n_vanilla, vs);
	vs[1].len = 100;
	out = (uint8_t*)1;
	rc = cuseal_porep_generate_window_post_with_vanilla(window.proof, window.randomness, 32, window.miner, vs,
	                                                    window.n_vanilla, &o, &out, &len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && out == NULL && len == 0 && msg != NULL, "truncated vanilla: rc %d", rc);
	print_msg("MSG_WINDOW_TRUNCATED_VANILLA", msg);
	/* Out of order. */
	vs[0].ptr = window.vanilla[1].data;
	vs[0].len = window.vanilla[1].len;
	vs[1].ptr = window.vanilla[0].data;
	vs[1].len = window.vanilla[0].len;
	rc = cuseal_porep_generate_window_post_with_vanilla(window.proof, window.randomness, 32, window.miner, vs,
	                                                    window.n_vanilla, &o, &out, &len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg != NULL, "vanilla out of order: rc %d", rc);
	print_msg("MSG_WINDOW_OUT_OF_ORDER", msg);
	/* A NULL entry. */
	bytes_of(window.vanilla, window.n_vanilla, vs);
	vs[1].ptr = NULL;
	rc = cuseal_porep_generate_single_window_post_with_vanilla(window.proof, window.randomness, 32, window.miner, vs,
	                                                           window.n_vanilla, 0, &o, &out, &len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg != NULL, "NULL vanilla entry: rc %d", rc);
	print_msg("MSG_NULL_ENTRY", msg);
	/* The window vanilla proof given to WinningPoSt. */
	bytes_of(window.vanilla, 1, vs);
	rc = cuseal_porep_generate_winning_post_with_vanilla(winning.proof, winning.randomness, 32, winning.miner, vs, 1, &o,
	                                                     &out, &len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg != NULL, "window vanilla for winning: rc %d", rc);
	print_msg("MSG_WINNING_WRONG_VANILLA", msg);
	/* NULL outputs. */
	bytes_of(winning.vanilla, 1, vs);
	rc = cuseal_porep_generate_winning_post_with_vanilla(winning.proof, winning.randomness, 32, winning.miner, vs, 1, &o,
	                                                     NULL, &len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && msg && strstr(msg, "proof_out") != NULL, "NULL proof_out: rc %d", rc);
	cuseal_porep_string_free(msg);
	/* SnapDeals: one byte of the vanilla proof changed. */
	corrupted = (uint8_t*)malloc(update.vanilla.len);
	memcpy(corrupted, update.vanilla.data, update.vanilla.len);
	corrupted[1000] ^= 1;
	vs[0].ptr = corrupted;
	vs[0].len = update.vanilla.len;
	rc = cuseal_porep_generate_empty_sector_update_proof_with_vanilla(update.proof, vs, 1, update.comm_r_old,
	                                                                  update.comm_r_new, update.comm_d_new, &o, &out, &len,
	                                                                  &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && out == NULL && msg != NULL, "corrupted update vanilla: rc %d", rc);
	print_msg("MSG_UPDATE_CORRUPTED", msg);
	free(corrupted);
	/* Merge: a partition proof of 100 bytes. */
	vs[0].ptr = window.want.data;
	vs[0].len = 100;
	rc = cuseal_porep_merge_window_post_partition_proofs(window.proof, vs, 1, &out, &len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_BAD_INPUT && out == NULL && msg != NULL, "merge short: rc %d", rc);
	print_msg("MSG_MERGE_SHORT", msg);

	/* A cancel handle triggered before the calls. */
	cancel = cuseal_porep_cancel_new();
	cuseal_porep_cancel_trigger(cancel);
	o.cancel = cancel;
	bytes_of(window.vanilla, window.n_vanilla, vs);
	rc = cuseal_porep_generate_window_post_with_vanilla(window.proof, window.randomness, 32, window.miner, vs,
	                                                    window.n_vanilla, &o, &out, &len, &msg);
	CHECK(rc == CUSEAL_POREP_ERR_CANCELLED && out == NULL && msg != NULL, "pre-cancelled window: rc %d", rc);
	cuseal_porep_string_free(msg);
	vs[0].ptr = update.vanilla.data;
	vs[0].len = update.vanilla.len;
	rc = cuseal_porep_generate_empty_sector_update_proof_with_vanilla(update.proof, vs, 1, update.comm_r_old,
	                                                                  update.comm_r_new, update.comm_d_new, &o, &out, &len,
	                                                                  &msg);
	CHECK(rc == CUSEAL_POREP_ERR_CANCELLED && out == NULL, "pre-cancelled update: rc %d", rc);
	cuseal_porep_string_free(msg);
	rc = cuseal_porep_verify_window_post(window.proof, window.randomness, 32, window.sectors, window.n_sectors,
	                                     window.want.data, window.want.len, window.miner, &o, NULL);
	CHECK(rc == CUSEAL_POREP_ERR_CANCELLED, "pre-cancelled verify: rc %d", rc);
	cuseal_porep_cancel_free(cancel);
}

/* ---- concurrent verification ---- */

static void* verify_all_thread(void* arg) {
	int* ok = (int*)arg;
	int i;
	*ok = 1;
	for (i = 0; i < 3; i++) {
		*ok &= verify_post(&window, 0, window.randomness, window.sectors, window.n_sectors, window.want.data,
		                   window.want.len, NULL) == CUSEAL_POREP_OK;
		*ok &= verify_post(&winning, 1, winning.randomness, winning.sectors, winning.n_sectors, winning.want.data,
		                   winning.want.len, NULL) == CUSEAL_POREP_OK;
		*ok &= verify_update(update.want.data, update.want.len, update.comm_r_old, update.comm_r_new, NULL) ==
		       CUSEAL_POREP_OK;
		*ok &= verify_agg(agg.want.data, agg.want.len, agg.inputs, NULL) == CUSEAL_POREP_OK;
	}
	return NULL;
}

static void concurrent_verify(void) {
	pthread_t th[4];
	int ok[4], i;
	for (i = 0; i < 4; i++) {
		pthread_create(&th[i], NULL, verify_all_thread, &ok[i]);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		CHECK(ok[i], "concurrent verification in thread %d failed", i);
	}
}

/* ---- long: proofs of each kind ---- */

struct prove_call {
	const post_vector* v;
	int is_winning;
	int rc;
	uint8_t* out;
	size_t len;
	char* msg;
	double seconds;
};

static void* prove_post_thread(void* arg) {
	struct prove_call* c = (struct prove_call*)arg;
	cuseal_porep_bytes vs[MAX_ITEMS];
	cuseal_porep_options o;
	double t0 = now();
	options(&o);
	bytes_of(c->v->vanilla, c->v->n_vanilla, vs);
	if (c->is_winning) {
		c->rc = cuseal_porep_generate_winning_post_with_vanilla(c->v->proof, c->v->randomness, 32, c->v->miner, vs,
		                                                        c->v->n_vanilla, &o, &c->out, &c->len, &c->msg);
	} else {
		c->rc = cuseal_porep_generate_window_post_with_vanilla(c->v->proof, c->v->randomness, 32, c->v->miner, vs,
		                                                       c->v->n_vanilla, &o, &c->out, &c->len, &c->msg);
	}
	c->seconds = now() - t0;
	return NULL;
}

struct update_call {
	cuseal_porep_cancel* cancel;
	int rc;
	uint8_t* out;
	size_t len;
	char* msg;
};

static void* update_thread(void* arg) {
	struct update_call* c = (struct update_call*)arg;
	cuseal_porep_bytes vs[1];
	cuseal_porep_options o;
	options(&o);
	o.cancel = c->cancel;
	vs[0].ptr = update.vanilla.data;
	vs[0].len = update.vanilla.len;
	c->rc = cuseal_porep_generate_empty_sector_update_proof_with_vanilla(update.proof, vs, 1, update.comm_r_old,
	                                                                     update.comm_r_new, update.comm_d_new, &o, &c->out,
	                                                                     &c->len, &c->msg);
	return NULL;
}

static void prove_checks(void) {
	struct prove_call calls[2];
	struct update_call up;
	pthread_t th[2];
	cuseal_porep_bytes vs[MAX_ITEMS], part[1];
	cuseal_porep_options o;
	uint8_t *single = NULL, *merged = NULL;
	size_t single_len = 0, merged_len = 0;
	char* msg = NULL;
	int rc, i;
	double t0;
	struct timespec one_s = {1, 0};

	/* WindowPoSt and WinningPoSt at once, from two threads. */
	memset(calls, 0, sizeof calls);
	calls[0].v = &window;
	calls[1].v = &winning;
	calls[1].is_winning = 1;
	for (i = 0; i < 2; i++) {
		pthread_create(&th[i], NULL, prove_post_thread, &calls[i]);
	}
	for (i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		CHECK(calls[i].rc == CUSEAL_POREP_OK && calls[i].msg == NULL, "%s proof: rc %d %s",
		      i ? "winning" : "window", calls[i].rc, calls[i].msg ? calls[i].msg : "");
		fprintf(stderr, "%s proof: %.1f s\n", i ? "winning" : "window", calls[i].seconds);
		print_hex(i ? "PROOF_WINNING" : "PROOF_WINDOW", calls[i].out, calls[i].len);
		CHECK(equal(calls[i].out, calls[i].len, calls[i].v->want), "%s proof differs from rust-fil-proofs'",
		      i ? "winning" : "window");
		cuseal_porep_string_free(calls[i].msg);
	}
	if (calls[0].rc == CUSEAL_POREP_OK) {
		rc = verify_post(&window, 0, window.randomness, window.sectors, window.n_sectors, calls[0].out, calls[0].len, NULL);
		CHECK(rc == CUSEAL_POREP_OK, "verify the window proof: rc %d", rc);
	}
	if (calls[1].rc == CUSEAL_POREP_OK) {
		rc = verify_post(&winning, 1, winning.randomness, winning.sectors, winning.n_sectors, calls[1].out, calls[1].len,
		                 NULL);
		CHECK(rc == CUSEAL_POREP_OK, "verify the winning proof: rc %d", rc);
	}

	/* One partition (the only one: the same bytes), then merged. */
	options(&o);
	bytes_of(window.vanilla, window.n_vanilla, vs);
	rc = cuseal_porep_generate_single_window_post_with_vanilla(window.proof, window.randomness, 32, window.miner, vs,
	                                                           window.n_vanilla, 0, &o, &single, &single_len, &msg);
	CHECK(rc == CUSEAL_POREP_OK && equal(single, single_len, window.want), "single partition: rc %d %s", rc,
	      msg ? msg : "");
	cuseal_porep_string_free(msg);
	part[0].ptr = single;
	part[0].len = single_len;
	rc = cuseal_porep_merge_window_post_partition_proofs(window.proof, part, 1, &merged, &merged_len, &msg);
	CHECK(rc == CUSEAL_POREP_OK && equal(merged, merged_len, window.want), "merge: rc %d %s", rc, msg ? msg : "");
	cuseal_porep_string_free(msg);
	cuseal_porep_proof_free(single);
	cuseal_porep_proof_free(merged);
	for (i = 0; i < 2; i++) {
		cuseal_porep_proof_free(calls[i].out);
	}

	/* SnapDeals. */
	memset(&up, 0, sizeof up);
	update_thread(&up);
	CHECK(up.rc == CUSEAL_POREP_OK && equal(up.out, up.len, update.want), "update proof: rc %d %s", up.rc,
	      up.msg ? up.msg : "");
	print_hex("PROOF_UPDATE", up.out, up.len);
	if (up.rc == CUSEAL_POREP_OK) {
		rc = verify_update(up.out, up.len, update.comm_r_old, update.comm_r_new, NULL);
		CHECK(rc == CUSEAL_POREP_OK, "verify the update proof: rc %d", rc);
	}
	cuseal_porep_proof_free(up.out);
	cuseal_porep_string_free(up.msg);

	/* A SnapDeals proof cancelled from another thread after 1 s. */
	memset(&up, 0, sizeof up);
	up.cancel = cuseal_porep_cancel_new();
	pthread_create(&th[0], NULL, update_thread, &up);
	nanosleep(&one_s, NULL);
	t0 = now();
	cuseal_porep_cancel_trigger(up.cancel);
	pthread_join(th[0], NULL);
	fprintf(stderr, "cancel: returned %.2f s after the trigger: %d %s\n", now() - t0, up.rc, up.msg ? up.msg : "");
	CHECK(up.rc == CUSEAL_POREP_ERR_CANCELLED && up.out == NULL && up.msg != NULL, "cancelled update: rc %d", up.rc);
	printf("CANCEL_SECONDS=%.3f\n", now() - t0);
	cuseal_porep_string_free(up.msg);
	cuseal_porep_cancel_free(up.cancel);
}

int main(int argc, char** argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: %s MANIFEST\n", argv[0]);
		return 2;
	}
	read_manifest(argv[1]);
	if (window.n_vanilla != 2 || winning.n_vanilla != 1 || agg.n != 2 || update.vanilla.len == 0 || params_dir[0] == 0) {
		fprintf(stderr, "manifest: incomplete\n");
		return 2;
	}
	CHECK(cuseal_porep_abi_version() >= CUSEAL_POREP_ABI_VERSION, "abi version %u", cuseal_porep_abi_version());
	challenges();
	verify_checks();
	aggregate_checks();
	prover_bad_input();
	concurrent_verify();
	if (long_tier) {
		prove_checks();
	}
	if (failures) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("OK\n");
	return 0;
}
