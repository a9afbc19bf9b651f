package client_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// A record may give entity_types as an array or as a single value; the
// client reads both, refuses members it does not know, and always sends an
// array.
func TestPIIRedactionConfig_entityTypeForms(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    []string
		wantErr string
	}{
		{in: `{"entity_types":["NAME","EMAIL_ADDRESS"],"processed_text_type":"MASK"}`, want: []string{"NAME", "EMAIL_ADDRESS"}},
		{in: `{"entity_types":"NAME"}`, want: []string{"NAME"}},
		{in: `{"entity_types": "GDPR" }`, want: []string{"GDPR"}},
		{in: `{"entity_types":[]}`, want: []string{}},
		{in: `{"processed_text_type":"MASK"}`, want: nil},
		{in: `{"entity_types":5}`, wantErr: "pii_redaction_config.entity_types"},
		// A field the client does not know (one the service adds) is left
		// out, so that job records keep reading; the fake server refuses
		// it in a create.
		{in: `{"entity_types":["NAME"],"entity_type":"GDPR"}`, want: []string{"NAME"}},
	} {
		t.Run(c.in, func(t *testing.T) {
			var got client.PIIRedactionConfig
			err := json.Unmarshal([]byte(c.in), &got)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got.EntityTypes, c.want) {
				t.Fatalf("got %q, %v; want %q", got.EntityTypes, err, c.want)
			}
			if len(c.want) == 0 { // an empty list goes out as absent (omitempty)
				return
			}
			out, _ := json.Marshal(got)
			var back struct {
				EntityTypes []string `json:"entity_types"`
			}
			if err := json.Unmarshal(out, &back); err != nil || !reflect.DeepEqual(back.EntityTypes, c.want) {
				t.Fatalf("sent %s, want the entity types as an array", out)
			}
		})
	}
}
