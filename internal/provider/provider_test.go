package provider

import (
	"context"
	"fmt"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// testAccKey is the API key the acceptance tests' fake servers accept.
const testAccKey = "acc-test-key-9f8e7d6c5b4a"

// testAccProtoV6ProviderFactories serves the provider in process to the CLI
// that terraform-plugin-testing runs (TF_ACC_TERRAFORM_PATH: Terraform or OpenTofu).
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"transcription": providerserver.NewProtocol6WithError(New("test")()),
}

// accFakeServer starts a fake server for one acceptance test and returns it
// with its base URL. A nil Clock means real time; tests set ProcessingTime small.
func accFakeServer(t *testing.T, opts fakeserver.Options) (*fakeserver.Server, string) {
	t.Helper()
	if opts.APIKey == "" {
		opts.APIKey = testAccKey
	}
	fs := fakeserver.New(opts)
	srv := httptest.NewServer(fs)
	t.Cleanup(func() { srv.Close(); fs.Close() })
	return fs, srv.URL
}

// providerConfig is the provider block pointing at a fake server.
func providerConfig(baseURL string, extra ...string) string {
	cfg := fmt.Sprintf("provider \"transcription\" {\n  base_url = %q\n  api_key  = %q\n", baseURL, testAccKey)
	for _, e := range extra {
		cfg += "  " + e + "\n"
	}
	return cfg + "}\n"
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
}

// TestAccProvider_configErrors proves the harness drives the real CLI: bad
// provider configuration fails at plan with a diagnostic naming the argument.
func TestAccProvider_configErrors(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvBaseURL, "")
	_, url := accFakeServer(t, fakeserver.Options{})
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
	fs, url := accFakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerConfig(url+"/v2/") + jobConfig("versioned", `audio_url = "https://example.com/versioned.wav"`),
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr("transcription_job.versioned", "status", "done"),
				resource.TestMatchResourceAttr("transcription_job.versioned", "result_url", regexp.MustCompile(`[^2]/v2/transcription/[0-9a-f-]{36}$`)),
				func(*terraform.State) error {
					if n := fs.Stats().JobsCreated; n != 1 {
						return fmt.Errorf("%d jobs created, want 1", n)
					}
					return nil
				},
			),
		}},
	})
}
