package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// api is the service as the minimal provider uses it: three calls.
type api struct {
	base string // such as http://127.0.0.1:8080, no trailing slash
	key  string
	http *http.Client
}

// job is what the provider keeps of a job record.
type job struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

func newAPI(base, key string) *api {
	return &api{base: strings.TrimRight(base, "/"), key: key, http: &http.Client{}}
}

// create creates a job and reads it back.
func (a *api) create(ctx context.Context, audioURL string) (job, error) {
	body, err := json.Marshal(map[string]string{"audio_url": audioURL})
	if err != nil {
		return job{}, err
	}
	var created job
	status, err := a.do(ctx, http.MethodPost, "/v2/pre-recorded", body, &created)
	if err != nil {
		return job{}, err
	}
	if status/100 != 2 || created.ID == "" {
		return job{}, fmt.Errorf("create answered %d with no id", status)
	}
	j, found, err := a.read(ctx, created.ID)
	if err != nil {
		return job{}, err
	}
	if !found {
		return job{}, fmt.Errorf("job %s vanished right after its creation", created.ID)
	}
	return j, nil
}

// read returns the job, or found false when the service answers 404.
func (a *api) read(ctx context.Context, id string) (j job, found bool, err error) {
	status, err := a.do(ctx, http.MethodGet, "/v2/pre-recorded/"+url.PathEscape(id), nil, &j)
	if err != nil {
		return job{}, false, err
	}
	switch {
	case status == http.StatusNotFound:
		return job{}, false, nil
	case status != http.StatusOK:
		return job{}, false, fmt.Errorf("reading job %s: status %d", id, status)
	}
	return j, true, nil
}

// delete deletes the job; one already gone is not an error.
func (a *api) delete(ctx context.Context, id string) error {
	status, err := a.do(ctx, http.MethodDelete, "/v2/pre-recorded/"+url.PathEscape(id), nil, nil)
	if err != nil {
		return err
	}
	if status/100 != 2 && status != http.StatusNotFound {
		return fmt.Errorf("deleting job %s: status %d", id, status)
	}
	return nil
}

// do sends one request and decodes a 2xx answer's body into out (when not
// nil). Other answers return their status with no error; their body is
// dropped.
func (a *api) do(ctx context.Context, method, path string, body []byte, out any) (int, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, r)
	if err != nil {
		return 0, err
	}
	req.Header.Set("x-service-key", a.key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 2 && out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: decoding the answer: %w", method, path, err)
		}
	}
	_, _ = io.Copy(io.Discard, resp.Body) // lets the connection be reused
	return resp.StatusCode, nil
}
