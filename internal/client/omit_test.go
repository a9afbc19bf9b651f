package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// omitResultMembers runs data through an omitter in one piece, in place.
func omitResultMembers(data []byte, names [][]byte) []byte {
	o := newOmitter(names, data[:0])
	o.write(data)
	return o.finish()
}

var omitWords = [][]byte{[]byte("words")}

// omitCases hold texts whose every split point is a state of the omitter.
var omitCases = []struct {
	name, in, want string
	names          [][]byte
}{
	{"only member", `{"result":{"u":[{"words":[1,2]}]}}`, `{"result":{"u":[{}]}}`, omitWords},
	{"first member", `{"result":{"u":[{"words":[{"w":"a"}],"text":"a"}]}}`, `{"result":{"u":[{"text":"a"}]}}`, omitWords},
	{"last member", `{"result":{"u":[{"text":"a","words":[]}]}}`, `{"result":{"u":[{"text":"a"}]}}`, omitWords},
	{"middle, spaced", "{\"result\": {\"a\": 1 ,\n \"words\" : [ \"]\" ] , \"b\":2}}", "{\"result\": {\"a\": 1  , \"b\":2}}", omitWords},
	{"outside result kept", `{"custom_metadata":{"words":"x"},"result":{"words":null}}`, `{"custom_metadata":{"words":"x"},"result":{}}`, omitWords},
	{"after result kept", `{"result":{"x":{}},"words":1}`, `{"result":{"x":{}},"words":1}`, omitWords},
	{"null result", `{"result":null,"words":1}`, `{"result":null,"words":1}`, omitWords},
	{"string holding the key", `{"result":{"text":"\"words\":[1]"}}`, `{"result":{"text":"\"words\":[1]"}}`, omitWords},
	{"escaped key", `{"result":{"wor\u0064s":[1],"a":"\\"}}`, `{"result":{"a":"\\"}}`, omitWords},
	{"items of a page", `{"items":[{"result":{"words":1}},{"result":{"words":2,"k":3}}]}`, `{"items":[{"result":{}},{"result":{"k":3}}]}`, omitWords},
	{"utterances", `{"result":{"transcription":{"full_transcript":"a","utterances":[{"words":[]}],"languages":["en"]}}}`,
		`{"result":{"transcription":{"full_transcript":"a","languages":["en"]}}}`, [][]byte{[]byte("utterances")}},
	{"nothing to omit", `{"result":{"words":[]}}`, `{"result":{"words":[]}}`, nil},
	// Escapes, scalars and spaces where a write may end.
	{"escapes in a left-out value", `{"result":{"words":["\\\"]}","\\"],"a":"\\\""}}`, `{"result":{"a":"\\\""}}`, omitWords},
	{"left-out string", `{"result":{"words":"a\"b","a":1}}`, `{"result":{"a":1}}`, omitWords},
	{"left-out scalar then comma", `{"result":{"words":-1.5e3 , "a":true}}`, `{"result":{ "a":true}}`, omitWords},
	{"left-out scalar last", `{"result":{"a":null,"words":false }}`, `{"result":{"a":null }}`, omitWords},
	{"only member, spaced", "{\"result\":{\"words\":1 \n}}", "{\"result\":{ \n}}", omitWords},
	{"spaced result", "{\"result\" :\n {\"words\":1}}", "{\"result\" :\n {}}", omitWords},
	{"result not an object", `{"result":[{"words":1}],"words":2}`, `{"result":[{"words":1}],"words":2}`, omitWords},
	{"nested result", `{"result":{"a":{"result":{"words":1}},"words":2}}`, `{"result":{"a":{"result":{}}}}`, omitWords},
}

func TestOmitResultMembers(t *testing.T) {
	for _, tc := range omitCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := omitResultMembers([]byte(tc.in), tc.names); string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// omitInPieces runs data through an omitter in pieces of at most size bytes.
func omitInPieces(data []byte, names [][]byte, size int) []byte {
	o := newOmitter(names, nil)
	for i := 0; i < len(data); i += size {
		o.write(data[i:min(i+size, len(data))])
	}
	return o.finish()
}

// The omitter leaves the same out however the text is cut: at every point
// in two, and byte by byte.
func TestOmitter_pieces(t *testing.T) {
	for _, tc := range omitCases {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			for cut := 1; cut < len(in); cut++ {
				o := newOmitter(tc.names, nil)
				o.write(in[:cut])
				o.write(in[cut:])
				if got := o.finish(); string(got) != tc.want {
					t.Errorf("cut at %d (%q | %q): got %s, want %s", cut, in[:cut], in[cut:], got, tc.want)
				}
			}
			if got := omitInPieces(in, tc.names, 1); string(got) != tc.want {
				t.Errorf("byte by byte: got %s, want %s", got, tc.want)
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
		if pieces := omitInPieces(data, names, 1+len(data)%7); !bytes.Equal(pieces, got) {
			t.Fatalf("input %q: in pieces %q, whole %q", data, pieces, got)
		}
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

// readOmitting keeps what the omitter keeps however the body arrives, logs
// the body's first bytes as sent, counts the bytes sent and bounds them.
func TestReadOmitting(t *testing.T) {
	utterances := [][]byte{[]byte("utterances")}
	page := `{"items":[{"id":"a","result":{"transcription":{"utterances":[{"text":"` + strings.Repeat("x", 5000) + `"}],"full_transcript":"t"}}}]}`
	kept := `{"items":[{"id":"a","result":{"transcription":{"full_transcript":"t"}}}]}`
	broken := errors.New("connection reset")
	for _, tc := range []struct {
		name     string
		body     io.Reader
		limit    int64
		want     string
		wantSize int64
		wantErr  string
	}{
		{"whole", strings.NewReader(page), 1 << 20, kept, int64(len(page)), ""},
		{"byte by byte", iotest.OneByteReader(strings.NewReader(page)), 1 << 20, kept, int64(len(page)), ""},
		{"data with EOF", iotest.DataErrReader(strings.NewReader(page)), 1 << 20, kept, int64(len(page)), ""},
		{"at the limit", strings.NewReader(page), int64(len(page)), kept, int64(len(page)), ""},
		{"over the limit", strings.NewReader(page), int64(len(page)) - 1, "", int64(len(page)) - 1, "exceeds"},
		{"broken", io.MultiReader(strings.NewReader(page[:100]), iotest.ErrReader(broken)), 1 << 20, "", 100, "connection reset"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, head, size, err := readOmitting(tc.body, tc.limit, utterances)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one saying %q", err, tc.wantErr)
				}
			} else if err != nil || string(got) != tc.want {
				t.Fatalf("got %s, %v\nwant %s", got, err, tc.want)
			}
			if size != tc.wantSize {
				t.Errorf("size %d, want %d", size, tc.wantSize)
			}
			if wantHead := page[:min(int(size), maxLoggedBodyBytes)]; string(head) != wantHead {
				t.Errorf("head of %d bytes, want the first %d bytes sent", len(head), len(wantHead))
			}
		})
	}
	if _, _, _, err := readOmitting(iotest.ErrReader(broken), 10, utterances); !errors.Is(err, broken) {
		t.Errorf("the reader's error is not kept: %v", err)
	}
}
