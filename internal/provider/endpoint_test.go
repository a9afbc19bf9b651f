package provider

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// privateMap is private state as a map of keys, for tests.
type privateMap map[string][]byte

func (m privateMap) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return m[key], nil
}

func (m privateMap) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	m[key] = value
	return nil
}

// TestJobElsewhere: a job is elsewhere only when the address it was
// created or last found at is recorded and another than the client's,
// however either is written.
func TestJobElsewhere(t *testing.T) {
	ctx := context.Background()
	c, err := client.New(client.Config{BaseURL: "https://API.example.com:443/", APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, recorded, want string
	}{
		{"none recorded", "", ""},
		{"the same", c.ServiceAddress(), ""},
		{"the same, written otherwise", "https://api.example.com", ""},
		{"another host", "https://eu.example.com", "https://eu.example.com"},
		{"another path", "https://api.example.com/proxy", "https://api.example.com/proxy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			private := privateMap{}
			if tc.recorded != "" {
				private[privateEndpoint] = []byte(fmt.Sprintf("%q", tc.recorded))
			}
			if got := madeElsewhere(ctx, private, c); got != tc.want {
				t.Errorf("elsewhere %q, want %q", got, tc.want)
			}
			// Found through c, the job is recorded at its address.
			var diags diag.Diagnostics
			recordEndpoint(ctx, private, private, c, &diags)
			if got := madeElsewhere(ctx, private, c); got != "" || diags.HasError() {
				t.Errorf("after being found here, elsewhere %q (%v)", got, diags)
			}
		})
	}
}

// TestAccJob_baseURLMoved: after base_url moves to another service (a
// region, an endpoint), that service's 404 for a job says nothing of it: a
// refresh fails naming both addresses and keeps the job as it was, and
// moving back finds it, where the job was marked gone for good
// (retained = false), recreate_when_missing created it again (billed), and
// a destroy took it as deleted, leaving it on the service.
func TestAccJob_baseURLMoved(t *testing.T) {
	const addr = "transcription_job.moved"
	job := acctest.JobConfig("moved", `audio_url = "https://example.com/moved.wav"
recreate_when_missing = true`)
	home, homeURL, otherURL, created, id := jobAtHome(t, addr, job)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			created,
			{
				Config:      acctest.ProviderConfig(otherURL) + job,
				ExpectError: acctest.ExpectError(`(?s)Transcription job not found at this base_url.*has no job [0-9a-f-]{36}, which was created \(or last found\) at ` + homeURL + `.*Set base_url back.*terraform state rm and its address \(a removed block with destroy = false does it too, applied with -refresh=false`),
			},
			{
				Config: acctest.ProviderConfig(homeURL) + job,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(true)),
				},
				Check: func(*terraform.State) error {
					if _, ok := home.Job(*id); !ok || home.Stats().JobsCreated != 1 {
						return fmt.Errorf("the home service has job %s: %t, and created %d jobs, want it and 1", *id, ok, home.Stats().JobsCreated)
					}
					return nil
				},
			},
		},
	})
}

// TestDeleteJob_elsewhere: a DELETE answered 404 by a service other than
// the one the job was created or last found at is not a deletion.
func TestDeleteJob_elsewhere(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	err = deleteJob(boundedContext(t), c, id, testPollSchedule, false, "https://eu.example.com")
	if _, ok := err.(*jobElsewhereError); !ok {
		t.Fatalf("deletion answered 404 elsewhere: %v, want a jobElsewhereError", err)
	}
	if err := deleteJob(boundedContext(t), c, id, testPollSchedule, false, ""); err != nil {
		t.Fatalf("deletion answered 404 where the job was: %v, want done", err)
	}
}

// TestAccJob_zeroDataRetentionTurnedOnAndOff: turning zero_data_retention
// on leaves the jobs already in state as they are (no plan: the service
// forgets only jobs created under it), and turning it off again reads them
// as before, where they were marked gone (retained = false) for good: a
// later include_transcript found "no longer retained", and
// recreate_when_missing created the job again (billed).
func TestAccJob_zeroDataRetentionTurnedOnAndOff(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const addr = "transcription_job.before"
	job := acctest.JobConfig("before", `audio_url = "https://example.com/before.wav"`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: acctest.ProviderConfig(url) + job},
			{
				Config: acctest.ProviderConfig(url, "zero_data_retention = true") + job,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("before", `audio_url = "https://example.com/before.wav"
include_transcript = true
recreate_when_missing = true`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("full_transcript"), knownvalue.NotNull()),
				},
				Check: acctest.JobsCreated(fs, 1),
			},
		},
	})
}

// TestAccJob_goneJobDestroyedAfterBaseURLMoved: a job found gone where it
// was created (retained = false) cannot come back, so after base_url moves,
// its destroy (and so a -replace) is done, where the 404 of the new address
// was refused as saying nothing of the job.
func TestAccJob_goneJobDestroyedAfterBaseURLMoved(t *testing.T) {
	const addr = "transcription_job.gone"
	job := acctest.JobConfig("gone", `audio_url = "https://example.com/gone.wav"`)
	home, homeURL, otherURL, created, id := jobAtHome(t, addr, job)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			created,
			{
				PreConfig: func() { acctest.ExpireJob(t, home, *id) },
				Config:    acctest.ProviderConfig(homeURL) + job,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(false)),
				},
			},
			// The test's destroy runs with this configuration.
			{Config: acctest.ProviderConfig(otherURL) + job},
		},
	})
}

// jobAtHome is two fake services, home and another, and the step that
// creates job (configuration of addr) at home, whose id it captures.
func jobAtHome(t *testing.T, addr, job string) (home *fakeserver.Server, homeURL, otherURL string, created resource.TestStep, id *string) {
	t.Helper()
	home, homeURL = acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, otherURL = acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	id = new(string)
	created = resource.TestStep{
		Config: acctest.ProviderConfig(homeURL) + job,
		Check:  resource.TestCheckResourceAttrWith(addr, "id", acctest.CaptureTo(id)),
	}
	return home, homeURL, otherURL, created, id
}

// TestAccProcess_madeThroughAnotherAddressWarns: a job and an upload made
// through one service address, then planned with a provider configuration
// on another, are warned of. The job under zero data retention, whose
// refresh asks nothing of the service (so no 404 says it is elsewhere):
// its plan said nothing, and the destroy failed. The upload, whose plan
// asks nothing either: its file stays where it was uploaded.
func TestAccProcess_madeThroughAnotherAddressWarns(t *testing.T) {
	_, homeURL := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, otherURL := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	source := filepath.Join(t.TempDir(), "standup.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	config := `
variable "url" { type = string }
variable "zdr" { type = bool }
provider "transcription" {
  base_url            = var.url
  api_key             = "` + acctest.APIKey + `"
  zero_data_retention = var.zdr
}
resource "transcription_upload" "standup" {
  source = "` + filepath.ToSlash(source) + `"
}
resource "transcription_job" "standup" {
  audio_url    = "https://example.com/standup.wav"
  callback_url = "https://hooks.example.com/done"
}
`
	w := newCLIWorkspace(t, config)
	if _, errOut, err := w.run(nil, "apply", "-auto-approve", "-no-color", "-input=false", "-var=url="+homeURL, "-var=zdr=false"); err != nil {
		t.Fatalf("apply at home: %v\n%s", err, errOut)
	}
	out, errOut, err := w.run(nil, "plan", "-no-color", "-input=false", "-var=url="+otherURL, "-var=zdr=true")
	if err != nil {
		t.Fatalf("plan elsewhere: %v\n%s", err, errOut)
	}
	for _, want := range []string{
		"Warning: The job was made through another service address",
		"was created (or last found) at " + homeURL,
		"Warning: The upload was made through another service address",
		`"standup.wav" was uploaded through ` + homeURL,
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("the plan through %s does not say %q:\n%s", otherURL, want, out)
		}
	}
	// Under zero data retention no upload can be made: no -replace advice.
	if flat := strings.Join(strings.Fields(out), " "); strings.Contains(flat, "replace the upload") || !strings.Contains(flat, "zero_data_retention = true, which disables uploads") {
		t.Errorf("the upload's warning under zero data retention advises a new upload:\n%s", out)
	}
	// A plan that uploads the file again (its content changed) uploads it
	// through the address of now: nothing to warn of. (Targeted: the job,
	// refreshed there without zero data retention, is not found there.)
	writeTestWAV(t, source, 0.7, 1, 8000, 440)
	out, errOut, err = w.run(nil, "plan", "-no-color", "-input=false", "-target=transcription_upload.standup", "-var=url="+otherURL, "-var=zdr=false")
	if err != nil {
		t.Fatalf("plan elsewhere of a changed file: %v\n%s", err, errOut)
	}
	if strings.Contains(out, "The upload was made through another service address") || !strings.Contains(out, "transcription_upload.standup must be replaced") {
		t.Errorf("the plan replacing the upload through %s warns of the address or replaces nothing:\n%s", otherURL, out)
	}
	// Back home: nothing to say. (The test's own cleanup destroys there.)
	out, errOut, err = w.run(nil, "destroy", "-auto-approve", "-no-color", "-input=false", "-var=url="+homeURL, "-var=zdr=false")
	if err != nil || strings.Contains(out, "another service address") {
		t.Errorf("destroy at home: %v, warned %t\n%s%s", err, strings.Contains(out, "another service address"), out, errOut)
	}
}
