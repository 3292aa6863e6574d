// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/aggregate"
	"github.com/cuseal/cuseal/porep/groth16"
)

// defaultSRSSize covers ProveCommitAggregate's largest batch (819 sectors ×
// 10 partitions → 8192 proofs); the file is ~4.7 MB.
const defaultSRSSize = 8192

type paramsSRSOutput struct {
	SRS        string  `json:"srs"`
	Size       int     `json:"size"`
	Bytes      int64   `json:"bytes"`
	Digest     string  `json:"digest"` // first 16 bytes of BLAKE2b-512, as srs-inner-product.json
	Seed       string  `json:"seed"`   // hex
	Seconds    float64 `json:"seconds"`
	NotForProd bool    `json:"not_for_production"`
}

// paramsGenerateSRS is `params generate --srs`: the test SRS of
// docs/digests.md §7 (cuseal-srs-v1) from --seed, for --srs-size proofs,
// written as --out/v28-fil-inner-product-v1.srs; an existing SRS is never
// overwritten.
func paramsGenerateSRS(c *cli.Context) (err error) {
	seed, err := parseParamsSeed(c.String("seed"))
	if err != nil {
		return inputError(err)
	}
	n := c.Int("srs-size")
	if n < 2 || n&(n-1) != 0 || 2*n > aggregate.MaxSRSSize {
		return usageErrorf("--srs-size %d: want a power of two in [2, %d]", n, (aggregate.MaxSRSSize-1)/2)
	}
	dir := c.String("out")
	if dir == "" {
		return usageErrorf("--out is required")
	}
	if reason := productionDirReason(dir); reason != "" && !c.Bool("force") {
		return usageErrorf("--out %s: refusing to write a TEST SRS there: %s, and aggregates made with a test SRS are rejected on chain; choose another --out (or pass --force)", dir, reason)
	}
	removeCreated, err := mkdirAllTracked(dir)
	if err != nil {
		return inputError(fmt.Errorf("--out: %w", fileError(err)))
	}
	// A failed or interrupted run leaves no directory it created behind.
	defer func() {
		if err != nil {
			removeCreated()
		}
	}()
	path := filepath.Join(dir, aggregate.SRSFileName)
	if _, err = os.Lstat(path); err == nil {
		return usageErrorf("--out: %s exists; refusing to overwrite an SRS", path)
	}
	if err = checkWritableDir(dir); err != nil {
		return err
	}
	fmt.Fprintln(c.App.ErrWriter, notForProduction)
	start := time.Now()
	// Ctrl-C or SIGTERM while the SRS is computed (it cannot be cancelled) returns at once;
	// the file is written afterwards, on this goroutine, and removed if a signal came in
	// meanwhile, so an interrupted run leaves nothing behind.
	ctx, stop := interruptible(c)
	defer stop()
	type result struct {
		srs *aggregate.GenericSRS
		err error
	}
	done := make(chan result, 1)
	go func() {
		s, err := aggregate.GenerateTestSRS(seed, n)
		done <- result{s, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		err = internalError(fmt.Errorf("params generate --srs: interrupted (%v); removed its partial files", context.Cause(ctx)))
		return err
	}
	if r.err != nil {
		err = internalError(r.err)
		return err
	}
	if _, err = aggregate.WriteSRSFile(dir, r.srs); err != nil {
		err = internalError(err)
		return err
	}
	if interruptedBySignal(c, ctx) {
		os.Remove(path)
		err = internalError(fmt.Errorf("params generate --srs: interrupted (%v); removed its partial files", context.Cause(ctx)))
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return internalError(err)
	}
	digest, err := groth16.FileDigest(path)
	if err != nil {
		return internalError(err)
	}
	out := paramsSRSOutput{SRS: path, Size: n, Bytes: st.Size(), Digest: digest, Seed: hex.EncodeToString(seed[:]),
		Seconds: time.Since(start).Seconds(), NotForProd: true}
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	printf(c, "generated a TEST SnarkPack SRS for up to %d proofs in %.1fs — NOT FOR PRODUCTION\n  srs:    %s (%d bytes, digest %s)\n  seed:   %s\n",
		n, out.Seconds, path, out.Bytes, out.Digest, out.Seed)
	return nil
}
