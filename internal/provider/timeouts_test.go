package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestTimeoutsRefuseOnceNamingTheAttribute: every duration of the timeouts
// package's attributes, in every schema that has one, refuses a value that
// is not a duration with one error that names it (the package's own check,
// which does not, is replaced), and a duration of zero or less.
func TestTimeoutsRefuseOnceNamingTheAttribute(t *testing.T) {
	ctx := context.Background()
	durations := map[string][]validator.String{}
	for name, r := range map[string]resource.Resource{"transcription_job": &jobResource{}, "transcription_upload": &uploadResource{}} {
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		for field, a := range resp.Schema.Attributes["timeouts"].(schema.SingleNestedAttribute).Attributes {
			durations[name+".timeouts."+field] = a.(schema.StringAttribute).Validators
		}
	}
	var dsResp datasource.SchemaResponse
	(&jobDataSource{}).Schema(ctx, datasource.SchemaRequest{}, &dsResp)
	for field, a := range dsResp.Schema.Attributes["timeouts"].(dschema.SingleNestedAttribute).Attributes {
		durations["data.transcription_job.timeouts."+field] = a.(dschema.StringAttribute).Validators
	}
	var actionResp action.SchemaResponse
	(&transcribeAction{}).Schema(ctx, action.SchemaRequest{}, &actionResp)
	for field, a := range actionResp.Schema.Attributes["timeouts"].(actionschema.SingleNestedAttribute).Attributes {
		durations["action.transcription_transcribe.timeouts."+field] = a.(actionschema.StringAttribute).Validators
	}
	for _, want := range []string{"transcription_job.timeouts.create", "transcription_job.timeouts.delete", "transcription_upload.timeouts.create",
		"data.transcription_job.timeouts.read", "action.transcription_transcribe.timeouts.invoke"} {
		if _, ok := durations[want]; !ok {
			t.Errorf("no duration %s among %v", want, durations)
		}
	}
	for name, vs := range durations {
		for value, want := range map[string]string{"30 minutes": "must be a Go duration", "0s": "would end before it starts", "90m": ""} {
			p := path.Root("timeouts").AtName("x")
			var errs []string
			for _, v := range vs {
				var resp validator.StringResponse
				v.ValidateString(ctx, validator.StringRequest{Path: p, PathExpression: p.Expression(), ConfigValue: types.StringValue(value)}, &resp)
				for _, d := range resp.Diagnostics.Errors() {
					errs = append(errs, d.Detail())
				}
			}
			switch {
			case want == "" && len(errs) != 0:
				t.Errorf("%s = %q: unexpected errors %q", name, value, errs)
			case want != "" && (len(errs) != 1 || !strings.Contains(errs[0], want) || !strings.Contains(errs[0], "Attribute timeouts.x")):
				t.Errorf("%s = %q: errors %q, want one naming timeouts.x and saying %q", name, value, errs, want)
			}
		}
	}
}
