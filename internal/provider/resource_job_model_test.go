package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

// The create body holds what the configuration sets and nothing else: the
// service applies its own defaults.
func TestCreateRequest_onlyWhatIsConfigured(t *testing.T) {
	tests := map[string]struct {
		values map[string]tftypes.Value
		want   string
	}{
		"audio only": {
			values: map[string]tftypes.Value{"audio_url": frameworktest.String("https://example.com/a.wav")},
			want:   `{"audio_url": "https://example.com/a.wav"}`,
		},
		"empty config object": {
			values: map[string]tftypes.Value{
				"audio_url":        frameworktest.String("https://example.com/a.wav"),
				"subtitles":        frameworktest.Bool(true),
				"subtitles_config": testObject(t, "subtitles_config", nil),
			},
			want: `{"audio_url": "https://example.com/a.wav", "subtitles": true, "subtitles_config": {}}`,
		},
		"false is sent when set": {
			values: map[string]tftypes.Value{
				"audio_url": frameworktest.String("https://example.com/a.wav"),
				"sentences": frameworktest.Bool(false),
				"translation_config": testObject(t, "translation_config", map[string]tftypes.Value{
					"target_languages": frameworktest.Strings("de"),
					"lipsync":          frameworktest.Bool(false),
				}),
			},
			want: `{"audio_url": "https://example.com/a.wav", "sentences": false, "translation_config": {"target_languages": ["de"], "lipsync": false}}`,
		},
		"vocabulary entries and numbers": {
			values: map[string]tftypes.Value{
				"audio_url": frameworktest.String("https://example.com/a.wav"),
				"custom_vocabulary_config": testObject(t, "custom_vocabulary_config", map[string]tftypes.Value{
					"vocabulary": vocabularyValue(t, map[string]tftypes.Value{"value": frameworktest.String("Kubernetes")},
						map[string]tftypes.Value{"value": frameworktest.String("Helm"), "intensity": frameworktest.Number(0.25), "pronunciations": frameworktest.Strings("hel m"), "language": frameworktest.String("en")}),
					"default_intensity": frameworktest.Number(0.5),
				}),
				"diarization_config": testObject(t, "diarization_config", map[string]tftypes.Value{"min_speakers": frameworktest.Number(0)}),
				"custom_spelling_config": testObject(t, "custom_spelling_config", map[string]tftypes.Value{
					"spelling_dictionary": tftypes.NewValue(tftypes.Map{ElementType: tftypes.List{ElementType: tftypes.String}},
						map[string]tftypes.Value{"SQL": frameworktest.Strings("sequel"), "Empty": frameworktest.Strings()}),
				}),
				"custom_metadata": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"team": frameworktest.String("alpha")}),
			},
			want: `{"audio_url": "https://example.com/a.wav",
				"custom_vocabulary_config": {"vocabulary": [{"value": "Kubernetes"}, {"value": "Helm", "intensity": 0.25, "pronunciations": ["hel m"], "language": "en"}], "default_intensity": 0.5},
				"diarization_config": {"min_speakers": 0},
				"custom_spelling_config": {"spelling_dictionary": {"SQL": ["sequel"], "Empty": []}},
				"custom_metadata": {"team": "alpha"}}`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var m jobResourceModel
			if diags := testJobConfig(t, tc.values).Get(context.Background(), &m); diags.HasError() {
				t.Fatal(diags)
			}
			req, diags := m.createRequest(context.Background())
			if diags.HasError() {
				t.Fatal(diags)
			}
			got, err := json.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			assertSameJSON(t, string(got), tc.want)
		})
	}
}

// Each switch of the service, set alone, goes out alone and under its own
// name, true and false: none is sent in another's place.
func TestCreateRequest_eachSwitchAlone(t *testing.T) {
	ctx := context.Background()
	boolField := reflect.TypeFor[*bool]()
	var switches []string
	request := reflect.TypeFor[client.InitTranscriptionRequest]()
	for i := range request.NumField() {
		f := request.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if _, ok := jobSchema(ctx).Attributes[name].(schema.BoolAttribute); ok && f.Type == boolField {
			switches = append(switches, name)
		}
	}
	if len(switches) < 13 {
		t.Fatalf("found the switches %v: fewer than the service's", switches)
	}
	for _, name := range switches {
		for _, on := range []bool{true, false} {
			var m jobResourceModel
			values := map[string]tftypes.Value{"audio_url": frameworktest.String("https://example.com/a.wav"), name: frameworktest.Bool(on)}
			if diags := testJobConfig(t, values).Get(ctx, &m); diags.HasError() {
				t.Fatal(diags)
			}
			req, diags := m.createRequest(ctx)
			if diags.HasError() {
				t.Fatal(diags)
			}
			got, err := json.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			assertSameJSON(t, string(got), fmt.Sprintf(`{"audio_url": "https://example.com/a.wav", %q: %t}`, name, on))
		}
	}
}

func vocabularyValue(t *testing.T, entries ...map[string]tftypes.Value) tftypes.Value {
	t.Helper()
	listType := jobAttrTypes()["custom_vocabulary_config"].(types.ObjectType).AttrTypes["vocabulary"].(types.ListType)
	elems := make([]tftypes.Value, len(entries))
	for i, e := range entries {
		elems[i] = frameworktest.Object(t, listType.ElemType, e)
	}
	return tftypes.NewValue(listType.TerraformType(context.Background()), elems)
}

func assertSameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("got: %v", err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want: %v", err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, acctest.CompactJSON(want))
	}
}

// Importing request_params where the service left a default out gives the
// value the schema's Default gives, attribute by attribute: an import then
// plans no change.
func TestSetRequestFromParams_defaultsMatchSchema(t *testing.T) {
	ctx := context.Background()
	params := &client.InitTranscriptionRequest{
		AudioURL:               "https://example.com/a.wav",
		LanguageConfig:         &client.LanguageConfig{},
		CustomVocabularyConfig: &client.CustomVocabularyConfig{Vocabulary: []client.VocabularyEntry{{Value: "x"}}},
		CallbackConfig:         &client.CallbackConfig{URL: "https://hooks.example.com"},
		SubtitlesConfig:        &client.SubtitlesConfig{},
		DiarizationConfig:      &client.DiarizationConfig{},
		TranslationConfig:      &client.TranslationConfig{TargetLanguages: []string{"de"}},
		SummarizationConfig:    &client.SummarizationConfig{},
		CustomSpellingConfig:   &client.CustomSpellingConfig{SpellingDictionary: map[string][]string{}},
		AudioToLLMConfig:       &client.AudioToLLMConfig{Prompts: []string{"p"}},
		PIIRedactionConfig:     &client.PIIRedactionConfig{},
	}
	s := jobSchema(ctx)
	state := tfsdk.State{Schema: s, Raw: frameworktest.Object(t, s.Type(), nil)}
	m := jobResourceModel{}
	if diags := state.Get(ctx, &m); diags.HasError() {
		t.Fatal(diags)
	}
	if diags := m.setRequestFromParams(ctx, params, nil); diags.HasError() {
		t.Fatal(diags)
	}
	m.setProviderDefaults()
	if diags := state.Set(ctx, m); diags.HasError() {
		t.Fatal(diags)
	}

	checked := 0
	var walk func(prefix path.Path, attrs map[string]schema.Attribute)
	walk = func(prefix path.Path, attrs map[string]schema.Attribute) {
		for name, a := range attrs {
			p := prefix.AtName(name)
			if nested, ok := a.(schema.SingleNestedAttribute); ok {
				walk(p, nested.Attributes)
				continue
			}
			want, ok := schemaDefault(t, a)
			if !ok {
				continue
			}
			got := reflect.New(reflect.TypeOf(want)).Interface()
			if diags := state.GetAttribute(ctx, p, got); diags.HasError() {
				t.Fatal(diags)
			}
			if g := reflect.ValueOf(got).Elem().Interface().(attr.Value); !g.Equal(want) {
				t.Errorf("%s: imported %s, schema default %s", p, g, want)
			}
			checked++
		}
	}
	walk(path.Empty(), s.Attributes)
	if checked < 20 {
		t.Fatalf("only %d defaults checked", checked)
	}

	// Absent configuration objects and unset optional fields are null.
	var empty jobResourceModel
	if diags := (tfsdk.State{Schema: s, Raw: frameworktest.Object(t, s.Type(), nil)}).Get(ctx, &empty); diags.HasError() {
		t.Fatal(diags)
	}
	sparse := &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"}
	if diags := empty.setRequestFromParams(ctx, sparse, map[string]any{}); diags.HasError() {
		t.Fatal(diags)
	}
	for name, v := range map[string]attr.Value{"subtitles_config": empty.SubtitlesConfig, "callback_url": empty.CallbackURL, "custom_metadata": empty.CustomMetadata} {
		if !v.IsNull() {
			t.Errorf("%s: got %s, want null", name, v)
		}
	}
}

// schemaDefault evaluates an attribute's Default, if it has one.
func schemaDefault(t *testing.T, a schema.Attribute) (attr.Value, bool) {
	t.Helper()
	ctx := context.Background()
	switch a := a.(type) {
	case schema.StringAttribute:
		if a.Default == nil {
			return nil, false
		}
		resp := &defaults.StringResponse{}
		a.Default.DefaultString(ctx, defaults.StringRequest{}, resp)
		return resp.PlanValue, true
	case schema.BoolAttribute:
		if a.Default == nil {
			return nil, false
		}
		resp := &defaults.BoolResponse{}
		a.Default.DefaultBool(ctx, defaults.BoolRequest{}, resp)
		return resp.PlanValue, true
	case schema.ListAttribute:
		if a.Default == nil {
			return nil, false
		}
		resp := &defaults.ListResponse{}
		a.Default.DefaultList(ctx, defaults.ListRequest{}, resp)
		return resp.PlanValue, true
	}
	return nil, false
}

func TestKeepDeclaredMetadata(t *testing.T) {
	declared := types.MapValueMust(types.StringType, map[string]attr.Value{"team": types.StringValue("alpha"), "gone": types.StringValue("x")})
	service := map[string]any{"team": "alpha", "added_elsewhere": "y", "count": 3.0}
	got := keepDeclaredMetadata(declared, service)
	want := types.MapValueMust(types.StringType, map[string]attr.Value{"team": types.StringValue("alpha")})
	if !got.Equal(want) {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := keepDeclaredMetadata(types.MapNull(types.StringType), service); !got.IsNull() {
		t.Errorf("undeclared metadata: got %s, want null", got)
	}
}

// State stays lean: the transcript only with include_transcript, words and
// result_json only with include_raw_result (which implies the transcript).
func TestSetRecord_resultContent(t *testing.T) {
	job := &client.PreRecordedJob{
		JobCommon: client.JobCommon{ID: "j", RequestID: "r", Status: client.StatusDone, CreatedAt: "2024-05-01T12:00:00.000Z",
			Result: &client.Result{
				Metadata:      client.ResultMetadata{AudioDuration: 3},
				Transcription: &client.Transcription{FullTranscript: "hi", Languages: []string{"en"}, Utterances: []client.Utterance{{Text: "hi", Words: []client.Word{{Word: "hi"}}}}},
			}},
	}
	for _, tc := range []struct {
		transcript, raw               bool
		wantText, wantWords, wantJSON bool
		wantDetail                    client.Detail
	}{
		{transcript: false, raw: false, wantDetail: client.WithoutUtterances},
		{transcript: true, raw: false, wantText: true, wantDetail: client.WithoutWords},
		{transcript: false, raw: true, wantText: true, wantWords: true, wantJSON: true, wantDetail: client.WithRawResult},
		{transcript: true, raw: true, wantText: true, wantWords: true, wantJSON: true, wantDetail: client.WithRawResult},
	} {
		name := fmt.Sprintf("include_transcript=%t,include_raw_result=%t", tc.transcript, tc.raw)
		m := jobResourceModel{IncludeTranscript: types.BoolValue(tc.transcript), IncludeRawResult: types.BoolValue(tc.raw)}
		if got := resultDetail(m.resultContent()); got != tc.wantDetail {
			t.Errorf("%s: reads with detail %d, want %d", name, got, tc.wantDetail)
		}
		if diags := m.setRecord(context.Background(), job); diags.HasError() {
			t.Fatal(diags)
		}
		transcription := m.Result.Attributes()["transcription"].(types.Object).Attributes()
		if got := transcription["languages"]; got.IsNull() {
			t.Errorf("%s: languages are null, want them always", name)
		}
		if m.Result.Attributes()["metadata"].IsNull() {
			t.Errorf("%s: metadata is null, want it always", name)
		}
		if text := transcription["full_transcript"]; text.IsNull() == tc.wantText {
			t.Errorf("%s: full_transcript null = %t", name, text.IsNull())
		}
		if utts := transcription["utterances"]; utts.IsNull() == tc.wantText {
			t.Errorf("%s: utterances null = %t", name, utts.IsNull())
		}
		if tc.wantText {
			if words := atJSON(t, m.Result, "transcription", "utterances", 0, "words"); (words == nil) == tc.wantWords {
				t.Errorf("%s: words %v, want them: %t", name, words, tc.wantWords)
			}
		}
		if m.ResultJSON.IsNull() == tc.wantJSON {
			t.Errorf("%s: result_json null = %t", name, m.ResultJSON.IsNull())
		}
		if !m.Retained.ValueBool() || m.Status.ValueString() != client.StatusDone {
			t.Errorf("%s: retained %s, status %s", name, m.Retained, m.Status)
		}
	}
}

// A failed translation's language comes from the job's request: the
// record's target languages reach the result, in their order.
func TestSetRecord_failedTranslationNamedByTarget(t *testing.T) {
	job := &client.PreRecordedJob{
		JobCommon: client.JobCommon{ID: "j", Status: client.StatusDone, Result: &client.Result{
			Translation: &client.AddonResult[[]client.TranslationItem]{Success: true, Results: []client.TranslationItem{
				{Languages: []string{"fr"}}, {Error: &client.AddonError{StatusCode: 500}, Languages: []string{}},
			}},
		}},
		RequestParams: &client.InitTranscriptionRequest{TranslationConfig: &client.TranslationConfig{TargetLanguages: []string{"fr", "de"}}},
	}
	m := jobResourceModel{IncludeTranscript: types.BoolValue(true), IncludeRawResult: types.BoolValue(false)}
	if diags := m.setRecord(context.Background(), job); diags.HasError() {
		t.Fatal(diags)
	}
	if got := atJSON(t, m.Result, "translation", "results", 1, "language"); got != "de" {
		t.Errorf("language %v, want de", got)
	}
}
