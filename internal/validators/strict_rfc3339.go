package validators

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var _ validator.String = strictRFC3339Validator{}

// strictRFC3339Validator refuses the date-times timetypes.RFC3339 accepts
// but RFC 3339, and so the service, does not. The type parses with Go's
// time.Parse, which takes offsets up to ±24:60 and a comma before the
// fraction; RFC 3339's offset hours end at 23, its minutes at 59, and its
// fraction follows a dot. The attribute's type reports every other
// malformed value, so this checks only values the type accepts: one fault,
// one diagnostic.
type strictRFC3339Validator struct{}

// StrictRFC3339 returns a validator refusing what RFC 3339 does not allow
// and Go's parser does, for attributes of type timetypes.RFC3339Type.
func StrictRFC3339() validator.String { return strictRFC3339Validator{} }

func (v strictRFC3339Validator) Description(_ context.Context) string {
	return "value must be an RFC 3339 date-time: a dot before any fraction of a second, and an offset from -23:59 to +23:59"
}

func (v strictRFC3339Validator) MarkdownDescription(_ context.Context) string {
	return "value must be an RFC 3339 date-time: a `.` before any fraction of a second, and an offset from `-23:59` to `+23:59`"
}

func (v strictRFC3339Validator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	if _, err := time.Parse(time.RFC3339, s); err != nil {
		return // the type's own check reports it
	}
	if _, err := client.ParseDateTimeFilter(s); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid RFC3339 String Value",
			fmt.Sprintf("Attribute %s %s, got %q: %s.", req.Path, v.Description(ctx), s, err))
	}
}
