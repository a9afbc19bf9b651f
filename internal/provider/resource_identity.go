package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// identityDisagrees reports, with an error in diags, an identity in state
// that names another id than the state's id: a state edited by hand, or by
// a tool that changed one and not the other. The framework's own error for
// it names neither value and blames the provider. remedy says how to set
// it right.
func identityDisagrees(ctx context.Context, identity *tfsdk.ResourceIdentity, state tfsdk.State, remedy string, diags *diag.Diagnostics) bool {
	if identity == nil || identity.Raw.IsNull() {
		return false
	}
	var held, id types.String
	if d := identity.GetAttribute(ctx, path.Root("id"), &held); d.HasError() || held.ValueString() == "" {
		return false
	}
	if d := state.GetAttribute(ctx, path.Root("id"), &id); d.HasError() || id.ValueString() == "" || id.ValueString() == held.ValueString() {
		return false
	}
	diags.AddError("The resource's identity does not match its id",
		fmt.Sprintf("The state holds id %q for this resource and id %q in its identity, which must be the same: the identity is how Terraform finds the object again. "+
			"The state was edited by hand, or by a tool that changed one and not the other. %s",
			id.ValueString(), held.ValueString(), remedy))
	return true
}
