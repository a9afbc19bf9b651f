package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
	"github.com/transcription-service/terraform-provider-transcription/internal/wav"
)

// ---------------------------------------------------------------------------
// Unit tests.

func TestUploadResourceSchema_valid(t *testing.T) {
	s := resourceSchema(t, NewUploadResource())
	if got, want := s.Attributes["audio_metadata"].GetType(), (types.ObjectType{AttrTypes: uploadMetadataAttrTypes}); !got.Equal(want) {
		t.Errorf("audio_metadata type %s, want %s", got, want)
	}
}

func TestFileSHA256(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "abc.txt")
	if err := os.WriteFile(name, []byte("abc"), 0o600); err != nil {
		t.Fatal(err)
	}
	// FIPS 180-2's example digest of "abc".
	if got, size, err := fileSHA256(context.Background(), name); err != nil || got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" || size != 3 {
		t.Errorf("fileSHA256(abc) = %q, %d, %v", got, size, err)
	}

	// Larger than any read buffer: the digest is of the whole stream.
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16)
	if err := os.WriteFile(name, big, 0o600); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(big)
	if got, size, err := fileSHA256(context.Background(), name); err != nil || got != hex.EncodeToString(want[:]) || size != int64(len(big)) {
		t.Errorf("fileSHA256(1 MiB) = %q, %d, %v", got, size, err)
	}

	missing := filepath.Join(dir, "absent.wav")
	if _, _, err := fileSHA256(context.Background(), missing); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
	if _, _, err := fileSHA256(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	// A regular file that cannot be read (Linux answers EIO at offset 0 of
	// /proc/self/mem) is an error naming it, not an empty file.
	if _, err := os.Stat("/proc/self/mem"); err == nil {
		if sum, size, err := fileSHA256(context.Background(), "/proc/self/mem"); err == nil || !strings.Contains(err.Error(), "read /proc/self/mem: ") {
			t.Errorf("/proc/self/mem: %q, %d, %v; want a read error naming it", sum, size, err)
		}
	}
	// A device, which could be endless, is refused before it is read.
	if _, _, err := fileSHA256(context.Background(), os.DevNull); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("%s: %v, want it refused as not a regular file", os.DevNull, err)
	}
}

func TestVerifyingReader(t *testing.T) {
	name := filepath.Join(t.TempDir(), "a.wav")
	if err := os.WriteFile(name, []byte("planned content"), 0o600); err != nil {
		t.Fatal(err)
	}
	sum, _, err := fileSHA256(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}

	r, err := openVerified(name, sum, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(r); err != nil || string(got) != "planned content" {
		t.Errorf("unchanged file: %q, %v", got, err)
	}
	r.Close()

	if err := os.WriteFile(name, []byte("other content"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Closing it closes the file.
	if _, err := r.Read(make([]byte, 1)); !errors.Is(err, os.ErrClosed) {
		t.Errorf("read after Close: %v, want %v", err, os.ErrClosed)
	}

	r, err = openVerified(name, sum, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var changed *sourceChangedError
	if _, err := io.ReadAll(r); !errors.As(err, &changed) || changed.want != sum || changed.got == sum {
		t.Errorf("changed file: %v", err)
	}
}

func TestFlattenAudioMetadata(t *testing.T) {
	got := flattenAudioMetadata(client.AudioMetadata{ID: "f1", Filename: "a.wav", Extension: "wav", Size: 44, AudioDuration: 2.5, NumberOfChannels: 2})
	want := types.ObjectValueMust(uploadMetadataAttrTypes, map[string]attr.Value{
		"id":                 types.StringValue("f1"),
		"filename":           types.StringValue("a.wav"),
		"extension":          types.StringValue("wav"),
		"size":               types.Int64Value(44),
		"audio_duration":     types.Float64Value(2.5),
		"number_of_channels": types.Int64Value(2),
	})
	if !got.Equal(want) {
		t.Errorf("got %s, want %s", got, want)
	}
}

// ---------------------------------------------------------------------------
// Acceptance tests.

// writeTestWAV writes a 16-bit PCM WAV file of the given length (see
// makeTestWAV) and returns its bytes.
func writeTestWAV(t *testing.T, name string, seconds float64, channels, rate int, tone float64) []byte {
	t.Helper()
	data := makeTestWAV(seconds, channels, rate, tone)
	writeFile(t, name, data)
	return data
}

func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// makeTestWAV builds a 16-bit PCM WAV file of the given length holding a
// sine wave: tone sets its pitch, so that files of the same length differ.
func makeTestWAV(seconds float64, channels, rate int, tone float64) []byte {
	frames := int(seconds * float64(rate))
	dataLen := frames * channels * 2
	var b bytes.Buffer
	b.Grow(44 + dataLen)
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.Write(wav.Header(uint16(channels), uint32(rate), 16, uint32(dataLen)))
	for i := range frames {
		s := int16(8000 * math.Sin(2*math.Pi*tone*float64(i)/float64(rate)))
		for range channels {
			le(s)
		}
	}
	return b.Bytes()
}

func hexSHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// uploadConfig is one transcription_upload resource block.
func uploadConfig(name, source string) string {
	return fmt.Sprintf("resource \"transcription_upload\" %q {\n  source = %q\n}\n", name, source)
}

// uploadRequests returns the uploads the service received.
func uploadRequests(fs *fakeserver.Server) []fakeserver.RecordedRequest {
	var out []fakeserver.RecordedRequest
	for _, r := range fs.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v2/upload" {
			out = append(out, r)
		}
	}
	return out
}

// expectUploads checks how many uploads the service received so far.
func expectUploads(fs *fakeserver.Server, want int) tfresource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := len(uploadRequests(fs)); n != want {
			return fmt.Errorf("the service received %d uploads, want %d", n, want)
		}
		return nil
	}
}

// expectAudioServed checks that the service serves data at the upload's audio_url.
func expectAudioServed(addr string, data []byte) tfresource.TestCheckFunc {
	return tfresource.TestCheckResourceAttrWith(addr, "audio_url", func(audioURL string) error {
		req, err := http.NewRequest(http.MethodGet, audioURL, nil)
		if err != nil {
			return err
		}
		req.Header.Set(client.ServiceKeyHeader, acctest.APIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK || !bytes.Equal(got, data) {
			return fmt.Errorf("GET %s: status %d, %d bytes; want 200 with the %d bytes uploaded", audioURL, resp.StatusCode, len(got), len(data))
		}
		return nil
	})
}

// uploadedChecks are the state checks of an upload of data holding the
// given audio, and of the job transcribing it.
func uploadedChecks(uploadAddr, jobAddr, filename string, data []byte, seconds float64, channels int64) []statecheck.StateCheck {
	metadata := tfjsonpath.New("audio_metadata")
	file := tfjsonpath.New("file")
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("sha256"), knownvalue.StringExact(hexSHA256(data))),
		statecheck.ExpectKnownValue(uploadAddr, metadata.AtMapKey("filename"), knownvalue.StringExact(filename)),
		statecheck.ExpectKnownValue(uploadAddr, metadata.AtMapKey("extension"), knownvalue.StringExact("wav")),
		statecheck.ExpectKnownValue(uploadAddr, metadata.AtMapKey("size"), knownvalue.Int64Exact(int64(len(data)))),
		statecheck.ExpectKnownValue(uploadAddr, metadata.AtMapKey("audio_duration"), knownvalue.Float64Exact(seconds)),
		statecheck.ExpectKnownValue(uploadAddr, metadata.AtMapKey("number_of_channels"), knownvalue.Int64Exact(channels)),
		statecheck.ExpectKnownValue(uploadAddr, metadata.AtMapKey("id"), knownvalue.NotNull()),
		statecheck.CompareValuePairs(uploadAddr, tfjsonpath.New("id"), uploadAddr, metadata.AtMapKey("id"), compare.ValuesSame()),
		statecheck.CompareValuePairs(uploadAddr, tfjsonpath.New("audio_url"), jobAddr, tfjsonpath.New("audio_url"), compare.ValuesSame()),
		// The job transcribed the uploaded file: its duration and channels are the WAV's.
		statecheck.ExpectKnownValue(jobAddr, tfjsonpath.New("status"), knownvalue.StringExact(client.StatusDone)),
		statecheck.ExpectKnownValue(jobAddr, file.AtMapKey("audio_duration"), knownvalue.Float64Exact(seconds)),
		statecheck.ExpectKnownValue(jobAddr, file.AtMapKey("number_of_channels"), knownvalue.Int64Exact(channels)),
		statecheck.ExpectKnownValue(jobAddr, file.AtMapKey("filename"), knownvalue.StringExact(filename)),
	}
}

// TestAccUpload_transcribeUploadedWAV uploads a generated WAV, transcribes
// it, replaces both when the file changes, and moves the file without a new
// upload.
func TestAccUpload_transcribeUploadedWAV(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const uploadAddr, jobAddr = "transcription_upload.meeting", "transcription_job.meeting"
	dir := t.TempDir()
	source := filepath.Join(dir, "meeting.wav")
	moved := filepath.Join(dir, "archive", "meeting.wav")
	first := writeTestWAV(t, source, 2.5, 2, 8000, 440)
	second := makeTestWAV(1.5, 1, 16000, 220)
	third := makeTestWAV(0.5, 1, 8000, 330)

	config := func(source string) string {
		return acctest.ProviderConfig(url) + uploadConfig("meeting", source) + acctest.JobConfig("meeting", `audio_url = transcription_upload.meeting.audio_url`)
	}
	var firstURL string
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{
			{
				Config: config(source),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(uploadAddr, plancheck.ResourceActionCreate),
					// The digest is known once uploaded.
					plancheck.ExpectUnknownValue(uploadAddr, tfjsonpath.New("sha256")),
				}},
				ConfigStateChecks: append(uploadedChecks(uploadAddr, jobAddr, "meeting.wav", first, 2.5, 2),
					statecheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("audio_url"), knownvalue.StringRegexp(regexp.MustCompile(`^`+regexp.QuoteMeta(url)+`/file/`)))),
				Check: tfresource.ComposeTestCheckFunc(
					expectUploads(fs, 1),
					expectAudioServed(uploadAddr, first),
					tfresource.TestCheckResourceAttrWith(uploadAddr, "audio_url", acctest.CaptureTo(&firstURL)),
					func(*terraform.State) error {
						// A multipart body whose field "audio" carries the file.
						r := uploadRequests(fs)[0]
						if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "multipart/form-data; boundary=") {
							return fmt.Errorf("upload Content-Type %q", ct)
						}
						if !bytes.Contains(r.Body, []byte(`Content-Disposition: form-data; name="audio"; filename="meeting.wav"`)) || !bytes.Contains(r.Body, first[:44]) {
							return fmt.Errorf("upload body lacks the audio part")
						}
						return nil
					},
				),
			},
			{
				// Another recording in the same file: both are replaced.
				PreConfig: func() { writeFile(t, source, second) },
				Config:    config(source),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(uploadAddr, plancheck.ResourceActionReplace),
					plancheck.ExpectUnknownValue(uploadAddr, tfjsonpath.New("sha256")),
					plancheck.ExpectUnknownValue(uploadAddr, tfjsonpath.New("audio_url")),
					plancheck.ExpectResourceAction(jobAddr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: uploadedChecks(uploadAddr, jobAddr, "meeting.wav", second, 1.5, 1),
				Check: tfresource.ComposeTestCheckFunc(
					expectUploads(fs, 2),
					expectAudioServed(uploadAddr, second),
					tfresource.TestCheckResourceAttrWith(uploadAddr, "audio_url", func(v string) error {
						if v == firstURL {
							return fmt.Errorf("audio_url did not change")
						}
						return nil
					}),
				),
			},
			{
				// The same file elsewhere: source changes in place, nothing is sent.
				PreConfig: func() { writeFile(t, moved, second) },
				Config:    config(moved),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(uploadAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("sha256"), knownvalue.StringExact(hexSHA256(second))),
					plancheck.ExpectResourceAction(jobAddr, plancheck.ResourceActionNoop),
				}},
				Check: expectUploads(fs, 2),
			},
			{
				// Edited between the plan and the apply (a saved plan, or a
				// wait at the prompt): the apply uploads the file as it is
				// then, with no "inconsistent final plan" error.
				PreConfig: func() { writeFile(t, moved, first) },
				Config:    config(moved),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(uploadAddr, plancheck.ResourceActionReplace),
					editFile{t: t, path: moved, data: third},
				}},
				ConfigStateChecks: uploadedChecks(uploadAddr, jobAddr, "meeting.wav", third, 0.5, 1),
				Check:             tfresource.ComposeTestCheckFunc(expectUploads(fs, 3), expectAudioServed(uploadAddr, third)),
			},
		},
		// Destroy only forgets the uploads: no request reaches the service for them.
		CheckDestroy: func(*terraform.State) error {
			for _, r := range fs.Requests() {
				if r.Method == http.MethodDelete && !strings.HasPrefix(r.Path, "/v2/pre-recorded/") {
					return fmt.Errorf("destroy sent DELETE %s", r.Path)
				}
			}
			return expectUploads(fs, 3)(nil)
		},
	})
}

// editFile is a plan check with a side effect: it writes data to path
// after the plan, before the apply, as a user editing the recording
// between the two would.
type editFile struct {
	t    *testing.T
	path string
	data []byte
}

func (e editFile) CheckPlan(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
	writeFile(e.t, e.path, e.data)
}

// TestAccUpload_unreadableSource: a missing file, a directory, an empty
// file and a new path naming no file fail the plan, naming the path; a file
// that vanished after its upload does not.
func TestAccUpload_unreadableSource(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	dir := t.TempDir()
	missing := filepath.Join(dir, "absent.wav")
	source := filepath.Join(dir, "call.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	empty := filepath.Join(dir, "empty.wav")
	writeFile(t, empty, nil)
	unreadable := func(path, reason string) *regexp.Regexp {
		return acctest.ExpectError(`(?s)Cannot read the file to upload .*` + regexp.QuoteMeta(fmt.Sprintf("%q", path)) + ` cannot be read: ` + reason)
	}
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{
			{
				Config:      acctest.ProviderConfig(url) + uploadConfig("call", missing),
				PlanOnly:    true,
				ExpectError: unreadable(missing, "no such file or directory"),
			},
			{
				Config:      acctest.ProviderConfig(url) + uploadConfig("call", dir),
				PlanOnly:    true,
				ExpectError: unreadable(dir, "is a directory"),
			},
			{
				// Only a shell expands ~: the error says how to.
				Config:      acctest.ProviderConfig(url) + uploadConfig("call", "~/absent-recording.wav"),
				PlanOnly:    true,
				ExpectError: acctest.ExpectError(`(?s)"~/absent-recording.wav" cannot be read: no such file or directory.*A path starting with ~ is not expanded: write pathexpand\("~/absent-recording.wav"\)`),
			},
			{
				// No bytes, no audio: refused at plan, not by the service.
				Config:      acctest.ProviderConfig(url) + uploadConfig("call", empty),
				PlanOnly:    true,
				ExpectError: acctest.ExpectError(`(?s)The file to upload is empty .*` + regexp.QuoteMeta(fmt.Sprintf("%q", empty)) + ` has no bytes`),
			},
			{
				Config: acctest.ProviderConfig(url) + uploadConfig("call", source),
				Check:  expectUploads(fs, 1),
			},
			{
				// Gone after its upload: the upload is kept, with a warning
				// (TestAccUpload_fileGoneAfterUpload), and nothing is planned.
				PreConfig: func() { os.Remove(source) },
				Config:    acctest.ProviderConfig(url) + uploadConfig("call", source),
				PlanOnly:  true,
			},
			{
				// A new path must name a file, even under the same name; the
				// error stops terraform destroy too, and says what does not.
				Config:   acctest.ProviderConfig(url) + uploadConfig("call", filepath.Join(dir, "moved", "call.wav")),
				PlanOnly: true,
				ExpectError: acctest.ExpectError(`(?s)` + regexp.QuoteMeta(fmt.Sprintf("%q", filepath.Join(dir, "moved", "call.wav"))) + ` cannot be read: no such file or directory` +
					`.*The upload made from ` + regexp.QuoteMeta(fmt.Sprintf("%q", source)) + ` stays.*give source its former value, or run terraform destroy -refresh=false`),
			},
		},
		// Destroying needs no file.
		CheckDestroy: expectUploads(fs, 1),
	})
}

// TestAccUpload_zeroDataRetention: under zero data retention a new upload
// is refused at plan time without a request; one already made stays, also
// when its file changes (with a warning), and can be destroyed.
func TestAccUpload_zeroDataRetention(t *testing.T) {
	dir := t.TempDir()
	source := filepath.Join(dir, "private.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	refused := acctest.ExpectError(`(?s)Uploads are disabled under zero data retention .*zero_data_retention = true.*external audio_url`)

	t.Run("create", func(t *testing.T) {
		fs, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: true})
		tfresource.ParallelTest(t, tfresource.TestCase{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []tfresource.TestStep{{
				Config:      acctest.ProviderConfig(url, "zero_data_retention = true") + uploadConfig("private", source),
				PlanOnly:    true,
				ExpectError: refused,
			}},
		})
		if n := len(fs.Requests()); n != 0 {
			t.Errorf("the refused plan sent %d requests to the service, want none", n)
		}
	})

	t.Run("existing", func(t *testing.T) {
		renamed := filepath.Join(dir, "renamed.wav")
		fs, url := acctest.FakeServer(t, fakeserver.Options{})
		zdr := acctest.ProviderConfig(url, "zero_data_retention = true") + uploadConfig("private", source)
		tfresource.ParallelTest(t, tfresource.TestCase{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []tfresource.TestStep{
				{Config: acctest.ProviderConfig(url) + uploadConfig("private", source)},
				{
					// Turning zero data retention on keeps what was uploaded.
					Config: zdr,
					ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectEmptyPlan(),
					}},
				},
				{
					// A new content cannot be uploaded: the upload stays as
					// it is, with a warning, and the plan does not fail, so
					// that terraform destroy, which plans the configuration
					// first, still works.
					PreConfig: func() { writeTestWAV(t, source, 0.5, 1, 8000, 880) },
					Config:    zdr,
					ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectEmptyPlan(),
					}},
				},
				{
					// Nor can a file renamed, which would otherwise replace
					// the upload (the service records the name): source
					// changes in place, with a warning, and the plan does
					// not fail, for the same reason.
					PreConfig: func() {
						if err := os.Rename(source, renamed); err != nil {
							t.Fatal(err)
						}
					},
					Config: acctest.ProviderConfig(url, "zero_data_retention = true") + uploadConfig("private", renamed),
					ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("transcription_upload.private", plancheck.ResourceActionUpdate),
					}},
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue("transcription_upload.private", tfjsonpath.New("source"), knownvalue.StringExact(renamed)),
						statecheck.ExpectKnownValue("transcription_upload.private", tfjsonpath.New("audio_metadata").AtMapKey("filename"), knownvalue.StringExact("private.wav")),
					},
				},
			},
			CheckDestroy: expectUploads(fs, 1),
		})
		if n := len(fs.Requests()); n != 1 {
			t.Errorf("the service received %d requests, want only the first upload", n)
		}
	})
}

// TestAccUpload_renamedUnderZeroDataRetention: a file renamed while zero
// data retention forbade a new upload keeps the name it was uploaded under
// (private state): once zero data retention is off, the plan uploads the
// file again under its new name, as the service records the name, where
// comparing with the renamed source in state planned nothing, for good.
func TestAccUpload_renamedUnderZeroDataRetention(t *testing.T) {
	dir := t.TempDir()
	source, renamed := filepath.Join(dir, "first.wav"), filepath.Join(dir, "second.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	const addr = "transcription_upload.private"
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{
			{Config: acctest.ProviderConfig(url) + uploadConfig("private", source)},
			{
				PreConfig: func() {
					if err := os.Rename(source, renamed); err != nil {
						t.Fatal(err)
					}
				},
				Config: acctest.ProviderConfig(url, "zero_data_retention = true") + uploadConfig("private", renamed),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				Config: acctest.ProviderConfig(url) + uploadConfig("private", renamed),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("audio_metadata").AtMapKey("filename"), knownvalue.StringExact("second.wav")),
				},
			},
			{
				// Uploaded under its name: nothing more to do.
				Config: acctest.ProviderConfig(url) + uploadConfig("private", renamed),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
		},
		CheckDestroy: expectUploads(fs, 2),
	})
}

// TestAccUpload_tooLarge: a file past the service's bound is answered 413,
// streamed all the same, and the service's message reaches the diagnostic.
func TestAccUpload_tooLarge(t *testing.T) {
	const limit = 4096
	fs, url := acctest.FakeServer(t, fakeserver.Options{MaxUploadBytes: limit})
	source := filepath.Join(t.TempDir(), "long.wav")
	data := writeTestWAV(t, source, 20, 2, 48000, 440) // 3.8 MB: the service stops reading long before the end
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{{
			Config:      acctest.ProviderConfig(url) + uploadConfig("long", source),
			ExpectError: acctest.ExpectError(fmt.Sprintf(`(?s)Cannot upload %s with transcription_upload.long.* source = .*status 413 \(Request Entity Too Large\): the audio file exceeds the upload limit of %d bytes.*The file is %d bytes, more than the service takes in one upload`, regexp.QuoteMeta(fmt.Sprintf("%q", source)), limit, len(data))),
		}},
	})
	ups := uploadRequests(fs)
	if len(ups) != 1 || ups[0].Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("uploads %+v, want one answered 413", ups)
	}
	if read := ups[0].BodyBytes; read == 0 || read >= len(data) {
		t.Errorf("the service read %d bytes of a %d-byte file, want it to stop past its bound", read, len(data))
	}
}

// A new upload of a file past the service's documented limit is warned of
// at plan, naming source; one at the limit is not.
func TestUploadPlan_largerThanTheDocumentedLimit(t *testing.T) {
	h := newProtoHarness(t, fakeserver.Options{})
	dir := t.TempDir()
	for _, tc := range []struct {
		size int64
		warn bool
	}{{documentedUploadLimit, false}, {documentedUploadLimit + 1, true}} {
		source := filepath.Join(dir, fmt.Sprintf("%d.wav", tc.size))
		f, err := os.Create(source)
		if err != nil {
			t.Fatal(err)
		}
		// Sparse: the plan of a new upload only reads the file's size.
		if err := f.Truncate(tc.size); err != nil {
			t.Fatal(err)
		}
		f.Close()
		u := newUploadBench(h, source)
		resp := u.planChange(uploadTypeName, &u.null, &u.config, &u.config)
		warned := slices.ContainsFunc(resp.Diagnostics, func(d *tfprotov6.Diagnostic) bool {
			return d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == "The file is larger than the service's documented upload limit" &&
				strings.Contains(d.Detail, fmt.Sprintf("%q is %d bytes", source, tc.size)) && d.Attribute.String() == "AttributeName(\"source\")"
		})
		if warned != tc.warn {
			t.Errorf("a %d-byte file: warned %t, want %t: %v", tc.size, warned, tc.warn, resp.Diagnostics)
		}
	}
	// A replacement is a new upload too: warned of in the plan the user
	// reviews, not only once the apply plans it again.
	u, made := madeUpload(t)
	head, err := os.ReadFile(u.source)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(u.source, head[:44], 0o600); err != nil { // the recording's WAV header
		t.Fatal(err)
	}
	if err := os.Truncate(u.source, documentedUploadLimit+1); err != nil {
		t.Fatal(err)
	}
	resp := u.planChange(uploadTypeName, made, &u.config, &u.config)
	if len(resp.RequiresReplace) == 0 || !hasWarning(resp.Diagnostics, "The file is larger than the service's documented upload limit", fmt.Sprintf("%q is %d bytes", u.source, documentedUploadLimit+1)) {
		t.Errorf("a replacement by a file past the limit: replaces %v, warnings %v; want it replaced, with the warning", resp.RequiresReplace, resp.Diagnostics)
	}
}

// A file whose bytes are no recording (text, a web page, an image, a
// document, an archive) is refused at plan, naming source and what it is,
// whether a new upload or a new content of one made; any bytes that may be
// audio or video (a FLAC stream no sniffing rule knows) are not.
func TestUploadPlan_notARecording(t *testing.T) {
	refused := map[string]string{
		"notes.wav": "a transcript, not audio\n",
		"page.mp3":  "<!DOCTYPE html><html><body>Moved</body></html>",
		"cover.m4a": "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 64),
	}
	write := func(t *testing.T, name, content string) {
		if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range refused {
		t.Run("new upload of "+name, func(t *testing.T) {
			source := filepath.Join(t.TempDir(), name)
			write(t, source, content)
			u := newUploadBench(newProtoHarness(t, fakeserver.Options{}), source)
			resp, err := u.server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
				TypeName: uploadTypeName, PriorState: &u.null, ProposedNewState: &u.config, Config: &u.config,
			})
			if err != nil {
				t.Fatal(err)
			}
			d := sourceError(t, resp.Diagnostics, "The file to upload is not a recording")
			if want := fmt.Sprintf("The content of %q is ", source); !strings.Contains(d.Detail, want) || !strings.Contains(d.Detail, "not audio or video") {
				t.Errorf("detail %q, want %q and the rule", d.Detail, want)
			}
		})
	}
	// The file of an upload made turned into no recording (a Git LFS
	// pointer checked out, say) keeps the upload as it is, with a warning,
	// as a file gone or emptied does: an error, or a replacement that
	// Terraform plans as a new upload, would stop terraform destroy, whose
	// first step plans the configuration. A new path to such a file is
	// refused, saying how to destroy the upload all the same.
	t.Run("new content of an upload made", func(t *testing.T) {
		u, made := madeUpload(t)
		write(t, u.source, refused["notes.wav"])
		resp := u.planChange(uploadTypeName, made, &u.config, &u.config)
		if len(resp.RequiresReplace) != 0 {
			t.Errorf("the upload is replaced (%v), want it kept", resp.RequiresReplace)
		}
		if !hasWarning(resp.Diagnostics, "The uploaded file no longer holds a recording", fmt.Sprintf("The file %q holds no recording any more: its content is text/plain", u.source)) {
			t.Errorf("no warning naming the file and what it holds: %v", resp.Diagnostics)
		}
		if !bytes.Equal(resp.PlannedState.MsgPack, made.MsgPack) {
			t.Error("the plan changes the upload made")
		}
	})
	t.Run("a new path to no recording", func(t *testing.T) {
		u, made := madeUpload(t)
		other := filepath.Join(filepath.Dir(u.source), "notes.wav")
		write(t, other, refused["notes.wav"])
		config := u.configOf(other)
		resp, err := u.server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
			TypeName: uploadTypeName, PriorState: made, ProposedNewState: &config, Config: &config,
		})
		if err != nil {
			t.Fatal(err)
		}
		d := sourceError(t, resp.Diagnostics, "The file to upload is not a recording")
		if !strings.Contains(d.Detail, "terraform destroy -refresh=false") {
			t.Errorf("detail %q does not say how to destroy the upload made", d.Detail)
		}
	})
	t.Run("a Git LFS pointer", func(t *testing.T) {
		source := filepath.Join(t.TempDir(), "take.wav")
		write(t, source, "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12345\n")
		u := newUploadBench(newProtoHarness(t, fakeserver.Options{}), source)
		resp, err := u.server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
			TypeName: uploadTypeName, PriorState: &u.null, ProposedNewState: &u.config, Config: &u.config,
		})
		if err != nil {
			t.Fatal(err)
		}
		if d := sourceError(t, resp.Diagnostics, "The file to upload is not a recording"); !strings.Contains(d.Detail, "Git LFS pointer") || !strings.Contains(d.Detail, "git lfs pull") {
			t.Errorf("detail %q does not say it is a Git LFS pointer, nor how to fetch the recording", d.Detail)
		}
	})
	t.Run("bytes no rule knows", func(t *testing.T) {
		source := filepath.Join(t.TempDir(), "take.flac")
		write(t, source, "fLaC\x00\x00\x00\x22"+strings.Repeat("\x10\x00", 200))
		u := newUploadBench(newProtoHarness(t, fakeserver.Options{}), source)
		u.applyChange(uploadTypeName, &u.null, u.planCreate(), &u.config)
	})
}

// throttledBody reads at most rate bytes per second of a request body.
type throttledBody struct {
	io.ReadCloser
	rate  float64
	start time.Time
	n     int64
}

func (b *throttledBody) Read(p []byte) (int, error) {
	if b.start.IsZero() {
		b.start = time.Now()
	}
	n, err := b.ReadCloser.Read(p[:min(len(p), 16<<10)])
	b.n += int64(n)
	time.Sleep(time.Until(b.start.Add(time.Duration(float64(b.n) / b.rate * float64(time.Second)))))
	return n, err
}

// TestAccUpload_timeouts: an upload is capped only by timeouts.create. Over
// a link slow enough for the upload to take about 2 s, a 1 s cap stops it
// with a diagnostic naming timeouts.create, and without a cap it finishes.
func TestAccUpload_timeouts(t *testing.T) {
	fs := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v2/upload" {
			r.Body = &throttledBody{ReadCloser: r.Body, rate: 800e3}
		}
		fs.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); fs.Close() })
	source := filepath.Join(t.TempDir(), "long.wav")
	data := writeTestWAV(t, source, 50, 1, 16000, 440) // 1.6 MB: 2 s at 800 kB/s
	capped := acctest.ProviderConfig(srv.URL) + fmt.Sprintf("resource \"transcription_upload\" \"long\" {\n  source = %q\n  timeouts = {\n    create = \"1s\"\n  }\n}\n", source)
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{
			{
				Config:      capped,
				ExpectError: acctest.ExpectError(`(?s)The upload did not finish in time .*` + regexp.QuoteMeta(fmt.Sprintf("%q (%d bytes)", source, len(data))) + ` was still going after 1s \(timeouts.create\)`),
			},
			{
				Config: acctest.ProviderConfig(srv.URL) + uploadConfig("long", source),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("transcription_upload.long", tfjsonpath.New("audio_metadata").AtMapKey("size"), knownvalue.Int64Exact(int64(len(data)))),
				},
			},
		},
	})
	ups := uploadRequests(fs)
	if len(ups) != 2 || ups[1].Status != http.StatusOK {
		t.Fatalf("uploads %+v, want one cut short and one answered 200", ups)
	}
}

// TestAccUpload_timeoutsWrittenAnotherWayPlanNothing: timeouts.create
// written another way ("60m" for "1h") plans no change and state keeps the
// applied form; a new duration is an update in place, with no new upload.
func TestAccUpload_timeoutsWrittenAnotherWayPlanNothing(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	source := filepath.Join(t.TempDir(), "limits.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	const addr = "transcription_upload.limits"
	withTimeout := func(create string) string {
		return acctest.ProviderConfig(url) + fmt.Sprintf("resource \"transcription_upload\" \"limits\" {\n  source = %q\n  timeouts = {\n    create = %q\n  }\n}\n", source, create)
	}
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{
			{Config: withTimeout("1h")},
			{
				Config: withTimeout("60m"),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: tfresource.TestCheckResourceAttr(addr, "timeouts.create", "1h"),
			},
			{
				Config: withTimeout("2h"),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: tfresource.TestCheckResourceAttr(addr, "timeouts.create", "2h"),
			},
		},
	})
	if ups := uploadRequests(fs); len(ups) != 1 {
		t.Fatalf("uploads %+v, want the first one only", ups)
	}
}

// Two paths name the same source file when they are one path written
// otherwise, or reach one file under the same name; a copy, another name
// of the file (a link), or a path to nothing are not.
func TestSameSourceFile(t *testing.T) {
	dir := t.TempDir()
	source := filepath.Join(dir, "call.wav")
	writeTestWAV(t, source, 0.2, 1, 8000, 440)
	linkedDir := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(dir, linkedDir); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "call.wav")
	writeTestWAV(t, other, 0.2, 1, 8000, 440)
	renamed := filepath.Join(dir, "renamed.wav")
	if err := os.Symlink(source, renamed); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	// dir/elsewhere links to a directory whose parent holds another
	// call.wav: dir/elsewhere/../call.wav reads as dir/call.wav, and is
	// the other file.
	otherParent := t.TempDir()
	writeTestWAV(t, filepath.Join(otherParent, "call.wav"), 0.3, 1, 8000, 440)
	if err := os.Mkdir(filepath.Join(otherParent, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(otherParent, "sub"), filepath.Join(dir, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(t.TempDir(), "gone.wav")
	t.Chdir(dir)
	for name, tc := range map[string]struct {
		path string
		want bool
	}{
		"itself":                              {source, true},
		"with ./":                             {filepath.Join(dir, ".") + "/./call.wav", true},
		"with a double slash":                 {dir + "//call.wav", true},
		"through ..":                          {filepath.Join(dir, "sub") + "/../call.wav", true},
		"through .. after a linked directory": {dir + "/elsewhere/../call.wav", false},
		"relative":                            {"call.wav", true},
		"relative with ./":                    {"./call.wav", true},
		"through a linked directory":          {filepath.Join(linkedDir, "call.wav"), true},
		"a copy":                              {other, false},
		"the file under another name":         {renamed, false},
		"a path to nothing, same name":        {filepath.Join(t.TempDir(), "call.wav"), false},
	} {
		if got := sameSourceFile(tc.path, source); got != tc.want {
			t.Errorf("%s: sameSourceFile(%q) = %t, want %t", name, tc.path, got, tc.want)
		}
	}
	// Neither readable: the path's text is all there is to compare.
	if !sameSourceFile(filepath.Dir(gone)+"/./gone.wav", gone) || sameSourceFile(filepath.Join(t.TempDir(), "gone.wav"), gone) {
		t.Error("paths to no file are not compared as absolute paths")
	}
}

// TestAccUpload_changedIntoNoRecording: an uploaded file changed into one
// that is no recording (a Git LFS pointer, say) keeps the upload made, as a
// file gone does, and does not stop terraform destroy, which plans the
// configuration first (an error, or a replacement, which Terraform plans
// as a new upload too, did).
func TestAccUpload_changedIntoNoRecording(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	source := filepath.Join(t.TempDir(), "call.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	config := acctest.ProviderConfig(url) + uploadConfig("call", source)
	pointer := func() {
		if err := os.WriteFile(source, []byte("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12345\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{
			{Config: config},
			// The upload made is kept, with a warning.
			{PreConfig: pointer, Config: config, PlanOnly: true},
			{Config: config, Destroy: true},
		},
	})
}

// TestAccUpload_samePathWrittenAnotherWayPlansNothing: source naming the
// uploaded file another way (./, a linked directory) plans no change, and
// state keeps the applied path; a copy of the file elsewhere is an update in
// place, with no new upload.
func TestAccUpload_samePathWrittenAnotherWayPlansNothing(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	dir := t.TempDir()
	source := filepath.Join(dir, "call.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	linkedDir := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(dir, linkedDir); err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(t.TempDir(), "call.wav")
	if data, err := os.ReadFile(source); err != nil || os.WriteFile(copied, data, 0o600) != nil {
		t.Fatal("cannot copy the recording", err)
	}
	const addr = "transcription_upload.call"
	noChange := func(path string) tfresource.TestStep {
		return tfresource.TestStep{
			Config: acctest.ProviderConfig(url) + uploadConfig("call", path),
			ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectEmptyPlan(),
			}},
			Check: tfresource.TestCheckResourceAttr(addr, "source", source),
		}
	}
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{
			{Config: acctest.ProviderConfig(url) + uploadConfig("call", source)},
			noChange(dir + "/./call.wav"),
			noChange(filepath.Join(linkedDir, "call.wav")),
			{
				Config: acctest.ProviderConfig(url) + uploadConfig("call", copied),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: tfresource.TestCheckResourceAttr(addr, "source", copied),
			},
		},
	})
	if ups := uploadRequests(fs); len(ups) != 1 {
		t.Fatalf("uploads %+v, want the first one only", ups)
	}
}

// An upload cannot be imported, and says why; destroying one says the file
// stays on the service.
func TestUpload_importRefusedAndDestroyExplained(t *testing.T) {
	ctx := context.Background()
	h := newProtoHarness(t, fakeserver.Options{})
	const typeName = uploadTypeName

	imported, err := h.server.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: typeName, ID: "file-1"})
	if err != nil {
		t.Fatal(err)
	}
	refused := slices.ContainsFunc(imported.Diagnostics, func(d *tfprotov6.Diagnostic) bool {
		return d.Severity == tfprotov6.DiagnosticSeverityError && d.Summary == "Uploads cannot be imported" &&
			strings.Contains(d.Detail, "no way to read an upload back") && strings.Contains(d.Detail, "Declare the transcription_upload with its source")
	})
	if !refused {
		t.Fatalf("import is not refused with its reason: %v", imported.Diagnostics)
	}

	source := filepath.Join(t.TempDir(), "note.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	u := newUploadBench(h, source)
	created := u.applyChange(typeName, &u.null, u.planCreate(), &u.config)
	destroyed := u.applyChange(typeName, created.NewState, &u.null, &u.null)
	var audioURL string
	if err := u.attribute(created.NewState, "audio_url").As(&audioURL); err != nil {
		t.Fatal(err)
	}
	warned := hasWarning(destroyed.Diagnostics, "The uploaded file is left to the service", fmt.Sprintf("the copy of %q at %s is only removed from Terraform's state", source, audioURL))
	if !warned {
		t.Fatalf("destroy does not say the file stays on the service: %v", destroyed.Diagnostics)
	}
	// Said at plan too, before the destroy or a replacement is approved.
	destroyPlan := u.planChange(typeName, created.NewState, &u.null, &u.null)
	if !hasWarning(destroyPlan.Diagnostics, "The uploaded file will be left to the service", fmt.Sprintf("the copy of %q at %s will be only removed from Terraform's state", source, audioURL)) {
		t.Errorf("the plan of a destroy does not say the file stays on the service: %v", destroyPlan.Diagnostics)
	}
	unchanged := u.planChange(typeName, created.NewState, created.NewState, &u.config)
	if len(unchanged.RequiresReplace) != 0 || hasWarning(unchanged.Diagnostics, "The uploaded file will be left to the service", "") {
		t.Errorf("an unchanged upload's plan (%v) warns of its replacement: %v", unchanged.RequiresReplace, unchanged.Diagnostics)
	}
	writeTestWAV(t, source, 0.5, 1, 8000, 880) // new content: a replacement
	replacePlan := u.planChange(typeName, created.NewState, created.NewState, &u.config)
	if len(replacePlan.RequiresReplace) == 0 || !hasWarning(replacePlan.Diagnostics, "The uploaded file will be left to the service", "") {
		t.Errorf("the plan of a replacement (%v) does not say the file stays on the service: %v", replacePlan.RequiresReplace, replacePlan.Diagnostics)
	}
}

// TestAccUpload_createBeforeDestroy: with create_before_destroy on the job
// (as the examples recommend), a changed recording is uploaded and
// transcribed before the old job is deleted.
func TestAccUpload_createBeforeDestroy(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const uploadAddr, jobAddr = "transcription_upload.talk", "transcription_job.talk"
	source := filepath.Join(t.TempDir(), "talk.wav")
	writeTestWAV(t, source, 1, 1, 8000, 440)
	second := makeTestWAV(2, 1, 8000, 220)
	config := acctest.ProviderConfig(url) + uploadConfig("talk", source) + acctest.JobConfig("talk", `audio_url = transcription_upload.talk.audio_url
lifecycle {
  create_before_destroy = true
}`)
	var firstJob string
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{
			{Config: config, Check: tfresource.TestCheckResourceAttrWith(jobAddr, "id", acctest.CaptureTo(&firstJob))},
			{
				PreConfig: func() { writeFile(t, source, second) },
				Config:    config,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(uploadAddr, plancheck.ResourceActionCreateBeforeDestroy),
					plancheck.ExpectResourceAction(jobAddr, plancheck.ResourceActionCreateBeforeDestroy),
				}},
				ConfigStateChecks: uploadedChecks(uploadAddr, jobAddr, "talk.wav", second, 2, 1),
				Check: func(*terraform.State) error {
					// The new job was created before the old one was deleted.
					created, deletedAt := -1, -1
					for i, r := range fs.Requests() {
						switch {
						case r.Method == http.MethodPost && r.Path == "/v2/pre-recorded":
							created = i
						case r.Method == http.MethodDelete && r.Path == "/v2/pre-recorded/"+firstJob:
							deletedAt = i
						}
					}
					if deletedAt < 0 || created > deletedAt {
						return fmt.Errorf("last create at request %d, old job deleted at %d: want the create first", created, deletedAt)
					}
					return nil
				},
			},
		},
	})
}

// TestAccUpload_fileGoneAfterUpload: once uploaded, the local file may go
// away, or be emptied. A plan warns, naming the path, and keeps the upload
// and the job transcribing it as they are; terraform destroy, whose first
// step plans the configuration (the pre-destroy refresh), deletes the job.
// terraform-plugin-testing destroys with -refresh=false, which skips that
// plan, so the real CLI runs it.
func TestAccUpload_fileGoneAfterUpload(t *testing.T) {
	for _, tc := range []struct {
		name   string
		remove func(path string) error
		reason string
	}{
		{"removed", os.Remove, "cannot be read: no such file or directory"},
		{"emptied", func(path string) error { return os.Truncate(path, 0) }, "has no bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
			source := filepath.Join(t.TempDir(), "call.wav")
			writeTestWAV(t, source, 0.5, 1, 8000, 440)
			w := newCLIWorkspace(t, acctest.ProviderConfig(url)+uploadConfig("call", source)+
				acctest.JobConfig("call", "audio_url = transcription_upload.call.audio_url"))
			if stdout, stderr, err := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
				t.Fatalf("apply: %v\n%s%s", err, stdout, stderr)
			}
			ids, _ := w.stateJobs()
			jobID := ids["transcription_job.call"]
			if err := tc.remove(source); err != nil {
				t.Fatal(err)
			}

			stdout, stderr, err := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color")
			if err != nil {
				t.Errorf("plan: %v (exit code 2: changes planned)\n%s%s", err, stdout, stderr)
			}
			if !acctest.ExpectError(`(?s)The uploaded file can no longer be read.*` + regexp.QuoteMeta(fmt.Sprintf("%q", source)) + " " + tc.reason).MatchString(stdout + stderr) {
				t.Errorf("the plan does not warn that the file is %s, naming it:\n%s%s", tc.name, stdout, stderr)
			}

			if stdout, stderr, err := w.run(nil, "destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
				t.Fatalf("destroy: %v\n%s%s", err, stdout, stderr)
			}
			if ids, _ := w.stateJobs(); len(ids) != 0 {
				t.Errorf("jobs left in state after destroy: %v", ids)
			}
			if !acctest.Deleted(fs, jobID) {
				t.Errorf("destroy did not delete job %s", jobID)
			}
		})
	}
}

// bytesReadByProcess is what this process has read so far (rchar in
// /proc/self/io, Linux): files, sockets and pipes alike.
func bytesReadByProcess(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skipf("needs /proc/self/io (Linux): %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			var n int64
			if _, err := fmt.Sscan(v, &n); err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no rchar in /proc/self/io")
	return 0
}

// TestUploadCreate_stopsHashingWhenInterrupted: the create of an upload
// hashes the file before sending it, which for a recording of several GB
// takes seconds; an interrupt (Ctrl-C) must stop it, where the whole file
// was read before the interrupt was noticed, by the upload that followed.
func TestUploadCreate_stopsHashingWhenInterrupted(t *testing.T) {
	const size = 256 << 20
	name := filepath.Join(t.TempDir(), "long-recording.wav")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil { // sparse: no disk needed
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	upload := newUploadUnderTest(c)
	ctx, interrupt := context.WithCancel(context.Background())
	interrupt()

	before := bytesReadByProcess(t)
	resp := upload.create(t, ctx, map[string]tftypes.Value{"source": frameworktest.String(name)})
	read := bytesReadByProcess(t) - before

	if read > size/4 {
		t.Errorf("the interrupted create read %d MiB of the %d MiB file", read>>20, size>>20)
	}
	if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "interrupted") {
		t.Errorf("diagnostics %v, want an error saying the upload was interrupted", resp.Diagnostics)
	}
	if !resp.State.Raw.IsNull() {
		t.Errorf("the interrupted create saved %v", resp.State.Raw)
	}
}

// TestUploadCreate_connectTimeoutIsNotTheCreateTimeout: a connection that
// cannot be opened in time fails with an error that is also a
// context.DeadlineExceeded (net's timeouts are), long before
// timeouts.create, set or not. It was reported as "did not finish in time
// … after 1h0m0s (timeouts.create)" when the setting was there, advising
// to raise a limit that had not been reached.
func TestUploadCreate_connectTimeoutIsNotTheCreateTimeout(t *testing.T) {
	source := filepath.Join(t.TempDir(), "note.wav")
	writeTestWAV(t, source, 0.1, 1, 8000, 440)
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	// A deadline already past when the dial starts: the dial fails with
	// net's timeout at once, as a connection to an unreachable host would
	// after the connect timeout.
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, ConnectTimeout: time.Nanosecond, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	upload := newUploadUnderTest(c)
	for _, create := range []any{nil, "1h"} {
		t.Run(fmt.Sprintf("timeouts.create=%v", create), func(t *testing.T) {
			got := upload.failedCreate(t, context.Background(), source, create)
			if strings.Contains(got.Summary()+got.Detail(), "timeouts.create") || !strings.Contains(got.Summary(), "Cannot upload") {
				t.Errorf("diagnostic %q: %q, want the connection's failure, not timeouts.create's", got.Summary(), got.Detail())
			}
			if !strings.Contains(got.Detail(), "i/o timeout") {
				t.Errorf("diagnostic detail %q does not say the connection timed out", got.Detail())
			}
		})
	}
}

// TestAccUpload_importRefusedInEveryForm: the CLI shows why an upload
// cannot be imported and what to do instead, whichever way the import is
// asked for (terraform import, an import block by id, with
// -generate-config-out, by identity), and nothing is uploaded again.
func TestAccUpload_importRefusedInEveryForm(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	source := filepath.Join(t.TempDir(), "note.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	const addr = "transcription_upload.note"
	refused := acctest.ExpectError(`(?s)Uploads cannot be imported.*Declare the transcription_upload with its source instead`)
	kinds := []tfresource.ImportStateKind{tfresource.ImportCommandWithID, tfresource.ImportBlockWithID}
	if identityImportSupported(t) {
		kinds = append(kinds, tfresource.ImportBlockWithResourceIdentity)
	}
	steps := []tfresource.TestStep{{Config: acctest.ProviderConfig(url) + uploadConfig("note", source), Check: expectUploads(fs, 1)}}
	for _, kind := range kinds {
		steps = append(steps, tfresource.TestStep{ResourceName: addr, ImportState: true, ImportStateKind: kind, ExpectError: refused})
		if kind != tfresource.ImportCommandWithID {
			steps = append(steps, tfresource.TestStep{Config: acctest.ProviderConfig(url), ResourceName: addr, ImportState: true, ImportStateKind: kind,
				GenerateConfig: true, ExpectError: refused})
		}
	}
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
		CheckDestroy:             expectUploads(fs, 1),
	})
}

// TestUploadCreate_interruptedInFlight: an upload interrupted (Ctrl-C) while
// its request is in flight may have reached the service all the same; the
// error says so and what follows, where it said only "context canceled".
func TestUploadCreate_interruptedInFlight(t *testing.T) {
	source := filepath.Join(t.TempDir(), "note.wav")
	writeTestWAV(t, source, 0.1, 1, 8000, 440)
	// The answer comes after the interrupt.
	_, url := acctest.FakeServer(t, fakeserver.Options{Faults: fakeserver.Faults{Latency: 2 * time.Second}})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	resp := newUploadUnderTest(c).create(t, ctx, map[string]tftypes.Value{"source": frameworktest.String(source)})

	if !resp.Diagnostics.HasError() || !resp.State.Raw.IsNull() {
		t.Fatalf("diagnostics %v, state %v: want an error and nothing in state", resp.Diagnostics, resp.State.Raw)
	}
	got := resp.Diagnostics.Errors()[0]
	for _, want := range []string{"interrupted", "read to its end", "may have received it all the same", "next apply uploads it again"} {
		if !strings.Contains(got.Summary()+" "+got.Detail(), want) {
			t.Errorf("diagnostic %q: %q lacks %q", got.Summary(), got.Detail(), want)
		}
	}
}

// TestUploadCreate_sentAndUnanswered: an upload the service took whole and
// never answered (past the client's bound for an answer to begin) may be
// kept by the service: the error says so, and that the service was reached,
// where it said "cannot reach the transcription service ... Check base_url
// and the network".
func TestUploadCreate_sentAndUnanswered(t *testing.T) {
	source := filepath.Join(t.TempDir(), "note.wav")
	writeTestWAV(t, source, 0.1, 1, 8000, 440)
	release := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // the whole file, and no answer
		<-release
	}))
	t.Cleanup(silent.Close)
	t.Cleanup(func() { close(release) })
	c, err := client.New(client.Config{BaseURL: silent.URL, APIKey: acctest.APIKey, ResponseHeaderTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	got := newUploadUnderTest(c).failedCreate(t, context.Background(), source, nil)
	for _, want := range []string{"took the request and sent no answer in time", "may have received it all the same", "the next apply uploads it again"} {
		if !strings.Contains(got.Detail(), want) {
			t.Errorf("diagnostic %q: %q lacks %q", got.Summary(), got.Detail(), want)
		}
	}
	if strings.Contains(got.Detail(), "cannot reach") || strings.Contains(got.Detail(), "Check base_url") {
		t.Errorf("diagnostic %q says the service was not reached", got.Detail())
	}

	// Received whole, then the connection lost before any answer, or the
	// answer cut short: the service may have the file too.
	for name, handler := range map[string]func(hold <-chan struct{}) http.HandlerFunc{
		"connection lost": func(<-chan struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
					conn.Close()
				}
			}
		},
		// A gateway's failure after passing the file on: a 502, or a 503
		// without the service's error body.
		"a gateway's 502": func(<-chan struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				http.Error(w, "Bad Gateway", http.StatusBadGateway)
			}
		},
		"a gateway's 503": func(<-chan struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				http.Error(w, "upstream connect error or disconnect/reset before headers", http.StatusServiceUnavailable)
			}
		},
		"answer cut short": func(hold <-chan struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Content-Length", "200")
				w.WriteHeader(http.StatusOK)
				_, _ = io.WriteString(w, `{"audio_url": "https://`)
				_ = http.NewResponseController(w).Flush()
				<-hold
			}
		},
	} {
		hold := make(chan struct{})
		srv := httptest.NewServer(handler(hold))
		t.Cleanup(srv.Close)
		t.Cleanup(func() { close(hold) }) // before Close, which waits for the handler
		c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: acctest.APIKey, StallTimeout: 300 * time.Millisecond, MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		got := newUploadUnderTest(c).failedCreate(t, context.Background(), source, nil)
		if !strings.Contains(got.Detail(), "may have received it all the same") || strings.Contains(got.Detail(), "cannot reach") || strings.Contains(got.Detail(), "try again later") {
			t.Errorf("%s: diagnostic %q does not say the service may have the file", name, got.Detail())
		}
	}

	// Cut off while the file was going out: nothing says it was received.
	partial, big := serviceStoppingHalfway(t, false)
	c, err = client.New(client.Config{BaseURL: partial, APIKey: acctest.APIKey, StallTimeout: 300 * time.Millisecond, ResponseHeaderTimeout: 2 * time.Second, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	got = newUploadUnderTest(c).failedCreate(t, context.Background(), big, nil)
	if strings.Contains(got.Detail(), "may have received") {
		t.Errorf("an upload cut off halfway: diagnostic %q says the service may have received the file", got.Detail())
	}
}

// TestUploadCreate_stoppedHalfway: an upload interrupted, or stopped by
// timeouts.create, before the whole file went out says the service did not
// receive it (no body it got was complete), where it said the service may
// have.
func TestUploadCreate_stoppedHalfway(t *testing.T) {
	interruptedAfter := func(d time.Duration) context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		time.AfterFunc(d, cancel)
		return ctx
	}
	for _, refusesFirst := range []bool{false, true} {
		// A try the service took whole and refused (503) says nothing of
		// the try after it, which it did not receive whole.
		url, big := serviceStoppingHalfway(t, refusesFirst)
		c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
		if err != nil {
			t.Fatal(err)
		}
		upload := newUploadUnderTest(c)
		for name, stop := range map[string]func() diag.Diagnostic{
			"interrupted":     func() diag.Diagnostic { return upload.failedCreate(t, interruptedAfter(2*time.Second), big, nil) },
			"timeouts.create": func() diag.Diagnostic { return upload.failedCreate(t, context.Background(), big, "2s") },
		} {
			if got := stop(); !strings.Contains(got.Detail(), "stopped before the whole file was sent, so the service did not receive it") || strings.Contains(got.Detail(), "may have received") {
				t.Errorf("%s (first try refused whole: %v): diagnostic %q: %q, want that the service did not receive the file", name, refusesFirst, got.Summary(), got.Detail())
			}
		}
	}
}

// serviceStoppingHalfway returns the address of a service that reads the
// first KB of an upload and then neither reads on nor answers, and a file
// too large to go out whole into the connection's buffers (32 MB). With
// refusesFirst, it reads the first try of each upload whole and answers it
// 503, to be sent again at once.
func serviceStoppingHalfway(t *testing.T, refusesFirst bool) (url, file string) {
	t.Helper()
	hold := make(chan struct{})
	var tries atomic.Int32
	partial := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if refusesFirst && tries.Add(1)%2 == 1 {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Retry-After", "0")
			writeErrorBody(w, r, http.StatusServiceUnavailable, "req-1", "busy")
			return
		}
		_, _ = io.CopyN(io.Discard, r.Body, 1024)
		<-hold
	}))
	t.Cleanup(partial.Close)
	t.Cleanup(func() { close(hold) }) // before Close, which waits for the handler
	file = filepath.Join(t.TempDir(), "long.wav")
	writeTestWAV(t, file, 1000, 1, 16000, 440)
	return partial.URL, file
}

// uploadUnderTest is the upload resource with a client, called as
// Terraform calls it.
type uploadUnderTest struct {
	r      *uploadResource
	schema resource.SchemaResponse
}

func newUploadUnderTest(c *client.Client) uploadUnderTest {
	u := uploadUnderTest{r: &uploadResource{data: &ProviderData{Client: c}}}
	u.r.Schema(context.Background(), resource.SchemaRequest{}, &u.schema)
	return u
}

// timeouts is the timeouts attribute with create (a string, or nil for
// none).
func (u uploadUnderTest) timeouts(create any) tftypes.Value {
	typ := u.schema.Schema.Type().TerraformType(context.Background()).(tftypes.Object).AttributeTypes["timeouts"]
	return tftypes.NewValue(typ, map[string]tftypes.Value{"create": tftypes.NewValue(tftypes.String, create)})
}

// failedCreate runs Create on source with timeouts.create (a string, or
// nil for none) and returns its first error; it fails the test when there
// is none.
func (u uploadUnderTest) failedCreate(t *testing.T, ctx context.Context, source string, create any) diag.Diagnostic {
	t.Helper()
	resp := u.create(t, ctx, map[string]tftypes.Value{"source": frameworktest.String(source), "timeouts": u.timeouts(create)})
	if !resp.Diagnostics.HasError() {
		t.Fatal("the upload succeeded")
	}
	return resp.Diagnostics.Errors()[0]
}

// create runs Create on a plan of values (the others null), with no state.
func (u uploadUnderTest) create(t *testing.T, ctx context.Context, values map[string]tftypes.Value) resource.CreateResponse {
	t.Helper()
	s := u.schema.Schema
	plan := tfsdk.Plan{Schema: s, Raw: frameworktest.Object(t, s.Type(), values)}
	resp := resource.CreateResponse{State: tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(context.Background()), nil)}}
	u.r.Create(ctx, resource.CreateRequest{Plan: plan}, &resp)
	return resp
}

// TestUploadCreate_refusedEveryTry: an upload the service refused every
// time (503: it did not take the file) and that timeouts.create or an
// interrupt ends while it waits to try again says what the service
// answered and that nothing was uploaded, rather than that the upload was
// "still going" or that the service may have the file.
func TestUploadCreate_refusedEveryTry(t *testing.T) {
	source := filepath.Join(t.TempDir(), "note.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	fs.SetFaults(fakeserver.Faults{ServerErrorRatio: 1, ServerErrorStatus: http.StatusServiceUnavailable})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, MaxRetries: 100})
	if err != nil {
		t.Fatal(err)
	}
	upload := newUploadUnderTest(c)
	for name, run := range map[string]struct {
		interrupt bool
		create    any
		summary   string
	}{
		"timeouts.create": {false, "1500ms", "The upload did not finish in time"},
		"interrupted":     {true, nil, "Interrupted while uploading"},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if run.interrupt { // as Ctrl-C does
				time.AfterFunc(1500*time.Millisecond, cancel)
			}
			got := upload.failedCreate(t, ctx, source, run.create)
			if got.Summary() != run.summary {
				t.Errorf("summary %q, want %q", got.Summary(), run.summary)
			}
			for _, want := range []string{"503", "Nothing was uploaded", "the next apply uploads the file"} {
				if !strings.Contains(got.Detail(), want) {
					t.Errorf("detail %q lacks %q", got.Detail(), want)
				}
			}
			for _, wrong := range []string{"still going", "may have received"} {
				if strings.Contains(got.Detail(), wrong) {
					t.Errorf("detail %q says %q", got.Detail(), wrong)
				}
			}
		})
	}
}

// TestUploadCreate_endedBeforeTheRequestWasSent: an upload whose first try
// never got its request sent (a TLS handshake that never ends) when
// timeouts.create ran out says so, not that the service refused a try.
func TestUploadCreate_endedBeforeTheRequestWasSent(t *testing.T) {
	source := filepath.Join(t.TempDir(), "note.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() { // accept, and never answer the handshake
		var held []net.Conn
		defer func() {
			for _, c := range held {
				_ = c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	c, err := client.New(client.Config{BaseURL: "https://" + l.Addr().String(), APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	upload := newUploadUnderTest(c)
	got := upload.failedCreate(t, context.Background(), source, "1s")
	if !strings.Contains(got.Detail(), "Nothing was uploaded: timeouts.create (1s) ran out before the request was sent.") || strings.Contains(got.Detail(), "did not take") {
		t.Errorf("diagnostic %q: %q, want it to say the request was never sent", got.Summary(), got.Detail())
	}
}

// TestUploadCreate_timeoutsCreateCapsTheHash: timeouts.create caps the
// whole upload, the hash of the file before it included, as the docs say.
func TestUploadCreate_timeoutsCreateCapsTheHash(t *testing.T) {
	source := filepath.Join(t.TempDir(), "huge.wav")
	f, err := os.Create(source)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(8 << 30); err != nil { // sparse: 8 GiB of zeros to hash
		t.Fatal(err)
	}
	_ = f.Close()
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	upload := newUploadUnderTest(c)
	got := upload.failedCreate(t, context.Background(), source, "200ms")
	if got.Summary() != "The upload did not finish in time" || !strings.Contains(got.Detail(), "ran out while the provider hashed") {
		t.Errorf("diagnostic %q: %q, want timeouts.create to end the hash", got.Summary(), got.Detail())
	}
}

// An upload made before the name it was uploaded under was kept in private
// state, renamed under zero data retention (an update), is still uploaded
// again under its new name once zero data retention is off: the rename's
// plan records the name from source in state, as it was, before the update
// overwrites it. A plain rename plans the replacement on source alone, not
// on an unchanged digest as well.
func TestUploadPlan_renamedWithoutPrivateState(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	plain, schemas := startProvider(t, url)
	zdr, _ := serveProvider(t, providerserver.NewProtocol6WithError(New("test")()))
	if errs := configure(t, zdr, schemas, "1.8.5", map[string]tftypes.Value{
		"base_url": tftypes.NewValue(tftypes.String, url), "api_key": tftypes.NewValue(tftypes.String, acctest.APIKey),
		"zero_data_retention": tftypes.NewValue(tftypes.Bool, true),
	}); len(errs) > 0 {
		t.Fatal(errs)
	}
	typ, ok := schemas.ResourceSchemas["transcription_upload"].ValueType().(tftypes.Object)
	if !ok {
		t.Fatal("transcription_upload is not an object")
	}
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first.wav"), filepath.Join(dir, "second.wav")
	data := writeTestWAV(t, second, 0.5, 1, 8000, 440)
	sum := sha256.Sum256(data)
	metaType := typ.AttributeTypes["audio_metadata"].(tftypes.Object)
	value := func(source string, computed bool) *tfprotov6.DynamicValue {
		attrs := map[string]tftypes.Value{}
		for name, at := range typ.AttributeTypes {
			attrs[name] = tftypes.NewValue(at, nil)
		}
		attrs["source"] = tftypes.NewValue(tftypes.String, source)
		if computed { // as the first upload left it
			attrs["id"] = tftypes.NewValue(tftypes.String, "f-1")
			attrs["sha256"] = tftypes.NewValue(tftypes.String, hex.EncodeToString(sum[:]))
			attrs["audio_url"] = tftypes.NewValue(tftypes.String, url+"/file/f-1")
			attrs["audio_metadata"] = tftypes.NewValue(metaType, map[string]tftypes.Value{
				"id": tftypes.NewValue(tftypes.String, "f-1"), "filename": tftypes.NewValue(tftypes.String, "first.wav"),
				"extension": tftypes.NewValue(tftypes.String, "wav"), "size": tftypes.NewValue(tftypes.Number, len(data)),
				"audio_duration": tftypes.NewValue(tftypes.Number, 0.5), "number_of_channels": tftypes.NewValue(tftypes.Number, 1),
			})
		}
		v := dynamicValue(t, typ, tftypes.NewValue(typ, attrs))
		return &v
	}
	plan := func(server tfprotov6.ProviderServer, priorSource string, private []byte) *tfprotov6.PlanResourceChangeResponse {
		t.Helper()
		resp, err := server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
			TypeName: "transcription_upload", PriorState: value(priorSource, true), PriorPrivate: private,
			ProposedNewState: value(second, true), Config: value(second, false),
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range resp.Diagnostics {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				t.Fatalf("plan: %s: %s", d.Summary, d.Detail)
			}
		}
		return resp
	}
	replaces := func(resp *tfprotov6.PlanResourceChangeResponse) []string {
		var names []string
		for _, p := range resp.RequiresReplace {
			names = append(names, p.String())
		}
		return names
	}

	// Renamed under zero data retention, from state without private state.
	renamed := plan(zdr, first, nil)
	var private map[string][]byte // the framework's encoding: each key's JSON, base64-encoded
	_ = json.Unmarshal(renamed.PlannedPrivate, &private)
	if got := replaces(renamed); len(got) != 0 || string(private[privateUploadedName]) != `"first.wav"` {
		t.Fatalf("the rename under zero data retention: replaces %v, planned private state %q; want an update recording first.wav", got, renamed.PlannedPrivate)
	}
	// Applied: source in state is second.wav, the private state the plan's.
	// Zero data retention off: the upload is made again, under its name.
	if got := replaces(plan(plain, second, renamed.PlannedPrivate)); !slices.Contains(got, `AttributeName("sha256")`) {
		t.Errorf("once zero data retention is off: replaces %v, want the upload replaced (by its digest)", got)
	}
	// Under zero data retention, a source known only at apply keeps the
	// upload as it is (the apply's plan warns of what changed), where it
	// planned a replacement that cannot be uploaded, and stopped destroy.
	unknownSource := func() *tfprotov6.DynamicValue {
		attrs := map[string]tftypes.Value{}
		for name, at := range typ.AttributeTypes {
			attrs[name] = tftypes.NewValue(at, nil)
		}
		attrs["source"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
		v := dynamicValue(t, typ, tftypes.NewValue(typ, attrs))
		return &v
	}
	unknownResp, err := zdr.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: "transcription_upload", PriorState: value(second, true), PriorPrivate: renamed.PlannedPrivate,
		ProposedNewState: unknownSource(), Config: unknownSource(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := replaces(unknownResp); len(got) != 0 || len(unknownResp.Diagnostics) != 0 {
		t.Errorf("an unknown source under zero data retention: replaces %v, diagnostics %v; want an update", got, unknownResp.Diagnostics)
	}
	// A plain rename: the source says it.
	if got := replaces(plan(plain, first, nil)); !slices.Equal(got, []string{`AttributeName("source")`}) {
		t.Errorf("a plain rename: replaces %v, want source alone", got)
	}
}

// TestAccProcess_uploadStateWithoutID: an upload whose state a development
// build before `id` existed wrote (no id, no identity) gets its id from its
// file's at the next refresh, and neither it nor its job is replaced.
// Without it, Terraform 1.12+ and OpenTofu refused every plan and destroy
// ("Missing Resource Identity After Read"), and the only way out, removing
// it from state, uploaded it again and replaced (billed) its job.
func TestAccProcess_uploadStateWithoutID(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	source := filepath.Join(t.TempDir(), "meeting.wav")
	writeTestWAV(t, source, 1.5, 1, 8000, 440)
	w := newCLIWorkspace(t, acctest.ProviderConfig(url)+uploadConfig("meeting", source)+
		acctest.JobConfig("meeting", `audio_url = transcription_upload.meeting.audio_url`))
	if _, stderr, err := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, stderr)
	}
	statePath := filepath.Join(w.dir, "terraform.tfstate")
	var fileID any
	editStateInstance(t, statePath, "transcription_upload", "meeting", func(instance map[string]any) {
		attrs := instance["attributes"].(map[string]any)
		fileID = attrs["audio_metadata"].(map[string]any)["id"]
		if attrs["id"] != fileID {
			t.Fatalf("fixture: id %v, audio_metadata.id %v", attrs["id"], fileID)
		}
		delete(attrs, "id")
		delete(instance, "identity")
		delete(instance, "identity_schema_version")
	})

	if stdout, stderr, err := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
		t.Fatalf("plan of an upload without id in state: %v (exit 2: changes)\n%s%s", err, stdout, stderr)
	}
	if _, stderr, err := w.run(nil, "apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply -refresh-only: %v\n%s", err, stderr)
	}
	editStateInstance(t, statePath, "transcription_upload", "meeting", func(instance map[string]any) {
		if id := instance["attributes"].(map[string]any)["id"]; id != fileID {
			t.Errorf("id %v after a refresh, want the file's, %v", id, fileID)
		}
	})
	if _, stderr, err := w.run(nil, "destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("destroy: %v\n%s", err, stderr)
	}
}

// A file that cannot be read gets the advice that fits its path: path.module
// for a relative path not found, pathexpand for ~, none for an absolute
// path or a directory (the relative-path advice was given to every path).
func TestAddSourceError_adviceFitsThePath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const relativeAdvice, tildeAdvice = "A relative path is resolved from the directory Terraform runs in", "pathexpand"
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, source string
		want, not    []string
	}{
		{"relative, not found", "recordings/absent.wav", []string{relativeAdvice + `: this one names "` + filepath.Join(wd, "recordings", "absent.wav") + `"`}, []string{tildeAdvice}},
		// "${path.module}/absent.wav" in the root module: the path it names
		// tells a user who wrote path.module already what failed.
		{"relative to path.module, not found", "./absent.wav", []string{relativeAdvice + `: this one names "` + filepath.Join(wd, "absent.wav") + `"`}, []string{tildeAdvice}},
		{"absolute, not found", filepath.Join(dir, "absent.wav"), nil, []string{relativeAdvice, tildeAdvice}},
		{"a directory", dir, []string{"is a directory"}, []string{relativeAdvice, tildeAdvice}},
		{"home", "~/absent.wav", []string{tildeAdvice}, []string{relativeAdvice}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := os.ReadFile(tc.source)
			if err == nil {
				t.Fatalf("fixture: %s can be read", tc.source)
			}
			var diags diag.Diagnostics
			addSourceError(&diags, tc.source, err, "")
			if len(diags) != 1 {
				t.Fatalf("%d diagnostics", len(diags))
			}
			expectDetail(t, diags[0].Detail(), tc.want, tc.not)
		})
	}
}

// A path that cannot be read because of what it names says what to do: a
// name along it written in another Unicode form than the file system's
// (fileset() writes NFC; a file copied from macOS may be NFD), whether the
// file's, a directory's or both, and a directory.
func TestUploadPlan_sourceHints(t *testing.T) {
	dir := t.TempDir()
	nfd, nfc := "cafe\u0301.wav", "caf\u00e9.wav"
	writeTestWAV(t, filepath.Join(dir, nfd), 0.5, 1, 8000, 440)
	if err := os.MkdirAll(filepath.Join(dir, "r\u00e9sum\u00e9"), 0o700); err != nil { // NFC
		t.Fatal(err)
	}
	writeTestWAV(t, filepath.Join(dir, "r\u00e9sum\u00e9", nfd), 0.5, 1, 8000, 440)
	if err := os.MkdirAll(filepath.Join(dir, "donne\u0301es"), 0o700); err != nil { // NFD
		t.Fatal(err)
	}
	writeTestWAV(t, filepath.Join(dir, "donne\u0301es", "plain.wav"), 0.5, 1, 8000, 440)
	if err := os.Mkdir(filepath.Join(dir, "takes.wav"), 0o700); err != nil {
		t.Fatal(err)
	}
	h := newProtoHarness(t, fakeserver.Options{})
	for _, tc := range []struct{ source, want string }{
		{filepath.Join(dir, nfc), fmt.Sprintf("The path is there with names written in another Unicode form: %+q", filepath.Join(dir, nfd))},
		{filepath.Join(dir, "r\u00e9sum\u00e9", nfc), fmt.Sprintf("%+q", filepath.Join(dir, "r\u00e9sum\u00e9", nfd))},
		{filepath.Join(dir, "donn\u00e9es", "plain.wav"), fmt.Sprintf("%+q", filepath.Join(dir, "donne\u0301es", "plain.wav"))},
		{filepath.Join(dir, "takes.wav"), "Point source at a regular file holding a recording"},
		{filepath.Join(dir, "donne\u0301es", "plain.wav") + "\n", "The path begins or ends with white space, part of the name as written: remove it, for example with trimspace()."},
		{filepath.Join(dir, "plain\x00.wav"), "The path holds a NUL character, which no file name can: remove it."},
	} {
		u := newUploadBench(h, tc.source)
		resp, err := u.server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
			TypeName: uploadTypeName, PriorState: &u.null, ProposedNewState: &u.config, Config: &u.config,
		})
		if err != nil {
			t.Fatal(err)
		}
		if d := sourceError(t, resp.Diagnostics, "Cannot read the file to upload"); !strings.Contains(d.Detail, tc.want) || strings.Contains(d.Detail, "A relative path is resolved") {
			t.Errorf("%+q: detail %q, want %q", tc.source, d.Detail, tc.want)
		}
	}
	// The file of an upload made, turned into a Git LFS pointer (a CI
	// checkout without git lfs): the warning says how to fetch it.
	u, made := madeUpload(t)
	if err := os.WriteFile(u.source, []byte("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12345\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	resp := u.planChange(uploadTypeName, made, &u.config, &u.config)
	if !hasWarning(resp.Diagnostics, "The uploaded file no longer holds a recording", "git lfs pull") {
		t.Errorf("no warning saying how to fetch the recording: %v", resp.Diagnostics)
	}
}
