// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package hostmem is the one home of the host's memory facts: MemTotal and
// MemAvailable (the kernel's meminfo), the cgroup memory limit (v2 memory.max, else
// v1 memory.limit_in_bytes) and the address-space limit (RLIMIT_AS), and
// the least of them a new allocation can count on (Limit). Each is read
// afresh at every call; where a fact cannot be read (not Linux, no cgroup
// limit) its function reports false, and callers then skip the check.
package hostmem
