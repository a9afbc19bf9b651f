package fakeserver

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// TestTranscriptionsListing: GET /v2/transcription, where page links lead,
// lists the jobs of the kind it is given, or of both kinds merged newest
// first, with the other listings' filters; its own links keep the kind
// left out.
func TestTranscriptionsListing(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: time.Minute})
	liveFixtures(h) // a to f, from 2025-03-12 to 2025-03-14T09:00
	h.srv.AddLiveJob(liveFixture("g", "2025-03-14T10:00:00.000Z", "done", nil))
	names := map[string]string{}
	names[h.create(`{"audio_url":"https://example.com/p1.wav"}`).ID] = "p1" // at testEpoch, 09:26:53
	h.clock.Advance(2 * time.Hour)
	names[h.create(`{"audio_url":"https://example.com/p2.wav"}`).ID] = "p2" // 11:26:53
	h.clock.Advance(time.Hour)                                              // both done
	listed := func(items []client.LiveJob) string {
		out := make([]string, len(items))
		for i, j := range items {
			out[i] = j.ID
			if n, ok := names[j.ID]; ok {
				if j.Kind != client.KindPreRecorded {
					t.Errorf("%s listed as %q", n, j.Kind)
				}
				out[i] = n
			} else if j.Kind != client.KindLive {
				t.Errorf("%s listed as %q", j.ID, j.Kind)
			}
		}
		return strings.Join(out, ",")
	}
	for _, c := range []struct{ query, want string }{
		{"", "p2,g,p1,e,d,f,c,b,a"},
		{"?kind=live", "g,e,d,f,c,b,a"},
		{"?kind=pre-recorded", "p2,p1"},
		{"?kind=pre-recorded&status=processing", ""},
		{"?status=done&date=2025-03-14", "p2,g,p1"},
		{"?custom_metadata%5Bteam%5D=alpha", "e,c,a"},
		{"?offset=1&limit=3", "g,p1,e"},
	} {
		if got := listed(pageAt[client.LiveJob](h, "/v2/transcription"+c.query).Items); got != c.want {
			t.Errorf("GET /v2/transcription%s: %q, want %q", c.query, got, c.want)
		}
	}

	// Following the links of a listing of both kinds walks them all once.
	var walked []string
	link := "/v2/transcription?status=done&limit=2"
	for link != "" {
		p := pageAt[client.LiveJob](h, link)
		walked = append(walked, listed(p.Items))
		link = ""
		if p.Next != nil {
			link = *p.Next
			if strings.Contains(link, "kind=") || !strings.HasPrefix(link, h.url+"/v2/transcription?status=done&offset=") {
				t.Fatalf("next link %q", link)
			}
		}
	}
	if got, want := strings.Join(walked, " | "), "p2,g | p1,f | c,a"; got != want {
		t.Errorf("pages %q, want %q", got, want)
	}

	// The pre-recorded records are those GET /v2/pre-recorded lists.
	pre := pageAt[client.PreRecordedJob](h, "/v2/transcription?kind=pre-recorded")
	if got, want := string(mustJSON(t, pre.Items)), string(mustJSON(t, h.preRecordedPage("").Items)); got != want {
		t.Errorf("listed %s\nwant %s", got, want)
	}
}

// The kind is refused when it is none of the two, given twice, or given to
// a listing of one kind.
func TestTranscriptionsListingRefusesABadKind(t *testing.T) {
	h := newHarness(t, Options{})
	for _, c := range []struct{ path, problem string }{
		{"/v2/transcription?kind=batch", `kind must be one of: pre-recorded, live (got "batch")`},
		{"/v2/transcription?kind=live&kind=pre-recorded", "kind must be given at most once"},
		{"/v2/live?kind=live", `unknown query parameter "kind"`},
		{"/v2/pre-recorded?kind=pre-recorded", `unknown query parameter "kind"`},
	} {
		path, _, _ := strings.Cut(c.path, "?")
		e := requireError(t, h.get(c.path), http.StatusBadRequest, path)
		if !strings.Contains(strings.Join(e.ValidationErrors, "\n"), c.problem) {
			t.Errorf("%s: %q, want %q", c.path, e.ValidationErrors, c.problem)
		}
	}
}
