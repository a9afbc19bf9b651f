# Find the jobs a team created with scripts or SDKs, to bring them under
# management: `terraform query -generate-config-out=generated.tf` writes a
# resource block and an import block for each, which then plan with no
# change. Terraform 1.14 or newer; the terraform block naming the provider's
# source and the provider block are in main.tf beside it.
list "transcription_job" "support_calls" {
  provider         = transcription
  include_resource = true

  config {
    status          = ["done"]
    custom_metadata = { queue = "support" }
  }
}
