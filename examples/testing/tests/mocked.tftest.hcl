# No service, no API key: the provider is mocked. Terraform gives every
# computed value it is not told a random one, which jsondecode refuses, so
# the mock sets the JSON text the module decodes (and what the test checks).
# Terraform takes only the attributes given (it refuses null for an
# object); OpenTofu reads mocked.tofutest.hcl instead.

mock_provider "transcription" {
  mock_resource "transcription_job" {
    defaults = {
      status = "done"
      result = {
        transcription = {
          full_transcript = "Hello. Hi, how are you?"
          utterances      = "[{\"speaker\": 0, \"text\": \"Hello.\"}, {\"speaker\": 1, \"text\": \"Hi, how are you?\"}]"
        }
      }
    }
  }
}

variables {
  recordings = {
    standup = "https://storage.example.com/standup.wav"
  }
}

run "publishes_transcripts_and_speakers" {
  command = apply

  assert {
    condition     = output.transcripts.standup == "Hello. Hi, how are you?"
    error_message = "The transcript is not published."
  }

  assert {
    condition     = output.speakers.standup == 2
    error_message = "Two speakers were expected."
  }
}
