# Find the jobs a team created with scripts or SDKs, to bring them under
# management: `terraform query -generate-config-out=generated.tf` writes a
# resource block and an import block for each, which then plan with no
# change. Terraform 1.14 or newer; the provider block is in a .tf file.
list "transcription_job" "support_calls" {
  provider         = transcription
  include_resource = true

  config {
    status          = ["done"]
    custom_metadata = { queue = "support" }
  }
}
