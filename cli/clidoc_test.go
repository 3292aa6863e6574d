// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestCLIDocRows: docs/cli.md has a synopsis row for every command of the command tree
// (every leaf: `post winning`, `client metrics`, …) and no row for a command that does not
// exist. A row is a table line whose first cell starts with `cuseal COMMAND …`; the command
// is the words before the first flag, placeholder or bracket.
func TestCLIDocRows(t *testing.T) {
	doc, err := os.ReadFile("../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		cell, ok := strings.CutPrefix(line, "| `cuseal ")
		if !ok {
			continue
		}
		cell, _, _ = strings.Cut(cell, "`")
		var words []string
		for _, w := range strings.Fields(cell) {
			if !isCommandWord(w) {
				break
			}
			words = append(words, w)
		}
		rows[strings.Join(words, " ")] = true
	}
	commands := map[string]bool{}
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			path := strings.TrimSpace(prefix + " " + c.Name)
			if len(c.Subcommands) > 0 {
				walk(path, c.Subcommands)
				continue
			}
			commands[path] = true
			if !rows[path] {
				t.Errorf("docs/cli.md has no row for `cuseal %s` (add: | `cuseal %s …` | what it does |)", path, path)
			}
		}
	}
	walk("", newApp(io.Discard, io.Discard).Commands)
	if len(commands) < 30 {
		t.Fatalf("walked %d commands; the tree is not what this test expects", len(commands))
	}
	for r := range rows {
		if !commands[r] {
			t.Errorf("docs/cli.md has a row for `cuseal %s`, which is no command", r)
		}
	}
}

// isCommandWord is a word of a command path: a lower-case letter, then lower-case letters,
// digits and dashes (commit2, verify-aggregate); not a flag, placeholder or bracket.
func isCommandWord(w string) bool {
	if w == "" || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	for _, r := range w {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}
