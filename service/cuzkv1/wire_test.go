// SPDX-License-Identifier: Apache-2.0 OR MIT

package cuzkv1

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// wireFields is the wire contract, field for field, as the cuzk.v1 protocol
// notes (shared docs/cuzk-wire.md) and Curio's proving.proto give it:
// "Message.field": "number type". A repeated field's type starts with
// "repeated "; messages and enums are named without the package.
var wireFields = map[string]string{
	"SubmitProofRequest.request_id":       "1 string",
	"SubmitProofRequest.proof_kind":       "2 ProofKind",
	"SubmitProofRequest.sector_size":      "3 uint64",
	"SubmitProofRequest.registered_proof": "4 uint64",
	"SubmitProofRequest.priority":         "5 Priority",
	"SubmitProofRequest.vanilla_proof":    "10 bytes",
	"SubmitProofRequest.vanilla_proofs":   "11 repeated bytes",
	"SubmitProofRequest.sector_number":    "20 uint64",
	"SubmitProofRequest.miner_id":         "21 uint64",
	"SubmitProofRequest.randomness":       "22 bytes",
	"SubmitProofRequest.partition_index":  "23 uint32",
	"SubmitProofRequest.comm_r_old":       "30 bytes",
	"SubmitProofRequest.comm_r_new":       "31 bytes",
	"SubmitProofRequest.comm_d_new":       "32 bytes",

	"SubmitProofResponse.job_id":         "1 string",
	"SubmitProofResponse.queue_position": "2 uint32",
	"SubmitProofResponse.assigned_gpu":   "3 string",

	"AwaitProofRequest.job_id":     "1 string",
	"AwaitProofRequest.timeout_ms": "2 uint64",

	"AwaitProofResponse.job_id":         "1 string",
	"AwaitProofResponse.status":         "2 AwaitProofResponse.Status",
	"AwaitProofResponse.proof":          "3 bytes",
	"AwaitProofResponse.error_message":  "4 string",
	"AwaitProofResponse.queue_wait_ms":  "10 uint64",
	"AwaitProofResponse.srs_load_ms":    "11 uint64",
	"AwaitProofResponse.synthesis_ms":   "12 uint64",
	"AwaitProofResponse.gpu_compute_ms": "13 uint64",
	"AwaitProofResponse.total_ms":       "14 uint64",

	"ProveRequest.submit":  "1 SubmitProofRequest",
	"ProveResponse.result": "1 AwaitProofResponse",

	"CancelProofRequest.job_id":       "1 string",
	"CancelProofResponse.was_running": "1 bool",

	"GetStatusResponse.gpus":                      "1 repeated GPUStatus",
	"GetStatusResponse.loaded_srs":                "2 repeated SRSStatus",
	"GetStatusResponse.queues":                    "3 repeated QueueStatus",
	"GetStatusResponse.total_proofs_completed":    "4 uint64",
	"GetStatusResponse.total_proofs_failed":       "5 uint64",
	"GetStatusResponse.uptime_seconds":            "6 uint64",
	"GetStatusResponse.pinned_memory_bytes":       "7 uint64",
	"GetStatusResponse.pinned_memory_limit_bytes": "8 uint64",

	"GPUStatus.ordinal":            "1 uint32",
	"GPUStatus.name":               "2 string",
	"GPUStatus.vram_total_bytes":   "3 uint64",
	"GPUStatus.vram_free_bytes":    "4 uint64",
	"GPUStatus.current_job_id":     "5 string",
	"GPUStatus.current_proof_kind": "6 string",

	"SRSStatus.circuit_id": "1 string",
	"SRSStatus.tier":       "2 SRSStatus.Tier",
	"SRSStatus.size_bytes": "3 uint64",
	"SRSStatus.ref_count":  "4 uint32",

	"QueueStatus.proof_kind":  "1 string",
	"QueueStatus.pending":     "2 uint32",
	"QueueStatus.in_progress": "3 uint32",

	"GetMetricsResponse.prometheus_text": "1 string",

	"PreloadSrsRequest.circuit_id":      "1 string",
	"PreloadSrsResponse.already_loaded": "1 bool",
	"PreloadSrsResponse.load_time_ms":   "2 uint64",
	"EvictSrsRequest.circuit_id":        "1 string",
	"EvictSrsResponse.was_loaded":       "1 bool",
	"EvictSrsResponse.freed_bytes":      "2 uint64",
}

// wireEnums: "Enum.VALUE": number.
var wireEnums = map[string]int32{
	"ProofKind.PROOF_KIND_UNSPECIFIED": 0, "ProofKind.POREP_SEAL_COMMIT": 1, "ProofKind.SNAP_DEALS_UPDATE": 2,
	"ProofKind.WINDOW_POST_PARTITION": 3, "ProofKind.WINNING_POST": 4,
	"Priority.PRIORITY_UNSPECIFIED": 0, "Priority.LOW": 1, "Priority.NORMAL": 2, "Priority.HIGH": 3, "Priority.CRITICAL": 4,
	"AwaitProofResponse.Status.UNKNOWN": 0, "AwaitProofResponse.Status.COMPLETED": 1, "AwaitProofResponse.Status.FAILED": 2,
	"AwaitProofResponse.Status.CANCELLED": 3, "AwaitProofResponse.Status.TIMEOUT": 4,
	"SRSStatus.Tier.HOT": 0, "SRSStatus.Tier.WARM": 1, "SRSStatus.Tier.COLD": 2,
}

// wireRPCs: "Method": "Request Response".
var wireRPCs = map[string]string{
	"SubmitProof": "SubmitProofRequest SubmitProofResponse",
	"AwaitProof":  "AwaitProofRequest AwaitProofResponse",
	"Prove":       "ProveRequest ProveResponse",
	"CancelProof": "CancelProofRequest CancelProofResponse",
	"GetStatus":   "GetStatusRequest GetStatusResponse",
	"GetMetrics":  "GetMetricsRequest GetMetricsResponse",
	"PreloadSRS":  "PreloadSrsRequest PreloadSrsResponse",
	"EvictSRS":    "EvictSrsRequest EvictSrsResponse",
}

// short is a full name without the "cuzk.v1." package.
func short(n protoreflect.FullName) string { return strings.TrimPrefix(string(n), "cuzk.v1.") }

// TestWireContract compares the compiled descriptor (what goes on the wire)
// with the contract tables both ways: every field, enum value and RPC of
// the contract exists with its number and type, and there is nothing else.
func TestWireContract(t *testing.T) {
	fd := File_proving_proto
	if fd.Package() != "cuzk.v1" {
		t.Fatalf("package %q, want cuzk.v1", fd.Package())
	}
	got := map[string]string{}
	gotEnums := map[string]int32{}
	addEnum := func(e protoreflect.EnumDescriptor) {
		for i := 0; i < e.Values().Len(); i++ {
			v := e.Values().Get(i)
			gotEnums[short(e.FullName())+"."+string(v.Name())] = int32(v.Number())
		}
	}
	var addMsg func(m protoreflect.MessageDescriptor)
	addMsg = func(m protoreflect.MessageDescriptor) {
		for i := 0; i < m.Fields().Len(); i++ {
			f := m.Fields().Get(i)
			typ := f.Kind().String()
			switch f.Kind() {
			case protoreflect.MessageKind:
				typ = short(f.Message().FullName())
			case protoreflect.EnumKind:
				typ = short(f.Enum().FullName())
			}
			if f.Cardinality() == protoreflect.Repeated {
				typ = "repeated " + typ
			}
			got[short(m.FullName())+"."+string(f.Name())] = fmt.Sprintf("%d %s", f.Number(), typ)
		}
		for i := 0; i < m.Enums().Len(); i++ {
			addEnum(m.Enums().Get(i))
		}
		for i := 0; i < m.Messages().Len(); i++ {
			addMsg(m.Messages().Get(i))
		}
	}
	for i := 0; i < fd.Messages().Len(); i++ {
		addMsg(fd.Messages().Get(i))
	}
	for i := 0; i < fd.Enums().Len(); i++ {
		addEnum(fd.Enums().Get(i))
	}
	compare(t, "field", wireFields, got)
	compare(t, "enum value", wireEnums, gotEnums)

	if fd.Services().Len() != 1 || fd.Services().Get(0).FullName() != "cuzk.v1.ProvingEngine" {
		t.Fatalf("services: want exactly cuzk.v1.ProvingEngine")
	}
	gotRPCs := map[string]string{}
	ms := fd.Services().Get(0).Methods()
	for i := 0; i < ms.Len(); i++ {
		m := ms.Get(i)
		if m.IsStreamingClient() || m.IsStreamingServer() {
			t.Errorf("rpc %s streams; cuzk.v1 is unary only", m.Name())
		}
		gotRPCs[string(m.Name())] = short(m.Input().FullName()) + " " + short(m.Output().FullName())
	}
	compare(t, "rpc", wireRPCs, gotRPCs)
	if ProvingEngine_ServiceDesc.ServiceName != "cuzk.v1.ProvingEngine" {
		t.Errorf("grpc service name %q", ProvingEngine_ServiceDesc.ServiceName)
	}
}

func compare[V comparable](t *testing.T, what string, want, got map[string]V) {
	t.Helper()
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		w, inWant := want[k]
		g, inGot := got[k]
		switch {
		case !inGot:
			t.Errorf("%s %s: missing from the descriptor (want %v)", what, k, w)
		case !inWant:
			t.Errorf("%s %s: %v is not in the wire contract", what, k, g)
		case w != g:
			t.Errorf("%s %s: descriptor has %v, contract %v", what, k, g, w)
		}
	}
}
