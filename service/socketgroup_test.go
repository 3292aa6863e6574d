// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cuseal/cuseal/service"
	"github.com/cuseal/cuseal/service/client"
)

// socketHelperEnv makes the test binary a client: dial the address in it,
// call GetStatus, print "connected" or the error, exit 0 or 1.
const socketHelperEnv = "CUSEAL_SOCKET_GROUP_HELPER"

// TestSocketGroupMode: with SocketGroup the socket is mode 0660 and the
// group's (the caller's own group here: no privilege needed); a group
// that does not exist, or a TCP address, is refused naming it.
func TestSocketGroupMode(t *testing.T) {
	gid := os.Getgid()
	for _, group := range []string{strconv.Itoa(gid), groupName(t, gid)} {
		path := filepath.Join(t.TempDir(), "s.sock")
		l, _, err := service.Listen(service.ListenConfig{Address: "unix://" + path, SocketGroup: group})
		if err != nil {
			t.Fatalf("--socket-group %s: %v", group, err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o660 || int(fi.Sys().(*syscall.Stat_t).Gid) != gid {
			t.Errorf("--socket-group %s: socket mode %v group %d, want 0660 and %d", group, fi.Mode().Perm(), fi.Sys().(*syscall.Stat_t).Gid, gid)
		}
		l.Close()
	}
	dir := t.TempDir()
	for _, tc := range []struct{ addr, group, want string }{
		{"unix://" + filepath.Join(dir, "a.sock"), "no-such-group-cuseal", "--socket-group no-such-group-cuseal: no such group"},
		{"unix://" + filepath.Join(dir, "b.sock"), "99999999999", "--socket-group 99999999999: not a group id"},
		{"127.0.0.1:0", strconv.Itoa(gid), "applies to a unix socket"},
	} {
		l, _, err := service.Listen(service.ListenConfig{Address: tc.addr, SocketGroup: tc.group})
		if err == nil {
			l.Close()
			t.Errorf("--listen %s --socket-group %s: accepted", tc.addr, tc.group)
		} else if !strings.Contains(err.Error(), tc.want) || strings.HasPrefix(tc.addr, "unix:") && strings.Count(err.Error(), tc.group) != 1 {
			t.Errorf("--listen %s --socket-group %s: %v, want %q naming the group once", tc.addr, tc.group, err, tc.want)
		}
	}
}

// groupName is gid's name, or its number where it has none.
func groupName(t *testing.T, gid int) string {
	t.Helper()
	b, err := os.ReadFile("/etc/group")
	if err != nil {
		return strconv.Itoa(gid)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Split(line, ":"); len(f) >= 3 && f[2] == strconv.Itoa(gid) {
			return f[0]
		}
	}
	return strconv.Itoa(gid)
}

// TestSocketGroupAccess: a Curio under another user reaches a socket of
// --socket-group when it is in the group, and is refused when it is not.
// Run as root, the test binary re-runs itself as nobody (setpriv) with and
// without the group as a supplementary group; skipped where that is not
// possible.
func TestSocketGroupAccess(t *testing.T) {
	if addr := os.Getenv(socketHelperEnv); addr != "" {
		c, err := client.Dial(addr, client.Options{})
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, err = c.Status(ctx)
			cancel()
			c.Close()
		}
		if err != nil {
			fmt.Println("refused:", err)
			os.Exit(1)
		}
		fmt.Println("connected")
		os.Exit(0)
	}
	setpriv, err := exec.LookPath("setpriv")
	switch {
	case os.Geteuid() != 0:
		t.Skip("needs root to run a client as another user (setpriv)")
	case err != nil && os.Getenv("CI") != "":
		t.Fatal("no setpriv on PATH (util-linux): CI runs as root and must have it")
	case err != nil:
		t.Skip("needs setpriv (util-linux) to run a client as another user")
	}
	// A directory nobody may enter, with a copy of this binary nobody may run.
	dir := t.TempDir()
	for d := dir; d != os.TempDir() && d != "/" && strings.HasPrefix(d, os.TempDir()); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "service.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	// A gid no account has: only the member run below holds it.
	const group = "64917"
	addr := "unix://" + filepath.Join(dir, "s.sock")
	l, _, err := service.Listen(service.ListenConfig{Address: addr, SocketGroup: group})
	if err != nil {
		t.Fatal(err)
	}
	s := service.New(newFake(true), service.Options{})
	go s.GRPC().Serve(l)
	t.Cleanup(s.GRPC().Stop)

	run := func(groups string) (string, error) {
		cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", groups, bin, "-test.run=^TestSocketGroupAccess$")
		cmd.Env = append(os.Environ(), socketHelperEnv+"="+addr)
		out, err := cmd.CombinedOutput()
		if strings.Contains(string(out), "setpriv:") {
			t.Skipf("setpriv failed: %s", out)
		}
		return string(out), err
	}
	out, err := run("--groups=" + group)
	if err != nil || !strings.Contains(out, "connected") {
		t.Errorf("nobody in group %s: %v\n%s", group, err, out)
	}
	t.Logf("member: %s", out)
	out, err = run("--clear-groups")
	if err == nil || !strings.Contains(out, "permission denied") {
		t.Errorf("nobody outside group %s: %v, want permission denied\n%s", group, err, out)
	}
	t.Logf("non-member: %s", out)
}
