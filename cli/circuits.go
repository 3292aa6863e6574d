// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

// The circuits by name, and the registered proof of each that a flag names: one name per
// circuit in every command (--circuit of params generate, bench synth|prove|vanilla and
// post vanilla; --kind of client prove), and one parser per proof family, in the family's
// package (stacked.ConfigByName, post.ConfigByName, update.ConfigByName).

// circuitSpec is one circuit a command can be asked for, with what each command needs
// of it. A new circuit is one more row of circuits; no command switches on the circuit.
type circuitSpec struct {
	name string
	// aliases are other names accepted for it (client prove's --kind snap).
	aliases []string
	// what --circuit's help says of it
	about string
	// postKind is the PoSt kind of a PoSt circuit.
	postKind post.Kind
	// config is its registered proof for a sector size in bytes (the one Lotus and Curio
	// use for new work); configForSize reads --sector-size into it.
	config func(spec *circuitSpec, size uint64) (paramfile.Circuit, error)
	// constraints is the constraint count params generate reports for cfg.
	constraints func(cfg paramfile.Circuit) (int, error)
	// The commands' steps (nil: the command does not offer the circuit): bench prove's
	// job (inputs, parameter and memory checks), bench synth's job, bench vanilla's
	// action, and client prove's request with what it proves.
	proveJob     func(c *cli.Context, spec *circuitSpec, backends []string) (*proveJob, error)
	synthJob     func(c *cli.Context, spec *circuitSpec) (*synthJob, error)
	benchVanilla func(c *cli.Context, spec *circuitSpec, start time.Time) error
	request      func(c *cli.Context, spec *circuitSpec) (*pb.SubmitProofRequest, string, error)
}

// The circuit names.
const (
	circuitPoRep       = "porep"
	circuitWinningPoSt = "winning-post"
	circuitWindowPoSt  = "window-post"
	circuitUpdate      = "update"
)

// circuits is the table (set in init: its steps reach back to it through lookupCircuit).
var circuits []circuitSpec

func init() {
	circuits = []circuitSpec{
		{name: circuitPoRep, about: "PoRep C2 (StackedDrg…V1_1)", config: porepCircuitConfig, constraints: porepConstraints,
			proveJob: porepProveInput, synthJob: porepSynthInput, benchVanilla: benchVanillaPoRep, request: clientPoRepRequest},
		{name: circuitWinningPoSt, about: "WinningPoSt (StackedDrgWinning…V1)", postKind: post.Winning, config: postCircuitConfig, constraints: hintConstraints,
			proveJob: postProveInput, synthJob: postSynthInput, benchVanilla: benchVanillaPoSt, request: clientPoStRequest},
		{name: circuitWindowPoSt, about: "WindowPoSt (StackedDrgWindow…V1_1)", postKind: post.Window, config: postCircuitConfig, constraints: hintConstraints,
			proveJob: postProveInput, synthJob: postSynthInput, benchVanilla: benchVanillaPoSt, request: clientPoStRequest},
		{name: circuitUpdate, aliases: []string{"snap"}, about: "SnapDeals update (StackedDrg…V1 update proofs)", config: updateCircuitConfig, constraints: hintConstraints,
			proveJob: updateProveInput, synthJob: updateSynthInput, benchVanilla: benchVanillaUpdate, request: clientSnapRequest},
	}
}

// circuitNamed is the row of a circuit name constant.
func circuitNamed(name string) *circuitSpec {
	for i := range circuits {
		if circuits[i].name == name {
			return &circuits[i]
		}
	}
	panic("cli: no circuit " + name)
}

// The circuits of the commands that offer only some.
var (
	postCircuits    = []string{circuitWinningPoSt, circuitWindowPoSt}                              // post vanilla
	vanillaCircuits = []string{circuitPoRep, circuitWinningPoSt, circuitWindowPoSt, circuitUpdate} // bench vanilla
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

// configForSize parses a --sector-size value and returns spec's registered proof for that
// size (spec.config) as its configuration type C: the one config-by-size helper.
func configForSize[C paramfile.Circuit](spec *circuitSpec, sectorSize string) (C, error) {
	var zero C
	size, err := parseSectorSize(sectorSize)
	if err != nil {
		return zero, inputError(err)
	}
	cfg, err := spec.config(spec, size)
	if err != nil {
		return zero, err
	}
	return cfg.(C), nil
}

// porepCircuitConfig is the V1_1 registered seal proof of a size, the one Lotus uses for new
// sectors today.
func porepCircuitConfig(_ *circuitSpec, size uint64) (paramfile.Circuit, error) {
	proof, ok := stacked.SealProofV1_1(size)
	if !ok { // parseSectorSize accepts only published sizes
		return nil, internalError(fmt.Errorf("--sector-size %s: no registered proof for %d bytes", stacked.SizeLabel(size), size))
	}
	cfg, err := stacked.ConfigFor(proof)
	if err != nil {
		return nil, internalError(fmt.Errorf("--sector-size %s: %w", stacked.SizeLabel(size), err))
	}
	return &cfg, nil
}

// postCircuitConfig is the registered PoSt proof of spec's kind and a sector size that Lotus and
// Curio use (WinningPoSt V1, WindowPoSt V1_1).
func postCircuitConfig(spec *circuitSpec, size uint64) (paramfile.Circuit, error) {
	for _, cfg := range post.Configs() {
		if cfg.Kind == spec.postKind && cfg.SectorSize == size {
			return &cfg, nil
		}
	}
	return nil, internalError(fmt.Errorf("no %sPoSt proof for %d-byte sectors", spec.postKind, size))
}

// updateCircuitConfig is the registered update proof of a size (StackedDrg<size>V1).
func updateCircuitConfig(_ *circuitSpec, size uint64) (paramfile.Circuit, error) {
	for _, cfg := range update.Configs() {
		if cfg.SectorSize == size {
			return &cfg, nil
		}
	}
	return nil, internalError(fmt.Errorf("--sector-size %s: no registered update proof for %d bytes", stacked.SizeLabel(size), size))
}

// porepConstraints estimates a PoRep circuit's constraints (measuring a 32 GiB one takes
// minutes).
func porepConstraints(cfg paramfile.Circuit) (int, error) {
	constraints, _ := paramfile.EstimateTestParamsMemory(cfg.(*stacked.SectorConfig))
	return constraints, nil
}

// hintConstraints is a circuit's measured shape: constraints and per-input rows.
func hintConstraints(cfg paramfile.Circuit) (int, error) {
	hint, err := cfg.SizeHint()
	if err != nil {
		return 0, internalError(err)
	}
	return hint.Constraints + hint.Inputs, nil
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
		return configForSize[*update.Config](circuitNamed(circuitUpdate), size)
	}
	cfg, err := update.ConfigByName(pt)
	if err != nil {
		return nil, usageErrorf("--proof-type %q: %v", pt, err)
	}
	if size != "" {
		if want, err := configForSize[*update.Config](circuitNamed(circuitUpdate), size); err != nil || want.Proof != cfg.Proof {
			return nil, usageErrorf("--sector-size %s does not match --proof-type %s (%s sectors)", size, pt, stacked.SizeLabel(cfg.SectorSize))
		}
	}
	return &cfg, nil
}
