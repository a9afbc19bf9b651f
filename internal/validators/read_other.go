package validators

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// readOther reads the value of another attribute, at p, as T (a string, a
// *big.Float). It reads it as an attr.Value and then as its Terraform
// value, whatever custom type the schema gives it (numtypes.Int64,
// datetimetypes.RFC3339): the framework will not read a custom type's value
// into its base type. ok is false when it is unreadable, null or unknown;
// kind names T in the error of a schema where it is not one.
func readOther[T any](ctx context.Context, config tfsdk.Config, p path.Path, kind string, diags *diag.Diagnostics) (T, bool) {
	var out T
	var value attr.Value
	d := config.GetAttribute(ctx, p, &value)
	diags.Append(d...)
	if d.HasError() || value.IsNull() || value.IsUnknown() {
		return out, false
	}
	tv, err := value.ToTerraformValue(ctx)
	if err == nil {
		err = tv.As(&out)
	}
	if err != nil {
		diags.AddAttributeError(p, "Invalid Validator", fmt.Sprintf("%s is not %s: a bug in the provider's schema (%v).", p, kind, err))
		return out, false
	}
	return out, true
}

// otherDateTime is the RFC 3339 date-time another attribute holds.
type otherDateTime struct {
	path path.Path
	text string
	at   time.Time
}

// otherDateTimes returns the date-times of the attributes other matches
// (relative to the attribute req validates) that are known and valid:
// their type (datetimetypes.RFC3339) reports malformed ones.
func otherDateTimes(ctx context.Context, req validator.StringRequest, other path.Expression, diags *diag.Diagnostics) []otherDateTime {
	matched, d := req.Config.PathMatches(ctx, req.PathExpression.Merge(other))
	diags.Append(d...)
	var out []otherDateTime
	for _, p := range matched {
		text, ok := readOther[string](ctx, req.Config, p, "a string", diags)
		if !ok {
			continue
		}
		if at, err := client.ParseDateTimeFilter(text); err == nil {
			out = append(out, otherDateTime{path: p, text: text, at: at})
		}
	}
	return out
}
