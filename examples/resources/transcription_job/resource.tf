terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# Transcribe a recording; the apply waits until the transcript is ready.
resource "transcription_job" "standup" {
  audio_url = "https://media.example.com/standup-2024-05-02.wav"

  # Keep the transcript in state. By default state keeps only what does not
  # grow with the recording: status, metadata, languages, summaries.
  include_transcript = true
}

output "standup_transcript" {
  value = transcription_job.standup.result.transcription.full_transcript
}
