terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# Upload a local recording, then transcribe it. The file is hashed at every
# plan: editing it uploads it again and replaces the job at the next apply.
variable "recording" {
  description = "Path of the recording to transcribe."
  type        = string
  default     = "recordings/meeting.wav"
}

resource "transcription_upload" "meeting" {
  source = var.recording
}

resource "transcription_job" "meeting" {
  audio_url = transcription_upload.meeting.audio_url

  include_transcript = true

  # When the recording changes, upload and transcribe the new one before
  # deleting the old job: outputs never point at a deleted job.
  lifecycle {
    create_before_destroy = true
  }
}

# What the service found in the file: duration, channels, size.
output "meeting_duration_seconds" {
  value = transcription_upload.meeting.audio_metadata.audio_duration
}

output "meeting_transcript" {
  value = transcription_job.meeting.result.transcription.full_transcript
}
