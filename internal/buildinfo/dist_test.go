// SPDX-License-Identifier: Apache-2.0 OR MIT

package buildinfo

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cuseal/cuseal/testsupport/testenv"
)

// TestDistReproducible: `./build.sh dist` run twice, each from an empty Go build cache and an
// empty build directory, writes byte-identical archives and SHA256SUMS; the archive holds what
// docs/releasing.md lists, owned by 0:0, and its bin/cuseal names this release.
func TestDistReproducible(t *testing.T) {
	testenv.Long(t, "two release builds from empty Go build caches (minutes)")
	for _, tool := range []string{"bash", "git", "tar", "gzip", "sha256sum", "cc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: ./build.sh dist needs it", tool)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	outs := make([]string, 2)
	for i := range outs {
		run := filepath.Join(tmp, "run"+string(rune('a'+i)))
		outs[i] = filepath.Join(run, "dist")
		cmd := exec.Command("bash", filepath.Join(root, "build.sh"), "dist")
		cmd.Dir = root
		// DIST_CUDA=0: PATH's nvcc (CI has one) would add the -cuda archive, a CUDA build of every
		// arch; this test is about the reproducible build, on any box.
		cmd.Env = append(os.Environ(), "DIST_CUDA=0", "GOCACHE="+filepath.Join(run, "gocache"), "DIST_BUILD="+filepath.Join(run, "build"), "DIST_OUT="+outs[i])
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("./build.sh dist (run %d): %v\n%s", i+1, err, out)
		}
		t.Logf("./build.sh dist run %d: %s", i+1, time.Since(start).Round(time.Second))
	}
	sums := make([][]byte, 2)
	for i, out := range outs {
		if sums[i], err = os.ReadFile(filepath.Join(out, "SHA256SUMS")); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(sums[0], sums[1]) {
		t.Fatalf("SHA256SUMS differ:\n%s\n%s", sums[0], sums[1])
	}
	name := "cuseal-" + Version + "-linux-amd64"
	if !bytes.Contains(sums[0], []byte("  "+name+".tar.gz\n")) {
		t.Fatalf("SHA256SUMS does not list %s.tar.gz:\n%s", name, sums[0])
	}
	for _, line := range strings.Split(strings.TrimSpace(string(sums[0])), "\n") {
		f := strings.Fields(line)[1]
		a, errA := os.ReadFile(filepath.Join(outs[0], f))
		b, errB := os.ReadFile(filepath.Join(outs[1], f))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the two runs differ (%v, %v)", f, errA, errB)
		}
	}
	files := archiveFiles(t, filepath.Join(outs[0], name+".tar.gz"))
	for _, want := range []string{"bin/cuseal", "lib/libcuseal.so", "lib/libcuseal.a", "include/cuseal_porep.h", "systemd/cuseal-serve.service",
		"docs/releasing.md", "docs/grafana/cuseal.json", "README.md", "CHANGELOG.md", "LICENSE-APACHE", "LICENSE-MIT"} {
		if !slices.Contains(files, name+"/"+want) {
			t.Errorf("%s.tar.gz lacks %s (docs/releasing.md lists it)", name, want)
		}
	}
	ver, err := exec.Command(filepath.Join(tmp, "runa", "build", name, "bin", "cuseal"), "version").Output()
	if err != nil || !strings.HasPrefix(string(ver), "cuseal "+Version+" (") || !strings.Contains(string(ver), "rev ") {
		t.Errorf("bin/cuseal version: %q, %v: want the release and the revision", ver, err)
	}
}

// archiveFiles lists a .tar.gz's regular files, failing on an entry not owned by 0:0.
func archiveFiles(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if !zr.ModTime.IsZero() || zr.Name != "" {
		t.Errorf("%s: gzip header records name %q, time %v (want gzip -n)", path, zr.Name, zr.ModTime)
	}
	tr := tar.NewReader(zr)
	var files []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Uid != 0 || h.Gid != 0 {
			t.Errorf("%s: %s owned by %d:%d", path, h.Name, h.Uid, h.Gid)
		}
		if h.Typeflag == tar.TypeReg {
			files = append(files, h.Name)
		}
	}
}
