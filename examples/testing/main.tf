# A module that transcribes a set of recordings and publishes, for each, its
# transcript and the number of speakers heard. Its tests (tests/) run it with
# `terraform test` (or `tofu test`): mocked, with no service at all, and
# against the fake server.

terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

variable "recordings" {
  description = "Recordings to transcribe: name => URL of the audio."
  type        = map(string)
}

resource "transcription_job" "meeting" {
  for_each = var.recordings

  audio_url          = each.value
  diarization        = true
  include_transcript = true
}

output "transcripts" {
  description = "Transcript of each recording."
  value       = { for name, job in transcription_job.meeting : name => job.result.transcription.full_transcript }
}

output "speakers" {
  description = "Number of distinct speakers heard in each recording."
  value = {
    for name, job in transcription_job.meeting :
    name => length(distinct([for u in jsondecode(job.result.transcription.utterances) : u.speaker]))
  }
}
