package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestRFC3339DateTimeValidator(t *testing.T) {
	runStringValidator(t, RFC3339DateTime(), "after_date", []validatorCase{
		{types.StringValue("2024-05-01T12:00:00Z"), ""},
		{types.StringValue("2024-05-01T12:00:00.123456Z"), ""},
		{types.StringValue("2024-05-01T12:00:00+02:00"), ""},
		{types.StringNull(), ""},
		{types.StringUnknown(), ""},
		{types.StringValue("2024-05-01"), "not written"},
		{types.StringValue("2024-05-01T12:00:00"), "not written"},
		{types.StringValue("2024-05-01 12:00:00Z"), "not written"},
		{types.StringValue("2024-05-01T12:00Z"), "not written"},
		{types.StringValue("2024-05-01t12:00:00z"), "not written"},
		{types.StringValue("2024-05-01T25:00:00Z"), "not a real date and time"},
		{types.StringValue("2023-02-29T12:00:00Z"), "not a real date and time"},
		{types.StringValue("2024-05-01T12:00:00+23:59"), ""},
		{types.StringValue("2024-05-01T12:00:00-00:00"), ""},
		{types.StringValue("2024-05-01T12:00:00+24:00"), "offset is not a time of day"},
		{types.StringValue("2024-05-01T12:00:00-24:00"), "offset is not a time of day"},
		{types.StringValue("2024-05-01T12:00:00+01:60"), "offset is not a time of day"},
	})
}
