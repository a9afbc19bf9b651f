terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# The provider block that the list block in list-resource.tfquery.hcl names;
# the service's address and key come from TRANSCRIPTION_BASE_URL and
# TRANSCRIPTION_API_KEY. Run `terraform query` in this folder.
provider "transcription" {}
