package validators

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/datetimetypes"
	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
	"github.com/transcription-service/terraform-provider-transcription/internal/numtypes"
)

// testSchema has the shape of the job attributes the validators read: their
// siblings, switches and configurations.
var testSchema = schema.Schema{Attributes: map[string]schema.Attribute{
	"model": schema.StringAttribute{Optional: true},
	"language_config": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
		"languages":      schema.ListAttribute{Optional: true, ElementType: types.StringType},
		"code_switching": schema.BoolAttribute{Optional: true},
	}},
	// As in transcription_job: integers of a custom type, which a validator
	// reading a sibling must accept.
	"diarization_config": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
		"min_speakers": schema.Int64Attribute{Optional: true, CustomType: numtypes.Int64Type{}},
		"max_speakers": schema.Int64Attribute{Optional: true, CustomType: numtypes.Int64Type{}},
	}},
	"subtitles": schema.BoolAttribute{Optional: true},
	"subtitles_config": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
		"minimum_duration": schema.Float64Attribute{Optional: true},
		"maximum_duration": schema.Float64Attribute{Optional: true},
		"style":            schema.StringAttribute{Optional: true},
	}},
	"translation": schema.BoolAttribute{Optional: true},
	"translation_config": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
		"target_languages": schema.ListAttribute{Optional: true, ElementType: types.StringType},
	}},
	// As in transcription_job: a map of lists.
	"custom_spelling": schema.BoolAttribute{Optional: true},
	"custom_spelling_config": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
		"spelling_dictionary": schema.MapAttribute{Optional: true, ElementType: types.ListType{ElemType: types.StringType}},
	}},
	"callback": schema.BoolAttribute{Optional: true},
	"callback_config": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
		"url": schema.StringAttribute{Required: true},
	}},
	"callback_url": schema.StringAttribute{Optional: true},
	// A switch and its configuration inside an object: validators read
	// their sibling, not the attribute of the same name at the root.
	"options": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
		"translation": schema.BoolAttribute{Optional: true},
		"translation_config": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
			"target_languages": schema.ListAttribute{Optional: true, ElementType: types.StringType},
		}},
	}},
	// As in the listings' filters: date-times of a custom type, which a
	// validator reading a sibling must accept.
	"date":        schema.StringAttribute{Optional: true},
	"after_date":  schema.StringAttribute{Optional: true, CustomType: datetimetypes.RFC3339Type{}},
	"before_date": schema.StringAttribute{Optional: true, CustomType: datetimetypes.RFC3339Type{}},
}}

func testConfig(t *testing.T, values map[string]tftypes.Value) tfsdk.Config {
	t.Helper()
	return frameworktest.Config(t, testSchema, values)
}

// testObject is a value of testSchema's object attribute name.
func testObject(t *testing.T, name string, values map[string]tftypes.Value) tftypes.Value {
	t.Helper()
	return frameworktest.Object(t, testSchema.Attributes[name].GetType(), values)
}

// validate runs the attribute validator v on value at p of config, as the
// framework does, and returns what it reports.
func validate(v any, p path.Path, value attr.Value, config tfsdk.Config) diag.Diagnostics {
	ctx := context.Background()
	switch value := value.(type) {
	case types.String:
		resp := &validator.StringResponse{}
		v.(validator.String).ValidateString(ctx, validator.StringRequest{Path: p, PathExpression: p.Expression(), ConfigValue: value, Config: config}, resp)
		return resp.Diagnostics
	case types.Bool:
		resp := &validator.BoolResponse{}
		v.(validator.Bool).ValidateBool(ctx, validator.BoolRequest{Path: p, PathExpression: p.Expression(), ConfigValue: value, Config: config}, resp)
		return resp.Diagnostics
	case types.Int64:
		resp := &validator.Int64Response{}
		v.(validator.Int64).ValidateInt64(ctx, validator.Int64Request{Path: p, PathExpression: p.Expression(), ConfigValue: value, Config: config}, resp)
		return resp.Diagnostics
	case types.Float64:
		resp := &validator.Float64Response{}
		v.(validator.Float64).ValidateFloat64(ctx, validator.Float64Request{Path: p, PathExpression: p.Expression(), ConfigValue: value, Config: config}, resp)
		return resp.Diagnostics
	case types.List:
		resp := &validator.ListResponse{}
		v.(validator.List).ValidateList(ctx, validator.ListRequest{Path: p, PathExpression: p.Expression(), ConfigValue: value, Config: config}, resp)
		return resp.Diagnostics
	case types.Map:
		resp := &validator.MapResponse{}
		v.(validator.Map).ValidateMap(ctx, validator.MapRequest{Path: p, PathExpression: p.Expression(), ConfigValue: value, Config: config}, resp)
		return resp.Diagnostics
	case types.Object:
		resp := &validator.ObjectResponse{}
		v.(validator.Object).ValidateObject(ctx, validator.ObjectRequest{Path: p, PathExpression: p.Expression(), ConfigValue: value, Config: config}, resp)
		return resp.Diagnostics
	}
	panic(fmt.Sprintf("validate: no validator kind for %T", value))
}

// validateAt runs v on the value at p of config.
func validateAt(t *testing.T, v any, p path.Path, config tfsdk.Config) diag.Diagnostics {
	t.Helper()
	var value attr.Value
	if diags := config.GetAttribute(context.Background(), p, &value); diags.HasError() {
		t.Fatal(diags)
	}
	return validate(v, p, value, config)
}

// validateValue runs v on value at p, for validators that read nothing else.
func validateValue(v any, p path.Path, value attr.Value) diag.Diagnostics {
	return validate(v, p, value, tfsdk.Config{})
}

// validatorCase is one value given to a string validator; wantError is a
// fragment of the expected error detail, empty when the value is valid.
type validatorCase struct {
	value     types.String
	wantError string
}

// runStringValidator checks each case at the attribute name; an error must
// name the attribute.
func runStringValidator(t *testing.T, v validator.String, name string, cases []validatorCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.value.String(), func(t *testing.T) {
			errs := validateValue(v, path.Root(name), c.value).Errors()
			frameworktest.CheckDiagnostics(t, errs, c.wantError)
			if c.wantError != "" && !strings.Contains(errs[0].Detail(), "Attribute "+name) {
				t.Errorf("error %q does not name %s", errs[0].Detail(), name)
			}
		})
	}
}
