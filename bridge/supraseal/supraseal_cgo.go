// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build supraseal && cgo

package supraseal

/*
#cgo CFLAGS: -I${SRCDIR}/../../native/supraseal
#cgo LDFLAGS: -L${SRCDIR}/../../native/supraseal/target/release -lcuseal_supraseal -lcuseal_ss_cudart -lstdc++ -lgcc_s -lutil -lrt -lpthread -lm -ldl
// With the cuda tag, build/native/libcuseal_native.a also carries blst's assembly (for sppark's
// host field code). Both archives build blst =0.3.17 in portable mode, so their blst objects
// define the same symbols and the linker takes one; any symbol defined twice fails the link
// (./build.sh supraseal checks the archives first, naming such symbols).
#include <stdlib.h>
#include "cuseal_supraseal.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Built reports whether supraseal is compiled into this binary.
const Built = true

func init() {
	if v := uint32(C.cuseal_ss_abi_version()); v != C.CUSEAL_SS_ABI_VERSION {
		abiErr = fmt.Errorf("supraseal: native/supraseal reports ABI %d, cuseal_supraseal.h declares %d: rebuild it (./build.sh supraseal)", v, C.CUSEAL_SS_ABI_VERSION)
	}
}

var abiErr error

func wrap(e C.cuseal_ss_error) error {
	if e.code == C.CUSEAL_SS_OK {
		return nil
	}
	return &Error{Code: int(e.code), Message: C.GoString(&e.message[0])}
}

// DeviceCount returns the number of devices supraseal would use (0 without a driver).
func DeviceCount() int {
	if abiErr != nil {
		return 0
	}
	return int(C.cuseal_ss_device_count())
}

// SRS is a proving key loaded by supraseal from a bellperson .params file (pinned host memory).
type SRS struct {
	mu   sync.RWMutex
	h    *C.cuseal_ss_srs
	path string
}

// LoadSRS loads path (a bellperson .params file; the same file cuseal reads). supraseal
// deserialises it in a background thread; the first Prove waits for it. It needs a device
// (supraseal allocates the SRS with cudaHostAlloc), so it fails with ErrNoDevice without one.
// supraseal does not check the points it reads: pass only files cuseal has validated.
func LoadSRS(path string) (*SRS, error) {
	if abiErr != nil {
		return nil, abiErr
	}
	if DeviceCount() == 0 {
		return nil, ErrNoDevice
	}
	cp := C.CString(path)
	defer C.free(unsafe.Pointer(cp))
	var h *C.cuseal_ss_srs
	if err := wrap(C.cuseal_ss_srs_load(cp, false, &h)); err != nil {
		return nil, err
	}
	s := &SRS{h: h, path: path}
	runtime.SetFinalizer(s, (*SRS).Close)
	return s, nil
}

// Path is the file the SRS was loaded from.
func (s *SRS) Path() string { return s.path }

// Close frees the SRS (idempotent; waits for running proofs).
func (s *SRS) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.h != nil {
		C.cuseal_ss_srs_free(s.h)
		s.h = nil
	}
	return nil
}

// Prove proves circuits with blinding (r[i], s[i]) on every device supraseal sees (circuits
// are spread over them; the call is serialised process-wide by supraseal). The circuits'
// memory is read in place (pinned for the call, not copied).
func (s *SRS) Prove(circuits []Circuit, r, sv []fr.Element) ([]Proof, error) {
	if abiErr != nil {
		return nil, abiErr
	}
	if len(r) != len(circuits) || len(sv) != len(circuits) {
		return nil, fmt.Errorf("supraseal: %d circuits but %d r and %d s", len(circuits), len(r), len(sv))
	}
	if len(circuits) == 0 {
		return nil, nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.h == nil {
		return nil, fmt.Errorf("supraseal: SRS %s is closed", s.path)
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	cs, err := assignments(&pin, circuits)
	if err != nil {
		return nil, err
	}
	proofs := make([]Proof, len(circuits))
	err = wrap(C.cuseal_ss_prove(&cs[0], C.size_t(len(cs)),
		(*C.uint64_t)(unsafe.Pointer(&r[0])), (*C.uint64_t)(unsafe.Pointer(&sv[0])),
		(*C.uint8_t)(unsafe.Pointer(&proofs[0])), s.h))
	runtime.KeepAlive(circuits)
	if err != nil {
		return nil, err
	}
	return proofs, nil
}

// ValidateCircuits runs the shim's consistency checks (lengths, bit lengths, popcounts, one
// shape per batch) without a device or an SRS; Prove runs the same checks first.
func ValidateCircuits(circuits []Circuit) error {
	if abiErr != nil {
		return abiErr
	}
	if len(circuits) == 0 {
		return nil
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	cs, err := assignments(&pin, circuits)
	if err != nil {
		return err
	}
	return wrap(C.cuseal_ss_check(&cs[0], C.size_t(len(cs))))
}

// assignments builds the C view of circuits, pinning their memory (no copy).
func assignments(pin *runtime.Pinner, circuits []Circuit) ([]C.cuseal_ss_assignment, error) {
	cs := make([]C.cuseal_ss_assignment, len(circuits))
	for i := range circuits {
		c := &circuits[i]
		if len(c.B) != len(c.A) || len(c.C) != len(c.A) {
			return nil, fmt.Errorf("supraseal: circuit %d: |a|=%d |b|=%d |c|=%d differ", i, len(c.A), len(c.B), len(c.C))
		}
		dens := [3]*Density{&c.ADensityAux, &c.BDensityInput, &c.BDensityAux}
		var words [3]*C.uint64_t
		var pops [3]C.size_t
		for q, d := range dens {
			if d.BitLen < 0 || len(d.Words)*64 < d.BitLen {
				return nil, fmt.Errorf("supraseal: circuit %d: %s density has %d words for %d bits", i, densityNames[q], len(d.Words), d.BitLen)
			}
			words[q], pops[q] = densityArgs(pin, d)
		}
		cs[i] = C.cuseal_ss_assignment{
			a_aux_density: words[0], a_aux_bit_len: C.size_t(c.ADensityAux.BitLen), a_aux_popcount: pops[0],
			b_inp_density: words[1], b_inp_bit_len: C.size_t(c.BDensityInput.BitLen), b_inp_popcount: pops[1],
			b_aux_density: words[2], b_aux_bit_len: C.size_t(c.BDensityAux.BitLen), b_aux_popcount: pops[2],
			a: frPtr(pin, c.A), b: frPtr(pin, c.B), c: frPtr(pin, c.C), abc_size: C.size_t(len(c.A)),
			inp_assignment_data: frPtr(pin, c.Input), inp_assignment_size: C.size_t(len(c.Input)),
			aux_assignment_data: frPtr(pin, c.Aux), aux_assignment_size: C.size_t(len(c.Aux)),
		}
	}
	return cs, nil
}

func frPtr(pin *runtime.Pinner, v []fr.Element) *C.uint64_t {
	if len(v) == 0 {
		return nil
	}
	pin.Pin(&v[0])
	return (*C.uint64_t)(unsafe.Pointer(&v[0]))
}

// densityArgs pins d's words and returns them with the popcount of the first BitLen bits.
func densityArgs(pin *runtime.Pinner, d *Density) (*C.uint64_t, C.size_t) {
	if len(d.Words) == 0 {
		return nil, 0
	}
	pin.Pin(&d.Words[0])
	return (*C.uint64_t)(unsafe.Pointer(&d.Words[0])), C.size_t(popcount(d.Words, d.BitLen))
}
