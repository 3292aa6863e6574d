// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package archtest holds TestImportRules, which checks cuseal's import graph
// against the package table in docs/architecture.md ("Rooms (packages) and
// what each may touch") for every build-tag combination cuseal ships. It
// has no code of its own: the table is the rule, the test its guard.
package archtest
