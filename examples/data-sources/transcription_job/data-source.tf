terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# A job created by another application, read by its id: for example a call
# center that submits each call and publishes the job's id.
variable "call_job_id" {
  description = "Id of the job, as returned when it was created."
  type        = string
}

data "transcription_job" "call" {
  id                 = var.call_job_id
  include_transcript = true
}

output "call_status" {
  value = data.transcription_job.call.status
}

# Null until the job is done: the data source does not wait.
output "call_transcript" {
  value = try(data.transcription_job.call.result.transcription.full_transcript, null)
}
