package fakeserver

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// wavInfo is what a WAV header tells of its audio.
type wavInfo struct {
	Channels      int
	SampleRate    int
	BitsPerSample int
	DataBytes     int64
}

// Duration is the length of the audio in seconds.
func (w wavInfo) Duration() float64 {
	bytesPerSecond := w.SampleRate * w.Channels * ((w.BitsPerSample + 7) / 8)
	return float64(w.DataBytes) / float64(bytesPerSecond)
}

// parseWAV reads the RIFF/WAVE header of a file: the fmt chunk and the size
// of the data chunk. A data chunk declaring more bytes than the file holds
// (a truncated or streamed recording) counts the bytes actually present.
func parseWAV(data []byte) (wavInfo, error) {
	if len(data) < 12 || string(data[0:4]) != "RIFF" || string(data[8:12]) != "WAVE" {
		return wavInfo{}, errors.New("not a RIFF/WAVE file")
	}
	var info wavInfo
	haveFmt, haveData := false, false
	for pos := 12; pos+8 <= len(data) && (!haveFmt || !haveData); {
		id := string(data[pos : pos+4])
		size := int64(binary.LittleEndian.Uint32(data[pos+4 : pos+8]))
		body := data[pos+8:]
		if size < int64(len(body)) {
			body = body[:size]
		}
		switch id {
		case "fmt ":
			if len(body) < 16 {
				return wavInfo{}, errors.New("the fmt chunk is too short")
			}
			info.Channels = int(binary.LittleEndian.Uint16(body[2:4]))
			info.SampleRate = int(binary.LittleEndian.Uint32(body[4:8]))
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
	}
	return info, nil
}
