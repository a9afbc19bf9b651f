package provider

import (
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/tfcli"
)

// List resources (terraform query) and actions came with Terraform 1.14,
// and OpenTofu (1.12.6) has neither; their tests skip the other engines
// (Terraform 1.8.5, OpenTofu 1.12.6) with the version check's message.
var currentTerraformOnly = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)}

// Import blocks by resource identity came with Terraform 1.12 and OpenTofu
// 1.12; their tests skip older engines (Terraform 1.8.5).
var identityImportEngines = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)}

// TestAccJob_identity: a job's identity is its id, set on create and read;
// an import block with identity = { id = ... } imports it with no change.
func TestAccJob_identity(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const addr = "transcription_job.identified"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   identityImportEngines,
		Steps: []resource.TestStep{
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("identified", `audio_url = "https://example.com/identified.wav"
summarization = true
custom_metadata = { team = "alpha" }`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{"id": knownvalue.StringRegexp(client.JobIDPattern)}),
					statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("id")),
				},
			},
			{
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
		},
	})
}

// TestAccJobList_query: terraform query finds the jobs the listing's filters
// select, each with its identity and a name for people.
func TestAccJobList_query(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	alpha := []string{
		createJobDirectly(t, url, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a1.wav", CustomMetadata: map[string]any{"team": "alpha"}}),
		createJobDirectly(t, url, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a2.wav", CustomMetadata: map[string]any{"team": "alpha"}}),
	}
	createJobDirectly(t, url, &client.InitTranscriptionRequest{AudioURL: "https://example.com/b1.wav", CustomMetadata: map[string]any{"team": "bravo"}})
	createJobDirectly(t, url, &client.InitTranscriptionRequest{AudioURL: "https://example.com/fail-500.wav", CustomMetadata: map[string]any{"team": "alpha"}})

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   currentTerraformOnly,
		Steps: []resource.TestStep{
			// Query mode needs a root module declaring the provider.
			{Config: acctest.ProviderConfig(url)},
			{
				Query: true,
				Config: `
list "transcription_job" "alpha" {
  provider = transcription
  config {
    status          = ["done"]
    custom_metadata = { team = "alpha" }
  }
}

list "transcription_job" "all" {
  provider = transcription
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("transcription_job.alpha", len(alpha)),
					querycheck.ExpectIdentity("transcription_job.alpha", map[string]knownvalue.Check{"id": knownvalue.StringExact(alpha[0])}),
					querycheck.ExpectIdentity("transcription_job.alpha", map[string]knownvalue.Check{"id": knownvalue.StringExact(alpha[1])}),
					querycheck.ExpectLength("transcription_job.all", 4),
				},
			},
		},
	})
}

// TestAccJobList_resourceLeavesOutCallbackURLs: the resource objects of a
// query (include_resource, which terraform query -json prints whole) hold
// no callback URL, which may carry a token: the generated configuration
// cannot hold them either, and the import that follows reads the job again.
func TestAccJobList_resourceLeavesOutCallbackURLs(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	configured := createJobDirectly(t, url, &client.InitTranscriptionRequest{AudioURL: "https://example.com/cb.wav", Callback: ptr(true),
		CallbackConfig: &client.CallbackConfig{URL: hooks + "/hook?token=s3cr3t", Method: ptr("PUT")}})
	legacy := createJobDirectly(t, url, &client.InitTranscriptionRequest{AudioURL: "https://example.com/legacy.wav", CallbackURL: ptr(hooks + "/legacy?token=s3cr3t")})
	byID := func(id string) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"id": knownvalue.StringExact(id)})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   currentTerraformOnly,
		Steps: []resource.TestStep{
			{Config: acctest.ProviderConfig(url)},
			{
				Query: true,
				Config: `
list "transcription_job" "all" {
  provider         = transcription
  include_resource = true
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("transcription_job.all", 2),
					querycheck.ExpectResourceKnownValues("transcription_job.all", byID(configured), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("callback_config").AtMapKey("url"), KnownValue: knownvalue.Null()},
						{Path: tfjsonpath.New("callback_config").AtMapKey("method"), KnownValue: knownvalue.StringExact("PUT")},
						{Path: tfjsonpath.New("callback"), KnownValue: knownvalue.Bool(true)},
					}),
					querycheck.ExpectResourceKnownValues("transcription_job.all", byID(legacy), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("callback_url"), KnownValue: knownvalue.Null()},
					}),
				},
			},
		},
	})
}

// TestAccJobList_oddRecordLeavesOnlyItselfOut: with include_resource, a
// job whose request_params the provider cannot read is left out, with a
// warning, and Terraform shows the other jobs (an error in one result hid
// them all); without it, every job is listed.
func TestAccJobList_oddRecordLeavesOnlyItselfOut(t *testing.T) {
	fs := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey})
	var altered atomic.Pointer[string]
	srv := httptest.NewServer(withOddListedJob(fs, `{"audio_url":"https://example.com/odd.wav","model":3}`, &altered))
	t.Cleanup(func() { srv.Close(); fs.Close() })
	seedPreRecordedJobs(t, srv.URL, 3)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   currentTerraformOnly,
		Steps: []resource.TestStep{
			{Config: acctest.ProviderConfig(srv.URL)},
			{
				Query: true,
				Config: `
list "transcription_job" "ids" {
  provider = transcription
}

list "transcription_job" "resources" {
  provider         = transcription
  include_resource = true
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("transcription_job.ids", 3),
					querycheck.ExpectLength("transcription_job.resources", 2),
				},
			},
		},
	})
}

// TestAccJobList_invalidFilters: each invalid filter is refused before any
// request, naming the attribute and the rule.
func TestAccJobList_invalidFilters(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	step := func(config string, wantError ...string) resource.TestStep {
		return resource.TestStep{
			Query:       true,
			Config:      "list \"transcription_job\" \"bad\" {\n  provider = transcription\n  config {\n" + config + "\n  }\n}\n",
			ExpectError: diagnosticPattern(wantError...),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   currentTerraformOnly,
		Steps: []resource.TestStep{
			{Config: acctest.ProviderConfig(url)},
			step(`status = ["done", "finished"]`, `Attribute status[1] value must be one of:`, `got: "finished"`),
			step(`date = "2023-02-29"`, `Attribute date value must be a calendar day`),
			// A list block's errors point at the block's first line: the
			// message names the attribute.
			step(`before_date = "yesterday"`, `Invalid RFC3339 String Value`, `Attribute before_date value must be an RFC 3339 date-time`, `got "yesterday"`),
			step(`after_date = "2025-03-07T00:00:00+24:00"`, `Attribute after_date value must be an RFC 3339 date-time`, `offset is not a time of day`),
			step("after_date = \"2025-03-07T00:00:00Z\"\nbefore_date = \"2025-03-06T00:00:00Z\"", `Attribute after_date must be earlier than before_date`),
			step("date = \"2025-03-08\"\nbefore_date = \"2025-03-06T00:00:00Z\"", `Attribute date is the UTC day 2025-03-08, which begins at or after before_date`),
			step(`status = ["done", null]`, `Null element`, `Attribute status must not hold null, and its element 1 is null`),
			step(`custom_metadata = { team = null }`, `Null element`, `Attribute custom_metadata must not hold null, and the value of "team" is null`),
			{
				Config: acctest.ProviderConfig(url),
				Check: func(*terraform.State) error {
					for _, r := range fs.Requests() {
						if r.Path == "/v2/pre-recorded" {
							return fmt.Errorf("an invalid filter reached the service: %s %s?%s", r.Method, r.Path, r.RawQuery)
						}
					}
					return nil
				},
			},
		},
	})
}

// TestAccJobList_generateConfig adopts jobs created elsewhere as a team
// would, with the documentation's example query: terraform query
// -generate-config-out writes resource and import blocks, and the plan of
// them imports every job and changes nothing.
func TestAccJobList_generateConfig(t *testing.T) {
	requireCurrentTerraform(t)
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	for _, req := range []*client.InitTranscriptionRequest{
		{AudioURL: "https://example.com/adopt-1.wav", CustomMetadata: map[string]any{"queue": "support"}},
		{AudioURL: "https://example.com/adopt-2.wav", Subtitles: ptr(true), SubtitlesConfig: &client.SubtitlesConfig{Formats: []string{"vtt", "srt"}},
			Summarization: ptr(true), LanguageConfig: &client.LanguageConfig{Languages: []string{"en"}}, CustomMetadata: map[string]any{"queue": "support"}},
		{AudioURL: "https://example.com/adopt-3.wav", CallbackURL: ptr(hooks + "/legacy?token=s3cr3t"), CustomMetadata: map[string]any{"queue": "support"}},
		{AudioURL: "https://example.com/other.wav", CustomMetadata: map[string]any{"queue": "sales"}},
		{AudioURL: "https://example.com/fail-500.wav", CustomMetadata: map[string]any{"queue": "support"}},
	} {
		createJobDirectly(t, url, req)
	}
	// The documentation's example, as shipped: done jobs of the support
	// queue, with the configuration beside the query.
	example := filepath.Join(examplesRoot, "list-resources", "transcription_job")
	main, err := os.ReadFile(filepath.Join(example, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	w := newCLIWorkspace(t, string(main), EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
	query, err := os.ReadFile(filepath.Join(example, "list-resource.tfquery.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "adopt.tfquery.hcl"), query, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, err := w.run(nil, "query", "-no-color", "-generate-config-out=generated.tf"); err != nil {
		t.Fatalf("terraform query: %v\n%s\n%s", err, out, errOut)
	}
	generated, err := os.ReadFile(filepath.Join(w.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(generated), `resource "transcription_job"`); n != 3 {
		t.Fatalf("generated configuration has %d transcription_job blocks, want 3:\n%s", n, generated)
	}
	if strings.Contains(string(generated), "s3cr3t") {
		t.Fatal("the generated configuration holds the callback URL's token")
	}
	out, errOut, err := w.run(nil, "plan", "-no-color", "-input=false")
	if err != nil {
		t.Fatalf("terraform plan of the generated configuration: %v\n%s\n%s", err, out, errOut)
	}
	if !strings.Contains(out, "Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.") {
		t.Fatalf("the generated configuration does not plan a clean import of 3 jobs:\n%s\n--- generated.tf:\n%s", out, generated)
	}
	if n := fs.Stats().JobsCreated; n != 5 {
		t.Errorf("%d jobs on the service, want the 5 created before", n)
	}
}

// requireCurrentTerraform skips a test run as a CLI process on an engine
// older than Terraform 1.14, or on OpenTofu, which have no terraform query
// nor actions (currentTerraformOnly does the same for
// terraform-plugin-testing's test cases).
func requireCurrentTerraform(t *testing.T) {
	t.Helper()
	engine, have := engineVersion(t)
	if engine != "Terraform" || have.Core().LessThan(version.Must(version.NewVersion("1.14.0"))) {
		t.Skipf("needs Terraform 1.14 or newer; this engine is %s %s", engine, have)
	}
}

// engineVersion is the name ("Terraform", "OpenTofu") and version of the
// CLI the acceptance tests run (TF_ACC_TERRAFORM_PATH).
func engineVersion(t *testing.T) (string, *version.Version) {
	t.Helper()
	cliPath := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || cliPath == "" {
		t.Skip("acceptance test: needs TF_ACC=1 and TF_ACC_TERRAFORM_PATH")
	}
	out, err := exec.Command(cliPath, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", cliPath, err)
	}
	line := tfcli.VersionLine(string(out))
	fields := strings.Fields(line) // "Terraform v1.16.4-dev" or "OpenTofu v1.12.6"
	if len(fields) < 2 {
		t.Fatalf("cannot read the engine in %q", out)
	}
	v, err := version.NewVersion(strings.TrimPrefix(fields[1], "v"))
	if err != nil {
		t.Fatalf("cannot read the version in %q: %v", line, err)
	}
	return fields[0], v
}
