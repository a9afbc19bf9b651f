package fakeserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// badRequest explains why a body is malformed (a 400): each problem names
// the field path it is about.
type badRequest struct {
	message  string
	problems []string
}

// requiredFields are the fields the spec marks required, by the type that
// holds them. A field sent as null counts as missing.
var requiredFields = map[reflect.Type][]string{
	reflect.TypeFor[client.InitTranscriptionRequest](): {"audio_url"},
	reflect.TypeFor[client.CallbackConfig]():           {"url"},
	reflect.TypeFor[client.CustomVocabularyConfig]():   {"vocabulary"},
	reflect.TypeFor[client.VocabularyEntry]():          {"value"},
	reflect.TypeFor[client.TranslationConfig]():        {"target_languages"},
	reflect.TypeFor[client.AudioToLLMConfig]():         {"prompts"},
	reflect.TypeFor[client.CustomSpellingConfig]():     {"spelling_dictionary"},
}

// vocabularyEntryType may be a bare string as well as an object.
var vocabularyEntryType = reflect.TypeFor[client.VocabularyEntry]()

// audioToLLMConfigType holds prompts that may be strings or arrays of
// strings: the spec's samples send strings, its schema (and the official
// client's types) an array per prompt. client.AudioToLLMConfig reads both.
var audioToLLMConfigType = reflect.TypeFor[client.AudioToLLMConfig]()

// piiRedactionConfigType holds entity_types that may be one value or an
// array ("value(s)" in the spec; one value in the official client's types).
var piiRedactionConfigType = reflect.TypeFor[client.PIIRedactionConfig]()

// decodeCreateRequest turns a create body into a request, or says why the
// body is malformed: not JSON, not one object, a field of the wrong type, an
// unknown field at any depth, or a required field missing. Rules about
// values are validateRequest's (a 422).
func decodeCreateRequest(body []byte) (*client.InitTranscriptionRequest, *badRequest) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &badRequest{message: "the request body is empty; a JSON object is required"}
		}
		return nil, &badRequest{message: "the request body is not valid JSON: " + err.Error()}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &badRequest{message: "the request body has data after its JSON object"}
	}
	if _, ok := tree.(map[string]any); !ok {
		return nil, &badRequest{message: "the request body must be a JSON object"}
	}

	var c shapeCheck
	c.check(tree, reflect.TypeFor[client.InitTranscriptionRequest](), "")
	if len(c.problems) > 0 {
		return nil, &badRequest{message: "the request body is malformed", problems: c.problems}
	}
	if c.rewritten {
		body, _ = json.Marshal(tree) // a tree decoded from JSON encodes
	}
	// The shape check mirrors what the decoder accepts; decoding strictly
	// anyway keeps the two from drifting apart silently.
	var req client.InitTranscriptionRequest
	strict := json.NewDecoder(bytes.NewReader(body))
	strict.DisallowUnknownFields()
	if err := strict.Decode(&req); err != nil {
		return nil, &badRequest{message: "the request body is malformed: " + err.Error()}
	}
	return &req, nil
}

// shapeCheck compares a decoded JSON value (numbers as json.Number) with the
// Go type it must decode into: problems holds one per mismatch. Go's decoder
// takes an int only written as digits, so a whole number an integer field
// holds written otherwise ("2.0", "1e2") is written so again in the value,
// and rewritten says the value changed.
type shapeCheck struct {
	problems  []string
	rewritten bool
}

func (c *shapeCheck) add(problem string) { c.problems = append(c.problems, problem) }

// check checks v against t and returns it, an integer rewritten as digits.
func (c *shapeCheck) check(v any, t reflect.Type, path string) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	mustBe := func(what string) { c.add(fmt.Sprintf("%s must be %s", path, what)) }
	switch t.Kind() {
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			mustBe("a boolean")
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			mustBe("a string")
		}
	case reflect.Float32, reflect.Float64:
		n, ok := v.(json.Number)
		if _, err := strconv.ParseFloat(string(n), 64); !ok || err != nil {
			mustBe("a number")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		i, whole := wholeNumber(n)
		switch {
		case !ok || !whole:
			mustBe("an integer")
		case strconv.FormatInt(i, 10) != string(n):
			c.rewritten = true
			return json.Number(strconv.FormatInt(i, 10))
		}
	case reflect.Slice:
		items, ok := v.([]any)
		if !ok {
			mustBe("an array")
			return v
		}
		for i, item := range items {
			items[i] = c.check(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			mustBe("an object")
			return v
		}
		for _, k := range orderedKeys(obj) {
			obj[k] = c.check(obj[k], t.Elem(), fmt.Sprintf("%s[%q]", path, k))
		}
	case reflect.Interface:
		// Any JSON value (custom_metadata values).
	case reflect.Struct:
		if t == vocabularyEntryType {
			if _, ok := v.(string); ok {
				return v
			}
		}
		obj, ok := v.(map[string]any)
		if !ok {
			if t == vocabularyEntryType {
				mustBe("a string or an object")
			} else {
				mustBe("an object")
			}
			return v
		}
		c.checkObject(obj, t, path)
	default:
		mustBe("a " + t.Kind().String())
	}
	return v
}

// wholeNumber reads n as an integer: one written as digits, or any number
// whose value is whole ("2.0", "1e2"), as JSON Schema's integer type and a
// JavaScript service (to which they are the same number) take it; within
// int64, where the request's integers are decoded.
func wholeNumber(n json.Number) (int64, bool) {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, false
	}
	return int64(f), true
}

func (c *shapeCheck) checkObject(obj map[string]any, t reflect.Type, path string) {
	fields := jsonFields(t)
	for _, name := range requiredFields[t] {
		if v, ok := obj[name]; !ok || v == nil {
			c.add(joinFieldPath(path, name) + " is required")
		}
	}
	for _, k := range orderedKeys(obj) {
		fieldPath := joinFieldPath(path, k)
		ft, known := fields[k]
		switch {
		case !known:
			c.add(fieldPath + " is not a known field")
		case obj[k] == nil:
			// null is the same as leaving the field out.
		case t == audioToLLMConfigType && k == "prompts":
			c.checkPrompts(obj[k], fieldPath)
		case t == piiRedactionConfigType && k == "entity_types":
			if _, one := obj[k].(string); !one {
				obj[k] = c.check(obj[k], ft, fieldPath)
			}
		default:
			obj[k] = c.check(obj[k], ft, fieldPath)
		}
	}
}

// jsonFields maps the JSON names of a struct's fields to their types. Names
// match exactly: the service does not fold case as encoding/json does.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := make(map[string]reflect.Type, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}

func joinFieldPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func orderedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkPrompts checks audio_to_llm_config.prompts: an array whose items are
// each a string, or an array of strings (one prompt in parts).
func (c *shapeCheck) checkPrompts(v any, path string) {
	items, ok := v.([]any)
	if !ok {
		c.add(path + " must be an array")
		return
	}
	for i, item := range items {
		switch item := item.(type) {
		case string:
		case []any:
			for j, part := range item {
				if _, ok := part.(string); !ok {
					c.add(fmt.Sprintf("%s[%d][%d] must be a string", path, i, j))
				}
			}
		default:
			c.add(fmt.Sprintf("%s[%d] must be a string or an array of strings", path, i))
		}
	}
}
