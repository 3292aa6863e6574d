// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// The circuits by name, and the registered proof of each that a flag names: one name per
// circuit in every command (--circuit of params generate, bench synth|prove|vanilla and
// post vanilla; --kind of client prove), and one parser per proof family, in the family's
// package (stacked.ConfigByName, post.ConfigByName, update.ConfigByName).

// circuitSpec is one circuit a command can be asked for. A new circuit is one more row of
// circuits.
type circuitSpec struct {
	name string
	// aliases are other names accepted for it (client prove's --kind snap).
	aliases []string
	// what --circuit's help says of it
	about string
	// postKind is the PoSt kind of a PoSt circuit; isPoSt is false for
	// the others.
	postKind post.Kind
	isPoSt   bool
	// isUpdate marks SnapDeals' EmptySectorUpdate circuit.
	isUpdate bool
}

// The circuit names.
const (
	circuitPoRep       = "porep"
	circuitWinningPoSt = "winning-post"
	circuitWindowPoSt  = "window-post"
	circuitUpdate      = "update"
)

var circuits = []circuitSpec{
	{name: circuitPoRep, about: "PoRep C2 (StackedDrg…V1_1)"},
	{name: circuitWinningPoSt, about: "WinningPoSt (StackedDrgWinning…V1)", postKind: post.Winning, isPoSt: true},
	{name: circuitWindowPoSt, about: "WindowPoSt (StackedDrgWindow…V1_1)", postKind: post.Window, isPoSt: true},
	{name: circuitUpdate, aliases: []string{"snap"}, about: "SnapDeals update (StackedDrg…V1 update proofs)", isUpdate: true},
}

// The circuits of the commands that offer only some.
var (
	postCircuits    = []string{circuitWinningPoSt, circuitWindowPoSt}                // post vanilla
	vanillaCircuits = []string{circuitWinningPoSt, circuitWindowPoSt, circuitUpdate} // bench vanilla
)

// offeredCircuits are the circuits named in only, in table order; every circuit when only
// is empty.
func offeredCircuits(only []string) []*circuitSpec {
	var out []*circuitSpec
	for i := range circuits {
		if len(only) == 0 || slices.Contains(only, circuits[i].name) {
			out = append(out, &circuits[i])
		}
	}
	return out
}

// circuitFlag is --circuit over the circuits named in only (then required), or over every
// circuit with porep the default when only is empty.
func circuitFlag(only ...string) cli.Flag {
	var names []string
	for _, s := range offeredCircuits(only) {
		names = append(names, s.name+": "+s.about)
	}
	f := &cli.StringFlag{Name: "circuit", Usage: "the circuit: " + strings.Join(names, ", ")}
	if len(only) > 0 {
		f.Required = true
	} else {
		f.Value = circuitPoRep
	}
	return f
}

// lookupCircuit resolves the value of --flag, a circuit's name or alias, among the
// circuits named in only (every circuit when only is empty); anything else is a usage
// error listing them.
func lookupCircuit(flag, name string, only ...string) (*circuitSpec, error) {
	var names []string
	for _, s := range offeredCircuits(only) {
		if s.name == name || slices.Contains(s.aliases, name) {
			return s, nil
		}
		names = append(names, s.name)
	}
	return nil, usageErrorf("--%s %q: want %s", flag, name, orList(names))
}

// orList is "a", "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// sectorConfigForSize parses a --sector-size value and returns the sector configuration of
// its V1_1 registered proof, the one Lotus uses for new sectors today.
func sectorConfigForSize(s string) (stacked.SectorConfig, error) {
	size, err := parseSectorSize(s)
	if err != nil {
		return stacked.SectorConfig{}, inputError(err)
	}
	proof, ok := stacked.SealProofV1_1(size)
	if !ok { // parseSectorSize accepts only published sizes
		return stacked.SectorConfig{}, internalError(fmt.Errorf("--sector-size %s: no registered proof for %d bytes", s, size))
	}
	cfg, err := stacked.ConfigFor(proof)
	if err != nil {
		return stacked.SectorConfig{}, internalError(fmt.Errorf("--sector-size %s: %w", s, err))
	}
	return cfg, nil
}

// postConfigForSize is the registered PoSt proof of a kind and sector size
// that Lotus and Curio use (WinningPoSt V1, WindowPoSt V1_1).
func postConfigForSize(kind post.Kind, sectorSize string) (*post.Config, error) {
	size, err := parseSectorSize(sectorSize)
	if err != nil {
		return nil, inputError(err)
	}
	return postConfigFor(kind, size)
}

// postConfigFor is postConfigForSize for a size in bytes.
func postConfigFor(kind post.Kind, size uint64) (*post.Config, error) {
	for _, cfg := range post.Configs() {
		if cfg.Kind == kind && cfg.SectorSize == size {
			return &cfg, nil
		}
	}
	return nil, internalError(fmt.Errorf("no %sPoSt proof for %d-byte sectors", kind, size))
}

// updateConfigForSize parses a --sector-size value and returns the configuration of its
// registered update proof (StackedDrg<size>V1).
func updateConfigForSize(s string) (update.Config, error) {
	size, err := parseSectorSize(s)
	if err != nil {
		return update.Config{}, inputError(err)
	}
	for _, c := range update.Configs() {
		if c.SectorSize == size {
			return c, nil
		}
	}
	return update.Config{}, internalError(fmt.Errorf("--sector-size %s: no registered update proof for %d bytes", s, size))
}

// postProofType reads --proof-type (post.ConfigByName: a number or a name) and checks that
// it is a proof of kind (any kind when kind < 0).
func postProofType(s string, kind post.Kind) (*post.Config, error) {
	cfg, err := post.ConfigByName(s)
	if err != nil {
		return nil, usageErrorf("--proof-type %q: %v", s, err)
	}
	if kind >= 0 && cfg.Kind != kind {
		return nil, usageErrorf("--proof-type %q: %s is a %sPoSt proof, this command proves %sPoSt", s, cfg.Name, cfg.Kind, kind)
	}
	return &cfg, nil
}

// updateProofType reads --proof-type (update.ConfigByName: a number or a name) or
// --sector-size, or both when they agree.
func updateProofType(c *cli.Context) (*update.Config, error) {
	pt, size := c.String("proof-type"), c.String("sector-size")
	if pt == "" && size == "" {
		return nil, usageErrorf("give --proof-type or --sector-size")
	}
	if pt == "" {
		cfg, err := updateConfigForSize(size)
		if err != nil {
			return nil, err
		}
		return &cfg, nil
	}
	cfg, err := update.ConfigByName(pt)
	if err != nil {
		return nil, usageErrorf("--proof-type %q: %v", pt, err)
	}
	if size != "" {
		if want, err := updateConfigForSize(size); err != nil || want.Proof != cfg.Proof {
			return nil, usageErrorf("--sector-size %s does not match --proof-type %s (%s sectors)", size, pt, stacked.SizeLabel(cfg.SectorSize))
		}
	}
	return &cfg, nil
}
