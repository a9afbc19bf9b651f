package client_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// A listed record's request_params are read as a job's own read reads
// them: none when absent or null, the error of those it cannot read.
func TestPreRecordedRecordJob(t *testing.T) {
	for name, tc := range map[string]struct {
		params    string
		wantModel string // "" for no request_params
		wantErr   string
	}{
		"absent":     {"", "", ""},
		"null":       {"null", "", ""},
		"read":       {`{"audio_url":"https://example.com/a.wav","model":"model-3"}`, "model-3", ""},
		"unreadable": {`{"audio_url":"https://example.com/a.wav","model":3}`, "", "its request_params cannot be read: "},
	} {
		t.Run(name, func(t *testing.T) {
			record := client.PreRecordedRecord{JobCommon: client.JobCommon{ID: "j1", Status: client.StatusDone}, RequestParams: json.RawMessage(tc.params)}
			job, err := record.Job()
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case job.ID != "j1" || job.Status != client.StatusDone:
				t.Errorf("job %+v lost the record's fields", job.JobCommon)
			case tc.wantModel == "" && job.RequestParams != nil:
				t.Errorf("request_params %+v, want none", job.RequestParams)
			case tc.wantModel != "" && (job.RequestParams == nil || job.RequestParams.Model == nil || *job.RequestParams.Model != tc.wantModel):
				t.Errorf("request_params %+v, want model %s", job.RequestParams, tc.wantModel)
			}
		})
	}
}
