package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	actiontimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/action/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/action"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/validators"
)

var (
	_ action.Action                     = &transcribeAction{}
	_ action.ActionWithConfigure        = &transcribeAction{}
	_ action.ActionWithModifyPlan       = &transcribeAction{}
	_ action.ActionWithConfigValidators = &transcribeAction{}
)

// NewTranscribeAction returns the transcription_transcribe action
// (Terraform 1.14+).
func NewTranscribeAction() action.Action { return &transcribeAction{poll: defaultPollSchedule} }

// transcribeAction runs a transcription without keeping anything in state:
// it creates a job and, unless told not to, waits for it, reporting its
// progress and outcome through the action's progress messages.
type transcribeAction struct {
	data *ProviderData
	poll pollSchedule
}

// transcribeActionModel is the action's configuration: the job's request,
// named as the transcription_job resource's arguments, and how to wait.
type transcribeActionModel struct {
	jobRequestModel
	WaitForCompletion types.Bool           `tfsdk:"wait_for_completion"`
	Timeouts          actiontimeouts.Value `tfsdk:"timeouts"`
}

func (a *transcribeAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_transcribe"
}

// transcribeActionTimeouts is the timeouts package's attribute for an
// action: invoke bounds the create's tries and the wait of
// wait_for_completion.
func transcribeActionTimeouts(ctx context.Context) actionschema.Attribute {
	a, ok := actiontimeouts.AttributesWithOpts(ctx, actiontimeouts.Opts{
		InvokeDescription: fmt.Sprintf("How long the action may take, as a Go duration such as `30m`: the create request's tries while the service turns it away (429, 503), then, with `wait_for_completion`, the wait for the job to end. Defaults to `%s`. "+
			"No try of the create is sent after it runs out; a try in flight goes on to the service's answer. "+
			"When it runs out during the wait the action fails; the service goes on processing the job.", client.FormatDuration(defaultWaitTimeout)),
	}).(actionschema.SingleNestedAttribute)
	if !ok {
		panic("timeouts.AttributesWithOpts no longer returns a SingleNestedAttribute")
	}
	a.MarkdownDescription = "Time limits of the action."
	documentedPositiveTimeouts(a.Attributes)
	return a
}

func (a *transcribeAction) Schema(ctx context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resourceAttrs := jobSchema(ctx).Attributes
	attrs := make(map[string]actionschema.Attribute, len(requestFieldNames())+2)
	for _, name := range requestFieldNames() {
		attrs[name] = actionAttribute(resourceAttrs[name])
	}
	// The resource's callback URLs are sensitive and kept in state; an
	// action's arguments cannot be sensitive, and it keeps no job.
	callbackURL, ok1 := attrs["callback_url"].(actionschema.StringAttribute)
	callbackConfig, ok2 := attrs["callback_config"].(actionschema.SingleNestedAttribute)
	callbackConfigURL, ok3 := callbackConfig.Attributes["url"].(actionschema.StringAttribute)
	if !ok1 || !ok2 || !ok3 {
		panic("the callback URLs are no longer string attributes of the job's schema")
	}
	callbackURL.MarkdownDescription = "**Deprecated**: use `callback = true` and `callback_config` instead. URL the service sends the result to with a `POST`. " +
		"An absolute `http` or `https` URL. " + actionCallbackURLNotSensitive
	attrs["callback_url"] = callbackURL
	// The resource checks this on its plan (checkCallbackDestination);
	// an action has no job to keep a callback_url from.
	callback, ok := attrs["callback"].(actionschema.BoolAttribute)
	if !ok {
		panic("callback is no longer a bool attribute of the job's schema")
	}
	callback.Validators = append(slices.Clone(callback.Validators), validators.CallbackDestination())
	attrs["callback"] = callback
	// The resource refuses these on a new job's plan (checkSwitchesHaveConfig);
	// an action always makes a new job.
	for _, sw := range switchesNeedingConfig {
		a, ok := attrs[sw.name].(actionschema.BoolAttribute)
		if !ok {
			panic(sw.name + " is no longer a bool attribute of the job's schema")
		}
		a.Validators = append(slices.Clone(a.Validators), sw.validator())
		a.MarkdownDescription = strings.Replace(a.MarkdownDescription, needsConfigForNewJob, ", which must then be set.", 1)
		attrs[sw.name] = a
	}
	// An action keeps no state to refresh or import.
	metadata, ok := attrs["custom_metadata"].(actionschema.MapAttribute)
	if !ok {
		panic("custom_metadata is no longer a map attribute of the job's schema")
	}
	metadata.MarkdownDescription = customMetadataDescription
	attrs["custom_metadata"] = metadata
	// An action keeps no result to point at.
	for name, a := range attrs {
		if b, ok := a.(actionschema.BoolAttribute); ok && resultAtSentence.MatchString(b.MarkdownDescription) {
			b.MarkdownDescription = resultAtSentence.ReplaceAllString(b.MarkdownDescription, "")
			attrs[name] = b
		}
	}
	// The resource keeps a job's url when its configuration leaves it
	// out; an action makes a new job each time, with none to keep.
	callbackConfigURL.MarkdownDescription = "URL called with the result: an absolute `http` or `https` URL. Required. " + actionCallbackURLNotSensitive
	callbackConfigURL.Required, callbackConfigURL.Optional = true, false
	callbackConfig.Attributes["url"] = callbackConfigURL
	attrs["callback_config"] = callbackConfig
	attrs["wait_for_completion"] = actionschema.BoolAttribute{
		MarkdownDescription: "Whether the action waits for the job to end (`done` or `error`), within `timeouts.invoke`, reporting its status as it changes. " +
			"With `false` it ends once the job is created, with its id in a progress message. " +
			"Defaults to `true`, or to `false` when the provider has `zero_data_retention`, where there is nothing to wait for and `true` is refused.",
		Optional: true,
	}
	attrs["timeouts"] = transcribeActionTimeouts(ctx)
	resp.Schema = actionschema.Schema{
		MarkdownDescription: "Transcribes a recording without keeping a resource in state: the action creates a pre-recorded job with the options given " +
			"(the same arguments as the `transcription_job` resource, checked at plan time in the same way) and waits for it, " +
			"reporting the job's id, its status changes (and, while it stays `queued` or `processing`, its status again after each minute or more) and its outcome as progress messages. " +
			"Trigger it from another resource's lifecycle with `action_trigger` (for example after a `transcription_upload` is created), or run it with `terraform apply -invoke=action.transcription_transcribe.<name>`. " +
			"Each run makes a new job, billed as such. An action keeps nothing: its first progress message gives the job's id and the URL of its result, which the `transcription_job` data source reads by id (under zero data retention the message gives the id only: no read is possible, and the result reaches only the callback). " +
			"Action arguments cannot be marked sensitive by a provider: give a callback URL that carries a token from a variable or value marked `sensitive`, so that Terraform hides it.",
		Attributes: attrs,
	}
}

func (a *transcribeAction) ConfigValidators(context.Context) []action.ConfigValidator {
	return []action.ConfigValidator{validators.ModelThreeLanguage(), noBlankEntries{}}
}

// noBlankEntries is the resource's rule for a new job (checkNoBlankEntries),
// at validation: every run of the action makes a new job.
type noBlankEntries struct{}

func (noBlankEntries) Description(context.Context) string {
	return "prompts, pronunciations and spellings to replace must not be blank"
}

func (v noBlankEntries) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (noBlankEntries) ValidateAction(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	checkNoBlankEntries(ctx, req.Config, &resp.Diagnostics)
}

func (a *transcribeAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan refuses at plan time, before any call, what zero data
// retention makes impossible: waiting, a job without a callback, and an
// uploaded audio_url.
func (a *transcribeAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	// Terraform validates an action's configuration only in the validate
	// walk, where variables and every other value are still unknown, and
	// plans it with them known: what the validators skipped is checked
	// here. Only the errors: the warnings of known values came with
	// validation, and the others come when the action is invoked.
	var diags diag.Diagnostics
	a.checkConfig(ctx, req.Config, &diags)
	resp.Diagnostics.Append(diags.Errors()...)
	// Each run makes a job, billed: as a plan that makes a job does.
	warnObjectsSettingNothing(req.Config.Raw, &resp.Diagnostics)
}

// checkConfig checks the configuration of an action as validation would,
// with the zero data retention refusals of its plan. Terraform validates
// and plans an action only with the values known at plan time (an
// action_trigger's configuration may use the triggering resource's computed
// values), and invokes it with the final ones unchecked: the plan and the
// invocation both check it, so that what was unknown before is checked
// before any request.
func (a *transcribeAction) checkConfig(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) {
	var schemaResp action.SchemaResponse
	a.Schema(ctx, action.SchemaRequest{}, &schemaResp)
	validateActionAttributes(ctx, config, schemaResp.Schema.Attributes, path.Empty(), diags)
	for _, v := range a.ConfigValidators(ctx) {
		resp := &action.ValidateConfigResponse{}
		v.ValidateAction(ctx, action.ValidateConfigRequest{Config: config}, resp)
		diags.Append(resp.Diagnostics...)
	}
	if a.data != nil && a.data.ZeroDataRetention {
		refuseUnderZeroDataRetention(ctx, config, true, a.data, diags)
	}
}

func (a *transcribeAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	ctx, stop := a.data.untilStopped(ctx)
	defer stop()
	defer func() {
		// terraform-plugin-go sends nothing once the request's context has
		// ended (an interrupt): what the diagnostics say (the job left
		// running, where its result will be) reaches only the log.
		if ctx.Err() != nil {
			for _, d := range resp.Diagnostics {
				tflog.Warn(ctx, d.Summary(), map[string]any{"detail": d.Detail(), "severity": d.Severity().String()})
			}
		}
	}()
	var config transcribeActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if a.data.clientFor("the transcription_transcribe action", &resp.Diagnostics) == nil {
		return
	}
	if a.checkConfig(ctx, req.Config, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	wait := !a.data.ZeroDataRetention
	if !config.WaitForCompletion.IsNull() {
		wait = config.WaitForCompletion.ValueBool()
	}
	// timeouts.invoke bounds the whole action: the create's tries, then the
	// wait.
	start := time.Now()
	timeout, diags := config.Timeouts.Invoke(ctx, defaultWaitTimeout)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}

	limit := timeLimit{setting: "timeouts.invoke", duration: timeout}
	ctx, created := submitJob(ctx, a.data.Client, config.jobRequestModel, actionCreate, start, limit, &resp.Diagnostics)
	if created == nil {
		return
	}
	// Once ctx ends (an interrupt), terraform-plugin-go takes no more
	// events and the framework's loop stops receiving them: a progress
	// message, an unbuffered send, would then block this goroutine forever.
	progress := func(format string, args ...any) {
		if ctx.Err() == nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
		}
	}
	if a.data.ZeroDataRetention {
		// Its result_url is refused, as every read is.
		progress("Created transcription job %s: under zero data retention its result reaches only the callback.", created.ID)
	} else {
		progress("Created transcription job %s (%s).", created.ID, created.ResultURL)
	}
	if !wait {
		return
	}

	left := jobLeftRunning + " Its result will be at " + created.ResultURL + "."
	if !time.Now().Before(start.Add(timeout)) {
		addAnsweredLate(&resp.Diagnostics, created.ID, limit, left)
		return
	}
	waitCtx, cancel := context.WithDeadline(ctx, start.Add(timeout))
	defer cancel()
	told := jobProgress{id: created.ID, start: start}
	job, err := waitForFinalJob(waitCtx, a.data.Client, created.ID, a.poll, resultDetail(summaryContent), func(status string) {
		if message := told.message(status, time.Now()); message != "" {
			progress("%s", message)
		}
	})
	switch {
	case err != nil:
		addWaitError(&resp.Diagnostics, created.ID, job, timeout, err, "timeouts.invoke", waitAftermath{running: left})
	case job.Status == client.StatusError:
		resp.Diagnostics.AddError("Transcription job failed", jobFailureDetail(job)+uploadNotFoundNote(a.data, config.AudioURL.ValueString(), job.ErrorCode))
	default:
		progress("%s", jobOutcome(job))
		if failures := addonFailures(job.Result, translationTargets(job)); len(failures) > 0 {
			// Terraform 1.16 prints an action's progress, but drops the
			// warnings it completes with when a resource's action_trigger
			// invoked it (-invoke shows them): the failures are progress too.
			detail := fmt.Sprintf("Job %s is done, but these add-ons failed:\n%s", job.ID, joinLines(failures))
			progress("%s", detail)
			resp.Diagnostics.AddWarning("Some add-ons of the transcription job failed", detail)
		}
	}
}

// progressInterval is how long the action's progress stays silent while
// the job it waits for stays in one status: Terraform shows an action no
// elapsed time of its own.
const progressInterval = time.Minute

// jobProgress words the action's progress through a wait: a message for
// each status the job is seen in, and, while it stays in one, one at the
// first look after each progressInterval (looks grow sparser as the wait
// goes on: at a tenth of the time waited).
type jobProgress struct {
	id       string
	start    time.Time // of the action
	status   string    // last told
	lastTold time.Time
}

// message is what to tell of a look at now that saw status; empty for
// nothing.
func (p *jobProgress) message(status string, now time.Time) string {
	switch {
	case status != p.status:
		p.status, p.lastTold = status, now
		switch status {
		case client.StatusDone:
			return "" // the outcome says it, with what was transcribed
		case client.StatusError:
			return fmt.Sprintf("Transcription job %s ended in error.", p.id)
		}
		return fmt.Sprintf("Transcription job %s is %s.", p.id, status)
	case now.Sub(p.lastTold) >= progressInterval:
		p.lastTold = now
		return fmt.Sprintf("Transcription job %s is still %s, %s after the action started.", p.id, status, client.FormatDuration(now.Sub(p.start).Round(time.Second)))
	}
	return ""
}

// jobOutcome is the last progress message of a job that is done: what it
// transcribed and where its result is.
func jobOutcome(job *client.PreRecordedJob) string {
	msg := fmt.Sprintf("Transcription job %s is done", job.ID)
	if r := job.Result; r != nil {
		msg += fmt.Sprintf(": %s s of audio", formatFloat(r.Metadata.AudioDuration))
		// The CLI prints progress as it is (no Markdown, escape sequences
		// and all) on one prefixed line: the service's text is unescaped,
		// a bullet-point summary's lines joined, and shown whole (the
		// action keeps nothing else of it).
		if r.Transcription != nil && len(r.Transcription.Languages) > 0 {
			msg += " in " + client.Printable(strings.Join(r.Transcription.Languages, ", "))
		}
		if r.Summarization != nil && r.Summarization.Results != nil {
			if summary := strings.Join(strings.Fields(client.Unescaped(*r.Summarization.Results)), " "); summary != "" {
				msg += ". Summary: " + summary
			}
		}
	}
	if strings.HasSuffix(msg, ".") || strings.HasSuffix(msg, "!") || strings.HasSuffix(msg, "?") {
		return msg // a summary's own last sentence ends it: no "A stand-up.."
	}
	return msg + "."
}

// actionCallbackURLNotSensitive tells what the resource's "Sensitive" does
// not hold for an action.
const actionCallbackURLNotSensitive = "Not sensitive here, as no action argument can be: when the URL carries a token, give it from a variable or value marked `sensitive`, so that Terraform hides it. " +
	"Nor can it be ephemeral: Terraform takes ephemeral values only in write-only arguments, which terraform-plugin-framework (v1.19) refuses in an action."
