// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/post"
)

// circuitSpec is one value of --circuit (params generate, bench synth,
// bench prove, bench vanilla): the circuit and where its inputs come from.
// A new circuit (SnapDeals' update) is one more row of circuits.
type circuitSpec struct {
	name string
	// what --circuit's help says of it
	about string
	// postKind is the PoSt kind of a PoSt circuit; isPoSt is false for
	// the others.
	postKind post.Kind
	isPoSt   bool
	// isUpdate marks SnapDeals' EmptySectorUpdate circuit.
	isUpdate bool
}

// The --circuit values.
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
	{name: circuitUpdate, about: "SnapDeals update (StackedDrg…V1 update proofs)", isUpdate: true},
}

// circuitFlag is --circuit; with postOnly only the PoSt circuits are
// offered (and there is no default).
func circuitFlag(postOnly bool) cli.Flag {
	var names []string
	for _, s := range circuits {
		if !postOnly || s.isPoSt {
			names = append(names, s.name+": "+s.about)
		}
	}
	f := &cli.StringFlag{Name: "circuit", Usage: "the circuit: " + strings.Join(names, ", ")}
	if postOnly {
		f.Required = true
	} else {
		f.Value = circuitPoRep
	}
	return f
}

// lookupCircuit resolves --circuit; with postOnly a non-PoSt circuit is a
// usage error.
func lookupCircuit(name string, postOnly bool) (*circuitSpec, error) {
	var names []string
	for i := range circuits {
		s := &circuits[i]
		if postOnly && !s.isPoSt {
			continue
		}
		if s.name == name {
			return s, nil
		}
		names = append(names, s.name)
	}
	return nil, usageErrorf("--circuit %q: want %s", name, strings.Join(names, ", "))
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
