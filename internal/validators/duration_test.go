package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestDuration(t *testing.T) {
	runStringValidator(t, Duration(), "timeout", []validatorCase{
		{types.StringValue("30m"), ""},
		{types.StringValue("1h30m"), ""},
		{types.StringValue("1.5h"), ""},
		{types.StringValue("0s"), ""}, // PositiveDuration's to refuse
		{types.StringNull(), ""},
		{types.StringUnknown(), ""},
		{types.StringValue("30 minutes"), `must be a Go duration`},
		{types.StringValue("30"), `got "30"`},
		{types.StringValue(""), `must be a Go duration`},
	})
}
