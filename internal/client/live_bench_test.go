package client_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// replayServer answers GET /v2/live with the fake server's pages, recorded
// once: the benchmarks below then measure the client (HTTP and decoding),
// not the fake server building its records.
func replayServer(b *testing.B, liveJobs int) *httptest.Server {
	b.Helper()
	fs := fakeserver.New(fakeserver.Options{APIKey: testKey, LiveJobs: liveJobs})
	b.Cleanup(fs.Close)
	var mu sync.Mutex
	pages := map[string][]byte{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		body, ok := pages[r.URL.RawQuery]
		mu.Unlock()
		if !ok {
			rec := httptest.NewRecorder()
			fs.ServeHTTP(rec, r)
			body, _ = io.ReadAll(rec.Result().Body)
			// The links name the replay server: same host, so they stay valid.
			mu.Lock()
			pages[r.URL.RawQuery] = body
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkListAllLive lists 1,000 live jobs in pages of 100, as the
// transcription_live_jobs data source does: per op, 10 requests and the
// decoding of 1,000 full records (results without word timings cost the
// same to decode: the service sends them).
func BenchmarkListAllLive(b *testing.B) {
	const items, pageSize = 1000, 100
	srv := replayServer(b, items)
	c := newBenchClient(b, srv.URL)
	ctx := context.Background()
	if _, _, err := c.ListAllLive(ctx, client.ListLiveOptions{}, 0, pageSize); err != nil { // record the pages
		b.Fatal(err)
	}
	for b.Loop() {
		jobs, _, err := c.ListAllLive(ctx, client.ListLiveOptions{}, 0, pageSize)
		if err != nil {
			b.Fatal(err)
		}
		if len(jobs) != items {
			b.Fatalf("%d jobs, want %d", len(jobs), items)
		}
	}
}

// BenchmarkEachLivePageWithoutUtterances reads the same pages as
// transcription_live_jobs reads them by default: utterances left out of
// every result, each page's records handed over and dropped.
func BenchmarkEachLivePageWithoutUtterances(b *testing.B) {
	const items, pageSize = 1000, 100
	srv := replayServer(b, items)
	c := newBenchClient(b, srv.URL)
	ctx := context.Background()
	read := func() int {
		n := 0
		if _, err := c.EachLivePage(ctx, client.ListLiveOptions{}, 0, pageSize, client.WithoutUtterances, func(jobs []client.LiveJob) error {
			n += len(jobs)
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		return n
	}
	read() // record the pages
	for b.Loop() {
		if n := read(); n != items {
			b.Fatalf("%d jobs, want %d", n, items)
		}
	}
}

func newBenchClient(b *testing.B, url string) *client.Client {
	c, err := client.New(client.Config{BaseURL: url, APIKey: testKey, MaxRetries: -1})
	if err != nil {
		b.Fatal(err)
	}
	return c
}
