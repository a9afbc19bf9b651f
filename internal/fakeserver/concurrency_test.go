package fakeserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

// Many clients at once, with the clock moving and the background loop
// running: run with -race.
func TestConcurrentClients(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{ProcessingTime: 2 * time.Second, LiveJobs: 30})
	rcv := newCallbackReceiver(t)
	const workers, perWorker = 12, 8

	send := func(method, path, contentType string, body []byte) (int, []byte, error) {
		req, err := http.NewRequest(method, h.url+path, bytes.NewReader(body))
		if err != nil {
			return 0, nil, err
		}
		req.Header.Set(client.ServiceKeyHeader, testKey)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		var buf bytes.Buffer
		_, err = buf.ReadFrom(resp.Body)
		return resp.StatusCode, buf.Bytes(), err
	}

	upload, uploadType := multipartFile(t, "audio", "a.wav", testutil.SilentWAV(0.5, 1, 8000))
	var wg sync.WaitGroup
	errs := make(chan error, workers*perWorker*4)
	ids := make(chan string, workers*perWorker)
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				body := fmt.Sprintf(`{"audio_url":"https://example.com/%d-%d.wav","callback_url":%q,"custom_metadata":{"w":%d}}`, w, i, rcv.url, w)
				status, data, err := send(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(body))
				if err != nil || status != http.StatusCreated {
					errs <- fmt.Errorf("create: %d %s %v", status, data, err)
					continue
				}
				var out client.InitResponse
				if err := json.Unmarshal(data, &out); err != nil {
					errs <- err
					continue
				}
				ids <- out.ID
				if status, data, err := send(http.MethodGet, "/v2/pre-recorded/"+out.ID, "", nil); err != nil || status != http.StatusOK {
					errs <- fmt.Errorf("get: %d %s %v", status, data, err)
				}
				if status, _, err := send(http.MethodGet, "/v2/live?limit=5&status=done", "", nil); err != nil || status != http.StatusOK {
					errs <- fmt.Errorf("list: %d %v", status, err)
				}
				if i%4 == 0 {
					if status, _, err := send(http.MethodPost, "/v2/upload", uploadType, upload); err != nil || status != http.StatusOK {
						errs <- fmt.Errorf("upload: %d %v", status, err)
					}
				}
				h.clock.Advance(10 * time.Millisecond)
				_ = h.srv.Requests()
				_ = h.srv.Stats()
			}
		})
	}
	wg.Wait()
	close(errs)
	close(ids)
	for err := range errs {
		t.Error(err)
	}

	h.clock.Advance(time.Hour)
	h.srv.SettleJobs()
	n := 0
	for id := range ids {
		n++
		if job, ok := h.srv.Job(id); !ok || job.Status != client.StatusDone {
			t.Fatalf("job %s: %v %q", id, ok, job.Status)
		}
	}
	if n != workers*perWorker || h.srv.JobCount() != n || len(h.srv.CreateBodies()) != n {
		t.Fatalf("%d ids, %d stored, %d bodies", n, h.srv.JobCount(), len(h.srv.CreateBodies()))
	}
	if st := h.srv.Stats(); st.CallbacksDelivered != n || rcv.count() != n {
		t.Fatalf("stats %+v, %d callbacks received", st, rcv.count())
	}
}
