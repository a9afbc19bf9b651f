package fakeserver

import (
	"net/http"
	"slices"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// fixtureIDs lists the ids of the liveFixtures jobs among items, leaving out
// the seeded ones.
func fixtureIDs(items []client.LiveJob) string {
	return liveIDs(slices.DeleteFunc(slices.Clone(items), func(j client.LiveJob) bool { return len(j.ID) > 1 }))
}

func TestRemoveLiveJob(t *testing.T) {
	h := newHarness(t, Options{LiveJobs: 3})
	liveFixtures(h)
	seeded := h.livePage("?limit=100").Items
	if len(seeded) != 9 {
		t.Fatalf("%d live jobs, want 9", len(seeded))
	}
	var seededID string
	for _, j := range seeded {
		if len(j.ID) > 1 { // the fixtures have one-letter ids
			seededID = j.ID
			break
		}
	}

	for _, id := range []string{"d", seededID} {
		if !h.srv.RemoveLiveJob(id) {
			t.Fatalf("RemoveLiveJob(%q) = false for an existing job", id)
		}
		if h.srv.RemoveLiveJob(id) {
			t.Fatalf("RemoveLiveJob(%q) = true for a job already removed", id)
		}
		if resp := h.get("/v2/transcription/" + id); resp.status != http.StatusNotFound {
			t.Fatalf("GET /v2/transcription/%s after removal: %d, want 404", id, resp.status)
		}
	}
	if got := fixtureIDs(h.livePage("?date=2025-03-13").Items); got != "f,c" {
		t.Errorf("listing after removing d: %s, want f,c (the others in order)", got)
	}
	if n := len(h.livePage("?limit=100").Items); n != 7 {
		t.Errorf("%d live jobs after two removals, want 7", n)
	}

	// A job added again after its removal is listed again.
	h.srv.AddLiveJob(liveFixture("d", "2025-03-13T12:00:00.000Z", "processing", nil))
	if got := fixtureIDs(h.livePage("?date=2025-03-13").Items); got != "d,f,c" {
		t.Errorf("listing after adding d back: %s, want d,f,c", got)
	}
}
