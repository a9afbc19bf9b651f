package provider

// Placeholder: replaced by the transcription_job resource (issue 3).

import "github.com/hashicorp/terraform-plugin-framework/resource"

// NewJobResource returns the transcription_job resource.
func NewJobResource() resource.Resource { return nil }
