terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# Transcribe every WAV recording of a folder: each file is uploaded to the
# service, then transcribed. A new file adds an upload and a job; an edited
# file is uploaded again and its job replaced.
variable "recordings_dir" {
  description = "Folder holding the .wav recordings to transcribe."
  type        = string
  default     = "recordings"
}

resource "transcription_upload" "recording" {
  for_each = fileset(var.recordings_dir, "*.wav")

  source = "${var.recordings_dir}/${each.key}"
}

resource "transcription_job" "recording" {
  for_each = transcription_upload.recording

  audio_url = each.value.audio_url

  language_config = {
    languages = ["en"]
  }
  sentences = true

  custom_metadata = {
    file = each.key
  }

  include_transcript = true

  # An edited recording is uploaded and transcribed before its old job is
  # deleted.
  lifecycle {
    create_before_destroy = true
  }
}

# { "meeting.wav" = "...", ... }
output "transcripts" {
  value = {
    for name, job in transcription_job.recording :
    name => job.result.transcription.full_transcript
  }
}
