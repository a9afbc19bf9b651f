terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# The provider reads the service's address from TRANSCRIPTION_BASE_URL and
# the API key from TRANSCRIPTION_API_KEY, which keeps the key out of the
# configuration, its variables and the state. Both may also be set here with
# the base_url and api_key arguments (the key from a variable declared
# ephemeral = true, which plan files do not keep).
provider "transcription" {}

# Any resource or data source of the provider, for example the last live
# sessions that failed.
data "transcription_live_jobs" "failed" {
  status = ["error"]
  limit  = 5
}

output "failed_live_sessions" {
  value = data.transcription_live_jobs.failed.ids
}
