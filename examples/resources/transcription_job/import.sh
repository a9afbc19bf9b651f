# A job created outside Terraform, imported by its id: every request attribute
# is rebuilt from the service's record, so the next plan replaces nothing when
# the resource block matches the options the job was created with. Settings of
# the provider alone take their defaults (include_transcript = false, ...): a
# block setting them otherwise plans an update in place, which bills nothing
# (include_transcript and include_raw_result read the job again).
terraform import transcription_job.standup 3f8a3c1e-2b7d-4c57-9a55-1f0f0e6f8b21
