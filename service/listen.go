// SPDX-License-Identifier: Apache-2.0 OR MIT

package service

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc/credentials"
)

// DefaultListen is the default --listen: unix://$XDG_RUNTIME_DIR/cuseal.sock,
// else unix:///run/cuseal/cuseal.sock.
func DefaultListen() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return "unix://" + filepath.Join(d, "cuseal.sock")
	}
	return "unix:///run/cuseal/cuseal.sock"
}

// ParseAddress splits a --listen value into a network and an address:
// "unix:///path" (or "unix:/path") is ("unix", "/path"); anything else must
// be host:port and is ("tcp", host:port).
func ParseAddress(addr string) (network, address string, err error) {
	if rest, ok := strings.CutPrefix(addr, "unix:"); ok {
		p := strings.TrimPrefix(rest, "//")
		if p == "" || !filepath.IsAbs(p) {
			return "", "", fmt.Errorf("%q: want unix:///absolute/path", addr)
		}
		return "unix", filepath.Clean(p), nil
	}
	if strings.Contains(addr, "://") {
		return "", "", fmt.Errorf("%q: want unix:///path or host:port", addr)
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return "", "", fmt.Errorf("%q: want unix:///path or host:port: %v", addr, err)
	}
	return "tcp", addr, nil
}

// Loopback reports whether a host:port names only this machine: a loopback
// IP (127.0.0.0/8, ::1) or "localhost". An empty host (all interfaces) is
// not loopback.
func Loopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckMetricsListen checks a --metrics-listen address: host:port, and a
// loopback one unless insecure (--insecure-metrics-listen): the status
// page, /status and /metrics have no authentication and show job and
// request ids.
func CheckMetricsListen(addr string, insecure bool) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return fmt.Errorf("--metrics-listen %q: want host:port (127.0.0.1:9821): %v", addr, err)
	}
	if !Loopback(addr) && !insecure {
		return fmt.Errorf("--metrics-listen %s: not a loopback address, and the status page, /status and /metrics there have no authentication (they show job and request ids): give 127.0.0.1:PORT, or pass --insecure-metrics-listen", addr)
	}
	return nil
}

// ListenConfig is how the server listens.
type ListenConfig struct {
	Address string // unix:///path or host:port ("": DefaultListen())
	// TLSCert and TLSKey (PEM files) serve gRPC over TLS; TLSClientCA
	// (PEM) also requires client certificates signed by it (mTLS).
	TLSCert, TLSKey, TLSClientCA string
	// Insecure allows plain gRPC on a non-loopback TCP address.
	Insecure bool
	// SocketGroup, for a unix socket: a group (a name, or a number taken
	// as a gid as it is, without a lookup) whose members may connect too; the socket is then mode 0660
	// and owned by that group (as Docker's daemon does it). The user
	// running the server must be a member (or root). "": mode 0600.
	SocketGroup string
}

// Listen opens the listener of cfg and, with TLS configured, the transport
// credentials for Options.Creds. A unix socket is created with mode 0600,
// or 0660 and group cfg.SocketGroup; a stale socket at its path (nothing
// answers on it) is removed first, while a live one or a file of another
// type is an error. A non-loopback TCP address is refused without TLS
// unless cfg.Insecure; a SocketGroup with a TCP address, or a group that
// does not exist, is an error naming it.
func Listen(cfg ListenConfig) (net.Listener, credentials.TransportCredentials, error) {
	addr := cfg.Address
	if addr == "" {
		addr = DefaultListen()
	}
	network, address, err := ParseAddress(addr)
	if err != nil {
		return nil, nil, fmt.Errorf("--listen %w", err)
	}
	creds, err := tlsCreds(cfg)
	if err != nil {
		return nil, nil, err
	}
	if network == "tcp" && cfg.SocketGroup != "" {
		return nil, nil, fmt.Errorf("--socket-group %s: applies to a unix socket, and --listen %s is a TCP address", cfg.SocketGroup, addr)
	}
	gid := -1
	if cfg.SocketGroup != "" {
		if gid, err = LookupGroup(cfg.SocketGroup); err != nil {
			return nil, nil, fmt.Errorf("--socket-group %w", err)
		}
	}
	if network == "tcp" {
		if err := checkTCP(address, creds != nil, cfg.Insecure); err != nil {
			return nil, nil, err
		}
		l, err := net.Listen("tcp", address)
		if err != nil {
			return nil, nil, fmt.Errorf("--listen %s: %w", address, err)
		}
		return l, creds, nil
	}
	l, err := listenUnix(address, gid)
	if err != nil {
		if gid >= 0 && errors.Is(err, fs.ErrPermission) {
			return nil, nil, fmt.Errorf("--socket-group %s: %w (the user running serve must be a member of the group)", cfg.SocketGroup, err)
		}
		return nil, nil, fmt.Errorf("--listen %s: %w", addr, err)
	}
	return l, creds, nil
}

// checkTCP refuses plain gRPC on a non-loopback address unless insecure.
func checkTCP(address string, tls, insecure bool) error {
	if !Loopback(address) && !tls && !insecure {
		return fmt.Errorf("--listen %s: not a loopback address, and plain gRPC there lets anyone on the network submit work: pass --tls-cert and --tls-key, or --insecure-listen", address)
	}
	return nil
}

// LookupGroup resolves a --socket-group value to a gid: a number is taken
// as a gid as it is (no lookup: a gid no group has is fine), a name is
// looked up (os/user: NSS with cgo; a CGO_ENABLED=0 build reads
// /etc/group only). Its errors start with the value.
func LookupGroup(group string) (int, error) {
	if n, err := strconv.ParseUint(group, 10, 32); err == nil && n < math.MaxUint32 {
		return int(n), nil
	}
	if group == "" || strings.Trim(group, "0123456789") == "" {
		return 0, fmt.Errorf("%s: not a group id (0 to %d)", group, uint32(math.MaxUint32-1))
	}
	g, err := user.LookupGroup(group)
	var unknown user.UnknownGroupError
	switch {
	case errors.As(err, &unknown):
		return 0, fmt.Errorf("%s: no such group (give an existing group's name, or a gid)", group)
	case err != nil:
		return 0, fmt.Errorf("%s: looking the group up: %v", group, err)
	}
	return strconv.Atoi(g.Gid)
}

// listenUnix creates the socket at path with mode 0600, or 0660 and group
// gid when gid ≥ 0, removing a stale one.
func listenUnix(path string, gid int) (net.Listener, error) {
	if err := mkdirs(filepath.Dir(path)); err != nil {
		return nil, err
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case fi.Mode().Type() != fs.ModeSocket:
		return nil, fmt.Errorf("%s exists and is not a socket (%s); not removing it", path, FileKind(fi.Mode()))
	default:
		c, derr := net.DialTimeout("unix", path, time.Second)
		if derr == nil {
			c.Close()
			return nil, fmt.Errorf("another server is listening on %s", path)
		}
		if !errors.Is(derr, syscall.ECONNREFUSED) {
			return nil, fmt.Errorf("%s exists and cannot be checked for a live server: %v", path, derr)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("removing the stale socket: %w", err)
		}
	}
	l, err := listenPrivate(path)
	if err != nil {
		return nil, err
	}
	mode := os.FileMode(0o600)
	if gid >= 0 {
		// The group first, then its bits: no moment where another group may connect.
		if err := os.Chown(path, -1, gid); err != nil {
			l.Close()
			return nil, err
		}
		mode = 0o660
	}
	if err := os.Chmod(path, mode); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// mkdirs creates dir and its missing parents with mode 0755 whatever the
// umask (027 would make them 0750 and shut out a Curio of --socket-group
// under another user); directories that exist are left as they are.
func mkdirs(dir string) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, d := range missing {
		if err := os.Chmod(d, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// FileKind names a file's type in words ("a regular file", "a directory"), as serve's
// refusal of a --listen path that is not a socket does (and doctor with it).
func FileKind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t == 0:
		return "a regular file"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case t&fs.ModeDevice != 0:
		return "a device"
	default:
		return "file type " + t.String()
	}
}

// tlsCreds builds server TLS credentials from cfg (nil when no certificate).
func tlsCreds(cfg ListenConfig) (credentials.TransportCredentials, error) {
	if cfg.TLSCert == "" && cfg.TLSKey == "" {
		if cfg.TLSClientCA != "" {
			return nil, errors.New("--tls-client-ca needs --tls-cert and --tls-key")
		}
		return nil, nil
	}
	if cfg.TLSCert == "" || cfg.TLSKey == "" {
		return nil, errors.New("--tls-cert and --tls-key go together")
	}
	cert, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert %s / --tls-key %s: %w", cfg.TLSCert, cfg.TLSKey, err)
	}
	tc := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if cfg.TLSClientCA != "" {
		pool, err := LoadCertPool(cfg.TLSClientCA)
		if err != nil {
			return nil, fmt.Errorf("--tls-client-ca %w", err)
		}
		tc.ClientCAs, tc.ClientAuth = pool, tls.RequireAndVerifyClientCert
	}
	return credentials.NewTLS(tc), nil
}

// LoadCertPool reads PEM certificates from path.
func LoadCertPool(path string) (*x509.CertPool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("%s: no PEM certificate in it", path)
	}
	return pool, nil
}
