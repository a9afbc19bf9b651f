package client_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

// The listing of pre-recorded jobs, for discovery and import: every page
// followed, filters kept, newest first.
func TestListPreRecorded_filtersAndPagination(t *testing.T) {
	fs, c, clock := newFake(t, fakeserver.Options{})
	ctx := context.Background()
	var created []string
	for i := range 25 {
		team := []string{"alpha", "bravo"}[i%2]
		url := fmt.Sprintf("https://example.com/%d.wav", i)
		if i%5 == 0 {
			url = fmt.Sprintf("https://example.com/fail-%d.wav", 500+i)
		}
		resp, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: url, CustomMetadata: map[string]any{"team": team}})
		if err != nil {
			t.Fatal(err)
		}
		created = append(created, resp.ID)
		clock.Advance(time.Minute)
	}

	all, pages, err := c.ListAllPreRecorded(ctx, client.ListOptions{}, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 25 || pages != 3 {
		t.Fatalf("got %d items in %d pages, want 25 in 3", len(all), pages)
	}
	for i, j := range all {
		if want := created[len(created)-1-i]; j.ID != want || j.Kind != client.KindPreRecorded || j.RequestParams == nil {
			t.Fatalf("item %d: %s (%s), want %s, newest first, with request_params", i, j.ID, j.Kind, want)
		}
	}

	fs.ResetRequests()
	bravoErrors, _, err := c.ListAllPreRecorded(ctx, client.ListOptions{Status: []string{client.StatusError}, CustomMetadata: map[string]string{"team": "bravo"}}, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(bravoErrors) != 2 { // jobs 5 and 15
		t.Fatalf("%d failed bravo jobs, want 2", len(bravoErrors))
	}
	for _, j := range bravoErrors {
		if j.Status != client.StatusError || j.CustomMetadata["team"] != "bravo" || j.ErrorCode == nil {
			t.Errorf("filter let through %s %v", j.Status, j.CustomMetadata)
		}
	}
	if r := fs.Requests()[0]; r.Path != "/v2/pre-recorded" || r.RawQuery != "custom_metadata%5Bteam%5D=bravo&limit=2&status=error" {
		t.Errorf("first request %s?%s", r.Path, r.RawQuery)
	}

	limited, pages, err := c.ListAllPreRecorded(ctx, client.ListOptions{Offset: 4}, 7, 5)
	if err != nil || len(limited) != 7 || pages != 2 || limited[0].ID != all[4].ID {
		t.Fatalf("offset 4, at most 7: %d items in %d pages, %v", len(limited), pages, err)
	}
}

func TestLiveJobs_getAndDelete(t *testing.T) {
	_, c, _ := newFake(t, fakeserver.Options{LiveJobs: 30})
	ctx := context.Background()
	items, _, err := c.ListAllLive(ctx, client.ListOptions{}, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var deleted, refused int
	for _, listed := range items {
		got, err := c.GetLive(ctx, listed.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(mustJSON(t, got), mustJSON(t, listed)) {
			t.Fatalf("GET /v2/live/%s differs from its listing", listed.ID)
		}
		err = c.DeleteLive(ctx, listed.ID)
		switch {
		case client.IsFinal(listed.Status) && err == nil:
			deleted++
			if _, err := c.GetLive(ctx, listed.ID); !client.IsNotFound(err) {
				t.Errorf("deleted live job %s: %v", listed.ID, err)
			}
		case !client.IsFinal(listed.Status) && client.IsStatus(err, http.StatusForbidden):
			refused++
		default:
			t.Errorf("deleting a %s live job: %v", listed.Status, err)
		}
	}
	if deleted == 0 || refused == 0 {
		t.Fatalf("%d deleted, %d refused: the seed should give both", deleted, refused)
	}
	if err := c.DeleteLive(ctx, "nope"); !client.IsNotFound(err) {
		t.Errorf("unknown live job: %v", err)
	}
}

// A live job record, listed or read alone, without an id or a status is
// not understood: it could be neither tracked nor shown. Read alone, it
// must be the job asked for, in one of the four statuses.
func TestLiveJobs_recordsNotUnderstood(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"listed without a status", `{"items":[{"id":"a","status":"done"},{"id":"b"}]}`, "item 1 lacks id or status"},
		{"listed without an id", `{"items":[{"status":"done"}]}`, "item 0 lacks id or status"},
		{"read without a status", `{"id":"a"}`, "job record lacks id or status"},
		{"read without an id", `{"status":"done"}`, "job record lacks id or status"},
		// As for a pre-recorded job: another job's record, or a status
		// none of the four, is not the job asked for.
		{"read as another job", `{"id":"b","status":"done"}`, `the service answered with the record of job "b", not of job "a"`},
		{"read with an unknown status", `{"id":"a","status":"finished"}`, `job record has status "finished"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := clientOfServerAnswering(t, http.StatusOK, "application/json", tc.body, client.Config{})
			var err error
			if strings.HasPrefix(tc.body, `{"items"`) {
				_, err = c.ListLive(context.Background(), client.ListOptions{})
			} else {
				_, err = c.GetLive(context.Background(), "a")
			}
			var decodeErr *client.DecodeError
			if !errors.As(err, &decodeErr) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// readAudio reads an AudioFile whole and returns its bytes and the length
// its WAV header gives, in seconds.
func readAudio(t *testing.T, f *client.AudioFile) ([]byte, float64) {
	t.Helper()
	defer f.Body.Close()
	data, err := io.ReadAll(f.Body)
	if err != nil {
		t.Fatal(err)
	}
	if f.ContentType != "audio/wav" || f.Size != int64(len(data)) || len(data) < 44 || string(data[:4]) != "RIFF" {
		t.Fatalf("file of %d bytes, Content-Type %q, size %d", len(data), f.ContentType, f.Size)
	}
	channels := binary.LittleEndian.Uint16(data[22:])
	rate := binary.LittleEndian.Uint32(data[24:])
	bits := binary.LittleEndian.Uint16(data[34:])
	return data, float64(binary.LittleEndian.Uint32(data[40:])) / float64(rate*uint32(channels)*uint32(bits/8))
}

func TestFiles_ofJobs(t *testing.T) {
	_, c, _ := newFake(t, fakeserver.Options{LiveJobs: 10})
	ctx := context.Background()

	wav := testutil.SilentWAV(1.25, 1, 8000)
	up, err := c.Upload(ctx, "call.wav", int64(len(wav)), func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(wav)), nil })
	if err != nil {
		t.Fatal(err)
	}
	fromUpload, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: up.AudioURL})
	if err != nil {
		t.Fatal(err)
	}
	external, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav?duration=3.5"})
	if err != nil {
		t.Fatal(err)
	}
	failed, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/fail.wav"})
	if err != nil {
		t.Fatal(err)
	}

	f, err := c.GetPreRecordedFile(ctx, fromUpload.ID)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := readAudio(t, f); !bytes.Equal(data, wav) {
		t.Errorf("an uploaded job's file is not the upload")
	}
	f, err = c.GetPreRecordedFile(ctx, external.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, seconds := readAudio(t, f); seconds != 3.5 {
		t.Errorf("an external job's file lasts %v s, want 3.5", seconds)
	}
	for _, id := range []string{failed.ID, "nope"} {
		if _, err := c.GetPreRecordedFile(ctx, id); !client.IsNotFound(err) {
			t.Errorf("file of %s: %v", id, err)
		}
	}

	live, _, err := c.ListAllLive(ctx, client.ListOptions{Status: []string{client.StatusDone}}, 1, 1)
	if err != nil || len(live) != 1 {
		t.Fatalf("a done live job: %v", err)
	}
	f, err = c.GetLiveFile(ctx, live[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, seconds := readAudio(t, f); seconds != *live[0].File.AudioDuration {
		t.Errorf("live file lasts %v s, the job %v s", seconds, *live[0].File.AudioDuration)
	}
}
