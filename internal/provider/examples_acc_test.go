package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-version"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// examplesRoot is the examples folder, from this package's folder.
const examplesRoot = "../../examples"

// exampleEnv is what one example's run has at hand: its fake server, a
// callback receiver, the files and jobs made for it before the apply.
type exampleEnv struct {
	t        *testing.T
	fs       *fakeserver.Server
	url      string
	hooks    *callbackReceiver
	hooksURL string
	// preexisting are jobs created on the service before the apply, as an
	// application outside Terraform would.
	preexisting []string
	// wavs are the recordings generated for the example, by file name.
	wavs map[string][]byte
}

// exampleCase says how to apply one example directory and what must be
// true once it is applied.
type exampleCase struct {
	zeroDataRetention bool
	liveJobs          int
	// vars prepares what the example needs (files, jobs created elsewhere)
	// and returns its input variables.
	vars func(env *exampleEnv) config.Variables
	// jobs and uploads are the number the apply must create on the service.
	jobs, uploads int
	// unmanagedJobs are jobs the apply creates that no resource manages (an
	// action's), which destroy leaves on the service.
	unmanagedJobs int
	// readsOnly is set when the example only reads the jobs made before it
	// (env.preexisting), which destroy leaves on the service.
	readsOnly bool
	// runBy names the test that runs the example instead of an apply here:
	// a query (terraform query, which applies nothing), or a module's own
	// tests (terraform test).
	runBy string
	// currentTerraform marks examples of features of Terraform 1.14
	// (actions), skipped on older engines and on OpenTofu.
	currentTerraform bool
	// identityImport marks examples importing by resource identity
	// (Terraform 1.12, OpenTofu 1.12), skipped on older engines.
	identityImport bool
	// outputs must be known and not empty (strings, lists, maps).
	outputs []string
	// checks are further state checks.
	checks func(env *exampleEnv) []statecheck.StateCheck
	// check is a further check of the service after the apply.
	check func(env *exampleEnv, s *tfjson.State) error
	// thenVars, when set, makes a second apply with these variables, which
	// must leave no transcription resource in state. The for_each examples
	// need it: terraform-plugin-testing cannot read string-keyed instances
	// back from state before its final destroy.
	thenVars func(env *exampleEnv) config.Variables
	// importAddr, when set, adds a `terraform import` step of that resource
	// (what import.sh shows), verifying the imported state but for
	// importIgnore.
	importAddr   string
	importIgnore []string
}

// exampleCases holds every example directory, relative to examples/.
// TestAccExamples fails when a directory has no entry here.
var exampleCases = map[string]exampleCase{
	"provider": {
		liveJobs: 80,
		outputs:  []string{"failed_live_sessions"},
		checks: func(env *exampleEnv) []statecheck.StateCheck {
			want := liveIDs(env, client.ListLiveOptions{Status: []string{"error"}}, 5)
			return []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("failed_live_sessions", acctest.StringList(want))}
		},
	},
	"resources/transcription_job": {
		jobs:       1,
		outputs:    []string{"standup_transcript"},
		importAddr: "transcription_job.standup",
		// A provider-side setting is not part of the job: import gives it
		// its default, without the transcript it keeps.
		importIgnore: []string{"include_transcript", "result.transcription.full_transcript", "result.transcription.utterances"},
		check: func(env *exampleEnv, s *tfjson.State) error {
			return expectCreateBody(env, 0, `{"audio_url":"https://media.example.com/standup-2024-05-02.wav"}`)
		},
	},
	"resources/transcription_job/subtitles-diarization": {
		jobs:    1,
		outputs: []string{"episode_srt", "episode_vtt", "dialogue"},
		checks: func(*exampleEnv) []statecheck.StateCheck {
			return []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("episode_srt", acctest.StringMatching(`^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n`)),
				statecheck.ExpectKnownOutputValue("episode_vtt", acctest.StringContaining("WEBVTT")),
				statecheck.ExpectKnownOutputValue("dialogue", acctest.StringContaining("Speaker 1: ")),
			}
		},
		check: func(env *exampleEnv, s *tfjson.State) error {
			return expectCreateBody(env, 0, `{"audio_url":"https://media.example.com/podcast/episode-42.wav",
				"language_config":{"languages":["en"]},
				"subtitles":true,"subtitles_config":{"formats":["srt","vtt"],"maximum_characters_per_row":42,"maximum_rows_per_caption":2,"maximum_duration":6},
				"diarization":true,"diarization_config":{"number_of_speakers":2}}`)
		},
	},
	"resources/transcription_job/translation-summary": {
		jobs:    1,
		outputs: []string{"keynote_summary", "keynote_translations"},
		checks: func(*exampleEnv) []statecheck.StateCheck {
			return []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("keynote_translations", knownvalue.MapExact(map[string]knownvalue.Check{
					"fr": acctest.NonEmptyString(), "de": acctest.NonEmptyString(),
				})),
			}
		},
	},
	"resources/transcription_job/callbacks-zero-data-retention": {
		zeroDataRetention: true,
		vars: func(env *exampleEnv) config.Variables {
			return config.Variables{
				"recording_url": config.StringVariable("https://storage.example.com/calls/call-0142.wav?X-Signature=3b1f9c"),
				"callback_url":  config.StringVariable(env.hooksURL + "/transcripts"),
			}
		},
		jobs:    1,
		outputs: []string{"support_call_job_id"},
		check: func(env *exampleEnv, s *tfjson.State) error {
			id, _ := s.Values.Outputs["support_call_job_id"].Value.(string)
			var got []receivedCallback
			if err := acctest.Eventually(10*time.Second, func() bool {
				env.fs.SettleJobs()
				got = env.hooks.all()
				return len(got) > 0
			}); err != nil {
				return fmt.Errorf("no callback arrived: %w", err)
			}
			cb := got[0]
			if len(got) != 1 || cb.method != http.MethodPut || cb.path != "/transcripts" || cb.body.ID != id ||
				cb.body.Event != client.EventTranscriptionSuccess || cb.body.Payload == nil || cb.body.CustomMetadata["ticket"] != "SUP-4711" {
				return fmt.Errorf("callbacks received: %+v; want one PUT /transcripts %q for job %s with ticket SUP-4711", got, client.EventTranscriptionSuccess, id)
			}
			for _, r := range env.fs.Requests() {
				if r.Method == http.MethodGet {
					return fmt.Errorf("the provider called GET %s under zero data retention", r.Path)
				}
			}
			if n := env.fs.JobCount(); n != 0 {
				return fmt.Errorf("the service still holds %d jobs after delivering the result, want none under zero data retention", n)
			}
			return nil
		},
	},
	"resources/transcription_job/upload": {
		vars: func(env *exampleEnv) config.Variables {
			dir := env.t.TempDir()
			env.writeWAV(filepath.Join(dir, "board-meeting.wav"), 7, 1)
			env.writeWAV(filepath.Join(dir, "customer-call.wav"), 11, 2)
			// Not a WAV file: the example's fileset leaves it out.
			writeFile(env.t, filepath.Join(dir, "notes.txt"), []byte("agenda"))
			return config.Variables{"recordings_dir": config.StringVariable(dir)}
		},
		// The recordings removed from the folder: their jobs are destroyed.
		thenVars: func(env *exampleEnv) config.Variables {
			return config.Variables{"recordings_dir": config.StringVariable(env.t.TempDir())}
		},
		jobs:    2,
		uploads: 2,
		outputs: []string{"transcripts"},
		checks: func(*exampleEnv) []statecheck.StateCheck {
			return []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("transcripts", knownvalue.MapExact(map[string]knownvalue.Check{
					"board-meeting.wav": acctest.NonEmptyString(), "customer-call.wav": acctest.NonEmptyString(),
				})),
				statecheck.ExpectKnownValue(`transcription_job.recording["customer-call.wav"]`,
					tfjsonpath.New("file").AtMapKey("number_of_channels"), knownvalue.Int64Exact(2)),
				statecheck.ExpectKnownValue(`transcription_job.recording["board-meeting.wav"]`,
					tfjsonpath.New("file").AtMapKey("audio_duration"), knownvalue.Float64Exact(7)),
			}
		},
	},
	"resources/transcription_job/import": {
		vars: func(env *exampleEnv) config.Variables {
			id := env.createJob(`{"audio_url":"https://media.example.com/calls/call-0142.wav",
				"language_config":{"languages":["en"]},"sentiment_analysis":true,"custom_metadata":{"queue":"billing"}}`)
			return config.Variables{"job_id": config.StringVariable(id)}
		},
		checks: func(env *exampleEnv) []statecheck.StateCheck {
			return []statecheck.StateCheck{
				statecheck.ExpectKnownValue("transcription_job.support_call", tfjsonpath.New("id"), knownvalue.StringExact(env.preexisting[0])),
				statecheck.ExpectKnownValue("transcription_job.support_call", tfjsonpath.New("status"), knownvalue.StringExact("done")),
				statecheck.ExpectKnownValue("transcription_job.support_call", tfjsonpath.New("result").AtMapKey("sentiment_analysis").AtMapKey("success"), knownvalue.Bool(true)),
			}
		},
	},
	"resources/transcription_job/import-identity": {
		identityImport: true,
		vars: func(env *exampleEnv) config.Variables {
			id := env.createJob(`{"audio_url":"https://media.example.com/meetings/board-2025-03.wav","summarization":true}`)
			return config.Variables{"job_id": config.StringVariable(id)}
		},
		checks: func(env *exampleEnv) []statecheck.StateCheck {
			return []statecheck.StateCheck{
				statecheck.ExpectKnownValue("transcription_job.board_meeting", tfjsonpath.New("id"), knownvalue.StringExact(env.preexisting[0])),
				statecheck.ExpectIdentity("transcription_job.board_meeting", map[string]knownvalue.Check{"id": knownvalue.StringExact(env.preexisting[0])}),
			}
		},
	},
	"list-resources/transcription_job": {runBy: "TestAccJobList_generateConfig"},
	"testing":                          {runBy: "TestAccExampleTesting"},
	"actions/transcription_transcribe": {
		currentTerraform: true,
		vars: func(env *exampleEnv) config.Variables {
			path := filepath.Join(env.t.TempDir(), "standup.wav")
			env.writeWAV(path, 6, 1)
			return config.Variables{"recording": config.StringVariable(path)}
		},
		jobs:          1,
		unmanagedJobs: 1,
		uploads:       1,
		check: func(env *exampleEnv, s *tfjson.State) error {
			// The action transcribed the upload, as configured.
			var uploaded string
			for _, r := range s.Values.RootModule.Resources {
				if r.Address == "transcription_upload.standup" {
					uploaded, _ = r.AttributeValues["audio_url"].(string)
				}
			}
			return expectCreateBody(env, 0, `{"audio_url": "`+uploaded+`", "summarization": true,
			  "language_config": {"languages": ["en"]}, "custom_metadata": {"source": "standup"}}`)
		},
	},
	"resources/transcription_upload": {
		vars: func(env *exampleEnv) config.Variables {
			path := filepath.Join(env.t.TempDir(), "weekly-sync.wav")
			env.writeWAV(path, 9.5, 1)
			return config.Variables{"recording": config.StringVariable(path)}
		},
		jobs:    1,
		uploads: 1,
		outputs: []string{"meeting_duration_seconds", "meeting_transcript"},
		checks: func(*exampleEnv) []statecheck.StateCheck {
			return []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("meeting_duration_seconds", knownvalue.Float64Exact(9.5)),
				statecheck.ExpectKnownValue("transcription_upload.meeting", tfjsonpath.New("audio_metadata").AtMapKey("filename"), knownvalue.StringExact("weekly-sync.wav")),
			}
		},
	},
	"data-sources/transcription_job": {
		readsOnly: true,
		vars: func(env *exampleEnv) config.Variables {
			id := env.createJob(`{"audio_url":"https://media.example.com/calls/call-0007.wav","summarization":true}`)
			return config.Variables{"call_job_id": config.StringVariable(id)}
		},
		outputs: []string{"call_status", "call_transcript"},
		checks: func(*exampleEnv) []statecheck.StateCheck {
			return []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("call_status", knownvalue.StringExact("done")),
				statecheck.ExpectKnownOutputValue("call_transcript", acctest.NonEmptyString()),
			}
		},
	},
	"data-sources/transcription_jobs": {
		readsOnly: true,
		vars: func(env *exampleEnv) config.Variables {
			env.createJob(`{"audio_url":"https://media.example.com/calls/call-0001.wav","summarization":true,"custom_metadata":{"team":"support"}}`)
			env.createJob(`{"audio_url":"https://media.example.com/calls/fail-422.wav","custom_metadata":{"team":"support"}}`)
			env.createJob(`{"audio_url":"https://media.example.com/calls/call-0002.wav","summarization":true,"custom_metadata":{"team":"sales"}}`)
			env.createJob(`{"audio_url":"https://media.example.com/calls/call-0003.wav","summarization":true,"custom_metadata":{"team":"support"}}`)
			return nil
		},
		outputs: []string{"failed_support_calls", "support_call_summaries"},
		checks: func(env *exampleEnv) []statecheck.StateCheck {
			support := [...]string{env.preexisting[0], env.preexisting[3]}
			return []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("failed_support_calls", knownvalue.ListExact([]knownvalue.Check{
					acctest.StringContaining("  " + env.preexisting[1] + "  error 422"),
				})),
				statecheck.ExpectKnownOutputValue("support_call_summaries", knownvalue.MapExact(map[string]knownvalue.Check{
					support[0]: acctest.NonEmptyString(), support[1]: acctest.NonEmptyString(),
				})),
			}
		},
	},
	"data-sources/transcription_live_jobs": {
		liveJobs: 120,
		outputs:  []string{"failed_prod_sessions"},
		checks: func(env *exampleEnv) []statecheck.StateCheck {
			failed := liveIDs(env, client.ListLiveOptions{Status: []string{"error"}, CustomMetadata: map[string]string{"env": "prod"}}, 20)
			today := time.Now().UTC().Format(time.DateOnly)
			counts := map[string]knownvalue.Check{}
			for _, status := range []string{"queued", "processing", "done", "error"} {
				n := len(liveIDs(env, client.ListLiveOptions{Date: today, Status: []string{status}}, 0))
				counts[status] = knownvalue.Int64Exact(int64(n))
			}
			return []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("failed_prod_sessions", knownvalue.ListSizeExact(len(failed))),
				statecheck.ExpectKnownOutputValue("sessions_today_by_status", knownvalue.ObjectExact(counts)),
			}
		},
	},
	"demo": {
		liveJobs: 30,
		vars: func(env *exampleEnv) config.Variables {
			path := filepath.Join(env.t.TempDir(), "interview.wav")
			env.writeWAV(path, 20, 1)
			return config.Variables{"recording": config.StringVariable(path)}
		},
		jobs:    1,
		uploads: 1,
		outputs: []string{"recording", "transcript", "subtitles_srt", "summary", "live_jobs"},
		checks: func(*exampleEnv) []statecheck.StateCheck {
			return []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("recording", acctest.StringContaining("interview.wav: 20.0 s, 1 channel(s)")),
				statecheck.ExpectKnownOutputValue("live_jobs", acctest.StringContaining("live job")),
			}
		},
	},
}

// TestAccExamples applies every example directory, as a user would, against
// a fake server: the provider gets its address and key from the environment
// (TRANSCRIPTION_BASE_URL, TRANSCRIPTION_API_KEY) as the examples expect.
// It checks what each created on the service, its outputs, that the next
// plan is empty, and that destroy removes its jobs.
func TestAccExamples(t *testing.T) {
	dirs := exampleDirs(t)
	for _, dir := range dirs {
		if _, ok := exampleCases[dir]; !ok {
			t.Errorf("examples/%s has no entry in exampleCases: every example must be exercised", dir)
		}
	}
	for dir := range exampleCases {
		if !slices.Contains(dirs, dir) {
			t.Errorf("exampleCases names examples/%s, which holds no .tf file", dir)
		}
	}
	for _, dir := range dirs {
		tc, ok := exampleCases[dir]
		if !ok {
			continue
		}
		t.Run(strings.ReplaceAll(dir, "/", "_"), func(t *testing.T) {
			testAccExample(t, dir, tc)
		})
	}
}

func testAccExample(t *testing.T, dir string, tc exampleCase) {
	if tc.runBy != "" {
		t.Skipf("not applied here: %s runs it", tc.runBy)
	}
	path := filepath.Join(examplesRoot, dir)
	// The test copies the folder as it is: a state left there by a run in
	// the example itself would be the test's, and fail it obscurely.
	if left, _ := filepath.Glob(filepath.Join(path, "*.tfstate*")); len(left) > 0 {
		t.Fatalf("examples/%s holds %s, left by a terraform run in the example folder: remove it (terraform destroy there first if it holds jobs), and run examples from a copy", dir, filepath.Base(left[0]))
	}
	fake, url := acctest.FakeServer(t, fakeserver.Options{
		ProcessingTime:    testAccProcessingTime,
		ZeroDataRetention: tc.zeroDataRetention,
		LiveJobs:          tc.liveJobs,
		// The seeded live sessions held still: the checks count them, and a
		// slow run would otherwise see some move on between the apply and
		// the plan after it.
		LiveClock: fakeserver.NewManualClock(time.Now()),
	})
	t.Setenv(EnvBaseURL, url)
	t.Setenv(EnvAPIKey, acctest.APIKey)
	// Every example is a complete root module, as the docs say: it names
	// the provider by its registry address (without, Terraform looks for
	// hashicorp/transcription), under which it gets the in-process provider.
	if !declaresSource(t, path) {
		t.Errorf("%s has no terraform block naming the provider's source, transcription-service/transcription", dir)
	}
	t.Setenv(resource.EnvTfAccProviderNamespace, "transcription-service")
	env := &exampleEnv{t: t, fs: fake, url: url, wavs: map[string][]byte{}}
	env.hooks, env.hooksURL = newCallbackReceiver(t)
	var vars config.Variables
	if tc.vars != nil {
		vars = tc.vars(env)
	}
	before := fake.Stats().JobsCreated

	var checks []statecheck.StateCheck
	for _, name := range tc.outputs {
		checks = append(checks, statecheck.ExpectKnownOutputValue(name, notEmpty{}))
	}
	if tc.checks != nil {
		checks = append(checks, tc.checks(env)...)
	}
	checks = append(checks, stateCheckFunc(func(s *tfjson.State) error {
		if n := fake.Stats().JobsCreated - before; n != tc.jobs {
			return fmt.Errorf("the apply created %d jobs on the service, want %d", n, tc.jobs)
		}
		if n := len(uploadRequests(fake)); n != tc.uploads {
			return fmt.Errorf("the apply made %d uploads, want %d", n, tc.uploads)
		}
		if err := expectJobsInState(env, s, tc.zeroDataRetention); err != nil {
			return err
		}
		if tc.check != nil {
			return tc.check(env, s)
		}
		return nil
	}))
	// The factories go in each step: the examples that declare a provider
	// block count as declaring their providers.
	steps := []resource.TestStep{{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		ConfigDirectory:          config.StaticDirectory(path),
		ConfigVariables:          vars,
		ConfigStateChecks:        checks,
	}}
	if tc.thenVars != nil {
		steps = append(steps, resource.TestStep{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			ConfigDirectory:          config.StaticDirectory(path),
			ConfigVariables:          tc.thenVars(env),
			ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(s *tfjson.State) error {
				if s.Values != nil && s.Values.RootModule != nil && len(s.Values.RootModule.Resources) > 0 {
					return fmt.Errorf("%d resources left in state, want none", len(s.Values.RootModule.Resources))
				}
				if n := fake.JobCount(); n != 0 {
					return fmt.Errorf("the service still holds %d jobs, want none", n)
				}
				return nil
			})},
		})
	}
	if tc.importAddr != "" {
		steps = append(steps, resource.TestStep{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			ConfigDirectory:          config.StaticDirectory(path),
			ConfigVariables:          vars,
			ResourceName:             tc.importAddr,
			ImportState:              true,
			ImportStateVerify:        true,
			ImportStateVerifyIgnore:  tc.importIgnore,
		})
	}
	var versionChecks []tfversion.TerraformVersionCheck
	switch {
	case tc.currentTerraform:
		versionChecks = currentTerraformOnly
	case tc.identityImport:
		versionChecks = identityImportEngines
	}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks: versionChecks,
		Steps:                  steps,
		CheckDestroy: func(*terraform.State) error {
			if tc.zeroDataRetention {
				return nil // the service dropped the jobs; checked after the apply
			}
			// Destroy deletes every job it manages, imported ones included;
			// a job only read by a data source stays.
			want := tc.unmanagedJobs
			if tc.readsOnly {
				want = len(env.preexisting)
			}
			if n := fake.JobCount(); n != want {
				return fmt.Errorf("the service still holds %d jobs after destroy, want %d", n, want)
			}
			return nil
		},
	})
}

// exampleDirs lists the folders under examples/ that hold .tf files,
// relative to examples/, sorted.
func exampleDirs(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir(examplesRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".terraform" || strings.HasPrefix(d.Name(), ".")) && path != examplesRoot {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".tf") {
			rel, err := filepath.Rel(examplesRoot, filepath.Dir(path))
			if err != nil {
				return err
			}
			seen[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for d := range seen {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	return dirs
}

// declaresSource reports whether the .tf files of dir require the provider
// by its registry address.
// providerSource is the line of a required_providers entry that names the
// provider's registry address.
var providerSource = regexp.MustCompile(`(?m)^\s*source\s*=\s*"transcription-service/transcription"`)

func declaresSource(t *testing.T, dir string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if providerSource.Match(data) {
			return true
		}
	}
	return false
}

// writeWAV writes a 16 kHz PCM WAV recording for an example.
func (env *exampleEnv) writeWAV(path string, seconds float64, channels int) {
	env.wavs[filepath.Base(path)] = writeTestWAV(env.t, path, seconds, channels, 16000, 220+float64(len(env.wavs))*110)
}

// createJob creates a job on the service outside Terraform, as an
// application would, waits until it ends (done, or error for an audio_url
// the fake server fails) and returns its id.
func (env *exampleEnv) createJob(body string) string {
	env.t.Helper()
	var req client.InitTranscriptionRequest
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		env.t.Fatalf("job body %s: %v", body, err)
	}
	c, err := client.New(client.Config{BaseURL: env.url, APIKey: acctest.APIKey})
	if err != nil {
		env.t.Fatal(err)
	}
	created, err := c.CreatePreRecorded(context.Background(), &req)
	if err != nil {
		env.t.Fatalf("creating a job: %v", err)
	}
	if err := acctest.Eventually(10*time.Second, func() bool {
		env.fs.SettleJobs()
		job, ok := env.fs.Job(created.ID)
		return ok && client.IsFinal(job.Status)
	}); err != nil {
		env.t.Fatalf("job %s did not end: %v", created.ID, err)
	}
	env.preexisting = append(env.preexisting, created.ID)
	return created.ID
}

// expectJobsInState checks that every job in state exists on the service
// (except under zero data retention, where the service keeps nothing).
func expectJobsInState(env *exampleEnv, s *tfjson.State, zdr bool) error {
	if zdr || s.Values == nil || s.Values.RootModule == nil {
		return nil
	}
	for _, r := range s.Values.RootModule.Resources {
		if r.Type != "transcription_job" || r.Mode != tfjson.ManagedResourceMode {
			continue
		}
		id, _ := r.AttributeValues["id"].(string)
		if _, ok := env.fs.Job(id); !ok {
			return fmt.Errorf("%s: job %q is not on the service", r.Address, id)
		}
	}
	return nil
}

// stateCheckFunc is a state check written as a function.
type stateCheckFunc func(*tfjson.State) error

func (f stateCheckFunc) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = f(req.State)
}

// expectCreateBody compares the i-th create body the service received with
// want, as JSON values.
func expectCreateBody(env *exampleEnv, i int, want string) error {
	bodies := env.fs.CreateBodies()
	if i >= len(bodies) {
		return fmt.Errorf("the service received %d creates, want at least %d", len(bodies), i+1)
	}
	if g, e := acctest.CompactJSON(string(bodies[i])), acctest.CompactJSON(want); g != e {
		return fmt.Errorf("create body:\n got %s\nwant %s", g, e)
	}
	return nil
}

// liveIDs lists live job ids from the service as the data source would
// (max 0: all of them).
func liveIDs(env *exampleEnv, opts client.ListLiveOptions, maxItems int) []string {
	env.t.Helper()
	c, err := client.New(client.Config{BaseURL: env.url, APIKey: acctest.APIKey})
	if err != nil {
		env.t.Fatal(err)
	}
	items, _, err := c.ListAllLive(env.t.Context(), opts, maxItems, 0)
	if err != nil {
		env.t.Fatal(err)
	}
	ids := make([]string, len(items))
	for i, j := range items {
		ids[i] = j.ID
	}
	if len(ids) == 0 && maxItems > 0 {
		env.t.Fatalf("the seeded service has no live job matching %+v: the check would be vacuous", opts)
	}
	return ids
}

// notEmpty accepts a known value that is not null, not an empty or blank
// string, and not an empty list, map or object; a number must be above 0.
type notEmpty struct{}

func (notEmpty) CheckValue(v any) error {
	switch v := v.(type) {
	case nil:
		return errors.New("null")
	case string:
		if strings.TrimSpace(v) == "" {
			return errors.New("empty string")
		}
	case []any:
		if len(v) == 0 {
			return errors.New("empty list")
		}
	case map[string]any:
		if len(v) == 0 {
			return errors.New("empty map")
		}
	case json.Number:
		f, err := v.Float64()
		if err != nil || f <= 0 || math.IsNaN(f) {
			return fmt.Errorf("number %s is not above 0", v)
		}
	}
	return nil
}

func (notEmpty) String() string { return "not empty" }

// TestAccExampleTesting runs the module of examples/testing through its own
// tests, with `terraform test` (`tofu test`) as the provider's docs show: the
// mocked tests, which must reach no service (each engine reads its own file
// of them), and those against a fake server, whose teardown deletes the jobs
// they made.
func TestAccExampleTesting(t *testing.T) {
	engine, v := engineVersion(t)
	// mock_provider came with Terraform 1.7 and OpenTofu 1.8.
	if minimum := map[string]string{"Terraform": "1.7.0", "OpenTofu": "1.8.0"}[engine]; minimum == "" ||
		v.Core().LessThan(version.Must(version.NewVersion(minimum))) {
		t.Skipf("mock_provider needs Terraform 1.7 or OpenTofu 1.8; this engine is %s %s", engine, v)
	}
	fake, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	w := newCLIWorkspace(t, "")
	if err := os.Remove(filepath.Join(w.dir, "main.tf")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(w.dir, os.DirFS(filepath.Join(examplesRoot, "testing"))); err != nil {
		t.Fatal(err)
	}

	stdout, stderr, err := w.run([]string{EnvBaseURL + "=" + url, EnvAPIKey + "=" + acctest.APIKey}, "test", "-no-color")
	output := stdout + stderr
	if err != nil {
		t.Fatalf("%s test: %v\n%s", engine, err, output)
	}
	mocked := "tests/mocked.tftest.hcl"
	if engine == "OpenTofu" {
		mocked = "tests/mocked.tofutest.hcl"
	}
	for _, want := range []string{mocked + "... pass", "tests/fake_server.tftest.hcl... pass", "Success! 2 passed, 0 failed."} {
		if !strings.Contains(output, want) {
			t.Errorf("%s test printed no %q:\n%s", engine, want, output)
		}
	}
	// The two recordings of fake_server.tftest.hcl; a mocked job reaching
	// the service would be a third.
	if n := fake.Stats().JobsCreated; n != 2 {
		t.Errorf("the tests created %d jobs on the fake server, want 2", n)
	}
	if n := fake.JobCount(); n != 0 {
		t.Errorf("the fake server still holds %d jobs after the tests' teardown, want none", n)
	}
}
