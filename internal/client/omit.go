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
	// (Transcription.Utterances and TranslationItem.Utterances are nil),
	// and a live session's messages (Result.Messages is nil), which repeat
	// them as final transcripts.
	WithoutUtterances
	// WithRawResult is FullDetail, and keeps the result as the service
	// sent it (Result.JSON): whatever it holds, fields these types do not
	// know included. It costs another scan of the answer.
	WithRawResult
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
		return [][]byte{[]byte("utterances"), []byte("messages")}
	}
	return nil
}

// omitter removes every member whose key is one of names from the objects
// inside the value of any member named "result", as the text streams
// through it (write, then finish). It works on the bytes, before decoding,
// so that what is left out is neither decoded nor allocated, and a page is
// never held whole: scanning is several times faster than decoding, and
// the left-out members are most of a page. Invalid JSON comes out in some
// form the decoder then rejects.
//
// A string is copied as it is read; when a colon shows it to be a key to
// leave out, it is taken back out of out and its value skipped.
type omitter struct {
	names [][]byte
	out   []byte

	state       omitState
	depth       int
	resultDepth int  // depth of the value of the outermost "result" member; -1 outside
	escaped     bool // the last byte of a string read was an unescaped backslash
	strStart    int  // index in out of the last string's opening quote
	strEnd      int  // index in out just past its closing quote
	skipDepth   int  // nesting of the object or array being skipped
	dropComma   bool // no comma went with the left-out member before it: drop the one after
	space       []byte
}

type omitState uint8

const (
	omitBetween          omitState = iota // between tokens
	omitString                            // in a string, copied
	omitAfterString                       // after a string: a colon makes it a key
	omitResultValue                       // after `"result":`: an object opens the result
	omitSkipStart                         // after a left-out key's colon: before its value
	omitSkipString                        // in a left-out string value
	omitSkipNested                        // in a left-out object or array, outside strings
	omitSkipNestedString                  // in a string inside a left-out object or array
	omitSkipScalar                        // in a left-out number or literal
	omitComma                             // after a left-out value: a comma here goes with it
)

func newOmitter(names [][]byte, out []byte) *omitter {
	return &omitter{names: names, out: out, resultDepth: -1}
}

// write consumes the next bytes of the text.
func (o *omitter) write(p []byte) {
	for i := 0; i < len(p); {
		switch o.state {
		case omitBetween:
			// Copy up to the next quote or bracket in one go.
			j := i
			for j < len(p) && !structural[p[j]] {
				j++
			}
			o.out = append(o.out, p[i:j]...)
			if j == len(p) {
				return
			}
			switch c := p[j]; c {
			case '{', '[':
				o.depth++
			case '}', ']':
				if o.depth == o.resultDepth {
					o.resultDepth = -1
				}
				o.depth--
			case '"':
				o.state, o.strStart, o.escaped = omitString, len(o.out), false
			}
			o.out = append(o.out, p[j])
			i = j + 1
		case omitString:
			j := o.stringEnd(p, i)
			if j == len(p) {
				o.out = append(o.out, p[i:]...)
				return
			}
			o.out = append(o.out, p[i:j+1]...)
			o.state, o.strEnd = omitAfterString, len(o.out)
			i = j + 1
		case omitAfterString:
			switch c := p[i]; {
			case isSpace(c):
				o.out = append(o.out, c)
				i++
			case c == ':':
				key := o.out[o.strStart:o.strEnd]
				switch {
				case o.resultDepth >= 0 && isOneOf(key, o.names):
					// Drop the member and one comma beside it.
					o.out = o.out[:o.strStart]
					trimmed := bytes.TrimRight(o.out, " \t\r\n")
					o.dropComma = true
					if len(trimmed) > 0 && trimmed[len(trimmed)-1] == ',' {
						o.out, o.dropComma = trimmed[:len(trimmed)-1], false
					}
					o.state = omitSkipStart
				case o.resultDepth < 0 && keyIs(key, resultKey):
					o.out = append(o.out, c)
					o.state = omitResultValue
				default:
					o.out = append(o.out, c)
					o.state = omitBetween
				}
				i++
			default:
				o.state = omitBetween
			}
		case omitResultValue:
			if c := p[i]; isSpace(c) {
				o.out = append(o.out, c)
				i++
				continue
			}
			if p[i] == '{' {
				o.resultDepth = o.depth + 1
			}
			o.state = omitBetween
		case omitSkipStart:
			switch p[i] {
			case ' ', '\t', '\r', '\n':
				i++
			case '"':
				o.state, o.escaped = omitSkipString, false
				i++
			case '{', '[':
				o.state, o.skipDepth = omitSkipNested, 1
				i++
			default:
				o.state = omitSkipScalar // p[i] is read there
			}
		case omitSkipString, omitSkipNestedString:
			j := o.stringEnd(p, i)
			if j == len(p) {
				return
			}
			i = j + 1
			if o.state == omitSkipNestedString {
				o.state = omitSkipNested
			} else {
				o.skipped()
			}
		case omitSkipNested:
			// Skip to the end of the object or array in one go.
		skip:
			for ; i < len(p); i++ {
				switch p[i] {
				case '"':
					o.escaped = false
					if i = o.stringEnd(p, i+1); i == len(p) {
						o.state = omitSkipNestedString
						return
					}
				case '{', '[':
					o.skipDepth++
				case '}', ']':
					if o.skipDepth--; o.skipDepth == 0 {
						o.skipped()
						i++
						break skip
					}
				}
			}
		case omitSkipScalar:
			switch p[i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				o.skipped() // p[i] is read again after it
			default:
				i++
			}
		case omitComma:
			switch c := p[i]; {
			case isSpace(c):
				o.space = append(o.space, c)
				i++
			case c == ',':
				o.space = o.space[:0]
				o.state = omitBetween
				i++
			default:
				o.out = append(o.out, o.space...)
				o.space = o.space[:0]
				o.state = omitBetween
			}
		}
	}
}

// structural marks the bytes that open or close a string, object or array.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// stringEnd returns the index of the quote that closes the string p[i:]
// is in, or len(p) when p ends first (o.escaped then says whether it ended
// on a backslash). Most strings are short (keys, words): a plain loop beats
// bytes.IndexByte on them.
func (o *omitter) stringEnd(p []byte, i int) int {
	if o.escaped {
		o.escaped = false
		i++
	}
	for ; i < len(p); i++ {
		switch p[i] {
		case '"':
			return i
		case '\\':
			if i++; i == len(p) {
				o.escaped = true
			}
		}
	}
	return len(p)
}

// skipped ends the value of a left-out member.
func (o *omitter) skipped() {
	o.state = omitBetween
	if o.dropComma {
		o.state = omitComma
	}
}

// finish returns the text with the members left out.
func (o *omitter) finish() []byte {
	if o.state == omitComma {
		o.out = append(o.out, o.space...)
	}
	return o.out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

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
