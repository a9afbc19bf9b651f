package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// privateEndpoint is the private state key of the service address (the
// provider's base_url, as the client writes it) a job was created, imported
// or last found through, or an upload made through. The service's 404 for
// a job means the job is gone only at that address: after base_url moved
// (another region, another service), it says nothing of the job, which a
// refresh took as gone (retained = false, for good), recreate_when_missing
// created again (billed), and a destroy took as deleted (the job left on
// the service). An upload's file stays with the service it was made
// through.
const privateEndpoint = "endpoint"

// recordEndpoint records in to that the job (or upload) was made or found
// through c's address, unless from records that already.
func recordEndpoint(ctx context.Context, from privateState, to privateStateWriter, c *client.Client, diags *diag.Diagnostics) {
	if address := c.ServiceAddress(); privateString(ctx, from, privateEndpoint) != address {
		setPrivateString(ctx, to, privateEndpoint, address, diags)
	}
}

// forgetJobEndpoint forgets, in to, the address of a job found gone there:
// it cannot come back, so its 404 anywhere (a destroy's) means it is gone.
func forgetJobEndpoint(ctx context.Context, to privateStateWriter, diags *diag.Diagnostics) {
	setPrivateString(ctx, to, privateEndpoint, "", diags)
}

// madeElsewhere returns the address the job (or upload) was made or last
// found through when c now uses another; "" otherwise (the same, or none
// recorded: a job found gone, or one in state from before addresses were
// kept).
func madeElsewhere(ctx context.Context, private privateState, c *client.Client) string {
	at := privateString(ctx, private, privateEndpoint)
	if at == "" || client.EquivalentHTTPURL(at) == client.EquivalentHTTPURL(c.ServiceAddress()) {
		return ""
	}
	return at
}

// jobElsewhereError is a 404 for a job at another address than the one it
// was created or last found at (confirmJobGone).
type jobElsewhereError struct{ id, at, now string }

func (e *jobElsewhereError) Error() string {
	return fmt.Sprintf("The service at %s has no job %s, which was created (or last found) at %s: the provider's base_url (or TRANSCRIPTION_BASE_URL) changed since, or the resource now uses another provider configuration (its provider argument, a moved block), so this answer says nothing of the job. "+
		"Set base_url back, or give the resource the provider configuration it was created with, to reach the job. To stop managing it instead, remove it from state with terraform state rm and its address (a removed block with destroy = false does it too, applied with -refresh=false where the engine refreshes the instance first and stops at this error: Terraform before 1.16, OpenTofu); it stays on the service until its retention ends.", e.now, e.id, e.at)
}
