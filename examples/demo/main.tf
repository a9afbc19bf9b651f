# The configuration `make demo` applies against the embedded fake server.
# The provider reads TRANSCRIPTION_BASE_URL and TRANSCRIPTION_API_KEY, which
# the demo sets.
terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

provider "transcription" {}

resource "transcription_job" "interview" {
  # The fake server simulates a 20-second recording from the duration hint.
  audio_url = "https://media.example.com/interview.wav?duration=20"

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
}

data "transcription_live_jobs" "recent" {
  status = ["done", "error"]
  limit  = 8
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
