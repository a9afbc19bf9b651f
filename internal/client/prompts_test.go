package client_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// A record may give a prompt as a string or as an array of strings; the
// client reads both and always sends strings.
func TestAudioToLLMConfig_promptForms(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    []string
		wantErr string
	}{
		{in: `{"prompts":["a","b"],"model":"m/x"}`, want: []string{"a", "b"}},
		{in: `{"prompts":[["a"],["b","c"],[]]}`, want: []string{"a", "b\nc", ""}},
		{in: `{"prompts":[["a"],"b"]}`, want: []string{"a", "b"}},
		{in: `{"prompts":[]}`, want: []string{}},
		{in: `{"prompts":[1]}`, wantErr: "prompts[0]: a prompt must be a string or an array of strings"},
		{in: `{"prompts":[["a",2]]}`, wantErr: "prompts[0]: a prompt sent as an array must hold strings only"},
		{in: `{"prompts":["a"],"temperature":1}`, want: []string{"a"}}, // a field the service adds
	} {
		t.Run(c.in, func(t *testing.T) {
			var got client.AudioToLLMConfig
			err := json.Unmarshal([]byte(c.in), &got)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got.Prompts, c.want) {
				t.Fatalf("got %q, %v; want %q", got.Prompts, err, c.want)
			}
			out, _ := json.Marshal(got)
			var back struct{ Prompts []string }
			if err := json.Unmarshal(out, &back); err != nil || !reflect.DeepEqual(back.Prompts, c.want) {
				t.Fatalf("sent %s, want the prompts as strings", out)
			}
		})
	}
}
