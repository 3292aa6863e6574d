// SPDX-License-Identifier: Apache-2.0 OR MIT

// Empty: this crate exists only so cargo resolves and fetches sppark (see Cargo.toml).
