package datetimetypes

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Every string converts; ValidateAttribute refuses what is not an RFC 3339
// date-time as the service reads one, Go's looser parse included, with one
// error naming the attribute, the rule and what is wrong.
func TestRFC3339_validateAttribute(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		in        any // a string, nil (null) or tftypes.UnknownValue
		wantError string
	}{
		{"2024-05-01T12:00:00Z", ""},
		{"2024-05-01T12:00:00.123456Z", ""},
		{"2024-05-01T12:00:00+02:00", ""},
		{"2024-05-01T12:00:00+23:59", ""},
		{"2024-05-01T12:00:00-00:00", ""},
		{nil, ""},
		{tftypes.UnknownValue, ""},
		// What Go's parser (and so timetypes.RFC3339) accepts and RFC 3339 does not.
		{"2024-05-01T12:00:00+24:00", "offset is not a time of day"},
		{"2024-05-01T12:00:00-24:00", "offset is not a time of day"},
		{"2024-05-01T12:00:00+01:60", "offset is not a time of day"},
		{"2024-05-01T12:00:00,5Z", "not written"},
		// What neither accepts.
		{"2024-05-01", "not written"},
		{"2024-05-01T12:00:00", "not written"},
		{"2024-05-01 12:00:00Z", "not written"},
		{"2024-05-01t12:00:00z", "not written YYYY-MM-DDThh:mm:ss with an optional .fraction and a Z or ±hh:mm offset (upper-case T and Z)"},
		{"2024-06-30T23:59:60Z", "not a real date and time (months 01 to 12, the days of the month, hours 00 to 23, minutes and seconds 00 to 59)"},
		{"2024-05-01T25:00:00Z", "not a real date and time"},
		{"2023-02-29T12:00:00Z", "not a real date and time"},
	} {
		v, err := RFC3339Type{}.ValueFromTerraform(ctx, tftypes.NewValue(tftypes.String, tc.in))
		if err != nil {
			t.Fatalf("%v: ValueFromTerraform: %v", tc.in, err)
		}
		value, ok := v.(RFC3339)
		if !ok {
			t.Fatalf("%v: ValueFromTerraform gave %T, not RFC3339", tc.in, v)
		}
		var resp xattr.ValidateAttributeResponse
		value.ValidateAttribute(ctx, xattr.ValidateAttributeRequest{Path: path.Root("after_date")}, &resp)
		switch {
		case tc.wantError == "" && resp.Diagnostics.HasError():
			t.Errorf("%v: unexpected errors %v", tc.in, resp.Diagnostics)
		case tc.wantError != "":
			errs := resp.Diagnostics.Errors()
			if len(errs) != 1 {
				t.Errorf("%v: errors %v, want one", tc.in, errs)
				continue
			}
			want := `Attribute after_date value must be an RFC 3339 date-time such as 2024-05-01T12:00:00Z, got "` + tc.in.(string) + `": `
			if d := errs[0]; d.Summary() != InvalidSummary || !strings.HasPrefix(d.Detail(), want) || !strings.Contains(d.Detail(), tc.wantError) {
				t.Errorf("%v: error %q: %q, want %q: %q…%q", tc.in, d.Summary(), d.Detail(), InvalidSummary, want, tc.wantError)
			}
		}
	}
}

// Values are of this type and compare as timetypes' do: Z and +00:00 are
// the same offset.
func TestRFC3339_typeAndSemanticEquality(t *testing.T) {
	ctx := context.Background()
	z, offset := NewRFC3339Value("2024-05-01T12:00:00Z"), NewRFC3339Value("2024-05-01T12:00:00+00:00")
	if !z.Type(ctx).Equal(RFC3339Type{}) || z.Equal(offset) || !z.Equal(NewRFC3339Value("2024-05-01T12:00:00Z")) {
		t.Error("type or equality of values wrong")
	}
	if same, diags := z.StringSemanticEquals(ctx, offset); !same || diags.HasError() {
		t.Errorf("Z and +00:00: semantically equal %v, %v", same, diags)
	}
	if same, _ := z.StringSemanticEquals(ctx, NewRFC3339Value("2024-05-01T14:00:00+02:00")); same {
		t.Error("another offset is semantically equal (timetypes says not)")
	}
	if v := NewRFC3339Null(); !v.IsNull() || !v.Type(ctx).Equal(RFC3339Type{}) {
		t.Errorf("NewRFC3339Null: %v", v)
	}
}
