// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package testcs is a constraint system for tests: it records like
// porep/cs's Recorder and keeps every variable's value, so a test can check
// that a circuit is satisfied, name the first constraint that is not, and
// change values (bellpepper util_cs/test_cs.rs TestConstraintSystem). Only
// _test.go files import it.
package testcs
