package client_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// listingTrials is how many listings TestEachLivePage_listingMovesUnderTheReader
// follows, each with its own jobs, page size and moves.
const listingTrials = 400

// A listing that moves under its reader (after each page, any number of
// jobs anywhere in it leave, and fewer new ones, newest, arrive than a
// page holds less one) is still followed exactly: no job is handed twice,
// the jobs of the listing as it began come in its order, and every one of
// them that never left is handed (all of them within maxItems). Jobs that
// arrived or left meanwhile may come or not. (With more arrivals the page
// asked for at the last item received may hold only newer jobs, and offset
// paging cannot tell that from jobs leaving; the listings' pages of 100
// leave that to bursts of 99 new sessions between two requests.)
func TestEachLivePage_listingMovesUnderTheReader(t *testing.T) {
	ctx := context.Background()
	for trial := range listingTrials {
		rng := rand.New(rand.NewPCG(20261125, uint64(trial)))
		jobs, pageSize := 1+rng.IntN(60), 2+rng.IntN(11)
		maxItems := 0
		if rng.IntN(4) == 0 {
			maxItems = 1 + rng.IntN(jobs)
		}
		// Records of a few fields: the listing's order is what counts.
		fs := fakeserver.New(fakeserver.Options{APIKey: testKey})
		created := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
		serial := 0
		add := func() string {
			serial++
			created = created.Add(time.Second) // each newer than the last
			id := fmt.Sprintf("00000000-0000-4000-8000-%012d", serial)
			fs.AddLiveJob(client.LiveJob{JobCommon: client.JobCommon{
				ID: id, RequestID: "req-" + id, Version: 2, Status: client.StatusQueued,
				CreatedAt: created.Format("2006-01-02T15:04:05.000Z07:00"), Kind: client.KindLive,
			}})
			return id
		}
		position := map[string]int{}
		listed := make([]string, jobs) // as the service lists them now: newest first
		for i := range jobs {
			id := add()
			position[id], listed[jobs-1-i] = jobs-1-i, id
		}
		began := slices.Clone(listed)
		left := map[string]bool{}
		var moves []string
		var mu sync.Mutex
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			fs.ServeHTTP(w, r)
			moves = append(moves, "GET "+r.URL.RawQuery)
			// The listing moves before the next page is served.
			if n := rng.IntN(2 * pageSize); n > 0 && len(listed) > 0 && rng.IntN(2) == 0 {
				for range min(n, len(listed)) {
					k := rng.IntN(len(listed))
					fs.RemoveLiveJob(listed[k])
					left[listed[k]] = true
					if p, ok := position[listed[k]]; ok {
						moves = append(moves, fmt.Sprintf("-%d", p))
					} else {
						moves = append(moves, "-new")
					}
					listed = slices.Delete(listed, k, k+1)
				}
			}
			for range rng.IntN(pageSize - 1) { // at most pageSize-2
				id := add()
				listed = slices.Insert(listed, 0, id)
				moves = append(moves, "+1")
			}
		}))
		c := newClient(t, srv.URL, testKey)

		var handed []string
		_, err := c.EachLivePage(ctx, client.ListOptions{}, maxItems, pageSize, client.WithoutUtterances, func(items []client.LiveJob) error {
			for _, j := range items {
				handed = append(handed, j.ID)
			}
			return nil
		})
		srv.Close()
		fs.Close()
		label := fmt.Sprintf("trial %d: %d jobs, pages of %d, at most %d, moves %v", trial, jobs, pageSize, maxItems, moves)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		seen, last := map[string]bool{}, -1
		for _, id := range handed {
			if seen[id] {
				t.Fatalf("%s: job %s handed twice\n%v", label, id, handed)
			}
			seen[id] = true
			if p, ok := position[id]; ok {
				if p < last {
					t.Fatalf("%s: job at %d handed after the job at %d\n%v", label, p, last, handed)
				}
				last = p
			}
		}
		if maxItems > 0 && len(handed) > maxItems {
			t.Fatalf("%s: %d jobs handed, at most %d wanted", label, len(handed), maxItems)
		}
		if maxItems == 0 || len(handed) < maxItems {
			for _, id := range began {
				if !left[id] && !seen[id] {
					t.Fatalf("%s: job at %d, listed throughout, was never handed\n%v", label, position[id], handed)
				}
			}
		}
	}
}
