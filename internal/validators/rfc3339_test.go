package validators

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
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

func TestRFC3339DateTimeValidator(t *testing.T) {
	runStringValidator(t, RFC3339DateTime(), "after_date", []validatorCase{
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
