package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// confirmJobGone tells whether a 404 for job id (notFound) means the job is
// gone. It must be the service's: the listing of jobs answers at base_url
// (asked unless listing is false: zero data retention refuses it). A 404
// from something else there (a path prefix mistyped, another host, a proxy)
// must not be taken for a job gone: the provider would drop a running job
// from state, or mark a finished one retained = false for good, and the
// next apply with the right base_url would create, and bill, the job again.
// And it must come from the address the job was created or last found at:
// elsewhere names that address when base_url has moved since (madeElsewhere;
// "" when it has not), and another service's 404 says nothing of the job.
// It returns nil for a job gone, else the error to report (addNotGone), the
// job kept as it was. The listing (client.ServiceAnswers) costs one small
// request after the first 404 of a run, none after the others.
func confirmJobGone(ctx context.Context, c *client.Client, id string, notFound error, elsewhere string, listing bool) error {
	if listing {
		if err := c.ServiceAnswers(ctx); err != nil {
			return &unconfirmedNotFoundError{id: id, notFound: notFound, listing: err}
		}
	}
	if elsewhere != "" {
		return &jobElsewhereError{id: id, at: elsewhere, now: c.ServiceAddress()}
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

// addNotGone reports err, a 404 that confirmJobGone did not confirm, and
// returns true; false for any other error. kept says what became of the
// job ("" for a read that keeps none).
func addNotGone(diags *diag.Diagnostics, err error, kept string) bool {
	var unconfirmed *unconfirmedNotFoundError
	var elsewhere *jobElsewhereError
	switch {
	case errors.As(err, &unconfirmed):
		advice := "So base_url may not lead to the transcription service (a path prefix mistyped, another host), whose 404 would mean the job is gone. " + kept + "Check base_url."
		if client.IsNotFound(unconfirmed.listing) {
			// The listing's own 404 says so already.
			advice = strings.TrimSpace(kept)
		}
		diags.AddError("Cannot tell whether the transcription job "+unconfirmed.id+" still exists",
			strings.TrimSpace(fmt.Sprintf("%s\n\nThe listing of jobs at base_url failed too:\n\n%s\n\n%s",
				apiErrorDetail(unconfirmed.notFound), apiErrorDetail(unconfirmed.listing), advice)))
	case errors.As(err, &elsewhere):
		diags.AddError("Transcription job not found at this base_url", elsewhere.Error()+"\n\n"+kept)
	default:
		return false
	}
	return true
}

// jobKeptInState is what addNotGone says of a resource's job.
const jobKeptInState = "The job stays in state as it was: nothing is created or deleted again. "

// reportedNotGone asks confirmJobGone about a 404 for job id, created or
// last found elsewhere (madeElsewhere), and, when the 404 does not mean the
// job is gone, reports it (kept: as for addNotGone) and returns true: the
// caller then leaves the job as it was.
func reportedNotGone(ctx context.Context, c *client.Client, diags *diag.Diagnostics, id string, notFound error, elsewhere, kept string) bool {
	return addNotGone(diags, confirmJobGone(ctx, c, id, notFound, elsewhere, true), kept)
}

// liveLookLimit bounds addJobNotFound's look for a live session: it only
// words an error already certain, so one try, briefly (with retries, a
// listing that failed or was slow made a wrong id's plan fail after 27 s).
const liveLookLimit = 5 * time.Second

// addJobNotFound reports a 404 for a job read by its id (the data source,
// an import), once confirmJobGone says whether it is the service's: a 404
// from something else is not a wrong id. The error of a wrong id is at the
// attribute at, if any; an id that is a live session's says so (one look:
// GET /v2/live/{id}, within liveLookLimit), where detail can only suggest
// it.
func addJobNotFound(ctx context.Context, c *client.Client, diags *diag.Diagnostics, id string, notFound error, at path.Path, summary, detail string) {
	if reportedNotGone(ctx, c, diags, id, notFound, "", "") {
		return
	}
	lookCtx, cancel := context.WithTimeout(ctx, liveLookLimit)
	defer cancel()
	if live, err := c.LookLive(lookCtx, id); err == nil {
		detail = fmt.Sprintf("%q is the id of a live session (created %s, %s), not of a pre-recorded job: transcription_job and its data source are for pre-recorded jobs only. "+
			"The transcription_live_jobs data source lists live sessions.", live.ID, live.CreatedAt, live.Status)
	}
	if len(at.Steps()) == 0 {
		diags.AddError(summary, detail)
		return
	}
	diags.AddAttributeError(at, summary, detail)
}
