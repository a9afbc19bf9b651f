terraform {
  # An import block's identity needs Terraform 1.12 or OpenTofu 1.12 or
  # newer: older engines then say so at terraform init, instead of
  # "Missing required argument" at plan.
  required_version = ">= 1.12"

  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# Terraform 1.12 and OpenTofu 1.12 and newer also import by resource
# identity: the job's id, named as an attribute rather than given as an
# import string.
variable "job_id" {
  description = "Id of the job to import, as returned when it was created."
  type        = string
}

import {
  to       = transcription_job.board_meeting
  identity = { id = var.job_id }
}

resource "transcription_job" "board_meeting" {
  audio_url     = "https://media.example.com/meetings/board-2025-03.wav"
  summarization = true
}
