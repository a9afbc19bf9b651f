package planmodifiers

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestNullWhenSwitchOff(t *testing.T) {
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"include_raw_result": schema.BoolAttribute{Optional: true},
		"result_json":        schema.StringAttribute{Computed: true},
	}}
	plan := func(raw tftypes.Value) tfsdk.Plan {
		return tfsdk.Plan{Schema: s, Raw: frameworktest.Object(t, s.Type(), map[string]tftypes.Value{"include_raw_result": raw})}
	}
	destroy := tfsdk.Plan{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(context.Background()), nil)}
	tests := map[string]struct {
		plan    tfsdk.Plan
		planned types.String
		want    types.String
	}{
		"switch off":          {plan: plan(frameworktest.Bool(false)), planned: types.StringUnknown(), want: types.StringNull()},
		"switch on":           {plan: plan(frameworktest.Bool(true)), planned: types.StringUnknown(), want: types.StringUnknown()},
		"switch unknown":      {plan: plan(tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue)), planned: types.StringUnknown(), want: types.StringUnknown()},
		"switch null":         {plan: plan(tftypes.NewValue(tftypes.Bool, nil)), planned: types.StringUnknown(), want: types.StringUnknown()},
		"planned value known": {plan: plan(frameworktest.Bool(false)), planned: types.StringValue("{}"), want: types.StringValue("{}")},
		"destroy":             {plan: destroy, planned: types.StringNull(), want: types.StringNull()},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			req := planmodifier.StringRequest{Path: path.Root("result_json"), Plan: tc.plan, PlanValue: tc.planned}
			resp := &planmodifier.StringResponse{PlanValue: tc.planned}
			NullWhenSwitchOff(path.Root("include_raw_result")).PlanModifyString(context.Background(), req, resp)
			if !resp.PlanValue.Equal(tc.want) {
				t.Errorf("planned %s, want %s", resp.PlanValue, tc.want)
			}
		})
	}
}
