// SPDX-License-Identifier: Apache-2.0 OR MIT

package paramfile

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

// chainCircuit is a test Circuit: inputs public inputs, then steps
// constraints x_{k+1} = x_k·(x_k + input_{k mod inputs}) with a duplicate,
// cancelling term, and idle aux variables that appear only in C.
type chainCircuit struct{ inputs, steps int }

func (c *chainCircuit) Synthesize(ctx context.Context, sys cs.ConstraintSystem) error {
	var one, minus fr.Element
	one.SetOne()
	minus.Neg(&one)
	in := make([]cs.Variable, c.inputs)
	for i := range in {
		in[i] = sys.AllocInput(nil)
	}
	x := sys.Alloc(nil)
	sys.Enforce(cs.LC{{Coeff: one, Var: x}}, cs.LC{{Coeff: one, Var: cs.One}}, cs.LC{{Coeff: one, Var: x}})
	for k := 0; k < c.steps; k++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := cs.LC{{Coeff: one, Var: x}, {Coeff: one, Var: cs.One}, {Coeff: minus, Var: cs.One}}
		if c.inputs > 0 {
			b = append(b, cs.Term{Coeff: one, Var: in[k%c.inputs]})
		}
		next := sys.Alloc(nil)
		idle := sys.Alloc(nil) // only in C
		sys.Enforce(cs.LC{{Coeff: one, Var: x}}, b, cs.LC{{Coeff: one, Var: next}, {Coeff: fr.Element{}, Var: idle}, {Coeff: one, Var: idle}, {Coeff: minus, Var: idle}, {Coeff: one, Var: idle}})
		x = next
	}
	return nil
}

func (c *chainCircuit) SynthesizeParallel(context.Context, *cs.ProvingAssignment, cs.SizeHint, int) error {
	return fmt.Errorf("chainCircuit: no parallel synthesis")
}

func (c *chainCircuit) ParameterPaths(dir string) (params, vk, meta string) {
	return stacked.ParameterPathsFor(dir, c.ParameterFileStem())
}
func (c *chainCircuit) ParameterFileStem() string {
	return fmt.Sprintf("v28-chain-%d-%d", c.inputs, c.steps)
}
func (c *chainCircuit) ParameterIdentifier() string {
	return fmt.Sprintf("chain{inputs: %d, steps: %d}", c.inputs, c.steps)
}
func (c *chainCircuit) NumPublicInputs() int    { return 1 + c.inputs }
func (c *chainCircuit) ProofName() string       { return "Chain" }
func (c *chainCircuit) ProofSectorSize() uint64 { return 2048 }
func (c *chainCircuit) SizeHint() (cs.SizeHint, error) {
	return cs.SizeHint{Constraints: 1 + c.steps, Aux: 1 + 2*c.steps, Inputs: 1 + c.inputs}, nil
}
func (c *chainCircuit) BlankCircuit() cs.Circuit { return c }

// TestGenerateTestParamsMatchesSetup: the streamed GenerateTestParams
// writes byte for byte the .params and .vk of the recorded R1CS through
// the in-memory groth16.Setup (the generator before streaming), and the
// stamp records the recorded R1CS's digest, for several shapes: no public
// input (domain 4), many inputs, a domain filled exactly (64 rows), and many
// constraints (domain 2^13).
func TestGenerateTestParamsMatchesSetup(t *testing.T) {
	seed := [32]byte{9, 8, 7}
	for _, c := range []*chainCircuit{{0, 1}, {40, 100}, {2, 60}, {2, 5000}} {
		t.Run(c.ParameterIdentifier(), func(t *testing.T) {
			dir := t.TempDir()
			tp, err := GenerateTestParams(dir, c, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := cs.NewRecorder()
			if err := c.Synthesize(context.Background(), rec); err != nil {
				t.Fatal(err)
			}
			r := rec.R1CS()
			if tp.R1CSDigest != r.Digest() || tp.Constraints != r.NumConstraints() || tp.Inputs != r.NumInputs || tp.Aux != r.NumAux {
				t.Fatalf("shape or digest differ from the recorded R1CS: %+v", tp)
			}
			p, err := groth16.Setup(r, groth16.ToxicWasteFromSeed(seed))
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if _, err := p.WriteTo(&want); err != nil {
				t.Fatal(err)
			}
			for path, want := range map[string][]byte{tp.ParamsPath: want.Bytes(), tp.VKPath: p.VK.Bytes()} {
				got, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s: %d bytes differ from Setup's %d", filepath.Base(path), len(got), len(want))
				}
			}
			again, err := GenerateTestParams(dir, c, seed, nil)
			if err != nil || !again.Reused || again.R1CSDigest != tp.R1CSDigest {
				t.Fatalf("second run: reused %v, %v", again != nil && again.Reused, err)
			}
		})
	}
}

// TestGenerateTestParamsCancelled: a cancelled generation returns the
// context's error and leaves no file behind.
func TestGenerateTestParamsCancelled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := GenerateTestParams(dir, &chainCircuit{2, 50}, [32]byte{1}, nil, WithContext(ctx))
	if err == nil {
		t.Fatal("cancelled generation succeeded")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left %v", ents)
	}
}
