package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/datetimetypes"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/numtypes"
)

// ---------------------------------------------------------------------------
// Unit tests.

func TestLiveJobsDataSourceSchema_valid(t *testing.T) {
	s := dataSourceSchema(t, NewLiveJobsDataSource())
	var walk func(prefix string, attrs []viewAttr)
	walk = func(prefix string, attrs []viewAttr) {
		for _, a := range attrs {
			if a.description == "" {
				t.Errorf("%s.%s has no description", prefix, a.name)
			}
			walk(prefix+"."+a.name, a.nested)
		}
	}
	walk("items", liveJobsItemsView.nested)
	// items has a type of its own (terraformListType); Terraform sees the view's.
	ctx := context.Background()
	if got, want := s.Attributes["items"].GetType().TerraformType(ctx), liveJobsItemsView.attrType().TerraformType(ctx); !got.Equal(want) {
		t.Errorf("items type %s, want %s", got, want)
	}
}

func TestLiveJobsListOptions(t *testing.T) {
	ctx := context.Background()
	full := listingDataSourceModel{
		Offset: numtypes.NewInt64Value(5),
		Limit:  numtypes.NewInt64Value(250),
		listFilterModel: listFilterModel{
			Status:         types.ListValueMust(types.StringType, []attr.Value{types.StringValue("done"), types.StringValue("error")}),
			Date:           types.StringValue("2025-03-08"),
			AfterDate:      datetimetypes.NewRFC3339Value("2025-03-01T00:00:00Z"),
			BeforeDate:     datetimetypes.NewRFC3339Value("2025-03-09T00:00:00+01:00"),
			CustomMetadata: types.MapValueMust(types.StringType, map[string]attr.Value{"team": types.StringValue("alpha"), "env": types.StringValue("prod")}),
		},
	}
	got, diags := full.listOptions(ctx)
	if diags.HasError() {
		t.Fatal(diags)
	}
	want := client.ListLiveOptions{
		Offset: 5, Date: "2025-03-08", AfterDate: "2025-03-01T00:00:00Z", BeforeDate: "2025-03-09T00:00:00+01:00",
		Status: []string{"done", "error"}, CustomMetadata: map[string]string{"team": "alpha", "env": "prod"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	// limit is the total, never a page size: it is not in the options.
	if got.Limit != 0 {
		t.Errorf("limit leaked into the page size: %d", got.Limit)
	}

	empty := listingDataSourceModel{
		Offset: numtypes.NewInt64Null(), Limit: numtypes.NewInt64Null(),
		listFilterModel: listFilterModel{
			Status: types.ListNull(types.StringType), Date: types.StringNull(), AfterDate: datetimetypes.NewRFC3339Null(), BeforeDate: datetimetypes.NewRFC3339Null(),
			CustomMetadata: types.MapNull(types.StringType),
		},
	}
	got, diags = empty.listOptions(ctx)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if !reflect.DeepEqual(got, client.ListLiveOptions{}) {
		t.Errorf("no filters: got %+v, want zero options", got)
	}
	if q := got.Query().Encode(); q != "" {
		t.Errorf("no filters: query %q, want empty", q)
	}

	// status = [] asks for what leaving it out does.
	empty.Status = types.ListValueMust(types.StringType, nil)
	got, diags = empty.listOptions(ctx)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if q := got.Query().Encode(); q != "" {
		t.Errorf("status = []: query %q, want empty", q)
	}
}

func TestFlattenLiveJob(t *testing.T) {
	ctx := context.Background()
	for name, j := range map[string]client.LiveJob{
		"full": fullLiveJobFixture(time.Date(2025, 3, 10, 11, 0, 0, 0, time.UTC)),
		"bare": bareLiveJobFixture(time.Date(2025, 3, 10, 11, 30, 0, 0, time.UTC)),
	} {
		t.Run(name, func(t *testing.T) {
			f := &flattener{}
			o := f.liveJob(ctx, &j, transcriptContent)
			if f.diags.HasError() {
				t.Fatal(f.diags)
			}
			if !o.Type(ctx).Equal(liveJobType) {
				t.Fatalf("type %s, want %s", o.Type(ctx), liveJobType)
			}
			if _, err := o.ToTerraformValue(ctx); err != nil {
				t.Fatal(err)
			}
			if name == "bare" {
				for _, a := range []string{"completed_at", "error_code", "post_session_metadata", "file", "request_params", "result"} {
					if !at(t, o, a).IsNull() {
						t.Errorf("%s = %v, want null", a, at(t, o, a))
					}
				}
				return
			}
			if words := atJSON(t, o, "result", "transcription", "utterances", 0, "words"); words != nil {
				t.Errorf("live results must not carry word timings: %v", words)
			}
			for what, c := range map[string]struct{ got, want any }{
				"flag":                  {atJSON(t, o, "request_params", "callback_config", "receive_lifecycle_events"), false},
				"callback url left out": {atJSON(t, o, "request_params", "callback_config", "url"), nil},
				"spelling":              {atJSON(t, o, "request_params", "realtime_processing", "custom_spelling_config", "spelling_dictionary", "SQL", 0), "sequel"},
				"vocabulary":            {atJSON(t, o, "request_params", "realtime_processing", "custom_vocabulary_config", "vocabulary", 1, "intensity"), 0.6},
				"no intensity":          {atJSON(t, o, "request_params", "realtime_processing", "custom_vocabulary_config", "vocabulary", 0, "intensity"), nil},
			} {
				if c.got != c.want {
					t.Errorf("%s: got %v, want %v", what, c.got, c.want)
				}
			}
			checks := map[string]struct{ got, want attr.Value }{
				"post metadata": {at(t, o, "post_session_metadata"), jsonTextValue(`{"duration":12.5,"tags":["x"]}`)},
				"metadata json": {at(t, o, "custom_metadata", "count"), types.StringValue("3")},
			}
			for what, c := range checks {
				if !c.got.Equal(c.want) {
					t.Errorf("%s: got %v, want %v", what, c.got, c.want)
				}
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Fixtures.

// fullLiveJobFixture is a done live job with every field the spec lists set,
// including word timings the data source must drop.
func fullLiveJobFixture(created time.Time) client.LiveJob {
	completed := created.Add(3 * time.Minute).Format(time.RFC3339)
	utts := []client.Utterance{
		{Start: 0, End: 1.5, Confidence: 0.91, Channel: 0, Text: "Hello there.", Language: "en", Speaker: ptr(int64(0)),
			Words: []client.Word{{Word: "Hello", Start: 0, End: 0.5, Confidence: 0.9}, {Word: "there.", Start: 0.6, End: 1.5, Confidence: 0.92}}},
		{Start: 1.6, End: 2.5, Confidence: 0.8, Channel: 1, Text: "Bye.", Language: "en", Speaker: ptr(int64(1)),
			Words: []client.Word{{Word: "Bye.", Start: 1.6, End: 2.5, Confidence: 0.8}}},
	}
	flags := client.LiveMessagesConfig{
		ReceivePartialTranscripts: ptr(true), ReceiveFinalTranscripts: ptr(true), ReceiveSpeechEvents: ptr(false),
		ReceivePreProcessingEvents: ptr(true), ReceiveRealtimeProcessingEvents: ptr(false), ReceivePostProcessingEvents: ptr(true),
		ReceiveAcknowledgments: ptr(false), ReceiveErrors: ptr(true), ReceiveLifecycleEvents: ptr(false),
	}
	return client.LiveJob{
		JobCommon: client.JobCommon{
			ID:                  "11111111-1111-4111-8111-111111111111",
			RequestID:           "req-full",
			Version:             2,
			Status:              client.StatusDone,
			CreatedAt:           created.Format(time.RFC3339),
			CompletedAt:         &completed,
			Kind:                client.KindLive,
			CustomMetadata:      map[string]any{"fixture": "full", "count": 3, "nested": map[string]any{"a": true}},
			PostSessionMetadata: json.RawMessage(`{"duration": 12.5, "tags": ["x"]}`),
			File:                &client.FileInfo{ID: "file-full", Filename: ptr("full.wav"), Source: ptr("live-stream"), AudioDuration: ptr(2.5), NumberOfChannels: ptr(int64(2))},
			Result: &client.Result{
				Metadata: client.ResultMetadata{AudioDuration: 2.5, NumberOfDistinctChannels: 2, BillingTime: 3, TranscriptionTime: 0.7},
				Transcription: &client.Transcription{
					FullTranscript: "Hello there. Bye.", Languages: []string{"en"}, Utterances: utts,
					Sentences: []client.AddonResult[[]string]{{Success: true, Results: []string{"Hello there.", "Bye."}}},
					Subtitles: []client.Subtitle{{Format: "srt", Subtitles: "1\n00:00:00,000 --> 00:00:01,500\nHello there.\n"}, {Format: "vtt", Subtitles: "WEBVTT\n"}},
				},
				Translation: &client.AddonResult[[]client.TranslationItem]{Success: true, ExecTime: 0.4, Results: []client.TranslationItem{
					{FullTranscript: "Bonjour. Au revoir.", Languages: []string{"fr"}, Utterances: utts},
				}},
				Summarization:          &client.AddonResult[*string]{Success: true, ExecTime: 0.2, Results: ptr("A short greeting.")},
				NamedEntityRecognition: &client.AddonResult[[]client.NamedEntity]{Success: true, Results: []client.NamedEntity{{EntityType: "NAME", Text: "Ada", Start: 0.1, End: 0.4}}},
				SentimentAnalysis:      &client.AddonResult[string]{Success: false, Error: &client.AddonError{StatusCode: 503, Exception: "Unavailable", Message: "try later"}},
				Messages:               []string{`{"type":"start_session"}`, `{"type":"end_session"}`},
			},
		},
		RequestParams: &client.LiveRequestParams{
			Encoding: ptr("wav/pcm"), BitDepth: ptr(int64(16)), SampleRate: ptr(int64(16000)), Channels: ptr(int64(2)),
			Model: ptr(client.ModelOne), Endpointing: ptr(0.05), MaximumDurationWithoutEndpointing: ptr(5.0),
			LanguageConfig: &client.LanguageConfig{Languages: []string{"en"}, CodeSwitching: ptr(false)},
			PreProcessing:  &client.LivePreProcessing{AudioEnhancer: ptr(true), SpeechThreshold: ptr(0.6)},
			RealtimeProcessing: &client.LiveRealtimeProcessing{
				CustomVocabulary:       ptr(true),
				CustomVocabularyConfig: &client.CustomVocabularyConfig{Vocabulary: []client.VocabularyEntry{{Value: "Kubernetes"}, {Value: "Terraform", Intensity: ptr(0.6), Pronunciations: []string{"terra form"}, Language: ptr("en")}}, DefaultIntensity: ptr(0.5)},
				CustomSpelling:         ptr(true),
				CustomSpellingConfig:   &client.CustomSpellingConfig{SpellingDictionary: map[string][]string{"SQL": {"sequel"}}},
				Translation:            ptr(true),
				TranslationConfig:      &client.TranslationConfig{TargetLanguages: []string{"fr"}, Model: ptr("enhanced"), MatchOriginalUtterances: ptr(true), Lipsync: ptr(false), ContextAdaptation: ptr(true), Context: ptr("a greeting"), Informal: ptr(true)},
				NamedEntityRecognition: ptr(true),
				SentimentAnalysis:      ptr(true),
			},
			PostProcessing: &client.LivePostProcessing{Summarization: ptr(true), SummarizationConfig: &client.SummarizationConfig{Type: ptr("concise")}, Chapterization: ptr(false)},
			MessagesConfig: &flags,
			Callback:       ptr(true),
			CallbackConfig: &client.LiveCallbackConfig{URL: ptr("https://hooks.example.com/live"), LiveMessagesConfig: flags},
		},
	}
}

// bareLiveJobFixture is a queued live job the service says little about.
func bareLiveJobFixture(created time.Time) client.LiveJob {
	return client.LiveJob{JobCommon: client.JobCommon{
		ID: "22222222-2222-4222-8222-222222222222", RequestID: "req-bare", Version: 2, Status: client.StatusQueued,
		CreatedAt: created.Format(time.RFC3339), Kind: client.KindLive, CustomMetadata: map[string]any{"fixture": "bare"},
	}}
}

// ---------------------------------------------------------------------------
// Acceptance tests.

// liveTestNow is the fake server's clock in the acceptance tests, so dates
// in configurations are fixed.
var liveTestNow = time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)

// addLightLiveJobs adds n small live jobs, one every 37 minutes back from
// liveTestNow, with statuses and metadata in fixed cycles: filters and
// pagination are exercised without megabytes of results.
func addLightLiveJobs(fs *fakeserver.Server, n int) {
	statuses := []string{client.StatusDone, client.StatusDone, client.StatusDone, client.StatusDone, client.StatusError, client.StatusProcessing, client.StatusQueued}
	teams := []string{"alpha", "bravo", "charlie"}
	for i := range n {
		created := liveTestNow.Add(-time.Duration(i+1) * 37 * time.Minute)
		j := client.LiveJob{JobCommon: client.JobCommon{
			ID:        fmt.Sprintf("00000000-0000-4000-8000-%012d", i),
			RequestID: fmt.Sprintf("req-%d", i),
			Version:   2,
			Status:    statuses[i%len(statuses)],
			CreatedAt: created.Format("2006-01-02T15:04:05.000Z07:00"),
			Kind:      client.KindLive,
		}}
		if i%10 != 0 {
			j.CustomMetadata = map[string]any{"team": teams[i%len(teams)], "env": []string{"prod", "staging"}[i%2]}
			if i%4 == 0 {
				j.CustomMetadata["priority"] = i % 3
			}
		}
		if client.IsFinal(j.Status) {
			j.CompletedAt = ptr(created.Add(time.Minute).Format(time.RFC3339))
		}
		if j.Status == client.StatusError {
			j.ErrorCode = ptr(int64(500))
		}
		fs.AddLiveJob(j)
	}
}

// liveReference lists every live job straight from the fake server, the
// reference the data source's results are compared with.
func liveReference(t *testing.T, url string) []client.LiveJob {
	t.Helper()
	return listingReference(t, url, (*client.Client).ListAllLive)
}

// listingReference is the fake server's whole listing at url, read with the
// client's listAll (ListAllLive, ListAllPreRecorded).
func listingReference[J any](t *testing.T, url string, listAll func(*client.Client, context.Context, client.ListOptions, int, int, ...client.Detail) ([]J, int, error)) []J {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := listAll(c, context.Background(), client.ListOptions{}, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// idsWhere returns the ids of the jobs keep accepts, in listing order.
func idsWhere(jobs []client.LiveJob, keep func(j client.LiveJob, created time.Time) bool) []string {
	ids := []string{}
	for _, j := range jobs {
		created, err := time.Parse(time.RFC3339Nano, j.CreatedAt)
		if err != nil {
			panic(err)
		}
		if keep(j, created) {
			ids = append(ids, j.ID)
		}
	}
	return ids
}

func hasMetadata(j client.LiveJob, pairs map[string]string) bool {
	for k, want := range pairs {
		v, ok := j.CustomMetadata[k]
		if !ok || v == nil || fmt.Sprint(v) != want {
			return false
		}
	}
	return true
}

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// expectIDs checks a data source's ids and the ids of its items.
func expectIDs(address string, ids []string) []statecheck.StateCheck {
	values := make([]knownvalue.Check, len(ids))
	for i, id := range ids {
		values[i] = knownvalue.StringExact(id)
	}
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(address, tfjsonpath.New("ids"), knownvalue.ListExact(values)),
		statecheck.ExpectKnownValue(address, tfjsonpath.New("items"), knownvalue.ListSizeExact(len(ids))),
	}
	if len(ids) > 0 {
		last := len(ids) - 1
		checks = append(checks,
			statecheck.ExpectKnownValue(address, tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("id"), knownvalue.StringExact(ids[0])),
			statecheck.ExpectKnownValue(address, tfjsonpath.New("items").AtSliceIndex(last).AtMapKey("id"), knownvalue.StringExact(ids[last])),
		)
	}
	return checks
}

// expectQueries checks the distinct query strings a listing (GET of the
// path listing) received, and that nothing else was asked.
// The CLI reads data sources several times per step, so repeats are merged.
func expectQueries(fs *fakeserver.Server, listing string, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		seen := map[string]bool{}
		for _, r := range fs.Requests() {
			if r.Method != "GET" || r.Path != listing {
				return fmt.Errorf("unexpected request %s %s", r.Method, r.Path)
			}
			seen[r.RawQuery] = true
		}
		got := make([]string, 0, len(seen))
		for q := range seen {
			got = append(got, q)
		}
		sort.Strings(got)
		want = slices.Clone(want)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			return fmt.Errorf("queries received:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
		return nil
	}
}

// TestAccLiveJobsDataSource_filtersAndPagination reads many data sources in
// one configuration (one CLI run): each filter alone and combined, pages
// with and without limit, offset and an empty result. Expected ids come
// from the fake server's full listing filtered here, and the query strings
// from what the fake server received.
func TestAccLiveJobsDataSource_filtersAndPagination(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{Clock: fakeserver.NewManualClock(liveTestNow)})
	addLightLiveJobs(fs, 250)
	all := liveReference(t, url)
	if len(all) != 250 {
		t.Fatalf("fake server lists %d live jobs, want 250", len(all))
	}
	fs.ResetRequests()

	everything := func(client.LiveJob, time.Time) bool { return true }
	statusIn := func(statuses ...string) func(client.LiveJob, time.Time) bool {
		return func(j client.LiveJob, _ time.Time) bool { return slices.Contains(statuses, j.Status) }
	}
	after, before := mustTime("2025-03-06T00:00:00Z"), mustTime("2025-03-07T08:30:00+02:00")

	want := map[string][]string{
		"all":      idsWhere(all, everything),
		"limited":  idsWhere(all, everything)[:150],
		"window":   idsWhere(all, everything)[30:150],
		"tail":     idsWhere(all, everything)[245:],
		"finished": idsWhere(all, statusIn("done", "error")),
		"queued":   idsWhere(all, statusIn("queued")),
		// status = [] filters on no status, as leaving it out does.
		"any_status": idsWhere(all, everything)[:5],
		"day": idsWhere(all, func(_ client.LiveJob, c time.Time) bool {
			return c.UTC().Format(time.DateOnly) == "2025-03-08"
		}),
		"after":  idsWhere(all, func(_ client.LiveJob, c time.Time) bool { return c.After(after) }),
		"before": idsWhere(all, func(_ client.LiveJob, c time.Time) bool { return c.Before(before) }),
		"range":  idsWhere(all, func(_ client.LiveJob, c time.Time) bool { return c.After(after) && c.Before(before) }),
		"team": idsWhere(all, func(j client.LiveJob, _ time.Time) bool {
			return hasMetadata(j, map[string]string{"team": "alpha", "env": "prod"})
		}),
		"priority": idsWhere(all, func(j client.LiveJob, _ time.Time) bool { return hasMetadata(j, map[string]string{"priority": "2"}) }),
		"combined": idsWhere(all, func(j client.LiveJob, c time.Time) bool {
			return j.Status == "done" && hasMetadata(j, map[string]string{"team": "bravo"}) && c.After(after)
		})[:7],
		"nobody": {},
	}
	// The literal query strings below assume these sizes.
	for name, n := range map[string]int{"finished": 180, "queued": 35, "day": 39, "range": 50, "team": 33, "priority": 17} {
		if len(want[name]) != n {
			t.Fatalf("fixture changed: %s matches %d jobs, want %d", name, len(want[name]), n)
		}
	}

	config := acctest.ProviderConfig(url) + `
data "transcription_live_jobs" "all" {}

data "transcription_live_jobs" "limited" {
  limit = 150
}

data "transcription_live_jobs" "window" {
  offset = 30
  limit  = 120
}

data "transcription_live_jobs" "tail" {
  offset = 245
  limit  = 20
}

data "transcription_live_jobs" "finished" {
  status = ["done", "error"]
}

data "transcription_live_jobs" "queued" {
  status = ["queued"]
}

data "transcription_live_jobs" "any_status" {
  status = []
  limit  = 5
}

data "transcription_live_jobs" "day" {
  date = "2025-03-08"
}

data "transcription_live_jobs" "after" {
  after_date = "2025-03-06T00:00:00Z"
  limit      = 5
}

data "transcription_live_jobs" "before" {
  before_date = "2025-03-07T08:30:00+02:00"
  limit       = 5
}

data "transcription_live_jobs" "range" {
  after_date  = "2025-03-06T00:00:00Z"
  before_date = "2025-03-07T08:30:00+02:00"
}

data "transcription_live_jobs" "team" {
  custom_metadata = {
    team = "alpha"
    env  = "prod"
  }
}

data "transcription_live_jobs" "priority" {
  custom_metadata = { priority = "2" }
}

data "transcription_live_jobs" "combined" {
  status          = ["done"]
  after_date      = "2025-03-06T00:00:00Z"
  custom_metadata = { team = "bravo" }
  limit           = 7
}

data "transcription_live_jobs" "nobody" {
  custom_metadata = { team = "nobody" }
}
`
	want["after"] = want["after"][:5]
	want["before"] = want["before"][:5]

	var checks []statecheck.StateCheck
	for name, ids := range want {
		checks = append(checks, expectIDs("data.transcription_live_jobs."+name, ids)...)
	}
	// Fields of a light job: nulls from the service stay null.
	queued := "data.transcription_live_jobs.queued"
	checks = append(checks,
		statecheck.ExpectKnownValue(queued, tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("status"), knownvalue.StringExact("queued")),
		statecheck.ExpectKnownValue(queued, tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("kind"), knownvalue.StringExact("live")),
		statecheck.ExpectKnownValue(queued, tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("completed_at"), knownvalue.Null()),
		statecheck.ExpectKnownValue(queued, tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("result"), knownvalue.Null()),
		statecheck.ExpectKnownValue(queued, tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("request_params"), knownvalue.Null()),
		statecheck.ExpectKnownValue(queued, tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("post_session_metadata"), knownvalue.Null()),
		statecheck.ExpectKnownValue("data.transcription_live_jobs.priority", tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("custom_metadata").AtMapKey("priority"), knownvalue.StringExact("2")),
		statecheck.ExpectKnownValue("data.transcription_live_jobs.finished", tfjsonpath.New("items").AtSliceIndex(1).AtMapKey("error_code"), knownvalue.Null()),
		// A failed job's error_code is the service's (job 4 is the first in error).
		statecheck.ExpectKnownValue("data.transcription_live_jobs.all", tfjsonpath.New("items").AtSliceIndex(4).AtMapKey("status"), knownvalue.StringExact("error")),
		statecheck.ExpectKnownValue("data.transcription_live_jobs.all", tfjsonpath.New("items").AtSliceIndex(4).AtMapKey("error_code"), knownvalue.Int64Exact(500)),
	)

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:            config,
			ConfigStateChecks: checks,
			Check: expectQueries(fs, "/v2/live",
				// Each page after the first starts at the last item received,
				// which counts within the page's 100.
				// all: three pages of at most 100; limited: 100 then the 50 still wanted.
				"limit=100", "limit=100&offset=99", "limit=100&offset=198", "limit=51&offset=99",
				// window: from offset 30, 100 then 20; tail: one short page.
				"limit=100&offset=30", "limit=21&offset=129", "limit=20&offset=245",
				// status repeated, two pages of finished jobs.
				"limit=100&status=done&status=error", "limit=100&offset=99&status=done&status=error",
				"limit=100&status=queued",
				"limit=5",
				"date=2025-03-08&limit=100",
				"after_date=2025-03-06T00%3A00%3A00Z&limit=5",
				"before_date=2025-03-07T08%3A30%3A00%2B02%3A00&limit=5",
				"after_date=2025-03-06T00%3A00%3A00Z&before_date=2025-03-07T08%3A30%3A00%2B02%3A00&limit=100",
				"custom_metadata%5Benv%5D=prod&custom_metadata%5Bteam%5D=alpha&limit=100",
				"custom_metadata%5Bpriority%5D=2&limit=100",
				"after_date=2025-03-06T00%3A00%3A00Z&custom_metadata%5Bteam%5D=bravo&limit=7&status=done",
				"custom_metadata%5Bteam%5D=nobody&limit=100",
			),
		}},
	})
}

// TestAccLiveJobsDataSource_recordFields checks every field of the record
// on a hand-built job, a bare queued one and jobs the fake server generates.
func TestAccLiveJobsDataSource_recordFields(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{Clock: fakeserver.NewManualClock(liveTestNow), LiveJobs: 6})
	fs.AddLiveJob(fullLiveJobFixture(liveTestNow.Add(-time.Minute)))
	fs.AddLiveJob(bareLiveJobFixture(liveTestNow.Add(-2 * time.Minute)))
	all := liveReference(t, url)
	var seeded *client.LiveJob
	for _, j := range all {
		if j.Status == client.StatusDone && j.ID != fullLiveJobFixture(liveTestNow).ID {
			seeded = &j
			break
		}
	}
	if seeded == nil || seeded.Result == nil || seeded.Result.Transcription == nil {
		t.Fatal("the fake server seeded no done live job with a transcript")
	}

	const full, bare, gen = "data.transcription_live_jobs.full", "data.transcription_live_jobs.bare", "data.transcription_live_jobs.generated"
	const summary, summaryOff = "data.transcription_live_jobs.full_summary", "data.transcription_live_jobs.full_transcript_off"
	flagsWant := map[string]bool{
		"receive_partial_transcripts": true, "receive_final_transcripts": true, "receive_speech_events": false,
		"receive_pre_processing_events": true, "receive_realtime_processing_events": false, "receive_post_processing_events": true,
		"receive_acknowledgments": false, "receive_errors": true, "receive_lifecycle_events": false,
	}
	flagsJSON := map[string]any{}
	callbackJSON := map[string]any{} // without its url, which may carry a token
	for k, v := range flagsWant {
		flagsJSON[k], callbackJSON[k] = v, v
	}
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(full, tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("11111111-1111-4111-8111-111111111111")})),
		statecheck.ExpectKnownValue(full, itemPath("request_id"), knownvalue.StringExact("req-full")),
		statecheck.ExpectKnownValue(full, itemPath("version"), knownvalue.Int64Exact(2)),
		statecheck.ExpectKnownValue(full, itemPath("status"), knownvalue.StringExact("done")),
		statecheck.ExpectKnownValue(full, itemPath("created_at"), knownvalue.StringExact("2025-03-10T11:59:00Z")),
		statecheck.ExpectKnownValue(full, itemPath("completed_at"), knownvalue.StringExact("2025-03-10T12:02:00Z")),
		statecheck.ExpectKnownValue(full, itemPath("error_code"), knownvalue.Null()),
		statecheck.ExpectKnownValue(full, itemPath("custom_metadata"), knownvalue.MapExact(map[string]knownvalue.Check{
			"fixture": knownvalue.StringExact("full"), "count": knownvalue.StringExact("3"), "nested": knownvalue.StringExact(`{"a":true}`),
		})),
		statecheck.ExpectKnownValue(full, itemPath("post_session_metadata"), knownvalue.StringExact(`{"duration":12.5,"tags":["x"]}`)),
		statecheck.ExpectKnownValue(full, itemPath("file"), knownvalue.ObjectExact(map[string]knownvalue.Check{
			"id": knownvalue.StringExact("file-full"), "filename": knownvalue.StringExact("full.wav"), "source": knownvalue.StringExact("live-stream"),
			"audio_duration": knownvalue.Float64Exact(2.5), "number_of_channels": knownvalue.Int64Exact(2),
		})),
		// request_params, every sub-object, as the service sent them.
		expectJSONValue(full, itemPath("request_params"), "wav/pcm", "encoding"),
		expectJSONValue(full, itemPath("request_params"), 16000.0, "sample_rate"),
		expectJSONValue(full, itemPath("request_params"), 0.05, "endpointing"),
		expectJSONValue(full, itemPath("request_params"), 5.0, "maximum_duration_without_endpointing"),
		expectJSONValue(full, itemPath("request_params"), map[string]any{"languages": []any{"en"}, "code_switching": false}, "language_config"),
		expectJSONValue(full, itemPath("request_params"), map[string]any{"audio_enhancer": true, "speech_threshold": 0.6}, "pre_processing"),
		expectJSONValue(full, itemPath("request_params"), map[string]any{"value": "Terraform", "intensity": 0.6, "pronunciations": []any{"terra form"}, "language": "en"},
			"realtime_processing", "custom_vocabulary_config", "vocabulary", 1),
		expectJSONValue(full, itemPath("request_params"), []any{"sequel"}, "realtime_processing", "custom_spelling_config", "spelling_dictionary", "SQL"),
		expectJSONValue(full, itemPath("request_params"), "a greeting", "realtime_processing", "translation_config", "context"),
		expectJSONValue(full, itemPath("request_params"), true, "realtime_processing", "sentiment_analysis"),
		expectJSONValue(full, itemPath("request_params"), map[string]any{"summarization": true, "chapterization": false, "summarization_config": map[string]any{"type": "concise"}}, "post_processing"),
		expectJSONValue(full, itemPath("request_params"), flagsJSON, "messages_config"),
		expectJSONValue(full, itemPath("request_params"), true, "callback"),
		expectJSONValue(full, itemPath("request_params"), callbackJSON, "callback_config"),
		// result: transcript without word timings, add-ons, messages.
		statecheck.ExpectKnownValue(full, itemPath("result", "metadata", "billing_time"), knownvalue.Float64Exact(3)),
		expectJSONValue(full, itemPath("result", "transcription", "utterances"), map[string]any{
			"start": 1.6, "end": 2.5, "confidence": 0.8, "channel": 1.0, "text": "Bye.", "language": "en", "speaker": 1.0,
		}, 1),
		expectJSONValue(full, itemPath("result", "transcription", "sentences"), []any{"Hello there.", "Bye."}),
		statecheck.ExpectKnownValue(full, itemPath("result", "transcription", "subtitles", "vtt"), knownvalue.StringExact("WEBVTT\n")),
		expectJSONValue(full, itemPath("result", "translation", "results"), "fr", 0, "language"),
		expectJSONValue(full, itemPath("result", "translation", "results"), "Bonjour. Au revoir.", 0, "full_transcript"),
		statecheck.ExpectKnownValue(full, itemPath("result", "summarization", "results"), knownvalue.StringExact("A short greeting.")),
		expectJSONValue(full, itemPath("result", "named_entity_recognition", "results"), "NAME", 0, "entity_type"),
		statecheck.ExpectKnownValue(full, itemPath("result", "sentiment_analysis", "error", "status_code"), knownvalue.Int64Exact(503)),
		statecheck.ExpectKnownValue(full, itemPath("result", "audio_to_llm"), knownvalue.Null()),
		statecheck.ExpectKnownValue(full, itemPath("result", "messages"), knownvalue.ListSizeExact(2)),
		// A bare queued job: absent fields are null, not empty.
		statecheck.ExpectKnownValue(bare, itemPath(), knownvalue.ObjectExact(map[string]knownvalue.Check{
			"id": knownvalue.StringExact("22222222-2222-4222-8222-222222222222"), "request_id": knownvalue.StringExact("req-bare"),
			"version": knownvalue.Int64Exact(2), "status": knownvalue.StringExact("queued"), "created_at": knownvalue.StringExact("2025-03-10T11:58:00Z"),
			"completed_at": knownvalue.Null(), "kind": knownvalue.StringExact("live"),
			"custom_metadata": knownvalue.MapExact(map[string]knownvalue.Check{"fixture": knownvalue.StringExact("bare")}),
			"error_code":      knownvalue.Null(), "post_session_metadata": knownvalue.Null(), "file": knownvalue.Null(),
			"request_params": knownvalue.Null(), "result": knownvalue.Null(),
		})),
		// A generated job matches what the fake server holds.
		statecheck.ExpectKnownValue(gen, itemPath("id"), knownvalue.StringExact(seeded.ID)),
		statecheck.ExpectKnownValue(gen, itemPath("result", "transcription", "full_transcript"), knownvalue.StringExact(seeded.Result.Transcription.FullTranscript)),
		expectJSONLength(gen, itemPath("result", "transcription", "utterances"), len(seeded.Result.Transcription.Utterances)),
		expectJSONValue(gen, itemPath("result", "transcription", "utterances"), nil, 0, "words"),
		statecheck.ExpectKnownValue(gen, itemPath("result", "messages"), knownvalue.ListSizeExact(len(seeded.Result.Messages))),
		expectJSONValue(gen, itemPath("request_params"), float64(*seeded.RequestParams.SampleRate), "sample_rate"),
		statecheck.ExpectKnownValue(gen, itemPath("file", "filename"), knownvalue.StringExact(*seeded.File.Filename)),
		statecheck.ExpectKnownValue(gen, itemPath("post_session_metadata"), knownvalue.StringExact("{}")),
		// Without include_transcript: what does not grow with the session.
		statecheck.ExpectKnownValue(summary, itemPath("result", "metadata", "billing_time"), knownvalue.Float64Exact(3)),
		statecheck.ExpectKnownValue(summary, itemPath("result", "transcription", "languages"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("en")})),
		statecheck.ExpectKnownValue(summary, itemPath("result", "summarization", "results"), knownvalue.StringExact("A short greeting.")),
		statecheck.ExpectKnownValue(summary, itemPath("result", "named_entity_recognition", "success"), knownvalue.Bool(true)),
		statecheck.ExpectKnownValue(summary, itemPath("result", "transcription", "full_transcript"), knownvalue.Null()),
		statecheck.ExpectKnownValue(summary, itemPath("result", "transcription", "utterances"), knownvalue.Null()),
		statecheck.ExpectKnownValue(summary, itemPath("result", "translation", "results"), knownvalue.Null()),
		statecheck.ExpectKnownValue(summary, itemPath("result", "named_entity_recognition", "results"), knownvalue.Null()),
		statecheck.ExpectKnownValue(summary, itemPath("result", "messages"), knownvalue.Null()),
		expectJSONValue(summary, itemPath("request_params"), 16000.0, "sample_rate"),
		// include_transcript = false is the default, not "set": the
		// transcript is left out as without it.
		statecheck.ExpectKnownValue(summaryOff, itemPath("result", "summarization", "results"), knownvalue.StringExact("A short greeting.")),
		statecheck.ExpectKnownValue(summaryOff, itemPath("result", "transcription", "full_transcript"), knownvalue.Null()),
		statecheck.ExpectKnownValue(summaryOff, itemPath("result", "transcription", "utterances"), knownvalue.Null()),
		statecheck.ExpectKnownValue(summaryOff, itemPath("result", "named_entity_recognition", "results"), knownvalue.Null()),
	}

	config := acctest.ProviderConfig(url) + fmt.Sprintf(`
data "transcription_live_jobs" "full" {
  custom_metadata    = { fixture = "full" }
  include_transcript = true
}

data "transcription_live_jobs" "full_summary" {
  custom_metadata = { fixture = "full" }
}

data "transcription_live_jobs" "full_transcript_off" {
  custom_metadata    = { fixture = "full" }
  include_transcript = false
}

data "transcription_live_jobs" "bare" {
  custom_metadata = { fixture = "bare" }
}

data "transcription_live_jobs" "generated" {
  status             = ["done"]
  offset             = %d
  limit              = 1
  include_transcript = true
}

output "first_id" {
  value = data.transcription_live_jobs.full.ids[0]
}
`, doneOffset(all, seeded.ID))

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:            config,
			ConfigStateChecks: checks,
			Check:             resource.TestCheckOutput("first_id", "11111111-1111-4111-8111-111111111111"),
		}},
	})
}

// diagnosticPattern matches the fragments in order, each allowing the line
// wrapping the CLI applies to diagnostics wherever it has a space.
func diagnosticPattern(fragments ...string) *regexp.Regexp {
	parts := make([]string, len(fragments))
	for i, f := range fragments {
		parts[i] = strings.Join(strings.Fields(regexp.QuoteMeta(f)), `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// itemPath is a path inside the first item. Each call builds a fresh path:
// tfjsonpath steps appended to a shared prefix could share one array.
func itemPath(steps ...any) tfjsonpath.Path {
	p := tfjsonpath.New("items").AtSliceIndex(0)
	for _, s := range steps {
		switch v := s.(type) {
		case string:
			p = p.AtMapKey(v)
		case int:
			p = p.AtSliceIndex(v)
		}
	}
	return p
}

// doneOffset is the position of id among the done jobs.
func doneOffset(all []client.LiveJob, id string) int {
	n := 0
	for _, j := range all {
		if j.Status != client.StatusDone {
			continue
		}
		if j.ID == id {
			return n
		}
		n++
	}
	panic("job " + id + " is not done")
}

// TestAccListingDataSources_invalidArguments: for each listing data source,
// each invalid argument is refused at plan time with a message naming the attribute and the rule,
// before any request, and so is the listing under zero data retention; a
// service error becomes a diagnostic with its status,
// message and request_id.
func TestAccListingDataSources_invalidArguments(t *testing.T) {
	for _, listing := range []struct{ name, what, endpoint string }{
		{"transcription_live_jobs", "live jobs", "GET /v2/live answers 403"},
		{"transcription_jobs", "pre-recorded jobs", "results reach only the jobs' callbacks"},
	} {
		t.Run(listing.name, func(t *testing.T) {
			fs, url := acctest.FakeServer(t, fakeserver.Options{Clock: fakeserver.NewManualClock(liveTestNow)})
			addLightLiveJobs(fs, 3)

			step := func(args string, wantError ...string) resource.TestStep {
				return resource.TestStep{
					Config:      acctest.ProviderConfig(url) + "data \"" + listing.name + "\" \"bad\" {\n" + args + "\n}\n",
					PlanOnly:    true,
					ExpectError: diagnosticPattern(wantError...),
				}
			}

			steps := []resource.TestStep{
				step(`offset = -1`, `Attribute offset value must be at least 0, got: -1`),
				step(`limit = 0`, `Attribute limit value must be at least 1, got: 0`),
				step(`limit = 1.5`, `Invalid Whole Number`, `Attribute limit must be a whole number, got: 1.5`),
				step(`status = ["done", "finished"]`, `Attribute status[1] value must be one of:`, `"queued"`, `got: "finished"`),
				step(`date = "2025-3-8"`, `Attribute date value must be a calendar day in the form YYYY-MM-DD`, `not written YYYY-MM-DD`),
				step(`date = "2023-02-29"`, `Attribute date value must be a calendar day`, `no such day in the calendar`),
				// Refused by the attributes' type, datetimetypes.RFC3339, and
				// also what Go's parser accepts (timetypes.RFC3339 would),
				// refused by RFC 3339 and the service.
				step(`after_date = "2025-03-06"`, `Invalid RFC3339 String Value`, `Attribute after_date value must be an RFC 3339 date-time`, `got "2025-03-06"`),
				step(`before_date = "2025-03-06T25:00:00Z"`, `Invalid RFC3339 String Value`, `Attribute before_date value must be an RFC 3339 date-time`, `not a real date and time`),
				step(`before_date = "2025-03-06T12:00:00+24:00"`, `Attribute before_date value must be an RFC 3339 date-time`, `offset is not a time of day`),
				step(`after_date = "2025-03-06T12:00:00,5Z"`, `Attribute after_date value must be an RFC 3339 date-time`, `not written`),
				step("after_date = \"2025-03-07T00:00:00Z\"\nbefore_date = \"2025-03-07T01:00:00+01:00\"", `Attribute after_date must be earlier than before_date`),
				step("date = \"2025-03-06\"\nafter_date = \"2025-03-07T00:00:00Z\"", `Attribute date is the UTC day 2025-03-06, which ends at or before after_date = "2025-03-07T00:00:00Z"`, `always be empty`),
				step("date = \"2025-03-07\"\nbefore_date = \"2025-03-07T00:30:00+01:00\"", `Attribute date is the UTC day 2025-03-07, which begins at or after before_date`),
				step(`custom_metadata = { "team[x]" = "a" }`, `Attribute custom_metadata["team[x]"] key must not be empty or contain square brackets`),
				step(`status = ["done", null]`, `Null element`, `Attribute status must not hold null, and its element 1 is null`),
				step(`custom_metadata = { team = null }`, `Null element`, `Attribute custom_metadata must not hold null, and the value of "team" is null`),
				step(`timeouts = { read = "0s" }`, `Timeout must be greater than zero`, `Attribute timeouts.read is "0s"`),
				step(`timeouts = { read = "20 minutes" }`, `Invalid duration`, `Attribute timeouts.read value must be a Go duration greater than zero`),
				{
					// The service discloses nothing under zero data retention.
					Config:      acctest.ProviderConfig(url, "zero_data_retention = true") + "data \"" + listing.name + "\" \"private\" {}\n",
					PlanOnly:    true,
					ExpectError: diagnosticPattern("Cannot list "+listing.what+" under zero data retention", "zero_data_retention = true", listing.endpoint),
				},
				{
					PreConfig: func() {
						if n := len(fs.Requests()); n != 0 {
							t.Errorf("invalid arguments reached the service: %d requests", n)
						}
					},
					Config:      strings.Replace(acctest.ProviderConfig(url), acctest.APIKey, "not-the-key", 1) + "data \"" + listing.name + "\" \"any\" {}\n",
					PlanOnly:    true,
					ExpectError: diagnosticPattern("Cannot list "+listing.what, "status 401", "missing or invalid API key", "Check the provider's api_key", "request_id:"),
				},
			}
			resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
		})
	}
}

// A listing that does not end within timeouts.read fails saying so, with how
// far it got, and with the service's last answer; each listing.
func TestListingDataSources_timeoutsRead(t *testing.T) {
	for _, listing := range []struct{ name, what string }{
		{"transcription_live_jobs", "live jobs"},
		{"transcription_jobs", "pre-recorded jobs"},
	} {
		t.Run(listing.name, func(t *testing.T) {
			fs, url := acctest.FakeServer(t, fakeserver.Options{})
			h := newProtoHarnessAt(t, fs, url)
			fs.SetFaults(fakeserver.Faults{ServerErrorRatio: 1, ServerErrorStatus: http.StatusServiceUnavailable})
			typ := h.dataSourceType(listing.name)
			config := dynamicValue(t, typ, objectValue(typ, map[string]tftypes.Value{
				"timeouts": tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"read": tftypes.String}},
					map[string]tftypes.Value{"read": tftypes.NewValue(tftypes.String, "1s")}),
			}))
			resp, err := h.server.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{TypeName: listing.name, Config: &config})
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != "Timed out listing "+listing.what {
				t.Fatalf("diagnostics %v, want the listing's timeout", diagnosticSummaries(resp.Diagnostics))
			}
			for _, want := range []string{"within 1s (timeouts.read), after 0 pages and 0 jobs", "the service's last answer was GET /v2/", "503 Service Unavailable", "Raise timeouts.read"} {
				if d := resp.Diagnostics[0].Detail; !strings.Contains(d, want) {
					t.Errorf("detail %q, want it to hold %q", d, want)
				}
			}
		})
	}
}

// TestFlattenLiveJob_requestParamsAsSent: an item's request_params is the
// JSON the service sent, less callback_config.url: a vocabulary entry sent
// as a bare string stays one, an empty list stays, and a field the client's
// types do not know is kept, where they came out re-encoded from those
// types (entries as objects, empty lists and unknown fields dropped).
func TestFlattenLiveJob_requestParamsAsSent(t *testing.T) {
	const params = `{"encoding": "wav/pcm", "sample_rate": 16000, "language_config": {"languages": [], "code_switching": false},
		"realtime_processing": {"custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": ["Kubernetes", {"value": "Terraform", "intensity": 0.6}]}},
		"audio_enhancer_model": "v2",
		"callback": true, "callback_config": {"url": "https://hooks.example.com/live?token=s3cr3t", "receive_errors": true}}`
	var job client.LiveJob
	body := `{"id": "11111111-1111-4111-8111-111111111111", "request_id": "r", "version": 2, "status": "done", "created_at": "2025-03-10T12:00:00Z", "kind": "live",
		"request_params": ` + params + `}`
	if err := json.Unmarshal([]byte(body), &job); err != nil {
		t.Fatal(err)
	}
	f := &flattener{}
	o := f.liveJob(context.Background(), &job, summaryContent)
	if f.diags.HasError() {
		t.Fatal(f.diags)
	}
	var got, want map[string]any
	if err := json.Unmarshal([]byte(at(t, o, "request_params").(jsonText).ValueString()), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(params), &want); err != nil {
		t.Fatal(err)
	}
	delete(want["callback_config"].(map[string]any), "url")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("request_params\n%v\nwant what the service sent, without callback_config.url\n%v", got, want)
	}
}
