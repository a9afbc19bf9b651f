# Live sessions of the production environment that finished today.
data "transcription_live_jobs" "today" {
  date   = "2026-11-22"
  status = ["done", "error"]
  custom_metadata = {
    env = "prod"
  }
}

output "failed_live_jobs" {
  value = [for job in data.transcription_live_jobs.today.items : job.id if job.status == "error"]
}
