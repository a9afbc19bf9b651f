package fakeserver

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

// wavWithChunks builds a RIFF/WAVE file from raw chunks (id, declared size, body).
func wavWithChunks(chunks ...struct {
	id   string
	size uint32
	body []byte
}) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF\x00\x00\x00\x00WAVE")
	for _, c := range chunks {
		b.WriteString(c.id)
		_ = binary.Write(&b, binary.LittleEndian, c.size)
		b.Write(c.body)
	}
	return b.Bytes()
}

// withRIFFSize sets the RIFF header's size, as a finished file has it.
func withRIFFSize(wav []byte) []byte {
	binary.LittleEndian.PutUint32(wav[4:8], uint32(len(wav)-8))
	return wav
}

// fmtChunk builds a PCM (format 1) fmt chunk; the parser reads only channels and rates.
func fmtChunk(channels uint16, rate uint32, bits uint16) []byte {
	var b bytes.Buffer
	for _, v := range []any{uint16(1), channels, rate, rate * uint32(channels) * uint32(bits/8), channels * bits / 8, bits} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

// formatChunk builds a fmt chunk of any format tag with the byte rate given.
func formatChunk(format, channels uint16, rate, byteRate uint32, bits uint16) []byte {
	var b bytes.Buffer
	for _, v := range []any{format, channels, rate, byteRate, uint16(256), bits} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

// extensibleFmtChunk builds a WAVE_FORMAT_EXTENSIBLE fmt chunk (40 bytes)
// whose subformat is the format tag given.
func extensibleFmtChunk(subformat, channels uint16, rate uint32, bits uint16) []byte {
	b := bytes.NewBuffer(formatChunk(wavFormatExtensible, channels, rate, rate*uint32(channels)*uint32(bits/8), bits))
	for _, v := range []any{uint16(22), bits, uint32(0), subformat} {
		_ = binary.Write(b, binary.LittleEndian, v)
	}
	b.Write([]byte("\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71")) // the rest of the GUID
	return b.Bytes()
}

type chunk = struct {
	id   string
	size uint32
	body []byte
}

func TestParseWAV(t *testing.T) {
	cases := []struct {
		name     string
		data     []byte
		channels int
		duration float64
		err      string
	}{
		{name: "mono 16-bit", data: testutil.SilentWAV(2.5, 1, 16000), channels: 1, duration: 2.5},
		{name: "stereo 44.1k", data: testutil.SilentWAV(1, 2, 44100), channels: 2, duration: 1},
		{name: "empty data", data: testutil.SilentWAV(0, 1, 8000), channels: 1, duration: 0},
		{name: "8-bit", data: wavWithChunks(chunk{"fmt ", 16, fmtChunk(1, 8000, 8)}, chunk{"data", 4000, make([]byte, 4000)}), channels: 1, duration: 0.5},
		{name: "24-bit stereo", data: wavWithChunks(chunk{"fmt ", 16, fmtChunk(2, 48000, 24)}, chunk{"data", 288000, make([]byte, 288000)}), channels: 2, duration: 1},
		{name: "odd chunk before data", data: wavWithChunks(
			chunk{"fmt ", 16, fmtChunk(1, 8000, 16)},
			chunk{"LIST", 3, []byte{1, 2, 3, 0}}, // padded to an even size
			chunk{"data", 16000, make([]byte, 16000)},
		), channels: 1, duration: 1},
		{name: "data before fmt", data: wavWithChunks(chunk{"data", 16000, make([]byte, 16000)}, chunk{"fmt ", 16, fmtChunk(1, 8000, 16)}), channels: 1, duration: 1},
		{name: "truncated data counts what is there", data: wavWithChunks(chunk{"fmt ", 16, fmtChunk(1, 8000, 16)}, chunk{"data", 0xFFFFFFFF, make([]byte, 8000)}), channels: 1, duration: 0.5},
		// A recorder streaming the file writes the sizes once it ends: one
		// that never did leaves them 0.
		{name: "streamed with sizes left 0", data: wavWithChunks(chunk{"fmt ", 16, fmtChunk(1, 8000, 16)}, chunk{"data", 0, make([]byte, 16000)}), channels: 1, duration: 1},
		{name: "empty data chunk of a finished file", data: withRIFFSize(wavWithChunks(chunk{"fmt ", 16, fmtChunk(1, 8000, 16)}, chunk{"data", 0, nil}, chunk{"LIST", 4, make([]byte, 4)})), channels: 1, duration: 0},
		{name: "not RIFF", data: []byte("ID3 this is an mp3 file"), err: "not a RIFF/WAVE file"},
		{name: "RIFF but not WAVE", data: []byte("RIFF\x00\x00\x00\x00AVI LIST"), err: "not a RIFF/WAVE file"},
		{name: "empty", data: nil, err: "not a RIFF/WAVE file"},
		{name: "no fmt", data: wavWithChunks(chunk{"data", 4, make([]byte, 4)}), err: "no fmt chunk"},
		{name: "no data", data: wavWithChunks(chunk{"fmt ", 16, fmtChunk(1, 8000, 16)}), err: "no data chunk"},
		{name: "short fmt", data: wavWithChunks(chunk{"fmt ", 8, make([]byte, 8)}), err: "too short"},
		{name: "zero channels", data: wavWithChunks(chunk{"fmt ", 16, fmtChunk(0, 8000, 16)}, chunk{"data", 4, make([]byte, 4)}), err: "invalid"},
		{name: "zero rate", data: wavWithChunks(chunk{"fmt ", 16, fmtChunk(1, 0, 16)}, chunk{"data", 4, make([]byte, 4)}), err: "invalid"},
		// Compressed audio lasts its data's size over the fmt chunk's byte
		// rate: 8 kHz IMA ADPCM (4 bits a sample, 4,055 bytes a second)
		// read as 4-bit PCM was taken for one byte a sample, 1.01 s.
		{name: "IMA ADPCM", data: wavWithChunks(chunk{"fmt ", 16, formatChunk(0x0011, 1, 8000, 4055, 4)}, chunk{"data", 8110, make([]byte, 8110)}), channels: 1, duration: 2},
		{name: "extensible PCM", data: wavWithChunks(chunk{"fmt ", 40, extensibleFmtChunk(wavFormatPCM, 2, 8000, 16)}, chunk{"data", 32000, make([]byte, 32000)}), channels: 2, duration: 1},
		{name: "extensible float", data: wavWithChunks(chunk{"fmt ", 40, extensibleFmtChunk(wavFormatIEEEFloat, 1, 8000, 32)}, chunk{"data", 16000, make([]byte, 16000)}), channels: 1, duration: 0.5},
		{name: "compressed without a byte rate", data: wavWithChunks(chunk{"fmt ", 16, formatChunk(0x0011, 1, 8000, 0, 4)}, chunk{"data", 4, make([]byte, 4)}), err: "gives no byte rate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			info, err := parseWAV(c.data)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if info.Channels != c.channels || info.Duration() != c.duration {
				t.Fatalf("channels %d, duration %v; want %d, %v", info.Channels, info.Duration(), c.channels, c.duration)
			}
		})
	}
}
