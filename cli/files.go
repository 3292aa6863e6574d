// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

// The CLI's shared file helpers: reading the user's input files and writing outputs without
// ever leaving a partial file, with errors that name the file (fileError). Every command
// uses these instead of its own copy.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/internal/atomicfile"
	"github.com/cuseal/cuseal/porep/stacked"
)

// fileError rewords the common os errors as one short line naming the path.
func fileError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if target, lerr := os.Readlink(pe.Path); lerr == nil {
				return fmt.Errorf("%s: dangling symbolic link (to %s, which does not exist)", pe.Path, target)
			}
			return fmt.Errorf("%s: no such file or directory", pe.Path)
		case errors.Is(err, fs.ErrPermission):
			return fmt.Errorf("%s: permission denied", pe.Path)
		case errors.Is(err, syscall.EISDIR):
			return fmt.Errorf("%s: is a directory, want a file", pe.Path)
		}
	}
	return err
}

// checkWritableDir checks that files can be created in dir.
func checkWritableDir(dir string) error {
	f, err := os.CreateTemp(dir, ".cuseal-write-test-*")
	if err != nil {
		return inputError(fmt.Errorf("--out %s: not writable: %w", dir, fileError(unwrapPathError(err))))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// unwrapPathError drops the temporary file name from a CreateTemp error.
func unwrapPathError(err error) error {
	var pe interface{ Unwrap() error }
	if errors.As(err, &pe) && strings.Contains(err.Error(), ".cuseal-write-test-") {
		if inner := pe.Unwrap(); inner != nil {
			return inner
		}
	}
	return err
}

// mkdirAllTracked creates dir and its missing parents and returns a function that removes
// the directories it created, deepest first, as long as they are empty.
func mkdirAllTracked(dir string) (func(), error) {
	var created []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || !errors.Is(err, fs.ErrNotExist) {
			break
		}
		created = append(created, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return func() {}, err
	}
	return func() {
		for _, d := range created {
			if os.Remove(d) != nil {
				return
			}
		}
	}, nil
}

// checkOutFile checks that path can be written: its directory exists and is writable and
// path is not a directory. The file itself is written atomically at the end.
func checkOutFile(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usageErrorf("--out %s: is a directory", path)
	}
	dir := dirOf(path)
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return usageErrorf("--out %s: directory %s does not exist (create it first)", path, dir)
	}
	if err != nil {
		return inputError(fmt.Errorf("--out: %w", fileError(err)))
	}
	if !st.IsDir() {
		return usageErrorf("--out %s: %s is not a directory", path, dir)
	}
	return checkWritableDir(dir)
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		if i == 0 {
			return "/"
		}
		return path[:i]
	}
	return "."
}

// checkOutFlag checks --out before any work: a writable place, and not an existing file
// unless --force. It returns the path ("" when --out is not given).
func checkOutFlag(c *cli.Context) (string, error) {
	outPath := c.String("out")
	if outPath == "" {
		return "", nil
	}
	if err := checkOutFile(outPath); err != nil {
		return "", err
	}
	if _, err := os.Lstat(outPath); err == nil && !c.Bool("force") {
		return "", usageErrorf("--out %s: exists; refusing to overwrite it (pass --force to replace it)", outPath)
	}
	return outPath, nil
}

// writeFileAtomic writes data to path through internal/atomicfile, so path never holds a
// partial file.
func writeFileAtomic(path string, data []byte) error { return atomicfile.WriteBytes(path, data) }

// writeProofOut writes proof bytes (hex with a newline when asHex) to
// --out atomically; no path means nothing to write. A proof that cannot be
// written (disk full, directory gone) is not lost: its hex goes to errw
// with the error, for the operator to keep — a WinningPoSt cannot wait for
// a second proving.
func writeProofOut(errw io.Writer, outPath string, proof []byte, asHex bool) error {
	if outPath == "" {
		return nil
	}
	data := proof
	if asHex {
		data = []byte(hex.EncodeToString(proof) + "\n")
	}
	if err := writeFileAtomic(outPath, data); err != nil {
		return proofNotWritten(errw, "--out", outPath, hex.EncodeToString(proof), fileError(err))
	}
	return nil
}

// writeJSON prints v as indented JSON on stdout.
func writeJSON(c *cli.Context, v any) error {
	enc := json.NewEncoder(c.App.Writer)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// c1Input is a C1 file read and validated, with the sector number it implies.
type c1Input struct {
	path   string
	data   []byte
	c1     *stacked.C1Output
	cfg    stacked.SectorConfig
	sector abi.SectorNumber
	miner  abi.ActorID
}

// readC1Input reads --c1 (raw C1 JSON or Commit2In), validates it, and checks that its
// replica_id belongs to --miner and the sector number and that its challenges derive from
// its seed, so that every input mistake is a usage error naming the file before any proving
// starts. With forProving it also recomputes every Merkle path and column hash (what the
// circuit will enforce; verify does not need them).
func readC1Input(c *cli.Context, forProving bool) (*c1Input, error) {
	in := &c1Input{path: c.String("c1")}
	miner, err := parseMiner(c.String("miner"))
	if err != nil {
		return nil, inputError(err)
	}
	in.miner = miner
	if st, err := os.Stat(in.path); err == nil && st.IsDir() {
		return nil, usageErrorf("--c1 %s: is a directory, want a C1 JSON file", in.path)
	}
	if in.data, err = os.ReadFile(in.path); err != nil {
		return nil, inputError(fmt.Errorf("--c1: %w", fileError(err)))
	}
	if len(bytes.TrimSpace(in.data)) == 0 {
		return nil, usageErrorf("--c1 %s: empty file (%d bytes), want the C1 output JSON (SealCommitPhase1Output or a lotus-bench Commit2In)", in.path, len(in.data))
	}
	raw, wrapper, err := stacked.UnwrapC1Input(in.data)
	if err != nil {
		return nil, inputError(fmt.Errorf("--c1 %s: %w", in.path, err))
	}
	if in.c1, in.cfg, err = stacked.ParseC1(raw); err != nil {
		return nil, inputError(fmt.Errorf("--c1 %s: %w", in.path, err))
	}
	switch {
	case c.IsSet("sector"):
		in.sector = abi.SectorNumber(c.Uint64("sector"))
		if wrapper != nil && wrapper.SectorNum != int64(in.sector) {
			return nil, usageErrorf("--sector %d: --c1 %s is a Commit2In for sector %d", in.sector, in.path, wrapper.SectorNum)
		}
	case wrapper != nil:
		in.sector = abi.SectorNumber(wrapper.SectorNum)
	default:
		in.sector = 1
	}
	if wrapper != nil && wrapper.SectorSize != 0 && wrapper.SectorSize != in.cfg.SectorSize {
		return nil, usageErrorf("--c1 %s: Commit2In.SectorSize = %d, but its registered_proof %s has %d (%s)",
			in.path, wrapper.SectorSize, in.cfg.Name, in.cfg.SectorSize, stacked.SizeLabel(in.cfg.SectorSize))
	}
	if in.c1.SyntheticInvalid {
		return nil, usageErrorf("--c1 %s: synthetic C1 data (made for bench synth) cannot be proven", in.path)
	}
	want := stacked.ReplicaID(stacked.ProverID(in.miner), in.sector, in.c1.Ticket, in.c1.CommD, in.cfg.PoRepID)
	if stacked.Domain(want) != in.c1.ReplicaID {
		return nil, usageErrorf("--c1 %s: replica_id is not the one of miner %s, sector %d with this C1's ticket, comm_d and porep_id (%s): wrong --miner or --sector, or an altered ticket, comm_d or registered_proof",
			in.path, c.String("miner"), in.sector, in.cfg.Name)
	}
	// The challenges derive from replica_id and seed: an altered seed would otherwise
	// only show up after synthesis.
	if err := in.c1.ValidateChallenges(&in.cfg); err != nil {
		return nil, inputError(fmt.Errorf("--c1 %s: %w", in.path, err))
	}
	if forProving {
		if err := in.c1.ValidateInclusionProofs(&in.cfg); err != nil {
			return nil, inputError(fmt.Errorf("--c1 %s: %w", in.path, err))
		}
	}
	return in, nil
}

// vanillaPaths are the vanilla proofs a command was given: --vanilla's values, then the
// arguments after the last flag, in order. dir is set when they are one directory (of
// partition-K.bin files, or what post vanilla writes), which the caller reads its way.
func vanillaPaths(c *cli.Context) (paths []string, dir string) {
	paths = append(c.StringSlice("vanilla"), c.Args().Slice()...)
	if len(paths) == 1 {
		if fi, err := os.Stat(paths[0]); err == nil && fi.IsDir() {
			return paths, paths[0]
		}
	}
	return paths, ""
}

// partitionFiles are dir's partition-K.bin files (update vanilla's) for K = 0 … n−1, or,
// for n < 0, up to the first one missing (partition-0.bin always, so that its absence is
// named when read).
func partitionFiles(dir string, n int) []string {
	var out []string
	for k := 0; k < n || n < 0; k++ {
		p := filepath.Join(dir, partitionProofFile(k))
		if n < 0 && k > 0 {
			if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
				break
			}
		}
		out = append(out, p)
	}
	return out
}

// readVanillaFiles reads vanilla proof files, in order: the one reader of --vanilla files
// (post, update prove, client prove, bench). A file that cannot be read is an input error
// naming it.
func readVanillaFiles(paths []string) ([][]byte, error) {
	out := make([][]byte, len(paths))
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, inputError(fmt.Errorf("--vanilla: %w", fileError(err)))
		}
		out[i] = b
	}
	return out, nil
}

// allExist reports whether every path exists.
func allExist(paths ...string) bool {
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return false
		}
	}
	return true
}
