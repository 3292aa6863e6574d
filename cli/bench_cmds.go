package main

import "github.com/urfave/cli/v2"

// benchSubcommands lists the bench commands whose backends exist.
func benchSubcommands() []*cli.Command {
	return []*cli.Command{
		benchSynthCommand(),
	}
}
