package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// EachLivePage hands the pages one at a time, in the listing's order, stops
// at maxItems, and stops on the first error of its callback.
func TestEachLivePage(t *testing.T) {
	_, c, _ := newFake(t, fakeserver.Options{LiveJobs: 45})
	ctx := context.Background()
	all, _, err := c.ListAllLive(ctx, client.ListOptions{}, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		maxItems  int
		wantSizes []int
	}{
		// Each page after the first starts at the last item received.
		{0, []int{10, 9, 9, 9, 8}},
		{23, []int{10, 9, 4}},
		{10, []int{10}},
	} {
		var sizes []int
		var ids []string
		pages, err := c.EachLivePage(ctx, client.ListOptions{}, tc.maxItems, 10, client.WithoutUtterances, func(items []client.LiveJob) error {
			sizes = append(sizes, len(items))
			for _, j := range items {
				ids = append(ids, j.ID)
			}
			return nil
		})
		if err != nil || pages != len(tc.wantSizes) {
			t.Fatalf("maxItems %d: %d pages, %v", tc.maxItems, pages, err)
		}
		if len(sizes) != len(tc.wantSizes) {
			t.Fatalf("maxItems %d: pages of %v, want %v", tc.maxItems, sizes, tc.wantSizes)
		}
		for i := range sizes {
			if sizes[i] != tc.wantSizes[i] {
				t.Fatalf("maxItems %d: pages of %v, want %v", tc.maxItems, sizes, tc.wantSizes)
			}
		}
		for i, id := range ids {
			if id != all[i].ID {
				t.Fatalf("maxItems %d: item %d is %s, want %s (the listing's order)", tc.maxItems, i, id, all[i].ID)
			}
		}
	}
	stop := errors.New("enough")
	calls := 0
	if _, err := c.EachLivePage(ctx, client.ListOptions{}, 0, 10, client.FullDetail, func([]client.LiveJob) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("the callback's error did not stop the listing: %v after %d pages", err, calls)
	}
}

// The next page is asked for while the caller still works on the current
// one, one request at a time, and no page past the last or past maxItems
// is asked for.
func TestEachLivePage_asksForTheNextPageAhead(t *testing.T) {
	fs := fakeserver.New(fakeserver.Options{APIKey: testKey, LiveJobs: 25})
	asked := make(chan string, 10) // the offsets of the pages asked for, in order
	var inFlight, most atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		offset := r.URL.Query().Get("offset")
		if offset == "" {
			offset = "0"
		}
		asked <- offset
		fs.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); fs.Close() })
	c := newClient(t, srv.URL, testKey)
	expectAsked := func(offset string) {
		t.Helper()
		select {
		case got := <-asked:
			if got != offset {
				t.Fatalf("asked for offset %s, want %s", got, offset)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the page at offset %s was not asked for while the caller worked on the one before", offset)
		}
	}
	expectNothingMore := func() {
		t.Helper()
		select {
		case offset := <-asked:
			t.Fatalf("a page past the listing's end was asked for (offset %s)", offset)
		default:
		}
	}

	handed := 0
	pages, err := c.EachLivePage(context.Background(), client.ListOptions{}, 0, 10, client.WithoutUtterances, func([]client.LiveJob) error {
		handed++
		if handed == 1 {
			expectAsked("0")
		}
		if handed < 3 { // the caller blocks here until the next page is asked for
			expectAsked(strconv.Itoa(handed * 9)) // from the last item received, 10 a page
		}
		return nil
	})
	if err != nil || pages != 3 {
		t.Fatalf("%d pages, %v", pages, err)
	}
	expectNothingMore()
	if most.Load() != 1 {
		t.Fatalf("%d requests in flight at once, want 1", most.Load())
	}

	if _, err := c.EachLivePage(context.Background(), client.ListOptions{}, 10, 10, client.WithoutUtterances, func([]client.LiveJob) error { return nil }); err != nil {
		t.Fatal(err)
	}
	expectAsked("0")
	expectNothingMore()
}

// A job created while a listing is followed shifts the items of the later
// pages by one (the listing is newest first): the item at the end of a page
// comes again at the start of the next. It is handed once.
func TestEachLivePage_jobCreatedWhileListingIsHandedOnce(t *testing.T) {
	fs := fakeserver.New(fakeserver.Options{APIKey: testKey, LiveJobs: 25})
	var added atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fs.ServeHTTP(w, r)
		if r.URL.Query().Get("offset") == "" && !added.Swap(true) {
			fs.AddLiveJob(client.LiveJob{JobCommon: client.JobCommon{ID: "00000000-0000-0000-0000-00000000000a", Status: client.StatusDone, CreatedAt: time.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano)}})
		}
	}))
	t.Cleanup(func() { srv.Close(); fs.Close() })
	c := newClient(t, srv.URL, testKey)

	seen := map[string]int{}
	var count int
	if _, err := c.EachLivePage(context.Background(), client.ListOptions{}, 0, 10, client.WithoutUtterances, func(items []client.LiveJob) error {
		for _, j := range items {
			seen[j.ID]++
			count++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for id, n := range seen {
		if n > 1 {
			t.Errorf("job %s handed %d times", id, n)
		}
	}
	if count != 25 {
		t.Errorf("%d items handed, want the 25 jobs there were when the listing started", count)
	}
}

// A service that sends fewer items than asked for (a page size of its own)
// while its next link advances by the limit asked for would skip the items
// in between: the listing goes on from the last item received instead.
func TestEachLivePage_nextLinkPastTheItemsReceived(t *testing.T) {
	fs := fakeserver.New(fakeserver.Options{APIKey: testKey, LiveJobs: 25})
	const served = 7 // the service's own page size
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		asked, _ := strconv.Atoi(q.Get("limit"))
		offset, _ := strconv.Atoi(q.Get("offset"))
		q.Set("limit", strconv.Itoa(served))
		r.URL.RawQuery = q.Encode()
		rec := httptest.NewRecorder()
		fs.ServeHTTP(rec, r)
		var page client.Page[json.RawMessage]
		if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil {
			t.Error(err)
		}
		if page.Next != nil {
			next := fmt.Sprintf("http://%s/v2/live?offset=%d&limit=%d", r.Host, offset+asked, asked)
			page.Next = &next
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(page)
	}))
	t.Cleanup(func() { srv.Close(); fs.Close() })
	c := newClient(t, srv.URL, testKey)

	all, _, err := c.ListAllLive(context.Background(), client.ListOptions{}, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 25 {
		t.Fatalf("%d items listed, want the 25 jobs", len(all))
	}
}

// Jobs that leave a listing while it is followed (deleted, or ended while
// the listing is filtered on running statuses) shift the later items back
// (the listing is newest first): the first items of the next page were at
// the end of the page before, past the items received. None is skipped,
// and the items come in the listing's order.
func TestEachLivePage_jobsLeavingWhileListingAreNotSkipped(t *testing.T) {
	for _, tc := range []struct{ leaving, maxItems int }{{1, 0}, {2, 0}, {3, 0}, {12, 0}, {3, 20}, {12, 20}} {
		leaving := tc.leaving
		t.Run(fmt.Sprintf("%d jobs leave, at most %d", leaving, tc.maxItems), func(t *testing.T) {
			fs := fakeserver.New(fakeserver.Options{APIKey: testKey, LiveJobs: 35})
			direct := httptest.NewServer(fs)
			t.Cleanup(direct.Close)
			before, _, err := newClient(t, direct.URL, testKey).ListAllLive(context.Background(), client.ListOptions{}, 0, 100)
			if err != nil || len(before) != 35 {
				t.Fatalf("%d jobs, %v", len(before), err)
			}
			var removed atomic.Bool
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				fs.ServeHTTP(w, r)
				// Once the first page is served, jobs at its start leave.
				if r.URL.Query().Get("offset") == "" && !removed.Swap(true) {
					for _, j := range before[:leaving] {
						fs.RemoveLiveJob(j.ID)
					}
				}
			}))
			t.Cleanup(func() { srv.Close(); fs.Close() })
			c := newClient(t, srv.URL, testKey)

			var ids []string
			if _, err := c.EachLivePage(context.Background(), client.ListOptions{}, tc.maxItems, 10, client.WithoutUtterances, func(items []client.LiveJob) error {
				for _, j := range items {
					ids = append(ids, j.ID)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			// The first page as it was, then every job still listed after it.
			want := make([]string, 0, len(before))
			for i, j := range before {
				if i < 10 || i >= leaving {
					want = append(want, j.ID)
				}
			}
			if tc.maxItems > 0 {
				want = want[:tc.maxItems]
			}
			if fmt.Sprint(ids) != fmt.Sprint(want) {
				t.Errorf("listed %d jobs\n%v\nwant %d\n%v", len(ids), ids, len(want), want)
			}
		})
	}
}
