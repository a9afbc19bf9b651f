package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// privateJobEndpoint is the private state key of the service address (the
// provider's base_url, as the client writes it) a job was created, imported
// or last found through. The service's 404 for a job means the job is gone
// only at that address: after base_url moved (another region, another
// service), it says nothing of the job, which a refresh took as gone
// (retained = false, for good), recreate_when_missing created again
// (billed), and a destroy took as deleted (the job left on the service).
const privateJobEndpoint = "endpoint"

// recordJobEndpoint records in to that the job was found through c's
// address, unless from records that already.
func recordJobEndpoint(ctx context.Context, from privateState, to privateStateWriter, c *client.Client, diags *diag.Diagnostics) {
	address := c.ServiceAddress()
	if recordedJobEndpoint(ctx, from) == address {
		return
	}
	value, _ := json.Marshal(address)
	diags.Append(to.SetKey(ctx, privateJobEndpoint, value)...)
}

// recordedJobEndpoint is the address recorded in private, "" for none (a
// job in state from before addresses were recorded).
func recordedJobEndpoint(ctx context.Context, private privateState) string {
	var address string
	if private == nil {
		return ""
	}
	if raw, _ := private.GetKey(ctx, privateJobEndpoint); json.Unmarshal(raw, &address) != nil {
		return ""
	}
	return address
}

// jobElsewhere returns the address the job was created or last found at
// when c now uses another; "" otherwise (the same, or none recorded).
func jobElsewhere(ctx context.Context, private privateState, c *client.Client) string {
	at := recordedJobEndpoint(ctx, private)
	if at == "" || client.EquivalentHTTPURL(at) == client.EquivalentHTTPURL(c.ServiceAddress()) {
		return ""
	}
	return at
}

// jobElsewhereError is a 404 for a job at another address than the one it
// was created or last found at.
type jobElsewhereError struct{ id, at, now string }

func (e *jobElsewhereError) Error() string { return jobElsewhereDetail(e.id, e.at, e.now) }

// reportedElsewhere reports, for job id that the service at c's address
// answered 404 for, an error when the job was created or last found through
// another address, and returns true: the caller then leaves the job as it
// was (kept says how).
func reportedElsewhere(ctx context.Context, private privateState, c *client.Client, diags *diag.Diagnostics, id, kept string) bool {
	at := jobElsewhere(ctx, private, c)
	if at == "" {
		return false
	}
	diags.AddError("Transcription job not found at this base_url", jobElsewhereDetail(id, at, c.ServiceAddress())+"\n\n"+kept)
	return true
}

func jobElsewhereDetail(id, at, now string) string {
	return fmt.Sprintf("The service at %s has no job %s, which was created (or last found) at %s: the provider's base_url (or TRANSCRIPTION_BASE_URL) changed since, so this answer says nothing of the job. "+
		"Set base_url back to reach the job. To stop managing it instead, remove it from state (a removed block with destroy = false, or terraform state rm); it stays on the service until its retention ends.", now, id, at)
}
