terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# The support team's application creates a job per call, outside Terraform,
# tagged with custom_metadata. Its failed jobs, for an alert:
data "transcription_jobs" "failed_support_calls" {
  status          = ["error"]
  custom_metadata = { team = "support" }
  limit           = 20
}

output "failed_support_calls" {
  value = [
    for job in data.transcription_jobs.failed_support_calls.items :
    format("%s  %s  error %s", job.created_at, job.id, job.error_code == null ? "(no code)" : tostring(job.error_code))
  ]
}

# The summaries of today's (UTC) support calls, by job: a summary is kept
# without include_transcript, as it does not grow with the recording.
data "transcription_jobs" "support_calls_today" {
  status          = ["done"]
  date            = formatdate("YYYY-MM-DD", plantimestamp())
  custom_metadata = { team = "support" }
}

output "support_call_summaries" {
  value = {
    for job in data.transcription_jobs.support_calls_today.items :
    job.id => job.result.summarization.results
    if job.result.summarization != null
  }
}
