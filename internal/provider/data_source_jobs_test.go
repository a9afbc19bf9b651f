package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// preRecordedReference is the fake server's whole pre-recorded listing,
// read with the client: the order and records the data source must give.
func preRecordedReference(t *testing.T, url string) []client.PreRecordedJob {
	t.Helper()
	return listingReference(t, url, (*client.Client).ListAllPreRecorded)
}

// TestAccJobsDataSource_listing lists jobs made outside Terraform: every
// job newest first, filters, a window of the listing, and the fields of the
// records, with the secrets of request_params left out or redacted (a value
// inside items cannot be marked sensitive). The queries are checked on what
// the fake server received.
func TestAccJobsDataSource_listing(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	alpha := map[string]any{"team": "alpha"}
	created := map[string]string{
		"alpha1": createJobDirectly(t, url, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a1.wav", CustomMetadata: alpha, Diarization: ptr(true)}),
		"bravo": createJobDirectly(t, url, &client.InitTranscriptionRequest{AudioURL: "https://media.example.com/b.wav?X-Amz-Signature=s3cr3t", CustomMetadata: map[string]any{"team": "bravo", "priority": 2},
			Callback: ptr(true), CallbackConfig: &client.CallbackConfig{URL: hooks + "/hook?token=s3cr3t", Method: ptr("PUT")}}),
		"legacy": createJobDirectly(t, url, &client.InitTranscriptionRequest{AudioURL: "https://example.com/legacy.wav", CallbackURL: ptr(hooks + "/legacy?token=s3cr3t")}),
		"failed": createJobDirectly(t, url, &client.InitTranscriptionRequest{AudioURL: "https://example.com/fail-422.wav", CustomMetadata: alpha}),
		"alpha2": createJobDirectly(t, url, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a2.wav", CustomMetadata: alpha}),
	}
	all := preRecordedReference(t, url)
	if len(all) != len(created) {
		t.Fatalf("fake server lists %d jobs, want %d", len(all), len(created))
	}
	index := map[string]int{}
	ids := make([]string, len(all))
	for i, j := range all {
		ids[i] = j.ID
		index[j.ID] = i
	}
	var doneAlpha []string
	for _, j := range all {
		if j.Status == client.StatusDone && j.CustomMetadata["team"] == "alpha" {
			doneAlpha = append(doneAlpha, j.ID)
		}
	}
	if len(doneAlpha) != 2 {
		t.Fatalf("fixture changed: %d done alpha jobs, want 2", len(doneAlpha))
	}
	fs.ResetRequests()

	config := acctest.ProviderConfig(url) + `
data "transcription_jobs" "all" {
  include_transcript = true
}

data "transcription_jobs" "alpha" {
  status          = ["done"]
  custom_metadata = { team = "alpha" }
}

data "transcription_jobs" "window" {
  offset = 1
  limit  = 2
}
`
	item := func(name string) tfjsonpath.Path {
		return tfjsonpath.New("items").AtSliceIndex(index[created[name]])
	}
	listed := "data.transcription_jobs.all"
	checks := append(expectIDs(listed, ids), expectIDs("data.transcription_jobs.alpha", doneAlpha)...)
	checks = append(checks, expectIDs("data.transcription_jobs.window", ids[1:3])...)
	checks = append(checks,
		statecheck.ExpectKnownValue(listed, item("alpha1").AtMapKey("kind"), knownvalue.StringExact("pre-recorded")),
		statecheck.ExpectKnownValue(listed, item("alpha1").AtMapKey("status"), knownvalue.StringExact("done")),
		statecheck.ExpectKnownValue(listed, item("alpha1").AtMapKey("custom_metadata"), knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("alpha")})),
		statecheck.ExpectKnownValue(listed, item("alpha1").AtMapKey("file").AtMapKey("source"), knownvalue.StringExact("https://example.com/a1.wav")),
		statecheck.ExpectKnownValue(listed, item("alpha1").AtMapKey("result").AtMapKey("transcription").AtMapKey("full_transcript"), knownvalue.NotNull()),
		statecheck.ExpectKnownValue(listed, item("alpha1").AtMapKey("result").AtMapKey("metadata").AtMapKey("audio_duration"), knownvalue.NotNull()),
		statecheck.ExpectKnownValue(listed, item("failed").AtMapKey("status"), knownvalue.StringExact("error")),
		statecheck.ExpectKnownValue(listed, item("failed").AtMapKey("error_code"), knownvalue.Int64Exact(422)),
		statecheck.ExpectKnownValue(listed, item("failed").AtMapKey("result"), knownvalue.Null()),
		statecheck.ExpectKnownValue(listed, item("bravo").AtMapKey("custom_metadata").AtMapKey("priority"), knownvalue.StringExact("2")),
		statecheck.ExpectKnownValue(listed, item("bravo").AtMapKey("file").AtMapKey("source"), knownvalue.StringExact(client.RedactedURL("https://media.example.com/b.wav?X-Amz-Signature=s3cr3t"))),
		// Without include_transcript only what does not grow is kept.
		statecheck.ExpectKnownValue("data.transcription_jobs.alpha", tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("result").AtMapKey("transcription").AtMapKey("full_transcript"), knownvalue.Null()),
	)

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:            config,
			ConfigStateChecks: checks,
			Check: resource.ComposeAggregateTestCheckFunc(
				expectQueries(fs, "/v2/pre-recorded",
					"limit=100",
					"custom_metadata%5Bteam%5D=alpha&limit=100&status=done",
					"limit=2&offset=1",
				),
				expectListedRequestParams(listed, map[int]func(map[string]any) error{
					index[created["alpha1"]]: func(p map[string]any) error {
						if p["audio_url"] != "https://example.com/a1.wav" || p["diarization"] != true {
							return fmt.Errorf("audio_url %v, diarization %v: want the job's", p["audio_url"], p["diarization"])
						}
						return nil
					},
					index[created["bravo"]]: func(p map[string]any) error {
						config, _ := p["callback_config"].(map[string]any)
						if _, ok := config["url"]; ok || config["method"] != "PUT" || p["callback"] != true {
							return fmt.Errorf("callback %v, callback_config %v: want callback_config without url, method PUT", p["callback"], config)
						}
						if want := client.RedactedURL("https://media.example.com/b.wav?X-Amz-Signature=s3cr3t"); p["audio_url"] != want {
							return fmt.Errorf("audio_url %v, want %q", p["audio_url"], want)
						}
						return nil
					},
					index[created["legacy"]]: func(p map[string]any) error {
						if _, ok := p["callback_url"]; ok {
							return fmt.Errorf("callback_url kept: %v", p["callback_url"])
						}
						return nil
					},
				}),
				noSecretInState("s3cr3t"),
			),
		}},
	})
}

// expectListedRequestParams decodes the request_params of the listed items
// at the given indexes and checks each.
func expectListedRequestParams(address string, checks map[int]func(map[string]any) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[address]
		if !ok {
			return fmt.Errorf("%s not in state", address)
		}
		for i, check := range checks {
			text := rs.Primary.Attributes[fmt.Sprintf("items.%d.request_params", i)]
			var params map[string]any
			if err := json.Unmarshal([]byte(text), &params); err != nil {
				return fmt.Errorf("items[%d].request_params %q: %w", i, text, err)
			}
			if err := check(params); err != nil {
				return fmt.Errorf("items[%d].request_params: %w", i, err)
			}
		}
		return nil
	}
}

// noSecretInState fails when any attribute in state holds secret.
func noSecretInState(secret string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for address, rs := range s.RootModule().Resources {
			for name, value := range rs.Primary.Attributes {
				if strings.Contains(value, secret) {
					return fmt.Errorf("%s.%s holds the secret: %s", address, name, value)
				}
			}
		}
		return nil
	}
}

// TestFlattenPreRecordedRecord_requestParamsAsSent: an item's request_params
// is the JSON the service sent, with audio_url redacted and without
// callback_url and callback_config.url: a vocabulary entry sent as a bare
// string stays one, an empty list stays, and a field the client's types do
// not know, or hold in another type, is kept, where they came out
// re-encoded from those types (or failed the whole listing).
func TestFlattenPreRecordedRecord_requestParamsAsSent(t *testing.T) {
	const params = `{"audio_url": "https://media.example.com/b.wav?X-Amz-Signature=s3cr3t", "language_config": {"languages": [], "code_switching": false},
		"custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": ["Kubernetes", {"value": "Terraform", "intensity": 0.6}]},
		"audio_enhancer_model": "v2", "diarization": "auto",
		"callback_url": "https://hooks.example.com/legacy?token=s3cr3t",
		"callback": true, "callback_config": {"url": "https://hooks.example.com/hook?token=s3cr3t", "method": "PUT"}}`
	for _, c := range []struct {
		name, params string
		want         func(map[string]any)
	}{
		{"sent", params, func(want map[string]any) {
			want["audio_url"] = client.RedactedURL("https://media.example.com/b.wav?X-Amz-Signature=s3cr3t")
			delete(want, "callback_url")
			delete(want["callback_config"].(map[string]any), "url")
		}},
		{"null", "null", nil},
		{"audio_url null", `{"audio_url": null, "model": "model-1"}`, func(map[string]any) {}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var job client.PreRecordedRecord
			body := `{"id": "11111111-1111-4111-8111-111111111111", "request_id": "r", "version": 2, "status": "done", "created_at": "2025-03-10T12:00:00Z", "kind": "pre-recorded",
		"request_params": ` + c.params + `}`
			if err := json.Unmarshal([]byte(body), &job); err != nil {
				t.Fatal(err)
			}
			f := &flattener{}
			o := f.listedJob(context.Background(), jobsItemType, &job.JobCommon, f.preRecordedRequestParams(job.RequestParams), summaryContent, func() []string { return nil })
			if f.diags.HasError() {
				t.Fatal(f.diags)
			}
			shown := at(t, o, "request_params").(jsonText)
			if c.want == nil {
				if !shown.IsNull() {
					t.Errorf("request_params %s, want null", shown)
				}
				return
			}
			var got, want map[string]any
			if err := json.Unmarshal([]byte(shown.ValueString()), &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(c.params), &want); err != nil {
				t.Fatal(err)
			}
			c.want(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("request_params\n%v\nwant what the service sent, redacted\n%v", got, want)
			}
		})
	}
}

// A listed job's failed translation is named by its target language, read
// from the item's request_params, on both listings.
func TestListedJobs_failedTranslationNamedByTarget(t *testing.T) {
	ctx := context.Background()
	translation := &client.Result{Translation: &client.AddonResult[[]client.TranslationItem]{Success: true, Results: []client.TranslationItem{
		{Languages: []string{"fr"}}, {Error: &client.AddonError{StatusCode: 500}},
	}}}
	recorded := client.PreRecordedRecord{
		JobCommon:     client.JobCommon{ID: "j1", Status: client.StatusDone, Result: translation},
		RequestParams: json.RawMessage(`{"translation": true, "translation_config": {"target_languages": ["fr", "de"]}}`),
	}
	f := &flattener{}
	_, o := jobsListing.item(f, ctx, &recorded, transcriptContent)
	if got := atJSON(t, o, "result", "translation", "results", 1, "language"); f.diags.HasError() || got != "de" {
		t.Errorf("pre-recorded listing: language %v %v, want de", got, f.diags)
	}
	live := client.LiveJob{
		JobCommon:     client.JobCommon{ID: "j2", Status: client.StatusDone, Result: translation},
		RequestParams: &client.LiveRequestParams{RealtimeProcessing: &client.LiveRealtimeProcessing{TranslationConfig: &client.TranslationConfig{TargetLanguages: []string{"fr", "de"}}}},
	}
	_, o = liveJobsListing.item(f, ctx, &live, transcriptContent)
	if got := atJSON(t, o, "result", "translation", "results", 1, "language"); f.diags.HasError() || got != "de" {
		t.Errorf("live listing: language %v %v, want de", got, f.diags)
	}
}
