package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// TestListFilters_customMetadataKeys: a custom_metadata filter key that the
// query encoding custom_metadata[key]=value cannot carry (empty, or holding
// a square bracket, opening or closing) is refused at validation, before
// any request, by the transcription_live_jobs data source and the
// transcription_job list resource alike; other keys pass.
func TestListFilters_customMetadataKeys(t *testing.T) {
	ctx := context.Background()
	h := newProtoHarness(t, fakeserver.Options{})
	listServer, listType := jobListOf(t, h)
	liveType := h.dataSourceType(liveJobsTypeName)
	filter := func(typ tftypes.Object, key string) tfprotov6.DynamicValue {
		metadata := tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{key: tftypes.NewValue(tftypes.String, "alpha")})
		return dynamicValue(t, typ, objectValue(typ, map[string]tftypes.Value{"custom_metadata": metadata}))
	}
	validators := map[string]func(key string) []*tfprotov6.Diagnostic{
		liveJobsTypeName: func(key string) []*tfprotov6.Diagnostic {
			config := filter(liveType, key)
			resp, err := h.server.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: liveJobsTypeName, Config: &config})
			if err != nil {
				t.Fatal(err)
			}
			return resp.Diagnostics
		},
		"transcription_job list resource": func(key string) []*tfprotov6.Diagnostic {
			config := filter(listType, key)
			resp, err := listServer.ValidateListResourceConfig(ctx, &tfprotov6.ValidateListResourceConfigRequest{TypeName: jobResourceTypeName, Config: &config})
			if err != nil {
				t.Fatal(err)
			}
			return resp.Diagnostics
		},
	}
	for subject, validate := range validators {
		for key, refused := range map[string]bool{"team": false, "cost-centre.eu": false, "": true, "a[b": true, "a]b": true, "[x]": true} {
			diags := validate(key)
			if !refused {
				if hasError(diags) {
					t.Errorf("%s: key %q refused: %v", subject, key, diagnosticSummaries(diags))
				}
				continue
			}
			if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityError ||
				!strings.Contains(diags[0].Detail, "custom_metadata") || !strings.Contains(diags[0].Detail, "key must not be empty or contain square brackets") {
				t.Errorf("%s: key %q: diagnostics %v, want the one error on custom_metadata's keys", subject, key, diagnosticSummaries(diags))
			}
		}
	}
}
