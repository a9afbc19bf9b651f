package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// validatorCase is one value given to a string validator; wantError is a
// fragment of the expected error detail, empty when the value is valid.
type validatorCase struct {
	value     types.String
	wantError string
}

func runStringValidator(t *testing.T, v validator.String, name string, cases []validatorCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.value.String(), func(t *testing.T) {
			req := validator.StringRequest{Path: path.Root(name), PathExpression: path.MatchRoot(name), ConfigValue: c.value}
			resp := &validator.StringResponse{}
			v.ValidateString(context.Background(), req, resp)
			checkValidatorDiags(t, resp, name, c.wantError)
		})
	}
}

func checkValidatorDiags(t *testing.T, resp *validator.StringResponse, name, wantError string) {
	t.Helper()
	if wantError == "" {
		if resp.Diagnostics.HasError() {
			t.Fatalf("unexpected error: %v", resp.Diagnostics)
		}
		return
	}
	if resp.Diagnostics.ErrorsCount() != 1 {
		t.Fatalf("want one error containing %q, got %v", wantError, resp.Diagnostics)
	}
	detail := resp.Diagnostics.Errors()[0].Detail()
	if !strings.Contains(detail, wantError) || !strings.Contains(detail, "Attribute "+name) {
		t.Errorf("error %q should name %s and contain %q", detail, name, wantError)
	}
}

func TestCalendarDateValidator(t *testing.T) {
	runStringValidator(t, calendarDate(), "date", []validatorCase{
		{types.StringValue("2024-02-29"), ""},
		{types.StringValue("2025-12-31"), ""},
		{types.StringNull(), ""},
		{types.StringUnknown(), ""},
		{types.StringValue("2023-02-29"), "no such day in the calendar"},
		{types.StringValue("2025-04-31"), "no such day in the calendar"},
		{types.StringValue("2025-13-01"), "no such day in the calendar"},
		{types.StringValue("2025-3-8"), "not written YYYY-MM-DD"},
		{types.StringValue("2025-03-08T00:00:00Z"), "not written YYYY-MM-DD"},
		{types.StringValue(""), "not written YYYY-MM-DD"},
	})
}

func TestRFC3339DateTimeValidator(t *testing.T) {
	runStringValidator(t, rfc3339DateTime(), "after_date", []validatorCase{
		{types.StringValue("2024-05-01T12:00:00Z"), ""},
		{types.StringValue("2024-05-01T12:00:00.123456Z"), ""},
		{types.StringValue("2024-05-01T12:00:00+02:00"), ""},
		{types.StringNull(), ""},
		{types.StringUnknown(), ""},
		{types.StringValue("2024-05-01"), "not written"},
		{types.StringValue("2024-05-01T12:00:00"), "not written"},
		{types.StringValue("2024-05-01 12:00:00Z"), "not written"},
		{types.StringValue("2024-05-01T12:00Z"), "not written"},
		{types.StringValue("2024-05-01t12:00:00z"), "not written"},
		{types.StringValue("2024-05-01T25:00:00Z"), "not a real date and time"},
		{types.StringValue("2023-02-29T12:00:00Z"), "not a real date and time"},
	})
}

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
	v := earlierThan(path.MatchRoot("before_date"))
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
