// Package provider implements the transcription Terraform provider.
package provider

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/numtypes"
	"github.com/transcription-service/terraform-provider-transcription/internal/validators"
)

// Address is the provider's registry address.
const Address = "registry.terraform.io/transcription-service/transcription"

// Environment variables read when an argument is not set.
const (
	EnvAPIKey  = "TRANSCRIPTION_API_KEY"
	EnvBaseURL = "TRANSCRIPTION_BASE_URL"
)

var (
	_ provider.Provider                  = &transcriptionProvider{}
	_ provider.ProviderWithListResources = &transcriptionProvider{}
	_ provider.ProviderWithActions       = &transcriptionProvider{}
)

// transcriptionProvider is the provider implementation.
type transcriptionProvider struct {
	version string
	// stopped ends when the provider process is told to stop by a signal
	// (main.go); nil when nothing tells it (tests, -debug).
	stopped context.Context
}

// providerModel is the provider's configuration.
type providerModel struct {
	APIKey            types.String   `tfsdk:"api_key"`
	BaseURL           types.String   `tfsdk:"base_url"`
	ZeroDataRetention types.Bool     `tfsdk:"zero_data_retention"`
	MaxRetries        numtypes.Int64 `tfsdk:"max_retries"`
}

// maxMaxRetries bounds max_retries: with waits capped at 15 s, 50 retries
// already ride out an outage of about ten minutes.
const maxMaxRetries = 50

// ProviderData is handed to every resource and data source by Configure.
type ProviderData struct {
	Client            *client.Client
	ZeroDataRetention bool
	// baseURL is the service's address once known, also while the client
	// waits for api_key: what is on the service's host is known then.
	baseURL *url.URL
	// pending names the arguments known only after apply, as in the plan
	// of a configuration that creates what they come from: Client is then
	// nil, and nothing asks the service until they are known.
	pending []string
	// stopped is the provider's (see transcriptionProvider).
	stopped context.Context
}

// onServiceHost reports whether rawURL is on the service's host, false
// while base_url is not known.
func (d *ProviderData) onServiceHost(rawURL string) bool {
	return d != nil && d.baseURL != nil && client.OnHostOf(d.baseURL, rawURL)
}

// untilStopped returns ctx, also cancelled when the provider process is
// told to stop by a signal. For what a plan reads (a refresh, a data
// source): Terraform 1.8 and OpenTofu send no StopProvider while an apply
// plans, so a Ctrl-C there reached the provider only as the SIGINT of the
// terminal's process group, which go-plugin ignores, and a data source's
// wait_for_completion ran on until timeouts.read (an hour). And for what an
// apply does (create, delete, invoke): a StopProvider reaches only the
// requests already in flight, so a create the CLI sent just after it (a
// Ctrl-C as "Creating..." is printed) waited on for timeouts.create.
func (d *ProviderData) untilStopped(ctx context.Context) (context.Context, context.CancelFunc) {
	if d == nil || d.stopped == nil {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	if d.stopped.Err() != nil {
		// AfterFunc would cancel in a goroutine of its own, perhaps after
		// the caller's first request went out.
		cancel()
		return ctx, cancel
	}
	unregister := context.AfterFunc(d.stopped, cancel)
	return ctx, func() { unregister(); cancel() }
}

// clientFor returns the client, or nil with diags saying why what (such
// as "the transcription_job data source") cannot reach the service: the
// provider's arguments are known only after apply, or it was not
// configured at all (a bug).
func (d *ProviderData) clientFor(what string, diags *diag.Diagnostics) *client.Client {
	return d.clientOr(what, "during this plan. Apply what it comes from first (terraform apply -target=...), or set those arguments to values known at plan time. "+
		"A data source given depends_on on what they come from is read during the apply instead; terraform destroy -refresh=false destroys without reading.", diags)
}

// clientForQuery is clientFor for the list resource: a query applies
// nothing, so nothing it could do makes the configuration known.
func (d *ProviderData) clientForQuery(what string, diags *diag.Diagnostics) *client.Client {
	return d.clientOr(what, "during terraform query, which applies nothing: set those arguments to values known without an apply (variables, the environment), or apply what they come from first.", diags)
}

// clientOr is clientFor, with pendingAdvice saying, after "cannot reach
// the service", when and what to do about a configuration known only
// after apply.
func (d *ProviderData) clientOr(what, pendingAdvice string, diags *diag.Diagnostics) *client.Client {
	switch {
	case d != nil && len(d.pending) > 0:
		diags.AddError("Provider configuration known only after apply",
			fmt.Sprintf("The provider's configuration is known only after apply (%s), so %s cannot reach the service %s", strings.Join(d.pending, ", "), what, pendingAdvice))
	case d == nil || d.Client == nil:
		diags.AddError("Provider not configured",
			"The transcription provider was not configured before "+what+" was used. This is a bug in the provider; please report it.")
	default:
		return d.Client
	}
	return nil
}

// New returns a function creating the provider, as providerserver expects.
func New(version string) func() provider.Provider {
	return NewStoppable(version, nil)
}

// NewStoppable is New for a provider process that signals can stop: what a
// plan reads ends when stopped does (ProviderData.untilStopped).
func NewStoppable(version string, stopped context.Context) func() provider.Provider {
	return func() provider.Provider {
		return &transcriptionProvider{version: version, stopped: stopped}
	}
}

func (p *transcriptionProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "transcription"
	resp.Version = p.version
}

func (p *transcriptionProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The transcription provider declares speech-to-text work: pre-recorded transcription jobs with every option of the service, checked at plan time, and queries of live sessions.",
		Attributes: map[string]schema.Attribute{
			"api_key": schema.StringAttribute{
				MarkdownDescription: "The API key, sent in the `x-service-key` header. Falls back to the `" + EnvAPIKey + "` environment variable when left out (null), not when set to an empty string, which is refused. Sensitive: the provider never shows it in plan output, state or logs. A variable it comes from is saved in plan files unless declared `ephemeral = true` (Terraform 1.10+, OpenTofu 1.11+); a key written literally is part of the configuration, and so of plan files and `terraform show -json`.",
				Optional:            true,
				Sensitive:           true,
				Validators:          []validator.String{validators.APIKey(EnvAPIKey)},
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "Base address of the service, an absolute `http` or `https` URL (for example `https://api.example.com`, or the address the fake server prints); a trailing `/v2`, the interface's version prefix, is accepted and ignored. Falls back to the `" + EnvBaseURL + "` environment variable when left out (null), not when set to an empty string, which is refused.",
				Optional:            true,
				Validators:          []validator.String{validators.BaseURL(EnvBaseURL)},
			},
			"zero_data_retention": schema.BoolAttribute{
				MarkdownDescription: "Set to `true` when the account has zero data retention (ZDR) enabled. The service then disables uploads and result retrieval: results arrive only by callback, so every job must configure one. The provider refuses at plan time what ZDR would make fail, and does not poll. Defaults to `false`.",
				Optional:            true,
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("The most times one request to the service is retried after a transient failure: "+
					"status 429 (waiting at least its `Retry-After`, up to 5 minutes) or 503, a connection that fails, and for reads and deletes also the other 5xx but 501. "+
					"The wait between tries grows exponentially, with jitter, from 250 ms up to 15 s. "+
					"Creating a job or uploading a file is retried only when the service cannot have acted on it (429, the service's own 503, or a connection that failed before the whole request went out; a 503 without the service's error body is a gateway's, which may have passed the request on), "+
					"since a duplicate job would be billed. A request the service took and began no answer to within 2 minutes is not retried: another try would wait as long. `0` disables retries. From 0 to %d; defaults to %d.", maxMaxRetries, client.DefaultMaxRetries),
				Optional:   true,
				CustomType: numtypes.Int64Type{},
				Validators: []validator.Int64{int64validator.Between(0, maxMaxRetries)},
			},
		},
	}
}

func (p *transcriptionProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	// zero_data_retention decides what a plan may hold (waits, uploads,
	// callbacks), so it must be known at plan time.
	if cfg.ZeroDataRetention.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root("zero_data_retention"), "Unknown provider argument zero_data_retention",
			"The provider cannot plan because zero_data_retention depends on a value known only after apply, and it decides what a plan may hold (waits, uploads, callbacks). Set it to a static value.")
		return
	}
	// api_key and base_url may come from a resource created in the same
	// apply: until they are known the provider plans without its client,
	// and Terraform configures it again, with their values, for the apply.
	// max_retries only tunes the client: until it is known, the plan's
	// requests are retried as by default.
	var pending []string
	for _, a := range []struct {
		name    string
		unknown bool
	}{{"api_key", cfg.APIKey.IsUnknown()}, {"base_url", cfg.BaseURL.IsUnknown()}} {
		if a.unknown {
			pending = append(pending, a.name)
		}
	}

	apiKey := valueOrEnv(cfg.APIKey, EnvAPIKey)
	baseURL := valueOrEnv(cfg.BaseURL, EnvBaseURL)
	// A value out of the environment (a CI secret store's, often with a
	// newline) is named as such, and its error points at no line of the
	// configuration, which does not hold it.
	refuse := func(argument string, fromEnv types.String, envName, summary string, err error) {
		if fromEnv.IsNull() {
			resp.Diagnostics.AddError(summary, err.Error()+" (in the "+envName+" environment variable, read as "+argument+" is not set).")
			return
		}
		resp.Diagnostics.AddAttributeError(path.Root(argument), summary, err.Error()+" (in the "+argument+" argument).")
	}
	var parsedBaseURL *url.URL
	switch {
	case cfg.APIKey.IsUnknown():
	case apiKey == "":
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Missing API key",
			"The provider needs an API key: set the api_key argument or the "+EnvAPIKey+" environment variable.")
	default:
		if err := client.CheckAPIKey(apiKey); err != nil {
			refuse("api_key", cfg.APIKey, EnvAPIKey, "Invalid API key", err)
		}
	}
	switch {
	case cfg.BaseURL.IsUnknown():
	case baseURL == "":
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Missing base URL",
			"The provider needs the service's address: set the base_url argument or the "+EnvBaseURL+" environment variable.")
	default:
		var err error
		if parsedBaseURL, err = client.ParseBaseURL(baseURL); err != nil {
			refuse("base_url", cfg.BaseURL, EnvBaseURL, "Invalid base URL", err)
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if len(pending) > 0 {
		tflog.Debug(ctx, "provider arguments known only after apply: planning without a client", map[string]any{"pending": pending})
		handOver(resp, &ProviderData{ZeroDataRetention: cfg.ZeroDataRetention.ValueBool(), baseURL: parsedBaseURL, pending: pending, stopped: p.stopped})
		return
	}

	ctx = tflog.MaskAllFieldValuesStrings(ctx, apiKey)
	c, err := client.New(client.Config{
		BaseURL:    baseURL,
		APIKey:     apiKey,
		UserAgent:  userAgent(p.version, req.TerraformVersion, os.Getenv("TF_APPEND_USER_AGENT")),
		MaxRetries: clientMaxRetries(cfg.MaxRetries),
		Logger:     newTflogLogger(apiKey, os.Getenv),
	})
	if err != nil {
		resp.Diagnostics.AddError("Cannot configure the transcription client", err.Error())
		return
	}
	tflog.Debug(ctx, "configured transcription client", map[string]any{"base_url": baseURL, "zero_data_retention": cfg.ZeroDataRetention.ValueBool(), "max_retries": clientMaxRetries(cfg.MaxRetries)})

	handOver(resp, &ProviderData{Client: c, ZeroDataRetention: cfg.ZeroDataRetention.ValueBool(), baseURL: parsedBaseURL, stopped: p.stopped})
}

// handOver gives data to every resource, data source, list resource and
// action.
func handOver(resp *provider.ConfigureResponse, data *ProviderData) {
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData = data
	resp.ActionData = data
}

func (p *transcriptionProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewJobResource,
		NewUploadResource,
	}
}

// ListResources are what terraform query (Terraform 1.14+) can list.
func (p *transcriptionProvider) ListResources(_ context.Context) []func() list.ListResource {
	return []func() list.ListResource{NewJobListResource}
}

// Actions are what action blocks (Terraform 1.14+) can run.
func (p *transcriptionProvider) Actions(_ context.Context) []func() action.Action {
	return []func() action.Action{NewTranscribeAction}
}

func (p *transcriptionProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewJobsDataSource,
		NewLiveJobsDataSource,
		NewJobDataSource,
	}
}

// clientMaxRetries turns max_retries into client.Config.MaxRetries, which
// reads 0 as its default and a negative value as no retry. Unknown (in a
// plan) is the default.
func clientMaxRetries(v numtypes.Int64) int {
	switch {
	case v.IsNull() || v.IsUnknown():
		return client.DefaultMaxRetries
	case v.ValueInt64() == 0:
		return -1
	}
	return int(v.ValueInt64())
}

// valueOrEnv returns the configured value, or the environment variable when
// the argument is null.
func valueOrEnv(v types.String, env string) string {
	if !v.IsNull() {
		return v.ValueString()
	}
	return os.Getenv(env)
}

// providerDataFrom is the Configure step every resource and data source
// shares: nil until the provider is configured (during validation), else the
// *ProviderData that Configure handed over.
func providerDataFrom(raw any, diags *diag.Diagnostics) *ProviderData {
	if raw == nil {
		return nil
	}
	data, ok := raw.(*ProviderData)
	if !ok {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("Expected *provider.ProviderData, got %T. This is a bug in the provider; please report it.", raw))
	}
	return data
}

// userAgent names the provider's version and, as HashiCorp's providers do,
// the CLI's, then what TF_APPEND_USER_AGENT adds. OpenTofu gives the
// Terraform version it is compatible with (1.13.0 for OpenTofu 1.12), not
// its own.
func userAgent(providerVersion, cliVersion, appended string) string {
	ua := "terraform-provider-transcription/" + providerVersion
	if cliVersion != "" {
		ua += " Terraform/" + cliVersion
	}
	// A control character (a line break) would make every request fail
	// as a malformed header, far from its cause: each, with the spaces
	// around it, is one space.
	appended = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, appended)), " ")
	if appended != "" {
		ua += " " + appended
	}
	return ua
}
