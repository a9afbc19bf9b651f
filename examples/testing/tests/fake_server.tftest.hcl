# Against the fake server, which transcribes for real (a generated
# transcript), offline. Start it and point the provider at it first:
#
#   go run github.com/transcription-service/terraform-provider-transcription/internal/fakeserver/cmd/fakeserver@latest \
#     -addr 127.0.0.1:8080 -api-key test-key &
#   export TRANSCRIPTION_BASE_URL=http://127.0.0.1:8080 TRANSCRIPTION_API_KEY=test-key
#   terraform test
#
# (Without a fake server, run the mocked tests alone:
# terraform test -filter=tests/mocked.tftest.hcl, or on OpenTofu
# tofu test -filter=tests/mocked.tofutest.hcl.) The apply creates real
# jobs on it, and the test's teardown deletes them.

variables {
  recordings = {
    # duration= sets the length of the fake server's simulated recording.
    standup = "https://storage.example.com/standup.wav?duration=20"
    review  = "https://storage.example.com/review.wav?duration=40"
  }
}

run "transcribes_every_recording" {
  command = apply

  assert {
    condition     = alltrue([for text in values(output.transcripts) : length(text) > 0])
    error_message = "Every recording must have a transcript."
  }

  assert {
    condition     = alltrue([for n in values(output.speakers) : n >= 1])
    error_message = "Every recording must have at least one speaker."
  }
}
