// Package datetimetypes holds RFC3339, timetypes.RFC3339 checked as RFC 3339
// and the service read date-times, with an error naming the attribute and
// the rule.
//
// timetypes.RFC3339 checks a value with Go's time.Parse, which takes more
// than RFC 3339 (offsets up to ±24:60, a comma before the fraction; the
// service refuses both), and its error names no attribute: the CLI shows
// the attribute's line for a data source, but only the block's first line
// for a list block of terraform query, so nothing said which of two
// date-times was wrong. RFC3339 keeps timetypes' value and semantic
// equality, and replaces its check: one fault, one diagnostic, saying where
// and what.
package datetimetypes

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var (
	_ basetypes.StringTypable                    = RFC3339Type{}
	_ basetypes.StringValuableWithSemanticEquals = RFC3339{}
	_ xattr.ValidateableAttribute                = RFC3339{}
)

// InvalidSummary is the summary of the error for a value that is not an
// RFC 3339 date-time (timetypes' own).
const InvalidSummary = "Invalid RFC3339 String Value"

// rule is what a value must be; the error adds what is wrong with it.
const rule = "an RFC 3339 date-time such as 2024-05-01T12:00:00Z"

// RFC3339Type is the type of RFC3339 values.
type RFC3339Type struct {
	timetypes.RFC3339Type
}

func (t RFC3339Type) Equal(o attr.Type) bool {
	_, ok := o.(RFC3339Type)
	return ok
}

func (t RFC3339Type) String() string { return "datetimetypes.RFC3339Type" }

func (t RFC3339Type) ValueType(context.Context) attr.Value { return RFC3339{} }

func (t RFC3339Type) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return RFC3339{RFC3339: timetypes.RFC3339{StringValue: in}}, nil
}

func (t RFC3339Type) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.StringType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	s, ok := v.(basetypes.StringValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type of %T", v)
	}
	return RFC3339{RFC3339: timetypes.RFC3339{StringValue: s}}, nil
}

// RFC3339 is a date-time value.
type RFC3339 struct {
	timetypes.RFC3339
}

func (v RFC3339) Type(context.Context) attr.Type { return RFC3339Type{} }

func (v RFC3339) Equal(o attr.Value) bool {
	other, ok := o.(RFC3339)
	return ok && v.RFC3339.Equal(other.RFC3339)
}

// StringSemanticEquals is timetypes': values equal once parsed and written
// again as RFC 3339 without fraction (Z and +00:00 are the same offset).
func (v RFC3339) StringSemanticEquals(ctx context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	other, ok := newValuable.(RFC3339)
	if !ok {
		return false, nil
	}
	return v.RFC3339.StringSemanticEquals(ctx, other.RFC3339)
}

// ValidateAttribute refuses a value that is not an RFC 3339 date-time, as
// the service reads one (client.ParseDateTimeFilter), naming the attribute.
func (v RFC3339) ValidateAttribute(_ context.Context, req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse) {
	if v.IsUnknown() || v.IsNull() {
		return
	}
	if _, err := client.ParseDateTimeFilter(v.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, InvalidSummary,
			fmt.Sprintf("Attribute %s value must be %s, got %q: %s.", req.Path, rule, v.ValueString(), err))
	}
}

// NewRFC3339Null is a null date-time.
func NewRFC3339Null() RFC3339 { return RFC3339{RFC3339: timetypes.NewRFC3339Null()} }

// NewRFC3339Value is a date-time of s, checked only by ValidateAttribute.
func NewRFC3339Value(s string) RFC3339 {
	return RFC3339{RFC3339: timetypes.RFC3339{StringValue: basetypes.NewStringValue(s)}}
}
