package provider

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"golang.org/x/text/unicode/norm"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/validators"
)

var (
	_ resource.Resource                = &uploadResource{}
	_ resource.ResourceWithConfigure   = &uploadResource{}
	_ resource.ResourceWithModifyPlan  = &uploadResource{}
	_ resource.ResourceWithImportState = &uploadResource{}
	_ resource.ResourceWithIdentity    = &uploadResource{}
)

// uploadIdentityModel is an upload's resource identity: the service's id
// of the uploaded file.
type uploadIdentityModel struct {
	ID types.String `tfsdk:"id"`
}

// NewUploadResource returns the transcription_upload resource.
func NewUploadResource() resource.Resource { return &uploadResource{} }

// uploadResource is transcription_upload: a local file uploaded to the
// service (POST /v2/upload) so that a job can transcribe it.
type uploadResource struct {
	data *ProviderData
}

// uploadResourceModel is the state (and plan, and configuration) of a
// transcription_upload.
type uploadResourceModel struct {
	ID            types.String   `tfsdk:"id"`
	Source        types.String   `tfsdk:"source"`
	SHA256        types.String   `tfsdk:"sha256"`
	AudioURL      types.String   `tfsdk:"audio_url"`
	AudioMetadata types.Object   `tfsdk:"audio_metadata"`
	Timeouts      timeouts.Value `tfsdk:"timeouts"`
}

// Paths ModifyPlan works on.
var (
	pathUploadSource   = path.Root("source")
	pathUploadSHA256   = path.Root("sha256")
	pathUploadTimeouts = path.Root("timeouts")
)

// uploadMetadataAttrTypes is the type of audio_metadata.
var uploadMetadataAttrTypes = map[string]attr.Type{
	"id":                 types.StringType,
	"filename":           types.StringType,
	"extension":          types.StringType,
	"size":               types.Int64Type,
	"audio_duration":     types.Float64Type,
	"number_of_channels": types.Int64Type,
}

func (r *uploadResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_upload"
}

const uploadResourceDescription = `A local audio or video file uploaded to the service, so that a ` + "`transcription_job`" + ` can transcribe it: pass ` + "`audio_url`" + ` to the job's ` + "`audio_url`" + `.

The file is streamed, never read whole into memory. At every plan the provider hashes the file (SHA-256, streamed too): when its content differs from the uploaded one, the plan replaces the upload (and, through ` + "`audio_url`" + `, the jobs that use it). A missing or unreadable file fails the plan of a new upload or of a new ` + "`source`" + `, naming the path. Once uploaded, the file may go away, be emptied, or stop holding a recording (a Git LFS pointer checked out in its place): plans warn, naming the path, and keep the upload as it is, so ` + "`terraform destroy`" + ` needs no file while ` + "`source`" + ` names the path uploaded (as destroy plans the configuration first, a ` + "`source`" + ` changed since to a path that cannot be read stops it: give ` + "`source`" + ` its former value, or run ` + "`terraform destroy -refresh=false`" + `). The apply uploads the file as it is then, and its digest is in ` + "`sha256`" + ` once uploaded: a file edited between the plan and the apply of a creation or replacement is uploaded as edited. A plan that changes an upload in place (another path to the same content, new ` + "`timeouts`" + `) cannot follow an edit made before its apply: Terraform then stops with "Provider produced inconsistent final plan", and a new plan replaces the upload. An empty file, or one whose first bytes show it is no audio or video (text, a web page, a PDF, a zip, gzip or rar archive, a PNG, JPEG, GIF or WebP image), fails the plan of a new upload or of a new ` + "`source`" + `, naming the path: the service takes only recordings. An upload stops, before it completes, if the file changes while it is read. The file's content is not an argument, so ` + "`lifecycle { ignore_changes = all }`" + ` does not stop the replacement a new content plans (Terraform's ` + "`ignore_changes`" + ` covers only what the configuration sets): to keep an upload and its jobs whatever the file becomes, stop managing the upload (a ` + "`removed`" + ` block with ` + "`destroy = false`" + `, or ` + "`terraform state rm`" + `) and give the jobs its ` + "`audio_url`" + ` as written.

**Replacing without a gap.** With ` + "`lifecycle { create_before_destroy = true }`" + ` on the jobs that transcribe an upload, a changed recording is uploaded and transcribed before the old job is deleted, so outputs never point at a deleted job.

**Time.** No timeout bounds the upload as a whole: a large recording on a slow link takes the time it needs, as long as it makes progress. The provider gives up on a transfer that makes no progress for a minute, on a connection not opened within 30 seconds, and on an answer whose headers do not come within 2 minutes of the last byte sent. A transfer given up before its last byte is sent again from the start, up to the provider's ` + "`max_retries`" + ` times (the service cannot have used part of a file); a connection not opened is tried once more; an answer that does not come is not asked for again. Set ` + "`timeouts.create`" + ` to cap the whole upload.

**Size.** The service documents a limit of 1000 MB per upload: the plan of a new upload warns of a larger file, naming ` + "`source`" + ` (an account may have a higher limit, so it is not refused), and an upload the service refuses as too large fails the apply, naming ` + "`source`" + ` and the file's size. A smaller encoding (MP3, Opus) or an external ` + "`audio_url`" + ` avoids it.

**Destroy.** The service has no endpoint to delete an upload: destroying this resource only removes it from Terraform's state. The service keeps the file for its retention period (3 weeks on paid plans, 1 year on the free plan).

**Retention.** The service deletes an upload when its retention period ends, as it deletes jobs, and the provider cannot see it: the service has no call that reads an upload's record back. A job made again from its ` + "`audio_url`" + ` then fails: replace the upload (` + "`terraform apply -replace`" + ` on it), which replaces the jobs that use it. A job found gone at the end of its retention says so.

**Zero data retention.** The service disables uploads when zero data retention is enabled, so with the provider's ` + "`zero_data_retention = true`" + ` a new upload is refused at plan time, before any request; an upload made before stays as it is (a warning says so when its file has changed or been renamed since) and can be destroyed. Host the recording yourself and give the job an external URL (public, or signed such as a presigned object-storage URL) instead.

There is no import: the service offers no way to read an upload's record (its file name, size and duration) back. Declare the upload with its ` + "`source`" + ` instead (the next apply uploads the file again), or give the job the file's ` + "`audio_url`" + ` directly.`

func (r *uploadResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				Description:       "Identifier of the uploaded file on the service. Uploads cannot be imported: the service cannot read one back.",
				RequiredForImport: true,
			},
		},
	}
}

func (r *uploadResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: uploadResourceDescription,
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "Identifier of the uploaded file on the service (`audio_metadata.id`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"source": schema.StringAttribute{
				MarkdownDescription: "Path of the local audio or video file to upload. A relative path is resolved from the directory Terraform runs in; " +
					"use `path.module` (`\"${path.module}/recording.wav\"`) to name a file next to the configuration. " +
					"The uploaded file's path written another way (`./recording.wav`, an absolute path for a relative one, through a linked directory) plans no change, and state keeps the path uploaded from. " +
					"A new path to another file with the same name and content changes in place, without a new upload; a different file name replaces the upload, because the service records it. " +
					"The file must be there when Terraform plans, unless the path is known only at apply: for a file another resource writes during the apply, " +
					"take the path from that resource (`source = terraform_data.render.output`), which `depends_on` alone does not do.",
				Required:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1), validators.ValidUTF8()},
				// A different file name replaces the upload in ModifyPlan,
				// which knows whether zero data retention allows a new one.
			},
			"sha256": schema.StringAttribute{
				MarkdownDescription: "SHA-256 of the uploaded content (64 hexadecimal digits). Every plan of an upload made hashes the file again: a different digest replaces the upload, and the new digest is known once the file is uploaded (a new upload's plan only checks that the file can be read).",
				Computed:            true,
			},
			"audio_url": schema.StringAttribute{
				MarkdownDescription: "URL of the uploaded file on the service: give it to `transcription_job`'s `audio_url`.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"audio_metadata": schema.SingleNestedAttribute{
				MarkdownDescription: "What the service found in the file.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
				Attributes: map[string]schema.Attribute{
					"id": schema.StringAttribute{
						MarkdownDescription: "Identifier of the uploaded file.",
						Computed:            true,
					},
					"filename": schema.StringAttribute{
						MarkdownDescription: "Name of the file, the last element of `source` (a control character in it percent-encoded, as it is sent).",
						Computed:            true,
					},
					"extension": schema.StringAttribute{
						MarkdownDescription: "Extension of the file, such as `wav`.",
						Computed:            true,
					},
					"size": schema.Int64Attribute{
						MarkdownDescription: "Size of the file, in bytes.",
						Computed:            true,
					},
					"audio_duration": schema.Float64Attribute{
						MarkdownDescription: "Duration of the audio, in seconds.",
						Computed:            true,
					},
					"number_of_channels": schema.Int64Attribute{
						MarkdownDescription: "Number of audio channels.",
						Computed:            true,
					},
				},
			},
			"timeouts": uploadTimeoutsAttribute(ctx),
		},
	}
}

// uploadTimeoutsAttribute is the timeouts attribute: create only, and no
// cap unless one is set.
func uploadTimeoutsAttribute(ctx context.Context) schema.Attribute {
	a, ok := timeouts.Attributes(ctx, timeouts.Opts{
		Create: true,
		CreateDescription: "The longest the upload may take as a whole, as a Go duration such as `30m` or `2h`. Unset, there is no cap: " +
			"an upload that makes progress goes on until it ends, and only a stalled one fails.",
	}).(schema.SingleNestedAttribute)
	if !ok {
		panic("timeouts.Attributes no longer returns a SingleNestedAttribute")
	}
	a.MarkdownDescription = "Time limits of the upload. Changing them does not upload the file again."
	documentedPositiveTimeouts(a.Attributes)
	return a
}

func (r *uploadResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan hashes the file, so that a changed content plans a replacement
// and a missing file fails the plan, and refuses any upload under zero data
// retention before a request is made.
func (r *uploadResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	// Nothing to check on destroy: the file may well be gone by then. Said
	// before it is approved: the copy on the service stays.
	if req.Plan.Raw.IsNull() {
		warnUploadLeft(ctx, req.State, "will be", &resp.Diagnostics)
		return
	}
	// Hashing a large file takes seconds: the provider's own signal ends it
	// too, as Terraform 1.8 and OpenTofu send no stop while an apply plans.
	ctx, stop := r.data.untilStopped(ctx)
	defer stop()
	zeroDataRetention := r.data != nil && r.data.ZeroDataRetention
	creating := req.State.Raw.IsNull()
	if creating && zeroDataRetention {
		resp.Diagnostics.AddAttributeError(pathUploadSource, "Uploads are disabled under zero data retention", uploadZeroDataRetentionDetail)
		return
	}

	if !creating {
		defer func() {
			if len(resp.RequiresReplace) > 0 {
				warnUploadLeft(ctx, req.State, "will be", &resp.Diagnostics)
			} else {
				// A replacement uploads through the address of now.
				r.warnUploadElsewhere(ctx, req.Private, req.State, &resp.Diagnostics)
			}
		}()
	}
	var plan, state uploadResourceModel
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	if !creating {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if !creating && timeoutsRewritten(req.Config.Raw, req.State.Raw) {
		plan.Timeouts = state.Timeouts
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathUploadTimeouts, state.Timeouts)...)
	}
	// The path uploaded written another way (./a.wav for a.wav, through a
	// linked directory): the same file under the same name, so nothing to
	// plan, and state keeps the applied form.
	if !creating && !plan.Source.IsUnknown() && !plan.Source.Equal(state.Source) && sameSourceFile(plan.Source.ValueString(), state.Source.ValueString()) {
		plan.Source = state.Source
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathUploadSource, state.Source)...)
	}
	// The service records the file's name, so only a new upload changes it.
	// Under zero data retention none can be made: the upload stays as it was,
	// with a warning, as for a new content below (an error would stop
	// terraform destroy, whose first step plans the configuration).
	var uploadedAs string
	if !creating {
		// An upload made before the name was kept in private state: its
		// source in state still names the file it was uploaded from.
		keepUploadedName(ctx, req.Private, resp.Private, state, &resp.Diagnostics)
		uploadedAs = uploadedName(ctx, req.Private, state)
	}
	renamed := !creating && !plan.Source.IsUnknown() && filepath.Base(plan.Source.ValueString()) != uploadedAs
	// source in state may already name the new file (renamed under zero
	// data retention, an update): only the digest can then carry the
	// replacement, as a planned change.
	renamedInStateToo := renamed && filepath.Base(state.Source.ValueString()) == filepath.Base(plan.Source.ValueString())
	if plan.Source.IsUnknown() && !creating || renamed {
		if renamed && zeroDataRetention {
			resp.Diagnostics.AddAttributeWarning(pathUploadSource, "Uploads are disabled under zero data retention",
				fmt.Sprintf("source names another file name (%q, uploaded as %q), and recording it would need a new upload: the upload stays on the service as it was, "+
					"and jobs made from it transcribe what was uploaded. source's new value is kept in state, and the first plan without zero data retention uploads the file again under its new name. ",
					filepath.Base(plan.Source.ValueString()), uploadedAs)+uploadZeroDataRetentionDetail)
		} else if !zeroDataRetention {
			resp.RequiresReplace = append(resp.RequiresReplace, pathUploadSource)
		}
	}
	// An unknown source is hashed at apply time. Under zero data retention
	// the upload stays as it is, whatever source becomes (the apply's plan
	// warns of a new name or content): no replacement, which could not be
	// uploaded, and would stop terraform destroy.
	if plan.Source.IsUnknown() {
		if zeroDataRetention && !creating {
			plan.SHA256, plan.ID, plan.AudioURL, plan.AudioMetadata = state.SHA256, state.ID, state.AudioURL, state.AudioMetadata
			resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
		}
		return
	}

	source := plan.Source.ValueString()
	var sum string
	var size int64
	var head []byte // the file's first bytes: what it is
	var err error
	if creating {
		// A new upload's digest is planned unknown (below): the file needs
		// only to be there, readable, not empty, and a recording.
		size, head, err = sourceFileStart(source)
	} else {
		sum, size, err = fileSHA256(ctx, source)
	}
	if ctx.Err() != nil && !creating {
		resp.Diagnostics.AddAttributeError(pathUploadSource, "Interrupted while hashing the file to upload",
			fmt.Sprintf("Terraform was interrupted while the provider hashed %q to plan its upload.", source))
		return
	}
	// What a file to upload holds when it is no recording: a new upload's,
	// or a new content of an upload made (its first bytes read again only
	// then).
	notRecording := ""
	if err == nil && size > 0 && (creating || sum != state.SHA256.ValueString()) {
		if !creating {
			_, head, _ = sourceFileStart(source)
		}
		if contentType, media := client.SniffMedia(head); !media {
			notRecording = contentType
		}
	}
	if (err != nil || size == 0 || notRecording != "") && !creating && source == state.Source.ValueString() {
		// The file of an upload already made may go away, or be emptied: the
		// upload stays on the service. Terraform plans the configuration
		// before every destroy too (its pre-destroy refresh), so an error
		// here would stop terraform destroy. Only a new upload or a new path
		// needs a recording there.
		summary, why, hint := "The uploaded file can no longer be read", "has no bytes", ""
		switch {
		case err != nil:
			why, hint = fmt.Sprintf("cannot be read: %v", unwrapPathError(err)), unicodeFormHint(source, err)
		case notRecording != "":
			summary = "The uploaded file no longer holds a recording"
			why, hint = fmt.Sprintf("holds no recording any more: its content is %s, not audio or video", notRecording), gitLFSHint(head)
		}
		if hint != "" {
			hint = "\n\n" + hint
		}
		resp.Diagnostics.AddAttributeWarning(pathUploadSource, summary,
			fmt.Sprintf("The file %q %s. The upload made from it stays on the service and in state as it is; "+
				"nothing is uploaded again until the recording is back or source names another file. Removing the resource, or terraform destroy, needs no file.",
				source, why)+hint)
		plan.SHA256 = state.SHA256
		resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
		return
	}
	more := ""
	if !creating {
		// terraform destroy plans the configuration first: an error here
		// stops it too.
		more = fmt.Sprintf("\n\nThe upload made from %q stays on the service and in state. To destroy it while source names a file that cannot be uploaded, "+
			"give source its former value, or run terraform destroy -refresh=false (its first step plans the configuration, which fails here).", state.Source.ValueString())
	}
	switch {
	case err != nil:
		addSourceError(&resp.Diagnostics, source, err, more)
		return
	case size == 0:
		resp.Diagnostics.AddAttributeError(pathUploadSource, "The file to upload is empty",
			fmt.Sprintf("The file %q has no bytes, so no audio: the service would refuse it. Point source at a recording.", source)+more)
		return
	case notRecording != "":
		advice := cmp.Or(gitLFSHint(head), "Point source at a recording.")
		resp.Diagnostics.AddAttributeError(pathUploadSource, "The file to upload is not a recording",
			fmt.Sprintf("The content of %q is %s, not audio or video, which is all the service takes: it would refuse the upload. %s", source, notRecording, advice)+more)
		return
	}
	// A new digest is known only once uploaded: Terraform plans again at
	// apply time, and a file edited in between would otherwise turn a known
	// planned digest into an "inconsistent final plan" error.
	replacing := false
	switch {
	case creating:
		plan.SHA256 = types.StringUnknown()
	case state.SHA256.ValueString() == sum && (!renamedInStateToo || zeroDataRetention):
		plan.SHA256 = state.SHA256
	case zeroDataRetention:
		// A new upload cannot be made. A warning, as for a file gone: an
		// error would stop terraform destroy too, whose first plan is this.
		resp.Diagnostics.AddAttributeWarning(pathUploadSource, "Uploads are disabled under zero data retention",
			fmt.Sprintf("The content of %q changed since it was uploaded, and uploading it again would need a new upload: the upload stays on the service and in state as it was, "+
				"and jobs made from it transcribe what was uploaded. ", source)+uploadZeroDataRetentionDetail)
		plan.SHA256 = state.SHA256
	default:
		// A new content, or a new name that source in state already holds.
		replacing = true
		tflog.Debug(ctx, "source file changed since its upload", map[string]any{"source": source, "old_sha256": state.SHA256.ValueString(), "new_sha256": sum, "renamed": renamed})
		resp.RequiresReplace = append(resp.RequiresReplace, pathUploadSHA256)
		plan.SHA256 = types.StringUnknown()
		plan.ID = types.StringUnknown()
		plan.AudioURL = types.StringUnknown()
		plan.AudioMetadata = types.ObjectUnknown(uploadMetadataAttrTypes)
	}
	// A replacement is a new upload too (and Terraform plans its create
	// again at apply, with no prior state).
	if (creating || replacing) && size > documentedUploadLimit {
		resp.Diagnostics.AddAttributeWarning(pathUploadSource, "The file is larger than the service's documented upload limit",
			fmt.Sprintf("%q is %d bytes, more than the 1000 MB (%d bytes) the service documents for an upload: it answers a larger file 413 once it has received that much, "+
				"and the apply fails. Unless your account's limit is higher, %s", source, size, documentedUploadLimit, tooLargeAdvice))
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
}

// gitLFSPointer begins a Git LFS pointer file, which a checkout without
// git lfs leaves in place of the file it stands for.
var gitLFSPointer = []byte("version https://git-lfs.github.com/spec/")

// documentedUploadLimit is the largest upload the service documents (1000
// MB, counted as the fake server's -max-upload-mb counts it). The spec
// does not give it, and an account may have another: a larger file is
// warned of at plan, not refused.
const documentedUploadLimit = 1000 << 20

// tooLargeAdvice is what to do with a recording too large to upload.
const tooLargeAdvice = "give the recording a smaller encoding (MP3, Opus), or host it yourself and give transcription_job its URL as audio_url."

const uploadZeroDataRetentionDetail = "The provider has zero_data_retention = true, and the service disables uploads (POST /v2/upload) for accounts with zero data retention. " +
	"Host the recording yourself and give transcription_job an external audio_url instead: a public URL, or a signed one such as a presigned object-storage URL."

// addSourceError reports a file that cannot be read, naming its path.
func addSourceError(diags *diag.Diagnostics, source string, err error, more string) {
	var hint string
	unicodeHint := unicodeFormHint(source, err)
	switch {
	case strings.HasPrefix(source, "~"):
		// Only a shell expands ~.
		hint = "A path starting with ~ is not expanded: write pathexpand(\"" + source + "\") to name a file in a home directory."
	case strings.ContainsRune(source, 0):
		hint = "The path holds a NUL character, which no file name can: remove it."
	case strings.TrimSpace(source) != source && errors.Is(err, fs.ErrNotExist):
		// A name from a file or a variable, with its newline.
		hint = "The path begins or ends with white space, part of the name as written: remove it, for example with trimspace()."
	case unicodeHint != "":
		// fileset() and configuration strings write names in NFC; a file
		// copied from macOS may be named in NFD.
		hint = unicodeHint
	case errors.As(err, new(*notRegularFileError)):
		hint = "Point source at a regular file holding a recording: a directory, a named pipe or a device cannot be uploaded."
	case !filepath.IsAbs(source) && errors.Is(err, fs.ErrNotExist):
		// Named whole: "${path.module}/x" is "./x" in the root module, so
		// the advice alone would not tell a user who wrote it what failed.
		hint = "A relative path is resolved from the directory Terraform runs in"
		if abs, absErr := filepath.Abs(source); absErr == nil {
			hint += ": this one names " + strconv.Quote(abs)
		}
		hint += ". \"${path.module}/recording.wav\" names a file next to the module's configuration."
	}
	detail := fmt.Sprintf("The file %q cannot be read: %v.", source, unwrapPathError(err))
	if hint != "" {
		detail += "\n\n" + hint
	}
	diags.AddAttributeError(pathUploadSource, "Cannot read the file to upload", detail+more)
}

// otherUnicodeForm is source with each name along it that is not there
// written in its other Unicode normal form (NFD for NFC, NFC for NFD)
// where that form is, when the whole path then names something; else "".
func otherUnicodeForm(source string) string {
	clean := filepath.Clean(source)
	current, changed := "", false
	if filepath.IsAbs(clean) {
		current = string(filepath.Separator)
	}
	for _, name := range strings.Split(clean, string(filepath.Separator)) {
		if name == "" {
			continue
		}
		next := filepath.Join(current, name)
		if _, err := os.Lstat(next); err != nil {
			found := false
			for _, form := range []norm.Form{norm.NFD, norm.NFC} {
				if other := form.String(name); other != name {
					if _, err := os.Lstat(filepath.Join(current, other)); err == nil {
						next, found = filepath.Join(current, other), true
						break
					}
				}
			}
			if !found {
				return ""
			}
			changed = true
		}
		current = next
	}
	if !changed {
		return ""
	}
	return current
}

// unicodeFormHint is the advice on a source not found that is there with
// names written in their other Unicode form, else "".
func unicodeFormHint(source string, err error) string {
	other := ""
	if errors.Is(err, fs.ErrNotExist) {
		other = otherUnicodeForm(source)
	}
	if other == "" {
		return ""
	}
	// Escaped: the two forms look alike printed.
	return fmt.Sprintf("The path is there with names written in another Unicode form: %+q, where source is %+q. Terraform writes strings, fileset()'s included, in the composed form (NFC): "+
		"rename the file, or the directory, to that form (convmv -f utf8 -t utf8 --nfc, for example).", other, source)
}

// gitLFSHint is the advice on a source whose first bytes are head when it
// is a Git LFS pointer, else "".
func gitLFSHint(head []byte) string {
	if !bytes.HasPrefix(head, gitLFSPointer) {
		return ""
	}
	return "It is a Git LFS pointer, not the recording it stands for: fetch the recording (git lfs pull) before planning."
}

// whatServiceReceived says what the service may hold of an upload stopped
// before it answered, by whether its last try read the file to its end
// (readWhole): until then, the body sent was incomplete.
func whatServiceReceived(readWhole bool) string {
	if !readWhole {
		return "it was stopped before the whole file was sent, so the service did not receive it"
	}
	return "the file had been read to its end for sending, so the service may have received it all the same (it has no endpoint to delete an upload: it keeps one for its retention period)"
}

func (r *uploadResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	ctx, stop := r.data.untilStopped(ctx)
	defer stop()
	var plan uploadResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !r.configured(&resp.Diagnostics) {
		return
	}
	source := plan.Source.ValueString()
	ctx = tflog.SetField(ctx, "source", source)

	// timeouts.create caps the whole upload, the hash before it included.
	limit, diags := plan.Timeouts.Create(ctx, 0)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	uploadCtx := ctx
	if limit > 0 {
		var cancel context.CancelFunc
		uploadCtx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}

	// Hash once more: the file may have changed or vanished since the plan.
	// What is uploaded is checked against this digest while it is read.
	sum, size, err := fileSHA256(uploadCtx, source)
	switch {
	case ctx.Err() != nil:
		resp.Diagnostics.AddAttributeError(pathUploadSource, "Interrupted while hashing the file to upload",
			fmt.Sprintf("Terraform was interrupted while the provider hashed %q before uploading it: nothing was uploaded or saved in state, so the next apply uploads the file.", source))
		return
	case uploadCtx.Err() != nil:
		resp.Diagnostics.AddAttributeError(pathUploadSource, "The upload did not finish in time",
			fmt.Sprintf("timeouts.create (%s) ran out while the provider hashed %q before uploading it: nothing was uploaded or saved in state. Raise timeouts.create, or remove it.", client.FormatDuration(limit), source))
		return
	case err != nil:
		addSourceError(&resp.Diagnostics, source, err, "")
		return
	}

	var readWhole atomic.Bool
	up, err := r.data.Client.Upload(uploadCtx, source, size, func() (io.ReadCloser, error) { return openVerified(source, sum, &readWhole) })
	if err != nil {
		var changed *sourceChangedError
		var interrupted *client.InterruptedError
		var transportErr *client.TransportError
		var apiErr *client.APIError
		switch {
		case errors.As(err, &changed):
			resp.Diagnostics.AddAttributeError(pathUploadSource, "The file to upload changed during the upload",
				fmt.Sprintf("%s. The upload was stopped before it completed. Run terraform apply again once nothing writes to the file.", changed.Error()))
		case errors.Is(err, client.ErrUploadSizeChanged):
			resp.Diagnostics.AddAttributeError(pathUploadSource, "The file to upload changed during the upload",
				fmt.Sprintf("The size of %q is no longer the %d bytes read when the upload started. The upload was stopped before it completed. Run terraform apply again once nothing writes to the file.", source, size))
		case errors.As(err, &interrupted):
			// Ended with no try in flight: before the first was sent, or
			// while waiting to send the file again after a try the service
			// did not take (the client sends an upload again only then).
			summary, how := "Interrupted while uploading", "Terraform was interrupted"
			if ctx.Err() == nil {
				summary, how = "The upload did not finish in time", fmt.Sprintf("timeouts.create (%s) ran out", client.FormatDuration(limit))
			}
			when := "before the request was sent"
			if interrupted.Last != nil {
				when = fmt.Sprintf("while the provider waited to send %q again, after a try the service did not take", source)
			}
			resp.Diagnostics.AddAttributeError(pathUploadSource, summary, apiErrorDetail(err)+
				fmt.Sprintf("\n\nNothing was uploaded: %s %s. Nothing was saved in state: the next apply uploads the file.", how, when))
		case uploadCtx.Err() != nil && ctx.Err() == nil:
			// timeouts.create passed (asked of uploadCtx, not of err: a
			// connection that timed out is a context.DeadlineExceeded too).
			resp.Diagnostics.AddAttributeError(pathUploadSource, "The upload did not finish in time",
				fmt.Sprintf("The upload of %q (%d bytes) was still going after %s (timeouts.create), and was stopped; %s. Nothing was saved in state: the next apply uploads it again. "+
					"Raise timeouts.create, or remove it: without it an upload that makes progress is never cut short.",
					source, size, client.FormatDuration(limit), whatServiceReceived(readWhole.Load())))
		case ctx.Err() != nil:
			resp.Diagnostics.AddAttributeError(pathUploadSource, "Interrupted while uploading",
				fmt.Sprintf("The upload of %q (%d bytes) was interrupted before the service answered; %s. "+
					"Nothing was saved in state, so the next apply uploads it again.", source, size, whatServiceReceived(readWhole.Load())))
		case errors.As(err, &transportErr) && transportErr.Written, errors.As(err, &apiErr) && apiErr.MayHaveBeenHandled():
			// Unanswered: sent whole (the wait for an answer starts only
			// then), where Sent says only that the request began. Or
			// answered with a failure that may come after the service
			// took the file (a 5xx but 501, a gateway's 503).
			resp.Diagnostics.AddError(fmt.Sprintf("Cannot upload %q", source), serviceFailureDetail(err)+
				"\n\nThe file was sent before the failure: the service may have received it all the same. Nothing was saved in state: the next apply uploads it again. "+
				"(The service has no endpoint to delete an upload: it keeps one for its retention period.)")
		case client.IsStatus(err, http.StatusRequestEntityTooLarge):
			resp.Diagnostics.AddAttributeError(pathUploadSource, fmt.Sprintf("Cannot upload %q", source), apiErrorDetail(err)+
				fmt.Sprintf("\n\nThe file is %d bytes, more than the service takes in one upload: %s", size, tooLargeAdvice))
		default:
			addAPIError(&resp.Diagnostics, fmt.Sprintf("Cannot upload %q", source), err)
		}
		return
	}
	tflog.Info(ctx, "uploaded file", map[string]any{"audio_url": up.AudioURL, "size": up.AudioMetadata.Size})

	plan.SHA256 = types.StringValue(sum)
	plan.ID = types.StringValue(up.AudioMetadata.ID)
	plan.AudioURL = types.StringValue(up.AudioURL)
	plan.AudioMetadata = flattenAudioMetadata(*up.AudioMetadata)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.Append(resp.Identity.Set(ctx, uploadIdentityModel{ID: plan.ID})...)
	// The framework always hands Create private state; a direct call (a
	// unit test's) may not.
	if resp.Private != nil {
		setUploadedName(ctx, resp.Private, source, &resp.Diagnostics)
		recordEndpoint(ctx, nil, resp.Private, r.data.Client, &resp.Diagnostics)
	}
}

// warnUploadElsewhere warns when the upload was made through another
// service address than the provider configuration's now (another base_url,
// or another provider configuration): its file is kept by that service,
// which jobs made on this one from its audio_url may not reach.
func (r *uploadResource) warnUploadElsewhere(ctx context.Context, private privateState, stateValue tfsdk.State, diags *diag.Diagnostics) {
	if r.data == nil || r.data.Client == nil {
		return
	}
	at := madeElsewhere(ctx, private, r.data.Client)
	if at == "" {
		return
	}
	var state uploadResourceModel
	if d := stateValue.Get(ctx, &state); d.HasError() {
		return
	}
	now := r.data.Client.ServiceAddress()
	// The provider cannot see a -replace: the plan it is given is an update.
	remedy := fmt.Sprintf("To upload it through %s, replace the upload (terraform apply -replace on it; if this plan is one, it does), which replaces the jobs made from its audio_url; to keep it, give the resource the provider configuration it was made with.", now)
	if r.data.ZeroDataRetention {
		remedy = "This provider configuration has zero_data_retention = true, which disables uploads: give the resource the provider configuration it was made with, or use an external audio URL."
	}
	diags.AddAttributeWarning(pathUploadSource, "The upload was made through another service address",
		fmt.Sprintf("%q was uploaded through %s, and this provider configuration now uses %s (its base_url, or the resource's provider argument, changed). "+
			"The file stays where it was uploaded, at %s, which jobs created through %s may not be able to read. %s This warning shows at every plan while the upload is kept through this configuration.",
			uploadedName(ctx, private, state), at, now, state.AudioURL.ValueString(), now, remedy))
}

// privateUploadedName is the private state key of the file name an upload
// was made under: source may come to name another (an update under zero
// data retention, which cannot upload), and the service keeps the first.
const privateUploadedName = "uploaded_name"

// keepUploadedName records, for an upload made before the name it was
// uploaded under was kept, that name (its source's in state) in to, unless
// from has it.
func keepUploadedName(ctx context.Context, from privateState, to privateStateWriter, state uploadResourceModel, diags *diag.Diagnostics) {
	if privateString(ctx, from, privateUploadedName) != "" || state.Source.IsNull() {
		return
	}
	setUploadedName(ctx, to, state.Source.ValueString(), diags)
}

// setUploadedName records in to that the upload was made from source.
func setUploadedName(ctx context.Context, to privateStateWriter, source string, diags *diag.Diagnostics) {
	setPrivateString(ctx, to, privateUploadedName, filepath.Base(source), diags)
}

// uploadedName is the file name the upload in state was made under: its
// private record, or, for an upload made before that was kept, source's.
func uploadedName(ctx context.Context, private privateState, state uploadResourceModel) string {
	if name := privateString(ctx, private, privateUploadedName); name != "" {
		return name
	}
	return filepath.Base(state.Source.ValueString())
}

// flattenAudioMetadata converts the service's description of an upload.
func flattenAudioMetadata(m client.AudioMetadata) types.Object {
	return types.ObjectValueMust(uploadMetadataAttrTypes, map[string]attr.Value{
		"id":                 types.StringValue(m.ID),
		"filename":           types.StringValue(m.Filename),
		"extension":          types.StringValue(m.Extension),
		"size":               types.Int64Value(m.Size),
		"audio_duration":     types.Float64Value(m.AudioDuration),
		"number_of_channels": types.Int64Value(m.NumberOfChannels),
	})
}

// Read keeps the state as it is: the service has no endpoint to read an
// upload back. The file itself is checked by every plan (ModifyPlan).
// Uploads in state from before identities existed get theirs here, and
// those from before `id` existed (development builds before 2026-11-23)
// their id too, which is their file's (audio_metadata.id): without it,
// Terraform 1.12+ and OpenTofu refused every plan and destroy ("Missing
// Resource Identity After Read"), and uploads cannot be imported.
func (r *uploadResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if identityDisagrees(ctx, req.Identity, req.State, "Restore the state from a backup (an upload cannot be imported), or set the identity's id to the state's id, which is the uploaded file's audio_metadata.id: terraform state pull > state.json, edit the instance's identity.id, raise serial by one, terraform state push state.json.", &resp.Diagnostics) {
		return
	}
	var id types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	if id.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("audio_metadata").AtName("id"), &id)...)
		if id.IsNull() || resp.Diagnostics.HasError() {
			return
		}
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	}
	resp.Diagnostics.Append(resp.Identity.Set(ctx, uploadIdentityModel{ID: id})...)
}

// Update stores what changes nothing on the service, so sends nothing: a
// new source path naming the same content under the same file name, new
// timeouts, and, under zero data retention, which cannot upload, a source
// renamed or with new content (ModifyPlan warns of them).
func (r *uploadResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan uploadResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.Append(resp.Identity.Set(ctx, uploadIdentityModel{ID: plan.ID})...)
}

// Delete only forgets the upload: the service cannot delete one, and says
// so, since the file stays there.
func (r *uploadResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	tflog.Info(ctx, "removing the upload from state only: the service has no endpoint to delete it")
	warnUploadLeft(ctx, req.State, "is", &resp.Diagnostics)
}

// warnUploadLeft says that the upload of state is (or will be, at plan)
// only removed from state: the service cannot delete an upload. The file
// may be gone already (the usual reason to replace an upload), which the
// service cannot tell: the summary must not claim it stays.
func warnUploadLeft(ctx context.Context, state tfsdk.State, is string, diags *diag.Diagnostics) {
	var audioURL, source types.String
	diags.Append(state.GetAttribute(ctx, path.Root("audio_url"), &audioURL)...)
	diags.Append(state.GetAttribute(ctx, pathUploadSource, &source)...)
	diags.AddWarning("The uploaded file "+is+" left to the service",
		fmt.Sprintf("The service has no way to delete an upload: the copy of %q at %s %s only removed from Terraform's state. "+
			"The service keeps it until its retention period ends (3 weeks on paid plans, 1 year on the free plan), if that has not ended already.", source.ValueString(), audioURL.ValueString(), is))
}

// ImportState refuses, saying why and what to do instead: the service has
// no way to read an upload back, so no state could be built from it.
func (r *uploadResource) ImportState(_ context.Context, _ resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.AddError("Uploads cannot be imported",
		"The service has no way to read an upload back (no GET for an uploaded file's record), so the provider cannot build its state. "+
			"Declare the transcription_upload with its source instead: the next apply uploads the file again (a new copy on the service). "+
			"Or give transcription_job the existing file's audio_url directly, without a transcription_upload.")
}

// configured reports whether the provider gave this resource its client.
func (r *uploadResource) configured(diags *diag.Diagnostics) bool {
	return r.data.clientFor("the transcription_upload resource", diags) != nil
}
