// SPDX-License-Identifier: Apache-2.0 OR MIT

package paramfile

import "context"

// Option configures ParamsStatus, RequireProductionParams and
// GenerateTestParams. porep translates its own options (WithContext,
// WithProgress, WithDigestCacheFile) into these.
type Option func(*settings)

type settings struct {
	ctx             context.Context
	progress        func(Event)
	digestCacheFile string
}

func newSettings(opts []Option) *settings {
	s := &settings{ctx: context.Background(), progress: func(Event) {}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Event reports progress to a WithProgress callback: a stage of
// GenerateTestParams starting (Stage), or a file being hashed (File, Done
// and Total in bytes; the first event of a file has Done 0).
type Event struct {
	Stage       string
	File        string
	Done, Total int64
}

// WithContext makes hashing honour ctx: cancellation stops it between
// chunks and returns ctx's error.
func WithContext(ctx context.Context) Option {
	return func(s *settings) {
		if ctx != nil {
			s.ctx = ctx
		}
	}
}

// WithProgress calls f as stages start and while files are hashed; f must
// return quickly.
func WithProgress(f func(Event)) Option {
	return func(s *settings) {
		if f != nil {
			s.progress = f
		}
	}
}
