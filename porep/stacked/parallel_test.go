package stacked_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/stacked"
)

// TestSynthesizeParallelErrors: a wrong challenge size, a cancelled context
// and a used ProvingAssignment are errors, never a panic or a wrong
// assignment.
func TestSynthesizeParallelErrors(t *testing.T) {
	cfg, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	per, err := stacked.ChallengeSizeHint(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	hint, err := stacked.SizeHintFor(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	circ := stacked.BlankCircuit(&cfg)

	small := per
	small.Aux--
	if err := circ.SynthesizeParallel(context.Background(), cs.NewProvingAssignment(hint), small, 2); err == nil || !strings.Contains(err.Error(), "aux") {
		t.Errorf("one aux short: %v", err)
	}
	large := per
	large.Constraints++
	if err := circ.SynthesizeParallel(context.Background(), cs.NewProvingAssignment(hint), large, 2); err == nil || !strings.Contains(err.Error(), "filled") {
		t.Errorf("one constraint too many: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := circ.SynthesizeParallel(ctx, cs.NewProvingAssignment(hint), per, 2); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	used := cs.NewProvingAssignment(hint)
	used.Alloc(nil)
	if err := circ.SynthesizeParallel(context.Background(), used, per, 2); err == nil || !strings.Contains(err.Error(), "fresh") {
		t.Errorf("used assignment: %v", err)
	}
}
