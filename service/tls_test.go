// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cuseal/cuseal/service"
	"github.com/cuseal/cuseal/service/client"
)

// testCA makes a CA and certificates it signs, written as PEM files.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	file string
}

func newCA(t *testing.T, dir string) *testCA {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	ca := &testCA{cert: cert, key: key, file: filepath.Join(dir, "ca.pem")}
	writePEM(t, ca.file, "CERTIFICATE", der)
	return ca
}

// issue writes name.pem and name.key for a leaf certificate (server: for 127.0.0.1).
func (ca *testCA) issue(t *testing.T, dir, name string, server bool) (certFile, keyFile string) {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature}
	if server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
	} else {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile = filepath.Join(dir, name+".pem"), filepath.Join(dir, name+".key")
	writePEM(t, certFile, "CERTIFICATE", der)
	writePEM(t, keyFile, "EC PRIVATE KEY", kb)
	return certFile, keyFile
}

func writePEM(t *testing.T, path, typ string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestTLS: gRPC over TLS with client certificates (mTLS) on TCP loopback:
// a client with a certificate of the CA is served; one without a
// certificate, or without TLS, is not.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	ca := newCA(t, dir)
	srvCert, srvKey := ca.issue(t, dir, "server", true)
	cliCert, cliKey := ca.issue(t, dir, "client", false)

	l, creds, err := service.Listen(service.ListenConfig{Address: "127.0.0.1:0", TLSCert: srvCert, TLSKey: srvKey, TLSClientCA: ca.file})
	if err != nil || creds == nil {
		t.Fatal(err, creds)
	}
	s := service.New(newFake(true), service.Options{Creds: creds})
	go s.GRPC().Serve(l)
	defer s.GRPC().Stop()
	addr := l.Addr().String()

	pool, err := service.LoadCertPool(ca.file)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := tls.LoadX509KeyPair(cliCert, cliKey)
	if err != nil {
		t.Fatal(err)
	}
	try := func(opts client.Options) error {
		c, err := client.Dial(addr, opts)
		if err != nil {
			return err
		}
		defer c.Close()
		_, err = c.Prove(ctxT(t), porepReq(""))
		return err
	}
	if err := try(client.Options{TLS: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{pair}}}); err != nil {
		t.Fatalf("mTLS client: %v", err)
	}
	if err := try(client.Options{TLS: &tls.Config{RootCAs: pool}}); err == nil {
		t.Fatal("a client without a certificate was served")
	}
	if err := try(client.Options{}); err == nil {
		t.Fatal("a plain-gRPC client was served by the TLS server")
	}

	// TLS without client CA: any TLS client that trusts the server.
	l2, creds2, err := service.Listen(service.ListenConfig{Address: "127.0.0.1:0", TLSCert: srvCert, TLSKey: srvKey})
	if err != nil {
		t.Fatal(err)
	}
	s2 := service.New(newFake(true), service.Options{Creds: creds2})
	go s2.GRPC().Serve(l2)
	defer s2.GRPC().Stop()
	addr = l2.Addr().String()
	if err := try(client.Options{TLS: &tls.Config{RootCAs: pool}}); err != nil {
		t.Fatalf("TLS client: %v", err)
	}

	// Bad TLS flags are errors naming them.
	for _, cfg := range []service.ListenConfig{
		{Address: "127.0.0.1:0", TLSCert: srvCert},
		{Address: "127.0.0.1:0", TLSClientCA: ca.file},
		{Address: "127.0.0.1:0", TLSCert: srvCert, TLSKey: filepath.Join(dir, "missing.key")},
		{Address: "127.0.0.1:0", TLSCert: srvCert, TLSKey: srvKey, TLSClientCA: srvKey},
	} {
		if l, _, err := service.Listen(cfg); err == nil {
			l.Close()
			t.Errorf("Listen %+v: no error", cfg)
		}
	}
}
