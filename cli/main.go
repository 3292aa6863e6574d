// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// Main runs the cuseal command line on os.Args and exits with its code: the whole of
// cli/cuseal's main, so that `go install github.com/cuseal/cuseal/cli/cuseal@vX.Y.Z`
// installs a binary named cuseal.
func Main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// run executes the cuseal command line args (args[0] is the program name), writing normal
// output to stdout and diagnostics to stderr, and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	return exitCode(app.Run(args), stderr)
}

// newApp builds the command tree. Tests call it with buffers for stdout and stderr.
func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:                 "cuseal",
		Usage:                "Filecoin Groth16 prover (PoRep C2, WindowPoSt, WinningPoSt, SnapDeals), CPU and CUDA",
		Version:              appVersion(),
		Writer:               stdout,
		ErrWriter:            stderr,
		EnableBashCompletion: true,
		Flags: []cli.Flag{
			&cli.StringFlag{
				Name:    "log-level",
				Usage:   "show log records at `LEVEL`: debug, info, warn or error (default: none; progress, warnings and a summary for humans)",
				EnvVars: []string{"CUSEAL_LOG_LEVEL"},
			},
		},
		Before: func(c *cli.Context) error {
			return setupLogging(c.String("log-level"), stderr)
		},
		Commands: []*cli.Command{
			versionCommand(),
			infoCommand(),
			doctorCommand(),
			demoCommand(),
			paramsCommand(),
			sealCommand(),
			commit2Command(),
			verifyCommand(),
			aggregateCommand(),
			verifyAggregateCommand(),
			postCommand(),
			vanillaCommand(),
			updateCommand(),
			benchCommand(),
			serveCommand(),
			clientCommand(),
		},
		// urfave/cli otherwise calls os.Exit itself for errors that carry an exit code.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   onUsageError,
	}
	app.Action = groupAction
	prepareCommands(app.Commands)
	return app
}

// prepareCommands gives every command in the tree the same usage-error handling, wraps
// every action so that errors it does not classify count as internal (exit 3), gives
// command groups an action that rejects unknown sub-commands as bad usage (exit 2), and
// makes commands without ArgsUsage reject positional arguments (exit 2): urfave/cli stops
// parsing flags at the first positional argument, so a stray word would otherwise silently
// swallow every flag after it.
func prepareCommands(cmds []*cli.Command) {
	for _, c := range cmds {
		c.OnUsageError = onUsageError
		group := len(c.Subcommands) > 0
		if group {
			if c.Action == nil {
				c.Action = groupAction
			}
			prepareCommands(c.Subcommands)
		}
		if act := c.Action; act != nil {
			noArgs := !group && c.ArgsUsage == ""
			c.Action = func(ctx *cli.Context) error {
				if noArgs && ctx.Args().Len() > 0 {
					return unexpectedArgs(ctx)
				}
				// A group's argument is an unknown sub-command (groupAction
				// says so), even when a flag such as --help follows it.
				if !group {
					if err := flagAfterArgs(ctx); err != nil {
						return err
					}
				}
				return classify(act(ctx))
			}
		}
	}
}

// unexpectedArgs reports the first positional argument of a command that takes none.
func unexpectedArgs(c *cli.Context) error {
	return usageErrorf("unexpected argument %q ('%s' takes flags only; see '%s --help')",
		c.Args().First(), c.Command.HelpName, c.Command.HelpName)
}

// flagAfterArgs reports a flag written after a command's positional arguments: urfave/cli
// reads it as one more argument (a file named "--out"), so name it and say where it goes.
func flagAfterArgs(c *cli.Context) error {
	for _, a := range c.Args().Slice() {
		if len(a) > 1 && a[0] == '-' {
			return usageErrorf("%s after the arguments %s: flags must come before them (see '%s --help')",
				a, c.Command.ArgsUsage, c.Command.HelpName)
		}
	}
	return nil
}

// groupAction runs for the root and for command groups (params, bench): without arguments it
// prints help and is a usage error (a sub-command is required); with an unknown sub-command
// it is a usage error.
func groupAction(c *cli.Context) error {
	name := c.Command.HelpName
	if name == "" {
		name = c.App.HelpName
	}
	if c.Args().Present() {
		return usageErrorf("unknown command %q (see '%s --help')", c.Args().First(), name)
	}
	if err := cli.ShowSubcommandHelp(c); err != nil {
		return internalError(err)
	}
	return usageErrorf("missing command (see '%s --help')", name)
}

// onUsageError makes flag parsing errors exit 2 and words an unknown flag the way a user
// typed it, with the nearest defined flag (urfave/cli's SuggestFlag, Jaro-Winkler) and a
// pointer to --help: "unknown flag --parms-dir (did you mean --params-dir? see 'cuseal
// commit2 --help')".
func onUsageError(c *cli.Context, err error, _ bool) error {
	const undefined = "flag provided but not defined: -"
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, undefined); ok && c != nil {
		flags, help := c.App.Flags, c.App.HelpName
		if c.Command != nil && c.Command.Name != "" {
			flags, help = c.Command.Flags, c.Command.HelpName
		}
		name = strings.TrimLeft(name, "-")
		hint := fmt.Sprintf("see '%s --help'", help)
		if cli.SuggestFlag != nil {
			// Jaro-Winkler always names some flag; only a near one is a typo
			// (bench vanilla --randomness is not a misspelt --cpuprofile).
			if s := cli.SuggestFlag(flags, name, true); s != "" && editDistance(name, strings.TrimLeft(s, "-")) <= max(2, len(name)/4) {
				hint = fmt.Sprintf("did you mean %s? %s", s, hint)
			}
		}
		return usageErrorf("unknown flag --%s (%s)", name, hint)
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		// Go's flag package: `invalid value "abc" for flag -workers: parse error`.
		why := m[3]
		switch why {
		case "parse error":
			why = "not a valid value"
			if c != nil {
				flags := c.App.Flags
				if c.Command != nil && c.Command.Name != "" {
					flags = c.Command.Flags
				}
				for _, f := range flags {
					if !slices.Contains(f.Names(), m[2]) {
						continue
					}
					switch f.(type) {
					case *cli.IntFlag, *cli.Int64Flag:
						why = "not a valid integer"
					case *cli.UintFlag, *cli.Uint64Flag:
						why = "not a valid non-negative integer"
					case *cli.Float64Flag:
						why = "not a valid number"
					case *cli.DurationFlag:
						why = "want a duration such as 10m or 90s"
					}
				}
			}
		case "value out of range":
			why = "out of range"
		}
		return usageErrorf("--%s %s: %s", m[2], m[1], why)
	}
	if m := invalidBool.FindStringSubmatch(msg); m != nil {
		return usageErrorf("--%s=%s: want true or false", m[2], m[1])
	}
	return &exitError{code: exitUsage, err: err}
}

// editDistance is the Levenshtein distance of a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev = cur
	}
	return prev[len(b)]
}

// invalidValue matches the flag package's error for a value its flag cannot parse.
var invalidValue = regexp.MustCompile(`^invalid value (".*") for flag -([^:]+): (.*)$`)

// invalidBool matches its error for a boolean flag given a value (--flag=x).
var invalidBool = regexp.MustCompile(`^invalid boolean value (".*") for -([^:]+): (.*)$`)

// slogWarns and slogOn are set by setupLogging: whether slog records at WARN level reach
// stderr, and whether --log-level asked for slog records at all.
var slogWarns, slogOn bool

// slogShowsWarnings reports whether --log-level shows slog warnings (then porep's warnings
// are not printed a second time as "cuseal: warning:" lines).
func slogShowsWarnings() bool { return slogWarns }

// setupLogging installs a text slog handler on stderr at the named level. Without
// --log-level (or CUSEAL_LOG_LEVEL) no slog records are shown: humans get the progress
// display, warnings as "cuseal: warning: …" lines and the command's summary; the records
// (time=… level=INFO …) are for --log-level info or debug.
func setupLogging(level string, stderr io.Writer) error {
	slogOn = level != ""
	if level == "" {
		slogWarns = false
		slog.SetDefault(slog.New(slog.DiscardHandler))
		return nil
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToLower(level))); err != nil {
		return usageErrorf("--log-level (or CUSEAL_LOG_LEVEL): %q is not one of debug, info, warn, error", level)
	}
	slogWarns = l <= slog.LevelWarn
	h := slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: l})
	slog.SetDefault(slog.New(h))
	return nil
}

// printf writes to the app's stdout.
func printf(c *cli.Context, format string, a ...any) {
	fmt.Fprintf(c.App.Writer, format, a...)
}
