package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

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

// addUnconfirmedNotFound reports a 404 that confirmJobGone did not confirm;
// kept says what became of the job ("" for a read that keeps none).
func addUnconfirmedNotFound(diags *diag.Diagnostics, err *unconfirmedNotFoundError, kept string) {
	diags.AddError("Cannot tell whether the transcription job "+err.id+" still exists",
		fmt.Sprintf("%s\n\nThe listing of jobs at base_url failed too:\n\n%s\n\n"+
			"So base_url may not lead to the transcription service (a path prefix mistyped, another host), whose 404 would mean the job is gone. "+
			"%sCheck base_url.",
			apiErrorDetail(err.notFound), apiErrorDetail(err.listing), kept))
}

// jobKeptInState is what addUnconfirmedNotFound says of a resource's job.
const jobKeptInState = "The job stays in state as it was: nothing is created or deleted again. "

// reportedUnconfirmed asks confirmJobGone about a 404 for job id and, when
// the 404 is not confirmed as the service's, reports it (kept: as for
// addUnconfirmedNotFound) and returns true: the caller then leaves the job
// as it was.
func reportedUnconfirmed(ctx context.Context, c *client.Client, diags *diag.Diagnostics, id string, notFound error, kept string) bool {
	var unconfirmed *unconfirmedNotFoundError
	if !errors.As(confirmJobGone(ctx, c, id, notFound), &unconfirmed) {
		return false
	}
	addUnconfirmedNotFound(diags, unconfirmed, kept)
	return true
}

// addJobNotFound reports a 404 for a job read by its id (the data source,
// an import), once confirmJobGone says whether it is the service's: a 404
// from elsewhere is not a wrong id. The error of a wrong id is at the
// attribute at, if any.
func addJobNotFound(ctx context.Context, c *client.Client, diags *diag.Diagnostics, id string, notFound error, at path.Path, summary, detail string) {
	if reportedUnconfirmed(ctx, c, diags, id, notFound, "") {
		return
	}
	if len(at.Steps()) == 0 {
		diags.AddError(summary, detail)
		return
	}
	diags.AddAttributeError(at, summary, detail)
}
