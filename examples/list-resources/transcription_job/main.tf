terraform {
  # terraform query needs Terraform 1.14 or newer (OpenTofu has no query).
  required_version = ">= 1.14"

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
