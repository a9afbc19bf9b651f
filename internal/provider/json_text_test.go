package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestJSONText_semanticEquality(t *testing.T) {
	ctx := context.Background()
	for name, tc := range map[string]struct {
		prior, proposed string
		equal, fails    bool
	}{
		"the same text":                          {`{"a":[1,2]}`, `{"a":[1,2]}`, true, false},
		"other spacing and key order":            {`{"b":1,"a":[1,2]}`, "{\n \"a\": [1, 2], \"b\": 1\n}", true, false},
		"another value":                          {`{"a":[1,2]}`, `{"a":[2,1]}`, false, false},
		"the same text, not JSON: not parsed":    {`{"a":`, `{"a":`, true, false},
		"other text, not JSON: jsontypes' error": {`{"a":`, `{"a": `, false, true},
	} {
		t.Run(name, func(t *testing.T) {
			equal, diags := jsonTextValue(tc.prior).StringSemanticEquals(ctx, jsonTextValue(tc.proposed))
			if equal != tc.equal || diags.HasError() != tc.fails {
				t.Errorf("equal %t, diagnostics %v; want equal %t, an error %t", equal, diags, tc.equal, tc.fails)
			}
		})
	}
	if _, diags := jsonTextValue(`{}`).StringSemanticEquals(ctx, types.StringValue(`{}`)); !diags.HasError() {
		t.Error("a value of another type compared without an error")
	}
}

// The type is jsontypes' in everything but its name: the same Terraform
// type, values built from Terraform and framework strings, jsontypes'
// validation of JSON.
func TestJSONText_isJSONTypesNormalized(t *testing.T) {
	ctx := context.Background()
	typ := jsonTextType{}
	if !typ.TerraformType(ctx).Equal(tftypes.String) {
		t.Errorf("Terraform type %s, want String", typ.TerraformType(ctx))
	}
	if typ.Equal(jsontypes.NormalizedType{}) || !typ.Equal(jsonTextType{}) {
		t.Error("jsonTextType equals only itself")
	}
	v, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(tftypes.String, `{"a":1}`))
	if err != nil || !v.Equal(jsonTextValue(`{"a":1}`)) {
		t.Errorf("ValueFromTerraform: %v, %v", v, err)
	}
	if v, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(tftypes.String, nil)); err != nil || !v.Equal(jsonTextNull()) {
		t.Errorf("ValueFromTerraform of null: %v, %v", v, err)
	}
	if _, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(tftypes.Number, 1)); err == nil {
		t.Error("ValueFromTerraform took a number")
	}
	if s, diags := typ.ValueFromString(ctx, types.StringValue(`[]`)); diags.HasError() || !s.Equal(jsonTextValue(`[]`)) {
		t.Errorf("ValueFromString: %v, %v", s, diags)
	}
	if jsonTextValue(`{}`).Equal(jsontypes.NewNormalizedValue(`{}`)) {
		t.Error("a jsonText equals a value of another type")
	}
	// Equal is the exact text (semantic equality is StringSemanticEquals):
	// the framework tells a changed value by it.
	for _, other := range []jsonText{jsonTextValue(`{"a":2}`), jsonTextValue(`{"a": 1}`), jsonTextNull()} {
		if jsonTextValue(`{"a":1}`).Equal(other) {
			t.Errorf(`{"a":1} equals %s`, other)
		}
	}

	var resp xattr.ValidateAttributeResponse
	jsonTextValue(`{"a":`).ValidateAttribute(ctx, xattr.ValidateAttributeRequest{Path: path.Root("x")}, &resp)
	if !resp.Diagnostics.HasError() {
		t.Error("invalid JSON passed jsontypes' validation")
	}
}

func TestJSONText_stringSummarizesLongTexts(t *testing.T) {
	long := `{"text":"` + strings.Repeat("é", 300) + `"}`
	// Exactly jsonTextSummaryBytes bytes: still shown whole.
	full := `"` + strings.Repeat("a", jsonTextSummaryBytes-2) + `"`
	for name, tc := range map[string]struct {
		v    jsonText
		want string
	}{
		"null":         {jsonTextNull(), "<null>"},
		"unknown":      {jsonText{Normalized: jsontypes.NewNormalizedUnknown()}, "<unknown>"},
		"short":        {jsonTextValue(`{"a":1}`), `"{\"a\":1}"`},
		"at the limit": {jsonTextValue(full), fmt.Sprintf("%q", full)},
		// 256 bytes end inside the 124th "é": the summary stops before it.
		"long": {jsonTextValue(long), fmt.Sprintf("%q... (%d bytes)", `{"text":"`+strings.Repeat("é", 123), len(long))},
	} {
		t.Run(name, func(t *testing.T) {
			if got := tc.v.String(); got != tc.want {
				t.Errorf("String() = %s, want %s", got, tc.want)
			}
		})
	}
}
