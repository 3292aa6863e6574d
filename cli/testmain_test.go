// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
	"github.com/cuseal/cuseal/testsupport/testprover"
)

// TestMain keeps the tests' parameter digests out of the user's cache directory. With
// CUSEAL_TEST_AS_CUSEAL=1 the test binary is the cuseal command instead (its arguments are
// cuseal's), for tests that need a separate process (serve: signals, kill -9); it knows the
// reference prover doubles (--backend reference, reference-any-rs: testsupport/testprover) and,
// with CUSEAL_TEST_SERVE_SIM, serves a simulated kind (simServe).
func TestMain(m *testing.M) {
	if os.Getenv("CUSEAL_TEST_AS_CUSEAL") == "1" {
		if err := testprover.RegisterMain(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		app := newApp(os.Stdout, os.Stderr)
		if sim := os.Getenv("CUSEAL_TEST_SERVE_SIM"); sim != "" {
			edit, err := simServe(sim)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			for _, cmd := range app.Commands {
				if cmd.Name == "serve" {
					cmd.Action = serveWith(func(cfg engine.Config) (*engine.Engine, error) {
						edit(&cfg)
						return engine.New(cfg)
					})
				}
			}
		}
		os.Exit(exitCode(app.Run(append([]string{"cuseal"}, os.Args[1:]...)), os.Stderr))
	}
	if os.Getenv("CUSEAL_DIGEST_CACHE") == "" {
		os.Setenv("CUSEAL_DIGEST_CACHE", "off")
	}
	os.Exit(m.Run())
}

// simServe parses "PARTITIONS,TIME[,uninterruptible|leak]": serve's engine
// proves POREP_SEAL_COMMIT as enginetest's simulated kind of PARTITIONS
// partitions, each synthesized in a tenth of TIME and proven in TIME on
// one simulated device named "double" (uninterruptible: its partition
// ignores cancellation, as a backend stage does; leak: a 1 GiB device
// that loses 300 MiB of free memory per proof, enginetest.LeakyDevice).
func simServe(sim string) (func(*engine.Config), error) {
	f := strings.Split(sim, ",")
	n, err := strconv.Atoi(f[0])
	if err != nil || len(f) < 2 || len(f) > 3 || (len(f) == 3 && f[2] != "uninterruptible" && f[2] != "leak") {
		return nil, fmt.Errorf("CUSEAL_TEST_SERVE_SIM %q: want PARTITIONS,TIME[,uninterruptible|leak]", sim)
	}
	d, err := time.ParseDuration(f[1])
	if err != nil {
		return nil, fmt.Errorf("CUSEAL_TEST_SERVE_SIM %q: %v", sim, err)
	}
	return func(cfg *engine.Config) {
		cfg.Families = map[engine.Kind]engine.Family{engine.KindPoRepC2: &enginetest.Family{Partitions: n, SynthesisTime: d / 10}}
		if len(f) == 3 && f[2] == "leak" {
			cfg.Provers = []engine.Prover{&enginetest.LeakyDevice{Prover: enginetest.Prover{PerPartition: d}, Total: 1 << 30, Leak: 300 << 20}}
			return
		}
		cfg.Provers = []engine.Prover{&enginetest.Prover{PerPartition: d, IgnoreCancel: len(f) == 3}}
	}, nil
}
