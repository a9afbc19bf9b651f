# A job created by another application, read by its id.
data "transcription_job" "call" {
  id = "3f8a3c1e-2b7d-4c57-9a55-1f0f0e6f8b21"
}

output "call_transcript" {
  value = data.transcription_job.call.result.transcription.full_transcript
}
