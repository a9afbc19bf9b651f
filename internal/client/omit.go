package client

import (
	"bytes"
	"encoding/json"
)

// Detail is how much of a result's transcripts a read decodes. An hour of
// audio has over a thousand utterances and ten thousand words: a caller that
// does not use them saves decoding (and holding) them.
type Detail int

const (
	// FullDetail decodes everything the service sent.
	FullDetail Detail = iota
	// WithoutWords leaves out the words of each utterance (Utterance.Words
	// is nil).
	WithoutWords
	// WithoutUtterances leaves out the utterances of every transcript
	// (Transcription.Utterances and TranslationItem.Utterances are nil).
	WithoutUtterances
)

// firstDetail is the detail of a call taking an optional one.
func firstDetail(detail []Detail) Detail {
	if len(detail) == 0 {
		return FullDetail
	}
	return detail[0]
}

// omitted names the members a detail leaves out of a result.
func (d Detail) omitted() [][]byte {
	switch d {
	case WithoutWords:
		return [][]byte{[]byte("words")}
	case WithoutUtterances:
		return [][]byte{[]byte("utterances")}
	}
	return nil
}

// omitResultMembers removes, in place, every member whose key is one of
// names from the objects inside the value of any member named "result", and
// returns the shortened text. It works on the bytes, before decoding, so
// that what is left out is neither decoded nor allocated: scanning is several
// times faster than decoding. Invalid JSON comes out in some form the
// decoder then rejects; the function never reads out of bounds.
func omitResultMembers(data []byte, names [][]byte) []byte {
	if len(names) == 0 || !bytes.Contains(data, []byte(`"result"`)) {
		return data
	}
	out := data[:0] // writes never overtake reads: out only ever shrinks
	depth := 0
	resultDepth := -1 // depth of the value of the outermost "result" member
	for i := 0; i < len(data); {
		c := data[i]
		switch c {
		case '{', '[':
			depth++
		case '}', ']':
			if depth == resultDepth {
				resultDepth = -1
			}
			depth--
		case '"':
			end := stringEnd(data, i)
			colon := skipSpace(data, end)
			if colon < len(data) && data[colon] == ':' { // a key
				key := data[i:end]
				if resultDepth >= 0 && isOneOf(key, names) {
					// Drop the member and one comma beside it.
					valueEnd := valueEnd(data, skipSpace(data, colon+1))
					trimmed := bytes.TrimRight(out, " \t\r\n")
					if len(trimmed) > 0 && trimmed[len(trimmed)-1] == ',' {
						out = trimmed[:len(trimmed)-1]
					} else if next := skipSpace(data, valueEnd); next < len(data) && data[next] == ',' {
						valueEnd = next + 1
					}
					i = valueEnd
					continue
				}
				if resultDepth < 0 && keyIs(key, resultKey) {
					if v := skipSpace(data, colon+1); v < len(data) && data[v] == '{' {
						resultDepth = depth + 1
					}
				}
			}
			out = append(out, data[i:end]...)
			i = end
			continue
		}
		out = append(out, c)
		i++
	}
	return out
}

var resultKey = []byte("result")

func isOneOf(key []byte, names [][]byte) bool {
	for _, n := range names {
		if keyIs(key, n) {
			return true
		}
	}
	return false
}

// keyIs reports whether the quoted key reads name, escapes decoded.
func keyIs(quoted, name []byte) bool {
	if len(quoted) < 2 {
		return false
	}
	raw := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(raw, '\\') < 0 {
		return bytes.Equal(raw, name)
	}
	var s string
	return json.Unmarshal(quoted, &s) == nil && s == string(name)
}

// stringEnd returns the index just past the string starting at data[i] ('"').
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// valueEnd returns the index just past the JSON value starting at data[i].
func valueEnd(data []byte, i int) int {
	if i >= len(data) {
		return i
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = stringEnd(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	for j := i; j < len(data); j++ { // a number or a literal
		switch data[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
	}
	return len(data)
}
