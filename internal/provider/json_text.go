package provider

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var (
	_ basetypes.StringTypable                    = jsonTextType{}
	_ basetypes.StringValuableWithSemanticEquals = jsonText{}
)

// jsonTextType is jsontypes.NormalizedType whose values compare their text
// before normalizing it. After every refresh the framework asks each value
// of the new state whether it means the same as the prior one (semantic
// equality), and jsontypes normalizes both texts to answer, decoding and
// encoding them whole, even when they are the same bytes, as they are for
// every job whose record cannot change. For a one-hour job with word timings
// in state (1.4 MB of JSON) that was nine tenths of a refresh's allocations.
// Validation, normalization and everything else are jsontypes'.
type jsonTextType struct {
	jsontypes.NormalizedType
}

func (t jsonTextType) Equal(o attr.Type) bool {
	_, ok := o.(jsonTextType)
	return ok
}

func (t jsonTextType) String() string { return "jsonTextType" }

func (t jsonTextType) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return jsonText{Normalized: jsontypes.Normalized{StringValue: in}}, nil
}

func (t jsonTextType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.StringType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	s, ok := v.(basetypes.StringValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type of %T", v)
	}
	return jsonText{Normalized: jsontypes.Normalized{StringValue: s}}, nil
}

func (t jsonTextType) ValueType(context.Context) attr.Value { return jsonText{} }

// jsonText is a value of jsonTextType: JSON text, normalized by jsontypes.
type jsonText struct {
	jsontypes.Normalized
}

func jsonTextValue(s string) jsonText { return jsonText{Normalized: jsontypes.NewNormalizedValue(s)} }

func jsonTextNull() jsonText { return jsonText{Normalized: jsontypes.NewNormalizedNull()} }

func (v jsonText) Type(context.Context) attr.Type { return jsonTextType{} }

func (v jsonText) Equal(o attr.Value) bool {
	other, ok := o.(jsonText)
	return ok && v.StringValue.Equal(other.StringValue)
}

// jsonTextSummaryBytes is how much of a long text String shows.
const jsonTextSummaryBytes = 256

// String is the summary of the value the attr.Value interface asks for
// ("intentionally lossy", for logs and errors): the text itself up to
// jsonTextSummaryBytes, else its start and its length. The framework
// builds it for a trace log of every semantic equality check, logged or
// not; quoting 1.4 MB of word timings whole took a fifth of a refresh's CPU.
func (v jsonText) String() string {
	s := v.ValueString()
	if v.IsNull() || v.IsUnknown() || len(s) <= jsonTextSummaryBytes {
		return v.Normalized.String()
	}
	cut := jsonTextSummaryBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q... (%d bytes)", s[:cut], len(s))
}

// StringSemanticEquals is jsontypes' comparison, after the shortcut it
// lacks: the same text means the same.
func (v jsonText) StringSemanticEquals(ctx context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	newValue, ok := newValuable.(jsonText)
	if !ok {
		var diags diag.Diagnostics
		diags.AddError("Semantic Equality Check Error", fmt.Sprintf("Expected a value of type %T, got %T. This is a bug in the provider.", v, newValuable))
		return false, diags
	}
	if v.ValueString() == newValue.ValueString() {
		return true, nil
	}
	return v.Normalized.StringSemanticEquals(ctx, newValue.Normalized)
}
