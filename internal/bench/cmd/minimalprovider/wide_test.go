package main

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/provider"
)

// resourceSchema returns the schema of the resource type name among rs.
func resourceSchema(t *testing.T, providerTypeName, name string, rs []func() resource.Resource) resource.SchemaResponse {
	t.Helper()
	ctx := context.Background()
	for _, newResource := range rs {
		r := newResource()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: providerTypeName}, &meta)
		if meta.TypeName != name {
			continue
		}
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatalf("%s schema: %v", name, resp.Diagnostics)
		}
		return resp
	}
	t.Fatalf("no resource %s", name)
	return resource.SchemaResponse{}
}

func TestWideJobIsAsWideAsTranscriptionJob(t *testing.T) {
	ctx := context.Background()
	job := resourceSchema(t, "transcription", "transcription_job", provider.New("test")().Resources(ctx))
	wide := resourceSchema(t, "minimal", "minimal_wide_job", newProvider().Resources(ctx))
	narrow := resourceSchema(t, "minimal", "minimal_job", newProvider().Resources(ctx))
	if got, want := len(wide.Schema.Attributes), len(job.Schema.Attributes); got != want {
		t.Errorf("minimal_wide_job has %d top-level attributes, transcription_job %d: change wideExtra", got, want)
	}
	if got := len(narrow.Schema.Attributes); got != 3 {
		t.Errorf("minimal_job has %d attributes, want 3", got)
	}
}

// The model must map every attribute of the schema, or Get and Set fail.
func TestWideJobModelMatchesItsSchema(t *testing.T) {
	ctx := context.Background()
	wide := resourceSchema(t, "minimal", "minimal_wide_job", newProvider().Resources(ctx))
	r := &jobResource{wide: true}
	m := r.newModel()
	m.job().ID, m.job().AudioURL, m.job().Status = types.StringValue("id"), types.StringValue("https://a"), types.StringValue("done")
	state := tfsdk.State{Schema: wide.Schema, Raw: tftypes.NewValue(wide.Schema.Type().TerraformType(ctx), nil)}
	if diags := state.Set(ctx, m); diags.HasError() {
		t.Fatalf("Set: %v", diags)
	}
	back := r.newModel()
	if diags := state.Get(ctx, back); diags.HasError() {
		t.Fatalf("Get: %v", diags)
	}
	if back.job().Status.ValueString() != "done" || back.(*wideJobModel).Extra40.IsNull() != true {
		t.Fatalf("round trip gave %+v", back)
	}
}
