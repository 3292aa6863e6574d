// SPDX-License-Identifier: Apache-2.0 OR MIT

package cuzkv1

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
)

// TestGeneratedUpToDate compiles proving.proto with protoc (when it is on
// PATH, or $PROTOC) and compares its descriptor with the one compiled into
// proving.pb.go: an edit of the .proto without scripts/gen-proto.sh fails.
func TestGeneratedUpToDate(t *testing.T) {
	protoc := os.Getenv("PROTOC")
	if protoc == "" {
		var err error
		if protoc, err = exec.LookPath("protoc"); err != nil {
			t.Skip("protoc not installed (apt-get install protobuf-compiler): cannot compile proving.proto; TestWireContract still checks the generated descriptor")
		}
	}
	out := filepath.Join(t.TempDir(), "set.pb")
	if b, err := exec.Command(protoc, "-I", ".", "--descriptor_set_out="+out, "proving.proto").CombinedOutput(); err != nil {
		t.Fatalf("protoc: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(b, &set); err != nil {
		t.Fatal(err)
	}
	if len(set.File) != 1 {
		t.Fatalf("%d files in the descriptor set", len(set.File))
	}
	got := protodesc.ToFileDescriptorProto(File_proving_proto)
	want := set.File[0]
	got.SourceCodeInfo, want.SourceCodeInfo = nil, nil
	if !proto.Equal(got, want) {
		t.Fatalf("proving.pb.go is not proving.proto compiled: run scripts/gen-proto.sh")
	}
}
