package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// confirmJobGone tells whether a 404 for job id (notFound) is the
// service's: it is when the listing of jobs answers at base_url. A 404 from
// something else there (a path prefix mistyped, another host, a proxy)
// must not be taken for a job gone: the provider would drop a running job
// from state, or mark a finished one retained = false for good, and the
// next apply with the right base_url would create, and bill, the job again.
// It returns nil for a job gone, else the error to report, the job kept as
// it was. The check (client.ServiceAnswers) costs one small request after
// the first 404 of a run, none after the others.
func confirmJobGone(ctx context.Context, c *client.Client, id string, notFound error) error {
	if err := c.ServiceAnswers(ctx); err != nil {
		return &unconfirmedNotFoundError{id: id, notFound: notFound, listing: err}
	}
	return nil
}

// unconfirmedNotFoundError is a 404 for a job that the listing of jobs
// could not confirm.
type unconfirmedNotFoundError struct {
	id                string
	notFound, listing error
}

func (e *unconfirmedNotFoundError) Error() string {
	return fmt.Sprintf("%s; and the listing of jobs at base_url failed too: %s", e.notFound, e.listing)
}

func (e *unconfirmedNotFoundError) Unwrap() error { return e.notFound }

// addUnconfirmedNotFound reports a 404 that confirmJobGone did not confirm.
func addUnconfirmedNotFound(diags *diag.Diagnostics, err *unconfirmedNotFoundError) {
	diags.AddError("Cannot tell whether the transcription job "+err.id+" still exists",
		fmt.Sprintf("%s\n\nThe listing of jobs at base_url failed too:\n\n%s\n\n"+
			"So base_url may not lead to the transcription service (a path prefix mistyped, another host), whose 404 would mean the job is gone. "+
			"The job stays in state as it was: nothing is created or deleted again. Check base_url.",
			apiErrorDetail(err.notFound), apiErrorDetail(err.listing)))
}
