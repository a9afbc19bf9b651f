package provider

// The computed view of a job record, shared by the transcription_job resource
// and the transcription_live_jobs data source. Resource and data source
// schemas are distinct Go types, so the tree is defined once as viewAttr and
// both schema forms, and the object types the converters build, derive from it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

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
func (v viewAttr) resourceAttribute() rschema.Attribute {
	if v.nested != nil {
		if v.list {
			return rschema.ListAttribute{MarkdownDescription: v.markdownDescription(), Computed: true, ElementType: v.objectType()}
		}
		return rschema.ObjectAttribute{MarkdownDescription: v.markdownDescription(), Computed: true, AttributeTypes: v.objectType().AttrTypes}
	}
	switch t := v.typ.(type) {
	case basetypes.StringType:
		return rschema.StringAttribute{MarkdownDescription: v.description, Computed: true}
	case basetypes.Int64Type:
		return rschema.Int64Attribute{MarkdownDescription: v.description, Computed: true}
	case basetypes.Float64Type:
		return rschema.Float64Attribute{MarkdownDescription: v.description, Computed: true}
	case basetypes.BoolType:
		return rschema.BoolAttribute{MarkdownDescription: v.description, Computed: true}
	case basetypes.ListType:
		return rschema.ListAttribute{MarkdownDescription: v.description, Computed: true, ElementType: t.ElemType}
	case basetypes.MapType:
		return rschema.MapAttribute{MarkdownDescription: v.description, Computed: true, ElementType: t.ElemType}
	}
	panic(fmt.Sprintf("view attribute %s: unsupported type %T", v.name, v.typ))
}

// dataSourceAttribute is the attribute in a data source schema, computed only.
func (v viewAttr) dataSourceAttribute() dschema.Attribute {
	if v.nested != nil {
		if v.list {
			return dschema.ListAttribute{MarkdownDescription: v.markdownDescription(), Computed: true, ElementType: v.objectType()}
		}
		return dschema.ObjectAttribute{MarkdownDescription: v.markdownDescription(), Computed: true, AttributeTypes: v.objectType().AttrTypes}
	}
	switch t := v.typ.(type) {
	case basetypes.StringType:
		return dschema.StringAttribute{MarkdownDescription: v.description, Computed: true}
	case basetypes.Int64Type:
		return dschema.Int64Attribute{MarkdownDescription: v.description, Computed: true}
	case basetypes.Float64Type:
		return dschema.Float64Attribute{MarkdownDescription: v.description, Computed: true}
	case basetypes.BoolType:
		return dschema.BoolAttribute{MarkdownDescription: v.description, Computed: true}
	case basetypes.ListType:
		return dschema.ListAttribute{MarkdownDescription: v.description, Computed: true, ElementType: t.ElemType}
	case basetypes.MapType:
		return dschema.MapAttribute{MarkdownDescription: v.description, Computed: true, ElementType: t.ElemType}
	}
	panic(fmt.Sprintf("view attribute %s: unsupported type %T", v.name, v.typ))
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
	case basetypes.StringType:
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
	"the text, utterances, sentences and subtitles (`result.transcription`), the translations, the named entities, the sentiment analysis and the `sentences` add-on's results. " +
	"An hour of audio has about 46 KB of transcript in 540 utterances, so by default only what does not grow is kept: " +
	"`result.metadata`, the detected languages, the summary, the audio-to-LLM answers, and every add-on's status and error."

// addonView is the add-on result envelope shared by every add-on.
func addonView(name, what string, results viewAttr) viewAttr {
	return viewObject(name, "Result of the "+what+" add-on; null when the add-on was not enabled.",
		viewBool("success", "Whether the add-on succeeded."),
		viewBool("is_empty", "Whether the add-on produced no result."),
		viewFloat64("exec_time", "Time the add-on took to run."),
		addonErrorView,
		results,
	)
}

var addonErrorView = viewObject("error", "Why the add-on failed; null when it did not.",
	viewInt64("status_code", "HTTP-style status code of the failure."),
	viewString("exception", "Name of the failure."),
	viewString("message", "Description of the failure."),
)

var wordView = viewObjectList("words", "Words of the utterance with their timings. Filled only when word timings are requested; null otherwise, to keep state small.",
	viewString("word", "The word."),
	viewFloat64("start", "Start of the word, in seconds."),
	viewFloat64("end", "End of the word, in seconds."),
	viewFloat64("confidence", "Confidence of the recognition, from 0 to 1."),
)

var utterancesView = viewObjectList("utterances", "Utterances of the transcript, in order."+transcriptSized,
	viewFloat64("start", "Start of the utterance, in seconds."),
	viewFloat64("end", "End of the utterance, in seconds."),
	viewFloat64("confidence", "Confidence of the recognition, from 0 to 1."),
	viewInt64("channel", "Audio channel the utterance was heard on."),
	viewString("text", "Text of the utterance."),
	viewString("language", "Language code of the utterance."),
	viewInt64("speaker", "Speaker of the utterance; null without speaker diarization."),
	wordView,
)

// transcriptViews are the attributes a transcript has, in the original
// language or in a translation.
func transcriptViews() []viewAttr {
	return []viewAttr{
		viewString("full_transcript", "The whole transcript as one text."+transcriptSized),
		viewStringList("languages", "Language codes detected in the audio."),
		utterancesView,
		viewStringList("sentences", "Texts of the sentences of the transcript; null unless the `sentences` add-on was enabled."+transcriptSized),
		viewStringMap("subtitles", "Subtitle files keyed by format (`srt`, `vtt`); null unless subtitles were enabled."+transcriptSized),
	}
}

var transcriptionView = viewObject("transcription", "The transcript.", transcriptViews()...)

var translationView = addonView("translation", "translation",
	viewObjectList("results", "One translation per target language."+transcriptSized,
		append([]viewAttr{
			viewString("language", "The target language of this translation."),
			addonErrorView,
		}, transcriptViews()...)...,
	),
)

var resultMetadataView = viewObject("metadata", "Figures about the processing.",
	viewFloat64("audio_duration", "Duration of the audio, in seconds."),
	viewInt64("number_of_distinct_channels", "Number of distinct audio channels."),
	viewFloat64("billing_time", "Billed duration, in seconds."),
	viewFloat64("transcription_time", "Time the transcription took, in seconds."),
)

// resultView is the `result` attribute: null until the job is done.
var resultView = viewObject("result", "Result of the job; null until the job is `done`.",
	resultMetadataView,
	transcriptionView,
	translationView,
	addonView("summarization", "summarization", viewString("results", "The summary.")),
	addonView("named_entity_recognition", "named entity recognition", viewObjectList("results", "Entities found in the transcript."+transcriptSized,
		viewString("entity_type", "Type of the entity."),
		viewString("text", "Text of the entity as it appears in the transcript."),
		viewFloat64("start", "Start of the entity, in seconds."),
		viewFloat64("end", "End of the entity, in seconds."),
	)),
	addonView("sentiment_analysis", "sentiment analysis", viewString("results", "The sentiment analysis, as the service wrote it."+transcriptSized)),
	addonView("audio_to_llm", "audio-to-LLM", viewObjectList("results", "One answer per prompt.",
		viewString("prompt", "The prompt."),
		viewString("response", "The LLM's answer."),
	)),
	addonView("sentences", "sentences", viewStringList("results", "Texts of the sentences of the transcript."+transcriptSized)),
	viewStringList("messages", "Messages of a live session; null for other jobs."),
)

// fileView is the `file` attribute: the audio the job transcribed.
var fileView = viewObject("file", "The audio the job transcribed; may be null when the job failed.",
	viewString("id", "Identifier of the file."),
	viewString("filename", "Name of the file."),
	viewString("source", "Where the audio came from."),
	viewFloat64("audio_duration", "Duration of the audio, in seconds."),
	viewInt64("number_of_channels", "Number of audio channels."),
)

// Object types computed once: a long transcript has thousands of utterances.
var (
	resultType        = resultView.objectType()
	metadataType      = resultMetadataView.objectType()
	transcriptionType = transcriptionView.objectType()
	utteranceType     = utterancesView.objectType()
	wordType          = wordView.objectType()
	addonErrorType    = addonErrorView.objectType()
	translationType   = translationView.objectType()
	translationItem   = translationView.child("results").objectType()
	summarizationType = resultView.child("summarization").objectType()
	nerType           = resultView.child("named_entity_recognition").objectType()
	entityType        = resultView.child("named_entity_recognition").child("results").objectType()
	sentimentType     = resultView.child("sentiment_analysis").objectType()
	audioToLLMType    = resultView.child("audio_to_llm").objectType()
	llmAnswerType     = resultView.child("audio_to_llm").child("results").objectType()
	sentencesAddType  = resultView.child("sentences").objectType()
	fileType          = fileView.objectType()
	stringListType    = types.ListType{ElemType: types.StringType}
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

// stringList keeps a nil slice null and an empty one empty.
func (f *flattener) stringList(s []string) types.List {
	if s == nil {
		return types.ListNull(types.StringType)
	}
	elems := make([]attr.Value, len(s))
	for i, v := range s {
		elems[i] = types.StringValue(v)
	}
	return f.list(types.StringType, elems)
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
	// utterances without words, sentences, subtitles, translations) and the
	// analyses that grow with it (entities, sentiment).
	transcriptContent
	// rawContent adds the word timings.
	rawContent
)

// flattenResult converts a job's result, keeping what content says.
func flattenResult(_ context.Context, r *client.Result, content resultContent) (types.Object, diag.Diagnostics) {
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
			return grows(types.ListNull(translationItem), func() attr.Value { return f.translationItems(items, withWords) })
		}),
		"summarization": flattenAddon(f, r.Summarization, summarizationType, func(s string) attr.Value { return types.StringValue(s) }),
		"named_entity_recognition": flattenAddon(f, r.NamedEntityRecognition, nerType, func(ents []client.NamedEntity) attr.Value {
			return grows(types.ListNull(entityType), func() attr.Value {
				return objectList(f, entityType, ents, func(e client.NamedEntity) map[string]attr.Value {
					return map[string]attr.Value{
						"entity_type": types.StringValue(e.EntityType),
						"text":        types.StringValue(e.Text),
						"start":       types.Float64Value(e.Start),
						"end":         types.Float64Value(e.End),
					}
				})
			})
		}),
		"sentiment_analysis": flattenAddon(f, r.SentimentAnalysis, sentimentType, func(s string) attr.Value {
			return grows(types.StringNull(), func() attr.Value { return types.StringValue(s) })
		}),
		"audio_to_llm": flattenAddon(f, r.AudioToLLM, audioToLLMType, func(answers []client.AudioToLLMItem) attr.Value {
			return objectList(f, llmAnswerType, answers, func(a client.AudioToLLMItem) map[string]attr.Value {
				return map[string]attr.Value{"prompt": types.StringValue(a.Prompt), "response": types.StringValue(a.Response)}
			})
		}),
		"sentences": flattenAddon(f, r.Sentences, sentencesAddType, func(s []string) attr.Value {
			return grows(types.ListNull(types.StringType), func() attr.Value { return f.stringList(s) })
		}),
		"messages": f.stringList(r.Messages),
	})
	if f.diags.HasError() {
		return types.ObjectNull(resultType.AttrTypes), f.diags
	}
	return o, f.diags
}

// flattenAddon converts the envelope shared by add-on results; results
// converts the add-on's own results.
func flattenAddon[T any](f *flattener, a *client.AddonResult[T], t types.ObjectType, results func(T) attr.Value) types.Object {
	if a == nil {
		return types.ObjectNull(t.AttrTypes)
	}
	return f.object(t, map[string]attr.Value{
		"success":   types.BoolValue(a.Success),
		"is_empty":  types.BoolValue(a.IsEmpty),
		"exec_time": types.Float64Value(a.ExecTime),
		"error":     f.addonError(a.Error),
		"results":   results(a.Results),
	})
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

func (f *flattener) transcription(t *client.Transcription, content resultContent) types.Object {
	if t == nil {
		return types.ObjectNull(transcriptionType.AttrTypes)
	}
	if content == summaryContent {
		return f.object(transcriptionType, map[string]attr.Value{
			"full_transcript": types.StringNull(),
			"languages":       f.stringList(t.Languages),
			"utterances":      types.ListNull(utteranceType),
			"sentences":       types.ListNull(types.StringType),
			"subtitles":       types.MapNull(types.StringType),
		})
	}
	return f.object(transcriptionType, f.transcript(t.FullTranscript, t.Languages, t.Utterances, t.Sentences, t.Subtitles, content == rawContent))
}

// transcript fills the attributes of transcriptViews.
func (f *flattener) transcript(full string, languages []string, utts []client.Utterance, sentences []client.AddonResult[[]string], subtitles []client.Subtitle, withWords bool) map[string]attr.Value {
	return map[string]attr.Value{
		"full_transcript": types.StringValue(full),
		"languages":       f.stringList(languages),
		"utterances":      f.utterances(utts, withWords),
		"sentences":       f.sentenceTexts(sentences),
		"subtitles":       subtitlesByFormat(subtitles),
	}
}

func (f *flattener) translationItems(items []client.TranslationItem, withWords bool) attr.Value {
	if items == nil {
		return types.ListNull(translationItem)
	}
	elems := make([]attr.Value, len(items))
	for i, it := range items {
		values := f.transcript(it.FullTranscript, it.Languages, it.Utterances, it.Sentences, it.Subtitles, withWords)
		// The service names the target language only as the item's sole language.
		values["language"] = types.StringNull()
		if len(it.Languages) == 1 {
			values["language"] = types.StringValue(it.Languages[0])
		}
		values["error"] = f.addonError(it.Error)
		elems[i] = f.object(translationItem, values)
	}
	return f.list(translationItem, elems)
}

func (f *flattener) utterances(utts []client.Utterance, withWords bool) types.List {
	if utts == nil {
		return types.ListNull(utteranceType)
	}
	elems := make([]attr.Value, len(utts))
	for i, u := range utts {
		words := types.ListNull(wordType)
		if withWords && u.Words != nil {
			we := make([]attr.Value, len(u.Words))
			for j, w := range u.Words {
				we[j] = f.object(wordType, map[string]attr.Value{
					"word":       types.StringValue(w.Word),
					"start":      types.Float64Value(w.Start),
					"end":        types.Float64Value(w.End),
					"confidence": types.Float64Value(w.Confidence),
				})
			}
			words = f.list(wordType, we)
		}
		elems[i] = f.object(utteranceType, map[string]attr.Value{
			"start":      types.Float64Value(u.Start),
			"end":        types.Float64Value(u.End),
			"confidence": types.Float64Value(u.Confidence),
			"channel":    types.Int64Value(u.Channel),
			"text":       types.StringValue(u.Text),
			"language":   types.StringValue(u.Language),
			"speaker":    types.Int64PointerValue(u.Speaker),
			"words":      words,
		})
	}
	return f.list(utteranceType, elems)
}

// sentenceTexts joins the texts of the transcript's sentences add-on
// results (the spec wraps them in add-on result objects).
func (f *flattener) sentenceTexts(results []client.AddonResult[[]string]) types.List {
	if results == nil {
		return types.ListNull(types.StringType)
	}
	texts := []string{}
	for _, r := range results {
		texts = append(texts, r.Results...)
	}
	return f.stringList(texts)
}

// subtitlesByFormat keys the subtitle files by format, which is unique per job.
func subtitlesByFormat(subs []client.Subtitle) types.Map {
	if subs == nil {
		return types.MapNull(types.StringType)
	}
	elems := make(map[string]attr.Value, len(subs))
	for _, s := range subs {
		elems[s.Format] = types.StringValue(s.Subtitles)
	}
	return types.MapValueMust(types.StringType, elems)
}

// flattenFile converts a job's file description.
func flattenFile(fi *client.FileInfo) types.Object {
	if fi == nil {
		return types.ObjectNull(fileType.AttrTypes)
	}
	return types.ObjectValueMust(fileType.AttrTypes, map[string]attr.Value{
		"id":                 types.StringValue(fi.ID),
		"filename":           types.StringValue(fi.Filename),
		"source":             types.StringValue(fi.Source),
		"audio_duration":     types.Float64PointerValue(fi.AudioDuration),
		"number_of_channels": types.Int64PointerValue(fi.NumberOfChannels),
	})
}

// flattenCustomMetadata converts custom metadata to a map of strings: the
// service accepts any JSON value, so non-string values are JSON-encoded.
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
			b, err := json.Marshal(v)
			if err != nil { // cannot happen for decoded JSON
				b = []byte(fmt.Sprint(v))
			}
			elems[k] = types.StringValue(string(b))
		}
	}
	return types.MapValueMust(types.StringType, elems)
}

// flattenJSON converts an open JSON object to its compact text; absent or
// null stays null.
func flattenJSON(raw json.RawMessage) types.String {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return types.StringNull()
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, trimmed); err != nil {
		return types.StringValue(string(trimmed))
	}
	return types.StringValue(buf.String())
}
