package provider

// Placeholder: replaced by the transcription_live_jobs data source (issue 4).

import "github.com/hashicorp/terraform-plugin-framework/datasource"

// NewLiveJobsDataSource returns the transcription_live_jobs data source.
func NewLiveJobsDataSource() datasource.DataSource { return nil }
