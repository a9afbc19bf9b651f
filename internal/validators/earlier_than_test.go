package validators

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestEarlierThanValidator(t *testing.T) {
	ctx := context.Background()
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"after_date":  schema.StringAttribute{Optional: true},
		"before_date": schema.StringAttribute{Optional: true},
	}}
	str := func(v types.String) tftypes.Value {
		switch {
		case v.IsNull():
			return tftypes.NewValue(tftypes.String, nil)
		case v.IsUnknown():
			return tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
		}
		return tftypes.NewValue(tftypes.String, v.ValueString())
	}
	v := EarlierThan(path.MatchRoot("before_date"))
	for _, c := range []struct {
		after, before types.String
		wantError     string
	}{
		{types.StringValue("2024-05-01T00:00:00Z"), types.StringValue("2024-05-02T00:00:00Z"), ""},
		// Same instant written in two zones is not earlier.
		{types.StringValue("2024-05-01T02:00:00+02:00"), types.StringValue("2024-05-01T00:00:00Z"), "must be earlier than before_date"},
		{types.StringValue("2024-05-03T00:00:00Z"), types.StringValue("2024-05-02T00:00:00Z"), "must be earlier than before_date"},
		{types.StringValue("2024-05-03T00:00:00Z"), types.StringNull(), ""},
		{types.StringValue("2024-05-03T00:00:00Z"), types.StringUnknown(), ""},
		{types.StringUnknown(), types.StringValue("2024-05-02T00:00:00Z"), ""},
		{types.StringNull(), types.StringValue("2024-05-02T00:00:00Z"), ""},
		// Malformed values are rfc3339DateTime's to report.
		{types.StringValue("yesterday"), types.StringValue("2024-05-02T00:00:00Z"), ""},
		{types.StringValue("2024-05-03T00:00:00Z"), types.StringValue("tomorrow"), ""},
	} {
		t.Run(c.after.String()+"<"+c.before.String(), func(t *testing.T) {
			raw := tftypes.NewValue(s.Type().TerraformType(ctx), map[string]tftypes.Value{"after_date": str(c.after), "before_date": str(c.before)})
			req := validator.StringRequest{
				Path:           path.Root("after_date"),
				PathExpression: path.MatchRoot("after_date"),
				ConfigValue:    c.after,
				Config:         tfsdk.Config{Schema: s, Raw: raw},
			}
			resp := &validator.StringResponse{}
			v.ValidateString(ctx, req, resp)
			checkValidatorDiags(t, resp, "after_date", c.wantError)
		})
	}
}
