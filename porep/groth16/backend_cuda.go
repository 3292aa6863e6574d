// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/bridge"
	"github.com/cuseal/cuseal/porep/cs"
)

// CUDAOptions configures a CUDABackend. The zero value proves on every
// visible CUDA device with B_G2 on the device and returns device errors.
type CUDAOptions struct {
	// Devices lists the device indices circuits are spread over (a batch is
	// cut into contiguous groups, one native call per device, run in
	// parallel). Empty: all devices the CUDA runtime sees (it honours
	// CUDA_VISIBLE_DEVICES; porep's registry passes $CUSEAL_CUDA_DEVICES
	// here). bridge.HostDevice (-1, "host") selects the host emulation of the
	// kernels: correct on any machine, slow; for tests.
	Devices []int
	// BG2OnCPU computes ΣB_G2 on the CPU with gnark-crypto (one goroutine
	// per circuit), overlapped with the device work, instead of on the device.
	BG2OnCPU bool
	// PinHost page-locks the native SRS image (once per SRS; the cost is
	// logged). Off by default.
	PinHost bool
	// Split chooses when the 0/1 split is used (bridge.SplitAuto by default).
	Split bridge.SplitMode
	// FallbackToCPU computes a batch with CPUBackend when the device fails,
	// logging the device error; otherwise the error is returned.
	FallbackToCPU bool
	// Logger receives one line per SRS upload, fallbacks and per-batch stage
	// timings (debug level). Nil discards.
	Logger *slog.Logger
}

// CUDABackend computes query sums with the native prover through the bridge
// package (build tag cuda; without it NewCUDABackend fails with
// bridge.ErrNoCUDA). Each Params is turned into a native SRS handle on first
// use and kept (device-resident where it fits) until Release or Close.
// QuerySums is safe for concurrent use; calls on one device are serialised
// by the native per-device mutex around the kernel region.
type CUDABackend struct {
	opts CUDAOptions
	log  *slog.Logger
	cpu  CPUBackend

	mu   sync.Mutex
	srs  map[*Params]*bridge.SRS
	last []bridge.ProveTimings
}

var _ Backend = (*CUDABackend)(nil)

// NewCUDABackend checks the native library and the devices and returns a
// backend. Errors: bridge.ErrNoCUDA (not built with the cuda tag, or a
// native library without CUDA when a real device is asked for),
// bridge.ErrNoDevice (no device or an index out of range).
func NewCUDABackend(o CUDAOptions) (*CUDABackend, error) {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if _, err := bridge.Version(); err != nil {
		return nil, fmt.Errorf("groth16: cuda backend: %w", err)
	}
	devs := append([]int(nil), o.Devices...)
	needGPU := len(devs) == 0
	for _, d := range devs {
		if d != bridge.HostDevice {
			needGPU = true
		}
	}
	if needGPU {
		n, err := bridge.DeviceCount()
		if err != nil {
			return nil, fmt.Errorf("groth16: cuda backend: %w", err)
		}
		if n == 0 {
			return nil, fmt.Errorf("groth16: cuda backend: %w (device count 0%s)", bridge.ErrNoDevice, visibleDevicesNote())
		}
		if len(devs) == 0 {
			for d := 0; d < n; d++ {
				devs = append(devs, d)
			}
		}
		for _, d := range devs {
			if d != bridge.HostDevice && (d < 0 || d >= n) {
				return nil, fmt.Errorf("groth16: cuda backend: device %d: %w (%d found)", d, bridge.ErrNoDevice, n)
			}
		}
	}
	o.Devices = devs
	return &CUDABackend{opts: o, log: log, srs: map[*Params]*bridge.SRS{}}, nil
}

// visibleDevicesNote names CUDA_VISIBLE_DEVICES in device errors when it is
// set, since the CUDA runtime hides every device it does not list.
func visibleDevicesNote() string {
	v, ok := os.LookupEnv("CUDA_VISIBLE_DEVICES")
	if !ok {
		return ""
	}
	return fmt.Sprintf("; CUDA_VISIBLE_DEVICES=%q", v)
}

// Devices returns the device indices the backend spreads circuits over.
func (b *CUDABackend) Devices() []int { return append([]int(nil), b.opts.Devices...) }

// LastTimings returns the native stage timings of the most recent batch,
// one entry per device group.
func (b *CUDABackend) LastTimings() []bridge.ProveTimings {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]bridge.ProveTimings(nil), b.last...)
}

// Release drops the native SRS made from params (freeing its host and
// device memory once no call uses it).
func (b *CUDABackend) Release(params *Params) error {
	b.mu.Lock()
	s := b.srs[params]
	delete(b.srs, params)
	b.mu.Unlock()
	if s == nil {
		return nil
	}
	return s.Close()
}

// Close releases every native SRS the backend made.
func (b *CUDABackend) Close() error {
	b.mu.Lock()
	m := b.srs
	b.srs = map[*Params]*bridge.SRS{}
	b.mu.Unlock()
	var errs []error
	for _, s := range m {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// srsFor returns a new reference on params' native SRS (caller closes it),
// creating it on first use.
func (b *CUDABackend) srsFor(params *Params) (*bridge.SRS, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s := b.srs[params]; s != nil {
		return s.Clone()
	}
	// The SRS of a file that changed on disk is never used again (its
	// Params is dropped by every cache): release it.
	for p, s := range b.srs {
		if p.Changed() {
			delete(b.srs, p)
			s.Close()
		}
	}
	t0 := time.Now()
	if params.Name() != "" && !params.Checked() {
		// File-backed, unchecked: let the native side decode the encoded
		// sections in parallel (flags, canonical, on-curve); RawSection reads
		// them through the parameter reader, one Go copy each, freed after.
		var raw [5][]byte
		for i, name := range []string{SectionH, SectionL, SectionA, SectionBG1, SectionBG2} {
			b, err := params.RawSection(name)
			if err != nil {
				return nil, err
			}
			raw[i] = b
		}
		s, err := bridge.NewSRSFromEncoded(raw[0], raw[1], raw[2], raw[3], raw[4],
			bridge.SRSOptions{Validate: true, PinHost: b.opts.PinHost})
		if err != nil {
			return nil, fmt.Errorf("groth16: cuda backend: params %q: %w", params.Name(), err)
		}
		b.logSRS(params, s, time.Since(t0))
		b.srs[params] = s
		return s.Clone()
	}
	h, err := params.H()
	if err != nil {
		return nil, err
	}
	l, err := params.L()
	if err != nil {
		return nil, err
	}
	a, err := params.A()
	if err != nil {
		return nil, err
	}
	bg1, err := params.BG1()
	if err != nil {
		return nil, err
	}
	bg2, err := params.BG2()
	if err != nil {
		return nil, err
	}
	decode := time.Since(t0)
	// The points were decoded (on-curve, and subgroup when checked) by Params.
	s, err := bridge.NewSRS(h, l, a, bg1, bg2, bridge.SRSOptions{PinHost: b.opts.PinHost})
	if err != nil {
		return nil, fmt.Errorf("groth16: cuda backend: params %q: %w", params.Name(), err)
	}
	b.logSRS(params, s, decode)
	b.srs[params] = s
	return s.Clone()
}

// logSRS logs one line per native SRS: sizes, load time, pinning cost, and a
// warning when a requested pin was skipped (the native library prints
// nothing; it reports through SRSInfo).
func (b *CUDABackend) logSRS(params *Params, s *bridge.SRS, load time.Duration) {
	in, _ := s.Info()
	b.log.Info("cuda: srs ready", "params", params.Name(), "h", in.NH, "l", in.NL, "a", in.NA, "b", in.NBG1,
		"host_bytes", in.HostBytes, "go_decode", load, "native_create", in.CreateTime, "pinned", in.Pinned, "pin", in.PinTime)
	if in.PinSkipped != "" {
		b.log.Warn("cuda: srs host pinning skipped", "params", params.Name(), "reason", in.PinSkipped)
	}
}

// QuerySums implements Backend.
func (b *CUDABackend) QuerySums(ctx context.Context, params *Params, as []*cs.Assignment) ([]Sums, error) {
	for i, a := range as {
		if err := ValidateAssignment(params, a); err != nil {
			return nil, fmt.Errorf("groth16: assignment %d: %w", i, err)
		}
	}
	if len(as) == 0 {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ReportStage(ctx, "GPU batch")
	out, err := b.querySums(ctx, params, as)
	if err != nil && b.opts.FallbackToCPU && ctx.Err() == nil {
		b.log.Warn("cuda: device failed, computing this batch on the CPU", "err", err)
		return b.cpu.QuerySums(ctx, params, as)
	}
	return out, err
}

func (b *CUDABackend) querySums(ctx context.Context, params *Params, as []*cs.Assignment) ([]Sums, error) {
	s, err := b.srsFor(params)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	circuits := make([]bridge.Circuit, len(as))
	for i, a := range as {
		circuits[i] = nativeCircuit(a)
	}
	out := make([]Sums, len(as))

	// B_G2 on the CPU: one goroutine per circuit, overlapped with the device.
	var bg2wg sync.WaitGroup
	bg2errs := make([]error, len(as))
	if b.opts.BG2OnCPU {
		bq2, err := params.BG2()
		if err != nil {
			return nil, err
		}
		tasks := max(1, runtime.NumCPU()/len(as))
		for i, a := range as {
			bg2wg.Add(1)
			go func(i int, a *cs.Assignment) {
				defer bg2wg.Done()
				sc := make([]fr.Element, 0, len(bq2))
				sc = appendDense(sc, a.Input, &a.BDensityInput)
				sc = appendDense(sc, a.Aux, &a.BDensityAux)
				bg2errs[i] = msmG2(&out[i].BG2, bq2, sc, ecc.MultiExpConfig{NbTasks: tasks})
			}(i, a)
		}
	}

	// Device groups: contiguous slices of the batch, one per device.
	devs := b.opts.Devices
	ng := min(len(devs), len(as))
	type group struct {
		dev    int
		lo, hi int
		t      bridge.ProveTimings
		err    error
	}
	groups := make([]group, ng)
	per, extra := len(as)/ng, len(as)%ng
	lo := 0
	for g := range groups {
		n := per
		if g < extra {
			n++
		}
		groups[g] = group{dev: devs[g], lo: lo, hi: lo + n}
		lo += n
	}
	var wg sync.WaitGroup
	opts := bridge.ProveOptions{SkipBG2: b.opts.BG2OnCPU, Split: b.opts.Split}
	for g := range groups {
		wg.Add(1)
		go func(gr *group) {
			defer wg.Done()
			res, t, err := s.QuerySums(gr.dev, circuits[gr.lo:gr.hi], opts)
			gr.t = t
			if err != nil {
				gr.err = fmt.Errorf("groth16: cuda backend: device %d, assignments %d..%d: %w", gr.dev, gr.lo, gr.hi-1, err)
				return
			}
			for k := range res {
				o := &out[gr.lo+k]
				o.H.FromJacobian(&res[k].H)
				o.L.FromJacobian(&res[k].L)
				o.A.FromJacobian(&res[k].A)
				o.BG1.FromJacobian(&res[k].BG1)
				if !b.opts.BG2OnCPU {
					o.BG2.FromJacobian(&res[k].BG2)
				}
			}
		}(&groups[g])
	}
	wg.Wait()
	bg2wg.Wait()
	timings := make([]bridge.ProveTimings, ng)
	var errs []error
	for g := range groups {
		timings[g] = groups[g].t
		errs = append(errs, groups[g].err)
		t := groups[g].t
		b.log.Debug("cuda: batch", "device", groups[g].dev, "circuits", groups[g].hi-groups[g].lo, "total", t.Total,
			"prep", t.Prep, "wait", t.WaitLock, "upload", t.Upload, "h_ntt", t.HNTT, "h_msm", t.HMSM, "l_msm", t.LMSM,
			"a_msm", t.AMSM, "b_g1_msm", t.BG1MSM, "b_g2_msm", t.BG2MSM, "split", t.Split, "resident", t.Resident)
	}
	for i, e := range bg2errs {
		if e != nil {
			errs = append(errs, fmt.Errorf("groth16: assignment %d: b_g2 msm (cpu): %w", i, e))
		}
	}
	b.mu.Lock()
	b.last = timings
	b.mu.Unlock()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// nativeCircuit is a's view as the GPU provers (bridge, bridge/supraseal) take it: the same
// slices, no copy.
func nativeCircuit(a *cs.Assignment) bridge.Circuit {
	return bridge.Circuit{
		A: a.A, B: a.B, C: a.C, Input: a.Input, Aux: a.Aux,
		ADensityAux:   bridge.Density(a.ADensityAux),
		BDensityInput: bridge.Density(a.BDensityInput),
		BDensityAux:   bridge.Density(a.BDensityAux),
	}
}
