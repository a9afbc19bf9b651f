# Transcribe a recording as soon as it is uploaded, without keeping a job in
# state: the action runs after the upload is created or replaced, waits for
# the transcript and reports the job's progress and outcome. Terraform 1.14
# or newer.
variable "recording" {
  description = "Path of the recording to transcribe."
  type        = string
  default     = "recordings/standup.wav"
}

resource "transcription_upload" "standup" {
  source = var.recording

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.transcription_transcribe.standup]
    }
  }
}

action "transcription_transcribe" "standup" {
  config {
    audio_url     = transcription_upload.standup.audio_url
    summarization = true

    language_config = {
      languages = ["en"]
    }
    custom_metadata = {
      source = "standup"
    }
  }
}
