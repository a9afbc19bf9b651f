package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/validators"
)

var (
	_ resource.Resource                     = &jobResource{}
	_ resource.ResourceWithConfigure        = &jobResource{}
	_ resource.ResourceWithConfigValidators = &jobResource{}
	_ resource.ResourceWithModifyPlan       = &jobResource{}
	_ resource.ResourceWithImportState      = &jobResource{}
	_ resource.ResourceWithIdentity         = &jobResource{}
	_ resource.ResourceWithUpgradeState     = &jobResource{}
)

// jobIdentityModel is a job's resource identity: its id (Terraform 1.12+
// imports by it, and terraform query lists jobs by it).
type jobIdentityModel struct {
	ID types.String `tfsdk:"id"`
}

// jobResource is transcription_job: one pre-recorded transcription job.
type jobResource struct {
	data *ProviderData
	// poll paces the waits for a job to end or become deletable.
	poll pollSchedule
}

// NewJobResource returns the transcription_job resource.
func NewJobResource() resource.Resource {
	return &jobResource{poll: defaultPollSchedule}
}

func (r *jobResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_job"
}

func (r *jobResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = jobSchema(ctx)
}

func (r *jobResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = jobIdentitySchema
}

// jobIdentitySchema is the identity of jobs, shared with the list resource.
var jobIdentitySchema = identityschema.Schema{
	Attributes: map[string]identityschema.Attribute{
		"id": identityschema.StringAttribute{
			Description:       "Identifier of the job (a UUID), assigned by the service.",
			RequiredForImport: true,
		},
	},
}

func (r *jobResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *jobResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{validators.ModelThreeLanguage()}
}

// ModifyPlan decides whether the job is replaced (planReplacement), then
// applies the rules that depend on the provider's configuration (zero data
// retention) and on the job's state (recreate_when_missing).
func (r *jobResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		warnDeletionWaits(ctx, req.State, &resp.Diagnostics)
		return
	}
	// callback_url is computed only to keep the job's when an update leaves
	// it out; a new job has what the configuration says (possibly unknown).
	if req.State.Raw.IsNull() {
		var callbackURL types.String
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, pathCallbackURL, &callbackURL)...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathCallbackURL, callbackURL)...)
	}
	// Before anything that needs the provider's configuration, which may be
	// unknown yet: replacement never depends on it.
	unchanged := planReplacement(ctx, resp.Plan, req.State, resp)
	if req.State.Raw.IsNull() || len(resp.RequiresReplace) > 0 {
		// Where a job is made, and billed.
		warnObjectsSettingNothing(req.Config.Raw, &resp.Diagnostics)
	}
	if len(resp.RequiresReplace) > 0 {
		warnCallbackURLNotCarriedOver(ctx, req, resp)
		warnDeletionWaits(ctx, req.State, &resp.Diagnostics)
	} else {
		if timeoutsRewritten(req.Config.Raw, req.State.Raw) {
			unchanged = append(unchanged, "timeouts")
		}
		keepAppliedForms(req.Config, req.State, &resp.Plan, unchanged)
	}
	checkCallbackDestination(ctx, resp.Plan, &resp.Diagnostics)
	if req.State.Raw.IsNull() {
		checkSwitchesHaveConfig(ctx, req.Config, &resp.Diagnostics)
		checkNoBlankEntries(ctx, req.Config, &resp.Diagnostics)
		// Last, so that the rules of zero data retention still say what
		// else a new job lacks.
		defer checkCallbackConfigURL(ctx, req.Config, &resp.Diagnostics)
	}
	if r.data == nil {
		return
	}
	if r.data.ZeroDataRetention {
		// Also after the errors above, so that one plan names every rule a
		// job breaks; it plans nothing once there is an error.
		r.modifyPlanZeroDataRetention(ctx, req, resp)
		return
	}
	if resp.Diagnostics.HasError() {
		return
	}

	if req.State.Raw.IsNull() {
		return
	}
	planResultContent(ctx, req.State, resp)
	defer r.warnResultNotAvailable(ctx, req.State, resp) // once it is known whether the job is replaced
	// Last: it says whether this plan replaces the job.
	defer r.warnIfFailed(ctx, req.State, req.Private, resp)

	// A job the service no longer has is created again while
	// recreate_when_missing is on: turned on now, or on already when a
	// refresh found the job gone. Terraform replaces only for a path whose
	// value changes, so retained (false, planned unknown: a new job's) is
	// the one that does when the setting does not.
	var retained, recreate types.Bool
	var audioURL, priorAudioURL types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("retained"), &retained)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("recreate_when_missing"), &recreate)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("audio_url"), &audioURL)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("audio_url"), &priorAudioURL)...)
	// Not yet known, it might be true: a plan cannot wait to know.
	if !retained.IsNull() && !retained.ValueBool() && (recreate.ValueBool() || recreate.IsUnknown()) {
		replacing := len(resp.RequiresReplace) > 0
		// One path marked: the setting when it changes, else retained (two
		// printed "# forces replacement" for one reason).
		var recreateBefore types.Bool
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("recreate_when_missing"), &recreateBefore)...)
		forcing := path.Root("retained")
		if !recreateBefore.Equal(recreate) {
			forcing = path.Root("recreate_when_missing")
		}
		resp.RequiresReplace = append(resp.RequiresReplace, forcing)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("retained"), types.BoolUnknown())...)
		if !replacing { // the check after planReplacement found no replacement
			warnCallbackURLNotCarriedOver(ctx, req, resp)
		}
		// Said at every plan that makes it again: the refresh that found
		// the job gone may have been long ago (or -refresh-only), and the
		// plan shows only retained forcing the replacement.
		var id types.String
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathID, &id)...)
		// A job that failed to fetch its upload is told so by warnIfFailed,
		// surely: not again here, hedged.
		note := ""
		if audioURL.Equal(priorAudioURL) && !failedFetchingItsAudio(ctx, req.State) {
			note = r.uploadExpiredNote(audioURL)
		}
		resp.Diagnostics.AddWarning("Transcription job created again",
			fmt.Sprintf("The service no longer has job %s (retained = false), and recreate_when_missing replaces it: the recording is transcribed, and billed, again. "+
				"To keep its last known values instead, set recreate_when_missing = false.", id.ValueString())+note)
	}
}

// warnResultNeverKept warns of include_transcript and include_raw_result
// set on a job created under zero data retention: the provider never reads
// it, so its result stays null whatever they say.
func warnResultNeverKept(plan jobResourceModel, diags *diag.Diagnostics) {
	for _, setting := range []struct {
		name string
		on   types.Bool
	}{{"include_transcript", plan.IncludeTranscript}, {"include_raw_result", plan.IncludeRawResult}} {
		if setting.on.ValueBool() {
			diags.AddAttributeWarning(path.Root(setting.name), "Nothing of the result is kept under zero data retention",
				setting.name+" = true keeps nothing: under zero data retention the service discloses no job, so the provider never reads this one, and result stays null. The result reaches only the callback.")
		}
	}
}

// modifyPlanZeroDataRetention refuses what cannot work when the service
// keeps nothing (before any call to it), and plans the computed values as
// they will be: the provider sees nothing of a job after submitting it.
func (r *jobResource) modifyPlanZeroDataRetention(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	creating := req.State.Raw.IsNull()
	wait := refuseUnderZeroDataRetention(ctx, req.Config, creating, r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	var plan, prior jobResourceModel
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	if !creating {
		resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	// Everything a job record would tell stays as it is: null on creation.
	// A job created under zero data retention is not retained (the service
	// forgets it once its callback is delivered); one created before it was
	// turned on keeps what it was, and is read again once it is turned off,
	// where it was marked gone for good.
	if creating {
		if wait.IsNull() {
			plan.WaitForCompletion = types.BoolValue(false)
		}
		warnResultNeverKept(plan, &resp.Diagnostics)
		plan.setUnknownComputedToNull()
		plan.Retained = types.BoolValue(false)
	} else {
		// Used at creation only: left out, it stays as it was.
		if wait.IsNull() {
			plan.WaitForCompletion = prior.WaitForCompletion
		}
		plan.copyUnknownComputed(prior)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
}

func (r *jobResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	ctx, stop := r.data.untilStopped(ctx)
	defer stop()
	var plan, config jobResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() || !r.configured(&resp.Diagnostics) {
		return
	}

	// timeouts.create bounds the whole creation: the create's tries, then
	// the wait.
	start := time.Now()
	timeout, diags := plan.Timeouts.Create(ctx, defaultWaitTimeout)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	limit := timeLimit{setting: "timeouts.create", duration: timeout}
	ctx, created := submitJob(ctx, r.data.Client, config.jobRequestModel, resourceCreate, start, limit, &resp.Diagnostics)
	if created == nil {
		return
	}

	// The job is in the state Create returns whatever happens next (a
	// failure, a timeout, an interrupt): Terraform keeps track of it and no
	// job is orphaned. Terraform receives that state only once Create
	// returns, so it is set once, on the way out, with what was read of the
	// job by then (setting it here as well cost a sixth of an apply's CPU).
	plan.ID = types.StringValue(created.ID)
	plan.ResultURL = types.StringValue(created.ResultURL)
	plan.CallbackURL = config.CallbackURL // known now, null when not set
	plan.setUnknownComputedToNull()
	if r.data.ZeroDataRetention {
		plan.Retained = types.BoolValue(false)
	}
	defer func() { resp.Diagnostics.Append(resp.State.Set(ctx, plan)...) }()
	resp.Diagnostics.Append(resp.Identity.Set(ctx, jobIdentityModel{ID: plan.ID})...)
	// The framework always hands Create private state; a direct call (a
	// unit test's) may not.
	if resp.Private != nil {
		recordEndpoint(ctx, nil, resp.Private, r.data.Client, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() || r.data.ZeroDataRetention {
		// Under zero data retention the job cannot be read: its result goes
		// to the callback only.
		return
	}

	var job *client.PreRecordedJob
	var err error
	if plan.WaitForCompletion.ValueBool() {
		if !time.Now().Before(start.Add(timeout)) {
			addAnsweredLate(&resp.Diagnostics, created.ID, limit, createdJobTainted)
			return
		}
		waitCtx, cancel := context.WithDeadline(ctx, start.Add(timeout))
		defer cancel()
		job, err = waitForFinalJob(waitCtx, r.data.Client, created.ID, r.poll, resultDetail(plan.resultContent()), nil)
		if err != nil {
			recordJob(ctx, &plan, job, &resp.Diagnostics)
			addWaitError(&resp.Diagnostics, created.ID, job, timeout, err, "timeouts.create", waitAftermath{running: createdJobTainted, deleted: createdJobDeleted})
			return
		}
	} else {
		// One quick look for the status and file: not waiting, the create
		// returns as soon as the service has answered it, as the docs
		// promise, rather than ride out a 429's Retry-After (up to minutes
		// for each of max_retries) with the id not yet in state.
		lookLimit := min(time.Until(start.Add(timeout)), submittedLookLimit)
		lookCtx, cancel := context.WithTimeout(ctx, lookLimit)
		defer cancel()
		job, err = r.data.Client.GetPreRecorded(lookCtx, created.ID, resultDetail(plan.resultContent()))
		if err != nil {
			// Not waiting, the job is submitted: an error would taint it,
			// and the next apply would replace it (billed again).
			// One summary for every job: the CLI folds a batch's warnings
			// into one ("and N more similar warnings") when the service
			// fails them all.
			detail := apiErrorDetail(err)
			switch {
			case lookCtx.Err() == nil || ctx.Err() != nil:
			case lookLimit < submittedLookLimit:
				detail = fmt.Sprintf("The look at the job for its status ran out of what was left of timeouts.create (%s). %s", client.FormatDuration(timeout), detail)
			default:
				// Not timeouts.create, which raising would not help.
				detail = fmt.Sprintf("The look at the job for its status, given %s so that a create without waiting (wait_for_completion = false) does not wait, ended first. %s", client.FormatDuration(submittedLookLimit), detail)
			}
			resp.Diagnostics.AddWarning("Cannot read the submitted transcription job", detail+
				fmt.Sprintf("\n\nJob %s is submitted and saved in state; the next refresh fills in its status and result.", created.ID))
			return
		}
	}
	recordJob(ctx, &plan, job, &resp.Diagnostics)

	if job.Status == client.StatusError {
		// Terraform taints the resource: the next apply replaces it.
		uploadGone := uploadNotFoundNote(r.data, plan.AudioURL.ValueString(), job.ErrorCode)
		resp.Diagnostics.AddError("Transcription job failed", jobFailureDetail(job)+
			"\n\nThe job stays in state, tainted: the next apply replaces it."+uploadGone)
		if uploadGone != "" {
			setPrivateString(ctx, resp.Private, privateFailedOnItsUpload, "true", &resp.Diagnostics)
		}
		return
	}
	warnOfFailedAddons(&resp.Diagnostics, job)
}

// submittedLookLimit bounds the look at a job created without waiting.
const submittedLookLimit = 5 * time.Second

// warnDeletionWaits tells, at the plan of a destroy or a replacement, that
// a job still running when last read (or not read since it was submitted)
// will be deleted only once it ends: the service refuses to delete a job
// until then, and the apply waits (up to timeouts.delete), showing only
// Terraform's "Still destroying...". A job under zero data retention is
// never read, and one the service no longer has is not waited for.
func warnDeletionWaits(ctx context.Context, state tfsdk.State, diags *diag.Diagnostics) {
	var id, status types.String
	var retained types.Bool
	var limits timeouts.Value
	var read diag.Diagnostics
	// The status first: the usual destroy is of jobs that have ended.
	read.Append(state.GetAttribute(ctx, pathStatus, &status)...)
	if read.HasError() || client.IsFinal(status.ValueString()) {
		return
	}
	read.Append(state.GetAttribute(ctx, path.Root("id"), &id)...)
	read.Append(state.GetAttribute(ctx, pathRetained, &retained)...)
	read.Append(state.GetAttribute(ctx, path.Root("timeouts"), &limits)...)
	if read.HasError() || id.IsNull() || retained.Equal(types.BoolValue(false)) {
		return
	}
	limit, d := limits.Delete(ctx, defaultDeleteTimeout)
	if d.HasError() {
		return
	}
	seen := fmt.Sprintf("was %s when last read", status.ValueString())
	if status.IsNull() || status.IsUnknown() {
		seen = "has not been read since it was submitted"
	}
	diags.AddWarning("A job still running is deleted once it ends",
		fmt.Sprintf("Job %s %s. The service deletes only jobs that have ended, so deleting it (a destroy, or a replacement) waits for it to end, up to %s (timeouts.delete).", id.ValueString(), seen, client.FormatDuration(limit)))
}

// submitJob creates a job with the configured request (only what the
// configuration says: the service applies its own defaults), sending no try
// of it once limit has run out from start; the context it returns carries
// the job's id for the logs that follow. created is nil when diags says why.
func submitJob(ctx context.Context, c *client.Client, request jobRequestModel, caller createCaller, start time.Time, limit timeLimit, diags *diag.Diagnostics) (context.Context, *client.InitResponse) {
	body, d := request.createRequest(ctx)
	diags.Append(d...)
	if diags.HasError() {
		return ctx, nil
	}
	// The service may quote the request in an answer: its callback URLs,
	// which may carry a token, are masked in the logs that follow (the
	// client masks them in the create's own errors and log lines).
	secrets := body.CallbackURLs()
	ctx = tflog.MaskAllFieldValuesStrings(ctx, secrets...)
	ctx = tflog.MaskMessageStrings(ctx, secrets...)
	// Which recording: in a parallel apply, what ties the create's lines
	// (and a failure before the job has an id) to its resource.
	tflog.Debug(ctx, "creating transcription job", map[string]any{"audio_url": client.RedactedURL(body.AudioURL)})
	createCtx, cancel := context.WithDeadline(ctx, start.Add(limit.duration))
	defer cancel()
	created, err := c.CreatePreRecorded(createCtx, body)
	if err != nil {
		addCreateJobError(diags, err, caller, limit)
		return ctx, nil
	}
	ctx = tflog.SetField(ctx, "job_id", created.ID)
	tflog.Info(ctx, "created transcription job")
	if created.Mislabeled != "" {
		diags.AddWarning("The service's answer was not labeled JSON",
			fmt.Sprintf("The service answered the creation of job %s with %s, where it labels its answers application/json; the body was the service's answer, so the job's id was read from it. Something between this machine and the service (a proxy, a gateway) may be relabeling answers, and the requests that follow may fail on it.", created.ID, created.Mislabeled))
	}
	return ctx, created
}

// recordJob sets the computed values of a job record in the model of a
// creation (nothing when there is no record yet).
func recordJob(ctx context.Context, plan *jobResourceModel, job *client.PreRecordedJob, diags *diag.Diagnostics) {
	if job != nil {
		diags.Append(plan.setRecord(ctx, job)...)
	}
}

// waitAftermath is what becomes of a job whose wait stopped before it
// ended.
type waitAftermath struct {
	running string // the job goes on, for all the wait saw
	deleted string // the service no longer has it (something deleted it)
	// unreached, unless empty, is the advice when no look got an answer,
	// in place of raising the limit (which would not help).
	unreached string
}

// addWaitError explains why waiting for a job stopped before it ended:
// limit names the setting that bounded the wait.
func addWaitError(diags *diag.Diagnostics, id string, last *client.PreRecordedJob, timeout time.Duration, err error, limit string, after waitAftermath) {
	aftermath := after.running
	waited := client.FormatDuration(timeout)
	// What was seen of the job: nothing when every look at it failed.
	timedOut := fmt.Sprintf("No look at job %s succeeded in %s (%s).", id, waited, limit)
	interrupted := fmt.Sprintf("Job %s had not been read yet when Terraform was interrupted.", id)
	advice := fmt.Sprintf("For long recordings raise %s.", limit)
	failing := ""
	f := (*serviceFailingError)(nil)
	if errors.As(err, &f) {
		failing = "\n\nThe service was failing when the wait ended: " + serviceFailureDetail(f.err)
		advice = fmt.Sprintf("To wait through a longer outage, raise %s.", limit)
		var unanswered *client.TransportError
		if errors.As(f.err, &unanswered) && !unanswered.Written && after.unreached != "" {
			advice = after.unreached
		}
	}
	switch {
	case last != nil && f != nil:
		// What the job became after the last look that succeeded is not
		// known: it may have ended meanwhile.
		timedOut = fmt.Sprintf("Job %s was %s when last seen; no look at it succeeded after that, and the wait ended after %s (%s).", id, last.Status, waited, limit)
		interrupted = fmt.Sprintf("Job %s was %s when last seen; no look at it succeeded after that before Terraform was interrupted.", id, last.Status)
	case last != nil:
		timedOut = fmt.Sprintf("Job %s was still %s after %s (%s).", id, last.Status, waited, limit)
		interrupted = fmt.Sprintf("Job %s was %s when Terraform was interrupted.", id, last.Status)
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		diags.AddError("Timed out waiting for the transcription job", sentences(timedOut, aftermath, advice)+failing)
	case errors.Is(err, context.Canceled):
		diags.AddError("Interrupted while waiting for the transcription job", sentences(interrupted, aftermath)+failing)
	case client.IsNotFound(err):
		seen := ""
		if last != nil {
			seen = fmt.Sprintf(" (%s when last seen)", last.Status)
		}
		diags.AddError("Transcription job deleted while waiting for it",
			strings.Join(slices.DeleteFunc([]string{
				sentences(fmt.Sprintf("The service no longer has job %s%s: it was deleted while it was waited for, its result with it, by a DELETE sent with the account's key from elsewhere or at the end of its retention period (the service deletes only jobs that have ended).", id, seen), after.deleted),
				apiErrorDetail(err),
			}, isEmpty), "\n\n"))
	default:
		diags.AddError("Cannot read the transcription job "+id, strings.Join(slices.DeleteFunc([]string{apiErrorDetail(err), aftermath}, isEmpty), "\n\n"))
	}
}

// sentences joins the non-empty sentences of a message.
func sentences(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, isEmpty), " ")
}

func isEmpty(s string) bool { return s == "" }

// createdJobTainted is what becomes of a job whose create's wait stopped.
const createdJobTainted = "The job stays in state, tainted: the next apply replaces it (a new job, billed again), whatever the configuration says. " +
	"The service goes on processing this one. To keep it instead, run `terraform untaint` on the resource before the next apply, which then reads the job without waiting for it."

// createdJobDeleted is what becomes of a job deleted while its create
// waited.
const createdJobDeleted = "It stays in state, tainted: the next apply creates it again (a new job, billed again), unless the resource is removed from the configuration."

// addAnsweredLate explains a wait that could not start: the service
// answered the job's create after limit had run out. aftermath says what
// becomes of the job.
func addAnsweredLate(diags *diag.Diagnostics, id string, limit timeLimit, aftermath string) {
	diags.AddError("Timed out waiting for the transcription job",
		fmt.Sprintf("Job %s was created, but the service answered its create after %s had run out, leaving no time to wait for it. %s To wait for such a job, raise %s.", id, limit, aftermath, limit.setting))
}

// jobLeftRunning is what becomes of a job whose wait stopped, when no
// resource keeps it.
const jobLeftRunning = "The service goes on processing the job."

func (r *jobResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	ctx, stop := r.data.untilStopped(ctx)
	defer stop()
	if identityDisagrees(ctx, req.Identity, req.State, "Restore the state from a backup, or remove the resource from state (terraform state rm and its address) and import it again by the id of the job it manages (the state's id, unless the state's values were edited too).", &resp.Diagnostics) {
		return
	}
	// timeouts.read bounds the whole refresh, the finished job's check of
	// existence included.
	var readTimeouts timeouts.Value
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("timeouts"), &readTimeouts)...)
	timeout, diags := readTimeouts.Read(ctx, defaultReadTimeout)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	read, cancel := newJobRead(ctx, timeout, req.Private)
	defer cancel()
	if r.readFinishedJob(read, req, resp) {
		return
	}
	ctx = read.ctx
	var state jobResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	// audio_url is required, so only an import leaves it null: one whose
	// ImportState could not read the job (the provider's configuration
	// known only after apply), or of a record without request_params.
	importing := state.AudioURL.IsNull()
	if resp.Diagnostics.HasError() {
		return
	}
	// Jobs in state from before identities existed get theirs here.
	resp.Diagnostics.Append(resp.Identity.Set(ctx, jobIdentityModel{ID: state.ID})...)
	what := "the transcription_job resource"
	if importing {
		what = "the import of transcription job " + state.ID.ValueString()
	}
	if r.notRefreshed(state, importing, &resp.Diagnostics) || r.data.clientFor(what, &resp.Diagnostics) == nil {
		return
	}
	ctx = tflog.SetField(ctx, "job_id", state.ID.ValueString())

	if r.data.ZeroDataRetention {
		if importing {
			resp.Diagnostics.AddError("Cannot import a job under zero data retention", zeroDataRetentionImportDetail)
		} else if at := madeElsewhere(ctx, req.Private, r.data.Client); at != "" {
			// No look can tell whether the job is there: say what a look
			// would have found out, before a destroy meets it.
			resp.Diagnostics.AddWarning("The job was made through another service address",
				fmt.Sprintf("Job %s was created (or last found) at %s, and this provider configuration, under zero data retention, uses %s (its base_url, or the resource's provider argument, changed); "+
					"the service discloses no job under zero data retention, so whether this one is there cannot be checked. A destroy or a replacement deletes it through %s, and fails if the service there has no such job. "+
					"Give the resource the provider configuration it was created with to manage the job where it is. This warning shows at every plan while it uses this one.",
					state.ID.ValueString(), at, r.data.Client.ServiceAddress(), r.data.Client.ServiceAddress()))
		}
		// The service does not disclose jobs: state stays as it is.
		return
	}

	// A job already known to be gone is not asked for again. Whether it is
	// created again is the plan's to decide (ModifyPlan), from the
	// configuration's recreate_when_missing, which a refresh cannot see.
	if !importing && !state.Retained.IsNull() && !state.Retained.ValueBool() {
		return
	}

	job, err := r.data.Client.GetPreRecorded(ctx, state.ID.ValueString(), resultDetail(state.resultContent()))
	switch {
	case err != nil && importing:
		r.addImportError(read, state.ID.ValueString(), err, &resp.Diagnostics)
		return
	case read.timedOut(err):
		read.addTimeout(&resp.Diagnostics, state.ID.ValueString(), err, "The job stays in state as last read.")
		return
	case client.IsNotFound(err):
		r.jobNotFound(ctx, read, state, err, resp)
		return
	case err != nil:
		addAPIError(&resp.Diagnostics, "Cannot read the transcription job "+state.ID.ValueString(), err)
		return
	}
	if resp.Private != nil {
		recordEndpoint(ctx, req.Private, resp.Private, r.data.Client, &resp.Diagnostics)
	}

	if importing {
		imported, diags := importedJob(ctx, job, r.data.Client.ResultURL(job.ID), state.Timeouts)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		state = imported
		// The id as the service writes it (an import's id may be in another
		// case), which every later read gives as the identity.
		resp.Diagnostics.Append(resp.Identity.Set(ctx, jobIdentityModel{ID: state.ID})...)
	} else {
		warnIfFirstSeenDone(&resp.Diagnostics, state.Status, job)
		// Request attributes stay as configured: the defaults the service
		// fills into request_params must not read as a change.
		state.CustomMetadata = keepDeclaredMetadata(state.CustomMetadata, job.CustomMetadata)
		resp.Diagnostics.Append(state.setRecord(ctx, job)...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// warnIfFirstSeenDone warns of the failed add-ons of job, done, when its
// last status known (prior) was not final: the read that first sees a job
// end (a refresh, or an update applied from a plan made before it ended)
// warns as a create that waits does; later reads do not.
func warnIfFirstSeenDone(diags *diag.Diagnostics, prior types.String, job *client.PreRecordedJob) {
	if !client.IsFinal(prior.ValueString()) && job.Status == client.StatusDone {
		warnOfFailedAddons(diags, job)
	}
}

// warnOfFailedAddons warns of the add-ons of a done job that failed, if any.
func warnOfFailedAddons(diags *diag.Diagnostics, job *client.PreRecordedJob) {
	if failures := addonFailures(job.Result, translationTargets(job)); len(failures) > 0 {
		diags.AddWarning("Some add-ons of the transcription job failed",
			fmt.Sprintf("Job %s is done, but these add-ons failed:\n%s", job.ID, joinLines(failures)))
	}
}

// readFinishedJob refreshes a job that state knows as done or error and
// still held by the service, and reports whether it did. Such a job's
// record never changes, so state stays as it is (the framework keeps the
// prior state when Read sets nothing) and only its existence is checked:
// nothing of the record is decoded but its status, and the whole model is
// neither read from state nor set again, unless the service no longer has
// the job. Any other job takes the full read.
func (r *jobResource) readFinishedJob(read jobRead, req resource.ReadRequest, resp *resource.ReadResponse) bool {
	ctx := read.ctx
	// Unconfigured, the full read reports it.
	if r.data == nil || r.data.Client == nil || r.data.ZeroDataRetention {
		return false
	}
	// An import's state with only its id (see Read) has no status: the
	// full read.
	var id, status types.String
	var retained types.Bool
	var diags diag.Diagnostics
	diags.Append(req.State.GetAttribute(ctx, pathID, &id)...)
	diags.Append(req.State.GetAttribute(ctx, pathStatus, &status)...)
	diags.Append(req.State.GetAttribute(ctx, pathRetained, &retained)...)
	if diags.HasError() || id.IsNull() || !client.IsFinal(status.ValueString()) || !retained.ValueBool() {
		return false
	}
	ctx = tflog.SetField(ctx, "job_id", id.ValueString())
	// Terraform before 1.12 keeps no identity: it is given again each time.
	resp.Diagnostics.Append(resp.Identity.Set(ctx, jobIdentityModel{ID: id})...)
	_, err := r.data.Client.GetPreRecordedStatus(ctx, id.ValueString())
	switch {
	case read.timedOut(err):
		read.addTimeout(&resp.Diagnostics, id.ValueString(), err, "The job stays in state as last read.")
	case client.IsNotFound(err):
		var state jobResourceModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if !resp.Diagnostics.HasError() {
			r.jobNotFound(ctx, read, state, err, resp)
		}
	case err != nil:
		addAPIError(&resp.Diagnostics, "Cannot read the transcription job "+id.ValueString(), err)
	default:
		if resp.Private != nil {
			recordEndpoint(ctx, req.Private, resp.Private, r.data.Client, &resp.Diagnostics)
		}
		if privateString(ctx, req.Private, privateFailedOnItsUpload) != "" {
			warnTaintedOnItsUpload(id.ValueString(), &resp.Diagnostics)
		}
	}
	return true
}

// privateFailedOnItsUpload is the private state key that marks a job whose
// create waited for it and saw it fail to fetch an upload the service no
// longer has: Terraform taints it, and plans the next apply's replacement
// from no prior state, where no plan of the provider's can see the job.
const privateFailedOnItsUpload = "failed_on_its_upload"

// warnTaintedOnItsUpload warns, at each refresh of a job so marked, that
// the replacement the next apply makes of it while it is tainted fails the
// same way unless the file is uploaded again. (A job that failed unseen by
// its create is not tainted; warnIfFailed says it at every plan, and not
// again for a job so marked.)
func warnTaintedOnItsUpload(id string, diags *diag.Diagnostics) {
	diags.AddWarning("Transcription job failed to fetch its upload",
		fmt.Sprintf("Job %s failed to fetch its audio_url (error_code 404): a file uploaded to the service, which the service no longer has. Its create saw it fail, which tainted the resource; "+
			"while it is tainted, the next apply makes the job again from the configuration's audio_url, and made from the same one it fails the same way (billed). %s", id, uploadAgain))
}

// jobRead is a refresh's bound (timeouts.read), and the job's private
// state as it was.
type jobRead struct {
	ctx     context.Context // bounded by timeout
	outer   context.Context // the request's, ended only by a stop
	timeout time.Duration
	private privateState
}

// newJobRead bounds a read in ctx by timeout.
func newJobRead(ctx context.Context, timeout time.Duration, private privateState) (jobRead, context.CancelFunc) {
	limited, cancel := context.WithTimeout(ctx, timeout)
	return jobRead{ctx: limited, outer: ctx, timeout: timeout, private: private}, cancel
}

// timedOut reports whether err ended the read because timeouts.read ran
// out. Whether the deadline passed is asked of the contexts, not of err,
// as in Delete: a connection that timed out on its own is also a
// context.DeadlineExceeded.
func (read jobRead) timedOut(err error) bool {
	return err != nil && read.outer.Err() == nil && read.ctx.Err() != nil
}

func (read jobRead) addTimeout(diags *diag.Diagnostics, id string, err error, kept string) {
	diags.AddError("Timed out reading the transcription job",
		fmt.Sprintf("Job %s could not be read within %s (timeouts.read): %s\n\n%s Try again later, or raise timeouts.read: a refresh uses the value last applied, so apply the new one with terraform apply -refresh=false.", id, client.FormatDuration(read.timeout), apiErrorDetail(err), kept))
}

// importedJob builds a job's state from its record, as import does (and
// terraform query's generated configuration relies on): every request
// attribute from request_params and custom_metadata, the provider-side
// settings at their defaults, the record's facts and result.
func importedJob(ctx context.Context, job *client.PreRecordedJob, resultURL string, timeoutsValue timeouts.Value) (jobResourceModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	m := jobResourceModel{Timeouts: timeoutsValue}
	if job.RequestParams == nil {
		diags.AddError("Cannot import the transcription job",
			fmt.Sprintf("The service's record of job %s has no request_params, so its configuration cannot be rebuilt.", job.ID))
		return m, diags
	}
	// A configuration the service ignores (its switch off, as another client
	// may send) is left out: written into the configuration generated from
	// state, it would be warned of at every plan, and leaving it out then
	// planned an update.
	diags.Append(m.setRequestFromParams(ctx, job.RequestParams.WithoutUnusedConfigurations(), job.CustomMetadata)...)
	m.setProviderDefaults()
	m.ResultURL = types.StringValue(resultURL)
	diags.Append(m.setRecord(ctx, job)...)
	return m, diags
}

// jobNotFound handles a 404 for the job in state: jobMissing, once the
// service's listing confirms the 404 is the service's (confirmJobGone).
func (r *jobResource) jobNotFound(ctx context.Context, read jobRead, state jobResourceModel, notFound error, resp *resource.ReadResponse) {
	if reportedNotGone(ctx, r.data.Client, &resp.Diagnostics, state.ID.ValueString(), notFound, madeElsewhere(ctx, read.private, r.data.Client), jobKeptInState) {
		return
	}
	r.jobMissing(ctx, state, resp)
}

// jobMissing handles a job the service answers 404 for, usually because its
// retention period ended. It stays, with retained = false: one that ended,
// done or in error (a failed one with its warning: creating it again would
// bill it without asking), one last seen queued or processing too, since
// the service deletes a job only once it has ended (endedUnseen), and one
// never seen (submitted under zero data retention). It is not removed, even
// when the state's recreate_when_missing is true: the configuration's may
// say false by now, which only the plan sees (ModifyPlan replaces the job
// when it is true), and a removed job is created again whatever it says.
func (r *jobResource) jobMissing(ctx context.Context, state jobResourceModel, resp *resource.ReadResponse) {
	tflog.Info(ctx, "transcription job no longer retained by the service; keeping its last known results")
	// A refresh cannot see the configuration's recreate_when_missing.
	// Said of the state's recreate_when_missing: a refresh cannot see the
	// configuration, whose plan says "created again" when it replaces it.
	resp.Diagnostics.AddWarning("Transcription job no longer retained by the service", r.jobGoneDetail(state, state.RecreateWhenMissing.ValueBool()))
	state.Retained = types.BoolValue(false)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
	if resp.Private != nil {
		forgetJobEndpoint(ctx, resp.Private, &resp.Diagnostics)
	}
}

// jobGoneDetail says why the service no longer has the job of state, what
// state keeps, and what makes it again: the next plan, when the
// configuration's recreate_when_missing is known to be true
// (recreatedNext), or else the user's asking.
func (r *jobResource) jobGoneDetail(state jobResourceModel, recreatedNext bool) string {
	upload := r.uploadExpiredNote(state.AudioURL)
	replace := "terraform apply -replace on the resource"
	if upload != "" {
		replace += " (its audio_url being an upload, see below first)"
	}
	next := "Its last known values stay in state with retained = false, and the recording is transcribed, and billed, again only when asked: " +
		"a plan with recreate_when_missing = true in the configuration replaces it (a new job, billed again), and so does " + replace + ". " +
		"(A job the plan shows as tainted, by an apply that failed while waiting for it, is replaced anyway.)"
	if recreatedNext {
		next = "Its last known values stay in state with retained = false until a plan replaces it, as one does while recreate_when_missing = true (a new job, billed again)."
	}
	return fmt.Sprintf("The service no longer has job %s: it was deleted, at the end of its retention period (3 weeks on paid plans) or by a DELETE sent with the account's key from elsewhere.%s %s",
		state.ID.ValueString(), endedUnseen(state.Status), next) + upload
}

// uploadExpiredNote adds to what is said of a job the service no longer
// has, when its audio_url is on the service itself (a file uploaded to it):
// the service deletes uploads at the end of the same retention period, so
// a job made again from that audio_url would fail if that is what ended
// the job, and no refresh can tell whether an upload is gone (the service
// cannot read one back).
func (r *jobResource) uploadExpiredNote(audioURL types.String) string {
	if !r.data.onServiceHost(audioURL.ValueString()) {
		return ""
	}
	return "\n\nIts audio_url is a file uploaded to the service, which deletes uploads at the end of the same retention period (counted from the upload, before the job): " +
		"if the job's retention ended, a job made again from it would fail to fetch it. " + uploadAgain
}

// planResultContent plans the result of a final job whose
// include_transcript or include_raw_result changed. Keeping less of it (or
// as much, include_transcript toggled beside include_raw_result), it is as
// it will be: the prior result without what is no longer kept; nothing
// needs reading. Keeping more needs a read, which gives the rest of the
// result of a final job again: only what the read adds is unknown
// (resultToBeRead). Either way what refers to the rest (an output, a
// resource's argument) plans no change, where a result planned unknown
// whole (planmodifiers.UseStateWhenJobFinal, which leaves it so) replaced
// a resource that a summary triggers. With both settings unchanged, as in
// most plans, the result is planned as it is already (the same plan
// modifier): setting it again would cost three rewrites of the whole plan
// for nothing.
func planResultContent(ctx context.Context, state tfsdk.State, resp *resource.ModifyPlanResponse) {
	kept := resultSettingsIn(ctx, state, &resp.Diagnostics)
	planned := resultSettingsIn(ctx, resp.Plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || planned == kept {
		return
	}
	var status types.String
	resp.Diagnostics.Append(state.GetAttribute(ctx, pathStatus, &status)...)
	before, _ := kept.content()
	after, known := planned.content()
	if resp.Diagnostics.HasError() || !client.IsFinal(status.ValueString()) {
		return
	}
	// How much of the result is kept not known yet leaves it unknown.
	// result_json, kept only with include_raw_result, is planned null by
	// its own plan modifier whenever that is off (NullWhenSwitchOff).
	if !known {
		return
	}
	var prior types.Object
	var retained types.Bool
	resp.Diagnostics.Append(state.GetAttribute(ctx, pathResult, &prior)...)
	resp.Diagnostics.Append(state.GetAttribute(ctx, pathRetained, &retained)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if after > before {
		if !retained.ValueBool() {
			return // gone: nothing is read, the prior result is planned (UseStateWhenJobFinal)
		}
		// The read may find the job gone: retained stays unknown.
		result, diags := resultToBeRead(prior, before, after)
		resp.Diagnostics.Append(diags...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathResult, result)...)
		return
	}
	result, diags := resultAtContent(prior, after)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathResult, result)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathRetained, retained)...)
}

// resultSettings are a state's or plan's values of the settings that decide
// how much of the result state keeps.
type resultSettings struct {
	includeTranscript, includeRawResult types.Bool
}

func resultSettingsIn(ctx context.Context, from interface {
	GetAttribute(context.Context, path.Path, any) diag.Diagnostics
}, diags *diag.Diagnostics) resultSettings {
	var s resultSettings
	diags.Append(from.GetAttribute(ctx, pathIncludeTranscript, &s.includeTranscript)...)
	diags.Append(from.GetAttribute(ctx, pathIncludeRawResult, &s.includeRawResult)...)
	return s
}

// content is how much of the result the settings keep, and whether that is
// known.
func (s resultSettings) content() (resultContent, bool) {
	m := jobResourceModel{IncludeTranscript: s.includeTranscript, IncludeRawResult: s.includeRawResult}
	return m.resultContent(), !s.includeTranscript.IsUnknown() && !s.includeRawResult.IsUnknown()
}

// warnCallbackURLNotCarriedOver warns, when a change replaces a job whose
// callback went to its callback_url and the configuration leaves that out
// (as Terraform generates it for an import: the value is sensitive) with no
// callback_config in use instead, that the new job sends no callback: the
// old one's URL is kept in state only as long as the job is, and the plan
// shows only "(sensitive value) -> null".
func warnCallbackURLNotCarriedOver(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	applied, diags := readCallbackTargets(ctx, req.State)
	resp.Diagnostics.Append(diags...)
	configured, diags := readCallbackTargets(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || applied.url.ValueString() == "" || applied.usesConfig() ||
		!configured.url.IsNull() || configured.usesConfig() || configured.callback.IsUnknown() || configured.config.IsUnknown() {
		return
	}
	resp.Diagnostics.AddWarning("The new job gets no callback_url",
		"This change replaces the job, and the configuration leaves callback_url out (as Terraform generates it for an imported job, the value being sensitive): "+
			"the job's callback_url is kept only as long as the job is, so the new job sends no callback to it. "+
			"To keep the callback, set callback = true and callback_config = { url = ... } (or the deprecated callback_url) in the configuration.")
}

// warnIfFailed keeps a failed job visible: a job created without waiting
// ends in error quietly, and nothing replaces it by itself (that would bill
// it again without asking), so every plan says so and how to run it again.
// A job that failed to fetch an upload the service no longer has would fail
// again from the same audio_url: the way forward is a new upload. (A job
// tainted by that failure is planned from no prior state, without this:
// its refresh says it, warnTaintedOnItsUpload.)
func (r *jobResource) warnIfFailed(ctx context.Context, state tfsdk.State, private privateState, resp *resource.ModifyPlanResponse) {
	var id, status, audioURL, plannedAudioURL types.String
	var errorCode types.Int64
	resp.Diagnostics.Append(state.GetAttribute(ctx, path.Root("id"), &id)...)
	resp.Diagnostics.Append(state.GetAttribute(ctx, pathStatus, &status)...)
	resp.Diagnostics.Append(state.GetAttribute(ctx, path.Root("error_code"), &errorCode)...)
	if status.ValueString() != client.StatusError {
		return
	}
	resp.Diagnostics.Append(state.GetAttribute(ctx, path.Root("audio_url"), &audioURL)...)
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("audio_url"), &plannedAudioURL)...)
	code := ""
	if !errorCode.IsNull() {
		code = ", " + errorCodeText(errorCode.ValueInt64())
	}
	uploadGone := uploadNotFoundNote(r.data, audioURL.ValueString(), errorCode.ValueInt64Pointer())
	if uploadGone != "" && plannedAudioURL.Equal(audioURL) && privateString(ctx, private, privateFailedOnItsUpload) != "" {
		return // its refresh said it (warnTaintedOnItsUpload): untainted, the job is planned from its state
	}
	// -replace and replace_triggered_by replace it too, unseen here.
	next := "To run it again (a new job, billed again), replace this resource, unless this plan already does: terraform apply -replace=<this resource's address>. " +
		"(When the apply that created it waited and failed, the resource is already tainted and the next apply replaces it.)"
	switch replaced := terraformReplacesFor(state.Raw, resp.Plan.Raw, resp.RequiresReplace); { // ModifyPlan has decided
	case replaced && uploadGone != "" && plannedAudioURL.Equal(audioURL):
		next = "This plan replaces it (a new job, billed again)." + uploadGone
	case replaced:
		next = "This plan replaces it (a new job, billed again)."
	case uploadGone != "" && plannedAudioURL.Equal(audioURL):
		next = strings.TrimPrefix(uploadGone, "\n\n")
	}
	resp.Diagnostics.AddWarning("Transcription job failed",
		fmt.Sprintf("Job %s ended with status \"error\"%s; it has no result. %s", id.ValueString(), code, next))
}

// failedFetchingItsAudio reports whether the job of state failed to fetch
// its audio_url (status error, error_code 404).
func failedFetchingItsAudio(ctx context.Context, state tfsdk.State) bool {
	var status types.String
	var errorCode types.Int64
	state.GetAttribute(ctx, pathStatus, &status)
	state.GetAttribute(ctx, path.Root("error_code"), &errorCode)
	return status.ValueString() == client.StatusError && errorCode.ValueInt64() == http.StatusNotFound
}

// terraformReplacesFor reports whether Terraform replaces a resource for
// the top-level attributes paths name: it does for one whose planned value
// is not its prior one.
func terraformReplacesFor(prior, planned tftypes.Value, paths path.Paths) bool {
	var before, after map[string]tftypes.Value
	if prior.As(&before) != nil || planned.As(&after) != nil {
		return false
	}
	for _, p := range paths {
		if steps := p.Steps(); len(steps) == 1 {
			if attr, ok := steps[0].(path.PathStepAttributeName); ok && !before[string(attr)].Equal(after[string(attr)]) {
				return true
			}
		}
	}
	return false
}

// refuseUnderZeroDataRetention refuses, at plan time, what cannot work when
// the service keeps nothing: waiting for a job, and for a new job no
// callback to deliver its result or an audio_url uploaded to the service
// (uploads are disabled; data tells the service's host once base_url is
// known, even while api_key is not). It returns the configured
// wait_for_completion. The resource and the action share it.
func refuseUnderZeroDataRetention(ctx context.Context, config tfsdk.Config, creating bool, data *ProviderData, diags *diag.Diagnostics) types.Bool {
	var wait types.Bool
	diags.Append(config.GetAttribute(ctx, path.Root("wait_for_completion"), &wait)...)
	// A job in state is not created again here: a replacement's new job is
	// planned on its own (Terraform plans it from no prior state), where
	// these rules apply. wait_for_completion is used at creation only.
	if !creating {
		return wait
	}
	if wait.ValueBool() {
		diags.AddAttributeError(path.Root("wait_for_completion"), "Cannot wait for a job under zero data retention",
			"The provider has zero_data_retention = true: the service does not let anyone read a job, so there is nothing to wait for. "+
				"Remove wait_for_completion (it then defaults to false) and receive the result through the callback.")
	}
	targets, d := readCallbackTargets(ctx, config)
	diags.Append(d...)
	// callback = true with nowhere to deliver is refused on its own
	// (checkCallbackDestination, the action's validator).
	if delivers, known := targets.delivers(); known && !delivers && !targets.callback.ValueBool() {
		diags.AddAttributeError(path.Root("callback"), "A callback is required under zero data retention",
			"The provider has zero_data_retention = true: the service stores no result, and a callback is the only way to receive it. "+
				"Set callback = true and callback_config = { url = \"https://...\" } (or the deprecated callback_url); without it the job's result would be lost.")
	}
	var audioURL types.String
	diags.Append(config.GetAttribute(ctx, path.Root("audio_url"), &audioURL)...)
	if !audioURL.IsNull() && !audioURL.IsUnknown() && data.onServiceHost(audioURL.ValueString()) {
		diags.AddAttributeError(path.Root("audio_url"), "audio_url must be an external URL under zero data retention",
			"The provider has zero_data_retention = true: the service disables uploads and keeps no file, so audio_url must be an external URL "+
				"(publicly reachable, or signed such as a presigned object-storage URL), and this one is on the service's own host (base_url), where uploaded files are.")
	}
	return wait
}

// endedUnseen says, of a job the service no longer has that was last seen
// queued or processing, what became of it; "" for any other. The service
// refuses to delete a job that has not ended, and its retention runs out
// only after that, so such a job ended unseen (created without waiting, and
// not refreshed since), and its result was never read into state.
func endedUnseen(status types.String) string {
	if status.IsNull() || client.IsFinal(status.ValueString()) {
		return ""
	}
	return fmt.Sprintf(" It was %s when last seen: the service deletes a job only once it has ended, so this one ended unseen, and its result was never read into state.", status.ValueString())
}

const zeroDataRetentionImportDetail = "The provider has zero_data_retention = true: the service disables reading jobs (GET /v2/pre-recorded/{id}), " +
	"so the job's configuration cannot be rebuilt. Declare the job in configuration instead, or import it with a provider configuration without zero data retention."

// Update changes what the job is not: provider-side settings, and request
// values written differently that mean the same to the service (any other
// change replaces the job, see planReplacement). It reads the job again only
// when the plan left a value of the record unknown: a job still running, or
// include_transcript or include_raw_result changed.
func (r *jobResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	ctx, stop := r.data.untilStopped(ctx)
	defer stop()
	var plan, state jobResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !r.configured(&resp.Diagnostics) {
		return
	}
	ctx = tflog.SetField(ctx, "job_id", state.ID.ValueString())

	// Known gone only when retained says so: a job whose create could not
	// read it has retained null, and is read here as any other. (The plan
	// warned if more of a known gone job's result was asked for.)
	gone := !state.Retained.IsNull() && !state.Retained.ValueBool()
	if plan.computedUnknown() && !r.data.ZeroDataRetention && !gone {
		// Bounded as a refresh is, by the timeouts.read being applied.
		timeout, diags := plan.Timeouts.Read(ctx, defaultReadTimeout)
		if resp.Diagnostics.Append(diags...); diags.HasError() {
			return
		}
		read, cancel := newJobRead(ctx, timeout, req.Private)
		defer cancel()
		job, err := r.data.Client.GetPreRecorded(read.ctx, state.ID.ValueString(), resultDetail(plan.resultContent()))
		if read.timedOut(err) {
			read.addTimeout(&resp.Diagnostics, state.ID.ValueString(), err, "The job stays in state as last read.")
			return
		}
		if client.IsNotFound(err) && reportedNotGone(ctx, r.data.Client, &resp.Diagnostics, state.ID.ValueString(), err, madeElsewhere(ctx, req.Private, r.data.Client), jobKeptInState) {
			return
		}
		switch {
		case err == nil && resp.Private != nil:
			recordEndpoint(ctx, req.Private, resp.Private, r.data.Client, &resp.Diagnostics)
		case client.IsNotFound(err) && resp.Private != nil:
			forgetJobEndpoint(ctx, resp.Private, &resp.Diagnostics)
		}
		switch {
		case client.IsNotFound(err):
			// An update cannot replace the job: the next plan does, when
			// recreate_when_missing is still true. State keeps what it had
			// of the result, as for a job known gone before.
			plan.Retained = types.BoolValue(false)
			gone = true
			resp.Diagnostics.AddWarning("Transcription job no longer retained by the service", r.jobGoneDetail(state, plan.RecreateWhenMissing.ValueBool()))
			if plan.resultContent() > state.resultContent() {
				addResultNotAvailable(&resp.Diagnostics, state.ID.ValueString())
			}
		case err != nil:
			addAPIError(&resp.Diagnostics, "Cannot read the transcription job "+state.ID.ValueString(), err)
			return
		default:
			warnIfFirstSeenDone(&resp.Diagnostics, state.Status, job)
			planned := plan.Result
			resp.Diagnostics.Append(plan.setRecord(ctx, job)...)
			// What the plan knew of the result stays (planResultContent):
			// an apply may not change it.
			plan.Result = withUnknownsFrom(planned, plan.Result)
		}
	}
	if plan.Result.IsUnknown() && gone {
		// Not read again (the service no longer has the job), and planned
		// unknown only while include_transcript or include_raw_result was:
		// state keeps what their values keep of the last known result.
		result, diags := resultAtContent(state.Result, plan.resultContent())
		resp.Diagnostics.Append(diags...)
		plan.Result = result
		if plan.resultContent() < rawContent {
			plan.ResultJSON = jsonTextNull()
		}
	} else if gone {
		// Planned for a read that found the job gone: what it would have
		// added is the last known result's (none).
		plan.Result = withUnknownsFrom(plan.Result, state.Result)
	}
	plan.copyUnknownComputed(state)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.Append(resp.Identity.Set(ctx, jobIdentityModel{ID: state.ID})...)
}

// warnResultNotAvailable warns at plan, where a saved plan's reviewer sees
// it, that the configuration asks for more of a result than state kept of
// a job known gone: the apply cannot fetch it. (Under zero data retention
// no job is known gone; none is read.)
func (r *jobResource) warnResultNotAvailable(ctx context.Context, state tfsdk.State, resp *resource.ModifyPlanResponse) {
	var id types.String
	var retained types.Bool
	resp.Diagnostics.Append(state.GetAttribute(ctx, pathRetained, &retained)...)
	if r.data == nil || r.data.ZeroDataRetention || retained.IsNull() || retained.ValueBool() {
		return
	}
	before, _ := resultSettingsIn(ctx, state, &resp.Diagnostics).content()
	after, known := resultSettingsIn(ctx, resp.Plan, &resp.Diagnostics).content()
	// A replacement's new job gives its whole result.
	if !known || after <= before || terraformReplacesFor(state.Raw, resp.Plan.Raw, resp.RequiresReplace) {
		return
	}
	resp.Diagnostics.Append(state.GetAttribute(ctx, pathID, &id)...)
	addResultNotAvailable(&resp.Diagnostics, id.ValueString())
}

// addResultNotAvailable warns that more of the result of job id, which the
// service no longer has, was asked for than state kept.
func addResultNotAvailable(diags *diag.Diagnostics, id string) {
	diags.AddWarning("Result not available",
		fmt.Sprintf("The service no longer has job %s, so the parts of its result that state did not keep (the transcript, or the word timings and result_json) cannot be fetched; state keeps what it had of the result (none, for a job it never saw ended).", id))
}

func (r *jobResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	ctx, stop := r.data.untilStopped(ctx)
	defer stop()
	// Only the id, the timeout and the audio_url that names the job in an
	// error are needed: the rest of the state, the result included, is left
	// unconverted.
	var jobID, audioURL types.String
	var deleteTimeouts timeouts.Value
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &jobID)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("timeouts"), &deleteTimeouts)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("audio_url"), &audioURL)...)
	if resp.Diagnostics.HasError() || !r.configured(&resp.Diagnostics) {
		return
	}
	id := jobID.ValueString()
	ctx = tflog.SetField(ctx, "job_id", id)
	// A destroy's diagnostics name no resource address: the job's
	// audio_url (its credentials left out) tells a user which of a batch's
	// jobs failed.
	job := id
	if audioURL.ValueString() != "" {
		job += " (audio_url " + client.Printable(client.RedactedURL(audioURL.ValueString())) + ")"
	}
	timeout, diags := deleteTimeouts.Delete(ctx, defaultDeleteTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	deleteCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// A job found gone where it was has no address any more
	// (forgetJobEndpoint): its 404 anywhere is the deletion's success.
	err := deleteJob(deleteCtx, r.data.Client, id, r.poll, r.data.ZeroDataRetention, madeElsewhere(ctx, req.Private, r.data.Client))
	var interrupted *client.InterruptedError
	switch {
	case err == nil:
		tflog.Info(ctx, "deleted transcription job")
	case addNotGone(&resp.Diagnostics, err, jobKeptInState):
	case errors.Is(err, errJobNotFinal) && errors.Is(err, context.DeadlineExceeded):
		resp.Diagnostics.AddError("Timed out deleting the transcription job "+id,
			fmt.Sprintf("Job %s was still running after %s (timeouts.delete), and the service deletes only jobs that have ended. Try again later, or %s", job, client.FormatDuration(timeout), raiseDeleteTimeout))
	case errors.Is(err, errJobNotFinal):
		resp.Diagnostics.AddError("Interrupted while deleting the transcription job "+id,
			fmt.Sprintf("Job %s was still running when Terraform was interrupted; it is not deleted and stays in state.", job))
	case ctx.Err() != nil && errors.As(err, &interrupted) && !deleteMayHaveBeenDone(interrupted.Last):
		resp.Diagnostics.AddError("Interrupted while deleting the transcription job "+id,
			fmt.Sprintf("Terraform was interrupted before the DELETE of job %s was sent, or between tries the service had turned away: the job is not deleted and stays in state.", job))
	case ctx.Err() != nil:
		resp.Diagnostics.AddError("Interrupted while deleting the transcription job "+id,
			fmt.Sprintf("Terraform was interrupted while the DELETE of job %s awaited the service's answer: the service may have deleted the job. It stays in state; the next terraform destroy deletes it, or finds it already gone.", job))
	case deleteCtx.Err() != nil:
		// The service failed, or did not answer, the DELETE until the
		// deadline. Whether the deadline passed is asked of deleteCtx, not
		// of err: a connection that timed out on its own is also a
		// context.DeadlineExceeded (net's timeouts are), and blamed
		// timeouts.delete.
		resp.Diagnostics.AddError("Timed out deleting the transcription job "+id,
			fmt.Sprintf("Job %s could not be deleted within %s (timeouts.delete): %s\n\nThe job is not deleted and stays in state. Try again later, or %s", job, client.FormatDuration(timeout), apiErrorDetail(err), raiseDeleteTimeout))
	default:
		resp.Diagnostics.AddError("Cannot delete the transcription job "+id, "Job "+job+".\n\n"+apiErrorDetail(err))
	}
}

// raiseDeleteTimeout is the advice to raise timeouts.delete: a deletion
// uses the value in state, not the configuration's, and the apply that
// changes it must change nothing else (a replacement would delete with the
// old value again).
const raiseDeleteTimeout = "raise timeouts.delete and apply that change alone first: a deletion, in a destroy or a replacement, uses the value last applied, and terraform apply -refresh=false with the rest of the configuration as last applied (the resource block put back, if it was removed) changes it in place, without touching the job."

// deleteMayHaveBeenDone reports whether the try of a DELETE that failed with
// last (nil: none was sent) may have deleted the job all the same.
func deleteMayHaveBeenDone(last error) bool {
	var apiErr *client.APIError
	var transportErr *client.TransportError
	switch {
	case errors.As(last, &apiErr):
		return apiErr.MayHaveBeenHandled()
	case errors.As(last, &transportErr):
		return transportErr.Sent
	}
	return false
}

func (r *jobResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if r.data != nil && r.data.ZeroDataRetention {
		resp.Diagnostics.AddError("Cannot import a job under zero data retention", zeroDataRetentionImportDetail)
		return
	}
	if req.ID == "" && req.Identity == nil {
		resp.Diagnostics.AddError("Missing job id", "Import a transcription job by its id, the UUID the service assigned to it: terraform import transcription_job.example <id>, or an import block with id or identity = { id = ... }.")
		return
	}
	resource.ImportStatePassthroughWithIdentity(ctx, path.Root("id"), path.Root("id"), req, resp)
	// An id the service cannot have issued is refused before it is asked.
	var id types.String
	resp.Diagnostics.Append(resp.State.GetAttribute(ctx, path.Root("id"), &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !client.JobIDPattern.MatchString(id.ValueString()) {
		resp.Diagnostics.AddError("Invalid job id",
			fmt.Sprintf("A transcription job's id is the UUID the service assigned to it, such as 3fa85f64-5717-4562-b3fc-2c963f66afa6; got %q.%s%s", id.ValueString(),
				validators.SurroundingSpaceHint(client.JobIDPattern, id.ValueString()), uuidFormHint(id.ValueString())))
		return
	}
	r.importWhole(ctx, id.ValueString(), resp)
}

// uuidFormHint says how to write a UUID given in another of its forms
// (RFC 9562's URN, or between braces as some tools write it); "" otherwise.
func uuidFormHint(id string) string {
	plain, urn := strings.CutPrefix(strings.ToLower(id), "urn:uuid:")
	inner, braced := strings.CutPrefix(plain, "{")
	braced = braced && strings.HasSuffix(inner, "}")
	if braced {
		plain = strings.TrimSuffix(inner, "}")
	}
	switch {
	case !client.JobIDPattern.MatchString(plain) || plain == strings.ToLower(id):
		return ""
	case urn && braced:
		return " Write it as the plain UUID, without urn:uuid: and the braces."
	case urn:
		return " Write it as the plain UUID, without urn:uuid:."
	}
	return " Write it without the braces."
}

// importWhole reads the job being imported and sets its whole state, so
// that the refresh which follows an import finds nothing new to report:
// Terraform before 1.16 and OpenTofu log each value a refresh fills in
// where there was none, and inside callback_config they do not hide the
// sensitive url (a callback's token). Without a client (the provider's
// configuration known only after apply), the state keeps only the id, and
// Read says why nothing can be imported.
func (r *jobResource) importWhole(ctx context.Context, id string, resp *resource.ImportStateResponse) {
	if r.data == nil || r.data.Client == nil {
		return
	}
	ctx, stop := r.data.untilStopped(ctx)
	defer stop()
	read, cancel := newJobRead(ctx, defaultReadTimeout, nil)
	defer cancel()
	ctx = tflog.SetField(read.ctx, "job_id", id)
	job, err := r.data.Client.GetPreRecorded(ctx, id, resultDetail(summaryContent))
	if err != nil {
		r.addImportError(read, id, err, &resp.Diagnostics)
		return
	}
	imported, diags := importedJob(ctx, job, r.data.Client.ResultURL(job.ID), nullJobTimeouts())
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, imported)...)
	// The id as the service writes it (an import's id may be in another
	// case), which every later read gives as the identity.
	resp.Diagnostics.Append(resp.Identity.Set(ctx, jobIdentityModel{ID: imported.ID})...)
	if job.Status == client.StatusDone {
		warnOfFailedAddons(&resp.Diagnostics, job)
	}
}

// addImportError explains why the job being imported could not be read.
func (r *jobResource) addImportError(read jobRead, id string, err error, diags *diag.Diagnostics) {
	switch {
	case read.timedOut(err):
		read.addTimeout(diags, id, err, "Nothing is imported.")
	case client.IsNotFound(err):
		addJobNotFound(read.ctx, r.data.Client, diags, id, err, path.Empty(), "Cannot import the transcription job",
			fmt.Sprintf("The service at %s has no pre-recorded job with id %q: check the id (a live session's id, or an uploaded file's (a transcription_upload's id), is no pre-recorded job's; jobs are deleted when their retention period ends), "+
				"and that the import goes through the provider configuration the job was created with (base_url, api_key: with several provider configurations or instances, the resource's provider argument).", r.data.Client.ServiceAddress(), id))
	default:
		addAPIError(diags, "Cannot read the transcription job "+id, err)
	}
}

// notRefreshed reports whether a job in state is planned as last read,
// with a warning saying why: the provider's arguments are known only after
// apply, so the service cannot be asked. An import cannot do without it.
func (r *jobResource) notRefreshed(state jobResourceModel, importing bool, diags *diag.Diagnostics) bool {
	if importing || r.data == nil || len(r.data.pending) == 0 {
		return false
	}
	diags.AddWarning("Transcription job not refreshed",
		fmt.Sprintf("The provider's configuration is known only after apply (%s), so job %s was not read from the service: this plan uses its last known state. "+
			"The next plan with that configuration known refreshes it.", strings.Join(r.data.pending, ", "), state.ID.ValueString()))
	return true
}

// configured reports whether the provider gave this resource its client.
func (r *jobResource) configured(diags *diag.Diagnostics) bool {
	return r.data.clientFor("the transcription_job resource", diags) != nil
}

// callbackTargets are the attributes that say where results are sent.
type callbackTargets struct {
	callback types.Bool
	config   types.Object
	url      types.String
}

// usesConfig reports whether the callback goes to callback_config (callback
// on and callback_config set), as client.CallbackTarget has it.
func (t callbackTargets) usesConfig() bool {
	return t.callback.ValueBool() && !t.config.IsNull()
}

// checkCallbackDestination refuses callback = true with nowhere to deliver
// the result. It reads the plan, not the configuration, as the action's
// validator does: a callback_url left out of the configuration keeps the
// job's (an imported job's generated configuration cannot hold it), so only
// the plan tells whether the job has one.
func checkCallbackDestination(ctx context.Context, plan tfsdk.Plan, diags *diag.Diagnostics) {
	targets, d := readCallbackTargets(ctx, plan)
	diags.Append(d...)
	if d.HasError() || !targets.callback.ValueBool() {
		return
	}
	if delivers, known := targets.delivers(); known && !delivers {
		validators.AddCallbackWithoutDestination(diags, path.Root("callback"))
	}
}

// pathCallbackConfigURL is callback_config.url.
var pathCallbackConfigURL = path.Root("callback_config").AtName("url")

// checkCallbackConfigURL refuses a new job whose callback_config has no url.
// The url left out of the configuration keeps an existing job's (an
// imported job's generated configuration cannot hold it), so the schema
// cannot require it: a new job, created or made again by a replacement
// (which Terraform plans with no prior state), has none to keep. It is
// required whether callback is on or off, as the service checks a
// callback_config it is sent even when it ignores it.
func checkCallbackConfigURL(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) {
	var callbackConfig types.Object
	var url types.String
	d := config.GetAttribute(ctx, path.Root("callback_config"), &callbackConfig)
	if !d.HasError() && !callbackConfig.IsNull() && !callbackConfig.IsUnknown() {
		d.Append(config.GetAttribute(ctx, pathCallbackConfigURL, &url)...)
	}
	diags.Append(d...)
	if d.HasError() || callbackConfig.IsNull() || callbackConfig.IsUnknown() || !url.IsNull() {
		return
	}
	diags.AddAttributeError(pathCallbackConfigURL, "Missing callback_config.url for a new job",
		"callback_config is set without url, and this plan creates a job: a new one, or one made again because a change replaces it. "+
			"callback_config.url is required for a new job: set it to the absolute http or https URL the service calls with the result. "+
			"It may be left out only for an existing job, which keeps its own (the configuration Terraform generates for an import cannot hold this sensitive value), "+
			"and only as long as no change replaces the job.")
}

// checkNoBlankEntries refuses, for a new job (as checkSwitchesHaveConfig),
// a blank prompt, pronunciation or spelling to replace: the service takes
// it and bills a job that asks it for nothing (an answer to an empty
// prompt). Not a validator of the schema's: a job made elsewhere with one
// is kept when imported, and the configuration Terraform generates for it
// must validate. Unknown values are checked when known.
func checkNoBlankEntries(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) {
	check := func(p path.Path, v attr.Value) {
		s, ok := v.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() || notBlankPattern.MatchString(s.ValueString()) {
			return
		}
		diags.AddAttributeError(p, "Blank entry in a new job",
			fmt.Sprintf("Attribute %s must not be empty or blank, got: %q. This makes a new job, which the service would bill for asking nothing of it. "+
				"(A transcription_job made elsewhere with one keeps it once imported, until a change replaces it.)", p, s.ValueString()))
	}
	var prompts, vocabulary types.List
	var dictionary types.Map
	promptsPath := path.Root("audio_to_llm_config").AtName("prompts")
	vocabularyPath := path.Root("custom_vocabulary_config").AtName("vocabulary")
	dictionaryPath := path.Root("custom_spelling_config").AtName("spelling_dictionary")
	diags.Append(config.GetAttribute(ctx, promptsPath, &prompts)...)
	diags.Append(config.GetAttribute(ctx, vocabularyPath, &vocabulary)...)
	diags.Append(config.GetAttribute(ctx, dictionaryPath, &dictionary)...)
	for i, prompt := range prompts.Elements() {
		check(promptsPath.AtListIndex(i), prompt)
	}
	for i, e := range vocabulary.Elements() {
		if entry, ok := e.(types.Object); ok {
			if pronunciations, ok := entry.Attributes()["pronunciations"].(types.List); ok {
				for j, p := range pronunciations.Elements() {
					check(vocabularyPath.AtListIndex(i).AtName("pronunciations").AtListIndex(j), p)
				}
			}
		}
	}
	spellings := dictionary.Elements()
	for _, key := range slices.Sorted(maps.Keys(spellings)) {
		if list, ok := spellings[key].(types.List); ok {
			for j, s := range list.Elements() {
				check(dictionaryPath.AtMapKey(key).AtListIndex(j), s)
			}
		}
	}
}

// checkSwitchesHaveConfig refuses a new job (created, or made again by a
// replacement, which Terraform plans with no prior state) that turns on a
// switch of switchesNeedingConfig without its configuration. It is not a
// validator of the schema's, which would refuse the configuration
// Terraform generates for an existing job made elsewhere with one.
func checkSwitchesHaveConfig(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) {
	for _, sw := range switchesNeedingConfig {
		var on types.Bool
		if d := config.GetAttribute(ctx, path.Root(sw.name), &on); d.HasError() {
			diags.Append(d...)
			return
		}
		var resp validator.BoolResponse
		sw.validator().ValidateBool(ctx,
			validator.BoolRequest{Path: path.Root(sw.name), PathExpression: path.MatchRoot(sw.name), ConfigValue: on, Config: config}, &resp)
		diags.Append(resp.Diagnostics...)
	}
}

// readCallbackTargets reads the callback attributes of a configuration or
// a plan.
func readCallbackTargets(ctx context.Context, config interface {
	GetAttribute(context.Context, path.Path, any) diag.Diagnostics
}) (callbackTargets, diag.Diagnostics) {
	var t callbackTargets
	var diags diag.Diagnostics
	diags.Append(config.GetAttribute(ctx, path.Root("callback"), &t.callback)...)
	diags.Append(config.GetAttribute(ctx, path.Root("callback_config"), &t.config)...)
	diags.Append(config.GetAttribute(ctx, path.Root("callback_url"), &t.url)...)
	return t, diags
}

// delivers reports whether the service will send the result somewhere, as
// it decides: callback_config when callback is true, else callback_url.
// known is false while an unknown value leaves it open.
func (t callbackTargets) delivers() (delivers, known bool) {
	if t.callback.IsUnknown() || t.config.IsUnknown() || t.url.IsUnknown() {
		return false, false
	}
	return (t.callback.ValueBool() && !t.config.IsNull()) || !t.url.IsNull(), true
}
