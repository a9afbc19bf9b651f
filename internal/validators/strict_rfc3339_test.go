package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestStrictRFC3339Validator(t *testing.T) {
	runStringValidator(t, StrictRFC3339(), "after_date", []validatorCase{
		{types.StringValue("2024-05-01T12:00:00Z"), ""},
		{types.StringValue("2024-05-01T12:00:00.123456Z"), ""},
		{types.StringValue("2024-05-01T12:00:00+02:00"), ""},
		{types.StringValue("2024-05-01T12:00:00+23:59"), ""},
		{types.StringValue("2024-05-01T12:00:00-00:00"), ""},
		{types.StringNull(), ""},
		{types.StringUnknown(), ""},
		// What Go's parser (and so timetypes.RFC3339) accepts and RFC 3339 does not.
		{types.StringValue("2024-05-01T12:00:00+24:00"), "offset is not a time of day"},
		{types.StringValue("2024-05-01T12:00:00-24:00"), "offset is not a time of day"},
		{types.StringValue("2024-05-01T12:00:00+01:60"), "offset is not a time of day"},
		{types.StringValue("2024-05-01T12:00:00,5Z"), "not written"},
		// What the type refuses itself: not reported twice.
		{types.StringValue("2024-05-01"), ""},
		{types.StringValue("2024-05-01T12:00:00"), ""},
		{types.StringValue("2024-05-01 12:00:00Z"), ""},
		{types.StringValue("2024-05-01t12:00:00z"), ""},
		{types.StringValue("2024-05-01T25:00:00Z"), ""},
		{types.StringValue("2023-02-29T12:00:00Z"), ""},
	})
}
