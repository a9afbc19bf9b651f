# An Enterprise account with zero data retention: the service keeps nothing,
# so it cannot be asked for results; it delivers each result once, to a
# callback. Uploads are disabled too: the recording is hosted elsewhere and
# given by a (signed) URL.
terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

provider "transcription" {
  zero_data_retention = true
}

variable "recording_url" {
  description = "Signed URL of the recording, for example a presigned object-storage URL."
  type        = string
  sensitive   = true
}

variable "callback_url" {
  description = "Endpoint of your application that receives the result."
  type        = string
  sensitive   = true
}

resource "transcription_job" "support_call" {
  audio_url = var.recording_url

  # The result is PUT to the callback URL when the job ends; the apply does
  # not wait for it.
  callback = true
  callback_config = {
    url    = var.callback_url
    method = "PUT"
  }

  pii_redaction = true
  pii_redaction_config = {
    entity_types        = ["GDPR"]
    processed_text_type = "MARKER"
  }

  # Sent back with the callback, so the receiver knows what the result is for.
  custom_metadata = {
    ticket = "SUP-4711"
  }
}

# The callback names the job by this id.
output "support_call_job_id" {
  value = transcription_job.support_call.id
}
