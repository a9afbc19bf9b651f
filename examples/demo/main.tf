# The configuration `make demo` applies against the fake server it starts:
# upload a recording, transcribe it with subtitles and a summary, and list
# recent live sessions. The provider reads TRANSCRIPTION_BASE_URL and
# TRANSCRIPTION_API_KEY, which the demo sets; it passes the path of the WAV
# file it generates as var.recording.
terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

provider "transcription" {}

variable "recording" {
  description = "Path of the WAV recording to upload and transcribe."
  type        = string
}

resource "transcription_upload" "interview" {
  source = var.recording
}

resource "transcription_job" "interview" {
  audio_url = transcription_upload.interview.audio_url

  language_config = {
    languages = ["en"]
  }

  subtitles = true
  subtitles_config = {
    formats                    = ["srt", "vtt"]
    maximum_characters_per_row = 32
    maximum_rows_per_caption   = 2
  }

  diarization = true
  diarization_config = {
    number_of_speakers = 2
  }

  summarization = true
  summarization_config = {
    type = "bullet_points"
  }

  custom_metadata = {
    pipeline = "demo"
  }

  # The transcript and subtitles are printed below: keep them in state.
  include_transcript = true
}

data "transcription_live_jobs" "recent" {
  status = ["done", "error"]
  limit  = 8
}

output "recording" {
  value = format(
    "%s: %.1f s, %d channel(s), %d bytes",
    transcription_upload.interview.audio_metadata.filename,
    transcription_upload.interview.audio_metadata.audio_duration,
    transcription_upload.interview.audio_metadata.number_of_channels,
    transcription_upload.interview.audio_metadata.size,
  )
}

output "transcript" {
  value = transcription_job.interview.result.transcription.full_transcript
}

output "subtitles_srt" {
  value = transcription_job.interview.result.transcription.subtitles["srt"]
}

output "summary" {
  value = transcription_job.interview.result.summarization.results
}

output "live_jobs" {
  value = join("\n", concat(
    [format("%-36s  %-6s  %s", "live job", "status", "created at")],
    [for job in data.transcription_live_jobs.recent.items : format("%-36s  %-6s  %s", job.id, job.status, job.created_at)],
  ))
}
