// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// paramsCommand groups the Groth16 parameter commands.
func paramsCommand() *cli.Command {
	return &cli.Command{
		Name:  "params",
		Usage: "Groth16 parameters: generate test parameters, describe a .params or .vk file",
		Subcommands: []*cli.Command{
			paramsGenerateCommand(),
			paramsInfoCommand(),
		},
	}
}

// paramsFileInfo is what `cuseal params info --json` prints.
type paramsFileInfo struct {
	File      string `json:"file"`
	Kind      string `json:"kind"` // "params" or "vk"
	SizeBytes int64  `json:"size_bytes"`
	Digest    string `json:"digest"` // Filecoin parameter digest: BLAKE2b-512[:16], hex
	// Status is paramfile.ParamsStatus: "official" (digest as in rust-fil-proofs 19.1.0's
	// parameters.json), "test" (cuseal test stamp), "mismatch" (an official name with
	// another digest) or "unknown".
	Status         string `json:"status"`
	StatusLine     string `json:"status_line"`
	OfficialDigest string `json:"official_digest,omitempty"`
	OfficialCID    string `json:"official_cid,omitempty"`
	Stamp          string `json:"stamp,omitempty"`
	// Circuit and SectorSize name the proof the file is for, read off its file name in the
	// official table (empty and 0 for a name not in it).
	Circuit    string        `json:"circuit,omitempty"`
	SectorSize uint64        `json:"sector_size,omitempty"`
	Inputs     int           `json:"inputs"` // public inputs, ONE included (|ic|)
	DomainSize int           `json:"domain_size,omitempty"`
	Queries    []paramsQuery `json:"queries,omitempty"`
}

// paramsQuery describes one query vector of a .params file.
type paramsQuery struct {
	Name      string `json:"name"`
	Count     int    `json:"count"`
	Offset    int64  `json:"offset"`
	SizeBytes int64  `json:"size_bytes"`
}

func paramsInfoCommand() *cli.Command {
	return &cli.Command{
		Name:      "info",
		Usage:     "describe a .params or .vk file: counts, section sizes, digest",
		ArgsUsage: "FILE",
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one JSON object"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErrorf("params info: want exactly one FILE argument, got %d", c.NArg())
			}
			info, err := describeParamsFile(c.Args().First(), c.App.ErrWriter)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(info)
			}
			printParamsInfo(c, info)
			return nil
		},
	}
}

// describeParamsFile opens path as a .vk file when its name ends in ".vk", else as a .params
// file, and summarizes it without decoding the query points.
func describeParamsFile(path string, stderr io.Writer) (*paramsFileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, inputError(fileError(err))
	}
	if st.IsDir() {
		return nil, usageErrorf("%s: is a directory, want a .params or .vk file", path)
	}
	info := &paramsFileInfo{File: path, SizeBytes: st.Size()}
	if strings.HasSuffix(path, ".vk") {
		vk, err := groth16.ReadVerifyingKeyFile(path)
		if err != nil {
			return nil, inputError(err)
		}
		info.Kind = "vk"
		info.Inputs = len(vk.IC)
	} else {
		p, err := groth16.OpenParams(path, false)
		if err != nil {
			return nil, inputError(err)
		}
		defer p.Close()
		info.Kind = "params"
		info.Inputs = len(p.VK.IC)
		info.DomainSize = p.DomainSize()
		for _, s := range p.Sections() {
			info.Queries = append(info.Queries, paramsQuery{
				Name: s.Name, Count: s.Count, Offset: s.Offset, SizeBytes: int64(s.Count) * int64(s.ElemSize),
			})
		}
	}
	// Hashing a 32 GiB .params file (47 GB) takes minutes: show it.
	bar := newPhaseProgress(stderr, -1, "params info")
	opts := []paramfile.Option{paramfile.WithProgress(func(ev paramfile.Event) {
		if (bar == nil || bar.bar != nil || ev.Done == 0) && ev.Total > 1<<30 {
			bar.Phase(fmt.Sprintf("hashing: %s of %s", humanBytes(uint64(ev.Done)), humanBytes(uint64(ev.Total))))
		}
	})}
	if f := digestCacheFile(); f != "" {
		opts = append(opts, paramfile.WithDigestCacheFile(f))
	}
	ps, err := paramfile.ParamsStatus(path, opts...)
	bar.Done()
	if err != nil {
		return nil, inputError(err)
	}
	info.Digest, info.Status, info.StatusLine, info.Stamp = ps.Digest, ps.State.String(), ps.Describe(), ps.Stamp
	if ps.Official != nil {
		info.OfficialDigest, info.OfficialCID = ps.Official.Digest, ps.Official.CID
	}
	info.Circuit, info.SectorSize = circuitOf(path)
	return info, nil
}

// circuitOf names the proof a parameter file is for, from its name in the official table:
// the kind (from the name's circuit identifier prefix) and the sector size.
func circuitOf(path string) (string, uint64) {
	e, ok := paramfile.LookupOfficialParam(path)
	if !ok || e.SectorSize == 0 {
		return "", 0
	}
	kind := "unknown circuit"
	for _, k := range []struct{ prefix, name string }{
		{"v28-stacked-proof-of-replication-", "PoRep (Stacked DRG)"},
		{"v28-proof-of-spacetime-fallback-", "PoSt (fallback)"},
		{"v28-empty-sector-update-", "SnapDeals (empty sector update)"},
	} {
		if strings.HasPrefix(filepath.Base(path), k.prefix) {
			kind = k.name
			break
		}
	}
	for _, cfg := range post.Configs() { // one file pair per registered PoSt proof
		if strings.HasPrefix(filepath.Base(path), cfg.ParameterFileStem()+".") {
			kind = fmt.Sprintf("%sPoSt (%s)", cfg.Kind, cfg.Name)
		}
	}
	for _, cfg := range update.Configs() { // one file pair per registered update proof
		if strings.HasPrefix(filepath.Base(path), cfg.ParameterFileStem()+".") {
			kind = fmt.Sprintf("SnapDeals update (%s)", cfg.Name)
		}
	}
	return kind + ", " + stacked.SizeLabel(e.SectorSize) + " sectors", e.SectorSize
}

func printParamsInfo(c *cli.Context, info *paramsFileInfo) {
	printf(c, "%s\n", info.File)
	printf(c, "  kind:    %s\n", info.Kind)
	printf(c, "  size:    %d bytes (%s)\n", info.SizeBytes, humanBytes(uint64(info.SizeBytes)))
	printf(c, "  digest:  %s\n", info.Digest)
	printf(c, "  status:  %s\n", statusText(info))
	if info.Circuit != "" {
		printf(c, "  circuit: %s (by file name)\n", info.Circuit)
	}
	printf(c, "  inputs:  %d (ONE included)\n", info.Inputs)
	if info.Kind == "params" {
		printf(c, "  domain:  %d\n", info.DomainSize)
		for _, q := range info.Queries {
			printf(c, "  %-5s    %10d points  %s at offset %d\n", q.Name, q.Count, humanBytes(uint64(q.SizeBytes)), q.Offset)
		}
	}
}

// statusText is the status line of params info: what the digest says about the file.
func statusText(info *paramsFileInfo) string {
	switch info.Status {
	case "official":
		return "official (digest as in " + paramfile.OfficialParamsVersion + ", CID " + info.OfficialCID + ")"
	case "test":
		return "TEST parameters (cuseal stamp " + info.Stamp + "): proofs will not verify on chain"
	case "mismatch":
		return "MISMATCH: the official digest of this name is " + info.OfficialDigest + " (corrupt, truncated or foreign file)"
	}
	return "unknown (not in the official table, no cuseal test stamp)"
}
