package provider

import (
	"context"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/datetimetypes"
	"github.com/transcription-service/terraform-provider-transcription/internal/validators"
)

// listFilterModel holds the filters the service's two listings share
// (GET /v2/live and GET /v2/pre-recorded): the transcription_live_jobs data
// source and the transcription_job list resource embed it.
type listFilterModel struct {
	Status         types.List            `tfsdk:"status"`
	Date           types.String          `tfsdk:"date"`
	AfterDate      datetimetypes.RFC3339 `tfsdk:"after_date"`
	BeforeDate     datetimetypes.RFC3339 `tfsdk:"before_date"`
	CustomMetadata types.Map             `tfsdk:"custom_metadata"`
}

// listOptions converts the filters (checked at plan time).
func (m listFilterModel) listOptions(ctx context.Context) (client.ListOptions, diag.Diagnostics) {
	var diags diag.Diagnostics
	opts := client.ListOptions{
		Date:       m.Date.ValueString(),
		AfterDate:  m.AfterDate.ValueString(),
		BeforeDate: m.BeforeDate.ValueString(),
	}
	if !m.Status.IsNull() {
		diags.Append(m.Status.ElementsAs(ctx, &opts.Status, false)...)
	}
	if !m.CustomMetadata.IsNull() {
		diags.Append(m.CustomMetadata.ElementsAs(ctx, &opts.CustomMetadata, false)...)
	}
	return opts, diags
}

// Descriptions of the filters, the same in every schema that has them.
var (
	listStatusDescription         = "Keep jobs in any of these statuses: " + markdownList(client.JobStatuses) + ". Empty or left out: every status."
	listDateDescription           = "Keep jobs created on this UTC calendar day, in the form `YYYY-MM-DD`. With `after_date` or `before_date`, the day must have time after the one and before the other (else nothing could be listed)."
	listAfterDateDescription      = "Keep jobs created after this RFC 3339 (ISO 8601) date-time, such as `2024-05-01T12:00:00Z`. Must be earlier than `before_date` when both are set."
	listBeforeDateDescription     = "Keep jobs created before this RFC 3339 (ISO 8601) date-time, such as `2024-05-02T00:00:00Z`."
	listCustomMetadataDescription = "Keep jobs whose `custom_metadata` has every one of these pairs. A number or boolean in a job's metadata matches its JSON text as the job's `custom_metadata` shows it (`2`, `true`, every digit of a long number); null, lists and objects match nothing (the service's interface does not say how it matches them; the fake server matches them so, and a number by the text it was sent as too). " +
		"Keys cannot contain square brackets, which the query encoding `custom_metadata[key]=value` cannot carry."
)

// Validators of the filters, the same in every schema that has them. A null
// element or value has no form in the query string: it is refused rather
// than left to fail the conversion after planning.
func listStatusValidators() []validator.List {
	// An empty list filters on no status, as leaving status out does: the
	// request is the same (no status parameter), and a configuration may
	// build the list (var.only_failed ? ["error"] : []).
	return []validator.List{validators.NoNullElements(), listvalidator.ValueStringsAre(stringvalidator.OneOf(client.JobStatuses...))}
}

// A day outside the date-time range would list nothing, always.
func listDateValidators() []validator.String {
	return []validator.String{validators.CalendarDate(), validators.DayOverlapsRange(path.MatchRoot("after_date"), path.MatchRoot("before_date"))}
}

func listAfterDateValidators() []validator.String {
	return []validator.String{validators.EarlierThan(path.MatchRoot("before_date"))}
}

func listCustomMetadataValidators() []validator.Map {
	return []validator.Map{validators.NoNullElements(), mapvalidator.KeysAre(metadataKey())}
}

// metadataKeyPattern matches the custom metadata keys the query encoding
// custom_metadata[key]=value can carry.
var metadataKeyPattern = regexp.MustCompile(`^[^\[\]]+$`)

// metadataKey validates a custom metadata key of a listing filter.
func metadataKey() validator.String {
	return validators.StringMatches(metadataKeyPattern, "key must not be empty or contain square brackets")
}
