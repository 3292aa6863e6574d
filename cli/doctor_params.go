// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

// doctor's rows for the parameter files: present, whole, one setup's, no
// abandoned temporary files, and (with --digests) the official digests.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/internal/atomicfile"
	"github.com/cuseal/cuseal/porep/paramfile"
)

// fetchRemedy is how to get the official parameter files of a sector size into dir.
func fetchRemedy(dir, size string) string {
	return fmt.Sprintf("fetch them: curio fetch-params %s (or lotus fetch-params %s) with FIL_PROOFS_PARAMETER_CACHE=%s, or point --params-dir at where they are", size, size, dir)
}

// doctorParams checks one circuit's .params and .vk: present and readable, the .meta's sector
// size and the .params's shape (paramfile.LoadParams: header only), the .vk's shape
// (paramfile.LoadVK) and its key against the .params's (paramfile.LoadProvingKeys), test-stamped or not, and with --digests the
// digest against the official table.
func doctorParams(c *cli.Context, dir, size string, dc doctorCircuit) []doctorRow {
	pp, vp, _ := dc.c.ParameterPaths(dir)
	check := "params " + dc.kind
	var rows []doctorRow
	fileRow := func(what, path string) bool {
		_, err := paramfile.StatID(path)
		switch {
		case errors.Is(err, paramfile.ErrParamsNotFound):
			row := doctorRow{Check: check + " " + what, Status: doctorFail, Detail: filepath.Base(path) + ": missing from " + dir, Remedy: fetchRemedy(dir, size)}
			if names, n := atomicfile.Writing(path); len(names) > 0 {
				// Another process is making it (params generate): a second download would race it.
				row.Detail += fmt.Sprintf("; being written now by another process (%s, %s so far)", filepath.Base(names[0]), humanBytes(uint64(n)))
				row.Remedy = "wait for that process to finish, then run doctor again"
			}
			rows = append(rows, row)
			return false
		case err != nil:
			rows = append(rows, doctorRow{Check: check + " " + what, Status: doctorFail, Detail: err.Error(), Remedy: "make it a regular file readable by this user, or fetch it again: " + fetchRemedy(dir, size)})
			return false
		}
		return true
	}
	rows = append(rows, doctorAbandoned(check, pp, vp)...)
	if !fileRow(".params", pp) || !fileRow(".vk", vp) {
		return rows
	}
	if _, err := paramfile.LoadParams(dir, dc.c); err != nil {
		return append(rows, doctorRow{Check: check + " .params", Status: doctorFail, Detail: err.Error(),
			Remedy: "a truncated (half-downloaded) or foreign file: delete it and " + fetchRemedy(dir, size)})
	}
	if _, err := paramfile.LoadVK(dir, dc.c); err != nil {
		return append(rows, doctorRow{Check: check + " .vk", Status: doctorFail, Detail: err.Error(),
			Remedy: "delete the .vk and " + fetchRemedy(dir, size)})
	}
	// Both decode: are they one setup's? (A .vk of another seed has the same shape.)
	if _, _, err := paramfile.LoadProvingKeys(dir, dc.c); err != nil {
		return append(rows, doctorRow{Check: check + " .vk", Status: doctorFail, Detail: err.Error(),
			Remedy: "fetch both files again (" + fetchRemedy(dir, size) + ") or, for test parameters, generate them again"})
	}
	st, _ := os.Stat(pp)
	detail := fmt.Sprintf("%s (%s): present, shape fits %s", filepath.Base(pp), humanBytes(uint64(st.Size())), dc.c.ProofName())
	if _, err := os.Stat(paramfile.TestStampPath(dir, dc.c)); err == nil {
		rows = append(rows, doctorRow{Check: check, Status: doctorWarn, Detail: detail + "; TEST parameters (cuseal stamp): proofs will not verify on chain",
			Remedy: "for real sectors: " + fetchRemedy(dir, size)})
	} else {
		rows = append(rows, doctorRow{Check: check, Status: doctorOK, Detail: detail})
	}
	if !c.Bool("digests") {
		return rows
	}
	for _, path := range []string{pp, vp} {
		rows = append(rows, doctorDigest(c, check, dir, size, path))
	}
	return rows
}

// doctorAbandoned is a WARN row for the temporary files of paths that a
// killed download or `params generate` left (atomicfile.Abandoned): disk
// taken for nothing until the next write of the same file removes them.
func doctorAbandoned(check string, paths ...string) []doctorRow {
	var names []string
	var bytes int64
	for _, p := range paths {
		n, b := atomicfile.Abandoned(p)
		names, bytes = append(names, n...), bytes+b
	}
	if len(names) == 0 {
		return nil
	}
	return []doctorRow{{Check: check + " temporary files", Status: doctorWarn,
		Detail: fmt.Sprintf("%d abandoned by a process that ended mid-write (%s): %s", len(names), humanBytes(uint64(bytes)), strings.Join(names, ", ")),
		Remedy: "remove them (rm -- " + shellQuote(names...) + "); the next write of the same file also does"}}
}

// shellQuote quotes each word for a POSIX shell: in single quotes, a
// single quote inside closed, escaped and reopened. A remedy line is then
// safe to paste whatever the file names hold.
func shellQuote(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// doctorDigest hashes one parameter file (paramfile.ParamsStatus; progress on stderr) and
// compares it with the official table.
func doctorDigest(c *cli.Context, check, dir, size, path string) doctorRow {
	bar := newPhaseProgress(c.App.ErrWriter, -1, "doctor")
	opts := []paramfile.Option{paramfile.WithProgress(func(ev paramfile.Event) {
		if ev.Total > 1<<30 {
			bar.Phase(fmt.Sprintf("hashing %s: %s of %s", filepath.Base(path), humanBytes(uint64(ev.Done)), humanBytes(uint64(ev.Total))))
		}
	})}
	if f := digestCacheFile(); f != "" {
		opts = append(opts, paramfile.WithDigestCacheFile(f))
	}
	ps, err := paramfile.ParamsStatus(path, opts...)
	bar.Done()
	check += " digest " + filepath.Ext(path)
	switch {
	case err != nil:
		return doctorRow{Check: check, Status: doctorFail, Detail: err.Error(), Remedy: fetchRemedy(dir, size)}
	case ps.State == paramfile.ParamsOfficial:
		return doctorRow{Check: check, Status: doctorOK, Detail: ps.Describe()}
	case ps.State == paramfile.ParamsMismatch:
		return doctorRow{Check: check, Status: doctorFail, Detail: ps.Describe(), Remedy: "delete it and " + fetchRemedy(dir, size)}
	}
	return doctorRow{Check: check, Status: doctorWarn, Detail: ps.Describe(), Remedy: "for real sectors: " + fetchRemedy(dir, size)}
}
