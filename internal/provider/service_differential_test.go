package provider

// A differential test of the provider's offline checks against the service's
// (the fake server's, which follows the spec): configurations generated
// across every argument of transcription_job, the transcription_transcribe
// action, the transcription_live_jobs data source and the transcription_job
// list resource are checked by the provider in process (its protocol-6
// server: the schema's validators, the config validators and, for a job,
// the plan), and the request the provider would send for each is sent to the
// fake server over HTTP. Whatever the provider accepts, the service must
// accept; whatever the provider refuses, the service must refuse too, for
// the same arguments, unless the refusal is one of the provider's own
// decisions (providerOnlyRules).
//
// A deterministic generator run by plain `go test`, not a Go fuzz target: a
// configuration is a tree of typed values across 27 arguments, which a
// fuzzer's byte mutations would mostly spend on decoding; a fixed seed makes
// every run check the same few thousand configurations, and a failure names
// the one to replay (DIFFERENTIAL_SEED changes the seed to explore others).

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/numtypes"
)

// How many configurations each differential test generates.
const (
	differentialJobConfigs    = 800
	differentialFilterConfigs = 2000
)

// defaultDifferentialSeed is the seed of every run that names none.
const defaultDifferentialSeed = 20240501

// differentialSeed is the generators' seed: fixed, so that every run checks
// the same configurations, unless DIFFERENTIAL_SEED says another.
func differentialSeed(t *testing.T) uint64 {
	return uintFromEnv(t, "DIFFERENTIAL_SEED", defaultDifferentialSeed)
}

// jobListOf is the list resource server of h's provider, and the
// transcription_job list resource's configuration type.
func jobListOf(t *testing.T, h *protoHarness) (tfprotov6.ListResourceServer, tftypes.Object) {
	t.Helper()
	listServer, ok := h.server.(tfprotov6.ListResourceServer)
	if !ok {
		t.Fatal("the provider's server serves no list resources")
	}
	listType, ok := h.schemas.ListResourceSchemas[jobResourceTypeName].ValueType().(tftypes.Object)
	if !ok {
		t.Fatal("the list resource's schema is not an object")
	}
	return listServer, listType
}

// listFiltersOf is the list resource's configuration (of type listType)
// holding the filters of a transcription_live_jobs configuration.
func listFiltersOf(t *testing.T, liveConfig tftypes.Value, listType tftypes.Object) tftypes.Value {
	t.Helper()
	var attrs map[string]tftypes.Value
	if err := liveConfig.As(&attrs); err != nil {
		t.Fatal(err)
	}
	filters := map[string]tftypes.Value{}
	for name := range listType.AttributeTypes {
		filters[name] = attrs[name]
	}
	return objectValue(listType, filters)
}

// uintFromEnv is the whole number the environment variable name holds, or def when it is unset: how a property test is told to explore
// further.
func uintFromEnv(t *testing.T, name string, def uint64) uint64 {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("%s: %q is not a whole number", name, s)
	}
	return n
}

// pool is the values an argument is given: ordinary ones, and edge ones
// (at and around the spec's bounds, outside its enumerations, empty or
// blank) drawn with the configuration's noise rate. Numbers are decimal
// literals, read as Terraform reads them.
type pool struct{ ordinary, edge []string }

func enumPool(allowed []string, edge ...string) pool { return pool{ordinary: allowed, edge: edge} }

var (
	urlPool = pool{
		ordinary: []string{"https://example.com/audio.wav", "http://example.com/a.mp3?sig=abc&exp=1", "https://files.example.org:8443/x/y.m4a"},
		edge: []string{
			"", " ", "example.com/a.wav", "//example.com/a.wav", "ftp://example.com/a.wav", "https://", "https:///a.wav",
			"https://:8080/a.wav", "https://example.com/a b.wav", "https://example.com/a.wav\n", "https://example.com/\u00a0a.wav",
			"HTTPS://EXAMPLE.COM/A.WAV", "https://user:secret@example.com/a.wav", "https://[::1]/a.wav", "https://[::1/a.wav",
			"https://bücher.example/a.wav", "https://example.com/%zz", "https://example.com:99999/a.wav", "https://example.com/a.wav#t=1",
			"mailto:someone@example.com", "https:example.com/a.wav", "http://example.com", "https://exa_mple.com/a.wav", "https://example.com/\x7f",
			"https://example.com/a\u200b.wav", "javascript:alert(1)", "https://example.com/a.wav?q=\u3000",
		},
	}
	transcriptionLanguageEdge = []string{"", " ", "EN", "en-US", "eng", "zz", " en", "th", "wo", "haw", "jw"}
	languagePool              = enumPool(client.TranscriptionLanguages, transcriptionLanguageEdge...)
	intensityPool             = pool{ordinary: []string{"0", "0.25", "0.5", "1"}, edge: []string{"-0.0001", "-1", "1.0001", "2", "1e-300", "1e-400", "1e400", "0.99999999999999999999", "1.00000000000000000001", "-0"}}
	textPool                  = pool{ordinary: []string{"Kubernetes", "Gettleman", "OpenTofu", "São Paulo"}, edge: []string{"", " ", "\t", "\u00a0", "\u3000", "\u200b", "a b", "\u0085", "x\x00y", strings.Repeat("long ", 200)}}
	metadataKeyPool           = pool{ordinary: []string{"team", "project", "env"}, edge: []string{"", " ", "a[b]", "[", "]", "a.b", "ключ", "a=b", "a&b", "%", "a b", "custom_metadata[x]"}}
	metadataValuePool         = pool{ordinary: []string{"alpha", "42", "true"}, edge: []string{"", " ", "a&b=c", "ü", "%20", "[x]"}}
)

// jobPools gives the values of every string and number argument of a job,
// by dotted path (list and map elements share their attribute's path; a
// map's keys are under path+"{}"). The test fails on an argument without a
// pool, so that a new argument is given values here.
var jobPools = map[string]pool{
	"audio_url":                 urlPool,
	"model":                     enumPool(client.Models, "", "model-2", "MODEL-1", " model-1", "model-3 "),
	"language_config.languages": languagePool,
	"custom_vocabulary_config.vocabulary.value":          textPool,
	"custom_vocabulary_config.vocabulary.intensity":      intensityPool,
	"custom_vocabulary_config.vocabulary.pronunciations": textPool,
	"custom_vocabulary_config.vocabulary.language":       languagePool,
	"custom_vocabulary_config.default_intensity":         intensityPool,
	"callback_config.url":                                urlPool,
	"callback_config.method":                             enumPool(client.CallbackMethods, "", "post", "GET", "PATCH"),
	"callback_url":                                       urlPool,
	"subtitles_config.formats":                           enumPool(client.SubtitleFormats, "", "SRT", "ass", "webvtt"),
	"subtitles_config.minimum_duration":                  {ordinary: []string{"0", "0.5", "1"}, edge: []string{"-0.001", "-1", "30", "30.5", "100", "1e-9", "1e-400", "-1e400"}},
	"subtitles_config.maximum_duration":                  {ordinary: []string{"1", "5.5", "30"}, edge: []string{"0", "0.999", "30.0001", "31", "-1", "0.5", "1e400"}},
	"subtitles_config.maximum_characters_per_row":        {ordinary: []string{"1", "42", "80"}, edge: []string{"0", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e30", "-0"}},
	"subtitles_config.maximum_rows_per_caption":          {ordinary: []string{"1", "2", "5"}, edge: []string{"0", "6", "-1", "100", "1.5", "5.0"}},
	"subtitles_config.style":                             enumPool(client.SubtitleStyles, "", "Default", "strict"),
	"diarization_config.number_of_speakers":              {ordinary: []string{"1", "2", "10"}, edge: []string{"0", "-1", "9223372036854775807", "2.5", "1e-9"}},
	"diarization_config.min_speakers":                    {ordinary: []string{"0", "1", "2"}, edge: []string{"-1", "5", "11", "9223372036854775807", "-0.5"}},
	"diarization_config.max_speakers":                    {ordinary: []string{"2", "5", "10"}, edge: []string{"-1", "0", "1"}},
	"translation_config.target_languages":                enumPool(client.TranslationLanguages, "", " ", "EN", "en-GB", "xx", "th"),
	"translation_config.model":                           enumPool(client.TranslationModels, "", "Base", "fast"),
	"translation_config.context":                         textPool,
	"summarization_config.type":                          enumPool(client.SummaryTypes, "", "bullets", "General"),
	"custom_spelling_config.spelling_dictionary{}":       textPool,
	"custom_spelling_config.spelling_dictionary":         textPool,
	"audio_to_llm_config.prompts":                        textPool,
	"audio_to_llm_config.model":                          {ordinary: []string{"openai/gpt-4o-mini", "anthropic/claude-3-haiku", "meta-llama/llama-3.1-8b-instruct"}, edge: []string{"", "gpt-4o", "/gpt", "openai/", "a/b/c", " openai/gpt", "openai /gpt", "openai/gpt\n", "ü/ö"}},
	"pii_redaction_config.entity_types":                  enumPool(client.PIIEntityTypes, "", "name", "NAMES", " NAME"),
	"pii_redaction_config.processed_text_type":           enumPool(client.ProcessedTextTypes, "", "marker", "HASH"),
	"custom_metadata{}":                                  metadataKeyPool,
	"custom_metadata":                                    metadataValuePool,
}

// filterPools gives the values of the listings' filters.
var filterPools = map[string]pool{
	"offset": {ordinary: []string{"0", "1", "20", "100"}, edge: []string{"-1", "9223372036854775807", "0.5", "1e19"}},
	"limit":  {ordinary: []string{"1", "5", "100", "250"}, edge: []string{"0", "-1", "9223372036854775807", "2.5"}},
	"status": enumPool(client.JobStatuses, "", "Done", "failed", "live"),
	"date":   {ordinary: []string{"2024-05-01", "2023-12-31", "2024-02-29"}, edge: []string{"", "2023-02-29", "2024-13-01", "2024-5-1", "20240501", "2024-05-01T00:00:00Z", "２０２４-05-01", "0000-01-01", "9999-12-31", " 2024-05-01"}},
	"after_date": {ordinary: []string{"2024-05-01T00:00:00Z", "2024-05-01T12:00:00.5+02:00", "2023-01-01T00:00:00-05:30"},
		edge: []string{"", "2024-05-01", "2024-05-01T12:00:00", "2024-05-01 12:00:00Z", "2024-05-01t12:00:00z", "2024-05-01T24:00:00Z", "2024-05-01T12:00:60Z",
			"2024-05-01T12:00:00+24:00", "2024-05-01T12:00:00+23:59", "2024-05-01T12:00:00.123456789123Z", "2024-05-01T12:00:00+0200", "0000-01-01T00:00:00Z"}},
	"custom_metadata{}": metadataKeyPool,
	"custom_metadata":   metadataValuePool,
	// The provider's own setting, which the service never sees: valid
	// values only, so that the verdicts stay the filters' (its invalid
	// values are tested in TestAccListingDataSources_invalidArguments).
	"timeouts.read": {ordinary: []string{"20m", "1h30m", "45s"}},
}

func init() { filterPools["before_date"] = filterPools["after_date"] }

// generator builds configurations of a schema from pools.
type generator struct {
	t     *testing.T
	rng   *rand.Rand
	pools map[string]pool
	noise float64 // the chance that a value is drawn from its edge pool
}

func (g *generator) chance(p float64) bool { return g.rng.Float64() < p }

func (g *generator) pick(path string) string {
	p, ok := g.pools[path]
	if !ok {
		g.t.Fatalf("no pool of values for %s: add one to the differential test", path)
	}
	if len(p.edge) > 0 && g.chance(g.noise) {
		return p.edge[g.rng.IntN(len(p.edge))]
	}
	return p.ordinary[g.rng.IntN(len(p.ordinary))]
}

// object builds a value of the nested attributes attrs; only, when not
// nil, names those that may be set.
func (g *generator) object(prefix string, attrs []*tfprotov6.SchemaAttribute, only func(string) bool) tftypes.Value {
	attrTypes := make(map[string]tftypes.Type, len(attrs))
	values := make(map[string]tftypes.Value, len(attrs))
	for _, a := range attrs {
		typ := a.ValueType()
		attrTypes[a.Name] = typ
		values[a.Name] = tftypes.NewValue(typ, nil)
		if (only != nil && !only(a.Name)) || (!a.Required && !a.Optional) {
			continue
		}
		set := 0.4
		if a.Required || requiredByValidator[join(prefix, a.Name)] {
			set = 1 - g.noise/4 // a required argument left out, now and then
		}
		if g.chance(set) {
			values[a.Name] = g.value(join(prefix, a.Name), a, typ)
		}
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: attrTypes}, values)
}

// requiredByValidator are the attributes optional in the schema that the
// provider requires itself (validators.RequiredInElement): drawn as required ones.
var requiredByValidator = map[string]bool{"custom_vocabulary_config.vocabulary.value": true}

func (g *generator) value(path string, a *tfprotov6.SchemaAttribute, typ tftypes.Type) tftypes.Value {
	if a != nil && a.NestedType != nil {
		switch a.NestedType.Nesting {
		case tfprotov6.SchemaObjectNestingModeSingle:
			return g.object(path, a.NestedType.Attributes, nil)
		case tfprotov6.SchemaObjectNestingModeList:
			elems := make([]tftypes.Value, g.length())
			for i := range elems {
				elems[i] = g.object(path, a.NestedType.Attributes, nil)
			}
			return tftypes.NewValue(typ, elems)
		default:
			g.t.Fatalf("%s: nesting %v not generated", path, a.NestedType.Nesting)
		}
	}
	switch {
	case typ.Is(tftypes.String):
		return tftypes.NewValue(typ, g.pick(path))
	case typ.Is(tftypes.Number):
		n, _, err := big.ParseFloat(g.pick(path), 10, 512, big.ToNearestEven)
		if err != nil {
			g.t.Fatalf("%s: %v", path, err)
		}
		return tftypes.NewValue(typ, n)
	case typ.Is(tftypes.Bool):
		return tftypes.NewValue(typ, g.chance(0.5))
	case typ.Is(tftypes.List{}):
		elemType := typ.(tftypes.List).ElementType
		elems := make([]tftypes.Value, g.length())
		for i := range elems {
			if g.chance(g.noise / 5) {
				elems[i] = tftypes.NewValue(elemType, nil)
			} else {
				elems[i] = g.value(path, nil, elemType)
			}
		}
		return tftypes.NewValue(typ, elems)
	case typ.Is(tftypes.Map{}):
		elemType := typ.(tftypes.Map).ElementType
		elems := map[string]tftypes.Value{}
		for range g.length() {
			elems[g.pick(path+"{}")] = g.value(path, nil, elemType)
		}
		return tftypes.NewValue(typ, elems)
	}
	g.t.Fatalf("%s: type %s not generated", path, typ)
	return tftypes.Value{}
}

// length is a list's or map's length: mostly one or two, sometimes none.
func (g *generator) length() int {
	switch r := g.rng.Float64(); {
	case r < 0.15:
		return 0
	case r < 0.6:
		return 1
	case r < 0.85:
		return 2
	default:
		return 3
	}
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// jobConfig is a configuration of the job's request arguments. A switch
// mostly follows its configuration object (on when it is set), and model-3
// mostly gets one of its languages, so that most noiseless configurations
// are ones the service accepts.
func (g *generator) jobConfig(s *tfprotov6.Schema) tftypes.Value {
	request := map[string]bool{}
	for _, name := range requestFieldNames() {
		request[name] = true
	}
	v := g.object("", s.Block.Attributes, func(name string) bool { return request[name] })
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		g.t.Fatal(err)
	}
	objType := v.Type().(tftypes.Object)
	// In a fixed order: each switch draws from the seeded generator.
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		sw, ok := strings.CutSuffix(name, "_config")
		if _, isSwitch := attrs[sw]; !ok || !isSwitch {
			continue
		}
		on := g.chance(0.05)
		if !attrs[name].IsNull() || (sw == "callback" && !attrs["callback_url"].IsNull()) {
			on = g.chance(0.85)
		}
		switch {
		case g.chance(0.2):
			attrs[sw] = tftypes.NewValue(tftypes.Bool, nil)
		default:
			attrs[sw] = tftypes.NewValue(tftypes.Bool, on)
		}
	}
	if attrs["model"].Equal(tftypes.NewValue(tftypes.String, client.ModelThree)) && g.chance(0.7) {
		lc := s.Block.Attributes[slices.IndexFunc(s.Block.Attributes, func(a *tfprotov6.SchemaAttribute) bool { return a.Name == "language_config" })]
		lcType := lc.ValueType().(tftypes.Object)
		lang := client.ModelThreeLanguages[g.rng.IntN(len(client.ModelThreeLanguages))]
		attrs["language_config"] = objectValue(lcType, map[string]tftypes.Value{
			"languages": tftypes.NewValue(lcType.AttributeTypes["languages"], []tftypes.Value{tftypes.NewValue(tftypes.String, lang)}),
		})
	}
	return tftypes.NewValue(objType, attrs)
}

// verdict is what one side made of a configuration: the arguments it
// refused (by top-level name) and why.
type verdict struct {
	refused map[string][]string
	// built is false when no request could be built from the
	// configuration (a null list element, say): the service never sees it.
	built bool
	// partial is true when the refusal may name only some of the problems:
	// the service answers 400 for a malformed body (a required field
	// missing, a value of the wrong type) before it checks the values, and
	// the provider's checks of the whole configuration need it readable.
	partial bool
}

func (v verdict) accepted() bool { return len(v.refused) == 0 }

func (v *verdict) refuse(root, why string) {
	if v.refused == nil {
		v.refused = map[string][]string{}
	}
	v.refused[root] = append(v.refused[root], why)
}

func (v verdict) roots() []string {
	roots := make([]string, 0, len(v.refused))
	for r := range v.refused {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	return roots
}

// refusedArgument is the argument a diagnostic is about: the first step of
// its attribute path or, without one, the argument its detail names first
// ("Attribute callback_config.url ...": callback_config), as a sensitive
// argument's refusal does, the CLI printing the line of an attribute a
// diagnostic points at.
func refusedArgument(firstStep, detail string) string {
	if firstStep != "" {
		return firstStep
	}
	if m := argumentNamedInText.FindStringSubmatch(detail); m != nil {
		return m[1]
	}
	return ""
}

var argumentNamedInText = regexp.MustCompile(`^Attribute ([a-z_]+)[ .:\[]`)

// providerVerdict reads the error diagnostics of the provider's checks.
// Every error must name the argument it is about, and none may call the
// user's input an error of the provider's (as the framework's conversion
// errors do).
func providerVerdict(t *testing.T, diags []*tfprotov6.Diagnostic) verdict {
	t.Helper()
	var v verdict
	for _, d := range diags {
		if d.Severity != tfprotov6.DiagnosticSeverityError {
			continue
		}
		if strings.Contains(d.Detail, "error in the provider") || strings.Contains(d.Detail, "bug in the provider") {
			t.Errorf("an error blames the provider for a configuration's value: %s: %s", d.Summary, d.Detail)
		}
		var firstStep string
		if d.Attribute != nil && len(d.Attribute.Steps()) > 0 {
			name, _ := d.Attribute.Steps()[0].(tftypes.AttributeName)
			firstStep = string(name)
		}
		name := refusedArgument(firstStep, d.Detail)
		if name == "" {
			t.Errorf("an error names no argument: %s: %s", d.Summary, d.Detail)
			v.refuse("", d.Summary)
			continue
		}
		v.refuse(name, d.Summary+": "+d.Detail)
		// A number its attribute's type cannot hold (a fraction or a whole
		// number beyond int64 in an integer, one beyond float64's range)
		// leaves the checks that read the whole configuration unrun.
		v.partial = v.partial || d.Summary == numtypes.NotWholeSummary || d.Summary == numtypes.OutOfRangeSummary
	}
	return v
}

// serviceVerdict reads the service's answer to a request (err is the
// client's): 2xx accepts, 400 and 422 refuse, naming the fields in their
// validation errors; anything else fails the test. badRequestIsPartial says
// that a 400 may name only some problems (a create's body checked for its
// shape before its values).
func serviceVerdict(t *testing.T, err error, badRequestIsPartial bool) verdict {
	t.Helper()
	v := verdict{built: true}
	if err == nil {
		return v
	}
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || (apiErr.StatusCode != 400 && apiErr.StatusCode != 422) {
		t.Fatalf("the service did not answer with a verdict: %v", err)
	}
	v.partial = badRequestIsPartial && apiErr.StatusCode == 400
	if len(apiErr.ValidationErrors) == 0 {
		v.refuse("", apiErr.Message)
	}
	for _, problem := range apiErr.ValidationErrors {
		v.refuse(problemRoot(problem), problem)
	}
	return v
}

// problemRoot is the top-level argument a problem of the service names
// first: its validation errors begin with the field's path, except those of
// serviceRuleRoots.
func problemRoot(problem string) string {
	for rule, root := range serviceRuleRoots {
		if strings.Contains(problem, rule) {
			return root
		}
	}
	end := strings.IndexAny(problem, ".[ ")
	if end < 0 {
		return problem
	}
	return problem[:end]
}

// serviceRuleRoots names the argument the provider refuses for a rule of
// the service about several fields, by what the service's problem says.
var serviceRuleRoots = map[string]string{
	"is required when callback is true":                      "callback",
	"a custom_metadata filter is custom_metadata[key]=value": "custom_metadata",
	"a callback is required under zero data retention":       "callback",
}

// providerOnlyRule is a refusal of the provider's that the service does not
// share: decisions reported to the planners, which the test counts apart.
type providerOnlyRule struct {
	name    string
	matches func(summary string) bool
}

var providerOnlyRules = []providerOnlyRule{
	// The spec's rules, which the request built from the configuration
	// cannot carry: a required argument left out is sent empty (a custom
	// spelling dictionary as {}), an empty list of subtitle formats not at
	// all (the service then uses its default).
	{"(spec) a required argument left out", func(s string) bool { return strings.HasPrefix(s, "Missing Configuration for Required Attribute") }},
	{"(spec) an empty list that needs one item", func(s string) bool { return strings.Contains(s, "list must contain at least 1 elements") }},
	// A number no request can carry: the service reads a number nearer to
	// zero than any float64 (1e-400) as 0, as JavaScript's JSON.parse does.
	{"a number no 64-bit float holds", func(s string) bool { return strings.HasPrefix(s, numtypes.OutOfRangeSummary+":") }},
	// Decisions of the provider's, reported to the planners.
	{"duplicate list values", func(s string) bool { return strings.HasPrefix(s, "Duplicate list value") }},
	{"a switch without its configuration", func(s string) bool { return strings.Contains(s, " = true needs ") }},
	{"a blank prompt, pronunciation or spelling", func(s string) bool {
		return strings.Contains(s, "must not be empty or blank") && (strings.Contains(s, "prompts[") || strings.Contains(s, "pronunciations[") || strings.Contains(s, "spelling_dictionary["))
	}},
	{"after_date not earlier than before_date", func(s string) bool { return strings.HasPrefix(s, "Invalid date-time range") }},
	{"date outside after_date and before_date", func(s string) bool { return strings.HasPrefix(s, "Invalid date filter") }},
}

func providerOnly(why string) string {
	for _, r := range providerOnlyRules {
		if r.matches(why) {
			return r.name
		}
	}
	return ""
}

// tally counts the outcomes of a differential test and collects its
// mismatches, which fail it.
type tally struct {
	t *testing.T
	// a and b name the two sides compared: the provider and the service,
	// or two checks of the provider's that must agree.
	a, b                         string
	generated, accepted, refused int
	notBuilt                     int
	decisions                    map[string]int
	mismatches                   map[string][]string
}

func newTally(t *testing.T, a, b string) *tally {
	return &tally{t: t, a: a, b: b, decisions: map[string]int{}, mismatches: map[string][]string{}}
}

// compare classifies one configuration by what each side refused: an
// argument refused by one side only is a mismatch, unless a's refusal is
// one of decided (providerOnlyRules for the provider against the service).
func (ty *tally) compare(label string, a, b verdict, decided func(why string) string) {
	ty.generated++
	if a.accepted() {
		ty.accepted++
	} else {
		ty.refused++
	}
	if !b.built {
		ty.notBuilt++
		return
	}
	for _, root := range a.roots() {
		if _, both := b.refused[root]; both || b.partial {
			continue
		}
		known := decided != nil
		for _, why := range a.refused[root] {
			if rule := ""; decided != nil {
				if rule = decided(why); rule != "" {
					ty.decisions[rule]++
					continue
				}
			}
			known = false
		}
		if !known {
			ty.mismatch(fmt.Sprintf("%s refuses what %s accepts: %s", ty.a, ty.b, root),
				fmt.Sprintf("%s\n  %s: %s\n  %s: %v", label, ty.a, strings.Join(a.refused[root], " | "), ty.b, b.refused))
		}
	}
	for _, root := range b.roots() {
		if _, both := a.refused[root]; !both && !a.partial {
			ty.mismatch(fmt.Sprintf("%s refuses what %s accepts: %s", ty.b, ty.a, root),
				fmt.Sprintf("%s\n  %s: %s\n  %s: %v", label, ty.b, strings.Join(b.refused[root], " | "), ty.a, a.refused))
		}
	}
}

func (ty *tally) mismatch(class, example string) {
	if len(ty.mismatches[class]) < 3 {
		ty.mismatches[class] = append(ty.mismatches[class], example)
	} else {
		ty.mismatches[class] = append(ty.mismatches[class], "")
	}
}

func (ty *tally) report(what string) {
	ty.t.Helper()
	ty.t.Logf("%s: %d configurations, %d accepted by %s, %d refused (%d not checked by %s); refusals of %s's own decisions: %v",
		what, ty.generated, ty.accepted, ty.a, ty.refused, ty.notBuilt, ty.b, ty.a, ty.decisions)
	classes := make([]string, 0, len(ty.mismatches))
	for c := range ty.mismatches {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		examples := slices.DeleteFunc(slices.Clone(ty.mismatches[c]), func(s string) bool { return s == "" })
		ty.t.Errorf("%s (%d configurations), for example:\n%s", c, len(ty.mismatches[c]), strings.Join(examples, "\n"))
	}
	if ty.accepted < ty.generated/10 || ty.refused < ty.generated/10 {
		ty.t.Errorf("%s: the generator should make both outcomes common: %d accepted, %d refused", what, ty.accepted, ty.refused)
	}
}

// noiseLevels are the noise rates configurations are generated with, in
// turn: noiseless ones, mostly accepted, and noisier ones.
var noiseLevels = []float64{0, 0.02, 0.05, 0.15}

// TestJobConfigAgainstService checks transcription_job configurations, and
// the same arguments given to the transcription_transcribe action, against
// the fake server: the provider checks each as Terraform asks it to
// (ValidateResourceConfig, then PlanResourceChange for a new job), and the
// body the resource's Create would send (createRequest) is sent with the
// provider's client.
func TestJobConfigAgainstService(t *testing.T) {
	testJobConfigAgainstService(t, newProtoHarness(t, fakeserver.Options{}), false, jobPools, differentialJobConfigs)
}

// TestJobConfigGeneratorIsDeterministic: a seed makes the same
// configurations every time, so that a failure names one that can be
// replayed.
func TestJobConfigGeneratorIsDeterministic(t *testing.T) {
	h := newProtoHarness(t, fakeserver.Options{})
	s := h.schemas.ResourceSchemas[jobResourceTypeName]
	for i := range 50 {
		var texts [2]string
		for run := range texts {
			g := &generator{t: t, rng: rand.New(rand.NewPCG(differentialSeed(t), uint64(i))), pools: jobPools, noise: noiseLevels[i%len(noiseLevels)]}
			texts[run] = configText(g.jobConfig(s))
		}
		if texts[0] != texts[1] {
			t.Fatalf("configuration %d differs from one run to the next:\n  %s\n  %s", i, texts[0], texts[1])
		}
	}
}

// TestJobConfigAgainstServiceUnderZeroDataRetention is the same with the
// provider's zero_data_retention and a service that has it on: a job needs
// a callback, and an audio_url off the service's host.
func TestJobConfigAgainstServiceUnderZeroDataRetention(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: true})
	server, schemas := startConfiguredProvider(t, url, map[string]tftypes.Value{"zero_data_retention": tftypes.NewValue(tftypes.Bool, true)})
	pools := maps.Clone(jobPools)
	audio := pools["audio_url"]
	audio.edge = append(slices.Clone(audio.edge), url+"/file/0f1e2d3c", url+"/v2/upload/x.wav", strings.Replace(url, "http://", "https://", 1)+"/file/x")
	pools["audio_url"] = audio
	testJobConfigAgainstService(t, &protoHarness{tb: t, server: server, schemas: schemas, fake: fs, url: url}, true, pools, differentialJobConfigs/4)
}

// testJobConfigAgainstService checks configs configurations drawn from
// pools with the provider of h, whose zero_data_retention is zdr.
func testJobConfigAgainstService(t *testing.T, h *protoHarness, zdr bool, pools map[string]pool, configs int) {
	ctx := context.Background()
	c, err := client.New(client.Config{BaseURL: h.url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	seed := differentialSeed(t)
	jobSchemaProto := h.schemas.ResourceSchemas[jobResourceTypeName]
	jobType := h.resourceType(jobResourceTypeName)
	null := dynamicValue(t, jobType, tftypes.NewValue(jobType, nil))
	frameworkSchema := jobSchema(ctx)
	action := newActionDifferential(t, h, &ProviderData{Client: c, ZeroDataRetention: zdr})

	ty := newTally(t, "the provider", "the service")
	for i := range configs {
		g := &generator{t: t, rng: rand.New(rand.NewPCG(seed, uint64(i))), pools: pools, noise: noiseLevels[i%len(noiseLevels)]}
		config := g.jobConfig(jobSchemaProto)
		label := fmt.Sprintf("configuration %d of seed %d: %s", i, seed, configText(config))
		dv := dynamicValue(t, jobType, config)

		validated, err := h.server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: jobResourceTypeName, Config: &dv})
		if err != nil {
			t.Fatal(err)
		}
		// Planned even when refused (Terraform would stop there), so that
		// the plan's own refusals (a callback without a destination or,
		// for a new job, a callback_config without url; under zero data
		// retention a job without a callback) are not hidden behind
		// another argument's.
		diags := validated.Diagnostics
		{
			planned, err := h.server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: jobResourceTypeName, PriorState: &null, ProposedNewState: &dv, Config: &dv})
			if err != nil {
				t.Fatal(err)
			}
			diags = append(diags, planned.Diagnostics...)
		}
		provider := providerVerdict(t, diags)
		action.check(label, config, provider)

		// What Create sends: the request built from the configuration.
		var model jobResourceModel
		service := verdict{}
		if d := (tfsdk.Config{Schema: frameworkSchema, Raw: config}).Get(ctx, &model); !d.HasError() {
			if body, d := model.createRequest(ctx); !d.HasError() {
				_, err := c.CreatePreRecorded(ctx, body)
				service = serviceVerdict(t, err, true)
			}
		}
		if provider.accepted() && !service.built {
			t.Errorf("%s: accepted, but no request can be built from it", label)
		}
		ty.compare(label, provider, service, providerOnly)
	}
	ty.report("transcription_job")
	action.ty.report("transcription_transcribe, planned")
	action.invoked.report("transcription_transcribe, invoked")
}

// configText writes the non-null values of a configuration, as compact
// as a failure message needs.
func configText(v tftypes.Value) string {
	if v.IsNull() {
		return "null"
	}
	if !v.IsKnown() {
		return "(unknown)"
	}
	var b strings.Builder
	switch {
	case v.Type().Is(tftypes.Object{}), v.Type().Is(tftypes.Map{}):
		var attrs map[string]tftypes.Value
		_ = v.As(&attrs)
		names := make([]string, 0, len(attrs))
		for name, a := range attrs {
			if !a.IsNull() {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		b.WriteString("{")
		for i, name := range names {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s = %s", strconv.Quote(name), configText(attrs[name]))
		}
		b.WriteString("}")
	case v.Type().Is(tftypes.List{}):
		var elems []tftypes.Value
		_ = v.As(&elems)
		b.WriteString("[")
		for i, e := range elems {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(configText(e))
		}
		b.WriteString("]")
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		b.WriteString(strconv.Quote(s))
	case v.Type().Is(tftypes.Number):
		var n big.Float
		_ = v.As(&n)
		b.WriteString(n.Text('g', -1))
	case v.Type().Is(tftypes.Bool):
		var t bool
		_ = v.As(&t)
		b.WriteString(strconv.FormatBool(t))
	}
	return b.String()
}

func hasError(diags []*tfprotov6.Diagnostic) bool {
	return slices.ContainsFunc(diags, func(d *tfprotov6.Diagnostic) bool { return d.Severity == tfprotov6.DiagnosticSeverityError })
}

// actionDifferential gives the job's request arguments to the
// transcription_transcribe action, which must refuse the same arguments as
// the resource, both when Terraform validates and plans it and when Invoke
// checks its final configuration itself (checkConfig, a walk of its
// own).
type actionDifferential struct {
	t       *testing.T
	server  tfprotov6.ActionServer
	typ     tftypes.Object
	schema  tfsdk.Config
	action  *transcribeAction
	ty      *tally
	invoked *tally
}

const transcribeActionTypeName = "transcription_transcribe"

// transcribeActionOf is the action server of h's provider, and the
// transcribe action's schema and type.
func transcribeActionOf(t *testing.T, h *protoHarness) (tfprotov6.ActionServer, *tfprotov6.ActionSchema, tftypes.Object) {
	t.Helper()
	s, ok := h.schemas.ActionSchemas[transcribeActionTypeName]
	if !ok {
		t.Fatalf("no action %s", transcribeActionTypeName)
	}
	typ, ok := s.Schema.ValueType().(tftypes.Object)
	if !ok {
		t.Fatal("the action's schema is not an object")
	}
	server, ok := h.server.(tfprotov6.ActionServer)
	if !ok {
		t.Fatal("the provider's server serves no actions")
	}
	return server, s, typ
}

func newActionDifferential(t *testing.T, h *protoHarness, data *ProviderData) *actionDifferential {
	server, _, typ := transcribeActionOf(t, h)
	a := &transcribeAction{data: data}
	var schemaResp action.SchemaResponse
	a.Schema(context.Background(), action.SchemaRequest{}, &schemaResp)
	return &actionDifferential{
		t: t, server: server, typ: typ, action: a,
		schema:  tfsdk.Config{Schema: schemaResp.Schema},
		ty:      newTally(t, "the resource", "the action"),
		invoked: newTally(t, "the action's plan", "its Invoke"),
	}
}

func (d *actionDifferential) check(label string, jobConfig tftypes.Value, resource verdict) {
	ctx := context.Background()
	var request map[string]tftypes.Value
	if err := jobConfig.As(&request); err != nil {
		d.t.Fatal(err)
	}
	values := map[string]tftypes.Value{}
	for _, name := range requestFieldNames() {
		values[name] = request[name]
	}
	config := objectValue(d.typ, values)
	dv := dynamicValue(d.t, d.typ, config)
	validated, err := d.server.ValidateActionConfig(ctx, &tfprotov6.ValidateActionConfigRequest{ActionType: transcribeActionTypeName, Config: &dv})
	if err != nil {
		d.t.Fatal(err)
	}
	diags := validated.Diagnostics
	plannedResp, err := d.server.PlanAction(ctx, &tfprotov6.PlanActionRequest{ActionType: transcribeActionTypeName, Config: &dv})
	if err != nil {
		d.t.Fatal(err)
	}
	diags = append(diags, plannedResp.Diagnostics...)
	planned := providerVerdict(d.t, diags)
	planned.built = true
	d.ty.compare(label, resource, planned, nil)

	var invokeDiags diag.Diagnostics
	final := d.schema
	final.Raw = config
	d.action.checkConfig(ctx, final, &invokeDiags)
	invoked := verdict{built: true}
	for _, e := range invokeDiags.Errors() {
		var root string
		if withPath, ok := e.(diag.DiagnosticWithPath); ok && len(withPath.Path().Steps()) > 0 {
			root = withPath.Path().Steps()[0].String()
		}
		invoked.refuse(refusedArgument(root, e.Detail()), e.Summary()+": "+e.Detail())
	}
	d.invoked.compare(label, planned, invoked, nil)
}

// TestListFiltersAgainstService checks the filters of the
// transcription_live_jobs data source and of the transcription_job list
// resource (list_filters.go) against the fake server's listings: each side
// validates them as Terraform asks it to (ValidateDataResourceConfig,
// ValidateListResourceConfig), and the listing each would ask for
// (listOptions, then the client's pages as Read and List follow them) is
// asked of the fake server. The two must also refuse the same filters.
func TestListFiltersAgainstService(t *testing.T) {
	ctx := context.Background()
	h := newProtoHarness(t, fakeserver.Options{LiveJobs: 3})
	c, err := client.New(client.Config{BaseURL: h.url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	listServer, listType := jobListOf(t, h)
	seed := differentialSeed(t)
	liveSchema := h.schemas.DataSourceSchemas[liveJobsTypeName]
	liveType := h.dataSourceType(liveJobsTypeName)
	liveFramework := dataSourceSchema(t, NewLiveJobsDataSource())
	var listResp list.ListResourceSchemaResponse
	NewJobListResource().(*jobListResource).ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &listResp)
	listFramework := listResp.Schema

	live, listed, shared := newTally(t, "the provider", "the service"), newTally(t, "the provider", "the service"), newTally(t, "the data source", "the list resource")
	for i := range differentialFilterConfigs {
		g := &generator{t: t, rng: rand.New(rand.NewPCG(seed, uint64(i))), pools: filterPools, noise: noiseLevels[i%len(noiseLevels)]}
		config := g.object("", liveSchema.Block.Attributes, nil)
		label := fmt.Sprintf("filters %d of seed %d: %s", i, seed, configText(config))

		// The data source.
		dv := dynamicValue(t, liveType, config)
		validated, err := h.server.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: liveJobsTypeName, Config: &dv})
		if err != nil {
			t.Fatal(err)
		}
		provider := providerVerdict(t, validated.Diagnostics)
		var model listingDataSourceModel
		service := verdict{}
		if d := (tfsdk.Config{Schema: liveFramework, Raw: config}).Get(ctx, &model); !d.HasError() {
			if opts, d := model.listOptions(ctx); !d.HasError() {
				maxItems := 0
				if !model.Limit.IsNull() {
					maxItems = int(model.Limit.ValueInt64())
				}
				_, err := c.EachLivePage(ctx, opts, maxItems, listingPageSize, resultDetail(summaryContent), func([]client.LiveJob) error { return nil })
				service = serviceVerdict(t, err, false)
			}
		}
		if provider.accepted() && !service.built {
			t.Errorf("%s: accepted, but no listing can be asked for", label)
		}
		probeUnsent(t, h.url+"/v2/live", config, provider, &service, sentQuery(model.listFilterModel, model.Offset))
		live.compare(label, provider, service, providerOnly)

		// The list resource, given the same filters.
		listConfig := listFiltersOf(t, config, listType)
		ldv := dynamicValue(t, listType, listConfig)
		listValidated, err := listServer.ValidateListResourceConfig(ctx, &tfprotov6.ValidateListResourceConfigRequest{TypeName: jobResourceTypeName, Config: &ldv})
		if err != nil {
			t.Fatal(err)
		}
		listProvider := providerVerdict(t, listValidated.Diagnostics)
		var listModel jobListConfigModel
		listService := verdict{}
		if d := (tfsdk.Config{Schema: listFramework, Raw: listConfig}).Get(ctx, &listModel); !d.HasError() {
			if opts, d := listModel.listOptions(ctx); !d.HasError() {
				_, err := c.EachPreRecordedRecordPage(ctx, opts, 10, listingPageSize, resultDetail(summaryContent), func([]client.PreRecordedRecord) error { return nil })
				listService = serviceVerdict(t, err, false)
			}
		}
		probeUnsent(t, h.url+"/v2/pre-recorded", listConfig, listProvider, &listService, sentQuery(listModel.listFilterModel, numtypes.NewInt64Null()))
		listed.compare(label, listProvider, listService, providerOnly)

		// What the two share, refused alike: the data source's refusals of
		// its own arguments aside.
		onlyShared := verdict{built: true}
		for root, why := range provider.refused {
			if _, isFilter := listType.AttributeTypes[root]; isFilter {
				onlyShared.refused = mapWith(onlyShared.refused, root, why)
			}
		}
		listProvider.built = true
		shared.compare(label, onlyShared, listProvider, nil)
	}
	live.report("transcription_live_jobs")
	listed.report("transcription_job list resource")
	shared.report("transcription_live_jobs against the transcription_job list resource")
}

func mapWith(m map[string][]string, k string, v []string) map[string][]string {
	if m == nil {
		m = map[string][]string{}
	}
	m[k] = v
	return m
}

// sentQuery is the query a listing's filters make, as the client encodes
// them (the page's limit aside: the client sets it).
func sentQuery(m listFilterModel, offset numtypes.Int64) url.Values {
	opts, _ := m.listOptions(context.Background())
	opts.Offset = int(offset.ValueInt64())
	return opts.Query()
}

// probeUnsent asks the listing at endpoint for each filter the provider
// refused that the request left out (the client sends no empty date, no
// offset below 1, and a data source's limit is not a page size), with its
// value as written: what the service says of that value decides, in place
// of a request that did not carry it.
func probeUnsent(t *testing.T, endpoint string, config tftypes.Value, provider verdict, service *verdict, sent url.Values) {
	t.Helper()
	if !service.built {
		return
	}
	var attrs map[string]tftypes.Value
	if err := config.As(&attrs); err != nil {
		t.Fatal(err)
	}
	for _, root := range provider.roots() {
		v, ok := attrs[root]
		if _, refused := service.refused[root]; refused || !ok || sent.Has(root) {
			continue
		}
		var raw string
		switch {
		case v.Type().Is(tftypes.String):
			_ = v.As(&raw)
		case v.Type().Is(tftypes.Number):
			var n big.Float
			_ = v.As(&n)
			raw = n.Text('f', -1)
		default:
			continue // lists and maps are sent as written
		}
		req, err := http.NewRequest(http.MethodGet, endpoint+"?"+url.Values{root: {raw}}.Encode(), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("x-service-key", acctest.APIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode == http.StatusBadRequest {
			service.refuse(root, fmt.Sprintf("(asked alone: %s=%q) 400", root, raw))
		}
	}
}
