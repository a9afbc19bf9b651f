//go:build compat

package compat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

// typedBody is a JSON body and the official client's type that describes it.
type typedBody struct {
	name    string // where it comes from, for messages
	sdkType string // an exported type of @gladiaio/sdk
	body    []byte
}

// disagreement is where the official client's types and this project
// knowingly differ: the JSON path of the values TypeScript refuses, what it
// says of them, and why.
type disagreement struct {
	path, message *regexp.Regexp
	why           string
}

// knownDisagreements are those of DESIGN.md ("The service's interface").
var knownDisagreements = []disagreement{
	{
		regexp.MustCompile(`\.audio_to_llm_config\.prompts\[\d+\]$`), regexp.MustCompile(`^TS2322: Type 'string' is not assignable to type 'any\[\]'\.$`),
		"the client types each prompt as an array; the spec's samples, which win, are texts",
	},
	{
		regexp.MustCompile(`\.pii_redaction_config\.entity_types$`), regexp.MustCompile(`^TS2322: Type 'string\[\]' is not assignable to type 'PreRecordedV2PiiRedactionEntityType \| undefined'\.$`),
		"the client types entity_types as one value; the spec's samples, which win, are a list",
	},
	{
		regexp.MustCompile(`\.translation\.results\[\d+\]\.utterances\[\d+\]\.language$`), regexp.MustCompile(`^TS2322: Type '"wo"' is not assignable to type '(PreRecorded|Live)V2TranscriptionLanguageCode'\.$`),
		"the client types a translated utterance's language as a transcription language, which lacks wo; the fake server gives the target language",
	},
}

// TestAnswersHaveTheOfficialClientTypes type-checks, with the TypeScript
// compiler, the golden fixtures (internal/client/testdata/golden, written by
// hand) and the fake server's answers against the official client's type
// definitions: every member known to the client (no extra one), every
// required one present, every enumerated value among the client's. Each
// body becomes an object literal assigned to a constant of the client's
// type, so TypeScript checks excess members at every depth. The brand's
// model names (solaria-*) stand for the spec's (model-*).
func TestAnswersHaveTheOfficialClientTypes(t *testing.T) {
	node := installOfficialClient(t)
	golden := filepath.Join("..", "..", "client", "testdata", "golden")
	var bodies []typedBody
	for file, sdkType := range map[string]string{
		"create_request.json":         "PreRecordedV2InitTranscriptionRequest",
		"init_response.json":          "PreRecordedV2InitTranscriptionResponse",
		"prerecorded_job_done.json":   "PreRecordedV2Response",
		"prerecorded_job_queued.json": "PreRecordedV2Response",
		"prerecorded_job_error.json":  "PreRecordedV2Response",
		"prerecorded_page.json":       "PreRecordedV2ListResponse",
		"live_page.json":              "LiveV2ListResponse",
		"upload_response.json":        "PreRecordedV2AudioUploadResponse",
	} {
		data, err := os.ReadFile(filepath.Join(golden, file))
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, typedBody{"golden " + file, sdkType, data})
	}
	bodies = append(bodies, fakeServerAnswers(t, golden)...)
	slices.SortFunc(bodies, func(a, b typedBody) int { return strings.Compare(a.name, b.name) })

	dir := t.TempDir()
	source, paths := typeScriptChecks(t, bodies)
	sdk, err := filepath.Abs(filepath.Join("node_modules", "@gladiaio", "sdk", "dist", "index.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	tsconfig, _ := json.Marshal(map[string]any{
		"compilerOptions": map[string]any{
			"strict": true, "noEmit": true, "skipLibCheck": true, "types": []string{},
			"module": "nodenext", "moduleResolution": "nodenext", "target": "es2022",
			"paths": map[string][]string{"@gladiaio/sdk": {sdk}},
		},
		"files": []string{"check.ts"},
	})
	for name, content := range map[string][]byte{"check.ts": source, "tsconfig.json": tsconfig} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tsc, err := filepath.Abs(filepath.Join("node_modules", "typescript", "bin", "tsc"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("the TypeScript compiler, a devDependency of package.json, is not installed: %v", err)
	}
	cmd := exec.Command(node, tsc, "-p", ".", "--pretty", "false")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("tsc: %v\n%s", err, out)
	}

	diagnostic := regexp.MustCompile(`^check\.ts\((\d+),\d+\): error (TS\d+: .*)$`)
	known := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		m := diagnostic.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("tsc: %s", line)
			continue
		}
		n, _ := strconv.Atoi(m[1])
		where := paths[n]
		if i := slices.IndexFunc(knownDisagreements, func(d disagreement) bool {
			return d.path.MatchString(where.path) && d.message.MatchString(m[2])
		}); i >= 0 {
			known[knownDisagreements[i].why]++
			continue
		}
		t.Errorf("%s, at %s: %s", where.body, where.path, m[2])
	}
	// The bodies hold each known disagreement: one not found means that the
	// check saw less than it should (or that the client's types changed, and
	// the list must too).
	for _, d := range knownDisagreements {
		if known[d.why] == 0 {
			t.Errorf("known disagreement not found (%s); tsc said:\n%s", d.why, out)
		} else {
			t.Logf("known disagreement, %d values: %s", known[d.why], d.why)
		}
	}
}

// fakeServerAnswers are the fake server's answers in the situations the
// golden fixtures describe, and a few more: the create of every option (the
// golden request, its callbacks sent to a local receiver), that job queued
// and done, a job processing, a failed job, the listings, a live job, an
// upload and a job made from it.
func fakeServerAnswers(t *testing.T, golden string) []typedBody {
	t.Helper()
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	t.Cleanup(receiver.Close)
	clock := fakeserver.NewManualClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	fs := fakeserver.New(fakeserver.Options{APIKey: apiKey, Clock: clock, ProcessingTime: 10 * time.Second, LiveJobs: 12})
	srv := httptest.NewServer(fs)
	t.Cleanup(func() { srv.Close(); fs.Close() })

	var bodies []typedBody
	call := func(name, sdkType, method, path, contentType string, body []byte, want int) []byte {
		t.Helper()
		status, data := testutil.ServiceRequest(t, srv.URL, apiKey, method, path, contentType, body)
		if status != want {
			t.Fatalf("%s %s: %d, want %d: %s", method, path, status, want, data)
		}
		bodies = append(bodies, typedBody{"fake server " + name, sdkType, data})
		return data
	}
	id := func(data []byte) string {
		var v struct{ ID string }
		if err := json.Unmarshal(data, &v); err != nil || v.ID == "" {
			t.Fatalf("no id in %s", data)
		}
		return v.ID
	}
	// job reads a job's record, which must have the status its name says.
	job := func(name, id, status string) {
		t.Helper()
		var v struct{ Status string }
		if data := call(name+", "+status, "PreRecordedV2Response", http.MethodGet, "/v2/pre-recorded/"+id, "", nil, http.StatusOK); json.Unmarshal(data, &v) != nil || v.Status != status {
			t.Fatalf("%s: status %q, want %q", name, v.Status, status)
		}
	}

	request, err := os.ReadFile(filepath.Join(golden, "create_request.json"))
	if err != nil {
		t.Fatal(err)
	}
	request = bytes.ReplaceAll(request, []byte("https://hooks.example.com"), []byte(receiver.URL))
	every := id(call("create of every option", "PreRecordedV2InitTranscriptionResponse", http.MethodPost, "/v2/pre-recorded", "application/json", request, http.StatusCreated))
	failed := id(call("create of a job that fails", "PreRecordedV2InitTranscriptionResponse", http.MethodPost, "/v2/pre-recorded", "application/json",
		[]byte(`{"audio_url":"https://example.com/fail-500.wav"}`), http.StatusCreated))
	wolof := id(call("create of a translation to Wolof", "PreRecordedV2InitTranscriptionResponse", http.MethodPost, "/v2/pre-recorded", "application/json",
		[]byte(`{"audio_url":"https://example.com/a.wav?duration=5","translation":true,"translation_config":{"target_languages":["wo"]}}`), http.StatusCreated))
	job("job of every option", every, "queued")
	clock.Advance(5 * time.Second)
	job("job translated to Wolof", wolof, "processing")
	clock.Advance(time.Minute)
	job("job of every option", every, "done")
	call("job of every option, done, by its result_url", "PreRecordedV2Response", http.MethodGet, "/v2/transcription/"+every, "", nil, http.StatusOK)
	job("failed job", failed, "error")
	job("job translated to Wolof", wolof, "done")
	call("pre-recorded listing", "PreRecordedV2ListResponse", http.MethodGet, "/v2/pre-recorded?limit=5", "", nil, http.StatusOK)
	live := call("live listing", "LiveV2ListResponse", http.MethodGet, "/v2/live?limit=12", "", nil, http.StatusOK)
	var page struct{ Items []struct{ ID string } }
	if err := json.Unmarshal(live, &page); err != nil || len(page.Items) == 0 {
		t.Fatalf("live listing: %v %s", err, live[:min(len(live), 200)])
	}
	call("live job", "LiveV2Response", http.MethodGet, "/v2/live/"+page.Items[0].ID, "", nil, http.StatusOK)

	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	part, err := mw.CreateFormFile("audio", "standup.wav")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Write(testutil.SilentWAV(2, 1, 8000)); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	uploaded := call("upload", "PreRecordedV2AudioUploadResponse", http.MethodPost, "/v2/upload", mw.FormDataContentType(), form.Bytes(), http.StatusOK)
	var upload struct {
		AudioURL string `json:"audio_url"`
	}
	if err := json.Unmarshal(uploaded, &upload); err != nil || upload.AudioURL == "" {
		t.Fatalf("no audio_url in %s", uploaded)
	}
	request, _ = json.Marshal(map[string]any{"audio_url": upload.AudioURL, "diarization": true, "subtitles": true})
	fromUpload := id(call("create from the upload", "PreRecordedV2InitTranscriptionResponse", http.MethodPost, "/v2/pre-recorded", "application/json", request, http.StatusCreated))
	clock.Advance(time.Minute)
	job("job made from the upload", fromUpload, "done")
	return bodies
}

// lineOrigin is what one line of the generated TypeScript holds.
type lineOrigin struct{ body, path string }

// brandModel matches the spec's model names, which the official client
// names with its brand's word.
var brandModel = regexp.MustCompile(`^model-(1|3|fusion)$`)

// typeScriptChecks writes each body as `export const vN: Type = <body>`,
// one member or element a line, and returns the source with the JSON path
// of what each line holds (by line number, from 1).
func typeScriptChecks(t *testing.T, bodies []typedBody) ([]byte, map[int]lineOrigin) {
	t.Helper()
	types := map[string]bool{}
	for _, b := range bodies {
		types[b.sdkType] = true
	}
	var src bytes.Buffer
	line := 1
	paths := map[int]lineOrigin{}
	fmt.Fprintf(&src, "import type { %s } from '@gladiaio/sdk'\n", strings.Join(slices.Sorted(maps.Keys(types)), ", "))
	line++
	for i, b := range bodies {
		dec := json.NewDecoder(bytes.NewReader(b.body))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		fmt.Fprintf(&src, "export const v%d: %s = ", i, b.sdkType)
		var emit func(v any, path string)
		emit = func(v any, path string) {
			paths[line] = lineOrigin{b.name, path}
			switch v := v.(type) {
			case map[string]any:
				src.WriteString("{\n")
				line++
				for _, k := range slices.Sorted(maps.Keys(v)) {
					key, _ := json.Marshal(k)
					src.Write(key)
					src.WriteString(": ")
					emit(v[k], path+"."+k)
					src.WriteString(",\n")
					line++
				}
				paths[line] = lineOrigin{b.name, path}
				src.WriteString("}")
			case []any:
				src.WriteString("[\n")
				line++
				for j, x := range v {
					emit(x, fmt.Sprintf("%s[%d]", path, j))
					src.WriteString(",\n")
					line++
				}
				paths[line] = lineOrigin{b.name, path}
				src.WriteString("]")
			case string:
				if m := brandModel.FindStringSubmatch(v); m != nil {
					v = "solaria-" + m[1]
				}
				s, _ := json.Marshal(v)
				src.Write(s)
			case json.Number:
				src.WriteString(v.String())
			default: // bool, nil
				s, _ := json.Marshal(v)
				src.Write(s)
			}
		}
		emit(v, "")
		src.WriteString("\n")
		line++
	}
	return src.Bytes(), paths
}
