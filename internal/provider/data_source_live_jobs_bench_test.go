package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// BenchmarkLiveJobsRead reads transcription_live_jobs over 1,000 seeded live
// jobs through the protocol server, as `terraform plan` does: 10 pages
// fetched and decoded, 1,000 items flattened and encoded for the CLI. The
// fake server answers from records it built before the loop.
func BenchmarkLiveJobsRead(b *testing.B) {
	const items = 1000
	h := newProtoHarness(b, fakeserver.Options{LiveJobs: items})
	typ := h.dataSourceType(liveJobsTypeName)
	config := dynamicValue(b, typ, objectValue(typ, nil))
	read := func() *tfprotov6.ReadDataSourceResponse {
		resp, err := h.server.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{TypeName: liveJobsTypeName, Config: &config})
		if err != nil {
			b.Fatal(err)
		}
		failOnDiagnostics(b, "ReadDataSource", resp.Diagnostics)
		return resp
	}
	checkLiveItems(b, typ, read().State, items) // and warm the fake server's records
	defer reportCPU(b)()
	for b.Loop() {
		read()
	}
}

// checkLiveItems fails unless state holds want ids.
func checkLiveItems(tb testing.TB, typ tftypes.Object, state *tfprotov6.DynamicValue, want int) {
	tb.Helper()
	v, err := state.Unmarshal(typ)
	if err != nil {
		tb.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		tb.Fatal(err)
	}
	var ids []tftypes.Value
	if err := attrs["ids"].As(&ids); err != nil {
		tb.Fatal(err)
	}
	if len(ids) != want {
		tb.Fatalf("%d ids, want %d", len(ids), want)
	}
}
