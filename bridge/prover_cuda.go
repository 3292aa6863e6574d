// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cuda && cgo

package bridge

/*
#include "cuseal_native.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"time"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// QuerySums computes the five query sums of every circuit on device
// (0..DeviceCount()-1, or HostDevice for the host emulation) in one native
// call: the H chain and MSMs on the device, the 0/1 classification on the
// host, the device's mutex held for the kernel region only, so concurrent
// calls on one device are safe. The circuits' memory is only read during
// the call. Errors: a batch whose densities differ from circuit 0's (bit for
// bit) or do not fit the SRS is rejected with a *Error naming the circuit.
func (s *SRS) QuerySums(device int, circuits []Circuit, opts ProveOptions) ([]QuerySums, ProveTimings, error) {
	if initErr != nil {
		return nil, ProveTimings{}, initErr
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.h == nil {
		return nil, ProveTimings{}, errSRSClosed
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	cs := make([]C.cuseal_assignment, len(circuits))
	for i := range circuits {
		c := &circuits[i]
		if len(c.B) != len(c.A) || len(c.C) != len(c.A) {
			return nil, ProveTimings{}, fmt.Errorf("bridge: circuit %d: |a|=%d |b|=%d |c|=%d differ", i, len(c.A), len(c.B), len(c.C))
		}
		for _, d := range []struct {
			name string
			d    *Density
		}{{"a_aux", &c.ADensityAux}, {"b_input", &c.BDensityInput}, {"b_aux", &c.BDensityAux}} {
			if d.d.BitLen < 0 || len(d.d.Words)*64 < d.d.BitLen {
				return nil, ProveTimings{}, fmt.Errorf("bridge: circuit %d: %s density has %d words for %d bits", i, d.name, len(d.d.Words), d.d.BitLen)
			}
		}
		cs[i] = C.cuseal_assignment{
			a: frPtr(&pin, c.A), b: frPtr(&pin, c.B), c: frPtr(&pin, c.C), abc_size: C.uint64_t(len(c.A)),
			input: frPtr(&pin, c.Input), n_input: C.uint64_t(len(c.Input)),
			aux: frPtr(&pin, c.Aux), n_aux: C.uint64_t(len(c.Aux)),
			a_aux:   density(&pin, &c.ADensityAux),
			b_input: density(&pin, &c.BDensityInput),
			b_aux:   density(&pin, &c.BDensityAux),
		}
	}
	o := C.cuseal_prove_options{split_mode: C.uint32_t(opts.Split), msm_window: C.uint32_t(opts.MSMWindow)}
	if opts.SkipBG2 {
		o.flags |= C.CUSEAL_PROVE_SKIP_B_G2
	}
	out := make([]C.cuseal_query_sums, len(circuits))
	var t C.cuseal_prove_timings
	var csp *C.cuseal_assignment
	var outp *C.cuseal_query_sums
	if len(cs) > 0 {
		csp, outp = &cs[0], &out[0]
	}
	if err := wrap(C.cuseal_groth16_query_sums(C.int32_t(device), s.h, csp, C.uint64_t(len(cs)), &o, outp, &t)); err != nil {
		return nil, ProveTimings{}, err
	}
	res := make([]QuerySums, len(circuits))
	for i := range out {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&res[i].H)), len(out[i].h)), unsafe.Slice((*byte)(unsafe.Pointer(&out[i].h[0])), len(out[i].h)))
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&res[i].L)), len(out[i].l)), unsafe.Slice((*byte)(unsafe.Pointer(&out[i].l[0])), len(out[i].l)))
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&res[i].A)), len(out[i].a)), unsafe.Slice((*byte)(unsafe.Pointer(&out[i].a[0])), len(out[i].a)))
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&res[i].BG1)), len(out[i].b_g1)), unsafe.Slice((*byte)(unsafe.Pointer(&out[i].b_g1[0])), len(out[i].b_g1)))
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&res[i].BG2)), len(out[i].b_g2)), unsafe.Slice((*byte)(unsafe.Pointer(&out[i].b_g2[0])), len(out[i].b_g2)))
	}
	pt := ProveTimings{
		Prep: seconds(float64(t.prep)), WaitLock: seconds(float64(t.wait_lock)), Upload: seconds(float64(t.upload)),
		HNTT: seconds(float64(t.h_ntt)), HMSM: seconds(float64(t.h_msm)), LMSM: seconds(float64(t.l_msm)),
		AMSM: seconds(float64(t.a_msm)), BG1MSM: seconds(float64(t.b_g1_msm)), BG2MSM: seconds(float64(t.b_g2_msm)),
		Total: seconds(float64(t.total)), Resident: t.resident != 0,
	}
	for q := 0; q < 3; q++ {
		pt.Split[q] = t.split[q] != 0
		pt.Tail[q] = uint64(t.tail[q])
		pt.Ones[q] = uint64(t.ones[q])
	}
	return res, pt, nil
}

func frPtr(pin *runtime.Pinner, v []fr.Element) unsafe.Pointer {
	if len(v) == 0 {
		return nil
	}
	pin.Pin(&v[0])
	return unsafe.Pointer(&v[0])
}

func density(pin *runtime.Pinner, d *Density) C.cuseal_density {
	var r C.cuseal_density
	r.bit_len = C.uint64_t(d.BitLen)
	if len(d.Words) > 0 {
		pin.Pin(&d.Words[0])
		r.words = (*C.uint64_t)(unsafe.Pointer(&d.Words[0]))
	}
	return r
}

// HostFr is host memory owned by the native library holding N Fr elements,
// page-locked when asked for and possible (cudaHostAlloc), for data that
// goes to the device (a/b/c: pinned memory uploads at full DMA speed and
// skips the driver's staging copy). Go code fills it through Slice; it is
// not garbage collected: Free it.
type HostFr struct {
	p         unsafe.Pointer
	n         int
	Pinned    bool          // page-locked
	AllocTime time.Duration // how long the allocation (and pinning) took
}

// NewHostFr allocates n elements; pinned asks for page-locked memory and
// falls back to ordinary memory without a CUDA device (Pinned says which).
func NewHostFr(n int, pinned bool) (*HostFr, error) {
	if initErr != nil {
		return nil, initErr
	}
	if n < 0 {
		return nil, fmt.Errorf("bridge: NewHostFr: negative length %d", n)
	}
	var p unsafe.Pointer
	var isPinned C.int32_t
	var secs C.double
	pin := C.uint32_t(0)
	if pinned {
		pin = 1
	}
	if err := wrap(C.cuseal_host_alloc(C.uint64_t(n)*C.CUSEAL_FR_BYTES, pin, &p, &isPinned, &secs)); err != nil {
		return nil, err
	}
	return &HostFr{p: p, n: n, Pinned: isPinned != 0, AllocTime: seconds(float64(secs))}, nil
}

// Slice returns the memory as a slice (length and capacity N); valid until Free.
func (h *HostFr) Slice() []fr.Element {
	if h.p == nil {
		return nil
	}
	return unsafe.Slice((*fr.Element)(h.p), h.n)
}

// Free releases the memory; a second Free is a no-op.
func (h *HostFr) Free() error {
	if h.p == nil {
		return nil
	}
	err := wrap(C.cuseal_host_free(h.p))
	h.p = nil
	return err
}
