// SPDX-License-Identifier: Apache-2.0 OR MIT

// error.hpp: the one exception type native code throws. capi.cpp converts it
// (and any other std::exception) into a cuseal_error; nothing unwinds past it.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "cuseal_native.h"

namespace cuseal {

// error carries a cuseal_error code (CUSEAL_ERR_*) and a message.
class error : public std::runtime_error {
public:
	error(int code, const std::string& msg) : std::runtime_error(msg), code_(code) {}
	int code() const noexcept { return code_; }

private:
	int code_;
};

// fail throws cuseal::error with a printf-style message.
[[noreturn]] inline void fail(int code, const char* fmt, ...)
	__attribute__((format(printf, 2, 3)));

[[noreturn]] inline void fail(int code, const char* fmt, ...) {
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	std::vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	throw error(code, buf);
}

} // namespace cuseal
