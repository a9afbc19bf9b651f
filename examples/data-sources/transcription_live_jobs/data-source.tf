terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# The last live sessions of the production environment that failed, for an
# alert.
data "transcription_live_jobs" "failed_in_prod" {
  status = ["error"]
  custom_metadata = {
    env = "prod"
  }
  limit = 20
}

output "failed_prod_sessions" {
  value = [
    for job in data.transcription_live_jobs.failed_in_prod.items :
    format("%s  %s  error %s", job.created_at, job.id, job.error_code == null ? "(no code)" : tostring(job.error_code))
  ]
}

# Every live session of today (UTC), counted by status.
data "transcription_live_jobs" "today" {
  date = formatdate("YYYY-MM-DD", plantimestamp())
}

output "sessions_today_by_status" {
  value = {
    for status in ["queued", "processing", "done", "error"] :
    status => length([for job in data.transcription_live_jobs.today.items : job if job.status == status])
  }
}
