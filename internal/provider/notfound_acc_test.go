package provider

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

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

// What the service answers 404 for, beyond resource_job_test.go (a done job
// kept with retained = false, recreate_when_missing, a job that ended
// unseen): a job that expires on the service side, done or while it is
// waited on, and a live job deleted on the service side.

// TestAccJob_expiredDone: once the service's retention of a done job ends,
// a provider-side change applies without a new job (the raw result cannot
// be fetched any more, and the plan and state keep the last result), importing its id
// fails naming it, and destroying it succeeds although DELETE answers 404.
func TestAccJob_expiredDone(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const addr = "transcription_job.expiring"
	body := `audio_url = "https://example.com/expiring.wav"
include_transcript = true`
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("expiring", body),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(addr, "id", acctest.CaptureTo(&id)),
					resource.TestCheckResourceAttr(addr, "status", client.StatusDone),
				),
			},
			{
				PreConfig: func() { acctest.ExpireJob(t, fs, id) },
				Config:    acctest.ProviderConfig(url) + acctest.JobConfig("expiring", body+"\ninclude_raw_result = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					// Nothing can be read: the plan knows what the apply keeps.
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(false)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("full_transcript"), knownvalue.NotNull()),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("result_json"), knownvalue.Null()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact(client.StatusDone)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("full_transcript"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("result_json"), knownvalue.Null()),
				},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(addr, "id", func(v string) error {
						if v != id {
							return fmt.Errorf("id changed from %s to %s: the expired job was replaced", id, v)
						}
						return nil
					}),
					acctest.JobsCreated(fs, 1),
				),
			},
			{
				ResourceName:       addr,
				ImportState:        true,
				ImportStateIdFunc:  func(*terraform.State) (string, error) { return id, nil },
				ImportStatePersist: false,
				ExpectError:        acctest.ExpectError(`(?s)Cannot import the transcription job.*The service at\s+` + regexp.QuoteMeta(url) + `\s+has no pre-recorded job with id "[0-9a-f-]{36}".*retention.*provider\s+configuration`),
			},
		},
		CheckDestroy: func(*terraform.State) error {
			if got := acctest.DeleteAnswers(fs, id); !slices.Equal(got, []int{http.StatusNotFound}) {
				return fmt.Errorf("DELETEs of the expired job answered %v, want one 404 (counted as deleted)", got)
			}
			return nil
		},
	})
}

// TestAccJob_expiredWhileWaiting: the service drops a job while the provider
// waits for it (which its rules allow only once the job has ended). The
// apply fails naming the job and the 404; the job, tainted, stays in state
// with retained = false at the next refresh, and the next apply replaces
// it, as a failed wait's job, once.
func TestAccJob_expiredWhileWaiting(t *testing.T) {
	// The clock stands still until the last step: the job cannot end
	// before it expires.
	fs, url, clock := acctest.HeldFakeServer(t)
	const addr = "transcription_job.dropped"
	config := acctest.ProviderConfig(url) + acctest.JobConfig("dropped", `audio_url = "https://example.com/dropped.wav"`)
	expired := make(chan string, 1)
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					acctest.WhenTrue(t, func() bool { return len(polledJobs(fs)) == 1 }, func() {
						for polled := range polledJobs(fs) {
							if !fs.ExpireJob(polled) {
								t.Errorf("job %s to expire does not exist", polled)
							}
							expired <- polled
						}
					})
				},
				Config:      config,
				ExpectError: acctest.ExpectError(`(?s)Transcription job deleted while waiting for it.*no longer has job [0-9a-f-]{36} \(queued when last seen\).*stays in state, tainted: the next apply creates it again.*status 404 \(Not Found\): no pre-recorded job with id`),
			},
			{
				// The refresh finds it gone: kept, retained = false, tainted.
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					select {
					case id = <-expired:
					default:
						return errors.New("no job expired while waited on")
					}
					rs, ok := s.RootModule().Resources[addr]
					if !ok || rs.Primary.ID != id || rs.Primary.Attributes["retained"] != "false" || !rs.Primary.Tainted {
						return fmt.Errorf("%s in state: %v, want job %s kept, tainted, with retained = false", addr, rs, id)
					}
					return nil
				},
			},
			{
				PreConfig: func() { advanceClockUntilCleanup(t, clock) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "status", client.StatusDone),
					checkOneJobPerResource(fs, 1),
					resource.TestCheckResourceAttrWith(addr, "id", func(v string) error {
						if v == id {
							return fmt.Errorf("id %q: want a new job, not the expired %q", v, id)
						}
						if n := fs.Stats().JobsCreated; n != 2 {
							return fmt.Errorf("%d jobs created, want 2", n)
						}
						return nil
					}),
				),
			},
		},
	})
}

// TestAccLiveJobsDataSource_jobDeletedOnService: a live job the service
// deletes is simply gone from the data source at the next refresh.
func TestAccLiveJobsDataSource_jobDeletedOnService(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{Clock: fakeserver.NewManualClock(liveTestNow)})
	addLightLiveJobs(fs, 5)
	all := idsWhere(liveReference(t, url), func(client.LiveJob, time.Time) bool { return true })
	if len(all) != 5 {
		t.Fatalf("fake server lists %d live jobs, want 5", len(all))
	}
	gone := all[2]
	remaining := slices.Delete(slices.Clone(all), 2, 3)
	config := acctest.ProviderConfig(url) + `data "transcription_live_jobs" "all" {}` + "\n"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            config,
				ConfigStateChecks: expectIDs("data.transcription_live_jobs.all", all),
			},
			{
				PreConfig: func() {
					if !fs.RemoveLiveJob(gone) {
						t.Fatalf("live job %s to delete does not exist", gone)
					}
				},
				Config:            config,
				ConfigStateChecks: expectIDs("data.transcription_live_jobs.all", remaining),
			},
		},
	})
}

// TestAccJob_createdFromAnExpiredUpload: a job made from an upload the
// service has deleted fails with error_code 404; the error says that the
// upload is gone and how to upload it again, since replacing the job alone
// (what the tainted job's next apply does) fails the same way.
func TestAccJob_createdFromAnExpiredUpload(t *testing.T) {
	clock := fakeserver.NewManualClock(time.Now())
	_, url := acctest.FakeServer(t, fakeserver.Options{Clock: clock, Retention: time.Hour})
	source := filepath.Join(t.TempDir(), "call.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	w := newCLIWorkspace(t, acctest.ProviderConfig(url)+uploadConfig("call", source))
	if stdout, stderr, err := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s%s", err, stdout, stderr)
	}
	clock.Advance(2 * time.Hour) // the upload expires
	job := acctest.JobConfig("late", "audio_url = transcription_upload.call.audio_url")
	if err := os.WriteFile(filepath.Join(w.dir, "late.tf"), []byte(job), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	output := strings.Join(strings.Fields(stdout+stderr), " ")
	if err == nil || !acctest.ExpectError(`Transcription job failed.*error_code 404.*audio_url names a file uploaded to the service, which the service does not have.*terraform apply -replace=ADDRESS`).MatchString(output) {
		t.Fatalf("apply of a job from the expired upload: err %v, want the failure to say the upload is gone and how to upload it again:\n%s", err, output)
	}
	// The job is tainted: the next plan makes it again from the same
	// audio_url, which its refresh says would fail.
	stdout, stderr, err = w.run(nil, "plan", "-input=false", "-no-color")
	output = strings.Join(strings.Fields(stdout+stderr), " ")
	if err != nil || !acctest.ExpectError(`is tainted, so (it )?must be replaced.*Warning: Transcription job failed to fetch its upload.*Its create saw it fail, which tainted the resource.*made from the same one it fails the same way.*terraform apply -replace=ADDRESS`).MatchString(output) {
		t.Fatalf("plan after the failed apply: err %v, want the tainted job's replacement and a warning that it would fail again:\n%s", err, output)
	}
	// Untainted, it is kept: told once (by its refresh), not also by the
	// plan's warning of a failed job.
	if stdout, stderr, err := w.run(nil, "untaint", "transcription_job.late"); err != nil {
		t.Fatalf("untaint: %v\n%s%s", err, stdout, stderr)
	}
	stdout, stderr, err = w.run(nil, "plan", "-input=false", "-no-color")
	output = strings.Join(strings.Fields(stdout+stderr), " ")
	if err != nil || !strings.Contains(output, "No changes") || strings.Count(output, "Upload the file again") != 1 {
		t.Fatalf("plan of the untainted job: err %v, want no changes and one warning to upload the file again:\n%s", err, output)
	}
}

// TestAccJob_expiredWithItsUpload: the service deletes an upload at the end
// of the same retention period as the job made from it, so the job created
// again from its audio_url (recreate_when_missing, or -replace on the job)
// would fail. The plan that finds the job gone says so and what to do; doing
// it (-replace on the upload) makes a new upload and a job that transcribes
// it. The warnings are the CLI's output, so the real CLI runs.
func TestAccJob_expiredWithItsUpload(t *testing.T) {
	clock := fakeserver.NewManualClock(time.Now())
	fs, url := acctest.FakeServer(t, fakeserver.Options{Clock: clock, Retention: time.Hour})
	source := filepath.Join(t.TempDir(), "call.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	w := newCLIWorkspace(t, acctest.ProviderConfig(url)+uploadConfig("call", source)+
		acctest.JobConfig("recreated", "audio_url = transcription_upload.call.audio_url\nrecreate_when_missing = true")+
		acctest.JobConfig("kept", "audio_url = transcription_upload.call.audio_url"))
	if stdout, stderr, err := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s%s", err, stdout, stderr)
	}

	clock.Advance(2 * time.Hour) // the jobs and the upload expire
	stdout, stderr, err := w.run(nil, "plan", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("plan: %v\n%s%s", err, stdout, stderr)
	}
	note := acctest.ExpectError(`(?s)audio_url is a file uploaded to the service, .* terraform apply -replace=ADDRESS`)
	expectNoted := func(output string, warnings ...string) {
		t.Helper()
		for _, warning := range warnings {
			noted := slices.ContainsFunc(strings.Split(output, "Warning: "), func(block string) bool {
				return strings.HasPrefix(block, warning) && note.MatchString(block)
			})
			if !noted {
				t.Errorf("the warning %q does not say that the upload is gone too and how to upload it again:\n%s", warning, output)
			}
		}
	}
	// The job to be created again stays in state (its replacement is
	// planned) and is warned of as the one kept is.
	expectNoted(stdout+stderr, "Transcription job no longer retained by the service", "Transcription job created again")

	// Found gone and kept, then recreate_when_missing turned on, as the
	// warning above offers: the plan that creates it again says it too.
	if stdout, stderr, err := w.run(nil, "apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply -refresh-only: %v\n%s%s", err, stdout, stderr)
	}
	override := "resource \"transcription_job\" \"kept\" {\n  recreate_when_missing = true\n}\n"
	if err := os.WriteFile(filepath.Join(w.dir, "recreate_override.tf"), []byte(override), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err = w.run(nil, "plan", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("plan with recreate_when_missing turned on: %v\n%s%s", err, stdout, stderr)
	}
	expectNoted(stdout+stderr, "Transcription job created again")

	if stdout, stderr, err := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color", "-replace=transcription_upload.call"); err != nil {
		t.Fatalf("apply -replace on the upload: %v\n%s%s", err, stdout, stderr)
	}
	if n := len(uploadRequests(fs)); n != 2 {
		t.Errorf("the service received %d uploads, want 2", n)
	}
	if n := fs.Stats().JobsCreated; n != 4 {
		t.Errorf("%d jobs created, want 4: two, then both again from the new upload", n)
	}
	ids, _ := w.stateJobs()
	for addr, id := range ids {
		if job, ok := fs.Job(id); !ok || job.Status != client.StatusDone {
			t.Errorf("%s (job %s) is not done on the service: %+v", addr, id, job)
		}
	}
}

// TestAccJob_notFoundAtAnotherAddress: a 404 from something other than the
// service at base_url (a path prefix mistyped, another host) is not taken
// for jobs gone: the refresh fails saying base_url may be wrong, and state
// keeps the jobs as they were, so the next plan with the right base_url
// neither creates (bills) the running job again nor marks the done one
// retained = false; a destroy there deletes nothing and keeps them too.
func TestAccJob_notFoundAtAnotherAddress(t *testing.T) {
	fs, url, clock := acctest.HeldFakeServer(t)
	done := acctest.JobConfig("done", `audio_url = "https://example.com/done.wav"
wait_for_completion = false`)
	jobs := done + acctest.JobConfig("running", `audio_url = "https://example.com/running.wav"
wait_for_completion = false`)
	wrong := acctest.ProviderConfig(url+"/typo") + jobs
	unconfirmed := acctest.ExpectError(`(?s)Cannot tell whether the transcription job .* still exists.*base_url`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: acctest.ProviderConfig(url) + done},
			{
				PreConfig: func() { clock.Advance(2 * time.Hour) }, // the first job is done
				Config:    acctest.ProviderConfig(url) + jobs,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("transcription_job.done", tfjsonpath.New("status"), knownvalue.StringExact(client.StatusDone)),
					statecheck.ExpectKnownValue("transcription_job.running", tfjsonpath.New("status"), knownvalue.StringExact(client.StatusQueued)),
				},
				Check: acctest.JobsCreated(fs, 2),
			},
			{Config: wrong, PlanOnly: true, ExpectError: unconfirmed},
			{Config: wrong, Destroy: true, ExpectError: unconfirmed},
			{
				Config: acctest.ProviderConfig(url) + jobs,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("transcription_job.done", tfjsonpath.New("retained"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("transcription_job.running", tfjsonpath.New("retained"), knownvalue.Bool(true)),
				},
				Check: resource.ComposeTestCheckFunc(
					acctest.JobsCreated(fs, 2),
					// Every job ends, so that the test's destroy deletes them.
					func(*terraform.State) error { clock.Advance(2 * time.Hour); return nil },
				),
			},
		},
	})
}

// TestAccJob_notFoundAtAnotherAddressWhenRead: the job data source and an
// import, asked for a job at a base_url that does not lead to the service,
// say that base_url may be wrong, where they said the service has no such
// job and sent the user to check the id.
func TestAccJob_notFoundAtAnotherAddressWhenRead(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	id := createJobFromJSON(t, url, `{"audio_url": "https://example.com/elsewhere.wav"}`)
	wrong := acctest.ProviderConfig(url + "/typo")
	unconfirmed := acctest.ExpectError(`(?s)Cannot tell whether the transcription job ` + id + ` still exists.*no such endpoint.*Check base_url`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: wrong + jobDataSourceConfig("elsewhere", fmt.Sprintf("id = %q", id)), ExpectError: unconfirmed},
			{Config: wrong + jobDataSourceConfig("elsewhere", fmt.Sprintf("id = %q\nwait_for_completion = true", id)), ExpectError: unconfirmed},
			{
				Config:      wrong + acctest.JobConfig("elsewhere", `audio_url = "https://example.com/elsewhere.wav"`) + fmt.Sprintf("import {\n  to = transcription_job.elsewhere\n  id = %q\n}\n", id),
				PlanOnly:    true,
				ExpectError: unconfirmed,
			},
		},
	})
}

// TestAccJob_liveSessionID: the id of a live session, given to an import of
// transcription_job or to its data source, is named as a live session's,
// where the error could only suggest it might be one.
func TestAccJob_liveSessionID(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	live := bareLiveJobFixture(time.Now().Add(-time.Minute))
	fs.AddLiveJob(live)
	want := acctest.ExpectError(`(?s)"` + live.ID + `" is the id of a live session \(created .*queued\), not of a pre-recorded job.*transcription_live_jobs data source lists live sessions`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:        acctest.ProviderConfig(url) + acctest.JobConfig("imported", `audio_url = "https://example.com/a.wav"`),
				ResourceName:  "transcription_job.imported",
				ImportState:   true,
				ImportStateId: live.ID,
				ExpectError:   want,
			},
			{
				Config:      acctest.ProviderConfig(url) + jobDataSourceConfig("live", fmt.Sprintf("id = %q", live.ID)),
				PlanOnly:    true,
				ExpectError: want,
			},
		},
	})
}
