package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
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
	srv := httptest.NewServer(rewritingPages(t, fs, func(r *http.Request) {
		q := r.URL.Query()
		q.Set("limit", strconv.Itoa(served))
		r.URL.RawQuery = q.Encode()
	}, func(r *http.Request, offset, limit int, page *client.Page[json.RawMessage]) {
		if page.Next != nil {
			next := fmt.Sprintf("http://%s/v2/live?offset=%d&limit=%d", r.Host, offset+limit, limit)
			page.Next = &next
		}
	}))
	t.Cleanup(func() { srv.Close(); fs.Close() })
	c := newClient(t, srv.URL, testKey)

	all, pages, err := c.ListAllLive(context.Background(), client.ListOptions{}, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 25 {
		t.Fatalf("%d items listed, want the 25 jobs", len(all))
	}
	// 7 jobs, then 6 new ones a page (each starts at the last job
	// received): 4 pages. Following the link past the items received
	// would find jobs missing and ask for pages again.
	if pages != 4 {
		t.Errorf("%d pages read, want 4", pages)
	}
}

// A listing with a limit, while jobs are created as it is read (one per
// request): a page that brings nothing new is followed by a whole page, so
// the listing catches up. It asked for the one or two items still wanted
// again and again, and failed once the bound on such pages ran out.
func TestEachLivePage_catchesUpWithJobsCreatedWhileListing(t *testing.T) {
	fs := fakeserver.New(fakeserver.Options{APIKey: testKey, LiveJobs: 250})
	var requests atomic.Int32
	base := time.Now().Add(time.Hour)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fs.ServeHTTP(w, r)
		if i := requests.Add(1); i <= 150 {
			fs.AddLiveJob(client.LiveJob{JobCommon: client.JobCommon{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i),
				Status: client.StatusDone, CreatedAt: base.Add(time.Duration(i) * time.Second).UTC().Format(time.RFC3339Nano)}})
		}
	}))
	t.Cleanup(func() { srv.Close(); fs.Close() })
	items, pages, err := newClient(t, srv.URL, testKey).ListAllLive(context.Background(), client.ListOptions{}, 200, 100)
	if err != nil || len(items) != 200 {
		t.Fatalf("%d items in %d pages, error %v: want 200 items", len(items), pages, err)
	}
	if pages > 10 {
		t.Errorf("%d pages read for 200 items, want a few", pages)
	}
}

// rewritingPages serves the fake server's listing pages, with each request
// changed by ask (nil: as it comes) and each page changed by answer, which
// gets the offset and limit asked for.
func rewritingPages(t *testing.T, fs *fakeserver.Server, ask func(*http.Request), answer func(r *http.Request, offset, limit int, page *client.Page[json.RawMessage])) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		limit, _ := strconv.Atoi(q.Get("limit"))
		offset, _ := strconv.Atoi(q.Get("offset"))
		if ask != nil {
			ask(r)
		}
		rec := httptest.NewRecorder()
		fs.ServeHTTP(rec, r)
		var page client.Page[json.RawMessage]
		if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil {
			t.Error(err)
		}
		answer(r, offset, limit, &page)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(page)
	})
}

// The offset of the next page is read from the next link, which a service
// may give in other forms than the fake server's: one on every page, the
// last (empty) one too, ends the listing there; one without an offset goes
// on after the items received; one that does not advance, is not a URL or
// has an invalid offset is an error once the page's items are handed. Pages
// of one item are followed one by one.
func TestEachLivePage_nextLinks(t *testing.T) {
	link := func(r *http.Request, query string) *string {
		s := fmt.Sprintf("http://%s/v2/live?%s", r.Host, query)
		return &s
	}
	everyPage := func(r *http.Request, offset, limit, items int, _ *string) *string {
		return link(r, fmt.Sprintf("offset=%d&limit=%d", offset+items, limit))
	}
	for _, tc := range []struct {
		name      string
		pageSize  int
		ask       func(*http.Request) // the service's reading of the request
		next      func(r *http.Request, offset, limit, items int, next *string) *string
		wantItems int
		wantErr   string
	}{
		// A service that does not page as its links say answers the same
		// page again: an error, where the links were followed for ever.
		{"offset ignored", 10, func(r *http.Request) {
			q := r.URL.Query()
			q.Del("offset")
			r.URL.RawQuery = q.Encode()
		}, everyPage, 10, "102 pages in a row, up to offset 918, hold only jobs already listed"},
		{"offset held at the last page", 10, func(r *http.Request) {
			q := r.URL.Query()
			if offset, _ := strconv.Atoi(q.Get("offset")); offset > 15 {
				q.Set("offset", "15")
			}
			r.URL.RawQuery = q.Encode()
		}, everyPage, 25, "103 pages in a row, up to offset 945, hold only jobs already listed"},
		{"on every page", 10, nil, everyPage, 25, ""},
		{"without an offset", 10, nil, func(r *http.Request, _, limit, _ int, next *string) *string {
			if next == nil {
				return nil
			}
			return link(r, fmt.Sprintf("limit=%d", limit))
		}, 25, ""},
		{"pages of one item", 1, nil, func(_ *http.Request, _, _, _ int, next *string) *string { return next }, 25, ""},
		{"to the page itself", 10, nil, func(r *http.Request, offset, limit, _ int, _ *string) *string {
			return link(r, fmt.Sprintf("offset=%d&limit=%d", offset, limit))
		}, 10, "next page offset 0 does not advance past 0"},
		{"not a URL", 10, nil, func(*http.Request, int, int, int, *string) *string { return ptr("http://x/%zz") }, 10, "is not a URL"},
		{"with an invalid offset", 10, nil, func(r *http.Request, _, _, _ int, _ *string) *string { return link(r, "offset=ten") }, 10, "has an invalid offset"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := fakeserver.New(fakeserver.Options{APIKey: testKey, LiveJobs: 25})
			var requests atomic.Int32
			srv := httptest.NewServer(rewritingPages(t, fs, tc.ask, func(r *http.Request, offset, limit int, page *client.Page[json.RawMessage]) {
				page.Next = tc.next(r, offset, limit, len(page.Items), page.Next)
				if requests.Add(1) >= 300 { // a client that never ends the listing
					page.Next = nil
				}
			}))
			t.Cleanup(func() { srv.Close(); fs.Close() })
			c := newClient(t, srv.URL, testKey)

			var ids []string
			_, err := c.EachLivePage(context.Background(), client.ListOptions{}, 0, tc.pageSize, client.WithoutUtterances, func(items []client.LiveJob) error {
				for _, j := range items {
					ids = append(ids, j.ID)
				}
				return nil
			})
			var decodeErr *client.DecodeError
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (!errors.As(err, &decodeErr) || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("error %v, want %q", err, tc.wantErr)
			}
			seen := map[string]bool{}
			for _, id := range ids {
				seen[id] = true
			}
			if len(ids) != tc.wantItems || len(seen) != tc.wantItems {
				t.Errorf("%d items handed (%d different), want %d", len(ids), len(seen), tc.wantItems)
			}
		})
	}
}

// The pages asked for: the page size given (20 when none is), never more
// items than are still wanted beside the last item received, which each
// page after the first starts at.
func TestEachLivePage_pagesAskedFor(t *testing.T) {
	for _, tc := range []struct {
		opts               client.ListOptions
		maxItems, pageSize int
		wantItems          int
		asked              []string
	}{
		{client.ListOptions{}, 0, 0, 25, []string{"limit=20", "limit=20&offset=19"}},
		{client.ListOptions{}, 23, 10, 23, []string{"limit=10", "limit=10&offset=9", "limit=5&offset=18"}},
		{client.ListOptions{Offset: 3}, 12, 5, 12, []string{"limit=5&offset=3", "limit=5&offset=7", "limit=4&offset=11"}},
	} {
		fs, c, _ := newFake(t, fakeserver.Options{LiveJobs: 25})
		items, _, err := c.ListAllLive(context.Background(), tc.opts, tc.maxItems, tc.pageSize)
		if err != nil || len(items) != tc.wantItems {
			t.Fatalf("%+v, at most %d, pages of %d: %d items, %v", tc.opts, tc.maxItems, tc.pageSize, len(items), err)
		}
		var asked []string
		for _, r := range fs.Requests() {
			asked = append(asked, r.RawQuery)
		}
		if fmt.Sprint(asked) != fmt.Sprint(tc.asked) {
			t.Errorf("%+v, at most %d, pages of %d: asked for %q, want %q", tc.opts, tc.maxItems, tc.pageSize, asked, tc.asked)
		}
	}
}

// Jobs that leave a listing while it is followed (deleted, or ended while
// the listing is filtered on running statuses) shift the later items back
// (the listing is newest first): the first items of the next page were at
// the end of the page before, past the items received. None is skipped,
// and the items come in the listing's order, from an offset too: the items
// handed may then have moved below it.
func TestEachLivePage_jobsLeavingWhileListingAreNotSkipped(t *testing.T) {
	for _, tc := range []struct {
		start, leaving, maxItems int
		asked                    []string // the pages asked for, when checked
		// lost: jobs after the items handed that are not listed, when
		// every item handed left and the listing went on from an offset
		// (those before it were never read, so where it went on cannot
		// be told).
		lost int
	}{
		{0, 1, 0, nil, 0}, {0, 2, 0, nil, 0}, {0, 3, 0, nil, 0}, {0, 12, 0, nil, 0}, {0, 3, 20, nil, 0}, {0, 12, 20, nil, 0},
		// The page from the last item received holds none handed: half a
		// page further back (asked for whole) it does, and holds the 4
		// still wanted.
		{0, 3, 14, []string{"limit=10", "limit=5&offset=9", "limit=10&offset=4"}, 0},
		{3, 1, 0, nil, 0}, {3, 5, 0, nil, 0},
		// The last item handed (at 12) moved to 0, below the offset: half
		// a page back at a time, down to it.
		{3, 12, 0, []string{"limit=10&offset=3", "limit=10&offset=12", "limit=10&offset=7", "limit=10&offset=2", "limit=10", "limit=10&offset=9", "limit=10&offset=18"}, 0},
		// Every item handed left (3 to 12, with 0 to 2 and 13 to 19): none
		// found down to 0, the listing goes on from the offset, and the
		// jobs then before it (20 to 22) are not listed.
		{3, 20, 0, []string{"limit=10&offset=3", "limit=10&offset=12", "limit=10&offset=7", "limit=10&offset=2", "limit=10", "limit=10&offset=3", "limit=10&offset=12"}, 3},
	} {
		leaving := tc.leaving
		t.Run(fmt.Sprintf("from %d, %d jobs leave, at most %d", tc.start, leaving, tc.maxItems), func(t *testing.T) {
			fs := fakeserver.New(fakeserver.Options{APIKey: testKey, LiveJobs: 35})
			direct := httptest.NewServer(fs)
			t.Cleanup(direct.Close)
			before, _, err := newClient(t, direct.URL, testKey).ListAllLive(context.Background(), client.ListOptions{}, 0, 100)
			if err != nil || len(before) != 35 {
				t.Fatalf("%d jobs, %v", len(before), err)
			}
			fs.ResetRequests()
			var removed atomic.Bool
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				fs.ServeHTTP(w, r)
				// Once the first page is served, the newest jobs leave.
				if !removed.Swap(true) {
					for _, j := range before[:leaving] {
						fs.RemoveLiveJob(j.ID)
					}
				}
			}))
			t.Cleanup(func() { srv.Close(); fs.Close() })
			c := newClient(t, srv.URL, testKey)

			var ids []string
			if _, err := c.EachLivePage(context.Background(), client.ListOptions{Offset: tc.start}, tc.maxItems, 10, client.WithoutUtterances, func(items []client.LiveJob) error {
				for _, j := range items {
					ids = append(ids, j.ID)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			// The first page as it was, then every job still listed after it.
			want := make([]string, 0, len(before))
			for i, j := range before[tc.start:] {
				if i < 10 || tc.start+i >= leaving+tc.lost {
					want = append(want, j.ID)
				}
			}
			if tc.maxItems > 0 {
				want = want[:tc.maxItems]
			}
			if fmt.Sprint(ids) != fmt.Sprint(want) {
				t.Errorf("listed %d jobs\n%v\nwant %d\n%v", len(ids), ids, len(want), want)
			}
			if tc.asked != nil {
				var asked []string
				for _, r := range fs.Requests() {
					asked = append(asked, r.RawQuery)
				}
				if fmt.Sprint(asked) != fmt.Sprint(tc.asked) {
					t.Errorf("asked for %q, want %q", asked, tc.asked)
				}
			}
		})
	}
}
