package provider

// The computed view of a job record, shared by the transcription_job resource,
// the transcription_job data source and the listing data sources
// (transcription_jobs, transcription_live_jobs). Resource and data source
// schemas are distinct Go types, so the tree is defined once as viewAttr and
// both schema forms, and the object types the converters build, derive from it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// viewAttr is one computed attribute of a view: a leaf of type typ, or an
// object of nested attributes (a list of such objects when list is set).
type viewAttr struct {
	name        string
	description string
	typ         attr.Type // leaves only
	nested      []viewAttr
	list        bool // list of nested objects
}

// Leaf constructors keep the view tables short.
func viewString(name, description string) viewAttr {
	return viewAttr{name: name, description: description, typ: types.StringType}
}
func viewInt64(name, description string) viewAttr {
	return viewAttr{name: name, description: description, typ: types.Int64Type}
}
func viewFloat64(name, description string) viewAttr {
	return viewAttr{name: name, description: description, typ: types.Float64Type}
}
func viewBool(name, description string) viewAttr {
	return viewAttr{name: name, description: description, typ: types.BoolType}
}
func viewStringList(name, description string) viewAttr {
	return viewAttr{name: name, description: description, typ: types.ListType{ElemType: types.StringType}}
}
func viewStringMap(name, description string) viewAttr {
	return viewAttr{name: name, description: description, typ: types.MapType{ElemType: types.StringType}}
}

// viewJSON is a leaf holding JSON text, for the values that grow with the
// recording: one string costs the framework far less than a list of objects.
func viewJSON(name, description string) viewAttr {
	return viewAttr{name: name, description: description, typ: jsonTextType{}}
}
func viewObject(name, description string, nested ...viewAttr) viewAttr {
	return viewAttr{name: name, description: description, nested: nested}
}
func viewObjectList(name, description string, nested ...viewAttr) viewAttr {
	return viewAttr{name: name, description: description, nested: nested, list: true}
}

// attrType is the framework type of the attribute's value.
func (v viewAttr) attrType() attr.Type {
	if v.nested == nil {
		return v.typ
	}
	obj := v.objectType()
	if v.list {
		return types.ListType{ElemType: obj}
	}
	return obj
}

// objectType is the type of the attribute's object (of each element, for a
// list of objects). Only for nested attributes.
func (v viewAttr) objectType() types.ObjectType {
	return types.ObjectType{AttrTypes: viewAttrTypes(v.nested)}
}

func viewAttrTypes(attrs []viewAttr) map[string]attr.Type {
	out := make(map[string]attr.Type, len(attrs))
	for _, a := range attrs {
		out[a.name] = a.attrType()
	}
	return out
}

// resourceAttribute is the attribute in a resource schema, computed only.
// Views are objects (lists of objects) at the top level; their leaves are
// types of the object.
func (v viewAttr) resourceAttribute() rschema.Attribute {
	if v.nested == nil {
		panic(fmt.Sprintf("view attribute %s: only object views are schema attributes", v.name))
	}
	if v.list {
		return rschema.ListAttribute{MarkdownDescription: v.markdownDescription(), Computed: true, ElementType: v.objectType()}
	}
	return rschema.ObjectAttribute{MarkdownDescription: v.markdownDescription(), Computed: true, AttributeTypes: v.objectType().AttrTypes}
}

// dataSourceAttribute is the attribute in a data source schema, computed only.
func (v viewAttr) dataSourceAttribute() dschema.Attribute {
	return computedDataSourceAttribute(v.resourceAttribute())
}

// markdownDescription is the description with, for an object, its fields as
// a nested list: computed objects are object-typed attributes (the framework
// handles their values several times faster than nested attributes), whose
// fields cannot carry descriptions of their own. tfplugindocs appends a link
// to its own alphabetical table of the fields, hence the closing line.
func (v viewAttr) markdownDescription() string {
	var b strings.Builder
	b.WriteString(v.description)
	v.writeFields(&b, "  ")
	b.WriteString("\n\n  Every field by name, with its type:")
	return b.String()
}

func (v viewAttr) writeFields(b *strings.Builder, indent string) {
	for _, a := range v.nested {
		fmt.Fprintf(b, "\n%s- `%s` (%s) %s", indent, a.name, a.docsType(), a.description)
		a.writeFields(b, indent+"  ")
	}
}

// docsType names the type as tfplugindocs does.
func (v viewAttr) docsType() string {
	switch {
	case v.nested != nil && v.list:
		return "List of Object"
	case v.nested != nil:
		return "Object"
	}
	switch t := v.typ.(type) {
	case basetypes.StringType, jsonTextType:
		return "String"
	case basetypes.Int64Type, basetypes.Float64Type:
		return "Number"
	case basetypes.BoolType:
		return "Boolean"
	case basetypes.ListType:
		return "List of " + viewAttr{typ: t.ElemType}.docsType()
	case basetypes.MapType:
		return "Map of " + viewAttr{typ: t.ElemType}.docsType()
	}
	panic(fmt.Sprintf("view attribute %s: unsupported type %T", v.name, v.typ))
}

// withDescription returns a copy of the view in which the nested attribute
// at the dotted path has the given description, for a schema where the
// shared one does not hold.
func (v viewAttr) withDescription(dotted, description string) viewAttr {
	name, rest, deeper := strings.Cut(dotted, ".")
	nested := slices.Clone(v.nested)
	for i, a := range nested {
		if a.name != name {
			continue
		}
		if deeper {
			nested[i] = a.withDescription(rest, description)
		} else {
			nested[i].description = description
		}
		v.nested = nested
		return v
	}
	panic(fmt.Sprintf("view attribute %s has no attribute %s", v.name, name))
}

// child returns the nested attribute called name; the view tables are fixed,
// so a missing name is a programming error.
func (v viewAttr) child(name string) viewAttr {
	for _, a := range v.nested {
		if a.name == name {
			return a
		}
	}
	panic(fmt.Sprintf("view attribute %s has no attribute %s", v.name, name))
}

// ---------------------------------------------------------------------------
// The views.

// transcriptSized ends the description of each value that grows with the
// recording (see resultContent).
const transcriptSized = " Transcript-sized: null unless `include_transcript = true`."

// includeTranscriptDescription opens the description of include_transcript,
// which the resource and both data sources share.
const includeTranscriptDescription = "Whether to keep the transcript and everything else in `result` that grows with the recording's length: " +
	"the text, utterances, sentences and subtitles (`result.transcription`), the translations, the named entities, the sentiment analysis, the `sentences` add-on's results and a live session's `messages`. " +
	"An hour of audio has about 46 KB of transcript in 540 utterances, so by default only what does not grow is kept: " +
	"`result.metadata`, the detected languages, the summary, the audio-to-LLM answers, and every add-on's status and error."

// addonView is the add-on result envelope shared by every add-on.
func addonView(name, what string, results viewAttr) viewAttr {
	return viewObject(name, "Result of the "+what+" add-on; null when the add-on was not enabled.", addonFields(results)...)
}

// addonFields are the fields of an add-on result object: its status, its
// error and its results.
func addonFields(results ...viewAttr) []viewAttr {
	return append([]viewAttr{
		viewBool("success", "Whether the add-on succeeded."),
		viewBool("is_empty", "Whether the add-on produced no result."),
		viewFloat64("exec_time", "Time the add-on took to run, in seconds."),
		addonErrorView,
	}, results...)
}

var addonErrorView = viewObject("error", "Why the add-on failed; null when it did not.",
	viewInt64("status_code", "HTTP-style status code of the failure."),
	viewString("exception", "Name of the failure."),
	viewString("message", "Description of the failure."),
)

// utterancesDescription describes the JSON of a transcript's utterances
// where include_raw_result keeps their word timings.
const utterancesDescription = utterancesFields + " and, only with `include_raw_result = true`, `words` (each `word`, `start`, `end`, `confidence`). " + utterancesExample

// listedUtterancesDescription is utterancesDescription where no setting
// keeps word timings (the listing data sources).
const listedUtterancesDescription = utterancesFields + "; word timings (`words`) are not kept. " + utterancesExample

const (
	utterancesFields  = "Utterances of the transcript, in order, as JSON text: a list of objects with `start` and `end` (seconds), `confidence` (0 to 1), `channel`, `text`, `language`, `speaker` (with diarization)"
	utterancesExample = "Read it with `jsondecode`; of a `transcription_job` resource, for example, `[for u in jsondecode(transcription_job.example.result.transcription.utterances) : u.text]`."
)

// transcriptViews are the attributes a transcript has, in the original
// language or in a translation.
func transcriptViews() []viewAttr {
	return []viewAttr{
		viewString("full_transcript", "The whole transcript as one text."+transcriptSized),
		viewStringList("languages", "Language codes detected in the audio."),
		viewJSON("utterances", utterancesDescription+transcriptSized),
		viewJSON("sentences", "Texts of the sentences of the transcript, as a JSON list of strings (`jsondecode(...)`); null (or `[]`, as the service may send) unless the `sentences` add-on was enabled, and null when it failed (when only some of its parts did, the texts of the others: the warning of failed add-ons names them)."+transcriptSized),
		viewStringMap("subtitles", "Subtitle files keyed by format (`srt`, `vtt`); null (or empty, as the service may send) unless subtitles were enabled."+transcriptSized),
	}
}

var transcriptionView = viewObject("transcription", "The transcript.", transcriptViews()...)

var translationView = addonView("translation", "translation",
	viewJSON("results", "One translation per target language, as JSON text: a list of objects with `language` (the target language, also for a translation that failed, from the request's `target_languages`), `error` (null or `status_code`, `exception`, `message`), "+
		"`full_transcript`, `languages`, `utterances` (as in `result.transcription.utterances`), `sentences` (texts; null when they failed) and `subtitles` (keyed by format). "+
		"Of a `transcription_job` resource, for example, `{ for t in jsondecode(transcription_job.example.result.translation.results) : t.language => t.full_transcript }`. Null when the add-on failed."+transcriptSized),
)

var resultMetadataView = viewObject("metadata", "Figures about the processing.",
	viewFloat64("audio_duration", "Duration of the audio, in seconds."),
	viewInt64("number_of_distinct_channels", "Number of distinct audio channels."),
	viewFloat64("billing_time", "Billed duration, in seconds."),
	viewFloat64("transcription_time", "Time the transcription took, in seconds."),
)

// llmAnswerView is one prompt's add-on result in result.audio_to_llm.results.
var llmAnswerView = viewObjectList("results", "One add-on result per prompt, in the order of the prompts, each with its own `success` and `error`; null when the add-on failed as a whole.",
	addonFields(
		viewString("prompt", "The prompt."),
		viewString("response", "The LLM's answer; null when the prompt failed."),
	)...,
)

// resultView is the `result` attribute: null until the job is done.
var resultView = viewObject("result", "Result of the job; null until the job is `done`.",
	resultMetadataView,
	transcriptionView,
	translationView,
	addonView("summarization", "summarization", viewString("results", "The summary; null when the add-on failed.")),
	addonView("named_entity_recognition", "named entity recognition", viewJSON("results", "Entities found in the transcript, as JSON text: a list of objects with `entity_type`, `text`, and `start` and `end` in seconds "+
		"(`jsondecode(...)`); null when the add-on failed."+transcriptSized)),
	addonView("sentiment_analysis", "sentiment analysis", viewString("results", "The sentiment analysis, as the service wrote it; null when the add-on failed."+transcriptSized)),
	addonView("audio_to_llm", "audio-to-LLM", llmAnswerView),
	addonView("sentences", "sentences", viewJSON("results", "Texts of the sentences of the transcript, as a JSON list of strings (`jsondecode(...)`); null when the add-on failed."+transcriptSized)),
	viewStringList("messages", "The real-time messages the service sent during a live session (transcripts, events), each as the service wrote it (`jsondecode(...)` reads one); null for other jobs."+transcriptSized),
)

// fileView is the `file` attribute: the audio the job transcribed.
var fileView = viewObject("file", "The audio the job transcribed; may be null when the job failed.",
	viewString("id", "Identifier of the file."),
	viewString("filename", "Name of the file; null when the service gives none."),
	viewString("source", "Where the audio came from (a pre-recorded job's `audio_url`), without its user information, and with `?…` for its query or fragment, where a presigned URL keeps its signature, so that what reads the result (outputs, logs of them) does not pass it on (a `transcription_job` resource's `audio_url`, its argument, holds the URL whole). Null when the service gives none, as for a live session."),
	viewFloat64("audio_duration", "Duration of the audio, in seconds."),
	viewInt64("number_of_channels", "Number of audio channels."),
)

// Object types computed once: a live listing builds thousands of results.
var (
	resultType        = resultView.objectType()
	metadataType      = resultMetadataView.objectType()
	transcriptionType = transcriptionView.objectType()
	addonErrorType    = addonErrorView.objectType()
	translationType   = translationView.objectType()
	summarizationType = resultView.child("summarization").objectType()
	nerType           = resultView.child("named_entity_recognition").objectType()
	sentimentType     = resultView.child("sentiment_analysis").objectType()
	audioToLLMType    = resultView.child("audio_to_llm").objectType()
	llmAnswerType     = llmAnswerView.objectType()
	sentencesAddType  = resultView.child("sentences").objectType()
	fileType          = fileView.objectType()
)

// ---------------------------------------------------------------------------
// Converters from client types. Absent values stay null.

// flattener builds framework values, collecting the diagnostics of any
// mismatch between a converter and its view (a programming error).
type flattener struct {
	diags diag.Diagnostics
}

func (f *flattener) object(t types.ObjectType, values map[string]attr.Value) types.Object {
	o, d := types.ObjectValue(t.AttrTypes, values)
	f.diags.Append(d...)
	return o
}

func (f *flattener) list(elem attr.Type, elems []attr.Value) types.List {
	l, d := types.ListValue(elem, elems)
	f.diags.Append(d...)
	return l
}

// resultContent is how much of a result a view keeps. What grows with the
// recording's length (an hour of audio: 46 KB of transcript, 540
// utterances, 7,700 words) is kept only when asked for, so that state stays
// small whatever the recordings' length.
type resultContent int

const (
	// summaryContent keeps what does not grow with the recording: the
	// metadata, the languages, the summary, the LLM answers, and every
	// add-on's status and error.
	summaryContent resultContent = iota
	// transcriptContent adds the transcript in every form (text,
	// utterances without words, sentences, subtitles, translations), the
	// analyses that grow with it (entities, sentiment) and a live session's
	// messages.
	transcriptContent
	// rawContent adds the word timings.
	rawContent
)

// flattenResult converts a job's result, keeping what content says;
// targetLanguages are its request's translation target languages, in order
// (nil when not known).
func flattenResult(_ context.Context, r *client.Result, content resultContent, targetLanguages []string) (types.Object, diag.Diagnostics) {
	if r == nil {
		return types.ObjectNull(resultType.AttrTypes), nil
	}
	withWords := content == rawContent
	// grows builds the results of an add-on whose size grows with the
	// recording only when the transcript is kept; null otherwise.
	grows := func(null attr.Value, results func() attr.Value) attr.Value {
		if content == summaryContent {
			return null
		}
		return results()
	}
	f := &flattener{}
	o := f.object(resultType, map[string]attr.Value{
		"metadata": f.object(metadataType, map[string]attr.Value{
			"audio_duration":              types.Float64Value(r.Metadata.AudioDuration),
			"number_of_distinct_channels": types.Int64Value(r.Metadata.NumberOfDistinctChannels),
			"billing_time":                types.Float64Value(r.Metadata.BillingTime),
			"transcription_time":          types.Float64Value(r.Metadata.TranscriptionTime),
		}),
		"transcription": f.transcription(r.Transcription, content),
		"translation": flattenAddon(f, r.Translation, translationType, func(items []client.TranslationItem) attr.Value {
			return grows(jsonTextNull(), func() attr.Value {
				return f.jsonOrNull(items == nil, translationsJSON(items, withWords, targetLanguages))
			})
		}),
		"summarization": flattenAddon(f, r.Summarization, summarizationType, func(s *string) attr.Value { return types.StringPointerValue(s) }),
		"named_entity_recognition": flattenAddon(f, r.NamedEntityRecognition, nerType, func(ents []client.NamedEntity) attr.Value {
			return grows(jsonTextNull(), func() attr.Value { return f.jsonOrNull(ents == nil, ents) })
		}),
		"sentiment_analysis": flattenAddon(f, r.SentimentAnalysis, sentimentType, func(s string) attr.Value {
			return grows(types.StringNull(), func() attr.Value { return types.StringValue(s) })
		}),
		"audio_to_llm": flattenAddon(f, r.AudioToLLM, audioToLLMType, func(answers []client.AudioToLLMResult) attr.Value {
			return objectList(f, llmAnswerType, answers, func(a client.AudioToLLMResult) map[string]attr.Value {
				var prompt, response *string
				if a.Results != nil {
					prompt, response = a.Results.Prompt, a.Results.Response
				}
				if failed(&a) {
					response = nil // what the service wrote ("") is no answer
				}
				values := f.addonStatus(a.Success, a.IsEmpty, a.ExecTime, a.Error)
				values["prompt"] = types.StringPointerValue(prompt)
				values["response"] = types.StringPointerValue(response)
				return values
			})
		}),
		"sentences": flattenAddon(f, r.Sentences, sentencesAddType, func(s []string) attr.Value {
			return grows(jsonTextNull(), func() attr.Value { return f.jsonOrNull(s == nil, s) })
		}),
		"messages": grows(types.ListNull(types.StringType), func() attr.Value { return flattenStrings(r.Messages) }),
	})
	if f.diags.HasError() {
		return types.ObjectNull(resultType.AttrTypes), f.diags
	}
	return o, f.diags
}

// flattenAddon converts the envelope shared by add-on results; results
// converts the add-on's own results, null when it failed: what the
// service writes for them then ("", [], null) is none, and "" or [] would
// read as a result.
func flattenAddon[T any](f *flattener, a *client.AddonResult[T], t types.ObjectType, results func(T) attr.Value) types.Object {
	if a == nil {
		return types.ObjectNull(t.AttrTypes)
	}
	values := f.addonStatus(a.Success, a.IsEmpty, a.ExecTime, a.Error)
	if failed(a) {
		values["results"] = nullOf(t.AttrTypes["results"])
	} else {
		values["results"] = results(a.Results)
	}
	return f.object(t, values)
}

// unknownValueOf is the unknown value of type t.
func unknownValueOf(t attr.Type) attr.Value { return valueOf(t, tftypes.UnknownValue) }

// nullOf is the null value of type t.
func nullOf(t attr.Type) attr.Value { return valueOf(t, nil) }

// valueOf is the value of type t whose Terraform value is raw: null or
// unknown, which every type takes.
func valueOf(t attr.Type, raw any) attr.Value {
	ctx := context.Background()
	v, err := t.ValueFromTerraform(ctx, tftypes.NewValue(t.TerraformType(ctx), raw))
	if err != nil {
		panic(err)
	}
	return v
}

// failed says whether an add-on failed: it has no results then, whatever
// the service writes for them.
func failed[T any](a *client.AddonResult[T]) bool { return !a.Success || a.Error != nil }

// addonStatus fills the fields every add-on result has but its results.
func (f *flattener) addonStatus(success, isEmpty bool, execTime float64, err *client.AddonError) map[string]attr.Value {
	return map[string]attr.Value{
		"success":   types.BoolValue(success),
		"is_empty":  types.BoolValue(isEmpty),
		"exec_time": types.Float64Value(execTime),
		"error":     f.addonError(err),
	}
}

func (f *flattener) addonError(e *client.AddonError) types.Object {
	if e == nil {
		return types.ObjectNull(addonErrorType.AttrTypes)
	}
	return f.object(addonErrorType, map[string]attr.Value{
		"status_code": types.Int64Value(e.StatusCode),
		"exception":   types.StringValue(e.Exception),
		"message":     types.StringValue(e.Message),
	})
}

// objectList converts items to a list of objects of type t, each with the
// attributes attrs gives; nil stays null.
func objectList[T any](f *flattener, t types.ObjectType, items []T, attrs func(T) map[string]attr.Value) types.List {
	if items == nil {
		return types.ListNull(t)
	}
	elems := make([]attr.Value, len(items))
	for i, item := range items {
		elems[i] = f.object(t, attrs(item))
	}
	return f.list(t, elems)
}

// json encodes v as the text of a JSON attribute.
func (f *flattener) json(v any) jsonText {
	b, err := json.Marshal(v)
	if err != nil {
		f.diags.AddError("Cannot encode a value of the job's result as JSON", err.Error())
		return jsonTextNull()
	}
	return jsonTextValue(string(b))
}

// jsonOrNull is json, or null when the service sent nothing.
func (f *flattener) jsonOrNull(absent bool, v any) jsonText {
	if absent {
		return jsonTextNull()
	}
	return f.json(v)
}

func (f *flattener) transcription(t *client.Transcription, content resultContent) types.Object {
	if t == nil {
		return types.ObjectNull(transcriptionType.AttrTypes)
	}
	values := map[string]attr.Value{
		"full_transcript": types.StringNull(),
		"languages":       flattenStrings(t.Languages),
		"utterances":      jsonTextNull(),
		"sentences":       jsonTextNull(),
		"subtitles":       types.MapNull(types.StringType),
	}
	if content != summaryContent {
		values["full_transcript"] = types.StringValue(t.FullTranscript)
		values["utterances"] = f.jsonOrNull(t.Utterances == nil, utterancesJSON(t.Utterances, content == rawContent))
		sentences := sentenceTexts(t.Sentences)
		values["sentences"] = f.jsonOrNull(sentences == nil, sentences)
		values["subtitles"] = subtitlesByFormat(t.Subtitles)
	}
	return f.object(transcriptionType, values)
}

// utteranceJSON is an utterance as the utterances attributes write it: the
// service's fields, words only when state keeps them.
type utteranceJSON struct {
	Start      float64       `json:"start"`
	End        float64       `json:"end"`
	Confidence float64       `json:"confidence"`
	Channel    int64         `json:"channel"`
	Text       string        `json:"text"`
	Language   string        `json:"language"`
	Speaker    *int64        `json:"speaker,omitempty"`
	Words      []client.Word `json:"words,omitempty"`
}

func utterancesJSON(utts []client.Utterance, withWords bool) []utteranceJSON {
	out := make([]utteranceJSON, len(utts))
	for i, u := range utts {
		out[i] = utteranceJSON{Start: u.Start, End: u.End, Confidence: u.Confidence, Channel: u.Channel, Text: u.Text, Language: u.Language, Speaker: u.Speaker}
		if withWords {
			out[i].Words = u.Words
		}
	}
	return out
}

// translationJSON is one translation as result.translation.results writes it.
type translationJSON struct {
	Language       *string            `json:"language"`
	Error          *client.AddonError `json:"error"`
	FullTranscript string             `json:"full_transcript"`
	Languages      []string           `json:"languages"`
	Utterances     []utteranceJSON    `json:"utterances"`
	Sentences      []string           `json:"sentences"`
	Subtitles      map[string]string  `json:"subtitles"`
}

func translationsJSON(items []client.TranslationItem, withWords bool, targetLanguages []string) []translationJSON {
	out := make([]translationJSON, len(items))
	for i, it := range items {
		out[i] = translationJSON{
			Error:          it.Error,
			FullTranscript: it.FullTranscript,
			Languages:      it.Languages,
			Utterances:     utterancesJSON(it.Utterances, withWords),
			Sentences:      sentenceTexts(it.Sentences),
			Subtitles:      subtitleFiles(it.Subtitles),
		}
		out[i].Language = translationLanguage(it, i, len(items), targetLanguages)
	}
	return out
}

// translationLanguage is the target language of item, the i-th of n
// translations: the service names it as the item's sole language; an item
// that failed has none, but its place among the request's target
// languages, one result each in order, names it. Nil when neither does.
func translationLanguage(item client.TranslationItem, i, n int, targetLanguages []string) *string {
	switch {
	case len(item.Languages) == 1:
		return &item.Languages[0]
	case len(targetLanguages) == n:
		return &targetLanguages[i]
	}
	return nil
}

// translationTargets are the target languages of job's request, in order;
// nil when it has none or they are not known.
func translationTargets(job *client.PreRecordedJob) []string {
	if p := job.RequestParams; p != nil && p.TranslationConfig != nil {
		return p.TranslationConfig.TargetLanguages
	}
	return nil
}

// sentenceTexts joins the texts of the transcript's sentences add-on
// results (the spec wraps them in add-on result objects), of those that
// succeeded; nil (null) when none was sent or every one failed, as an
// add-on that failed has no results (an empty list would read as a
// transcript without sentences). addonFailures names the ones that failed.
func sentenceTexts(results []client.AddonResult[[]string]) []string {
	if results == nil {
		return nil
	}
	texts := []string{}
	succeeded := len(results) == 0
	for _, r := range results {
		if !failed(&r) {
			succeeded = true
			texts = append(texts, r.Results...)
		}
	}
	if !succeeded {
		return nil
	}
	return texts
}

// subtitleFiles keys the subtitle files by format, which is unique per job.
func subtitleFiles(subs []client.Subtitle) map[string]string {
	if subs == nil {
		return nil
	}
	out := make(map[string]string, len(subs))
	for _, s := range subs {
		out[s.Format] = s.Subtitles
	}
	return out
}

func subtitlesByFormat(subs []client.Subtitle) types.Map {
	if subs == nil {
		return types.MapNull(types.StringType)
	}
	elems := make(map[string]attr.Value, len(subs))
	for format, text := range subtitleFiles(subs) {
		elems[format] = types.StringValue(text)
	}
	return types.MapValueMust(types.StringType, elems)
}

// resultLeaf is a value of a result, attribute of its object (a top-level
// attribute of the result: transcription, an add-on).
type resultLeaf struct{ object, attribute string }

// transcriptLeaves are the values of a result that only transcriptContent
// and rawContent keep; wordLeaves those whose JSON holds word timings with
// rawContent alone.
var (
	transcriptLeaves = []resultLeaf{
		{"transcription", "full_transcript"}, {"transcription", "subtitles"}, {"transcription", "utterances"}, {"transcription", "sentences"},
		{"translation", "results"}, {"named_entity_recognition", "results"}, {"sentences", "results"}, {"sentiment_analysis", "results"},
	}
	wordLeaves = []resultLeaf{{"transcription", "utterances"}, {"translation", "results"}}
)

// setLeaves sets each of leaves in attrs, a result's attributes, to what
// value makes of it (given its object's attributes); an object null or
// unknown stays as it is.
func (f *flattener) setLeaves(attrs map[string]attr.Value, leaves []resultLeaf, value func(object map[string]attr.Value, v attr.Value) attr.Value) {
	for _, leaf := range leaves {
		o, ok := attrs[leaf.object].(types.Object)
		if !ok || o.IsNull() || o.IsUnknown() {
			continue
		}
		values := maps.Clone(o.Attributes())
		values[leaf.attribute] = value(values, values[leaf.attribute])
		attrs[leaf.object] = f.object(types.ObjectType{AttrTypes: o.AttributeTypes(context.Background())}, values)
	}
}

// asReadNow is the attributes of a result state as a read of the job
// would give them now, where the rules changed since it was read: an
// add-on that failed has no results, a prompt that failed no response.
func asReadNow(f *flattener, r types.Object) map[string]attr.Value {
	attrs := maps.Clone(r.Attributes())
	for name := range attrs {
		o, ok := attrs[name].(types.Object)
		if !ok || o.IsNull() || o.IsUnknown() {
			continue
		}
		values := o.Attributes()
		if _, isAddon := values["success"]; !isAddon {
			continue
		}
		values = maps.Clone(values)
		if addonStateFailed(values) {
			values["results"] = nullOf(values["results"].Type(context.Background()))
		} else if answers, ok := values["results"].(types.List); ok && !answers.IsNull() && !answers.IsUnknown() {
			elems := slices.Clone(answers.Elements())
			for i, e := range elems {
				answer, ok := e.(types.Object)
				if !ok || answer.IsNull() || !addonStateFailed(answer.Attributes()) {
					continue
				}
				a := maps.Clone(answer.Attributes())
				a["response"] = types.StringNull()
				elems[i] = f.object(types.ObjectType{AttrTypes: answer.AttributeTypes(context.Background())}, a)
			}
			values["results"] = f.list(answers.ElementType(context.Background()), elems)
		}
		attrs[name] = f.object(types.ObjectType{AttrTypes: o.AttributeTypes(context.Background())}, values)
	}
	// The transcript's sentences failed with the add-on: an earlier build
	// kept "[]" for them.
	sentences, _ := attrs["sentences"].(types.Object)
	if transcription, ok := attrs["transcription"].(types.Object); ok && !transcription.IsNull() && !transcription.IsUnknown() &&
		!sentences.IsNull() && !sentences.IsUnknown() && addonStateFailed(sentences.Attributes()) &&
		transcription.Attributes()["sentences"].Equal(jsonTextValue("[]")) {
		values := maps.Clone(transcription.Attributes())
		values["sentences"] = jsonTextNull()
		attrs["transcription"] = f.object(transcriptionType, values)
	}
	return attrs
}

// addonStateFailed says whether an add-on result, given by its attributes
// in state, failed: failed's rule, read from state.
func addonStateFailed(values map[string]attr.Value) bool {
	success, _ := values["success"].(types.Bool)
	failure, _ := values["error"].(types.Object)
	return (!success.IsNull() && !success.IsUnknown() && !success.ValueBool()) || (!failure.IsNull() && !failure.IsUnknown())
}

// resultAtContent returns a result state kept at a larger content as it is
// kept at content: what only the larger content keeps becomes null, and
// word timings are dropped from the utterances. It is what reading the job
// at content would give, without reading it, so that a plan that turns
// include_transcript or include_raw_result off knows the result.
func resultAtContent(r types.Object, content resultContent) (types.Object, diag.Diagnostics) {
	if r.IsNull() || r.IsUnknown() {
		return r, nil
	}
	f := &flattener{}
	attrs := asReadNow(f, r)
	switch content {
	case summaryContent:
		f.setLeaves(attrs, transcriptLeaves, func(_ map[string]attr.Value, v attr.Value) attr.Value { return nullOf(v.Type(context.Background())) })
		attrs["messages"] = types.ListNull(types.StringType)
	case transcriptContent:
		f.setLeaves(attrs, wordLeaves[:1], func(_ map[string]attr.Value, v attr.Value) attr.Value {
			return rewriteJSON(f, v, func(utts []utteranceJSON) []utteranceJSON { return withoutWords(utts) })
		})
		f.setLeaves(attrs, wordLeaves[1:], func(_ map[string]attr.Value, v attr.Value) attr.Value {
			return rewriteJSON(f, v, func(items []translationJSON) []translationJSON {
				for i := range items {
					items[i].Utterances = withoutWords(items[i].Utterances)
				}
				return items
			})
		})
	}
	return f.object(resultType, attrs), f.diags
}

// resultToBeRead returns a result state kept at content from as it is
// planned for a read at the larger content to: what only the larger
// content keeps is unknown, and the rest (the metadata, languages, summary,
// answers and every add-on's status: what a read of a final job gives
// again) stays known, so that what refers to it plans no change.
func resultToBeRead(r types.Object, from, to resultContent) (types.Object, diag.Diagnostics) {
	if r.IsNull() || r.IsUnknown() || to <= from {
		return r, nil
	}
	f := &flattener{}
	attrs := asReadNow(f, r)
	leaves := wordLeaves
	if from == summaryContent {
		leaves = transcriptLeaves
	}
	f.setLeaves(attrs, leaves, func(object map[string]attr.Value, v attr.Value) attr.Value {
		if _, isAddon := object["success"]; isAddon && addonStateFailed(object) {
			return v // none, read again or not
		}
		return unknownValueOf(v.Type(context.Background()))
	})
	return f.object(resultType, attrs), f.diags
}

// withUnknownsFrom is planned with each unknown value in it taken from
// from, at the same place (null where from has none): an apply's value
// that keeps what its plan knew.
func withUnknownsFrom(planned, from types.Object) types.Object {
	if planned.IsUnknown() {
		return from
	}
	if planned.IsNull() {
		return planned
	}
	attrs := maps.Clone(planned.Attributes())
	for name, v := range attrs {
		other := nullOf(v.Type(context.Background()))
		if !from.IsNull() && !from.IsUnknown() {
			other = from.Attributes()[name]
		}
		object, isObject := v.(types.Object)
		otherObject, otherIsObject := other.(types.Object)
		switch {
		case v.IsUnknown():
			attrs[name] = other
		case isObject && otherIsObject:
			attrs[name] = withUnknownsFrom(object, otherObject)
		}
	}
	return types.ObjectValueMust(planned.AttributeTypes(context.Background()), attrs)
}

func withoutWords(utts []utteranceJSON) []utteranceJSON {
	for i := range utts {
		utts[i].Words = nil
	}
	return utts
}

// rewriteJSON decodes a JSON attribute's value as T, changes it, and encodes
// it again as the flattener does; null and unknown stay as they are.
func rewriteJSON[T any](f *flattener, v attr.Value, rewrite func(T) T) attr.Value {
	n, ok := v.(jsonText)
	if !ok || n.IsNull() || n.IsUnknown() {
		return v
	}
	var decoded T
	if err := json.Unmarshal([]byte(n.ValueString()), &decoded); err != nil {
		f.diags.AddError("Cannot read a value of the job's result", "The JSON in state does not decode: "+err.Error())
		return v
	}
	return f.json(rewrite(decoded))
}

// flattenFile converts a job's file description.
func flattenFile(fi *client.FileInfo) types.Object {
	if fi == nil {
		return types.ObjectNull(fileType.AttrTypes)
	}
	return types.ObjectValueMust(fileType.AttrTypes, map[string]attr.Value{
		"id":                 types.StringValue(fi.ID),
		"filename":           types.StringPointerValue(fi.Filename),
		"source":             redactedURLValue(fi.Source),
		"audio_duration":     types.Float64PointerValue(fi.AudioDuration),
		"number_of_channels": types.Int64PointerValue(fi.NumberOfChannels),
	})
}

// redactedURLValue is a URL the service gave as state keeps it
// (client.RedactedURL), null when it gave none.
func redactedURLValue(raw *string) types.String {
	if raw == nil {
		return types.StringNull()
	}
	return types.StringValue(client.RedactedURL(*raw))
}

// flattenCustomMetadata converts custom metadata to a map of strings: the
// service accepts any JSON value, so non-string values are JSON-encoded as
// Terraform's jsonencode writes them (jsonencodeForm).
func flattenCustomMetadata(m map[string]any) types.Map {
	if m == nil {
		return types.MapNull(types.StringType)
	}
	elems := make(map[string]attr.Value, len(m))
	for k, raw := range m {
		switch v := raw.(type) {
		case string:
			elems[k] = types.StringValue(v)
		default:
			b, err := json.Marshal(jsonencodeForm(v))
			if err != nil { // cannot happen for decoded JSON
				b = []byte(fmt.Sprint(v))
			}
			elems[k] = types.StringValue(string(b))
		}
	}
	return types.MapValueMust(types.StringType, elems)
}

// jsonencodeForm is a decoded JSON value (numbers as json.Number) with each
// number written as Terraform's jsonencode writes it (client.NumberText),
// so that jsonencode of the job's value in a configuration is the same
// text. json.Marshal writes the rest as jsonencode does: compact, keys
// sorted, <, > and & escaped.
func jsonencodeForm(v any) any {
	switch v := v.(type) {
	case json.Number:
		return json.Number(client.NumberText(v))
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = jsonencodeForm(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = jsonencodeForm(e)
		}
		return out
	}
	return v
}

// flattenJSON converts an open JSON object to its compact text; absent or
// null stays null.
func flattenJSON(raw json.RawMessage) jsonText {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return jsonTextNull()
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, trimmed); err != nil {
		return jsonTextValue(string(trimmed))
	}
	return jsonTextValue(buf.String())
}
