package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

func TestViewSchemas_valid(t *testing.T) {
	ctx := context.Background()
	views := []viewAttr{resultView, fileView}

	rs := rschema.Schema{MarkdownDescription: "test", Attributes: map[string]rschema.Attribute{}}
	ds := dschema.Schema{MarkdownDescription: "test", Attributes: map[string]dschema.Attribute{}}
	for _, v := range views {
		rs.Attributes[v.name] = v.resourceAttribute()
		ds.Attributes[v.name] = v.dataSourceAttribute()
	}
	if diags := rs.ValidateImplementation(ctx); diags.HasError() {
		t.Fatalf("resource schema: %v", diags)
	}
	if diags := ds.ValidateImplementation(ctx); diags.HasError() {
		t.Fatalf("data source schema: %v", diags)
	}
	for _, v := range views {
		if got := rs.Attributes[v.name].GetType(); !got.Equal(v.attrType()) {
			t.Errorf("%s: resource attribute type %s, want %s", v.name, got, v.attrType())
		}
		if got := ds.Attributes[v.name].GetType(); !got.Equal(v.attrType()) {
			t.Errorf("%s: data source attribute type %s, want %s", v.name, got, v.attrType())
		}
		if !rs.Attributes[v.name].IsComputed() || rs.Attributes[v.name].IsOptional() || rs.Attributes[v.name].IsRequired() {
			t.Errorf("%s: resource attribute is not computed-only", v.name)
		}
		if !ds.Attributes[v.name].IsComputed() || ds.Attributes[v.name].IsOptional() || ds.Attributes[v.name].IsRequired() {
			t.Errorf("%s: data source attribute is not computed-only", v.name)
		}
	}
}

// Every attribute of a view is documented, and names are unique per object.
func TestViews_documented(t *testing.T) {
	var walk func(prefix string, attrs []viewAttr)
	walk = func(prefix string, attrs []viewAttr) {
		seen := map[string]bool{}
		for _, a := range attrs {
			p := prefix + "." + a.name
			if a.description == "" {
				t.Errorf("%s has no description", p)
			}
			if seen[a.name] {
				t.Errorf("%s is declared twice", p)
			}
			seen[a.name] = true
			if (a.nested == nil) == (a.typ == nil) {
				t.Errorf("%s must be either a leaf or nested", p)
			}
			walk(p, a.nested)
		}
	}
	walk("", []viewAttr{resultView, fileView})
}

// The docs come from the schema: an object view lists each of its fields,
// with its type and description, indented one level per depth.
func TestViews_markdownListsEveryField(t *testing.T) {
	for _, v := range []viewAttr{resultView, fileView, liveJobsItemsView} {
		doc := v.markdownDescription()
		if !strings.HasPrefix(doc, v.description+"\n") {
			t.Errorf("%s: description does not open the docs: %q", v.name, doc[:min(len(doc), 80)])
		}
		lines := strings.Split(doc, "\n")[1:]
		var walk func(attrs []viewAttr, indent string)
		walk = func(attrs []viewAttr, indent string) {
			for _, a := range attrs {
				want := fmt.Sprintf("%s- `%s` (%s) %s", indent, a.name, a.docsType(), a.description)
				if len(lines) == 0 || lines[0] != want {
					t.Fatalf("%s: next docs line is %q, want %q", v.name, strings.Join(lines[:min(len(lines), 1)], ""), want)
				}
				lines = lines[1:]
				walk(a.nested, indent+"  ")
			}
		}
		walk(v.nested, "  ")
		// then a blank line and the line tfplugindocs appends its link to
		if got := strings.Join(lines, "\n"); got != "\n  Every field by name, with its type:" {
			t.Errorf("%s: docs end with %q", v.name, got)
		}
	}
	for _, tc := range []struct {
		v    viewAttr
		want string
	}{
		{viewString("a", "d"), "String"},
		{viewInt64("a", "d"), "Number"},
		{viewFloat64("a", "d"), "Number"},
		{viewBool("a", "d"), "Boolean"},
		{viewStringList("a", "d"), "List of String"},
		{viewStringMap("a", "d"), "Map of String"},
		{viewObject("a", "d", viewBool("b", "d")), "Object"},
		{viewObjectList("a", "d", viewBool("b", "d")), "List of Object"},
		{viewJSON("a", "d"), "String"},
	} {
		if got := tc.v.docsType(); got != tc.want {
			t.Errorf("docsType of %#v = %q, want %q", tc.v.typ, got, tc.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func fullResult() *client.Result {
	utts := []client.Utterance{
		{Start: 0, End: 1.5, Confidence: 0.9, Channel: 0, Text: "Hello there.", Language: "en", Speaker: ptr(int64(1)),
			Words: []client.Word{{Word: "Hello", Start: 0, End: 0.5, Confidence: 0.95}, {Word: "there.", Start: 0.6, End: 1.5, Confidence: 0.85}}},
		{Start: 1.6, End: 2, Confidence: 0.8, Channel: 1, Text: "Bye.", Language: "en",
			Words: []client.Word{{Word: "Bye.", Start: 1.6, End: 2, Confidence: 0.8}}},
	}
	// Two add-on results, whose texts are joined in order.
	sentences := []client.AddonResult[[]string]{{Success: true, Results: []string{"Hello there."}}, {Success: true, Results: []string{"Bye."}}}
	subs := []client.Subtitle{{Format: "srt", Subtitles: "1\n00:00:00,000 --> 00:00:01,500\nHello there.\n"}, {Format: "vtt", Subtitles: "WEBVTT\n"}}
	return &client.Result{
		Metadata: client.ResultMetadata{AudioDuration: 2, NumberOfDistinctChannels: 2, BillingTime: 2, TranscriptionTime: 0.4},
		Transcription: &client.Transcription{
			FullTranscript: "Hello there. Bye.", Languages: []string{"en"}, Utterances: utts, Sentences: sentences, Subtitles: subs,
		},
		Translation: &client.AddonResult[[]client.TranslationItem]{Success: true, ExecTime: 0.2, Results: []client.TranslationItem{
			{FullTranscript: "Bonjour. Au revoir.", Languages: []string{"fr"}, Utterances: utts, Sentences: sentences, Subtitles: subs},
			{Error: &client.AddonError{StatusCode: 500, Exception: "TranslationError", Message: "boom"}, FullTranscript: "", Languages: []string{"de"}, Utterances: []client.Utterance{}},
		}},
		Summarization:          &client.AddonResult[*string]{Success: true, Results: ptr("A greeting.")},
		NamedEntityRecognition: &client.AddonResult[[]client.NamedEntity]{Success: true, Results: []client.NamedEntity{{EntityType: "NAME", Text: "Ada", Start: 1, End: 1.2}}},
		SentimentAnalysis:      &client.AddonResult[string]{Success: false, Error: &client.AddonError{StatusCode: 503, Exception: "Unavailable", Message: "later"}},
		AudioToLLM: &client.AddonResult[[]client.AudioToLLMResult]{Success: true, Results: []client.AudioToLLMResult{
			{Success: true, ExecTime: 0.3, Results: &client.AudioToLLMAnswer{Prompt: ptr("Summarise"), Response: ptr("Greeting.")}},
			{Success: false, Error: &client.AddonError{StatusCode: 429, Exception: "RateLimited", Message: "too many"}, Results: nil},
		}},
		Sentences: &client.AddonResult[[]string]{Success: true, Results: []string{"Hello there.", "Bye."}},
		Messages:  []string{"session started"},
	}
}

// at walks a value: a string selects an object attribute or map key, an int
// a list element.
func at(t *testing.T, v attr.Value, path ...any) attr.Value {
	t.Helper()
	for _, step := range path {
		switch s := step.(type) {
		case string:
			switch o := v.(type) {
			case types.Object:
				a, ok := o.Attributes()[s]
				if !ok {
					t.Fatalf("no attribute %q", s)
				}
				v = a
			case types.Map:
				e, ok := o.Elements()[s]
				if !ok {
					t.Fatalf("no map key %q", s)
				}
				v = e
			default:
				t.Fatalf("cannot select %q in %T", s, v)
			}
		case int:
			l, ok := v.(types.List)
			if !ok || s >= len(l.Elements()) {
				t.Fatalf("cannot index %d in %v", s, v)
			}
			v = l.Elements()[s]
		}
	}
	return v
}

// atJSON walks v to the JSON attribute on path, decodes its text, and walks
// the decoded value with the rest of path: a string selects an object key
// (nil when missing), an int a list element.
func atJSON(t *testing.T, v attr.Value, path ...any) any {
	t.Helper()
	for i := 1; i <= len(path); i++ {
		if n, ok := at(t, v, path[:i]...).(jsonText); ok {
			var decoded any
			if err := json.Unmarshal([]byte(n.ValueString()), &decoded); err != nil {
				t.Fatalf("%v is not JSON: %v", path[:i], err)
			}
			inside, err := walkDecodedJSON(decoded, path[i:])
			if err != nil {
				t.Fatalf("%v: %v", path, err)
			}
			return inside
		}
	}
	t.Fatalf("no JSON attribute on %v", path)
	return nil
}

func TestFlattenResult_full(t *testing.T) {
	ctx := context.Background()
	for _, content := range []resultContent{rawContent, transcriptContent} {
		withWords := content == rawContent
		o, diags := flattenResult(ctx, fullResult(), content, nil)
		if diags.HasError() {
			t.Fatal(diags)
		}
		if !o.Type(ctx).Equal(resultView.attrType()) {
			t.Fatalf("type %s, want %s", o.Type(ctx), resultView.attrType())
		}
		if _, err := o.ToTerraformValue(ctx); err != nil {
			t.Fatal(err)
		}
		words := atJSON(t, o, "transcription", "utterances", 0, "words")
		trWords := atJSON(t, o, "translation", "results", 0, "utterances", 1, "words")
		if withWords {
			if l, _ := words.([]any); len(l) != 2 {
				t.Errorf("withWords: words %v, want 2", words)
			}
			if got := atJSON(t, o, "transcription", "utterances", 0, "words", 1, "word"); got != "there." {
				t.Errorf("second word %v", got)
			}
			if trWords == nil {
				t.Error("withWords: translation words are missing")
			}
		} else if words != nil || trWords != nil {
			t.Errorf("without words: words = %v / %v, want none", words, trWords)
		}
	}

	o, _ := flattenResult(ctx, fullResult(), transcriptContent, nil)
	typed := map[string]struct {
		got  attr.Value
		want attr.Value
	}{
		"srt subtitles":   {at(t, o, "transcription", "subtitles", "srt"), types.StringValue("1\n00:00:00,000 --> 00:00:01,500\nHello there.\n")},
		"vtt subtitles":   {at(t, o, "transcription", "subtitles", "vtt"), types.StringValue("WEBVTT\n")},
		"full transcript": {at(t, o, "transcription", "full_transcript"), types.StringValue("Hello there. Bye.")},
		"summary":         {at(t, o, "summarization", "results"), types.StringValue("A greeting.")},
		"sentiment error": {at(t, o, "sentiment_analysis", "error", "exception"), types.StringValue("Unavailable")},
		"llm prompt":      {at(t, o, "audio_to_llm", "results", 0, "prompt"), types.StringValue("Summarise")},
		"llm response":    {at(t, o, "audio_to_llm", "results", 0, "response"), types.StringValue("Greeting.")},
		"llm exec time":   {at(t, o, "audio_to_llm", "results", 0, "exec_time"), types.Float64Value(0.3)},
		"llm failed":      {at(t, o, "audio_to_llm", "results", 1, "success"), types.BoolValue(false)},
		"llm not empty":   {at(t, o, "audio_to_llm", "results", 0, "is_empty"), types.BoolValue(false)},
		// The envelope's own figures, and a failure's message.
		"add-on exec time":  {at(t, o, "translation", "exec_time"), types.Float64Value(0.2)},
		"sentiment message": {at(t, o, "sentiment_analysis", "error", "message"), types.StringValue("later")},
		"llm failure code":  {at(t, o, "audio_to_llm", "results", 1, "error", "status_code"), types.Int64Value(429)},
		"llm no answer":     {at(t, o, "audio_to_llm", "results", 1, "response"), types.StringNull()},
		"messages":          {at(t, o, "messages", 0), types.StringValue("session started")},
		"billing":           {at(t, o, "metadata", "billing_time"), types.Float64Value(2)},
	}
	for name, c := range typed {
		if !c.got.Equal(c.want) {
			t.Errorf("%s: got %v, want %v", name, c.got, c.want)
		}
	}
	// JSON numbers decode as float64.
	inJSON := map[string]struct {
		got  any
		want any
	}{
		"sentence texts":        {atJSON(t, o, "transcription", "sentences", 1), "Bye."},
		"utterance text":        {atJSON(t, o, "transcription", "utterances", 0, "text"), "Hello there."},
		"speaker":               {atJSON(t, o, "transcription", "utterances", 0, "speaker"), 1.0},
		"no speaker":            {atJSON(t, o, "transcription", "utterances", 1, "speaker"), nil},
		"channel":               {atJSON(t, o, "transcription", "utterances", 1, "channel"), 1.0},
		"target language":       {atJSON(t, o, "translation", "results", 1, "language"), "de"},
		"translation text":      {atJSON(t, o, "translation", "results", 0, "full_transcript"), "Bonjour. Au revoir."},
		"translation language":  {atJSON(t, o, "translation", "results", 0, "languages", 0), "fr"},
		"translation sentences": {atJSON(t, o, "translation", "results", 0, "sentences", 1), "Bye."},
		"translation error":     {atJSON(t, o, "translation", "results", 1, "error", "status_code"), 500.0},
		"translation ok":        {atJSON(t, o, "translation", "results", 0, "error"), nil},
		"translation srt":       {atJSON(t, o, "translation", "results", 0, "subtitles", "vtt"), "WEBVTT\n"},
		"translation no subs":   {atJSON(t, o, "translation", "results", 1, "subtitles"), nil},
		"entity":                {atJSON(t, o, "named_entity_recognition", "results", 0, "text"), "Ada"},
		"entity end":            {atJSON(t, o, "named_entity_recognition", "results", 0, "end"), 1.2},
		"sentences add-on":      {atJSON(t, o, "sentences", "results", 0), "Hello there."},
	}
	for name, c := range inJSON {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", name, c.got, c.want)
		}
	}
}

// The summary keeps what does not grow with the recording, and the status
// of every add-on; everything transcript-sized is null.
func TestFlattenResult_summary(t *testing.T) {
	ctx := context.Background()
	o, diags := flattenResult(ctx, fullResult(), summaryContent, nil)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if !o.Type(ctx).Equal(resultView.attrType()) {
		t.Fatalf("type %s, want %s", o.Type(ctx), resultView.attrType())
	}
	kept := map[string]struct {
		got  attr.Value
		want attr.Value
	}{
		"billing":            {at(t, o, "metadata", "billing_time"), types.Float64Value(2)},
		"language":           {at(t, o, "transcription", "languages", 0), types.StringValue("en")},
		"summary":            {at(t, o, "summarization", "results"), types.StringValue("A greeting.")},
		"llm":                {at(t, o, "audio_to_llm", "results", 0, "response"), types.StringValue("Greeting.")},
		"entities' status":   {at(t, o, "named_entity_recognition", "success"), types.BoolValue(true)},
		"sentiment error":    {at(t, o, "sentiment_analysis", "error", "exception"), types.StringValue("Unavailable")},
		"translation status": {at(t, o, "translation", "success"), types.BoolValue(true)},
		"sentences status":   {at(t, o, "sentences", "success"), types.BoolValue(true)},
	}
	for name, c := range kept {
		if !c.got.Equal(c.want) {
			t.Errorf("%s: got %v, want %v", name, c.got, c.want)
		}
	}
	for _, p := range [][]any{
		{"transcription", "full_transcript"}, {"transcription", "utterances"}, {"transcription", "sentences"}, {"transcription", "subtitles"},
		{"translation", "results"}, {"named_entity_recognition", "results"}, {"sentiment_analysis", "results"}, {"sentences", "results"}, {"messages"},
	} {
		if v := at(t, o, p...); !v.IsNull() {
			t.Errorf("%v: got %v, want null in a summary", p, v)
		}
	}
}

func TestFlattenResult_nilAndPartial(t *testing.T) {
	ctx := context.Background()

	o, diags := flattenResult(ctx, nil, rawContent, nil)
	if diags.HasError() || !o.IsNull() || !o.Type(ctx).Equal(resultView.attrType()) {
		t.Fatalf("nil result: %v %v (%s)", o, diags, o.Type(ctx))
	}

	// Only metadata and a bare transcript: every add-on is null, and so are
	// the transcript's optional parts.
	partial := &client.Result{
		Metadata:      client.ResultMetadata{AudioDuration: 1},
		Transcription: &client.Transcription{FullTranscript: "", Languages: []string{}, Utterances: []client.Utterance{{Text: "x"}}},
	}
	o, diags = flattenResult(ctx, partial, rawContent, nil)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if !o.Type(ctx).Equal(resultView.attrType()) {
		t.Fatalf("type %s", o.Type(ctx))
	}
	for _, name := range []string{"translation", "summarization", "named_entity_recognition", "sentiment_analysis", "audio_to_llm", "sentences", "messages"} {
		if !at(t, o, name).IsNull() {
			t.Errorf("%s is %v, want null", name, at(t, o, name))
		}
	}
	for _, name := range []string{"sentences", "subtitles"} {
		if !at(t, o, "transcription", name).IsNull() {
			t.Errorf("transcription.%s is not null", name)
		}
	}
	if l := at(t, o, "transcription", "languages").(types.List); l.IsNull() || len(l.Elements()) != 0 {
		t.Errorf("empty languages became %v, want an empty list", l)
	}
	if words := atJSON(t, o, "transcription", "utterances", 0, "words"); words != nil {
		t.Errorf("absent words are written as %v", words)
	}

	// No transcription at all (a failed job's result).
	o, diags = flattenResult(ctx, &client.Result{}, summaryContent, nil)
	if diags.HasError() || !at(t, o, "transcription").IsNull() || at(t, o, "metadata").IsNull() {
		t.Errorf("metadata-only result: %v %v", o, diags)
	}

	// An add-on result without results.
	o, diags = flattenResult(ctx, &client.Result{NamedEntityRecognition: &client.AddonResult[[]client.NamedEntity]{IsEmpty: true}}, transcriptContent, nil)
	if diags.HasError() || !at(t, o, "named_entity_recognition", "results").IsNull() || !at(t, o, "named_entity_recognition", "is_empty").Equal(types.BoolValue(true)) {
		t.Errorf("empty add-on: %v %v", o, diags)
	}
}

func TestFlattenFile(t *testing.T) {
	ctx := context.Background()
	if o := flattenFile(nil); !o.IsNull() || !o.Type(ctx).Equal(fileView.attrType()) {
		t.Errorf("nil file: %v", o)
	}
	o := flattenFile(&client.FileInfo{ID: "f1", Filename: ptr("a.wav"), Source: ptr("https://x/a.wav"), AudioDuration: ptr(3.5)})
	if !o.Type(ctx).Equal(fileView.attrType()) {
		t.Fatalf("type %s", o.Type(ctx))
	}
	if got := at(t, o, "audio_duration"); !got.Equal(types.Float64Value(3.5)) {
		t.Errorf("audio_duration %v", got)
	}
	if got := at(t, o, "number_of_channels"); !got.IsNull() {
		t.Errorf("absent number_of_channels %v, want null", got)
	}
}

func TestFlattenCustomMetadata(t *testing.T) {
	if m := flattenCustomMetadata(nil); !m.IsNull() {
		t.Errorf("nil: %v", m)
	}
	// Decoded as the client decodes a record; numbers as Terraform's
	// jsonencode writes them: exact (an id above 2^53), without trailing
	// zeros or exponent, nested ones too.
	var decoded client.Metadata
	if err := json.Unmarshal([]byte(`{"team":"ops","n":3,"ok":true,"tags":["a","b"],"none":null,`+
		`"user_id":12345678901234567891,"ratio":1.0,"small":2.50e-3,"big":1E+21,"nested":{"z":[1.10],"a":"<b>"},"huge":1e10000000}`), &decoded); err != nil {
		t.Fatal(err)
	}
	m := flattenCustomMetadata(decoded)
	want := map[string]string{
		"team": "ops", "n": "3", "ok": "true", "tags": `["a","b"]`, "none": "null",
		"user_id": "12345678901234567891", "ratio": "1", "small": "0.0025", "big": "1000000000000000000000",
		"nested": `{"a":"\u003cb\u003e","z":[1.1]}`,
		// Ten million digits written out: kept as sent.
		"huge": "1e10000000",
	}
	if len(m.Elements()) != len(want) {
		t.Fatalf("got %v", m)
	}
	for k, v := range want {
		if got := m.Elements()[k]; !got.Equal(types.StringValue(v)) {
			t.Errorf("%s: got %v, want %q", k, got, v)
		}
	}
}

func TestFlattenJSON(t *testing.T) {
	for raw, want := range map[string]jsonText{
		"":                     jsonTextNull(),
		"null":                 jsonTextNull(),
		" null ":               jsonTextNull(),
		"{\n \"a\": [1, 2]\n}": jsonTextValue(`{"a":[1,2]}`),
		"{}":                   jsonTextValue("{}"),
	} {
		if got := flattenJSON(json.RawMessage(raw)); !got.Equal(want) {
			t.Errorf("%q: got %v, want %v", raw, got, want)
		}
	}
}

// A result kept at a smaller content is what reading it at that content
// gives: planning include_transcript or include_raw_result off needs no read.
func TestResultAtContent(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ from, to resultContent }{
		{rawContent, transcriptContent}, {rawContent, summaryContent}, {transcriptContent, summaryContent},
		{summaryContent, summaryContent}, {rawContent, rawContent},
	} {
		t.Run(fmt.Sprintf("%d to %d", tc.from, tc.to), func(t *testing.T) {
			kept, diags := flattenResult(ctx, fullResult(), tc.from, nil)
			if diags.HasError() {
				t.Fatal(diags)
			}
			want, _ := flattenResult(ctx, fullResult(), tc.to, nil)
			got, diags := resultAtContent(kept, tc.to)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if !got.Equal(want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
	if got, _ := resultAtContent(types.ObjectNull(resultType.AttrTypes), summaryContent); !got.IsNull() {
		t.Errorf("a null result became %s", got)
	}
}

// TestFlattenResult_emptyResultsStayEmpty: what the service sends as an
// empty list stays an empty value at transcriptContent, not null: null
// means the service sent nothing (a failed add-on, see
// TestFlattenResult_failedAddonWithoutResults), and a module testing for
// "no entities" or "no subtitles" must not be told "not enabled".
func TestFlattenResult_emptyResultsStayEmpty(t *testing.T) {
	const empty = `{"success": true, "is_empty": true, "exec_time": 0.1, "error": null, "results": []}`
	body := `{"metadata": {"audio_duration": 1, "number_of_distinct_channels": 1, "billing_time": 1, "transcription_time": 1},
		"transcription": {"full_transcript": "", "languages": [], "utterances": [], "sentences": [], "subtitles": []},
		"translation": ` + empty + `, "named_entity_recognition": ` + empty + `, "audio_to_llm": ` + empty + `, "sentences": ` + empty + `}`
	var r client.Result
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	o, diags := flattenResult(context.Background(), &r, transcriptContent, nil)
	if diags.HasError() {
		t.Fatal(diags)
	}
	for _, p := range [][]any{
		{"transcription", "utterances"}, {"transcription", "sentences"},
		{"translation", "results"}, {"named_entity_recognition", "results"}, {"sentences", "results"},
	} {
		if got := at(t, o, p...); !got.Equal(jsonTextValue("[]")) {
			t.Errorf("%v is %v, want the empty list the service sent", p, got)
		}
	}
	if l := at(t, o, "audio_to_llm", "results").(types.List); l.IsNull() || len(l.Elements()) != 0 {
		t.Errorf("audio_to_llm.results is %v, want an empty list", l)
	}
	if m := at(t, o, "transcription", "subtitles").(types.Map); m.IsNull() || len(m.Elements()) != 0 {
		t.Errorf("transcription.subtitles is %v, want an empty map", m)
	}
}

// TestTranslationsJSON_targetLanguage: the service names a translation's
// target language only as the item's sole language; an item with none or
// several has no `language` rather than a guess.
func TestTranslationsJSON_targetLanguage(t *testing.T) {
	for _, tc := range []struct {
		languages []string
		want      *string
	}{
		{[]string{"fr"}, ptr("fr")},
		{nil, nil},
		{[]string{}, nil},
		{[]string{"fr", "en"}, nil},
	} {
		got := translationsJSON([]client.TranslationItem{{Languages: tc.languages}}, false, nil)[0].Language
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("languages %v: language %v, want %v", tc.languages, got, tc.want)
		}
	}
}

// TestResultAtContent_nullAndUndecodableJSON: null JSON values (a failed
// add-on's results, a transcript without utterances) stay null when words
// are dropped at plan time, as a read gives them, instead of failing the
// plan; JSON in state that does not decode is an error, not kept as it is
// with its word timings.
func TestResultAtContent_nullAndUndecodableJSON(t *testing.T) {
	ctx := context.Background()
	r := &client.Result{
		Transcription: &client.Transcription{FullTranscript: "x", Languages: []string{"en"}},
		Translation:   &client.AddonResult[[]client.TranslationItem]{Success: false, Error: &client.AddonError{StatusCode: 502, Exception: "UpstreamError", Message: "unavailable"}},
	}
	kept, diags := flattenResult(ctx, r, rawContent, nil)
	if diags.HasError() {
		t.Fatal(diags)
	}
	want, _ := flattenResult(ctx, r, transcriptContent, nil)
	got, diags := resultAtContent(kept, transcriptContent)
	if diags.HasError() || !got.Equal(want) {
		t.Errorf("null utterances and translations: %v\ngot  %s\nwant %s", diags, got, want)
	}

	kept, _ = flattenResult(ctx, fullResult(), rawContent, nil)
	attrs := maps.Clone(kept.Attributes())
	transcription := maps.Clone(attrs["transcription"].(types.Object).Attributes())
	transcription["utterances"] = jsonTextValue(`[{"start": 0, "words": [`)
	attrs["transcription"] = types.ObjectValueMust(transcriptionType.AttrTypes, transcription)
	_, diags = resultAtContent(types.ObjectValueMust(resultType.AttrTypes, attrs), transcriptContent)
	if !diags.HasError() || !strings.Contains(diags[0].Summary(), "Cannot read a value of the job's result") {
		t.Errorf("undecodable utterances in state: diagnostics %v, want an error", diags)
	}
}

// TestFlattenResult_failedAddonWithoutResults: an add-on that failed has
// `results: null` (the official client's types: translation, summarization,
// named entity recognition, sentences). Its results stay null at every
// content, as the views document, rather than an empty text or list.
func TestFlattenResult_failedAddonWithoutResults(t *testing.T) {
	const failed = `{"success": false, "is_empty": true, "exec_time": 0.1, "error": {"status_code": 502, "exception": "UpstreamError", "message": "unavailable"}, "results": null}`
	body := `{"metadata": {"audio_duration": 1, "number_of_distinct_channels": 1, "billing_time": 1, "transcription_time": 1},
		"translation": ` + failed + `, "summarization": ` + failed + `, "named_entity_recognition": ` + failed + `, "sentences": ` + failed + `}`
	var r client.Result
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	for _, content := range []resultContent{summaryContent, transcriptContent, rawContent} {
		o, diags := flattenResult(context.Background(), &r, content, nil)
		if diags.HasError() {
			t.Fatal(diags)
		}
		for _, addon := range []string{"translation", "summarization", "named_entity_recognition", "sentences"} {
			if got := at(t, o, addon, "results"); !got.IsNull() {
				t.Errorf("content %d: %s.results is %v, want null as the service sent it", content, addon, got)
			}
			if got := at(t, o, addon, "error", "status_code"); !got.Equal(types.Int64Value(502)) {
				t.Errorf("content %d: %s.error.status_code is %v, want 502", content, addon, got)
			}
		}
	}
}

// TestFlattenFile_nullNameAndSource: the service sends `filename` and
// `source` null when it has none (the official client's types: a live
// session has no download link); they stay null rather than empty texts.
func TestFlattenFile_nullNameAndSource(t *testing.T) {
	var job client.LiveJob
	body := `{"id": "11111111-1111-4111-8111-111111111111", "request_id": "r", "version": 2, "status": "done", "created_at": "2025-03-10T12:00:00Z", "kind": "live",
		"file": {"id": "f1", "filename": null, "source": null, "audio_duration": 2.5, "number_of_channels": 1}}`
	if err := json.Unmarshal([]byte(body), &job); err != nil {
		t.Fatal(err)
	}
	o := flattenFile(job.File)
	for _, name := range []string{"filename", "source"} {
		if got := at(t, o, name); !got.IsNull() {
			t.Errorf("file.%s is %v, want null as the service sent it", name, got)
		}
	}
	if got := at(t, o, "id"); !got.Equal(types.StringValue("f1")) {
		t.Errorf("file.id is %v", got)
	}
}

// TestViews_describeOnlySettingsTheSchemaHas: the result's view is shared by
// the resource and both data sources, so a setting it names (`include_... =
// true`) must be an argument of each schema it appears in. The utterances'
// description told transcription_live_jobs users that word timings come
// with `include_raw_result = true`, which that data source does not have:
// it keeps no word timings.
func TestViews_describeOnlySettingsTheSchemaHas(t *testing.T) {
	ctx := context.Background()
	var jobDS, jobsDS, liveDS datasource.SchemaResponse
	(&jobDataSource{}).Schema(ctx, datasource.SchemaRequest{}, &jobDS)
	NewJobsDataSource().Schema(ctx, datasource.SchemaRequest{}, &jobsDS)
	NewLiveJobsDataSource().Schema(ctx, datasource.SchemaRequest{}, &liveDS)
	descriptions := map[string]map[string]string{
		"resource transcription_job":          {},
		"data source transcription_job":       {},
		"data source transcription_jobs":      {},
		"data source transcription_live_jobs": {},
	}
	for name, a := range jobSchema(ctx).Attributes {
		descriptions["resource transcription_job"][name] = a.GetMarkdownDescription()
	}
	for name, a := range jobDS.Schema.Attributes {
		descriptions["data source transcription_job"][name] = a.GetMarkdownDescription()
	}
	for name, a := range jobsDS.Schema.Attributes {
		descriptions["data source transcription_jobs"][name] = a.GetMarkdownDescription()
	}
	for name, a := range liveDS.Schema.Attributes {
		descriptions["data source transcription_live_jobs"][name] = a.GetMarkdownDescription()
	}
	setting := regexp.MustCompile("`(include_[a-z_]+) = ")
	for schemaName, attrs := range descriptions {
		for name, desc := range attrs {
			for _, m := range setting.FindAllStringSubmatch(desc, -1) {
				if _, ok := attrs[m[1]]; !ok {
					t.Errorf("%s: the description of %s names `%s`, which is no argument of it", schemaName, name, m[1])
				}
			}
		}
	}
}

// What an add-on that failed leaves is null, never a value that reads as a
// result: the transcript's sentences when every sentences result failed
// (those that succeeded are kept when some did), a failed sentiment
// analysis's "" results; and a translation that failed is named by its
// place among the request's target languages.
func TestFlattenResult_failedParts(t *testing.T) {
	ctx := context.Background()
	failed := &client.AddonError{StatusCode: 503, Message: "down"}
	for name, tc := range map[string]struct {
		sentences []client.AddonResult[[]string]
		want      attr.Value
	}{
		"every one failed":  {[]client.AddonResult[[]string]{{Error: failed}, {Success: false}}, jsonTextNull()},
		"one of two failed": {[]client.AddonResult[[]string]{{Success: true, Results: []string{"A.", "B."}}, {Error: failed, Results: []string{"not a result"}}}, jsonTextValue(`["A.","B."]`)},
		"none sent":         {[]client.AddonResult[[]string]{}, jsonTextValue(`[]`)},
		"absent":            {nil, jsonTextNull()},
	} {
		r := &client.Result{Transcription: &client.Transcription{Sentences: tc.sentences}}
		o, diags := flattenResult(ctx, r, transcriptContent, nil)
		if got := at(t, o, "transcription", "sentences"); diags.HasError() || !got.Equal(tc.want) {
			t.Errorf("%s: transcription.sentences %v %v, want %v", name, got, diags, tc.want)
		}
	}

	r := &client.Result{
		SentimentAnalysis: &client.AddonResult[string]{Error: failed, Results: ""},
		Translation: &client.AddonResult[[]client.TranslationItem]{Success: true, Results: []client.TranslationItem{
			{Languages: []string{"fr"}, FullTranscript: "Bonjour."},
			{Error: failed, Languages: []string{}},
		}},
	}
	empty := ""
	r.Summarization = &client.AddonResult[*string]{Error: failed, Results: &empty}
	r.NamedEntityRecognition = &client.AddonResult[[]client.NamedEntity]{Error: failed, Results: []client.NamedEntity{}}
	r.AudioToLLM = &client.AddonResult[[]client.AudioToLLMResult]{Success: true, Results: []client.AudioToLLMResult{
		{Success: true, Results: &client.AudioToLLMAnswer{Prompt: &empty, Response: &empty}},
		{Error: failed, Results: &client.AudioToLLMAnswer{Prompt: &empty, Response: &empty}},
	}}
	o, diags := flattenResult(ctx, r, transcriptContent, []string{"fr", "de"})
	for _, name := range []string{"sentiment_analysis", "summarization", "named_entity_recognition"} {
		if got := at(t, o, name, "results"); diags.HasError() || !got.IsNull() {
			t.Errorf("a failed %s's results: %v %v, want null", name, got, diags)
		}
	}
	answers := at(t, o, "audio_to_llm", "results").(types.List).Elements()
	if ok, failedAnswer := answers[0].(types.Object).Attributes()["response"], answers[1].(types.Object).Attributes()["response"]; !ok.Equal(types.StringValue("")) || !failedAnswer.IsNull() {
		t.Errorf("responses %v and %v, want the answer kept and the failed prompt's null", ok, failedAnswer)
	}
	if got := atJSON(t, o, "translation", "results", 1, "language"); got != "de" {
		t.Errorf("the failed translation's language %v, want de, its target language", got)
	}
	// Without the request's target languages (or with as many as results
	// do not match), nothing is guessed.
	o, _ = flattenResult(ctx, r, transcriptContent, []string{"de"})
	if got := atJSON(t, o, "translation", "results", 1, "language"); got != nil {
		t.Errorf("language %v, want null when the target languages do not match the results", got)
	}
}

// A result state read by an earlier build, whose failed add-ons kept ""
// or [] as results, is planned as a read gives it now (results null), when
// a change of include_transcript or include_raw_result plans it: keeping
// less (resultAtContent) or more (resultToBeRead, where a failed add-on's
// results stay known: none). The apply keeps what its plan knew.
func TestResultPlans_asReadNow(t *testing.T) {
	ctx := context.Background()
	summary := "Summary."
	o, diags := flattenResult(ctx, &client.Result{
		Transcription:     &client.Transcription{FullTranscript: "Hello.", Languages: []string{"en"}},
		Summarization:     &client.AddonResult[*string]{Success: true, Results: &summary},
		SentimentAnalysis: &client.AddonResult[string]{Success: true, Results: "positive"},
	}, transcriptContent, nil)
	if diags.HasError() {
		t.Fatal(diags)
	}
	set := func(o types.Object, object, attribute string, v attr.Value) types.Object {
		inner := o.Attributes()[object].(types.Object)
		values := maps.Clone(inner.Attributes())
		values[attribute] = v
		attrs := maps.Clone(o.Attributes())
		attrs[object] = types.ObjectValueMust(inner.AttributeTypes(ctx), values)
		return types.ObjectValueMust(o.AttributeTypes(ctx), attrs)
	}
	// As an earlier build kept them once failed.
	stale := set(set(o, "summarization", "success", types.BoolValue(false)), "summarization", "results", types.StringValue(""))
	stale = set(set(stale, "sentiment_analysis", "success", types.BoolValue(false)), "sentiment_analysis", "results", types.StringValue(""))
	// A prompt failed alone, its response kept as "", and the sentences
	// failed, the transcript's kept as "[]".
	empty := ""
	withAnswers, _ := flattenResult(ctx, &client.Result{
		Transcription: &client.Transcription{FullTranscript: "Hello.", Languages: []string{"en"}, Sentences: []client.AddonResult[[]string]{{Error: &client.AddonError{StatusCode: 500}}}},
		Sentences:     &client.AddonResult[[]string]{Error: &client.AddonError{StatusCode: 500}},
		AudioToLLM: &client.AddonResult[[]client.AudioToLLMResult]{Success: true, Results: []client.AudioToLLMResult{
			{Success: true, Results: &client.AudioToLLMAnswer{Prompt: &empty, Response: &summary}},
			{Error: &client.AddonError{StatusCode: 500}, Results: &client.AudioToLLMAnswer{Prompt: &empty}},
		}},
	}, transcriptContent, nil)
	answers := at(t, withAnswers, "audio_to_llm", "results").(types.List)
	failedAnswer := answers.Elements()[1].(types.Object)
	failedValues := maps.Clone(failedAnswer.Attributes())
	failedValues["response"] = types.StringValue("")
	elems := slices.Clone(answers.Elements())
	elems[1] = types.ObjectValueMust(failedAnswer.AttributeTypes(ctx), failedValues)
	replace := func(o types.Object, name string, v attr.Value) types.Object {
		attrs := maps.Clone(o.Attributes())
		attrs[name] = v
		return types.ObjectValueMust(o.AttributeTypes(ctx), attrs)
	}
	stale = replace(stale, "audio_to_llm", replace(withAnswers.Attributes()["audio_to_llm"].(types.Object), "results", types.ListValueMust(answers.ElementType(ctx), elems)))
	stale = replace(stale, "sentences", withAnswers.Attributes()["sentences"])
	stale = set(stale, "transcription", "sentences", jsonTextValue("[]"))
	asNow, diags := resultAtContent(stale, transcriptContent)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if got := at(t, asNow, "audio_to_llm", "results").(types.List).Elements()[1].(types.Object).Attributes()["response"]; !got.IsNull() {
		t.Errorf("a failed prompt's response %v, want null", got)
	}
	if got := at(t, asNow, "audio_to_llm", "results").(types.List).Elements()[0].(types.Object).Attributes()["response"]; !got.Equal(types.StringValue(summary)) {
		t.Errorf("an answered prompt's response %v, want it kept", got)
	}
	if got := at(t, asNow, "transcription", "sentences"); !got.IsNull() {
		t.Errorf("the transcript's sentences, failed with the add-on, %v, want null", got)
	}

	less, diags := resultAtContent(stale, summaryContent)
	if got := at(t, less, "summarization", "results"); diags.HasError() || !got.IsNull() {
		t.Errorf("keeping less: a failed summarization's results %v %v, want null", got, diags)
	}
	staleSummary, _ := resultAtContent(stale, summaryContent)
	staleSummary = set(staleSummary, "summarization", "results", types.StringValue(""))
	more, diags := resultToBeRead(staleSummary, summaryContent, transcriptContent)
	if diags.HasError() {
		t.Fatal(diags)
	}
	for _, object := range []string{"summarization", "sentiment_analysis"} {
		if got := at(t, more, object, "results"); got.IsUnknown() || !got.IsNull() {
			t.Errorf("keeping more: a failed %s's results %v, want null, known", object, got)
		}
	}
	if got := at(t, more, "transcription", "full_transcript"); !got.IsUnknown() {
		t.Errorf("keeping more: full_transcript %v, want unknown (the read adds it)", got)
	}
	// The apply: what the plan knew stays, what it did not comes from the read.
	read := set(o, "summarization", "results", types.StringValue("Read again."))
	applied := withUnknownsFrom(more, read)
	if got := at(t, applied, "summarization", "results"); !got.IsNull() {
		t.Errorf("applied summarization results %v, want the planned null", got)
	}
	if got := at(t, applied, "transcription", "full_transcript"); !got.Equal(types.StringValue("Hello.")) {
		t.Errorf("applied full_transcript %v, want the read's", got)
	}
}
