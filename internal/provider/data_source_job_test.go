package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// ---------------------------------------------------------------------------
// Unit tests.

func jobDataSourceSchema(t *testing.T) dschema.Schema {
	t.Helper()
	return dataSourceSchema(t, NewJobDataSource())
}

func TestJobDataSourceSchema_valid(t *testing.T) {
	s := jobDataSourceSchema(t)

	// The record's attributes have the resource's types, so that the
	// resource's converters fill both.
	resourceTypes := jobAttrTypes()
	for _, name := range []string{"request_id", "created_at", "status", "completed_at", "error_code", "file", "result", "result_json"} {
		if got, want := s.Attributes[name].GetType(), resourceTypes[name]; !got.Equal(want) {
			t.Errorf("%s has type %s, the resource's has %s", name, got, want)
		}
	}

	// request_params holds every field of the create body but custom_metadata.
	params, ok := s.Attributes["request_params"].(dschema.SingleNestedAttribute)
	if !ok {
		t.Fatalf("request_params is a %T", s.Attributes["request_params"])
	}
	var names []string
	for name := range params.Attributes {
		names = append(names, name)
	}
	slices.Sort(names)
	want := []string{
		"audio_to_llm", "audio_to_llm_config", "audio_url", "callback", "callback_config", "callback_url",
		"custom_spelling", "custom_spelling_config", "custom_vocabulary", "custom_vocabulary_config",
		"diarization", "diarization_config", "language_config", "model", "named_entity_recognition",
		"pii_redaction", "pii_redaction_config", "punctuation_enhanced", "sentences", "sentiment_analysis",
		"subtitles", "subtitles_config", "summarization", "summarization_config", "translation", "translation_config",
	}
	if !slices.Equal(names, want) {
		t.Errorf("request_params attributes\n%v\nwant the fields of the create body but custom_metadata\n%v", names, want)
	}
	for _, name := range names {
		if got, want := params.Attributes[name].GetType(), resourceTypes[name]; !got.Equal(want) {
			t.Errorf("request_params.%s has type %s, the resource's argument has %s", name, got, want)
		}
	}
	// Callback URLs often carry a token: they stay sensitive here too.
	if !params.Attributes["callback_url"].IsSensitive() {
		t.Error("request_params.callback_url is not sensitive")
	}
	callbackConfig, ok := params.Attributes["callback_config"].(dschema.SingleNestedAttribute)
	if !ok || !callbackConfig.Attributes["url"].IsSensitive() || callbackConfig.Attributes["method"].IsSensitive() {
		t.Error("request_params.callback_config: url must be sensitive, method not")
	}
}

// preRecordedJobFixture is a done job with a transcript of one utterance.
func preRecordedJobFixture() *client.PreRecordedJob {
	completed := "2026-05-04T10:01:00Z"
	return &client.PreRecordedJob{
		JobCommon: client.JobCommon{
			ID: "6f1c1a2e-0000-4000-8000-000000000001", RequestID: "req-1", Version: 2,
			Status: client.StatusDone, CreatedAt: "2026-05-04T10:00:00Z", CompletedAt: &completed, Kind: client.KindPreRecorded,
			CustomMetadata: map[string]any{"team": "alpha", "priority": 2.0},
			File:           &client.FileInfo{ID: "file-1", Filename: ptr("a.wav"), Source: ptr("https://example.com/a.wav"), AudioDuration: ptr(4.5), NumberOfChannels: ptr(int64(2))},
			Result: &client.Result{
				Metadata: client.ResultMetadata{AudioDuration: 4.5, NumberOfDistinctChannels: 2, BillingTime: 4.5, TranscriptionTime: 1},
				Transcription: &client.Transcription{FullTranscript: "Hello.", Languages: []string{"en"}, Utterances: []client.Utterance{{
					Start: 0, End: 1, Confidence: 0.9, Text: "Hello.", Language: "en",
					Words: []client.Word{{Word: "Hello.", Start: 0, End: 1, Confidence: 0.9}},
				}}},
			},
		},
		RequestParams: &client.InitTranscriptionRequest{
			AudioURL:        "https://example.com/a.wav",
			Model:           ptr(client.ModelThree),
			LanguageConfig:  &client.LanguageConfig{Languages: []string{"fr"}, CodeSwitching: ptr(false)},
			Subtitles:       ptr(true),
			SubtitlesConfig: &client.SubtitlesConfig{Formats: []string{"vtt"}},
			Callback:        ptr(true),
			CallbackConfig:  &client.CallbackConfig{URL: "https://hooks.example.com/x?token=s"},
		},
	}
}

func TestJobDataSourceState(t *testing.T) {
	ctx := context.Background()
	job := preRecordedJobFixture()
	config := jobDataSourceModel{ID: types.StringValue(job.ID), IncludeRawResult: types.BoolNull()}

	got, diags := jobDataSourceState(ctx, config, job)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if got.Status.ValueString() != client.StatusDone || got.CompletedAt.ValueString() != *job.CompletedAt || !got.ErrorCode.IsNull() || !got.IncludeRawResult.IsNull() {
		t.Errorf("record attributes: %+v", got)
	}
	if want := flattenFile(job.File); !got.File.Equal(want) {
		t.Errorf("file %s, want %s", got.File, want)
	}
	if !got.ResultJSON.IsNull() {
		t.Error("result_json set without include_raw_result")
	}
	if utts := at(t, got.Result, "transcription", "utterances"); !utts.IsNull() {
		t.Error("utterances kept without include_transcript")
	}
	wantMetadata := types.MapValueMust(types.StringType, map[string]attr.Value{"team": types.StringValue("alpha"), "priority": types.StringValue("2")})
	if !got.CustomMetadata.Equal(wantMetadata) {
		t.Errorf("custom_metadata %s, want %s", got.CustomMetadata, wantMetadata)
	}

	// request_params as import reads it: service defaults filled in, absent objects null.
	for _, c := range []struct {
		path []any
		want attr.Value
	}{
		{[]any{"audio_url"}, types.StringValue("https://example.com/a.wav")},
		{[]any{"model"}, types.StringValue(client.ModelThree)},
		{[]any{"subtitles"}, types.BoolValue(true)},
		{[]any{"subtitles_config", "formats"}, types.ListValueMust(types.StringType, []attr.Value{types.StringValue("vtt")})},
		{[]any{"subtitles_config", "style"}, types.StringValue(client.DefaultSubtitleStyle)},
		{[]any{"callback_config", "url"}, types.StringValue(job.RequestParams.CallbackConfig.URL)},
		{[]any{"callback_config", "method"}, types.StringValue(client.DefaultCallbackMethod)},
		{[]any{"callback_url"}, types.StringNull()},
		{[]any{"diarization"}, types.BoolValue(false)},
	} {
		if got := at(t, got.RequestParams, c.path...); !got.Equal(c.want) {
			t.Errorf("request_params %v = %s, want %s", c.path, got, c.want)
		}
	}
	if translation := at(t, got.RequestParams, "translation_config"); !translation.IsNull() {
		t.Errorf("request_params.translation_config = %s, want null", translation)
	}

	// With include_transcript: the utterances, without their words.
	config.IncludeTranscript = types.BoolValue(true)
	got, diags = jobDataSourceState(ctx, config, job)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if text := atJSON(t, got.Result, "transcription", "utterances", 0, "text"); text != "Hello." {
		t.Errorf("first utterance's text %v, want Hello.", text)
	}
	if words := atJSON(t, got.Result, "transcription", "utterances", 0, "words"); words != nil || !got.ResultJSON.IsNull() {
		t.Error("word timings or result_json kept without include_raw_result")
	}

	// With include_raw_result: word timings and result_json.
	config.IncludeRawResult = types.BoolValue(true)
	got, diags = jobDataSourceState(ctx, config, job)
	if diags.HasError() {
		t.Fatal(diags)
	}
	var raw client.Result
	if err := json.Unmarshal([]byte(got.ResultJSON.ValueString()), &raw); err != nil || raw.Transcription.FullTranscript != "Hello." || len(raw.Transcription.Utterances[0].Words) != 1 {
		t.Errorf("result_json %q: %v", got.ResultJSON.ValueString(), err)
	}
	// As the service sent it, when the client kept it: fields its types
	// do not know, and nulls, stay.
	job.Result.JSON = json.RawMessage(`{"transcription": {"full_transcript": "Hello.", "utterances": [{"speaker": null}]}, "diarization": {"success": false, "results": null}}`)
	got, diags = jobDataSourceState(ctx, config, job)
	if want := `{"transcription":{"full_transcript":"Hello.","utterances":[{"speaker":null}]},"diarization":{"success":false,"results":null}}`; diags.HasError() || got.ResultJSON.ValueString() != want {
		t.Errorf("result_json %s %v, want the service's %s", got.ResultJSON.ValueString(), diags, want)
	}
	job.Result.JSON = nil

	// A running job: no result, no request_params when the service leaves them out.
	job.Status, job.CompletedAt, job.Result, job.RequestParams, job.CustomMetadata = client.StatusProcessing, nil, nil, nil, nil
	got, diags = jobDataSourceState(ctx, config, job)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if !got.Result.IsNull() || !got.ResultJSON.IsNull() || !got.RequestParams.IsNull() || !got.CustomMetadata.IsNull() || !got.CompletedAt.IsNull() {
		t.Errorf("running job: %+v", got)
	}
}

// ---------------------------------------------------------------------------
// Acceptance tests.

// jobDataSourceConfig is one transcription_job data source block.
func jobDataSourceConfig(name, body string) string {
	return fmt.Sprintf("data \"transcription_job\" %q {\n%s\n}\n", name, body)
}

// createJobDirectly creates a job through the API, as an application
// outside Terraform would, and waits until it is done.
func createJobDirectly(t *testing.T, baseURL string, req *client.InitTranscriptionRequest) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := client.New(client.Config{BaseURL: baseURL, APIKey: acctest.APIKey, UserAgent: "other-application/1.0"})
	if err != nil {
		t.Fatal(err)
	}
	created, err := c.CreatePreRecorded(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := waitForFinalJob(ctx, c, created.ID, pollSchedule{initial: 50 * time.Millisecond, max: 200 * time.Millisecond}, client.FullDetail, nil); err != nil {
		t.Fatal(err)
	}
	return created.ID
}

// TestAccJobDataSource_readsJobs reads a job created by a transcription_job
// resource and one created directly through the API.
func TestAccJobDataSource_readsJobs(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	directID := createJobDirectly(t, url, &client.InitTranscriptionRequest{
		AudioURL:        "https://example.com/standup.wav?duration=12&channels=2",
		Model:           ptr(client.ModelThree),
		LanguageConfig:  &client.LanguageConfig{Languages: []string{"fr"}},
		Subtitles:       ptr(true),
		SubtitlesConfig: &client.SubtitlesConfig{Formats: []string{"vtt"}},
		Callback:        ptr(true),
		CallbackConfig:  &client.CallbackConfig{URL: hooks + "/done?token=s3cr3t"},
		CustomMetadata:  map[string]any{"team": "alpha", "priority": 2},
	})
	direct, _ := fs.Job(directID)
	// As the service wrote it: "<", ">" and "&" as they are.
	var directResult bytes.Buffer
	enc := json.NewEncoder(&directResult)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(direct.Result); err != nil {
		t.Fatal(err)
	}
	directWords := direct.Result.Transcription.Utterances[0].Words

	const resourceAddr, madeAddr, directAddr = "transcription_job.made", "data.transcription_job.made", "data.transcription_job.direct"
	config := acctest.ProviderConfig(url) +
		acctest.JobConfig("made", `audio_url = "https://example.com/made.wav?duration=7"
diarization = true
custom_metadata = { team = "bravo" }
include_transcript = true`) +
		jobDataSourceConfig("made", `id = transcription_job.made.id
include_transcript = true`) +
		jobDataSourceConfig("direct", fmt.Sprintf(`id = %q
include_raw_result = true`, directID))

	same := func(attr string) statecheck.StateCheck {
		return statecheck.CompareValuePairs(resourceAddr, tfjsonpath.New(attr), madeAddr, tfjsonpath.New(attr), compare.ValuesSame())
	}
	params := tfjsonpath.New("request_params")
	utterances := tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("utterances")
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				// The resource's job, read back: the same view as the resource's.
				same("id"), same("request_id"), same("created_at"), same("status"), same("completed_at"), same("error_code"), same("file"), same("result"),
				same("custom_metadata"),
				// audio_url as file.source shows it, its query (a presigned
				// URL's signature) hidden.
				statecheck.ExpectKnownValue(madeAddr, params.AtMapKey("audio_url"), knownvalue.StringExact("https://example.com/made.wav?…")),
				statecheck.CompareValuePairs(resourceAddr, tfjsonpath.New("model"), madeAddr, params.AtMapKey("model"), compare.ValuesSame()),
				statecheck.CompareValuePairs(resourceAddr, tfjsonpath.New("subtitles"), madeAddr, params.AtMapKey("subtitles"), compare.ValuesSame()),
				statecheck.ExpectKnownValue(madeAddr, params.AtMapKey("diarization"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(madeAddr, tfjsonpath.New("file").AtMapKey("audio_duration"), knownvalue.Float64Exact(7)),
				statecheck.ExpectKnownValue(madeAddr, tfjsonpath.New("result_json"), knownvalue.Null()),
				expectJSONValue(madeAddr, utterances, nil, 0, "words"),

				// The job created elsewhere.
				statecheck.ExpectKnownValue(directAddr, tfjsonpath.New("status"), knownvalue.StringExact(client.StatusDone)),
				statecheck.ExpectKnownValue(directAddr, tfjsonpath.New("version"), knownvalue.Int64Exact(direct.Version)),
				statecheck.ExpectKnownValue(directAddr, tfjsonpath.New("kind"), knownvalue.StringExact(direct.Kind)),
				statecheck.ExpectKnownValue(directAddr, tfjsonpath.New("post_session_metadata"), knownvalue.StringExact(string(direct.PostSessionMetadata))),
				statecheck.ExpectKnownValue(directAddr, tfjsonpath.New("file"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"audio_duration":     knownvalue.Float64Exact(12),
					"number_of_channels": knownvalue.Int64Exact(2),
					"filename":           knownvalue.StringExact("standup.wav"),
				})),
				statecheck.ExpectKnownValue(directAddr, tfjsonpath.New("custom_metadata"), knownvalue.MapExact(map[string]knownvalue.Check{
					"team":     knownvalue.StringExact("alpha"),
					"priority": knownvalue.StringExact("2"),
				})),
				statecheck.ExpectKnownValue(directAddr, params.AtMapKey("model"), knownvalue.StringExact(client.ModelThree)),
				statecheck.ExpectKnownValue(directAddr, params.AtMapKey("language_config"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"languages":      knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("fr")}),
					"code_switching": knownvalue.Bool(false),
				})),
				statecheck.ExpectKnownValue(directAddr, params.AtMapKey("subtitles_config").AtMapKey("formats"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("vtt")})),
				statecheck.ExpectKnownValue(directAddr, params.AtMapKey("callback_config").AtMapKey("url"), knownvalue.StringExact(hooks+"/done?token=s3cr3t")),
				statecheck.ExpectSensitiveValue(directAddr, params.AtMapKey("callback_config").AtMapKey("url")),
				statecheck.ExpectKnownValue(directAddr, params.AtMapKey("translation_config"), knownvalue.Null()),
				expectJSONLength(directAddr, utterances, len(directWords), 0, "words"),
				statecheck.ExpectKnownValue(directAddr, tfjsonpath.New("result_json"), knownvalue.StringExact(strings.TrimSuffix(directResult.String(), "\n"))),
			},
		}},
	})
}

// TestAccJobDataSource_notFound: an unknown id is an error naming it.
func TestAccJobDataSource_notFound(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	const id = "0badc0de-0000-4000-8000-000000000000"
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{{
			Config:      acctest.ProviderConfig(url) + jobDataSourceConfig("gone", fmt.Sprintf("id = %q", id)),
			PlanOnly:    true,
			ExpectError: acctest.ExpectError(`(?s)Transcription job not found .*The service at\s+` + regexp.QuoteMeta(url) + `\s+has no pre-recorded job with id "` + id + `".*provider\s+configuration`),
		}},
	})
}

// TestAccJobDataSource_idNotAUUID: an id that is not a UUID, as every job's
// is, is refused at validation, naming the attribute, before any request.
func TestAccJobDataSource_idNotAUUID(t *testing.T) {
	for _, id := range []string{"my-job", " 0badc0de-0000-4000-8000-000000000000", "0badc0de000040008000000000000000"} {
		t.Run(id, func(t *testing.T) {
			fs, url := acctest.FakeServer(t, fakeserver.Options{})
			tfresource.ParallelTest(t, tfresource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []tfresource.TestStep{{
					Config:      acctest.ProviderConfig(url) + jobDataSourceConfig("typo", fmt.Sprintf("id = %q", id)),
					PlanOnly:    true,
					ExpectError: acctest.ExpectError(`(?s)Attribute id must be a UUID`),
				}},
			})
			if n := len(fs.Requests()); n != 0 {
				t.Errorf("the refused plan sent %d requests to the service", n)
			}
		})
	}
}

// TestAccJobDataSource_timeoutNotADuration: a timeouts.read that is not a
// Go duration is refused at validation, naming the attribute, before any
// request (the read once failed on it after looking
// the job up).
func TestAccJobDataSource_timeoutNotADuration(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{{
			Config: acctest.ProviderConfig(url) + jobDataSourceConfig("slow",
				`id = "0badc0de-0000-4000-8000-000000000000"
wait_for_completion = true
timeouts = { read = "30 minutes" }`),
			PlanOnly:    true,
			ExpectError: acctest.ExpectError(`(?s)Invalid duration.*Attribute timeouts.read value must be a Go duration greater than zero.*got "30 minutes"`),
		}},
	})
	if n := len(fs.Requests()); n != 0 {
		t.Errorf("the refused plan sent %d requests to the service", n)
	}
}

// TestAccJobDataSource_zeroDataRetention: the data source is refused at
// plan time, before any request.
func TestAccJobDataSource_zeroDataRetention(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: true})
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{{
			Config:      acctest.ProviderConfig(url, "zero_data_retention = true") + jobDataSourceConfig("private", `id = "6f1c1a2e-0000-4000-8000-000000000001"`),
			PlanOnly:    true,
			ExpectError: acctest.ExpectError(`(?s)Cannot read a job under zero data retention .*zero_data_retention = true.*callback`),
		}},
	})
	if reqs := fs.Requests(); len(reqs) != 0 {
		var seen []string
		for _, r := range reqs {
			seen = append(seen, r.Method+" "+r.Path)
		}
		t.Errorf("the refused plan sent requests to the service: %s", strings.Join(seen, ", "))
	}
}

// TestAccJobDataSource_waitForCompletion: jobs submitted without waiting,
// each read by a data source that waits for it, have their results in the
// same apply; a failed job is read with its error_code.
func TestAccJobDataSource_waitForCompletion(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: 2 * testAccProcessingTime})
	config := acctest.ProviderConfig(url) + `
resource "transcription_job" "batch" {
  count               = 3
  audio_url           = "https://example.com/batch-${count.index}.wav"
  summarization       = true
  wait_for_completion = false
}

data "transcription_job" "batch" {
  count               = 3
  id                  = transcription_job.batch[count.index].id
  wait_for_completion = true
  timeouts            = { read = "2m" }
}

resource "transcription_job" "failing" {
  audio_url           = "https://example.com/fail-422.wav"
  wait_for_completion = false
}

data "transcription_job" "failing" {
  id                  = transcription_job.failing.id
  wait_for_completion = true
}

# As the documentation's batch pattern reads them: the failed job has no
# result, and try() keeps the others' summaries.
output "summaries" {
  value = [for d in concat(data.transcription_job.batch, [data.transcription_job.failing]) : try(d.result.summarization.results, null)]
}
`
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.transcription_job.batch[0]", tfjsonpath.New("status"), knownvalue.StringExact(client.StatusDone)),
				statecheck.ExpectKnownValue("data.transcription_job.batch[2]", tfjsonpath.New("status"), knownvalue.StringExact(client.StatusDone)),
				statecheck.ExpectKnownOutputValue("summaries", knownvalue.ListExact([]knownvalue.Check{acctest.NonEmptyString(), acctest.NonEmptyString(), acctest.NonEmptyString(), knownvalue.Null()})),
				statecheck.ExpectKnownValue("data.transcription_job.failing", tfjsonpath.New("status"), knownvalue.StringExact(client.StatusError)),
				statecheck.ExpectKnownValue("data.transcription_job.failing", tfjsonpath.New("error_code"), knownvalue.Int64Exact(422)),
				statecheck.ExpectKnownValue("data.transcription_job.failing", tfjsonpath.New("wait_for_completion"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.transcription_job.batch[1]", tfjsonpath.New("timeouts").AtMapKey("read"), knownvalue.StringExact("2m")),
			},
			Check: acctest.JobsCreated(fs, 4),
		}},
	})
}

// A job the data source waits for may be deleted meanwhile (terraform
// destroy of its resource, another client, its retention): the error names
// the job and how it was last seen, and does not send the user to check an
// id that was just read. A job never found keeps that advice.
func TestJobDataSource_goneWhileWaitedFor(t *testing.T) {
	fs, h, created := jobOnFakeServer(t, fakeserver.Options{ProcessingTime: time.Hour}, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	looked := func() bool {
		return slices.ContainsFunc(fs.Requests(), func(r fakeserver.RecordedRequest) bool {
			return r.Method == "GET" && r.Path == "/v2/pre-recorded/"+created && r.Status == 200
		})
	}
	acctest.WhenTrue(t, looked, func() { fs.ExpireJob(created) })

	resp := readJobDataSource(t, h, created, nil)
	if len(resp.Diagnostics) != 1 {
		t.Fatalf("diagnostics %v, want one error", resp.Diagnostics)
	}
	d := resp.Diagnostics[0]
	if d.Severity != tfprotov6.DiagnosticSeverityError || d.Summary != "Transcription job not found" || !d.Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("id")) {
		t.Fatalf("diagnostic %s %q on %v, want the error Transcription job not found on id", d.Severity, d.Summary, d.Attribute)
	}
	want := regexp.MustCompile(regexp.QuoteMeta(fmt.Sprintf("The service no longer has job %q, which was ", created)) +
		"(queued|processing)" + regexp.QuoteMeta(" when last seen while this data source waited for it: it was deleted meanwhile"))
	if !want.MatchString(d.Detail) || strings.Contains(d.Detail, "Check the id") {
		t.Errorf("detail %q, want it to match %s, without advice to check the id", d.Detail, want)
	}
}

// jobOnFakeServer creates the job req asks for on a new fake server and
// returns the server, a harness serving the provider against it, and the
// job's id.
func jobOnFakeServer(t *testing.T, opts fakeserver.Options, req *client.InitTranscriptionRequest) (*fakeserver.Server, *protoHarness, string) {
	t.Helper()
	fs, url := acctest.FakeServer(t, opts)
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	created, err := c.CreatePreRecorded(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return fs, newProtoHarnessAt(t, fs, url), created.ID
}

// readJobDataSource reads the transcription_job data source for id with
// wait_for_completion and more configuration.
func readJobDataSource(t *testing.T, h *protoHarness, id string, more map[string]tftypes.Value) *tfprotov6.ReadDataSourceResponse {
	t.Helper()
	typ := h.dataSourceType("transcription_job")
	attrs := map[string]tftypes.Value{
		"id":                  tftypes.NewValue(tftypes.String, id),
		"wait_for_completion": tftypes.NewValue(tftypes.Bool, true),
	}
	maps.Copy(attrs, more)
	config := dynamicValue(t, typ, objectValue(typ, attrs))
	resp, err := h.server.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{TypeName: "transcription_job", Config: &config})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// A done job whose add-ons failed is read with a warning naming them, as
// the resource and the action warn.
func TestJobDataSource_failedAddonsWarn(t *testing.T) {
	yes := true
	_, h, created := jobOnFakeServer(t, fakeserver.Options{}, &client.InitTranscriptionRequest{AudioURL: "https://example.com/addon-error-503.wav", Summarization: &yes})
	resp := readJobDataSource(t, h, created, nil)
	failOnDiagnostics(t, "ReadDataSource", resp.Diagnostics)
	if !hasWarning(resp.Diagnostics, "Some add-ons of the transcription job failed", "summarization: status_code 503") {
		t.Errorf("diagnostics %v, want the warning naming the failed summary", diagnosticSummaries(resp.Diagnostics))
	}
}

// A wait that ends without seeing the job running (every look failed, or
// the job was last seen done) does not say the service goes on processing
// it.
func TestJobDataSource_waitEndedSaysOnlyWhatWasSeen(t *testing.T) {
	fs, h, created := jobOnFakeServer(t, fakeserver.Options{}, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	fs.SetFaults(fakeserver.Faults{ServerErrorRatio: 1, ServerErrorStatus: http.StatusServiceUnavailable})
	resp := readWaitingJobDataSource(context.Background(), t, h.url, created, "1s")
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != "Timed out waiting for the transcription job" {
		t.Fatalf("diagnostics %v, want the wait's timeout", diagnosticSummaries(resp.Diagnostics))
	}
	if d := resp.Diagnostics[0].Detail; strings.Contains(d, jobLeftRunning) {
		t.Errorf("detail %q says the service goes on processing a job no look saw", d)
	}
}

// A wait whose first look gets no answer at all (nothing listens at
// base_url) ends as a read without a wait does, after the client's
// retries: a base_url to fix is not waited out for timeouts.read.
func TestJobDataSource_waitEndsWhenNothingAnswers(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp := readWaitingJobDataSource(ctx, t, closed.URL, "6f1c1a2e-0000-4000-8000-000000000001", "1h")
	if len(resp.Diagnostics) != 1 || !strings.HasPrefix(resp.Diagnostics[0].Summary, "Cannot read the transcription job") {
		t.Fatalf("diagnostics %v, want the read's error", diagnosticSummaries(resp.Diagnostics))
	}
	if d := resp.Diagnostics[0].Detail; !strings.Contains(d, "cannot reach the transcription service") || strings.Contains(d, "raise timeouts.read") {
		t.Errorf("detail %q, want the transport error without advice to wait longer", d)
	}
}

// A wait whose time runs out while the client retries a look that got no
// answer, nothing having answered in the run, does not advise raising
// timeouts.read: the wait would end after the retries all the same.
func TestJobDataSource_waitTimedOutUnansweredSaysCheckBaseURL(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	resp := readWaitingJobDataSourceRetrying(context.Background(), t, closed.URL, "6f1c1a2e-0000-4000-8000-000000000001", "1s", 50)
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != "Timed out waiting for the transcription job" {
		t.Fatalf("diagnostics %v, want the wait's timeout", diagnosticSummaries(resp.Diagnostics))
	}
	if d := resp.Diagnostics[0].Detail; strings.Contains(d, "raise timeouts.read") || !strings.Contains(d, "a longer timeouts.read does not help") || strings.Count(d, "Check base_url") != 1 {
		t.Errorf("detail %q, want advice to check base_url once, not to wait longer", d)
	}
}

// readWaitingJobDataSource reads the transcription_job data source for id
// with wait_for_completion and timeouts.read = read, from a provider for
// url that does not retry (max_retries = 0): each look is one request.
func readWaitingJobDataSource(ctx context.Context, t *testing.T, url, id, read string) *tfprotov6.ReadDataSourceResponse {
	t.Helper()
	return readWaitingJobDataSourceRetrying(ctx, t, url, id, read, 0)
}

// A job the data source waited for that failed to fetch a file uploaded to
// the service (error_code 404) says that the upload is gone and how to
// upload it again: a job made again from it would fail the same way.
func TestJobDataSource_failedFetchOfAGoneUploadSaysUploadAgain(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	created, err := c.CreatePreRecorded(context.Background(), &client.InitTranscriptionRequest{AudioURL: url + "/file/0badc0de-0000-4000-8000-000000000001"})
	if err != nil {
		t.Fatal(err)
	}
	resp := readJobDataSource(t, newProtoHarnessAt(t, fs, url), created.ID, nil)
	if len(resp.Diagnostics) != 1 {
		t.Fatalf("diagnostics %v, want one warning", resp.Diagnostics)
	}
	if d := resp.Diagnostics[0]; d.Summary != "Transcription job failed" || !strings.Contains(d.Detail, "error_code 404") || !strings.Contains(d.Detail, uploadAgain) {
		t.Errorf("diagnostic %q: %q, want the failure with the advice to upload the file again", d.Summary, d.Detail)
	}
}

// readWaitingJobDataSourceRetrying is readWaitingJobDataSource from a
// provider with max_retries = retries.
func readWaitingJobDataSourceRetrying(ctx context.Context, t *testing.T, url, id, read string, retries int) *tfprotov6.ReadDataSourceResponse {
	t.Helper()
	server, schemas := serveProvider(t, providerserver.NewProtocol6WithError(New("test")()))
	if errs := configure(t, server, schemas, "1.8.5", map[string]tftypes.Value{
		"base_url":    tftypes.NewValue(tftypes.String, url),
		"api_key":     tftypes.NewValue(tftypes.String, acctest.APIKey),
		"max_retries": tftypes.NewValue(tftypes.Number, retries),
	}); len(errs) > 0 {
		t.Fatalf("ConfigureProvider: %s", strings.Join(errs, "; "))
	}
	h := &protoHarness{tb: t, server: server, schemas: schemas}
	typ := h.dataSourceType("transcription_job")
	config := dynamicValue(t, typ, objectValue(typ, map[string]tftypes.Value{
		"id":                  tftypes.NewValue(tftypes.String, id),
		"wait_for_completion": tftypes.NewValue(tftypes.Bool, true),
		"timeouts": tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"read": tftypes.String}},
			map[string]tftypes.Value{"read": tftypes.NewValue(tftypes.String, read)}),
	}))
	resp, err := server.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "transcription_job", Config: &config})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// A job the data source waited for that ended in error is read, with its
// error_code in state, and a warning says why it failed: the read itself
// succeeded, and the plan goes on.
func TestJobDataSource_failedJobWarns(t *testing.T) {
	_, h, created := jobOnFakeServer(t, fakeserver.Options{}, &client.InitTranscriptionRequest{AudioURL: "https://example.com/fail-422.wav"})
	typ := h.dataSourceType("transcription_job")
	config := dynamicValue(t, typ, objectValue(typ, map[string]tftypes.Value{
		"id":                  tftypes.NewValue(tftypes.String, created),
		"wait_for_completion": tftypes.NewValue(tftypes.Bool, true),
	}))
	var logged bytes.Buffer
	resp, err := h.server.ReadDataSource(tflogtest.RootLogger(context.Background(), &logged), &tfprotov6.ReadDataSourceRequest{TypeName: "transcription_job", Config: &config})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Diagnostics) != 1 {
		t.Fatalf("diagnostics %v, want one warning", resp.Diagnostics)
	}
	d := resp.Diagnostics[0]
	if d.Severity != tfprotov6.DiagnosticSeverityWarning || d.Summary != "Transcription job failed" || !strings.Contains(d.Detail, fmt.Sprintf(`Transcription job %s ended with status "error", error_code 422`, created)) {
		t.Errorf("diagnostic %s %q: %q, want the warning Transcription job failed with its error_code", d.Severity, d.Summary, d.Detail)
	}
	if resp.State == nil {
		t.Fatal("no state: the failed job was not read")
	}
	read := objectAttributes(t, typ, resp.State)
	if want := tftypes.NewValue(tftypes.Number, big.NewFloat(422)); !read["error_code"].Equal(want) || !read["status"].Equal(tftypes.NewValue(tftypes.String, client.StatusError)) {
		t.Errorf("read status %v, error_code %v; want error and 422", read["status"], read["error_code"])
	}
	// The read's log lines name the job, as the resource's do.
	entries, err := tflogtest.MultilineJSONDecode(&logged)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(entries, func(e map[string]any) bool {
		return e["@message"] == "read transcription job" && e["job_id"] == created
	}) {
		t.Errorf("no log line of the read names job_id %s: %v", created, entries)
	}
}
