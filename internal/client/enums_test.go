package client_test

import (
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// A job in done or error never changes again: a wait ends there and only
// there.
func TestIsFinal(t *testing.T) {
	for status, want := range map[string]bool{
		client.StatusDone: true, client.StatusError: true,
		client.StatusQueued: false, client.StatusProcessing: false, "": false, "Done": false,
	} {
		if got := client.IsFinal(status); got != want {
			t.Errorf("IsFinal(%q) = %t, want %t", status, got, want)
		}
	}
}

// A job's id is a UUID in either case; an audio-to-LLM model is
// <provider>/<model_name>, neither part holding white space.
func TestJobIDAndLLMModelPatterns(t *testing.T) {
	for _, tc := range []struct {
		name    string
		matches func(string) bool
		value   string
		want    bool
	}{
		{"job id", client.JobIDPattern.MatchString, "3fa85f64-5717-4562-b3fc-2c963f66afa6", true},
		{"job id", client.JobIDPattern.MatchString, "3FA85F64-5717-4562-B3FC-2C963F66AFA6", true},
		{"job id", client.JobIDPattern.MatchString, "3fa85f64-5717-4562-b3fc-2c963f66afa", false},
		{"job id", client.JobIDPattern.MatchString, "3fa85f64-5717-4562-b3fc-2c963f66afg6", false},
		{"job id", client.JobIDPattern.MatchString, " 3fa85f64-5717-4562-b3fc-2c963f66afa6", false},
		{"LLM model", client.LLMModelPattern.MatchString, "openai/gpt-4o-mini", true},
		{"LLM model", client.LLMModelPattern.MatchString, "meta/llama/3", true},
		{"LLM model", client.LLMModelPattern.MatchString, "gpt-4o", false},
		{"LLM model", client.LLMModelPattern.MatchString, "/gpt-4o", false},
		{"LLM model", client.LLMModelPattern.MatchString, "open ai/gpt-4o", false},
		{"LLM model", client.LLMModelPattern.MatchString, "openai/gpt 4o", false},
	} {
		if got := tc.matches(tc.value); got != tc.want {
			t.Errorf("%s %q: matches %t, want %t", tc.name, tc.value, got, tc.want)
		}
	}
}
