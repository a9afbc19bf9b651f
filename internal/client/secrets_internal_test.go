package client

import (
	"slices"
	"testing"
)

// The parts of a URL that may be credentials are masked; what locates it
// is not, nor a part too short to be a credential.
func TestURLCredentials(t *testing.T) {
	for raw, want := range map[string][]string{
		"https://media.example.com/a.wav":             nil,
		"https://media.example.com/a.wav?x=1&fmt=wav": {"x=1&fmt=wav"},
		"https://media.example.com/a.wav?X-Amz-Credential=AKIA%2F2026&X-Amz-Signature=5ig7w4lrus": {
			"X-Amz-Credential=AKIA%2F2026&X-Amz-Signature=5ig7w4lrus", "AKIA%2F2026", "AKIA/2026", "5ig7w4lrus"},
		"https://reader:pa55w0rd@media.example.com/a.wav":   {"reader:pa55w0rd", "pa55w0rd"},
		"https://reader:pw@media.example.com/a.wav":         {"reader:pw"},
		"https://media.example.com/a.wav#t0k3n-in-fragment": {"t0k3n-in-fragment"},
		"%zz://not a URL": nil,
	} {
		if got := urlCredentials(raw); !slices.Equal(got, want) {
			t.Errorf("urlCredentials(%q) = %q, want %q", raw, got, want)
		}
	}
}

// A callback URL may carry its token in its path: the path, and each of
// its segments long enough and holding a digit, are credentials too; words
// and short segments are not.
func TestCallbackURLCredentials(t *testing.T) {
	for raw, want := range map[string][]string{
		"https://hooks.example.com/transcriptions/done": nil,
		"https://hooks.example.com/services/T0123/B0456/xoxWren4Pine7": {
			"/services/T0123/B0456/xoxWren4Pine7", "xoxWren4Pine7"},
		"https://hooks.example.com/hook/ab%2Fc4d5e6f7?token=Otter5Maple": {
			"token=Otter5Maple", "Otter5Maple", "/hook/ab%2Fc4d5e6f7", "/hook/ab/c4d5e6f7", "ab%2Fc4d5e6f7", "ab/c4d5e6f7"},
		"https://hooks.example.com/cb7":         nil,
		"https://hooks.example.com/a/b1c2d3e4":  {"/a/b1c2d3e4", "b1c2d3e4"},
		"https://hooks.example.com/a/b/c1d2e3f": {"/a/b/c1d2e3f"},
		"%zz://not a URL":                       nil,
	} {
		if got := callbackURLCredentials(raw); !slices.Equal(got, want) {
			t.Errorf("callbackURLCredentials(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestMayBeToken: a path segment may be a token when it is long enough and
// holds a digit, a capital past its first letter, or is long with no
// separator; a word, capitalized or joined by separators, and a short
// segment are not.
func TestMayBeToken(t *testing.T) {
	for s, want := range map[string]bool{
		"xoxWren4Pine7":            true,
		"b1c2d3e4":                 true,
		"pRqWmZtXvBnYkLsHdFgJcAeU": true, // letters only, mixed case
		"TXQPLMZB":                 true, // capitals only
		"abcdefghjkmnpqrstuvw":     true, // 20 small letters, no separator
		"transcriptions":           false,
		"Callbacks":                false,
		"transcription-callbacks":  false,
		"done_hook":                false,
		"Tok9ab":                   false, // shorter than 8
		"":                         false,
	} {
		if got := MayBeToken(s); got != want {
			t.Errorf("MayBeToken(%q) = %v, want %v", s, got, want)
		}
	}
}

// A text that quotes a secret in any of the forms JSON gives it is
// masked, the longest secret first, and a secret's beginning at the end
// of a text cut short too.
func TestSecrets_mask(t *testing.T) {
	hide := newSecrets("https://h.example.com/cb", "https://h.example.com/cb?token=t0k3n&x=<1>", "k3y-0123")
	for text, want := range map[string]string{
		"hook https://h.example.com/cb?token=t0k3n&x=<1> refused":                   "hook *** refused",
		`hook https:\/\/h.example.com\/cb?token=t0k3n\u0026x=\u003c1\u003e refused`: "hook *** refused",
		"hook https://h.example.com/cb refused":                                     "hook *** refused",
		"key k3y-0123.":                                                             "key ***.",
	} {
		if got := hide.mask(text); got != want {
			t.Errorf("mask(%q) = %q, want %q", text, got, want)
		}
	}
	for text, want := range map[string]string{
		"key k3y-01":   "key ***",
		"key k3y":      "key ", // too short a part to mask: dropped
		"key k3":       "key ",
		"key k":        "key ",
		"key kk":       "key k", // only what may begin the key
		"key a":        "key a",
		"key k3y-0123": "key ***",
		"key k3y-012":  "key ***", // all but the last byte
		"key k3y-":     "key ***", // the shortest part masked
	} {
		if got := hide.maskCut(text); got != want {
			t.Errorf("maskCut(%q) = %q, want %q", text, got, want)
		}
	}
	// The end holds 4 bytes of one secret and 7 of another: the longer part
	// goes, or the other secret's first 3 bytes would stay.
	overlapping := newSecrets("defg-a-longer-secret", "abcdefgh")
	if got, want := overlapping.maskCut("key abcdefg"), "key ***"; got != want {
		t.Errorf("maskCut with overlapping beginnings = %q, want %q", got, want)
	}
}

// A secret holding a quote and a character Go's encoder escapes as HTML is
// masked as an encoder that does not escape HTML writes it.
func TestSecrets_maskPlainJSONForm(t *testing.T) {
	hide := newSecrets(`k3y"<0123>`)
	if got, want := hide.mask(`{"key":"k3y\"<0123>"}`), `{"key":"***"}`; got != want {
		t.Errorf("mask = %q, want %q", got, want)
	}
}

// An empty or blank value is no secret: it masks nothing (replacing ""
// would put the mask between every character, and a blank callback URL,
// which the service refuses, made every space of its refusal "***").
func TestSecrets_emptyValue(t *testing.T) {
	hide := newSecrets("", "k3y-0123")
	if got, want := hide.mask("key k3y-0123."), "key ***."; got != want {
		t.Errorf("mask = %q, want %q", got, want)
	}
	for _, blank := range []string{"", " ", "\t\n "} {
		if got := newSecrets(blank).maskCut("a callback is required "); got != "a callback is required " {
			t.Errorf("mask with the secret %q = %q, want the text as it is", blank, got)
		}
	}
}
