package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

// testSchema has the shape of the job attributes the validators read: their
// siblings, switches and configurations.
var testSchema = schema.Schema{Attributes: map[string]schema.Attribute{
	"model": schema.StringAttribute{Optional: true},
	"language_config": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
		"languages":      schema.ListAttribute{Optional: true, ElementType: types.StringType},
		"code_switching": schema.BoolAttribute{Optional: true},
	}},
	"diarization_config": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
		"min_speakers": schema.Int64Attribute{Optional: true},
		"max_speakers": schema.Int64Attribute{Optional: true},
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
	"callback": schema.BoolAttribute{Optional: true},
	"callback_config": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
		"url": schema.StringAttribute{Required: true},
	}},
	"callback_url": schema.StringAttribute{Optional: true},
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
