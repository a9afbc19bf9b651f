terraform {
  # Actions need Terraform 1.14 or newer (OpenTofu has none), and `caller`,
  # used below, 1.16: with this, older engines say so instead of
  # "Unsupported block type". On 1.14 and 1.15, write ">= 1.14" here and the
  # upload's address for `caller` (below).
  required_version = ">= 1.16"

  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# Transcribe a recording as soon as it is uploaded, without keeping a job in
# state: the action runs after the upload is created or replaced (new
# content), not when it is updated in place (the same file moved), which
# uploads nothing; each run is a new, billed job. It waits for the transcript
# and reports the job's progress and outcome. The action reads the upload
# that triggered it as `caller` (Terraform 1.16 or newer, which warns that a
# reference to the triggering resource by its address may make a graph
# cycle). On Terraform 1.14 and 1.15, write
# transcription_upload.standup.audio_url instead, and ">= 1.14" as the
# required_version above.
variable "recording" {
  description = "Path of the recording to transcribe."
  type        = string
  default     = "recordings/standup.wav"
}

resource "transcription_upload" "standup" {
  source = var.recording

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.transcription_transcribe.standup]
    }
  }
}

action "transcription_transcribe" "standup" {
  config {
    audio_url     = caller.audio_url
    summarization = true

    language_config = {
      languages = ["en"]
    }
    custom_metadata = {
      source = "standup"
    }
  }
}
