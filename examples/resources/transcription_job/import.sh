# A job created outside Terraform, by its id; every request attribute is
# rebuilt from the service's record, so the next plan shows no changes.
terraform import transcription_job.interview 3f8a3c1e-2b7d-4c57-9a55-1f0f0e6f8b21
