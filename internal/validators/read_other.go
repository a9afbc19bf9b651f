package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
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
