// SPDX-License-Identifier: Apache-2.0 OR MIT

package service

// FormatSeconds is the page's duration format, for the tests of
// package service_test (the Go one and the script's must agree).
var FormatSeconds = formatSeconds
