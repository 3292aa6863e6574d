// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/service"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "run the proving engine as a cuzk.v1 gRPC server (Curio's [Cuzk] Address points at --listen)",
		Description: "Serves cuzk.v1.ProvingEngine (Curio's proving-daemon protocol) until SIGTERM or SIGINT,\n" +
			"then stops accepting work, lets the jobs already submitted finish within --drain-timeout\n" +
			"(queued ones keep starting as provers free up), cancels what is unfinished then and exits 0. Every flag can also be set in the --config TOML file, under its name\n" +
			"with '_' for '-' (params_dir = \"...\"); a flag given on the command line wins.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Usage: "read settings from the TOML `FILE` (keys: flag names with _ for -)"},
			&cli.StringFlag{Name: "listen", Usage: "serve gRPC on `ADDR`: unix:///path (mode 0600; 0660 with --socket-group) or host:port", Value: service.DefaultListen()},
			&cli.StringFlag{Name: "socket-group", Usage: "let the members of `GROUP` (a name, or a gid taken as it is) connect to the unix socket too: mode 0660, that group (e.g. Curio's, when it runs as another user); serve's user must be in it"},
			&cli.StringFlag{Name: "metrics-listen", Usage: "serve HTTP on host:port `ADDR`, a loopback address unless --insecure-metrics-listen: the status page (/), /status (JSON) and /metrics (Prometheus), without authentication (default: off)"},
			&cli.BoolFlag{Name: "insecure-metrics-listen", Usage: "allow --metrics-listen on a non-loopback address (anyone who reaches it sees the status page, job and request ids)"},
			&cli.StringFlag{Name: "tls-cert", Usage: "serve gRPC over TLS with the certificate in PEM `FILE` (with --tls-key)"},
			&cli.StringFlag{Name: "tls-key", Usage: "private key of --tls-cert, PEM `FILE`"},
			&cli.StringFlag{Name: "tls-client-ca", Usage: "require client certificates signed by the CA in PEM `FILE` (mTLS)"},
			&cli.BoolFlag{Name: "insecure-listen", Usage: "allow plain gRPC on a non-loopback TCP address (anyone who reaches it can submit work)"},
			&cli.StringFlag{Name: "max-message", Usage: "largest gRPC message each way, `SIZE` (a 32GiB C1 is ~50MB)", Value: "256MiB"},
			&cli.DurationFlag{Name: "drain-timeout", Usage: "on SIGTERM/SIGINT, how long the submitted jobs (running, and queued ones, which still start) may take before the unfinished are cancelled", Value: 5 * time.Minute},
			paramsDirFlag(),
			requireProductionFlag(),
			&cli.StringFlag{Name: "backend", Usage: backendUsage(), Value: porep.BackendAuto},
			noGPUFlag(),
			&cli.StringFlag{Name: "devices", Usage: "CUDA devices to prove on, comma-separated indices (sets CUSEAL_CUDA_DEVICES; default: all)"},
			&cli.StringFlag{Name: "budget", Usage: "memory budget `SIZE` for parameters, synthesis buffers and assignments (default: MemTotal or the cgroup limit, less max(1GiB, 10%))"},
			&cli.IntFlag{Name: "synthesis-workers", Usage: "partitions synthesized at once (0: engine default, 2)"},
			synthWorkersFlag(),
			&cli.IntFlag{Name: "partitions-waiting", Usage: "synthesized partitions waiting for a prover, per priority (0: provers + 1)"},
			&cli.BoolFlag{Name: "no-critical-prover", Usage: "keep no CPU prover for CRITICAL work (WinningPoSt then waits for the next free prover)"},
			&cli.StringFlag{Name: "device-memory-loss", Usage: "take a CUDA device out of service when its free memory, read while idle, has lost more than SIZE since its first idle reading (a leak); with none left, drain and exit 3 (default: a tenth of the device's memory)"},
			&cli.IntFlag{Name: "max-queued", Usage: "jobs waiting to start before more are refused with RESOURCE_EXHAUSTED naming this cap (0: 1000; -1: no cap)"},
			&cli.IntFlag{Name: "retain-jobs", Usage: "finished jobs kept for AwaitProof and repeated request ids (0: 1000)"},
			&cli.DurationFlag{Name: "retain-for", Usage: "how long a finished job is kept (0: 1h)"},
		},
		Action: serveWith(engine.New),
	}
}

// applyConfig sets every flag not given on the command line from the
// --config TOML file (key: the flag's name with _ for -).
func applyConfig(c *cli.Context) error {
	path := c.String("config")
	if path == "" {
		return nil
	}
	var m map[string]any
	if _, err := toml.DecodeFile(path, &m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return usageErrorf("--config %s: line %d: %s", path, pe.Position.Line, pe.Message)
		}
		return inputError(fmt.Errorf("--config: %w", fileError(err)))
	}
	known := map[string]bool{}
	for _, f := range c.Command.Flags {
		for _, n := range f.Names() {
			known[n] = true
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := strings.ReplaceAll(k, "_", "-")
		if !known[name] || name == "config" {
			return usageErrorf("--config %s: unknown key %q (keys are serve's flag names with _ for -; see 'cuseal serve --help')", path, k)
		}
		if c.IsSet(name) {
			continue
		}
		var v string
		switch x := m[k].(type) {
		case string:
			v = x
		case int64:
			v = strconv.FormatInt(x, 10)
		case bool:
			v = strconv.FormatBool(x)
		default:
			return usageErrorf("--config %s: %s = %v: want a string, an integer or true/false", path, k, x)
		}
		if err := c.Set(name, v); err != nil {
			if isDurationFlag(c, name) {
				return usageErrorf("--config %s: %s = %v: want a duration string such as \"10m\" or \"90s\"", path, k, m[k])
			}
			return usageErrorf("--config %s: %s = %q: %v", path, k, v, err)
		}
	}
	return nil
}

// isDurationFlag says whether c's command has a duration flag called name.
func isDurationFlag(c *cli.Context, name string) bool {
	for _, f := range c.Command.Flags {
		if df, ok := f.(*cli.DurationFlag); ok && df.Name == name {
			return true
		}
	}
	return false
}

// engineConfig reads the engine's settings from the flags.
func engineConfig(c *cli.Context) (engine.Config, error) {
	cfg := engine.Config{ParamsDir: c.String("params-dir"), RequireProductionParams: c.Bool("require-production-params"),
		NoCriticalProver: c.Bool("no-critical-prover"), Logger: slog.Default()}
	var err error
	if cfg.Backend, err = backendName(c); err != nil {
		return cfg, err
	}
	if d := c.String("devices"); d != "" {
		if err := os.Setenv("CUSEAL_CUDA_DEVICES", d); err != nil {
			return cfg, internalError(err)
		}
		if _, err := porep.CUDADevicesFromEnv(); err != nil {
			return cfg, usageErrorf("--devices %q: want comma-separated device indices (0,1) or host", d)
		}
	}
	if b := c.String("budget"); b != "" {
		if cfg.BudgetBytes, err = parseSize(b); err != nil || cfg.BudgetBytes == 0 {
			return cfg, usageErrorf("--budget %q: want a size such as 200GiB", b)
		}
	}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"synthesis-workers", &cfg.SynthesisWorkers}, {"synth-workers", &cfg.SynthesisThreads},
		{"partitions-waiting", &cfg.PartitionsWaiting}, {"retain-jobs", &cfg.RetainJobs}} {
		if *f.dst = c.Int(f.name); *f.dst < 0 {
			return cfg, usageErrorf("--%s %d: must be at least 0", f.name, *f.dst)
		}
	}
	if b := c.String("device-memory-loss"); b != "" {
		if cfg.DeviceMemoryLoss, err = parseSize(b); err != nil || cfg.DeviceMemoryLoss == 0 {
			return cfg, usageErrorf("--device-memory-loss %q: want a size such as 2GiB", b)
		}
	}
	if cfg.MaxQueued = c.Int("max-queued"); cfg.MaxQueued < -1 {
		return cfg, usageErrorf("--max-queued %d: want -1 (no cap), 0 (the default) or a count", cfg.MaxQueued)
	}
	if cfg.RetainFor = c.Duration("retain-for"); cfg.RetainFor < 0 {
		return cfg, usageErrorf("--retain-for %s: must not be negative", cfg.RetainFor)
	}
	return cfg, nil
}

// serveWith is serve's action with its engine made by newEngine from the
// flags' configuration (engine.New; a test's TestMain plugs in another).
func serveWith(newEngine func(engine.Config) (*engine.Engine, error)) cli.ActionFunc {
	return func(c *cli.Context) error { return serve(c, newEngine) }
}

func serve(c *cli.Context, newEngine func(engine.Config) (*engine.Engine, error)) error {
	if err := applyConfig(c); err != nil {
		return err
	}
	ecfg, err := engineConfig(c)
	if err != nil {
		return err
	}
	maxMsg, err := parseSize(c.String("max-message"))
	if err != nil || maxMsg < 4<<20 || maxMsg > 2<<30 {
		return usageErrorf("--max-message %q: want a size from 4MiB to 2GiB", c.String("max-message"))
	}
	drain := c.Duration("drain-timeout")
	if drain < 0 {
		return usageErrorf("--drain-timeout %s: must not be negative", drain)
	}
	lis, creds, err := service.Listen(service.ListenConfig{Address: c.String("listen"), TLSCert: c.String("tls-cert"),
		TLSKey: c.String("tls-key"), TLSClientCA: c.String("tls-client-ca"), Insecure: c.Bool("insecure-listen"),
		SocketGroup: c.String("socket-group")})
	if err != nil {
		return inputError(err)
	}
	defer lis.Close()
	var mlis net.Listener
	if a := c.String("metrics-listen"); a != "" {
		if err := service.CheckMetricsListen(a, c.Bool("insecure-metrics-listen")); err != nil {
			return inputError(err)
		}
		if mlis, err = net.Listen("tcp", a); err != nil {
			return inputError(fmt.Errorf("--metrics-listen %s: %w", a, err))
		}
		defer mlis.Close()
	}

	eng, err := newEngine(ecfg)
	if err != nil {
		return classifyPorepError(err)
	}
	abandoned := false
	defer func() {
		if !abandoned {
			eng.Close()
		}
	}()
	srv := service.New(eng, service.Options{MaxMessageBytes: int(maxMsg), Creds: creds, Logger: slog.Default(), Build: new(readBuild())})

	// Signals from here on drain instead of killing the process.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)

	served := make(chan error, 1)
	go func() { served <- srv.GRPC().Serve(lis) }()
	var hs *http.Server
	if mlis != nil {
		hs = &http.Server{Handler: srv.MetricsHandler(), ReadHeaderTimeout: 10 * time.Second}
		go hs.Serve(mlis)
	}
	listening := addrString(lis)
	fmt.Fprintf(c.App.ErrWriter, "cuseal serve: cuzk.v1 on %s", listening)
	if mlis != nil {
		fmt.Fprintf(c.App.ErrWriter, ", status page on http://%s/ (metrics /metrics)", mlis.Addr())
	}
	fmt.Fprintf(c.App.ErrWriter, " (backend %s)\n", ecfg.Backend)
	if fi, err := os.Stat(ecfg.ParamsDir); err != nil || !fi.IsDir() {
		// Not fatal: the files may be fetched while serve runs.
		fmt.Fprintf(c.App.ErrWriter, "cuseal: warning: --params-dir %s is not a directory: every proof fails until the parameter files are there\n", ecfg.ParamsDir)
	}

	select {
	case err := <-served:
		return internalError(fmt.Errorf("serving on %s: %w", listening, err))
	case s := <-sigs:
		fmt.Fprintf(c.App.ErrWriter, "cuseal serve: %s: draining (the submitted jobs have %s to finish, queued ones still start; a second signal stops at once)\n", s, drain)
	case <-eng.DevicesLost():
		fmt.Fprintf(c.App.ErrWriter, "cuseal serve: %v: draining, then exiting 3 for the service manager to restart serve\n", eng.DevicesLostErr())
	}
	signal.Stop(sigs)
	signal.Reset(os.Interrupt, syscall.SIGTERM)

	// Stop taking connections and calls; running jobs go on until drained.
	stopped := make(chan struct{})
	go func() { srv.GRPC().GracefulStop(); close(stopped) }()
	ctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	drained := make(chan struct{})
	go func() {
		if err := eng.Drain(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			slog.Warn("drain", "err", err)
		}
		close(drained)
	}()
	// A cancelled partition stops at its backend's next stage, which can be
	// most of a partition away: the drain timeout bounds the exit, not it.
	select {
	case <-drained:
	case <-time.After(drain + cancelGrace):
		abandoned = true
		fmt.Fprintf(c.App.ErrWriter, "cuseal serve: cancelled partitions still proving %s after the drain timeout; exiting without them\n", cancelGrace)
	}
	// The callers of drained jobs have their results now; give them a moment to be sent.
	grace := 10 * time.Second
	if abandoned {
		grace = 0 // the callers of abandoned jobs would wait for them
	}
	select {
	case <-stopped:
	case <-time.After(grace):
		srv.GRPC().Stop()
	}
	if hs != nil {
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer scancel()
		hs.Shutdown(sctx)
	}
	st := eng.Status().Counters
	fmt.Fprintf(c.App.ErrWriter, "cuseal serve: stopped (%d completed, %d failed, %d cancelled)\n", st.Completed, st.Failed, st.Cancelled)
	return internalError(eng.DevicesLostErr())
}

// cancelGrace is how long serve waits, after the drain timeout, for
// cancelled partitions to stop before it exits without them.
const cancelGrace = 5 * time.Second

// addrString is a listener's address as --listen writes it.
func addrString(l net.Listener) string {
	if l.Addr().Network() == "unix" {
		return "unix://" + l.Addr().String()
	}
	return l.Addr().String()
}
