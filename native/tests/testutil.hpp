// SPDX-License-Identifier: Apache-2.0 OR MIT

// testutil.hpp: minimal test harness for the native CTest suite: vector file
// reader (format written by tools/vectors) and CHECK macros that count
// failures. A test binary returns 0 on success, 1 on failure, 77 to skip.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace testutil {

inline int failures = 0;
inline int checks = 0;

#define CHECK(cond, ...)                                                     \
	do {                                                                     \
		++testutil::checks;                                                  \
		if (!(cond)) {                                                       \
			++testutil::failures;                                            \
			std::fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
			std::fprintf(stderr, __VA_ARGS__);                               \
			std::fprintf(stderr, "\n");                                      \
			if (testutil::failures > 20) std::exit(1);                       \
		}                                                                    \
	} while (0)

// vectors holds the records of one testdata/native file.
struct vectors {
	uint64_t count = 0, size = 0;
	std::vector<uint8_t> data;
	const uint8_t* rec(uint64_t i) const { return data.data() + i * size; }
	template <class T>
	T get(uint64_t i, size_t offset) const {
		T v;
		std::memcpy(&v, rec(i) + offset, sizeof v);
		return v;
	}
};

inline std::string dir = "testdata/native";

inline vectors load(const std::string& name, uint64_t want_size) {
	std::string path = dir + "/" + name;
	FILE* f = std::fopen(path.c_str(), "rb");
	if (!f) {
		std::fprintf(stderr, "cannot open %s (run from the repository root or pass the testdata dir)\n", path.c_str());
		std::exit(1);
	}
	char magic[8];
	vectors v;
	if (std::fread(magic, 1, 8, f) != 8 || std::memcmp(magic, "CUSEALV1", 8) != 0 ||
	    std::fread(&v.count, 8, 1, f) != 1 || std::fread(&v.size, 8, 1, f) != 1) {
		std::fprintf(stderr, "%s: bad header\n", path.c_str());
		std::exit(1);
	}
	if (v.size != want_size) {
		std::fprintf(stderr, "%s: record size %llu, want %llu\n", path.c_str(), (unsigned long long)v.size,
		             (unsigned long long)want_size);
		std::exit(1);
	}
	v.data.resize(v.count * v.size);
	if (std::fread(v.data.data(), 1, v.data.size(), f) != v.data.size()) {
		std::fprintf(stderr, "%s: truncated (%llu records of %llu bytes)\n", path.c_str(), (unsigned long long)v.count,
		             (unsigned long long)v.size);
		std::exit(1);
	}
	std::fclose(f);
	return v;
}

inline void init(int argc, char** argv) {
	if (argc > 1) dir = argv[1];
}

inline int finish(const char* name) {
	if (failures) {
		std::fprintf(stderr, "%s: %d of %d checks failed\n", name, failures, checks);
		return 1;
	}
	std::printf("%s: %d checks passed\n", name, checks);
	return 0;
}

template <class T>
std::string hex(const T& x) {
	static const char* d = "0123456789abcdef";
	const uint8_t* p = reinterpret_cast<const uint8_t*>(&x);
	std::string s;
	for (size_t i = sizeof(T); i-- > 0;) {
		s += d[p[i] >> 4];
		s += d[p[i] & 15];
	}
	return s;
}

// splitmix64: deterministic pseudo-random source for property tests.
struct rng {
	uint64_t s;
	explicit rng(uint64_t seed) : s(seed) {}
	uint64_t next() {
		uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		return z ^ (z >> 31);
	}
};

} // namespace testutil
