terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# Bring a job created outside Terraform (by an application, a script) under
# management with an import block: the plan reads the job and shows no
# change when the resource block matches the options it was created with.
variable "job_id" {
  description = "Id of the job to import, as returned when it was created."
  type        = string
}

import {
  to = transcription_job.support_call
  id = var.job_id
}

resource "transcription_job" "support_call" {
  audio_url = "https://media.example.com/calls/call-0142.wav"

  language_config = {
    languages = ["en"]
  }
  sentiment_analysis = true

  custom_metadata = {
    queue = "billing"
  }
}
