package client

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func TestOmitResultMembers(t *testing.T) {
	words := [][]byte{[]byte("words")}
	for _, tc := range []struct {
		name, in, want string
		names          [][]byte
	}{
		{"only member", `{"result":{"u":[{"words":[1,2]}]}}`, `{"result":{"u":[{}]}}`, words},
		{"first member", `{"result":{"u":[{"words":[{"w":"a"}],"text":"a"}]}}`, `{"result":{"u":[{"text":"a"}]}}`, words},
		{"last member", `{"result":{"u":[{"text":"a","words":[]}]}}`, `{"result":{"u":[{"text":"a"}]}}`, words},
		{"middle, spaced", "{\"result\": {\"a\": 1 ,\n \"words\" : [ \"]\" ] , \"b\":2}}", "{\"result\": {\"a\": 1  , \"b\":2}}", words},
		{"outside result kept", `{"custom_metadata":{"words":"x"},"result":{"words":null}}`, `{"custom_metadata":{"words":"x"},"result":{}}`, words},
		{"after result kept", `{"result":{"x":{}},"words":1}`, `{"result":{"x":{}},"words":1}`, words},
		{"null result", `{"result":null,"words":1}`, `{"result":null,"words":1}`, words},
		{"string holding the key", `{"result":{"text":"\"words\":[1]"}}`, `{"result":{"text":"\"words\":[1]"}}`, words},
		{"escaped key", `{"result":{"wor\u0064s":[1],"a":"\\"}}`, `{"result":{"a":"\\"}}`, words},
		{"items of a page", `{"items":[{"result":{"words":1}},{"result":{"words":2,"k":3}}]}`, `{"items":[{"result":{}},{"result":{"k":3}}]}`, words},
		{"utterances", `{"result":{"transcription":{"full_transcript":"a","utterances":[{"words":[]}],"languages":["en"]}}}`,
			`{"result":{"transcription":{"full_transcript":"a","languages":["en"]}}}`, [][]byte{[]byte("utterances")}},
		{"nothing to omit", `{"result":{"words":[]}}`, `{"result":{"words":[]}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := omitResultMembers([]byte(tc.in), tc.names); string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// omitReference is omitResultMembers on decoded JSON: the property the fuzz
// target checks.
func omitReference(v any, names [][]byte, inResult bool) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if inResult && isOneOf(mustQuote(k), names) {
				continue
			}
			_, isObject := e.(map[string]any)
			out[k] = omitReference(e, names, inResult || (k == "result" && isObject))
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = omitReference(e, names, inResult)
		}
		return out
	}
	return v
}

func mustQuote(s string) []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}

func decodeAny(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, &json.SyntaxError{}
	}
	return v, nil
}

func FuzzOmitResultMembers(f *testing.F) {
	for _, seed := range []string{
		`{"result":{"transcription":{"utterances":[{"words":[{"word":"a"}],"text":"a"}]}}}`,
		`{"items":[{"custom_metadata":{"words":1},"result":{"translation":{"results":[{"utterances":[],"words":[]}]}}}]}`,
		`{"result":[{"words":1}],"x":{"result":{"words":"}"}}}`,
		`{"result":{"wor\u0064s":1, "a" : [ "\\\"", {"words" :{}} ] }}`,
		`{"result":{"words":[1,2}`,
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, utterances bool) {
		names := [][]byte{[]byte("words")}
		if utterances {
			names = [][]byte{[]byte("utterances")}
		}
		in, err := decodeAny(data)
		got := omitResultMembers(bytes.Clone(data), names)
		if err != nil {
			return // invalid input: no panic is all that is asked
		}
		out, err := decodeAny(got)
		if err != nil {
			t.Fatalf("valid input %q became invalid %q: %v", data, got, err)
		}
		if want := omitReference(in, names, false); !reflect.DeepEqual(out, want) {
			t.Fatalf("input %q\ngot  %q\nwant %v", data, got, want)
		}
	})
}
