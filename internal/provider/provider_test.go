package provider

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// testAccProtoV6ProviderFactories serves the provider in process to the CLI
// that terraform-plugin-testing runs (TF_ACC_TERRAFORM_PATH: Terraform or OpenTofu).
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"transcription": providerserver.NewProtocol6WithError(New("test")()),
}

func TestProviderSchema_valid(t *testing.T) {
	resp := &provider.SchemaResponse{}
	New("test")().Schema(context.Background(), provider.SchemaRequest{}, resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	if diags := resp.Schema.ValidateImplementation(context.Background()); diags.HasError() {
		t.Fatal(diags)
	}
	if !resp.Schema.Attributes["api_key"].IsSensitive() {
		t.Error("api_key is not sensitive")
	}
}

func TestValueOrEnv(t *testing.T) {
	t.Setenv(EnvBaseURL, "http://from-env")
	if got := valueOrEnv(types.StringNull(), EnvBaseURL); got != "http://from-env" {
		t.Errorf("null argument: got %q, want the environment's value", got)
	}
	v := "http://from-config"
	if got := valueOrEnv(types.StringValue(v), EnvBaseURL); got != v {
		t.Errorf("set argument: got %q, want it to win over the environment", got)
	}
	// Set to "" is set: the environment fills in only an argument left out.
	if got := valueOrEnv(types.StringValue(""), EnvBaseURL); got != "" {
		t.Errorf("argument set to \"\": got %q, want it kept", got)
	}
}

// TestAccProvider_configErrors proves the harness drives the real CLI: bad
// provider configuration fails at plan with a diagnostic naming the argument.
func TestAccProvider_configErrors(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvBaseURL, "")
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      "provider \"transcription\" {\n  base_url = \"api.example.com\"\n  api_key = \"k\"\n}\n" + testAccAnyDataSource,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)base_url.*absolute http or https URL`),
			},
			{
				Config:      fmt.Sprintf("provider \"transcription\" {\n  base_url = %q\n}\n", url) + testAccAnyDataSource,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Missing API key.*` + EnvAPIKey),
			},
			{
				Config:      "provider \"transcription\" {\n  api_key = \"k\"\n}\n" + testAccAnyDataSource,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Missing base URL.*` + EnvBaseURL),
			},
			{
				// A key file's newline, through the environment: refused before any request.
				PreConfig:   func() { t.Setenv(EnvAPIKey, acctest.APIKey+"\n") },
				Config:      fmt.Sprintf("provider \"transcription\" {\n  base_url = %q\n  max_retries = 0\n}\n", url) + testAccAnyDataSource,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid API key.*white space.*` + EnvAPIKey),
			},
		},
	})
}

// testAccAnyDataSource makes the CLI configure the provider during plan.
const testAccAnyDataSource = `
data "transcription_live_jobs" "any" {
  limit = 1
}
`

// TestAccProvider_baseURLWithVersionPrefix: a base_url given with the
// interface's /v2 prefix works as one without it (no /v2/v2 paths).
func TestAccProvider_baseURLWithVersionPrefix(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.ProviderConfig(url+"/v2/") + acctest.JobConfig("versioned", `audio_url = "https://example.com/versioned.wav"`),
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr("transcription_job.versioned", "status", "done"),
				resource.TestMatchResourceAttr("transcription_job.versioned", "result_url", regexp.MustCompile(`[^2]/v2/transcription/[0-9a-f-]{36}$`)),
				acctest.JobsCreated(fs, 1),
			),
		}},
	})
}

// Every request names the provider's version and the CLI's, as the CLI
// gives it to the provider (OpenTofu the Terraform version it matches).
func TestAccProvider_userAgent(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	want := regexp.MustCompile(`^terraform-provider-transcription/test Terraform/\d+\.\d+\.\d+`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.ProviderConfig(url) + acctest.JobConfig("agent", `audio_url = "https://example.com/agent.wav"`),
			Check: func(*terraform.State) error {
				for _, r := range fs.Requests() {
					if ua := r.Header.Get("User-Agent"); !want.MatchString(ua) {
						return fmt.Errorf("%s %s sent User-Agent %q, want %s", r.Method, r.Path, ua, want)
					}
				}
				return nil
			},
		}},
	})
}

// resourceSchema is r's schema, failing unless the framework accepts it.
func resourceSchema(t *testing.T, r fwresource.Resource) rschema.Schema {
	t.Helper()
	ctx := context.Background()
	resp := &fwresource.SchemaResponse{}
	r.Schema(ctx, fwresource.SchemaRequest{}, resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	if diags := resp.Schema.ValidateImplementation(ctx); diags.HasError() {
		t.Fatal(diags)
	}
	return resp.Schema
}

// dataSourceSchema is d's schema, failing unless the framework accepts it.
func dataSourceSchema(t *testing.T, d datasource.DataSource) dschema.Schema {
	t.Helper()
	ctx := context.Background()
	resp := &datasource.SchemaResponse{}
	d.Schema(ctx, datasource.SchemaRequest{}, resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	if diags := resp.Schema.ValidateImplementation(ctx); diags.HasError() {
		t.Fatal(diags)
	}
	return resp.Schema
}

// Every attribute of every resource, data source, list resource and action
// has a description, nested attributes included: the docs are generated from
// them. The protocol schemas are what tfplugindocs reads. The same walk
// checks that only the secrets are sensitive.
func TestProviderSchemas_described(t *testing.T) {
	_, resp := serveProvider(t, providerserver.NewProtocol6WithError(New("test")()))
	var sensitive []string
	var walk func(prefix string, attrs []*tfprotov6.SchemaAttribute)
	walk = func(prefix string, attrs []*tfprotov6.SchemaAttribute) {
		for _, a := range attrs {
			if strings.TrimSpace(a.Description) == "" {
				t.Errorf("%s%s has no description", prefix, a.Name)
			}
			// A value only read cannot be left out of a configuration:
			// such a text was copied from a resource's argument.
			if readOnly := a.Computed && !a.Optional && !a.Required; readOnly && strings.Contains(a.Description, "out of the configuration") {
				t.Errorf("%s%s is read only, but its description tells what leaving it out of the configuration does: %s", prefix, a.Name, a.Description)
			}
			if a.Sensitive {
				sensitive = append(sensitive, prefix+a.Name)
			}
			if a.NestedType != nil {
				walk(prefix+a.Name+".", a.NestedType.Attributes)
			}
		}
	}
	schemas := map[string]map[string]*tfprotov6.Schema{
		"resource": resp.ResourceSchemas, "data source": resp.DataSourceSchemas, "list resource": resp.ListResourceSchemas,
	}
	for kind, byName := range schemas {
		for name, s := range byName {
			walk(kind+" "+name+": ", s.Block.Attributes)
		}
	}
	for name, s := range resp.ActionSchemas {
		walk("action "+name+": ", s.Schema.Block.Attributes)
	}
	walk("provider: ", resp.Provider.Block.Attributes)
	// Sensitive are the secrets, and only they: a value marked sensitive
	// by mistake is hidden from plans and forces outputs to be sensitive.
	// (An action's arguments cannot be sensitive.)
	slices.Sort(sensitive)
	if want := []string{
		"data source transcription_job: request_params.callback_config.url",
		"data source transcription_job: request_params.callback_url",
		"provider: api_key",
		"resource transcription_job: callback_config.url",
		"resource transcription_job: callback_url",
	}; !slices.Equal(sensitive, want) {
		t.Errorf("sensitive attributes:\n%s\nwant the secrets:\n%s", strings.Join(sensitive, "\n"), strings.Join(want, "\n"))
	}
	if len(resp.ResourceSchemas) == 0 || len(resp.DataSourceSchemas) == 0 || len(resp.ListResourceSchemas) == 0 || len(resp.ActionSchemas) == 0 {
		t.Fatalf("schemas missing: %d resources, %d data sources, %d list resources, %d actions",
			len(resp.ResourceSchemas), len(resp.DataSourceSchemas), len(resp.ListResourceSchemas), len(resp.ActionSchemas))
	}
}

// TestProviderBaseURL_validatedOffline: terraform validate (which does not
// configure the provider) refuses every base_url the provider cannot use,
// naming the attribute and the rule, and never shows the credentials a URL
// holds.
func TestProviderBaseURL_validatedOffline(t *testing.T) {
	tests := map[string]argumentCase{
		"https":               {value: tftypes.NewValue(tftypes.String, "https://api.example.com")},
		"trailing slash":      {value: tftypes.NewValue(tftypes.String, "https://api.example.com/")},
		"path prefix and /v2": {value: tftypes.NewValue(tftypes.String, "http://gateway.internal/speech/v2/")},
		"IPv6 and port":       {value: tftypes.NewValue(tftypes.String, "http://[::1]:8080")},
		"unknown":             {value: tftypes.NewValue(tftypes.String, tftypes.UnknownValue)},
		"null":                {value: tftypes.NewValue(tftypes.String, nil)},
		"no scheme":           {value: tftypes.NewValue(tftypes.String, "api.example.com"), wantError: "absolute http or https URL"},
		// Said once, with what to do.
		"host and port, no scheme": {value: tftypes.NewValue(tftypes.String, "localhost:8080"), wantError: "credentials: base URL has no scheme: start it with http:// or https://"},
		"query":                    {value: tftypes.NewValue(tftypes.String, "https://api.example.com?region=eu"), wantError: "must not have a query or fragment"},
		"fragment":                 {value: tftypes.NewValue(tftypes.String, "https://api.example.com/#top"), wantError: "must not have a query or fragment"},
		"credentials":              {value: tftypes.NewValue(tftypes.String, "https://user:s3cr3t@api.example.com"), wantError: "must not hold credentials"},
		"credentials, bad scheme":  {value: tftypes.NewValue(tftypes.String, "ftp://user:s3cr3t@api.example.com"), wantError: "absolute http or https URL"},
		"credentials, not a URL":   {value: tftypes.NewValue(tftypes.String, "https://user:s3cr3t@[::1"), wantError: "not a URL"},
		"no // after the scheme":   {value: tftypes.NewValue(tftypes.String, "https:api.example.com"), wantError: "base URL has no // after its scheme: write it as http://HOST or https://HOST"},
		"no host":                  {value: tftypes.NewValue(tftypes.String, "https://"), wantError: "base URL has no host: write it as"},
		// Not the environment's address: refused offline, saying so.
		"empty": {value: tftypes.NewValue(tftypes.String, ""), wantError: "and the service's address cannot be empty. TRANSCRIPTION_BASE_URL is read only when base_url is left out or null"},
	}
	testArgumentValidatedOffline(t, "base_url", tests)
}

// TestAccProvider_knownOnlyAfterApply: a provider whose api_key and
// base_url come from a resource not yet created plans offline and applies
// in one run; when they are unknown again, the jobs in state are planned as
// they are and the apply uses the values once known.
func TestAccProvider_knownOnlyAfterApply(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	config := func(generation string) string {
		return fmt.Sprintf(`
resource "terraform_data" "service" {
  input            = { url = %q, key = %q }
  triggers_replace = %q
}

provider "transcription" {
  base_url    = terraform_data.service.output.url
  api_key     = terraform_data.service.output.key
  max_retries = length(terraform_data.service.id)
}
`, url, acctest.APIKey, generation) + acctest.JobConfig("later", `audio_url = "https://example.com/later.wav"`)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config("1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("transcription_job.later", plancheck.ResourceActionCreate),
				}},
				Check: acctest.JobsCreated(fs, 1),
			},
			{
				Config: config("2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("terraform_data.service", plancheck.ResourceActionReplace),
					plancheck.ExpectResourceAction("transcription_job.later", plancheck.ResourceActionNoop),
				}},
				Check: acctest.JobsCreated(fs, 1),
			},
			{
				// A data source must ask the service at plan time: it says why it cannot.
				Config:      config("3") + testAccAnyDataSource,
				PlanOnly:    true,
				ExpectError: acctest.ExpectError(`(?s)Provider configuration known only after apply.*\(api_key, base_url\), so the transcription_live_jobs data source cannot reach the service`),
			},
		},
	})
}

// TestAccProvider_maxRetriesKnownOnlyAfterApply: max_retries only tunes the
// retries, so when it alone comes from a resource not yet created, the plan
// still reads what it must (a data source, the jobs in state) with the
// default retries.
func TestAccProvider_maxRetriesKnownOnlyAfterApply(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	config := func(generation string) string {
		return fmt.Sprintf(`
resource "terraform_data" "retries" {
  input = %s
}

provider "transcription" {
  base_url    = %q
  api_key     = %q
  max_retries = terraform_data.retries.output
}
`, generation, url, acctest.APIKey) + acctest.JobConfig("later", `audio_url = "https://example.com/later.wav"`)
	}
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config("3") + testAccAnyDataSource,
				Check: resource.ComposeAggregateTestCheckFunc(acctest.JobsCreated(fs, 1), func(s *terraform.State) error {
					id = s.RootModule().Resources["transcription_job.later"].Primary.ID
					return nil
				}),
			},
			{
				// The job in state is refreshed: its retention ended
				// meanwhile, which the state then says.
				PreConfig: func() { fs.ExpireJob(id) },
				Config:    config("4") + testAccAnyDataSource,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("terraform_data.retries", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("transcription_job.later", plancheck.ResourceActionNoop),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("transcription_job.later", tfjsonpath.New("retained"), knownvalue.Bool(false)),
				},
			},
		},
	})
}

// TestProviderAPIKey_validatedOffline: terraform validate refuses an
// api_key that cannot be sent in a header (a newline from file(), say),
// without showing it.
func TestProviderAPIKey_validatedOffline(t *testing.T) {
	tests := map[string]argumentCase{
		"key":              {value: tftypes.NewValue(tftypes.String, "s3cr3t-key")},
		"unknown":          {value: tftypes.NewValue(tftypes.String, tftypes.UnknownValue)},
		"null":             {value: tftypes.NewValue(tftypes.String, nil)},
		"trailing newline": {value: tftypes.NewValue(tftypes.String, "s3cr3t-key\n"), wantError: "white space"},
		"leading space":    {value: tftypes.NewValue(tftypes.String, " s3cr3t-key"), wantError: "white space"},
		"control inside":   {value: tftypes.NewValue(tftypes.String, "s3cr3t\x00key"), wantError: "control character"},
		// Sent as they are, and refused by the service as a wrong key.
		"byte-order mark":      {value: tftypes.NewValue(tftypes.String, "\ufeffs3cr3t-key"), wantError: "begins with a byte-order mark (U+FEFF)"},
		"zero-width space":     {value: tftypes.NewValue(tftypes.String, "s3cr3t\u200b-key"), wantError: "invisible or blank character (U+200B)"},
		"non-breaking space":   {value: tftypes.NewValue(tftypes.String, "s3cr3t\u00a0key"), wantError: "invisible or blank character (U+00A0)"},
		"C1 control":           {value: tftypes.NewValue(tftypes.String, "s3cr3t\u0085key"), wantError: "invisible or blank character (U+0085)"},
		"not ASCII, not shown": {value: tftypes.NewValue(tftypes.String, "s3cr3t-clé"), wantError: "holds a character that is not ASCII (not shown)"},
		// Never a key, and not the environment's either: refused offline.
		"empty": {value: tftypes.NewValue(tftypes.String, ""), wantError: "and an API key cannot be empty. TRANSCRIPTION_API_KEY is read only when api_key is left out or null"},
	}
	testArgumentValidatedOffline(t, "api_key", tests)
}

// argumentCase is a value of one provider argument and the error
// validation gives it ("" for none).
type argumentCase struct {
	value     tftypes.Value
	wantError string
}

// testArgumentValidatedOffline validates each value of argument as
// terraform validate does: an error must name the argument and say
// wantError, and no diagnostic may show a secret (the values' "s3cr3t").
func testArgumentValidatedOffline(t *testing.T, argument string, tests map[string]argumentCase) {
	t.Helper()
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			errs := validateProviderConfig(t, map[string]tftypes.Value{argument: tc.value})
			if tc.wantError == "" {
				if len(errs) != 0 {
					t.Fatalf("unexpected errors: %v", errs)
				}
				return
			}
			if len(errs) != 1 || !strings.Contains(errs[0], tc.wantError) || !strings.Contains(errs[0], argument) {
				t.Fatalf("errors %q, want one naming %s and saying %q", errs, argument, tc.wantError)
			}
			if strings.Contains(errs[0], "s3cr3t") {
				t.Errorf("the diagnostic shows a secret: %s", errs[0])
			}
		})
	}
}

// validateProviderConfig runs the provider's ValidateProviderConfig, as
// terraform validate does, on a configuration holding values (every other
// argument null), and returns its errors as "summary: detail".
func validateProviderConfig(t *testing.T, values map[string]tftypes.Value) []string {
	t.Helper()
	server, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"api_key": tftypes.String, "base_url": tftypes.String, "zero_data_retention": tftypes.Bool, "max_retries": tftypes.Number,
	}}
	attrs := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
	}
	maps.Copy(attrs, values)
	config, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.ValidateProviderConfig(context.Background(), &tfprotov6.ValidateProviderConfigRequest{Config: &config})
	if err != nil {
		t.Fatal(err)
	}
	return errorTexts(resp.Diagnostics)
}

// configureProvider configures a new provider, as Terraform does, with args
// (every other argument null) and the environment as the test left it, and
// returns it with ConfigureProvider's errors as "summary: detail".
func configureProvider(t *testing.T, args map[string]tftypes.Value) (tfprotov6.ProviderServer, []string) {
	t.Helper()
	server, schemas := serveProvider(t, providerserver.NewProtocol6WithError(New("test")()))
	return server, configure(t, server, schemas, "1.14.0", args)
}

// TestProviderConfigure_environment: each argument left out is read from
// its own environment variable, and what Configure refuses there (terraform
// validate never sees it) names the variable. An argument set to "" is
// refused by validation, saying that the environment does not fill it in
// (TestProviderAPIKey_validatedOffline, TestProviderBaseURL_validatedOffline).
func TestProviderConfigure_environment(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	for name, tc := range map[string]struct {
		env       map[string]string
		args      map[string]tftypes.Value
		wantError []string // what the one error says; none for no error
	}{
		"both from the environment": {
			env: map[string]string{EnvBaseURL: url, EnvAPIKey: acctest.APIKey},
		},
		"base URL from the environment, key from the configuration": {
			env:  map[string]string{EnvBaseURL: url},
			args: map[string]tftypes.Value{"api_key": tftypes.NewValue(tftypes.String, acctest.APIKey)},
		},
		"invalid base URL from the environment": {
			env:       map[string]string{EnvBaseURL: "api.example.com", EnvAPIKey: acctest.APIKey},
			wantError: []string{"Invalid base URL", "has no scheme: start it with http:// or https://", "(in the " + EnvBaseURL + " environment variable, read as base_url is not set)"},
		},
		"API key from the environment with a newline": {
			env:       map[string]string{EnvBaseURL: url, EnvAPIKey: acctest.APIKey + "\r\n"},
			wantError: []string{"Invalid API key", "white space", "(in the " + EnvAPIKey + " environment variable, read as api_key is not set)"},
		},
		"base URL from the configuration": {
			env:       map[string]string{EnvBaseURL: url, EnvAPIKey: acctest.APIKey},
			args:      map[string]tftypes.Value{"base_url": tftypes.NewValue(tftypes.String, "https:api.example.com")},
			wantError: []string{"Invalid base URL", "has no // after its scheme", "(in the base_url argument)"},
		},
		"base URL with credentials from the environment": {
			env:       map[string]string{EnvBaseURL: "https://user:s3cr3t@api.example.com", EnvAPIKey: acctest.APIKey},
			wantError: []string{"Invalid base URL", "must not hold credentials", EnvBaseURL},
		},
		"api_key left out, environment empty": {
			env:       map[string]string{EnvBaseURL: url},
			wantError: []string{"Missing API key", EnvAPIKey + " environment variable."},
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(EnvAPIKey, tc.env[EnvAPIKey])
			t.Setenv(EnvBaseURL, tc.env[EnvBaseURL])
			_, errs := configureProvider(t, tc.args)
			if len(tc.wantError) == 0 {
				if len(errs) != 0 {
					t.Fatalf("unexpected errors: %v", errs)
				}
				return
			}
			if len(errs) != 1 || slices.ContainsFunc(tc.wantError, func(w string) bool { return !strings.Contains(errs[0], w) }) {
				t.Fatalf("errors %q, want one saying each of %q", errs, tc.wantError)
			}
			if strings.Contains(errs[0], "s3cr3t") {
				t.Errorf("the diagnostic shows a secret: %s", errs[0])
			}
		})
	}
}

// TestProviderConfigure_zeroDataRetentionWhilePending: a provider whose
// api_key is known only after apply still plans under zero_data_retention:
// a new job without a callback is refused at plan time, as with every
// argument known (its result would be lost).
func TestProviderConfigure_zeroDataRetentionWhilePending(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: true})
	server, errs := configureProvider(t, map[string]tftypes.Value{
		"base_url":            tftypes.NewValue(tftypes.String, url),
		"api_key":             unknownOf(tftypes.String),
		"zero_data_retention": tftypes.NewValue(tftypes.Bool, true),
	})
	if len(errs) != 0 {
		t.Fatalf("configuring with an api_key known only after apply: %v", errs)
	}
	schemas, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	jobType, ok := schemas.ResourceSchemas[jobResourceTypeName].ValueType().(tftypes.Object)
	if !ok {
		t.Fatal("the job's schema is not an object")
	}
	config := dynamicValue(t, jobType, objectValue(jobType, map[string]tftypes.Value{"audio_url": tftypes.NewValue(tftypes.String, "https://example.com/a.wav")}))
	null := dynamicValue(t, jobType, tftypes.NewValue(jobType, nil))
	resp, err := server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: jobResourceTypeName, PriorState: &null, ProposedNewState: &config, Config: &config,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(resp.Diagnostics, func(d *tfprotov6.Diagnostic) bool {
		return d.Severity == tfprotov6.DiagnosticSeverityError && d.Summary == "A callback is required under zero data retention"
	}) {
		t.Errorf("a new job without a callback, under zero_data_retention with api_key pending: diagnostics %v", diagnosticSummaries(resp.Diagnostics))
	}

	// The data sources say what zero data retention refuses, not to apply
	// what the pending argument comes from first (which leads only there).
	for name, want := range map[string]string{
		"transcription_job":       "Cannot read a job under zero data retention",
		"transcription_live_jobs": "Cannot list live jobs under zero data retention",
		"transcription_jobs":      "Cannot list pre-recorded jobs under zero data retention",
	} {
		typ, ok := schemas.DataSourceSchemas[name].ValueType().(tftypes.Object)
		if !ok {
			t.Fatalf("the %s data source's schema is not an object", name)
		}
		values := map[string]tftypes.Value{}
		if name == "transcription_job" {
			values["id"] = tftypes.NewValue(tftypes.String, "3fa85f64-5717-4562-b3fc-2c963f66afa6")
		}
		config := dynamicValue(t, typ, objectValue(typ, values))
		resp, err := server.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{TypeName: name, Config: &config})
		if err != nil {
			t.Fatal(err)
		}
		if summaries := diagnosticSummaries(resp.Diagnostics); len(summaries) != 1 || !strings.HasPrefix(summaries[0], want+":") {
			t.Errorf("data source %s, under zero_data_retention with api_key pending: diagnostics %v, want only %q", name, summaries, want)
		}
	}
	// So does the list resource (terraform query, which applies nothing).
	listType, ok := schemas.ListResourceSchemas[jobResourceTypeName].ValueType().(tftypes.Object)
	if !ok {
		t.Fatal("the list resource's schema is not an object")
	}
	listConfig := dynamicValue(t, listType, objectValue(listType, nil))
	stream, err := server.(tfprotov6.ListResourceServer).ListResource(context.Background(), &tfprotov6.ListResourceRequest{TypeName: jobResourceTypeName, Config: &listConfig, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var summaries []string
	for result := range stream.Results {
		summaries = append(summaries, diagnosticSummaries(result.Diagnostics)...)
	}
	if len(summaries) != 1 || !strings.HasPrefix(summaries[0], "Cannot list jobs under zero data retention:") {
		t.Errorf("the list resource, under zero_data_retention with api_key pending: diagnostics %v", summaries)
	}
}

// TestUntilStopped: what a plan reads ends when the provider is stopped by
// a signal, and only then; without a stop (tests, -debug) it is the
// request's context.
func TestUntilStopped(t *testing.T) {
	request := context.Background()
	if ctx, cancel := (*ProviderData)(nil).untilStopped(request); ctx != request {
		t.Error("without provider data, the request's context changed")
	} else {
		cancel()
	}
	stopped, stop := context.WithCancel(context.Background())
	d := &ProviderData{stopped: stopped}
	ctx, cancel := d.untilStopped(request)
	defer cancel()
	if ctx.Err() != nil {
		t.Fatalf("ended before any stop: %v", ctx.Err())
	}
	stop()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("not ended by the provider's stop")
	}
	if request.Err() != nil {
		t.Error("the stop ended the request's own context")
	}

	// Stopped already: ended at once, before any request can go out.
	ctx, cancel = d.untilStopped(request)
	defer cancel()
	if ctx.Err() == nil {
		t.Error("a call made after the stop began with its context not ended")
	}
}

// TestProviderConfigure_importWhilePending: an import while the provider's
// configuration is known only after apply fails naming the job it is of
// (Terraform gives import diagnostics no address), with the ways out.
func TestProviderConfigure_importWhilePending(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	server, errs := configureProvider(t, map[string]tftypes.Value{
		"base_url": tftypes.NewValue(tftypes.String, url),
		"api_key":  unknownOf(tftypes.String),
	})
	if len(errs) != 0 {
		t.Fatalf("configuring with an api_key known only after apply: %v", errs)
	}
	const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	imported, err := server.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{TypeName: jobResourceTypeName, ID: id})
	if err != nil {
		t.Fatal(err)
	}
	failOnDiagnostics(t, "ImportResourceState", imported.Diagnostics)
	read, err := server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: jobResourceTypeName, CurrentState: imported.ImportedResources[0].State})
	if err != nil {
		t.Fatal(err)
	}
	if len(read.Diagnostics) != 1 || read.Diagnostics[0].Summary != "Provider configuration known only after apply" {
		t.Fatalf("diagnostics %v, want the pending configuration's error", diagnosticSummaries(read.Diagnostics))
	}
	for _, want := range []string{"(api_key), so the import of transcription job " + id + " cannot reach the service", "terraform apply -target=", "depends_on", "terraform destroy -refresh=false"} {
		if d := read.Diagnostics[0].Detail; !strings.Contains(d, want) {
			t.Errorf("detail %q, want it to hold %q", d, want)
		}
	}
}

func TestUserAgent(t *testing.T) {
	for _, tc := range []struct {
		name, cli, appended, want string
	}{
		{name: "provider only", want: "terraform-provider-transcription/1.2.3"},
		{name: "with the CLI", cli: "1.8.5", want: "terraform-provider-transcription/1.2.3 Terraform/1.8.5"},
		{name: "appended", cli: "1.8.5", appended: "pipeline/42 (ci)", want: "terraform-provider-transcription/1.2.3 Terraform/1.8.5 pipeline/42 (ci)"},
		{name: "appended blank", cli: "1.8.5", appended: " \t ", want: "terraform-provider-transcription/1.2.3 Terraform/1.8.5"},
		{name: "line breaks become spaces", cli: "1.8.5", appended: "a\r\nb\n", want: "terraform-provider-transcription/1.2.3 Terraform/1.8.5 a b"},
		{name: "a line break and the spaces around it become one space", cli: "1.8.5", appended: "pipeline/abc \n x", want: "terraform-provider-transcription/1.2.3 Terraform/1.8.5 pipeline/abc x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := userAgent("1.2.3", tc.cli, tc.appended); got != tc.want {
				t.Errorf("userAgent = %q, want %q", got, tc.want)
			}
		})
	}
}
