# OpenTofu reads this file in place of mocked.tftest.hcl, which Terraform
# reads. OpenTofu wants every attribute of an object the mock sets, so the
# parts of the result the module does not read are given as null.

mock_provider "transcription" {
  mock_resource "transcription_job" {
    defaults = {
      status = "done"
      result = {
        transcription = {
          full_transcript = "Hello. Hi, how are you?"
          utterances      = "[{\"speaker\": 0, \"text\": \"Hello.\"}, {\"speaker\": 1, \"text\": \"Hi, how are you?\"}]"
          languages       = null
          sentences       = null
          subtitles       = null
        }
        metadata                 = null
        translation              = null
        summarization            = null
        named_entity_recognition = null
        sentiment_analysis       = null
        sentences                = null
        audio_to_llm             = null
        messages                 = null
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
