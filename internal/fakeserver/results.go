package fakeserver

import "github.com/transcription-service/terraform-provider-transcription/internal/client"

// Audio is what the service knows of the audio a job transcribes.
type Audio struct {
	Duration float64 // seconds
	Channels int64
	Filename string
}

// generateResult builds the deterministic result of a finished job from the
// request as the service applied it (defaults filled in), the audio, and a seed
// (the job's audio URL), so the same request always yields the same result.
func generateResult(req *client.InitTranscriptionRequest, audio Audio, seed string) *client.Result {
	// Placeholder until the generator lands; see results_test.go.
	return &client.Result{Metadata: client.ResultMetadata{AudioDuration: audio.Duration, NumberOfDistinctChannels: audio.Channels}}
}
