package fakeserver

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/transcription-service/terraform-provider-transcription/internal/wav"
)

// wavInfo is what a WAV header tells of its audio.
type wavInfo struct {
	Channels      int
	SampleRate    int
	BitsPerSample int
	DataBytes     int64
	// Compressed audio (a format tag other than PCM or IEEE float, such as
	// ADPCM) does not take BitsPerSample/8 bytes a sample: its duration is
	// the data's size over ByteRate, the fmt chunk's bytes per second.
	Compressed bool
	ByteRate   int
}

// WAV format tags of uncompressed audio (in the fmt chunk, or in the
// subformat of WAVE_FORMAT_EXTENSIBLE).
const (
	wavFormatPCM        = 0x0001
	wavFormatIEEEFloat  = 0x0003
	wavFormatExtensible = 0xFFFE
)

// Duration is the length of the audio in seconds.
func (w wavInfo) Duration() float64 {
	if w.Compressed {
		return float64(w.DataBytes) / float64(w.ByteRate)
	}
	bytesPerSecond := w.SampleRate * w.Channels * ((w.BitsPerSample + 7) / 8)
	return float64(w.DataBytes) / float64(bytesPerSecond)
}

// isWAV reports whether data starts as a WAV file does: a RIFF header of
// form WAVE.
func isWAV(data []byte) bool {
	return len(data) >= 12 && string(data[0:4]) == "RIFF" && string(data[8:12]) == "WAVE"
}

// parseWAV reads the RIFF/WAVE header of a file: the fmt chunk and the size
// of the data chunk. A data chunk declaring more bytes than the file holds
// (a truncated or streamed recording) counts the bytes actually present, and
// so does one declaring none in a file whose RIFF size is 0 too (streamed,
// its sizes never filled in).
func parseWAV(data []byte) (wavInfo, error) {
	if !isWAV(data) {
		return wavInfo{}, errors.New("not a RIFF/WAVE file")
	}
	var info wavInfo
	haveFmt, haveData := false, false
	for pos := 12; pos+8 <= len(data) && (!haveFmt || !haveData); {
		id := string(data[pos : pos+4])
		size := int64(binary.LittleEndian.Uint32(data[pos+4 : pos+8]))
		body := data[pos+8:]
		if id == "data" && size == 0 && binary.LittleEndian.Uint32(data[4:8]) == 0 {
			// A streamed recording whose writer never came back to fill
			// in the sizes: its data is the rest of the file.
			size = int64(len(body))
		}
		if size < int64(len(body)) {
			body = body[:size]
		}
		switch id {
		case "fmt ":
			if len(body) < 16 {
				return wavInfo{}, errors.New("the fmt chunk is too short")
			}
			format := binary.LittleEndian.Uint16(body[0:2])
			if format == wavFormatExtensible && len(body) >= 26 {
				format = binary.LittleEndian.Uint16(body[24:26]) // the subformat GUID's first two bytes
			}
			info.Compressed = format != wavFormatPCM && format != wavFormatIEEEFloat
			info.Channels = int(binary.LittleEndian.Uint16(body[2:4]))
			info.SampleRate = int(binary.LittleEndian.Uint32(body[4:8]))
			info.ByteRate = int(binary.LittleEndian.Uint32(body[8:12]))
			info.BitsPerSample = int(binary.LittleEndian.Uint16(body[14:16]))
			haveFmt = true
		case "data":
			info.DataBytes = int64(len(body))
			haveData = true
		}
		// Chunks are padded to an even size.
		pos += 8 + len(body) + len(body)%2
	}
	switch {
	case !haveFmt:
		return wavInfo{}, errors.New("the WAV file has no fmt chunk")
	case !haveData:
		return wavInfo{}, errors.New("the WAV file has no data chunk")
	case info.Channels == 0 || info.SampleRate == 0 || info.BitsPerSample == 0:
		return wavInfo{}, fmt.Errorf("the WAV fmt chunk is invalid (channels %d, sample rate %d, bits per sample %d)",
			info.Channels, info.SampleRate, info.BitsPerSample)
	case info.Compressed && info.ByteRate == 0:
		return wavInfo{}, errors.New("the WAV fmt chunk of compressed audio gives no byte rate, so its duration is unknown")
	}
	return info, nil
}

// Synthetic audio: the file of a job whose audio the server never received
// (an external URL, a seeded live session) is silence in 16-bit PCM WAV.
const (
	silentSampleRate     = 16000
	silentBytesPerSample = 2
	// maxWAVDataBytes is what the 32-bit sizes of a RIFF header can describe.
	maxWAVDataBytes = math.MaxUint32 - 36
)

// silentWAV is a WAV file of silence, produced on the fly: an io.ReadSeeker
// of its bytes, so that it can be served with ranges without being held in
// memory.
type silentWAV struct {
	header []byte
	size   int64
	pos    int64
}

// newSilentWAV describes duration seconds of silence on channels channels at
// 16 kHz (a file past the 4 GiB a WAV can describe is cut there).
func newSilentWAV(duration float64, channels int64) *silentWAV {
	channels = min(max(channels, 1), 64)
	frameBytes := channels * silentBytesPerSample
	frames := int64(0)
	if duration > 0 && !math.IsInf(duration, 0) {
		frames = int64(math.Min(math.Round(duration*silentSampleRate), float64(maxWAVDataBytes/frameBytes)))
	}
	data := frames * frameBytes
	h := wav.Header(uint16(channels), silentSampleRate, 8*silentBytesPerSample, uint32(data))
	return &silentWAV{header: h, size: 44 + data}
}

func (s *silentWAV) Read(p []byte) (int, error) {
	if s.pos >= s.size {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), s.size-s.pos)]
	n := 0
	if s.pos < int64(len(s.header)) {
		n = copy(p, s.header[s.pos:])
	}
	clear(p[n:])
	s.pos += int64(len(p))
	return len(p), nil
}

func (s *silentWAV) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += s.pos
	case io.SeekEnd:
		offset += s.size
	default:
		return 0, errors.New("silentWAV.Seek: invalid whence")
	}
	if offset < 0 {
		return 0, errors.New("silentWAV.Seek: negative position")
	}
	s.pos = offset
	return offset, nil
}
