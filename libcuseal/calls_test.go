// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cgo

package main

// In-process tests of the version-2 calls: Go calls the exports the way C
// does (same argument types, the library's free functions), so the
// boundary — NULL pointers, zero lengths, truncated and corrupted inputs,
// cancellation, concurrent calls — runs under the race detector
// (go test -race). Nothing here proves: verification of the reference
// vectors' proof.bin with their .vk, aggregation with the test SRS, and
// prover calls that stop at a bad input or at the missing .params.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep"
)

// arr is an array argument: its entries and the count passed (len(e)
// unless a test passes another).
type arr[T any] struct {
	e []T
	n int
}

func list[T any](e ...T) arr[T] { return arr[T]{e, len(e)} }

func (a arr[T]) ptr() *T {
	if len(a.e) == 0 {
		return nil
	}
	return &a.e[0]
}

func (a arr[T]) count() cSize { return cSize(a.n) }

// byteList is an array of cuseal_porep_bytes over bs.
func byteList(bs ...[]byte) arr[cBytes] {
	e := make([]cBytes, len(bs))
	for i, b := range bs {
		e[i].ptr, e[i].len = cPtr(b), cSize(len(b))
	}
	return list(e...)
}

// res is what one call returned.
type res struct {
	call   string // the export's name after cuseal_porep_
	status int
	msg    string
	out    []byte // the bytes output, when the call has one
	// partial is set when outputs were not NULL and 0 after a failure.
	partial bool
}

func (r res) String() string {
	return fmt.Sprintf("status %d, %q, %d bytes", r.status, r.msg, len(r.out))
}

// bytesCall runs the export call with a (uint8_t**, size_t*) output.
// Its outputs hold junk before the call (a Go pointer and a non-zero
// length), which the call must reset: outputs are NULL and 0 unless OK.
func bytesCall(call string, f func(out **cU8, n *cSize, msg **cChar) int) res {
	out, n := new(cU8), cSize(0x5a5a)
	var msg *cChar
	st := f(&out, &n, &msg)
	r := res{call: call, status: st, msg: takeString(msg), partial: st != statusOK && (out != nil || n != 0)}
	if st == statusOK {
		r.out = takeBytes(out, n)
	}
	return r
}

// statusCall runs the export call with no output but the message.
func statusCall(call string, f func(msg **cChar) int) res {
	var msg *cChar
	st := f(&msg)
	return res{call: call, status: st, msg: takeString(msg)}
}

// options returns options for dir (CPU backend) and, with cancelled, a
// cancel handle triggered before the call.
func options(t *testing.T, dir string, cancelled bool) *cOptions {
	t.Helper()
	var o cOptions
	optionsInit(&o)
	o.params_dir = cStr(dir)
	o.backend = cStr("cpu")
	if cancelled {
		h := libcuseal_go_cancel_new()
		libcuseal_go_cancel_trigger(h)
		t.Cleanup(func() { libcuseal_go_cancel_free(h) })
		o.cancel = h
	}
	return &o
}

// The calls, with Go arguments.

func windowProve(p abi.RegisteredPoStProof, rnd []byte, miner abi.ActorID, vanilla arr[cBytes], o *cOptions) res {
	return bytesCall("generate_window_post_with_vanilla", func(out **cU8, n *cSize, msg **cChar) int {
		return int(libcuseal_go_generate_window_post_with_vanilla(cI64(p), cPtr(rnd), cSize(len(rnd)), cU64(miner), vanilla.ptr(), vanilla.count(), o, out, n, msg))
	})
}

func winningProve(p abi.RegisteredPoStProof, rnd []byte, miner abi.ActorID, vanilla arr[cBytes], o *cOptions) res {
	return bytesCall("generate_winning_post_with_vanilla", func(out **cU8, n *cSize, msg **cChar) int {
		return int(libcuseal_go_generate_winning_post_with_vanilla(cI64(p), cPtr(rnd), cSize(len(rnd)), cU64(miner), vanilla.ptr(), vanilla.count(), o, out, n, msg))
	})
}

func singleProve(p abi.RegisteredPoStProof, rnd []byte, miner abi.ActorID, vanilla arr[cBytes], k int, o *cOptions) res {
	return bytesCall("generate_single_window_post_with_vanilla", func(out **cU8, n *cSize, msg **cChar) int {
		return int(libcuseal_go_generate_single_window_post_with_vanilla(cI64(p), cPtr(rnd), cSize(len(rnd)), cU64(miner), vanilla.ptr(), vanilla.count(), cSize(k), o, out, n, msg))
	})
}

func merge(p abi.RegisteredPoStProof, parts arr[cBytes]) res {
	return bytesCall("merge_window_post_partition_proofs", func(out **cU8, n *cSize, msg **cChar) int {
		return int(libcuseal_go_merge_window_post_partition_proofs(cI64(p), parts.ptr(), parts.count(), out, n, msg))
	})
}

// sectorList is the C sector infos of v's sectors (or of the given ones).
func sectorList(numbers []abi.SectorNumber, commRs [][]byte) arr[cSectorInfo] {
	e := make([]cSectorInfo, len(numbers))
	for i := range numbers {
		e[i].sector_number = cU64(numbers[i])
		e[i].comm_r = comm32(commRs[i])
	}
	return list(e...)
}

func verifyPoStCall(winning bool, p abi.RegisteredPoStProof, rnd []byte, sectors arr[cSectorInfo], pf []byte, miner abi.ActorID, o *cOptions) res {
	f, call := libcuseal_go_verify_window_post, "verify_window_post"
	if winning {
		f, call = libcuseal_go_verify_winning_post, "verify_winning_post"
	}
	return statusCall(call, func(msg **cChar) int {
		return int(f(cI64(p), cPtr(rnd), cSize(len(rnd)), sectors.ptr(), sectors.count(), cPtr(pf), cSize(len(pf)), cU64(miner), o, msg))
	})
}

func updateProve(p abi.RegisteredUpdateProof, vanilla arr[cBytes], rOld, rNew, dNew []byte, o *cOptions) res {
	return bytesCall("generate_empty_sector_update_proof_with_vanilla", func(out **cU8, n *cSize, msg **cChar) int {
		return int(libcuseal_go_generate_empty_sector_update_proof_with_vanilla(cI64(p), vanilla.ptr(), vanilla.count(), cPtr(rOld), cPtr(rNew), cPtr(dNew), o, out, n, msg))
	})
}

func updateVerify(p abi.RegisteredUpdateProof, pf, rOld, rNew, dNew []byte, o *cOptions) res {
	return statusCall("verify_empty_sector_update_proof", func(msg **cChar) int {
		return int(libcuseal_go_verify_empty_sector_update_proof(cI64(p), cPtr(pf), cSize(len(pf)), cPtr(rOld), cPtr(rNew), cPtr(dNew), o, msg))
	})
}

// aggInputs is the C inputs of the aggregate vector's sectors, in order.
func aggInputs(sectors ...aggSector) arr[cAggInput] {
	e := make([]cAggInput, len(sectors))
	for i, s := range sectors {
		e[i].comm_r, e[i].comm_d, e[i].ticket, e[i].seed = comm32(s.CommR), comm32(s.CommD), comm32(s.Ticket), comm32(s.Seed)
		e[i].sector_number = cU64(s.Number)
	}
	return list(e...)
}

func aggregateCall(p abi.RegisteredSealProof, kind abi.RegisteredAggregationProof, miner abi.ActorID, inputs arr[cAggInput], proofs arr[cBytes], n int, o *cOptions) res {
	return bytesCall("aggregate_seal_proofs", func(out **cU8, outLen *cSize, msg **cChar) int {
		return int(libcuseal_go_aggregate_seal_proofs(cI64(p), cI64(kind), cU64(miner), inputs.ptr(), proofs.ptr(), cSize(n), o, out, outLen, msg))
	})
}

func aggregateVerify(p abi.RegisteredSealProof, kind abi.RegisteredAggregationProof, miner abi.ActorID, agg []byte, inputs arr[cAggInput], o *cOptions) res {
	return statusCall("verify_aggregate_seal_proof", func(msg **cChar) int {
		return int(libcuseal_go_verify_aggregate_seal_proof(cI64(p), cI64(kind), cU64(miner), cPtr(agg), cSize(len(agg)), inputs.ptr(), inputs.count(), o, msg))
	})
}

// check is one call's expected outcome: the status and the message (when
// exact, "libcuseal: CALL: " and want, CALL the export called; else a part
// of it).
type check struct {
	name   string
	got    res
	status int
	want   string
	exact  bool
}

func runChecks(t *testing.T, checks []check) {
	t.Helper()
	for _, c := range checks {
		ok := c.got.status == c.status && !c.got.partial
		switch {
		case c.status == statusOK:
			ok = ok && c.got.msg == ""
		case c.exact:
			ok = ok && c.got.msg == cmsg(c.got.call, c.want)
		default:
			ok = ok && c.want != "" && strings.Contains(c.got.msg, c.want)
		}
		if !ok {
			t.Errorf("%s: %v (partial output: %v); want status %d and %q", c.name, c.got, c.got.partial, c.status, c.want)
		}
	}
}

// cmsg is the message the export call gives for text.
func cmsg(call, text string) string { return "libcuseal: " + call + ": " + text }

// goMsg is the Go API's message for the same input (it must fail).
func goMsg(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		t.Fatal("the Go API accepted the input")
	}
	return err.Error()
}

// flip returns b with byte i xor x.
func flip(b []byte, i int, x byte) []byte {
	c := bytes.Clone(b)
	c[i] ^= x
	return c
}

// swapAC returns a proof with A and C swapped: still points, not valid.
func swapAC(pf []byte) []byte {
	return append(append(append([]byte(nil), pf[144:192]...), pf[48:144]...), pf[0:48]...)
}

// TestPoStCallsBoundary: every PoSt call refuses bad input with the status
// and message expected (the Go API's where it is the Go API's check), sets
// no output, and stops a call cancelled before the work; valid inputs
// reach the parameter files (absent here: bad input naming them).
func TestPoStCallsBoundary(t *testing.T) {
	v := loadVectors(t)
	w, win := v.window, v.winning
	dir := vkDir(t, v)
	o := options(t, dir, false)
	short := w.Vanilla[1][:100]
	otherRnd := flip(w.Randomness, 0, 1)
	badRnd := flip(w.Randomness, 31, 0xc0) // byte 31 above 0x3f: not a field element
	goWindow := func(p abi.RegisteredPoStProof, rnd []byte, vs [][]byte) string {
		_, err := porep.GenerateWindowPoStWithVanilla(p, w.Miner, rnd, vs, porep.WithParamsDir(dir), porep.WithBackend(porep.BackendCPU))
		return goMsg(t, err)
	}
	nullEntry := byteList(w.Vanilla[0], w.Vanilla[1])
	nullEntry.e[1].ptr = nil
	runChecks(t, []check{
		{"truncated vanilla_proofs[1]", windowProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla[0], short), o), statusBadInput,
			goWindow(w.Proof, w.Randomness, [][]byte{w.Vanilla[0], short}), true},
		{"truncated names index and field", windowProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla[0], short), o), statusBadInput,
			"vanilla proof 1 (100 bytes, StackedDrgWindow2KiBV1_1 wants 5680): vanilla proof: sector_proofs[0].inclusion_proofs[0].leaf at byte 92: truncated", false},
		{"other randomness", windowProve(w.Proof, otherRnd, w.Miner, byteList(w.Vanilla...), o), statusBadInput,
			goWindow(w.Proof, otherRnd, w.Vanilla), true},
		{"non-canonical randomness", windowProve(w.Proof, badRnd, w.Miner, byteList(w.Vanilla...), o), statusBadInput,
			goWindow(w.Proof, badRnd, w.Vanilla), true},
		{"randomness_len 31", windowProve(w.Proof, w.Randomness[:31], w.Miner, byteList(w.Vanilla...), o), statusBadInput,
			"randomness_len is 31, want 32 (the PoSt randomness)", true},
		{"randomness NULL", windowProve(w.Proof, nil, w.Miner, byteList(w.Vanilla...), o), statusBadInput,
			"randomness is NULL (want 32 bytes)", true},
		{"sectors out of order", windowProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla[1], w.Vanilla[0]), o), statusBadInput,
			"vanilla proof 1 (sector 21000) after vanilla proof 0 (sector 21001)", false},
		{"sector twice", windowProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla[0], w.Vanilla[0]), o), statusBadInput,
			"vanilla proofs 0 and 1 are both for sector 21000", false},
		{"winning vanilla proof for window", windowProve(w.Proof, w.Randomness, w.Miner, byteList(win.Vanilla...), o), statusBadInput,
			"66 elements, want 10", false},
		{"unknown registered proof", windowProve(999, w.Randomness, w.Miner, byteList(w.Vanilla...), o), statusBadInput,
			goWindow(999, w.Randomness, w.Vanilla), true},
		{"winning proof type", windowProve(win.Proof, w.Randomness, w.Miner, byteList(w.Vanilla...), o), statusBadInput,
			"StackedDrgWinning2KiBV1 is a WinningPoSt proof, want WindowPoSt", false},
		{"no vanilla proofs", windowProve(w.Proof, w.Randomness, w.Miner, byteList(), o), statusBadInput, "porep: no vanilla proofs", true},
		{"vanilla_proofs NULL with a count", windowProve(w.Proof, w.Randomness, w.Miner, arr[cBytes]{nil, 2}, o), statusBadInput,
			"vanilla_proofs is NULL with vanilla_proofs_len 2", true},
		{"vanilla_proofs[1].ptr NULL", windowProve(w.Proof, w.Randomness, w.Miner, nullEntry, o), statusBadInput,
			"vanilla_proofs[1].ptr is NULL with len 5680", true},
		{"empty vanilla_proofs[1]", windowProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla[0], nil), o), statusBadInput,
			"vanilla proof 1 (0 bytes", false},
		{"no parameters", windowProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla...), o), statusBadInput,
			"parameter file not found", false},
		{"cancelled", windowProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla...), options(t, dir, true)), statusCancelled,
			"context canceled", false},

		{"winning: two vanilla proofs", winningProve(win.Proof, win.Randomness, win.Miner, byteList(win.Vanilla[0], win.Vanilla[0]), o), statusBadInput,
			"2 vanilla proofs, want 1", false},
		{"winning: window vanilla proof", winningProve(win.Proof, win.Randomness, win.Miner, byteList(w.Vanilla[0]), o), statusBadInput,
			"vanilla proof 0 (5680 bytes, StackedDrgWinning2KiBV1 wants 36816)", false},
		{"winning: corrupted vanilla proof", winningProve(win.Proof, win.Randomness, win.Miner, byteList(flip(win.Vanilla[0], 200, 1)), o), statusBadInput,
			"porep: StackedDrgWinning2KiBV1: post: partition 0 slot", false},
		{"winning: window proof type", winningProve(w.Proof, win.Randomness, win.Miner, byteList(win.Vanilla...), o), statusBadInput,
			"is a WindowPoSt proof, want WinningPoSt", false},
		{"winning: no parameters", winningProve(win.Proof, win.Randomness, win.Miner, byteList(win.Vanilla...), o), statusBadInput,
			"parameter file not found", false},
		{"winning: cancelled", winningProve(win.Proof, win.Randomness, win.Miner, byteList(win.Vanilla...), options(t, dir, true)), statusCancelled,
			"context canceled", false},

		{"single: three sectors", singleProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla[0], w.Vanilla[1], w.Vanilla[0]), 0, o), statusBadInput,
			"3 vanilla proofs for one partition, at most 2", false},
		{"single: partition_index huge", singleProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla...), 1<<40, o), statusBadInput,
			"partition_index 1099511627776 is more than 16777216", true},
		{"single: partition_index 2^24+1", singleProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla...), 1<<24+1, o), statusBadInput,
			"partition_index 16777217 is more than 16777216", true},
		{"single: partition_index 2^24 (no check against the sectors)", singleProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla...), 1<<24, o), statusBadInput,
			"parameter file not found", false},
		{"single: no parameters", singleProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla...), 3, o), statusBadInput,
			"parameter file not found", false},
		{"single: cancelled", singleProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla...), 0, options(t, dir, true)), statusCancelled,
			"context canceled", false},

		{"merge: one proof", merge(w.Proof, byteList(w.Want)), statusOK, "", false},
		{"merge: short proof", merge(w.Proof, byteList(w.Want[:100])), statusBadInput,
			"porep: partition proof 0: 100 bytes of proof type 10, want 192 bytes of StackedDrgWindow2KiBV1_1 (10)", true},
		{"merge: winning type", merge(win.Proof, byteList(w.Want)), statusBadInput, "is a WinningPoSt proof, want WindowPoSt", false},
		{"merge: none", merge(w.Proof, byteList()), statusBadInput, "porep: no partition proofs to merge", true},
		{"merge: NULL with a count", merge(w.Proof, arr[cBytes]{nil, 1}), statusBadInput,
			"partition_proofs is NULL with partition_proofs_len 1", true},
	})
	if r := merge(w.Proof, byteList(w.Want, swapAC(w.Want))); r.status != statusOK || !bytes.Equal(r.out, append(bytes.Clone(w.Want), swapAC(w.Want)...)) {
		t.Errorf("merge of two: %v", r)
	}

	// NULL outputs are refused, naming them.
	var msg *cChar
	rnd, vs := w.Randomness, byteList(w.Vanilla...)
	st := libcuseal_go_generate_window_post_with_vanilla(cI64(w.Proof), cPtr(rnd), 32, cU64(w.Miner), vs.ptr(), vs.count(), o, nil, nil, &msg)
	if m := takeString(msg); st != statusBadInput || m != cmsg("generate_window_post_with_vanilla", "proof_out and proof_len are NULL (an output: pass the address of a variable to receive it)") {
		t.Errorf("NULL proof_out: %d %q", st, m)
	}
	// A NULL err_msg is allowed: the status alone.
	if st := libcuseal_go_generate_window_post_with_vanilla(cI64(w.Proof), nil, 0, cU64(w.Miner), vs.ptr(), vs.count(), o, nil, nil, nil); st != statusBadInput {
		t.Errorf("NULL err_msg: status %d", st)
	}
	// A wrong struct_size.
	bad := options(t, dir, false)
	bad.struct_size = 8
	runChecks(t, []check{{"struct_size 8", windowProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla...), bad), statusBadInput,
		"libcuseal: generate_window_post_with_vanilla: options.struct_size is 8, want", false}})
	// A cancel handle that was freed.
	freed := options(t, dir, false)
	freed.cancel = libcuseal_go_cancel_new()
	libcuseal_go_cancel_free(freed.cancel)
	runChecks(t, []check{{"freed cancel handle", windowProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla...), freed), statusBadInput,
		fmt.Sprintf("options.cancel %p is not a live handle from cuseal_porep_cancel_new", unsafe.Pointer(freed.cancel)), true}})
}

// TestPoStChallengeCalls: the two challenge calls give rust-fil-proofs'
// challenges (the vectors' meta.json, through the Go API), the sectors in
// filecoin-ffi's order (ascending, each once, whatever order they were
// given in), and refuse bad input.
func TestPoStChallengeCalls(t *testing.T) {
	v := loadVectors(t)
	for _, pv := range []struct {
		name string
		ids  []abi.SectorNumber
		p    abi.RegisteredPoStProof
		rnd  []byte
	}{
		{"window", []abi.SectorNumber{21000, 21001}, v.window.Proof, v.window.Randomness},
		{"window, given in reverse and one twice", []abi.SectorNumber{21001, 7, 21000, 21001}, v.window.Proof, v.window.Randomness},
		{"winning", []abi.SectorNumber{22000, 5, 9}, v.winning.Proof, v.winning.Randomness},
	} {
		want, err := porep.GeneratePoStFallbackSectorChallenges(pv.p, 1000, pv.rnd, pv.ids)
		if err != nil {
			t.Fatal(err)
		}
		ids, chs, stride, r := fallbackCall(pv.p, pv.rnd, pv.ids, 1000)
		if r.status != statusOK || len(ids) != len(want.Sectors) {
			t.Fatalf("%s: %v, %d sectors, want %d", pv.name, r, len(ids), len(want.Sectors))
		}
		for i, s := range slices.Sorted(slices.Values(want.Sectors)) {
			w := want.Challenges[s]
			if abi.SectorNumber(ids[i]) != s || stride != len(w) {
				t.Fatalf("%s: sector %d: %d with stride %d, want %d with %d", pv.name, i, ids[i], stride, s, len(w))
			}
			for j := range w {
				if chs[i*stride+j] != w[j] {
					t.Errorf("%s: sector %d challenge %d: %d, want %d", pv.name, s, j, chs[i*stride+j], w[j])
				}
			}
		}
	}
	for _, n := range []uint64{1, 2, 1000} {
		want, err := porep.GenerateWinningPoStSectorChallenge(v.winning.Proof, 1000, v.winning.Randomness, n)
		if err != nil {
			t.Fatal(err)
		}
		got, r := winningChallengeCall(v.winning.Proof, v.winning.Randomness, n, 1000)
		if r.status != statusOK || len(got) != len(want) || got[0] != want[0] {
			t.Errorf("winning sector challenge of %d: %v %v, want %v", n, got, r, want)
		}
	}
	_, r0 := winningChallengeCall(v.winning.Proof, v.winning.Randomness, 0, 1000)
	_, rw := winningChallengeCall(v.window.Proof, v.winning.Randomness, 1, 1000)
	_, rs := winningChallengeCall(v.winning.Proof, v.winning.Randomness[:16], 1, 1000)
	_, _, _, fNone := fallbackCall(v.window.Proof, v.window.Randomness, nil, 1000)
	_, _, _, fBad := fallbackCall(998, v.window.Randomness, []abi.SectorNumber{1}, 1000)
	_, _, _, fRnd := fallbackCall(v.window.Proof, flip(v.window.Randomness, 31, 0xc0), []abi.SectorNumber{1}, 1000)
	// The rule is rust-fil-proofs' canonical field element, not Lotus's
	// mask: byte 31 = 0x50 is above 0x3f but below the modulus' 0x73.
	withTop := func(b byte) []byte { r := bytes.Clone(v.window.Randomness); r[31] = b; return r }
	_, _, _, fTop50 := fallbackCall(v.window.Proof, withTop(0x50), []abi.SectorNumber{1}, 1000)
	_, _, _, fTop74 := fallbackCall(v.window.Proof, withTop(0x74), []abi.SectorNumber{1}, 1000)
	runChecks(t, []check{
		{"winning challenge: no sectors", r0, statusBadInput, "no eligible sectors", false},
		{"winning challenge: window type", rw, statusBadInput, "is a WindowPoSt proof, want WinningPoSt", false},
		{"winning challenge: randomness_len 16", rs, statusBadInput,
			"randomness_len is 16, want 32 (the PoSt randomness)", true},
		{"fallback: no sectors", fNone, statusBadInput, "no sectors", false},
		{"fallback: unknown proof", fBad, statusBadInput, "998", false},
		{"fallback: non-canonical randomness", fRnd, statusBadInput, "not a canonical field element", false},
		{"fallback: randomness byte 31 0x50 (canonical)", fTop50, statusOK, "", false},
		{"fallback: randomness byte 31 0x74", fTop74, statusBadInput,
			fmt.Sprintf("porep: randomness: %x is not a canonical field element (mask byte 31 with 0x3f)", withTop(0x74)), true},
	})
	var msg *cChar
	if st := libcuseal_go_generate_fallback_sector_challenges(cI64(v.window.Proof), cPtr(v.window.Randomness), 32, nil, 2, 1000, nil, nil, nil, nil, &msg); st != statusBadInput ||
		takeString(msg) != cmsg("generate_fallback_sector_challenges", "sector_ids_out, sector_ids_out_len, challenges_out and challenges_stride are NULL (an output: pass the address of a variable to receive it)") {
		t.Errorf("fallback NULL outputs: %d", st)
	}
}

func fallbackCall(p abi.RegisteredPoStProof, rnd []byte, ids []abi.SectorNumber, miner abi.ActorID) (sectors, challenges []uint64, stride int, r res) {
	in := make([]cU64, len(ids))
	for i, id := range ids {
		in[i] = cU64(id)
	}
	return fallbackCallRaw(p, rnd, list(in...))
}

func fallbackCallRaw(p abi.RegisteredPoStProof, rnd []byte, ids arr[cU64]) (sectors, challenges []uint64, stride int, r res) {
	idsOut, chOut := new(cU64), new(cU64) // junk the call must reset (bytesCall)
	idsLen, strideOut := cSize(0x5a5a), cSize(0x5a5a)
	var msg *cChar
	st := libcuseal_go_generate_fallback_sector_challenges(cI64(p), cPtr(rnd), cSize(len(rnd)), ids.ptr(), ids.count(), 1000,
		&idsOut, &idsLen, &chOut, &strideOut, &msg)
	r = res{call: "generate_fallback_sector_challenges", status: int(st), msg: takeString(msg), partial: st != statusOK && (idsOut != nil || idsLen != 0 || chOut != nil || strideOut != 0)}
	if st != statusOK {
		return nil, nil, 0, r
	}
	return takeU64s(idsOut, idsLen), takeU64s(chOut, idsLen*strideOut), int(strideOut), r
}

func winningChallengeCall(p abi.RegisteredPoStProof, rnd []byte, n uint64, miner abi.ActorID) ([]uint64, res) {
	out, outLen := new(cU64), cSize(0x5a5a) // junk the call must reset (bytesCall)
	var msg *cChar
	st := libcuseal_go_generate_winning_post_sector_challenge(cI64(p), cPtr(rnd), cSize(len(rnd)), cU64(n), cU64(miner), &out, &outLen, &msg)
	r := res{call: "generate_winning_post_sector_challenge", status: int(st), msg: takeString(msg), partial: st != statusOK && (out != nil || outLen != 0)}
	if st != statusOK {
		return nil, r
	}
	return takeU64s(out, outLen), r
}

// TestPoStVerifyCalls: the verify calls accept rust-fil-proofs' proofs of
// the reference vectors (their .vk only) and reject tampered ones: a
// changed proof or randomness is invalid, malformed input is bad input.
func TestPoStVerifyCalls(t *testing.T) {
	v := loadVectors(t)
	w, win := v.window, v.winning
	o := options(t, vkDir(t, v), false)
	wSectors := sectorList([]abi.SectorNumber{21000, 21001}, [][]byte{commR(t, w, 0), commR(t, w, 1)})
	wReversed := sectorList([]abi.SectorNumber{21001, 21000}, [][]byte{commR(t, w, 1), commR(t, w, 0)})
	wTwice := sectorList([]abi.SectorNumber{21000, 21000}, [][]byte{commR(t, w, 0), commR(t, w, 0)})
	winSectors := sectorList([]abi.SectorNumber{win.Sectors[0].SectorNumber}, [][]byte{commR(t, win, 0)})
	otherCommR := sectorList([]abi.SectorNumber{21000, 21001}, [][]byte{commR(t, w, 1), commR(t, w, 0)})
	nonCanonical := sectorList([]abi.SectorNumber{21000, 21001}, [][]byte{bytes.Repeat([]byte{0xff}, 32), commR(t, w, 1)})
	runChecks(t, []check{
		{"window: proof.bin", verifyPoStCall(false, w.Proof, w.Randomness, wSectors, w.Want, w.Miner, o), statusOK, "", false},
		{"window: sectors in reverse", verifyPoStCall(false, w.Proof, w.Randomness, wReversed, w.Want, w.Miner, o), statusOK, "", false},
		// As in rust-fil-proofs the miner is no input of a PoSt proof (the header says so).
		{"window: another miner", verifyPoStCall(false, w.Proof, w.Randomness, wSectors, w.Want, w.Miner+1, o), statusOK, "", false},
		{"window: A and C swapped", verifyPoStCall(false, w.Proof, w.Randomness, wSectors, swapAC(w.Want), w.Miner, o), statusInvalid, "porep: the proof is invalid", true},
		{"window: other randomness", verifyPoStCall(false, w.Proof, flip(w.Randomness, 0, 1), wSectors, w.Want, w.Miner, o), statusInvalid, "porep: the proof is invalid", true},
		{"window: comm_rs exchanged", verifyPoStCall(false, w.Proof, w.Randomness, otherCommR, w.Want, w.Miner, o), statusInvalid, "porep: the proof is invalid", true},
		{"window: non-canonical comm_r", verifyPoStCall(false, w.Proof, w.Randomness, nonCanonical, w.Want, w.Miner, o), statusBadInput,
			"challenged sector 21000 comm_r", false},
		{"window: truncated proof", verifyPoStCall(false, w.Proof, w.Randomness, wSectors, w.Want[:191], w.Miner, o), statusBadInput, "proof is 191 bytes, want 192", false},
		{"window: undecodable proof", verifyPoStCall(false, w.Proof, w.Randomness, wSectors, flip(w.Want, 0, 0x80), w.Miner, o), statusBadInput, "porep: proof:", false},
		{"window: no proof", verifyPoStCall(false, w.Proof, w.Randomness, wSectors, nil, w.Miner, o), statusBadInput, "proof is 0 bytes", false},
		{"window: sector twice", verifyPoStCall(false, w.Proof, w.Randomness, wTwice, w.Want, w.Miner, o), statusBadInput, "challenged sector 21000 is listed twice", false},
		{"window: no sectors", verifyPoStCall(false, w.Proof, w.Randomness, list[cSectorInfo](), w.Want, w.Miner, o), statusBadInput, "porep: no challenged sectors", true},
		{"window: sectors NULL with a count", verifyPoStCall(false, w.Proof, w.Randomness, arr[cSectorInfo]{nil, 2}, w.Want, w.Miner, o), statusBadInput,
			"sectors is NULL with sectors_len 2", true},
		{"window: unknown proof", verifyPoStCall(false, 77, w.Randomness, wSectors, w.Want, w.Miner, o), statusBadInput, "77", false},
		{"window: winning type", verifyPoStCall(false, win.Proof, w.Randomness, wSectors, w.Want, w.Miner, o), statusBadInput, "want WindowPoSt", false},
		{"window: cancelled", verifyPoStCall(false, w.Proof, w.Randomness, wSectors, w.Want, w.Miner, options(t, vkDir(t, v), true)), statusCancelled, "context canceled", false},
		{"window: no .vk", verifyPoStCall(false, w.Proof, w.Randomness, wSectors, w.Want, w.Miner, options(t, t.TempDir(), false)), statusBadInput, "parameter file not found", false},

		{"winning: proof.bin", verifyPoStCall(true, win.Proof, win.Randomness, winSectors, win.Want, win.Miner, o), statusOK, "", false},
		{"winning: another miner", verifyPoStCall(true, win.Proof, win.Randomness, winSectors, win.Want, win.Miner+1, o), statusOK, "", false},
		{"winning: A and C swapped", verifyPoStCall(true, win.Proof, win.Randomness, winSectors, swapAC(win.Want), win.Miner, o), statusInvalid, "porep: the proof is invalid", true},
		{"winning: other randomness", verifyPoStCall(true, win.Proof, flip(win.Randomness, 5, 1), winSectors, win.Want, win.Miner, o), statusInvalid, "porep: the proof is invalid", true},
		{"winning: two sectors", verifyPoStCall(true, win.Proof, win.Randomness, wSectors, win.Want, win.Miner, o), statusBadInput, "2 challenged sectors, want 1", false},
		{"winning: randomness_len 0", verifyPoStCall(true, win.Proof, nil, winSectors, win.Want, win.Miner, o), statusBadInput,
			"randomness is NULL (want 32 bytes)", true},
		{"winning: window type", verifyPoStCall(true, w.Proof, win.Randomness, winSectors, win.Want, win.Miner, o), statusBadInput, "want WinningPoSt", false},
	})
}

// TestUpdateCalls: SnapDeals verification of rust-fil-proofs' proof and
// the prover's checks of its vanilla proof and commitments.
func TestUpdateCalls(t *testing.T) {
	v := loadVectors(t)
	u := v.update
	dir := vkDir(t, v)
	o := options(t, dir, false)
	rOld, rNew, dNew := u.CommROld[:], u.CommRNew[:], u.CommDNew[:]
	goProve := func(vs [][]byte) string {
		_, err := porep.GenerateUpdateProofWithVanilla(u.Proof, u.OldSealed, u.NewSealed, u.NewUnseal, vs, porep.WithParamsDir(dir))
		return goMsg(t, err)
	}
	corrupted := flip(u.Vanilla[0], 1000, 1)
	runChecks(t, []check{
		{"verify proof.bin", updateVerify(u.Proof, u.Want, rOld, rNew, dNew, o), statusOK, "", false},
		{"verify: comm_r_old and comm_r_new swapped", updateVerify(u.Proof, u.Want, rNew, rOld, dNew, o), statusInvalid, "porep: the proof is invalid", true},
		{"verify: A and C swapped", updateVerify(u.Proof, swapAC(u.Want), rOld, rNew, dNew, o), statusInvalid, "porep: the proof is invalid", true},
		{"verify: truncated", updateVerify(u.Proof, u.Want[:150], rOld, rNew, dNew, o), statusBadInput, "proof is 150 bytes, want 192", false},
		{"verify: undecodable", updateVerify(u.Proof, flip(u.Want, 0, 0x80), rOld, rNew, dNew, o), statusBadInput, "porep: proof:", false},
		{"verify: comm_d_new NULL", updateVerify(u.Proof, u.Want, rOld, rNew, nil, o), statusBadInput,
			"comm_d_new is NULL (want 32 bytes)", true},
		{"verify: non-canonical comm_r_new", updateVerify(u.Proof, u.Want, rOld, bytes.Repeat([]byte{0xff}, 32), dNew, o), statusBadInput,
			"comm_r_new: ", false},
		{"verify: unknown proof", updateVerify(99, u.Want, rOld, rNew, dNew, o), statusBadInput, "99", false},
		{"verify: cancelled", updateVerify(u.Proof, u.Want, rOld, rNew, dNew, options(t, dir, true)), statusCancelled, "context canceled", false},

		{"prove: truncated", updateProve(u.Proof, byteList(u.Vanilla[0][:5000]), rOld, rNew, dNew, o), statusBadInput,
			goProve([][]byte{u.Vanilla[0][:5000]}), true},
		{"prove: corrupted", updateProve(u.Proof, byteList(corrupted), rOld, rNew, dNew, o), statusBadInput, goProve([][]byte{corrupted}), true},
		{"prove: two partitions", updateProve(u.Proof, byteList(u.Vanilla[0], u.Vanilla[0]), rOld, rNew, dNew, o), statusBadInput,
			"porep: StackedDrg2KiBV1: 2 vanilla partition proofs, want 1 (one per partition)", true},
		{"prove: none", updateProve(u.Proof, byteList(), rOld, rNew, dNew, o), statusBadInput, "0 vanilla partition proofs, want 1", false},
		{"prove: commitments of another sector", updateProve(u.Proof, byteList(u.Vanilla...), rNew, rOld, dNew, o), statusBadInput, "porep: vanilla proof:", false},
		{"prove: comm_r_old NULL", updateProve(u.Proof, byteList(u.Vanilla...), nil, rNew, dNew, o), statusBadInput,
			"comm_r_old is NULL (want 32 bytes)", true},
		{"prove: vanilla_proofs NULL", updateProve(u.Proof, arr[cBytes]{nil, 1}, rOld, rNew, dNew, o), statusBadInput,
			"vanilla_proofs is NULL with vanilla_proofs_len 1", true},
		{"prove: unknown proof", updateProve(99, byteList(u.Vanilla...), rOld, rNew, dNew, o), statusBadInput, "99", false},
		{"prove: no parameters", updateProve(u.Proof, byteList(u.Vanilla...), rOld, rNew, dNew, o), statusBadInput, "parameter file not found", false},
		{"prove: cancelled", updateProve(u.Proof, byteList(u.Vanilla...), rOld, rNew, dNew, options(t, dir, true)), statusCancelled, "context canceled", false},
	})
}

// TestAggregateCalls: aggregate_seal_proofs over the proofs of 2KiB-s10 and
// 2KiB-s14 is filecoin-proofs' aggregate byte for byte, and verifies; the
// aggregate of proofs that do not belong to their sectors is refused as
// invalid (the self-check); malformed input is bad input.
func TestAggregateCalls(t *testing.T) {
	v := loadVectors(t)
	a := v.agg
	dir := vkDir(t, v)
	o := options(t, dir, false)
	s0, s1 := a.Sectors[0], a.Sectors[1]
	in := aggInputs(s0, s1)
	proofs := byteList(s0.Proof, s1.Proof)
	v2 := abi.RegisteredAggregationProof_SnarkPackV2
	got := aggregateCall(a.Proof, v2, a.Miner, in, proofs, 2, o)
	if got.status != statusOK || !bytes.Equal(got.out, a.Want) {
		t.Fatalf("aggregate: %v; want agg-2KiB-s10-s14/aggregate.bin (%d bytes)", got, len(a.Want))
	}
	otherSeed := s1
	otherSeed.Seed = bytes.Repeat([]byte{7}, 32)
	nullProof := byteList(s0.Proof, s1.Proof)
	nullProof.e[1].ptr = nil
	runChecks(t, []check{
		{"verify aggregate.bin", aggregateVerify(a.Proof, v2, a.Miner, a.Want, in, o), statusOK, "", false},
		{"verify: sectors swapped", aggregateVerify(a.Proof, v2, a.Miner, a.Want, aggInputs(s1, s0), o), statusInvalid, "porep: the proof is invalid", true},
		{"verify: other seed", aggregateVerify(a.Proof, v2, a.Miner, a.Want, aggInputs(s0, otherSeed), o), statusInvalid, "porep: the proof is invalid", true},
		{"verify: other miner", aggregateVerify(a.Proof, v2, a.Miner+1, a.Want, in, o), statusInvalid, "porep: the proof is invalid", true},
		{"verify: truncated", aggregateVerify(a.Proof, v2, a.Miner, a.Want[:100], in, o), statusBadInput, "byte offset", false},
		{"verify: SnarkPackV1", aggregateVerify(a.Proof, abi.RegisteredAggregationProof_SnarkPackV1, a.Miner, a.Want, in, o), statusBadInput, "SnarkPackV1", false},
		{"verify: unknown seal proof", aggregateVerify(999, v2, a.Miner, a.Want, in, o), statusBadInput,
			"registered_proof 999: registered seal proof 999 is not a StackedDrg proof (0..19)", true},
		{"verify: no inputs", aggregateVerify(a.Proof, v2, a.Miner, a.Want, list[cAggInput](), o), statusBadInput, "inputs_len is 0 (want at least one sector)", true},
		{"verify: inputs NULL with a count", aggregateVerify(a.Proof, v2, a.Miner, a.Want, arr[cAggInput]{nil, 2}, o), statusBadInput,
			"inputs is NULL with inputs_len 2", true},
		{"verify: cancelled", aggregateVerify(a.Proof, v2, a.Miner, a.Want, in, options(t, dir, true)), statusCancelled, "context canceled", false},

		{"aggregate: proofs of other sectors", aggregateCall(a.Proof, v2, a.Miner, in, byteList(s1.Proof, s0.Proof), 2, o), statusInvalid,
			"the aggregate does not verify: a seal proof is not a valid proof of its sector's inputs", true},
		{"aggregate: other ticket", aggregateCall(a.Proof, v2, a.Miner, aggInputs(s0, aggSector{Number: s1.Number, CommR: s1.CommR, CommD: s1.CommD, Ticket: s0.Ticket, Seed: s1.Seed}), proofs, 2, o),
			statusInvalid, "the aggregate does not verify", false},
		{"aggregate: undecodable proof 1", aggregateCall(a.Proof, v2, a.Miner, in, byteList(s0.Proof, flip(s1.Proof, 0, 0x80)), 2, o), statusBadInput, "libcuseal: aggregate_seal_proofs: seal_proofs[1]: ", false},
		{"aggregate: short proof 0", aggregateCall(a.Proof, v2, a.Miner, in, byteList(s0.Proof[:191], s1.Proof), 2, o), statusBadInput,
			"seal_proofs[0] is 191 bytes, want 192 (1 partitions × 192) for StackedDrg2KiBV1_1", true},
		{"aggregate: seal_proofs[1].ptr NULL", aggregateCall(a.Proof, v2, a.Miner, in, nullProof, 2, o), statusBadInput,
			"seal_proofs[1].ptr is NULL with len 192", true},
		{"aggregate: none", aggregateCall(a.Proof, v2, a.Miner, list[cAggInput](), byteList(), 0, o), statusBadInput, "sectors_len is 0 (want at least one sector)", true},
		{"aggregate: SnarkPackV1", aggregateCall(a.Proof, abi.RegisteredAggregationProof_SnarkPackV1, a.Miner, in, proofs, 2, o), statusBadInput, "SnarkPackV1", false},
		{"aggregate: unknown seal proof", aggregateCall(-1, v2, a.Miner, in, proofs, 2, o), statusBadInput, "registered_proof -1", false},
		{"aggregate: no SRS", aggregateCall(a.Proof, v2, a.Miner, in, proofs, 2, options(t, t.TempDir(), false)), statusBadInput, "v28-fil-inner-product-v1.srs", false},
		{"aggregate: cancelled", aggregateCall(a.Proof, v2, a.Miner, in, proofs, 2, options(t, dir, true)), statusCancelled, "context canceled", false},
	})
	var msg *cChar
	if st := libcuseal_go_aggregate_seal_proofs(cI64(a.Proof), cI64(v2), cU64(a.Miner), in.ptr(), proofs.ptr(), 2, o, nil, nil, &msg); st != statusBadInput ||
		takeString(msg) != cmsg("aggregate_seal_proofs", "aggregate_out and aggregate_len are NULL (an output: pass the address of a variable to receive it)") {
		t.Errorf("NULL aggregate_out: %d", st)
	}
}

// TestCallsConcurrent runs every cheap call of every kind from 8
// goroutines at once (with -race: the conversions, caches and messages
// share nothing unsynchronized) and checks each result.
func TestCallsConcurrent(t *testing.T) {
	v := loadVectors(t)
	w, win, u, a := v.window, v.winning, v.update, v.agg
	dir := vkDir(t, v)
	wSectors := sectorList([]abi.SectorNumber{21000, 21001}, [][]byte{commR(t, w, 0), commR(t, w, 1)})
	winSectors := sectorList([]abi.SectorNumber{win.Sectors[0].SectorNumber}, [][]byte{commR(t, win, 0)})
	in := aggInputs(a.Sectors...)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := options(t, dir, false)
			for _, c := range []check{
				{"window", verifyPoStCall(false, w.Proof, w.Randomness, wSectors, w.Want, w.Miner, o), statusOK, "", false},
				{"winning", verifyPoStCall(true, win.Proof, win.Randomness, winSectors, win.Want, win.Miner, o), statusOK, "", false},
				{"window tampered", verifyPoStCall(false, w.Proof, w.Randomness, wSectors, swapAC(w.Want), w.Miner, o), statusInvalid, "", false},
				{"update", updateVerify(u.Proof, u.Want, u.CommROld[:], u.CommRNew[:], u.CommDNew[:], o), statusOK, "", false},
				{"aggregate verify", aggregateVerify(a.Proof, abi.RegisteredAggregationProof_SnarkPackV2, a.Miner, a.Want, in, o), statusOK, "", false},
				{"window prove (bad input)", windowProve(w.Proof, w.Randomness[:g], w.Miner, byteList(w.Vanilla...), o), statusBadInput, "", false},
			} {
				if c.got.status != c.status {
					errs <- fmt.Sprintf("goroutine %d: %s: %v", g, c.name, c.got)
				}
			}
			if ids, chs, stride, r := fallbackCall(w.Proof, w.Randomness, []abi.SectorNumber{21000, 21001}, 1000); r.status != statusOK ||
				len(ids) != 2 || stride != 10 || len(chs) != 20 || chs[0] != 44 {
				errs <- fmt.Sprintf("goroutine %d: fallback challenges: %v %v %v", g, ids, chs, r)
			}
			if idx, r := winningChallengeCall(win.Proof, win.Randomness, 1000, 1000); r.status != statusOK || len(idx) != 1 {
				errs <- fmt.Sprintf("goroutine %d: winning sector challenge: %v %v", g, idx, r)
			}
			if m := merge(w.Proof, byteList(w.Want, w.Want)); m.status != statusOK || len(m.out) != 2*len(w.Want) {
				errs <- fmt.Sprintf("goroutine %d: merge: %v", g, m)
			}
			agg := aggregateCall(a.Proof, abi.RegisteredAggregationProof_SnarkPackV2, a.Miner, in, byteList(a.Sectors[0].Proof, a.Sectors[1].Proof), 2, o)
			if agg.status != statusOK || !bytes.Equal(agg.out, a.Want) {
				errs <- fmt.Sprintf("goroutine %d: aggregate: %v", g, agg)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestVerifySealNIPoRep: verify_seal accepts filecoin-proofs' NI-PoRep C2
// output (the SnarkPack aggregate of the sector's 13 partition proofs) and
// says what an NI-PoRep proof is when given partition proofs instead.
func TestVerifySealNIPoRep(t *testing.T) {
	v := loadVectors(t)
	o := options(t, vkDir(t, v), false)
	s := readAggSector(t, "2KiB-ni-s12")
	agg, err := os.ReadFile(filepath.Join(goldenDir, "agg-2KiB-ni-s12", "aggregate.bin"))
	if err != nil {
		t.Fatal(err)
	}
	verify := func(pf []byte) res {
		return statusCall("verify_seal", func(msg **cChar) int {
			return int(libcuseal_go_verify_seal(cI64(abi.RegisteredSealProof_StackedDrg2KiBV1_2_Feat_NiPoRep), cPtr(s.CommR), cPtr(s.CommD), 1000,
				cU64(s.Number), cPtr(s.Ticket), cPtr(s.Seed), cPtr(pf), cSize(len(pf)), o, msg))
		})
	}
	runChecks(t, []check{
		{"aggregate.bin", verify(agg), statusOK, "", false},
		{"one partition proof", verify(s.Proof[:192]), statusBadInput, fmt.Sprintf("porep: proof is 192 bytes, want %d for StackedDrg2KiBV1_2_Feat_NonInteractivePoRep: "+
			"an NI-PoRep proof is the SnarkPack aggregate of the sector's 13 partition proofs (padded to 16), as SealCommitPhase2 returns it, not 192-byte partition proofs", len(agg)), true},
		{"13 partition proofs", verify(s.Proof), statusBadInput, "porep: proof is 2496 bytes, want", false},
		{"aggregate.bin cut", verify(agg[:len(agg)-1]), statusBadInput, "an NI-PoRep proof is the SnarkPack aggregate", false},
	})
}

// TestUnknownBackend: an unknown options.backend is bad input naming it for
// every call that takes options, also for those that do not prove (the
// verify calls ignored it before), and the otherwise valid input is not
// looked at further.
func TestUnknownBackend(t *testing.T) {
	v := loadVectors(t)
	w, win, u, a := v.window, v.winning, v.update, v.agg
	dir := vkDir(t, v)
	backends := []string{"tpu"}
	if !cudaBuild {
		backends = append(backends, porep.BackendCUDA)
	}
	for _, backend := range backends {
		o := options(t, dir, false)
		o.backend = cStr(backend)
		want := fmt.Sprintf("options.backend %q: porep: unknown backend (this library has auto, %s)", backend, strings.Join(porep.Backends(), ", "))
		if spec, ok := porep.LookupBackend(backend); ok && spec.Missing != "" {
			want = fmt.Sprintf("options.backend %q: porep: unknown backend: this build has no %s", backend, spec.Missing)
		}
		wSectors := sectorList([]abi.SectorNumber{21000, 21001}, [][]byte{commR(t, w, 0), commR(t, w, 1)})
		winSectors := sectorList([]abi.SectorNumber{win.Sectors[0].SectorNumber}, [][]byte{commR(t, win, 0)})
		s0 := a.Sectors[0]
		in := aggInputs(a.Sectors...)
		v2 := abi.RegisteredAggregationProof_SnarkPackV2
		var checks []check
		for _, r := range []res{
			windowProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla...), o),
			winningProve(win.Proof, win.Randomness, win.Miner, byteList(win.Vanilla...), o),
			singleProve(w.Proof, w.Randomness, w.Miner, byteList(w.Vanilla...), 0, o),
			verifyPoStCall(false, w.Proof, w.Randomness, wSectors, w.Want, w.Miner, o),
			verifyPoStCall(true, win.Proof, win.Randomness, winSectors, win.Want, win.Miner, o),
			updateProve(u.Proof, byteList(u.Vanilla...), u.CommROld[:], u.CommRNew[:], u.CommDNew[:], o),
			updateVerify(u.Proof, u.Want, u.CommROld[:], u.CommRNew[:], u.CommDNew[:], o),
			aggregateCall(a.Proof, v2, a.Miner, in, byteList(a.Sectors[0].Proof, a.Sectors[1].Proof), 2, o),
			aggregateVerify(a.Proof, v2, a.Miner, a.Want, in, o),
			statusCall("verify_seal", func(msg **cChar) int {
				return int(libcuseal_go_verify_seal(cI64(a.Proof), cPtr(s0.CommR), cPtr(s0.CommD), cU64(a.Miner), cU64(s0.Number),
					cPtr(s0.Ticket), cPtr(s0.Seed), cPtr(s0.Proof), cSize(len(s0.Proof)), o, msg))
			}),
			statusCall("generate_test_params", func(msg **cChar) int {
				var js *cChar
				return int(libcuseal_go_generate_test_params(cI64(a.Proof), cStr(t.TempDir()), nil, 0, o, &js, msg))
			}),
			statusCall("generate_circuit_test_params", func(msg **cChar) int {
				var js *cChar
				return int(libcuseal_go_generate_circuit_test_params(circuitUpdate, cI64(u.Proof), cStr(t.TempDir()), nil, 0, o, &js, msg))
			}),
		} {
			checks = append(checks, check{backend + ": " + r.call, r, statusBadInput, want, true})
		}
		runChecks(t, checks)
	}
}

// TestVerifySealUnknownProof: verify_seal reports an unknown registered
// proof as bad input naming the argument (it was internal in version 1).
func TestVerifySealUnknownProof(t *testing.T) {
	var msg *cChar
	z := make([]byte, 32)
	st := libcuseal_go_verify_seal(999, cPtr(z), cPtr(z), 1000, 1, cPtr(z), cPtr(z), nil, 0, nil, &msg)
	if m := takeString(msg); st != statusBadInput || m != "libcuseal: verify_seal: registered_proof 999: registered seal proof 999 is not a StackedDrg proof (0..19)" {
		t.Errorf("verify_seal(999): %d %q", st, m)
	}
}

// TestNullOutputs: every call that returns something refuses NULL output
// pointers as bad input naming exactly those, sets every output it was
// given to NULL or 0 (the header's contract: outputs are set only on OK),
// and allows a NULL err_msg (the status alone).
func TestNullOutputs(t *testing.T) {
	v := loadVectors(t)
	w, u, a := v.window, v.update, v.agg
	o := options(t, vkDir(t, v), false)
	vs, parts, uv := byteList(w.Vanilla...), byteList(w.Want), byteList(u.Vanilla...)
	ids := list(cU64(21000))
	in, proofs := aggInputs(a.Sectors...), byteList(a.Sectors[0].Proof, a.Sectors[1].Proof)
	rnd := cPtr(w.Randomness)
	c1 := []byte("{}")
	type outs = []unsafe.Pointer
	b := func(p unsafe.Pointer) **cU8 { return (**cU8)(p) }
	n := func(p unsafe.Pointer) *cSize { return (*cSize)(p) }
	u64 := func(p unsafe.Pointer) **cU64 { return (**cU64)(p) }
	str := func(p unsafe.Pointer) **cChar { return (**cChar)(p) }
	proofOuts := []string{"proof_out", "proof_len"}
	for _, c := range []struct {
		name    string
		outputs []string
		call    func(o outs, msg **cChar) cInt
	}{
		{"info", []string{"json_out"}, func(p outs, msg **cChar) cInt { return libcuseal_go_info(str(p[0]), msg) }},
		{"seal_commit_phase2", proofOuts, func(p outs, msg **cChar) cInt {
			return libcuseal_go_seal_commit_phase2(cPtr(c1), cSize(len(c1)), 1, 1000, nil, b(p[0]), n(p[1]), msg)
		}},
		{"generate_test_params", []string{"json_out"}, func(p outs, msg **cChar) cInt {
			return libcuseal_go_generate_test_params(5, cStr(t.TempDir()), nil, 0, nil, str(p[0]), msg)
		}},
		{"generate_circuit_test_params", []string{"json_out"}, func(p outs, msg **cChar) cInt {
			return libcuseal_go_generate_circuit_test_params(circuitPoSt, cI64(w.Proof), cStr(t.TempDir()), nil, 0, nil, str(p[0]), msg)
		}},
		{"generate_winning_post_sector_challenge", []string{"indices_out", "indices_len"}, func(p outs, msg **cChar) cInt {
			return libcuseal_go_generate_winning_post_sector_challenge(cI64(v.winning.Proof), rnd, 32, 1, 1000, u64(p[0]), n(p[1]), msg)
		}},
		{"generate_fallback_sector_challenges", []string{"sector_ids_out", "sector_ids_out_len", "challenges_out", "challenges_stride"}, func(p outs, msg **cChar) cInt {
			return libcuseal_go_generate_fallback_sector_challenges(cI64(w.Proof), rnd, 32, ids.ptr(), 1, 1000, u64(p[0]), n(p[1]), u64(p[2]), n(p[3]), msg)
		}},
		{"generate_winning_post_with_vanilla", proofOuts, func(p outs, msg **cChar) cInt {
			return libcuseal_go_generate_winning_post_with_vanilla(cI64(v.winning.Proof), rnd, 32, 1000, vs.ptr(), 1, o, b(p[0]), n(p[1]), msg)
		}},
		{"generate_window_post_with_vanilla", proofOuts, func(p outs, msg **cChar) cInt {
			return libcuseal_go_generate_window_post_with_vanilla(cI64(w.Proof), rnd, 32, 1000, vs.ptr(), vs.count(), o, b(p[0]), n(p[1]), msg)
		}},
		{"generate_single_window_post_with_vanilla", proofOuts, func(p outs, msg **cChar) cInt {
			return libcuseal_go_generate_single_window_post_with_vanilla(cI64(w.Proof), rnd, 32, 1000, vs.ptr(), vs.count(), 0, o, b(p[0]), n(p[1]), msg)
		}},
		{"merge_window_post_partition_proofs", proofOuts, func(p outs, msg **cChar) cInt {
			return libcuseal_go_merge_window_post_partition_proofs(cI64(w.Proof), parts.ptr(), 1, b(p[0]), n(p[1]), msg)
		}},
		{"generate_empty_sector_update_proof_with_vanilla", proofOuts, func(p outs, msg **cChar) cInt {
			return libcuseal_go_generate_empty_sector_update_proof_with_vanilla(cI64(u.Proof), uv.ptr(), 1, cPtr(u.CommROld[:]), cPtr(u.CommRNew[:]), cPtr(u.CommDNew[:]), o, b(p[0]), n(p[1]), msg)
		}},
		{"aggregate_seal_proofs", []string{"aggregate_out", "aggregate_len"}, func(p outs, msg **cChar) cInt {
			return libcuseal_go_aggregate_seal_proofs(cI64(a.Proof), 1, cU64(a.Miner), in.ptr(), proofs.ptr(), 2, o, b(p[0]), n(p[1]), msg)
		}},
	} {
		// Each output NULL in turn, then all of them: the others hold junk
		// (a pointer-sized non-zero value) that the call must reset.
		for null := range len(c.outputs) + 1 {
			vars := make([]uintptr, len(c.outputs))
			ptrs := make(outs, len(c.outputs))
			var named []string
			for i := range vars {
				vars[i] = 0x5a5a
				if i == null || null == len(c.outputs) {
					named = append(named, c.outputs[i])
					continue
				}
				ptrs[i] = unsafe.Pointer(&vars[i])
			}
			r := statusCall(c.name, func(msg **cChar) int { return int(c.call(ptrs, msg)) })
			want := cmsg(c.name, nullOutputs(named)+" NULL (an output: pass the address of a variable to receive it)")
			if r.status != statusBadInput || r.msg != want {
				t.Errorf("%s with %v NULL: %v; want %q", c.name, named, r, want)
			}
			for i, x := range vars {
				if ptrs[i] != nil && x != 0 {
					t.Errorf("%s with %v NULL: output %s left at %#x, want NULL or 0", c.name, named, c.outputs[i], x)
				}
			}
			if st := c.call(ptrs, nil); st != statusBadInput {
				t.Errorf("%s with %v NULL and a NULL err_msg: status %d", c.name, named, st)
			}
		}
	}
	// An array pointer NULL with a count, for the calls not covered above.
	_, _, _, r := fallbackCallRaw(w.Proof, w.Randomness, arr[cU64]{nil, 3})
	if r.status != statusBadInput || r.msg != "libcuseal: generate_fallback_sector_challenges: sector_ids is NULL with sector_ids_len 3" {
		t.Errorf("sector_ids NULL: %v", r)
	}
	if r := aggregateCall(a.Proof, 1, a.Miner, arr[cAggInput]{nil, 2}, proofs, 2, o); r.status != statusBadInput ||
		r.msg != "libcuseal: aggregate_seal_proofs: inputs is NULL with sectors_len 2" {
		t.Errorf("aggregate inputs NULL: %v", r)
	}
	if r := winningProve(v.winning.Proof, v.winning.Randomness, 1000, byteList(), o); r.status != statusBadInput || !strings.Contains(r.msg, "0 vanilla proofs, want 1") {
		t.Errorf("winning without vanilla proofs: %v", r)
	}
}
