package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// The in-process tests of the transcription_job list resource's stream:
// the provider behind its protocol-6 server, called as Terraform calls
// ListResource, against a fake server holding more jobs than one page
// (listingPageSize) through a handler of the test's.

// newJobListHarness serves a fake server holding jobs pre-recorded jobs
// through wrap (nil: as it is) to a configured provider.
func newJobListHarness(tb testing.TB, jobs int, wrap func(fs *fakeserver.Server) http.Handler) *protoHarness {
	tb.Helper()
	fs := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey})
	var handler http.Handler = fs
	if wrap != nil {
		handler = wrap(fs)
	}
	srv := httptest.NewServer(handler)
	tb.Cleanup(func() { srv.Close(); fs.Close() })
	seedPreRecordedJobs(tb, srv.URL, jobs)
	fs.ResetRequests()
	return newProtoHarnessAt(tb, fs, srv.URL)
}

// seedPreRecordedJobs creates n jobs through the API, without waiting for
// them: the listing shows them whatever their status.
func seedPreRecordedJobs(tb testing.TB, baseURL string, n int) {
	tb.Helper()
	c, err := client.New(client.Config{BaseURL: baseURL, APIKey: acctest.APIKey, UserAgent: "other-application/1.0"})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		if _, err := c.CreatePreRecorded(context.Background(), &client.InitTranscriptionRequest{AudioURL: fmt.Sprintf("https://example.com/listed-%d.wav", i)}); err != nil {
			tb.Fatal(err)
		}
	}
}

// listJobs calls ListResource for transcription_job with no filter, as
// terraform query does with the limit given, and returns its results.
func (h *protoHarness) listJobs(ctx context.Context, limit int64) iter.Seq[tfprotov6.ListResourceResult] {
	h.tb.Helper()
	return h.listJobResources(ctx, limit, false)
}

// listJobResources is listJobs with include_resource as given: Terraform
// asks for each result's resource object with -generate-config-out or
// include_resource = true.
func (h *protoHarness) listJobResources(ctx context.Context, limit int64, includeResource bool) iter.Seq[tfprotov6.ListResourceResult] {
	h.tb.Helper()
	server, ok := h.server.(tfprotov6.ListResourceServer)
	if !ok {
		h.tb.Fatal("the provider's server does not serve list resources")
	}
	schema, ok := h.schemas.ListResourceSchemas[jobResourceTypeName]
	if !ok {
		h.tb.Fatalf("no list resource %s", jobResourceTypeName)
	}
	typ, ok := schema.ValueType().(tftypes.Object)
	if !ok {
		h.tb.Fatalf("list resource %s's configuration is not an object", jobResourceTypeName)
	}
	config := dynamicValue(h.tb, typ, objectValue(typ, nil))
	stream, err := server.ListResource(ctx, &tfprotov6.ListResourceRequest{TypeName: jobResourceTypeName, Config: &config, Limit: limit, IncludeResource: includeResource})
	if err != nil {
		h.tb.Fatal(err)
	}
	return stream.Results
}

// secondPageOffset is where the second page starts: at the last item of
// the first, which tells where the listing went on (client.EachPreRecordedRecordPage).
const secondPageOffset = listingPageSize - 1

// listedPageOffsets are the offsets of the pages of GET /v2/pre-recorded
// the fake server was asked for, in order (0 for a request without one).
func listedPageOffsets(tb testing.TB, fs *fakeserver.Server) []int {
	tb.Helper()
	var offsets []int
	for _, r := range fs.Requests() {
		if r.Method != http.MethodGet || r.Path != "/v2/pre-recorded" {
			continue
		}
		offset := 0
		q, err := url.ParseQuery(r.RawQuery)
		if v := q.Get("offset"); err == nil && v != "" {
			offset, err = strconv.Atoi(v)
		}
		if err != nil {
			tb.Fatalf("offset in %q: %v", r.RawQuery, err)
		}
		offsets = append(offsets, offset)
	}
	return offsets
}

// The first job is pushed while the second page is still on its way: a
// handler holds page 2's answer until the test has seen a result. Before,
// List read every page before pushing anything.
func TestJobList_firstResultBeforeTheSecondPageArrives(t *testing.T) {
	firstResult := make(chan struct{})
	heldUntilFirstResult := make(chan bool, 1) // whether page 2 waited for the first result
	h := newJobListHarness(t, listingPageSize+50, func(fs *fakeserver.Server) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/v2/pre-recorded" && r.URL.Query().Get("offset") == strconv.Itoa(secondPageOffset) {
				select {
				case <-firstResult:
					heldUntilFirstResult <- true
				case <-time.After(10 * time.Second): // the old List waits for this answer before it returns a stream
					heldUntilFirstResult <- false
				}
			}
			fs.ServeHTTP(w, r)
		})
	})

	n := 0
	for result := range h.listJobs(context.Background(), 1000) {
		if errs := errorsAmong(result.Diagnostics); len(errs) > 0 {
			t.Fatalf("result %d: %s: %s", n, errs[0].Summary, errs[0].Detail)
		}
		if n == 0 {
			close(firstResult)
		}
		n++
	}
	if n != listingPageSize+50 {
		t.Fatalf("%d results, want %d", n, listingPageSize+50)
	}
	if !<-heldUntilFirstResult {
		t.Fatal("the second page was answered before the first result was pushed: the listing fetched every page first")
	}
}

// When Terraform takes no more results (push returns false: its limit, an
// interruption), no page is asked for past the one the last result came
// from and the one asked for in advance.
func TestJobList_stopsAskingForPagesWhenTerraformStopsTakingResults(t *testing.T) {
	for _, tc := range []struct {
		take        int
		wantOffsets []int // the pages the results taken come from
		mayAlsoAsk  int   // the page asked for in advance
	}{
		{take: 1, wantOffsets: []int{0}, mayAlsoAsk: secondPageOffset},
		{take: listingPageSize + 50, wantOffsets: []int{0, secondPageOffset}, mayAlsoAsk: 2 * secondPageOffset}, // 99 new items a page after the first
	} {
		t.Run(strconv.Itoa(tc.take), func(t *testing.T) {
			// A harness of its own: the page asked for in advance by
			// another run may reach the server after it stopped.
			h := newJobListHarness(t, 3*listingPageSize+50, nil)
			taken := 0
			for result := range h.listJobs(context.Background(), 1000) {
				if errs := errorsAmong(result.Diagnostics); len(errs) > 0 {
					t.Fatalf("result %d: %s: %s", taken, errs[0].Summary, errs[0].Detail)
				}
				if taken++; taken == tc.take {
					break
				}
			}
			offsets := listedPageOffsets(t, h.fake)
			if len(offsets) < len(tc.wantOffsets) || !slices.Equal(offsets[:len(tc.wantOffsets)], tc.wantOffsets) {
				t.Fatalf("pages at offsets %v asked for, want %v first", offsets, tc.wantOffsets)
			}
			for _, extra := range offsets[len(tc.wantOffsets):] {
				if extra != tc.mayAlsoAsk {
					t.Fatalf("pages at offsets %v asked for after %d results: at most %v and the next one (%d) in advance",
						offsets, tc.take, tc.wantOffsets, tc.mayAlsoAsk)
				}
			}
		})
	}
}

// An interruption (the request's context cancelled) stops the fetching: no
// page after the one asked for in advance is asked for, and the stream ends
// with the interruption.
func TestJobList_interruptionStopsTheFetching(t *testing.T) {
	h := newJobListHarness(t, 3*listingPageSize+50, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	var last tfprotov6.ListResourceResult
	for result := range h.listJobs(ctx, 1000) {
		if n == 0 {
			cancel()
		}
		n++
		last = result
	}
	if offsets := listedPageOffsets(t, h.fake); slices.ContainsFunc(offsets, func(o int) bool { return o > listingPageSize }) {
		t.Fatalf("pages at offsets %v asked for after an interruption during the first page's results", offsets)
	}
	// The page asked for in advance may have come before the interruption.
	errs := errorsAmong(last.Diagnostics)
	if n > 2*listingPageSize+1 || len(errs) != 1 || !strings.Contains(errs[0].Detail, "interrupted") {
		t.Fatalf("%d results, the last with errors %v: want at most two pages' and the interruption", n, errs)
	}
}

// A page that fails after results were pushed ends the stream with a
// result holding only the error diagnostic, after those results.
func TestJobList_errorOnALaterPageFollowsTheEarlierResults(t *testing.T) {
	h := newJobListHarness(t, 2*listingPageSize+50, func(fs *fakeserver.Server) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/v2/pre-recorded" && r.URL.Query().Get("offset") == strconv.Itoa(secondPageOffset) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_ = json.NewEncoder(w).Encode(client.ErrorBody{StatusCode: http.StatusBadRequest, Path: r.URL.Path, Message: "offset past the listing"})
				return
			}
			fs.ServeHTTP(w, r)
		})
	})
	var results []tfprotov6.ListResourceResult
	for result := range h.listJobs(context.Background(), 1000) {
		results = append(results, result)
	}
	if len(results) != listingPageSize+1 {
		t.Fatalf("%d results, want the first page's %d and the error", len(results), listingPageSize)
	}
	for i, result := range results[:listingPageSize] {
		if result.Identity == nil || len(result.Diagnostics) > 0 {
			t.Fatalf("result %d: identity %v, diagnostics %v", i, result.Identity, result.Diagnostics)
		}
	}
	last := results[listingPageSize]
	errs := errorsAmong(last.Diagnostics)
	if last.Identity != nil || len(errs) != 1 || errs[0].Summary != "Cannot list transcription jobs" || !strings.Contains(errs[0].Detail, "offset past the listing") {
		t.Fatalf("last result: identity %v, errors %v; want only the error of page 2", last.Identity, errs)
	}
}

// Each listed job's identity is its id, newest first as the service lists
// them: what terraform query's import by identity asks for.
func TestJobList_identityIsTheJobID(t *testing.T) {
	h := newJobListHarness(t, 3, nil)
	page, err := client.New(client.Config{BaseURL: h.url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	listed, err := page.ListPreRecorded(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got int
	for result := range h.listJobs(context.Background(), 10) {
		if got >= len(listed.Items) {
			t.Fatalf("more results than the %d jobs", len(listed.Items))
		}
		expectIdentityID(t, fmt.Sprintf("result %d", got), result.Identity, tftypes.NewValue(tftypes.String, listed.Items[got].ID))
		got++
	}
	if got != 3 {
		t.Errorf("%d results, want 3", got)
	}
}

// A listing under zero data retention is refused before any request: the
// service discloses no job of such an account, and its 403 would read as
// an outage.
func TestJobList_refusedUnderZeroDataRetention(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: true})
	server, schemas := startConfiguredProvider(t, url, map[string]tftypes.Value{"zero_data_retention": tftypes.NewValue(tftypes.Bool, true)})
	h := &protoHarness{tb: t, server: server, schemas: schemas, fake: fs, url: url}
	results := slices.Collect(h.listJobs(context.Background(), 10))
	if len(results) != 1 {
		t.Fatalf("%d results, want one holding the refusal", len(results))
	}
	if errs := errorsAmong(results[0].Diagnostics); len(errs) != 1 || errs[0].Summary != "Cannot list jobs under zero data retention" {
		t.Fatalf("errors %v, want the refusal under zero data retention", diagnosticSummaries(results[0].Diagnostics))
	}
	if offsets := listedPageOffsets(t, fs); len(offsets) != 0 {
		t.Errorf("pages at offsets %v asked for under zero data retention", offsets)
	}
}

// A provider whose api_key is known only after apply has no client: the
// listing says why it cannot reach the service, as the data sources do,
// instead of calling a client it does not have.
func TestJobList_providerConfigurationPending(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	server, schemas := startConfiguredProvider(t, url, map[string]tftypes.Value{"api_key": unknownOf(tftypes.String)})
	h := &protoHarness{tb: t, server: server, schemas: schemas, fake: fs, url: url}
	results := slices.Collect(h.listJobs(context.Background(), 10))
	if len(results) != 1 {
		t.Fatalf("%d results, want one holding the error", len(results))
	}
	errs := errorsAmong(results[0].Diagnostics)
	if len(errs) != 1 || errs[0].Summary != "Provider configuration known only after apply" || !strings.Contains(errs[0].Detail, "(api_key), so the transcription_job list resource cannot reach the service during terraform query, which applies nothing") ||
		strings.Contains(errs[0].Detail, "depends_on") {
		t.Fatalf("errors %v, want the one saying api_key is known only after apply", diagnosticSummaries(results[0].Diagnostics))
	}
}

// A result carries the job's resource object only when Terraform asks for
// it (include_resource, -generate-config-out), and then with the job's own
// result_url, as an import builds it: the acceptance tests check only the
// callback URLs of that object.
func TestJobList_resourceObjectOnlyWhenAsked(t *testing.T) {
	h := newJobListHarness(t, 2, nil)
	c, err := client.New(client.Config{BaseURL: h.url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	jobType := h.resourceType(jobResourceTypeName)
	for _, include := range []bool{false, true} {
		n := 0
		for result := range h.listJobResources(context.Background(), 10, include) {
			n++
			if errs := errorsAmong(result.Diagnostics); len(errs) > 0 {
				t.Fatalf("include_resource %v: %s: %s", include, errs[0].Summary, errs[0].Detail)
			}
			if !include {
				if result.Resource != nil {
					t.Errorf("a result of a listing without include_resource holds a resource object")
				}
				continue
			}
			if result.Resource == nil {
				t.Fatal("a result of a listing with include_resource holds no resource object")
			}
			state, err := result.Resource.Unmarshal(jobType)
			if err != nil {
				t.Fatal(err)
			}
			var attrs map[string]tftypes.Value
			var id, resultURL string
			if err := state.As(&attrs); err != nil {
				t.Fatal(err)
			}
			if err := attrs["id"].As(&id); err != nil {
				t.Fatal(err)
			}
			if err := attrs["result_url"].As(&resultURL); err != nil {
				t.Fatal(err)
			}
			if want := c.ResultURL(id); resultURL != want {
				t.Errorf("job %s: result_url %q, want %q", id, resultURL, want)
			}
		}
		if n != 2 {
			t.Errorf("include_resource %v: %d results, want 2", include, n)
		}
	}
}

// A job whose record the provider cannot build a resource from (no
// request_params, or ones it cannot read) leaves only itself out, with a
// warning naming it: the other jobs are listed, with their resource
// objects. Without include_resource, request_params are not read, and the
// job is listed. (Terraform shows no result of a listing one of whose
// results holds an error: one odd job hid every other.)
func TestJobList_oddRecordLeavesOnlyItselfOut(t *testing.T) {
	for name, odd := range map[string]string{
		"no request_params":         `null`,
		"unreadable request_params": `{"audio_url":"https://example.com/odd.wav","model":3}`,
	} {
		t.Run(name, func(t *testing.T) {
			var altered atomic.Pointer[string]
			h := newJobListHarness(t, 3, func(fs *fakeserver.Server) http.Handler { return withOddListedJob(fs, odd, &altered) })
			for _, include := range []bool{false, true} {
				var listed, warned int
				oddID := ""
				for result := range h.listJobResources(context.Background(), 10, include) {
					if id := altered.Load(); id != nil {
						oddID = *id
					}
					if errs := errorsAmong(result.Diagnostics); len(errs) > 0 {
						t.Fatalf("include_resource %v: %s: %s", include, errs[0].Summary, errs[0].Detail)
					}
					if result.Identity == nil {
						if hasWarning(result.Diagnostics, "A listed job is left out", "Job "+oddID+", listed-") {
							warned++
						}
						continue
					}
					listed++
					if include && result.Resource == nil {
						t.Errorf("include_resource: a listed job has no resource object")
					}
				}
				want, wantWarned := 3, 0
				if include {
					want, wantWarned = 2, 1
				}
				if listed != want || warned != wantWarned {
					t.Errorf("include_resource %v: %d jobs listed and %d warnings naming %s, want %d and %d", include, listed, warned, oddID, want, wantWarned)
				}
			}
		})
	}
}

// withOddListedJob serves fs, with the second job of each page of the
// pre-recorded listing given request_params odd (its id into altered: the
// handler serves requests concurrently).
func withOddListedJob(fs *fakeserver.Server, odd string, altered *atomic.Pointer[string]) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/v2/pre-recorded" {
			fs.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		fs.ServeHTTP(rec, r)
		var page map[string]json.RawMessage
		var items []map[string]json.RawMessage
		if json.Unmarshal(rec.Body.Bytes(), &page) != nil || json.Unmarshal(page["items"], &items) != nil || len(items) < 2 {
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
			return
		}
		items[1]["request_params"] = json.RawMessage(odd)
		var id string
		_ = json.Unmarshal(items[1]["id"], &id)
		altered.Store(&id)
		page["items"], _ = json.Marshal(items)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(page)
	})
}

// A listed job is named for people by its file's name, else its id, with
// its status and creation date: what terraform query prints of each.
func TestJobDisplayName(t *testing.T) {
	const id = "6f1c1a2e-0000-4000-8000-000000000001"
	job := func(file *client.FileInfo) *client.JobCommon {
		return &client.JobCommon{ID: id, Status: client.StatusDone, CreatedAt: "2026-05-04T10:00:00Z", File: file}
	}
	for name, tc := range map[string]struct {
		job  *client.JobCommon
		want string
	}{
		"file name":       {job(&client.FileInfo{Filename: ptr("meeting.wav")}), "meeting.wav (done, 2026-05-04T10:00:00Z)"},
		"no file yet":     {job(nil), id + " (done, 2026-05-04T10:00:00Z)"},
		"file, no name":   {job(&client.FileInfo{}), id + " (done, 2026-05-04T10:00:00Z)"},
		"empty file name": {job(&client.FileInfo{Filename: ptr("")}), id + " (done, 2026-05-04T10:00:00Z)"},
		"not ASCII":       {job(&client.FileInfo{Filename: ptr("réunion 会議.wav")}), "réunion 会議.wav (done, 2026-05-04T10:00:00Z)"},
		// A file name is its creator's: it cannot forge a line of terraform
		// query's output, or send the terminal escape sequences.
		"a new line":               {job(&client.FileInfo{Filename: ptr("a.wav\nlist.transcription_job.k   id=fake")}), "a.wav list.transcription_job.k   id=fake (done, 2026-05-04T10:00:00Z)"},
		"an escape sequence":       {job(&client.FileInfo{Filename: ptr("\x1b[31mred\x1b[0m.wav")}), " [31mred [0m.wav (done, 2026-05-04T10:00:00Z)"},
		"a bidirectional override": {job(&client.FileInfo{Filename: ptr("evil\u202ev.wav")}), "evil v.wav (done, 2026-05-04T10:00:00Z)"},
		// Bounded as the service's texts are, the name alone.
		"a long name":                {job(&client.FileInfo{Filename: ptr(strings.Repeat("é", 600))}), strings.Repeat("é", 256) + "… (done, 2026-05-04T10:00:00Z)"},
		"a line separator and a tag": {job(&client.FileInfo{Filename: ptr("a\u2028b\U000E0041.wav")}), "a b .wav (done, 2026-05-04T10:00:00Z)"},
	} {
		if got := jobDisplayName(tc.job); got != tc.want {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
}

// No more results than the query's limit are pushed, and no more jobs than
// that are asked of the service: Terraform's limit bounds the listing, not
// only what Terraform keeps of it.
func TestJobList_noMoreThanTheLimit(t *testing.T) {
	h := newJobListHarness(t, 5, nil)
	n := 0
	for result := range h.listJobs(context.Background(), 2) {
		if errs := errorsAmong(result.Diagnostics); len(errs) > 0 {
			t.Fatalf("result %d: %s: %s", n, errs[0].Summary, errs[0].Detail)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d results, want the limit's 2", n)
	}
	for _, r := range h.fake.Requests() {
		if r.Method != http.MethodGet || r.Path != "/v2/pre-recorded" {
			continue
		}
		if q, err := url.ParseQuery(r.RawQuery); err != nil || q.Get("limit") != "2" {
			t.Errorf("page asked for with %q, want limit=2", r.RawQuery)
		}
	}
}
