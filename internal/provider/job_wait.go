package provider

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// pollSchedule is how often a running job is looked at: at once, then after
// waits of a tenth of the time waited so far (pollFraction), never shorter
// than initial nor longer than max.
//
// A job that ends at P, between two looks at t < P and t + delay(t), is seen
// by the second: the overshoot is at most delay(t) < max(initial, P/10), plus
// one round trip, and never more than max. The looks number P/initial while
// t < 10·initial (ten looks), then t grows by a tenth per look, about 24
// looks per tenfold of P, up to 10·max; past that one per max. With the
// defaults a job is seen within max(250 ms, 10 % of P), at most a minute
// late, in about 11 + ln(P/2.5 s)/ln(1.1) looks up to P = 10 min (9 looks
// for 2 s, 38 for 30 s, 69 for 10 min), then one a minute (119 for an hour):
// a cap of 10 minutes saw an hour's job up to 6 minutes after it ended, for
// 31 looks fewer.
//
// Looks that far apart would miss a job that ends in the last tenth of the
// wait's limit (up to 6 minutes of an hour's), which an apply then taints,
// to be replaced and billed again: lastLook before the wait's deadline, one
// more look comes (0: none).
type pollSchedule struct {
	initial  time.Duration // the shortest wait
	max      time.Duration // the longest wait
	lastLook time.Duration // how long before the deadline the last look comes
	// jitter spreads each wait at random by up to this fraction either
	// way: jobs created together (an apply's parallel creates) looked
	// together for their whole wait, a burst of requests at each look (0:
	// none).
	jitter float64
}

// pollFraction: each wait is a pollFraction-th of the time waited so far.
const pollFraction = 10

// defaultPollSchedule's last look leaves a look's round trip (a result of
// megabytes included) before the deadline.
var defaultPollSchedule = pollSchedule{initial: 250 * time.Millisecond, max: time.Minute, lastLook: 2 * time.Second, jitter: 0.1}

// delay is the wait after a look made elapsed after waiting began.
func (s pollSchedule) delay(elapsed time.Duration) time.Duration {
	return min(max(elapsed/pollFraction, s.initial), s.max)
}

// delayAfter is delay, spread at random (jitter), or longer when the look
// failed with an answer that asked for a longer wait (a 429's
// Retry-After): the client keeps to it between its own retries, and a wait
// looking again on its schedule once they are spent (at once with
// max_retries = 0) would not, for every job of a batch at a time.
func (s pollSchedule) delayAfter(elapsed time.Duration, lookFailure error) time.Duration {
	return max(s.jittered(s.delay(elapsed)), client.RetryAfterOf(lookFailure))
}

// jittered is d spread at random by up to s.jitter of it either way,
// within the schedule's shortest and longest waits.
func (s pollSchedule) jittered(d time.Duration) time.Duration {
	if s.jitter <= 0 {
		return d
	}
	spread := time.Duration(float64(d) * (1 - s.jitter + 2*s.jitter*rand.Float64())) //nolint:gosec // spreading, not a secret
	return min(max(spread, s.initial), s.max)
}

// waitBefore is the wait before the next look, elapsed after waiting began
// (lookFailure as for delayAfter): delayAfter, or shorter so that the last
// look comes lastLook before ctx's deadline when the next would come after
// it. A wait the service asked for (Retry-After) is kept to.
func (s pollSchedule) waitBefore(ctx context.Context, elapsed time.Duration, lookFailure error) time.Duration {
	wait := s.delayAfter(elapsed, lookFailure)
	deadline, ok := ctx.Deadline()
	if !ok || s.lastLook <= 0 {
		return wait
	}
	if untilLast := time.Until(deadline) - s.lastLook; untilLast > 0 && untilLast < wait {
		return max(untilLast, client.RetryAfterOf(lookFailure))
	}
	return wait
}

// lookContext is ctx for one look of a wait: the client's retries of a
// look before the last leave room for the last, lastLook before ctx's
// deadline (a backoff of up to 15 s slept past it, and a job that ended
// meanwhile was reported timed out, tainted, and billed again). The last
// look's own retries go on within the deadline.
func (s pollSchedule) lookContext(ctx context.Context) context.Context {
	deadline, ok := ctx.Deadline()
	if !ok || s.lastLook <= 0 || time.Until(deadline) <= s.lastLook {
		return ctx
	}
	return client.WithRetriesBefore(ctx, deadline.Add(-s.lastLook))
}

// errJobNotFinal is wrapped by waitForFinalJob's error when the wait ended
// (timeout or interrupt) before the job did.
var errJobNotFinal = errors.New("the job has not ended")

// waitForFinalJob polls the job until its status is final, ctx ends, or the
// service fails for good. It returns the last record seen, which is the final
// one when the error is nil. ctx carries the deadline of timeouts.create and
// is cancelled when Terraform is interrupted: both stop the wait at once.
//
// A look the service fails transiently, after the client's own retries
// (client.IsTransient: 429, 5xx, a lost connection), does not end the wait:
// the job goes on at the service, and ending the wait would taint it, to be
// replaced and billed again. The wait looks again on its schedule, and if
// ctx ends first its error carries the service's last failure.
//
// onLook, unless nil, is told the status of every look that succeeded.
func waitForFinalJob(ctx context.Context, c *client.Client, id string, schedule pollSchedule, detail client.Detail, onLook func(status string)) (*client.PreRecordedJob, error) {
	return waitUntilFinal(ctx, c, id, schedule, detail, onLook, false)
}

// waitUntilFinal is waitForFinalJob; with unansweredEnds, until the service
// has answered a look, or any call of the client has succeeded (a create
// earlier in the same apply), one that got no answer at all after the
// client's retries (nothing listening at base_url, the wrong scheme, no
// such host) ends the wait with its error: for a job read by its id (the
// data source's), a base_url or a network to fix is no outage to wait out
// for timeouts.read, an hour by default. A create's answer has shown the
// service reachable already.
func waitUntilFinal(ctx context.Context, c *client.Client, id string, schedule pollSchedule, detail client.Detail, onLook func(status string), unansweredEnds bool) (*client.PreRecordedJob, error) {
	var last *client.PreRecordedJob
	var failing error // the service's failure of the last look, if it failed
	answered := false
	unseen404s := 0 // looks answered 404 before any look succeeded
	unreadable := 0 // looks in a row answered with JSON the client could not read
	start := time.Now()
	for {
		job, err := c.GetPreRecorded(schedule.lookContext(ctx), id, detail)
		var transportErr *client.TransportError
		unanswered := errors.As(err, &transportErr) && !transportErr.Written
		answered = answered || err == nil || !unanswered
		if client.IsNotFound(err) && last == nil {
			unseen404s++
		}
		var decodeErr *client.DecodeError
		if errors.As(err, &decodeErr) && !decodeErr.NotJSON {
			unreadable++
		} else {
			unreadable = 0
		}
		// The service has shown itself: a look at the job, the create that
		// made it, or any request of the run was answered.
		shown := last != nil || !unansweredEnds || c.Succeeded()
		switch {
		case err != nil && ctx.Err() != nil:
			var interrupted *client.InterruptedError
			if errors.As(err, &interrupted) && interrupted.Last != nil && client.IsTransient(interrupted.Last) {
				failing = interrupted.Last // the client was between retries of this look
			}
			return last, jobNotFinal(ctx.Err(), failing)
		case err != nil && !client.IsTransient(err) && !lookAgain(err, shown, last == nil && unseen404s < maxNotFoundLooks, unreadable < maxUnreadableLooks), unansweredEnds && !answered && !c.Succeeded():
			return last, err
		case err != nil:
			failing = err
			tflog.Warn(ctx, "transcription service failed a look at the job; waiting goes on", map[string]any{"id": id, "error": err.Error()})
		default:
			failing = nil
			if last == nil || last.Status != job.Status {
				tflog.Debug(ctx, "transcription job status", map[string]any{"id": id, "status": job.Status})
			}
			if onLook != nil {
				onLook(job.Status)
			}
			last = job
			if client.IsFinal(job.Status) {
				return job, nil
			}
		}
		if err := client.Sleep(ctx, schedule.waitBefore(ctx, time.Since(start), failing)); err != nil {
			return last, jobNotFinal(err, failing)
		}
	}
}

// maxNotFoundLooks is how many looks at a job just created the service may
// answer 404 before the wait takes the job as gone: a service's read may
// lag its create, as HashiCorp's retry.StateChangeConf allows for
// (NotFoundChecks). A job seen once is gone at its first 404.
const maxNotFoundLooks = 10

// maxUnreadableLooks is how many looks in a row may be answered with JSON
// the client cannot read (cut short by a proxy, a record that does not
// fit) before the wait ends with the error: one that lasts (a result past
// the client's size limit) is no outage to wait out.
const maxUnreadableLooks = 3

// lookAgain reports whether a wait goes on after err, a failure that a
// later look may not meet though the client does not retry it, once the
// service has shown itself at base_url (shown): an answer of success that
// is not JSON (a proxy's or a maintenance page), as an outage is; a few in
// a row that are JSON it could not read (unreadableLeft); a 404 at a job
// no look has seen yet (mayLag: a service's read may lag its create).
// Each ended the wait, and an apply's ended with the job tainted, replaced
// and billed again though it went on to finish.
func lookAgain(err error, shown, mayLag, unreadableLeft bool) bool {
	var decodeErr *client.DecodeError
	switch {
	case errors.As(err, &decodeErr):
		return shown && (decodeErr.NotJSON || unreadableLeft)
	case client.IsNotFound(err):
		return shown && mayLag
	}
	return false
}

// serviceFailingError is the service's failure of the last look at a job
// whose wait ended (ctx) while the service was failing.
type serviceFailingError struct{ err error }

func (e *serviceFailingError) Error() string { return "the service's last answer: " + e.err.Error() }
func (e *serviceFailingError) Unwrap() error { return e.err }

// jobNotFinal is the error of a wait that ended, by ctxErr, before the job
// did; failing, unless nil, is how the service failed the last look.
func jobNotFinal(ctxErr, failing error) error {
	if failing == nil {
		return fmt.Errorf("%w: %w", errJobNotFinal, ctxErr)
	}
	return fmt.Errorf("%w: %w (%w)", errJobNotFinal, ctxErr, &serviceFailingError{failing})
}

// deleteJob deletes the job, counting a job the service no longer has as
// deleted, once confirmJobGone says its 404 means that (elsewhere: as for
// confirmJobGone). The service refuses (403) to delete a job that is still queued or
// processing, so deleteJob waits until it may, within ctx. Without zero data
// retention it looks at the job to tell that refusal from any other 403,
// and then watches the job's status, not sending the DELETE again until the
// job has ended: a job that has ended is deleted again at once (it may have
// ended between the DELETE and the look), and only a 403 for a job already
// seen ended is final. Under zero data retention, which refuses the look,
// and while a look fails, the DELETE is sent again on the schedule.
func deleteJob(ctx context.Context, c *client.Client, id string, schedule pollSchedule, zeroDataRetention bool, elsewhere string) error {
	start := time.Now()
	var refusal error // the service's last "not deletable yet"
	endedBeforeDelete := false
	// lookFailure: how the last look at the job failed, if it did.
	wait := func(lookFailure error) error {
		tflog.Debug(ctx, "transcription job not deletable yet, waiting", map[string]any{"id": id})
		if sleepErr := client.Sleep(ctx, schedule.waitBefore(ctx, time.Since(start), lookFailure)); sleepErr != nil {
			return fmt.Errorf("%w: %w (last answer: %w)", errJobNotFinal, sleepErr, refusal)
		}
		return nil
	}
	for {
		// Its retries go on to ctx's deadline: a failure that is no 403
		// ends the deletion, with no later look to leave room for.
		err := c.DeletePreRecorded(ctx, id)
		switch {
		case err == nil:
			return nil
		case client.IsNotFound(err):
			return confirmJobGone(ctx, c, id, err, elsewhere, !zeroDataRetention)
		case ctx.Err() != nil && refusal != nil:
			return fmt.Errorf("%w: %w (last answer: %w)", errJobNotFinal, ctx.Err(), refusal)
		case !client.IsStatus(err, http.StatusForbidden), endedBeforeDelete:
			return err // refused for a reason waiting cannot fix
		}
		refusal = err
		var lookFailure error
		if !zeroDataRetention {
			ended, done, doneErr, failure := watchUntilEnded(ctx, schedule, c, id, wait, elsewhere)
			if done {
				return doneErr
			}
			if ended {
				endedBeforeDelete = true
				continue
			}
			lookFailure = failure
		}
		if err := wait(lookFailure); err != nil {
			return err
		}
	}
}

// watchUntilEnded looks at a job the service refused to delete until it
// has ended, waiting between looks, and reports whether it has. done, with
// its error, ends the deletion: the job is gone (confirmJobGone's answer),
// or a wait ended. A look that fails (a 403 where the account has zero
// data retention unknown to the provider, a 5xx) ends the watch with
// neither, and with its failure (lookFailure): the DELETE is then sent
// again on the schedule.
func watchUntilEnded(ctx context.Context, schedule pollSchedule, c *client.Client, id string, wait func(lookFailure error) error, elsewhere string) (ended, done bool, doneErr, lookFailure error) {
	for {
		status, err := c.GetPreRecordedStatus(schedule.lookContext(ctx), id)
		switch {
		case client.IsNotFound(err):
			return false, true, confirmJobGone(ctx, c, id, err, elsewhere, true), nil
		case err == nil && client.IsFinal(status):
			return true, false, nil, nil
		case err == nil:
			if err := wait(nil); err != nil {
				return false, true, err, nil
			}
		default:
			return false, false, nil, err
		}
	}
}

// jobFailureDetail explains a job that ended in error: its error_code, the
// errors of its add-ons, and its request_id for the service's support.
func jobFailureDetail(job *client.PreRecordedJob) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Transcription job %s ended with status %q", job.ID, job.Status)
	if job.ErrorCode != nil {
		b.WriteString(", " + errorCodeText(*job.ErrorCode))
	}
	b.WriteString(".")
	if addons := addonFailures(job.Result, translationTargets(job)); len(addons) > 0 {
		b.WriteString("\n\nAdd-on errors:\n" + strings.Join(addons, "\n"))
	}
	if job.RequestID != "" {
		fmt.Fprintf(&b, "\n\nrequest_id: %s (quote it when asking the service's support)", client.Printable(job.RequestID))
	}
	return b.String()
}

// uploadNotFoundNote explains a job that failed with error_code 404 while
// its audio_url is a file uploaded to the service (on base_url's host, known
// to data once base_url is, even while api_key is not): the service deletes
// uploads at the end of their retention period, and a job made again from
// the same audio_url fails the same way.
func uploadNotFoundNote(data *ProviderData, audioURL string, errorCode *int64) string {
	if errorCode == nil || *errorCode != http.StatusNotFound || !data.onServiceHost(audioURL) {
		return ""
	}
	return "\n\nIts audio_url names a file uploaded to the service, which the service does not have (it deletes uploads at the end of their retention period), so a job made again from it fails the same way. " + uploadAgain
}

// uploadAgain says how to replace an upload the service no longer has.
const uploadAgain = "Upload the file again with the job: when a transcription_upload gives audio_url, terraform apply -replace=ADDRESS with its address; " +
	"otherwise upload the file anew and set audio_url to the new upload's URL."

// errorCodeText names a failed job's error_code, with its meaning when it
// is an HTTP status (the service may use others).
func errorCodeText(code int64) string {
	if text := http.StatusText(int(code)); text != "" {
		return fmt.Sprintf("error_code %d (%s)", code, text)
	}
	return fmt.Sprintf("error_code %d", code)
}

// addonFailures lists the add-ons of a result that failed, one line each,
// named by their place in the service's result: the whole add-on, or one of
// its parts (a translation, a prompt, a sentences result) when only it
// failed. What the service says of each is shown as its error answers
// are: on one line, printable and bounded (an add-on's exception may be a
// trace). A failure without an error says so; a failed translation is
// named with its target language, from targetLanguages (the request's, in
// order) when the service's item does not say it.
func addonFailures(r *client.Result, targetLanguages []string) []string {
	if r == nil {
		return nil
	}
	var lines []string
	add := func(name string, success bool, e *client.AddonError) {
		switch {
		case e != nil:
			line := fmt.Sprintf("  - %s: status_code %d", name, e.StatusCode)
			if e.Exception != "" {
				line += ", " + client.Printable(e.Exception)
			}
			if e.Message != "" {
				line += ": " + client.Printable(e.Message)
			}
			lines = append(lines, line)
		case !success:
			lines = append(lines, "  - "+name+": failed, the service gave no error")
		}
	}
	sentences := func(name string, results []client.AddonResult[[]string]) {
		for i, s := range results {
			add(fmt.Sprintf("%s[%d]", name, i), s.Success, s.Error)
		}
	}
	if r.Transcription != nil {
		sentences("transcription.sentences", r.Transcription.Sentences)
	}
	if r.Translation != nil {
		add("translation", r.Translation.Success, r.Translation.Error)
		for i, item := range r.Translation.Results {
			// A translation has no success of its own: only its error.
			name := fmt.Sprintf("translation.results[%d]", i)
			if language := translationLanguage(item, i, len(r.Translation.Results), targetLanguages); language != nil {
				name += " (" + client.Printable(*language) + ")"
			}
			add(name, true, item.Error)
			sentences(fmt.Sprintf("translation.results[%d].sentences", i), item.Sentences)
		}
	}
	if r.Summarization != nil {
		add("summarization", r.Summarization.Success, r.Summarization.Error)
	}
	if r.NamedEntityRecognition != nil {
		add("named_entity_recognition", r.NamedEntityRecognition.Success, r.NamedEntityRecognition.Error)
	}
	if r.SentimentAnalysis != nil {
		add("sentiment_analysis", r.SentimentAnalysis.Success, r.SentimentAnalysis.Error)
	}
	if r.AudioToLLM != nil {
		add("audio_to_llm", r.AudioToLLM.Success, r.AudioToLLM.Error)
		for i, answer := range r.AudioToLLM.Results {
			add(fmt.Sprintf("audio_to_llm.results[%d]", i), answer.Success, answer.Error)
		}
	}
	if r.Sentences != nil {
		add("sentences", r.Sentences.Success, r.Sentences.Error)
	}
	return lines
}
