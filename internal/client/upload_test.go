package client_test

import (
	"strings"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

// SniffMedia takes recordings of every kind, and bytes no sniffing rule
// knows (many recording formats), as media; text, pages, images, documents,
// fonts and archives not.
func TestSniffMedia(t *testing.T) {
	for name, tc := range map[string]struct {
		head  string
		media bool
	}{
		"WAV":                                  {string(testutil.SilentWAV(0.1, 1, 8000)), true},
		"MP3 with ID3":                         {"ID3\x03\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x64" + strings.Repeat("U", 100), true},
		"Ogg":                                  {"OggS\x00\x02" + strings.Repeat("\x00", 100), true},
		"MP4":                                  {"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom", true},
		"WebM":                                 {"\x1a\x45\xdf\xa3" + strings.Repeat("\x00", 60), true},
		"FLAC":                                 {"fLaC\x00\x00\x00\x22" + strings.Repeat("\x10\x00", 100), true},
		"raw PCM silence":                      {strings.Repeat("\x00", 512), true},
		"MPEG-1 Layer I with CRC":              {strings.Repeat("\xff\xfe\x90\x44"+strings.Repeat("\x31", 60), 8), true},
		"raw samples like an icon":             {"\x00\x00\x01\x00" + strings.Repeat("\x02\x00\xfe\xff", 100), true},
		"raw samples like a font":              {"\x00\x01\x00\x00" + strings.Repeat("\x02\x00\xfe\xff", 100), true},
		"raw samples like a BMP":               {"BM" + strings.Repeat("\x02\x00\xfe\xff", 100), true},
		"quiet 8-bit samples":                  {strings.Repeat("\x80\x81\x7f\x80", 128), true},
		"quiet mu-law samples":                 {strings.Repeat("\xff\x7f\xfe\xff", 128), true},
		"NIST SPHERE":                          {"NIST_1A\n   1024\nsample_count -i 16000\nsample_rate -i 16000\nend_head\n" + strings.Repeat(" ", 400), true},
		"AMR with no-data frames":              {"#!AMR\n" + strings.Repeat("|", 300), true},
		"A-law silence":                        {strings.Repeat("U", 512), true},
		"quiet 8-bit samples below the middle": {strings.Repeat("\x7f\x7e\x7d\x7f", 128), true},
		"a recording whose first 512 bytes are all that is read": {strings.Repeat("\x00", 512) + "just some text, not audio\n", true},
		"text with no white space, then a lot more":              {strings.Repeat("a", 600) + "\n", true},
		"a Git LFS pointer":      {"version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12345\n", false},
		"subtitles":              {"1\n00:00:01,000 --> 00:00:02,000\nBonjour à tous\n", false},
		"text cut inside a rune": {strings.Repeat("é ", 170) + "\xc3", false},
		"text":                   {"a transcript, not audio\n", false},
		"JSON":                   {`{"audio_url": "https://example.com/a.wav"}`, false},
		"HTML":                   {"<!DOCTYPE html><html></html>", false},
		"PNG":                    {"\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 64), false},
		"PDF":                    {"%PDF-1.7\n" + strings.Repeat("\x00", 64), false},
		"zip":                    {"PK\x03\x04" + strings.Repeat("\x00", 64), false},
		"gzip":                   {"\x1f\x8b\x08" + strings.Repeat("\x00", 64), false},
	} {
		t.Run(name, func(t *testing.T) {
			contentType, media := client.SniffMedia([]byte(tc.head))
			if media != tc.media {
				t.Errorf("SniffMedia = %q, %t; want media %t", contentType, media, tc.media)
			}
		})
	}
}
