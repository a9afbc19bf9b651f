terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# The key and address may also come from TRANSCRIPTION_API_KEY and
# TRANSCRIPTION_BASE_URL, which keeps the key out of the configuration.
provider "transcription" {
  base_url = "https://api.example.com"
  api_key  = var.transcription_api_key
}

variable "transcription_api_key" {
  type      = string
  sensitive = true
}
