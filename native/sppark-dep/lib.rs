// Empty: this crate exists only so cargo resolves and fetches sppark (see Cargo.toml).
