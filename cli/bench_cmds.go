// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import "github.com/urfave/cli/v2"

// benchSubcommands lists the bench commands.
func benchSubcommands() []*cli.Command {
	return []*cli.Command{
		benchSynthCommand(),
		benchMSMCommand(),
		benchNTTCommand(),
		benchProveCommand(),
		benchGroth16Command(),
		benchAggregateCommand(),
		benchEngineCommand(),
		benchVanillaCommand(),
	}
}
